"""Tolerations with operator Lt or Gt (KEP-5471, gate TaintTolerationComparisonOperators, alpha and off in 1.36 and
1.37): `wasplan plan` end to end on manifests, and `wasplan validate`'s verdict without the gate.

Follows k8s.io/api core/v1 toleration.go ToleratesTaint and compareNumericValues (the taint's value against the
toleration's, both read as decimal int64; a value that does not read as one tolerates nothing), the cases of
pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go (Gt 750 on sla=950 fits, Gt 950 on 800
does not, Lt likewise, Gt on a non-numeric taint does not), and pkg/apis/core/validation ValidateTolerations (Lt and
Gt refused as unsupported without the gate). tests/oracle/test_oracle_tolerations.py plans the same files with
upstream's scheduler.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from wasplan.cli.app import app

GATE = "TaintTolerationComparisonOperators=true"

CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: gold, labels: {kubernetes.io/hostname: gold}}
spec:
  taints: [{key: example.com/sla, value: "950", effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: bronze, labels: {kubernetes.io/hostname: bronze}}
spec:
  taints: [{key: example.com/sla, value: "800", effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: unrated, labels: {kubernetes.io/hostname: unrated}}
spec:
  taints: [{key: example.com/sla, value: high, effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def pod(name: str, operator: str, value: str) -> str:
    return f"""\
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  containers: [{{name: c, image: registry.example/app:1, resources: {{requests: {{cpu: "1"}}}}}}]
  tolerations: [{{key: example.com/sla, operator: {operator}, value: "{value}", effect: NoSchedule}}]
"""


# Each pod alone tolerates the taints whose value compares; `unrated` (value "high") tolerates none of them.
MANIFESTS = "---\n".join([
    pod("above-900", "Gt", "900"),   # only gold (950 > 900)
    pod("below-900", "Lt", "900"),   # only bronze (800 < 900)
    pod("above-960", "Gt", "960"),   # no node
    pod("exactly-950", "Equal", "950"),
])


# 1.36's DynamicResources PostFilter adds its verdict even for a pod without claims (capability
# dra_post_filter_silent, api/releases.py)
DRA_POST_FILTER = {"1.36": "no new claims to deallocate, ", "1.37": ""}


def write(tmp_path) -> tuple[str, str]:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "pods.yaml").write_text(MANIFESTS)
    return str(tmp_path / "pods.yaml"), str(tmp_path / "cluster.yaml")


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_thresholds_decide_the_nodes(tmp_path, release):
    pods, cluster = write(tmp_path)
    result = CliRunner().invoke(app, ["plan", pods, "--cluster", cluster, "--k8s-version", release,
                                      "--feature-gates", GATE, "-o", "json"])
    assert result.exit_code == 1, result.output  # a pod stays pending
    plan = {p["name"]: (p["status"], p["node"], p["message"]) for p in json.loads(result.output)["pods"]}
    assert plan == {
        "above-900": ("Bound", "gold", "Successfully assigned default/above-900 to gold"),
        "below-900": ("Bound", "bronze", "Successfully assigned default/below-900 to bronze"),
        "above-960": ("Pending", None, "0/3 nodes are available: 3 node(s) had untolerated taint(s). "
                      + DRA_POST_FILTER[release] + "preemption: 0/3 nodes are available: 3 Preemption is not "
                      "helpful for scheduling."),
        "exactly-950": ("Bound", "gold", "Successfully assigned default/exactly-950 to gold"),
    }


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_without_the_gate_the_api_server_refuses_lt_and_gt(tmp_path, release):
    pods, _ = write(tmp_path)
    result = CliRunner().invoke(app, ["validate", pods, "--k8s-version", release, "-o", "json"])
    assert result.exit_code == 1, result.output
    found = [(d["code"], d["line"], d["field"]) for doc in json.loads(result.output)["documents"]
             for d in doc["diagnostics"]]
    assert found == [("WAS104", 6, "spec.tolerations[0].operator"), ("WAS104", 13, "spec.tolerations[0].operator"),
                     ("WAS104", 20, "spec.tolerations[0].operator")]


@pytest.mark.parametrize("value, message", [
    ("0950", "a toleration with operator Gt compares integers: its value '0950' must be a decimal integer within "
             "int64 (an optional '-', no leading zero)"),
    ("9223372036854775808", "a toleration with operator Gt compares integers: its value '9223372036854775808' must "
                            "be a decimal integer within int64 (an optional '-', no leading zero)"),
    ("+5", "a toleration with operator Gt compares integers: its value '+5' must be a decimal integer within int64 "
           "(an optional '-', no leading zero)"),
])
def test_with_the_gate_the_value_must_be_an_int64(tmp_path, value, message):
    path = tmp_path / "pod.yaml"
    path.write_text(pod("p", "Gt", value))
    result = CliRunner().invoke(app, ["validate", str(path), "--feature-gates", GATE, "-o", "json"])
    assert result.exit_code == 1, result.output
    found = [(d["code"], d["field"], d["message"]) for doc in json.loads(result.output)["documents"]
             for d in doc["diagnostics"]]
    assert found == [("WAS107", "spec.tolerations[0].value", message)]


@pytest.mark.parametrize("value", ["0", "-5", "9223372036854775807"])
def test_with_the_gate_an_int64_value_is_valid(tmp_path, value):
    path = tmp_path / "pod.yaml"
    path.write_text(pod("p", "Lt", value))
    result = CliRunner().invoke(app, ["validate", str(path), "--feature-gates", GATE])
    assert result.exit_code == 0, result.output

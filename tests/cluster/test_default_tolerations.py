"""DefaultTolerationSeconds: the not-ready and unreachable NoExecute tolerations (300 s) a pod gets on create,
unless one of its own already covers them, and what that means for the plan (a node tainted only
`node.kubernetes.io/not-ready:NoExecute` does not keep the pod off, as upstream's TaintToleration filter does
not, which ignores tolerationSeconds)."""

import json
import textwrap

from typer.testing import CliRunner

from wasplan.cli.app import app
from wasplan.cli.lazy import load_all
from wasplan.cluster.model import Toleration
from wasplan.cluster.placement import written_tolerations

from .helpers import record

NOT_READY = Toleration("node.kubernetes.io/not-ready", "Exists", "", "NoExecute", 300)
UNREACHABLE = Toleration("node.kubernetes.io/unreachable", "Exists", "", "NoExecute", 300)


def _pod(tolerations: str = "") -> str:
    return f"""
    apiVersion: v1
    kind: Pod
    metadata: {{name: p}}
    spec:
      containers: [{{name: c, image: x}}]
      {tolerations}
    """


def test_a_pod_without_tolerations_gets_both_defaults():
    pod, diags = record(_pod())
    assert diags == []
    assert pod.tolerations == (NOT_READY, UNREACHABLE)
    assert written_tolerations(pod.tolerations) == ()


def test_a_toleration_of_every_key_and_effect_covers_both():
    pod, _ = record(_pod("tolerations: [{operator: Exists}]"))
    assert pod.tolerations == (Toleration("", "Exists", "", ""),)


def test_an_own_not_ready_toleration_keeps_its_seconds_and_only_unreachable_is_added():
    pod, _ = record(_pod("tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, "
                         "tolerationSeconds: 60}]"))
    assert pod.tolerations == (Toleration("node.kubernetes.io/not-ready", "Exists", "", "NoExecute", 60), UNREACHABLE)
    assert written_tolerations(pod.tolerations) == pod.tolerations[:1]


def test_a_no_schedule_toleration_of_the_key_does_not_cover_it():
    pod, _ = record(_pod("tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoSchedule}]"))
    assert pod.tolerations == (Toleration("node.kubernetes.io/unreachable", "Exists", "", "NoSchedule"),
                               NOT_READY, UNREACHABLE)


def test_a_mistyped_toleration_seconds_is_reported_at_its_field():
    pod, diags = record(_pod("tolerations: [{key: a, operator: Exists, tolerationSeconds: soon}]"))
    assert [(d.code, d.message, d.location.file, d.location.line, d.location.field) for d in diags] == [
        ("WAS602", "tolerationSeconds must be an integer, got 'soon'", "input.yaml", 7,
         "spec.tolerations[0].tolerationSeconds")]


CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: busy}
spec:
  taints: [{key: dedicated, value: infra, effect: NoSchedule}]
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: not-ready}
spec:
  taints: [{key: node.kubernetes.io/not-ready, effect: NoExecute}]
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
"""


def test_a_pod_is_planned_onto_a_node_tainted_only_not_ready_no_execute(tmp_path):
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "pod.yaml").write_text(textwrap.dedent(_pod()).replace(
        "containers: [{name: c, image: x}]", "containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]"))
    load_all()
    result = CliRunner().invoke(app, ["plan", str(tmp_path / "pod.yaml"), "--cluster", str(tmp_path / "cluster.yaml"),
                                      "-o", "json"], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout
    pods = json.loads(result.stdout)["pods"]
    assert [(p["name"], p["status"], p["node"]) for p in pods] == [("p", "Bound", "not-ready")]

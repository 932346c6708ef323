"""explain TARGETs for the workloads wasplan expands: jobset/, lws/ (leaderworkerset/), deployment/,
statefulset/, replicaset/ resolve to the pods (or PodGroups) they own, directly or through their owner chain."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import run
from tests.cluster.helpers import inputs
from wasplan.explain.target import TargetError, Unit, resolve

WORKLOADS = Path(__file__).resolve().parents[2] / "fixtures" / "workloads"


def _inputs(*names: str, version: str = "1.37"):
    text = "---\n".join((WORKLOADS / n).read_text() for n in names)
    plan_inputs, _ = inputs(manifests=text, version=version)
    return plan_inputs


def test_jobset_and_its_child_job_resolve_to_their_pods():
    plan_inputs = _inputs("jobset-startup-in-order.yaml")
    assert resolve("jobset/startup-driver-ready", None, plan_inputs) == [
        Unit("Pod", "default/startup-driver-ready-driver-0-0"),
        *(Unit("Pod", f"default/startup-driver-ready-workers-0-{i}") for i in range(4))]
    assert resolve("job/startup-driver-ready-driver-0", None, plan_inputs) == [
        Unit("Pod", "default/startup-driver-ready-driver-0-0")]


def test_jobset_pods_in_a_podgroup_resolve_to_the_group():
    plan_inputs = _inputs("jobset-gang.yaml", version="1.36")
    assert resolve("js/js", None, plan_inputs) == [Unit("PodGroup", "default/js-abc-workers-def")]


@pytest.mark.parametrize("target", ["lws/leaderworkerset-multi-template",
                                    "leaderworkerset/leaderworkerset-multi-template"])
def test_lws_targets(target):
    units = resolve(target, None, _inputs("lws-multi-template.yaml"))
    assert units[:2] == [Unit("Pod", "default/leaderworkerset-multi-template-0"),
                         Unit("Pod", "default/leaderworkerset-multi-template-1")] and len(units) == 12


def test_deployment_statefulset_replicaset_targets():
    plan_inputs = _inputs("deployment.yaml", "statefulset.yaml", "replicaset.yaml")
    assert [u.key for u in resolve("deployment/nginx-deployment", None, plan_inputs)] == [
        f"default/nginx-deployment-67fcb6756f-{i}" for i in range(3)]
    assert [u.key for u in resolve("replicaset/nginx-deployment-67fcb6756f", None, plan_inputs)] == [
        f"default/nginx-deployment-67fcb6756f-{i}" for i in range(3)]
    assert [u.key for u in resolve("sts/web", None, plan_inputs)] == ["default/web-0", "default/web-1"]
    assert [u.key for u in resolve("rs/frontend", None, plan_inputs)] == [f"default/frontend-{i}" for i in range(3)]
    with pytest.raises(TargetError, match="WAS801 no StatefulSet named 'webb'; did you mean statefulset/default/web"):
        resolve("statefulset/webb", None, plan_inputs)


def test_explain_cli_on_a_jobset_whose_driver_does_not_fit(tmp_path):
    huge = (WORKLOADS / "jobset-startup-in-order.yaml").read_text().replace(
        "            - sleep\n              args:\n                - 1000s",
        "            - sleep\n              resources: {requests: {cpu: '64'}}")
    (tmp_path / "js.yaml").write_text(huge)
    result = run("explain", "jobset/startup-driver-ready", str(tmp_path / "js.yaml"), "--cluster",
                 str(WORKLOADS / "cluster.yaml"), env={"COLUMNS": "200"})  # wide enough that no line wraps
    assert result.exit_code == 1
    assert "Pod default/startup-driver-ready-driver-0-0: does not fit: 0/12 nodes are available: 12 Insufficient cpu" \
        in result.stdout
    # the four workers wait alike: one block naming them all; -v gives each its own
    assert ("4 Pods default/startup-driver-ready-workers-0-[0-3]: waits for its controller to create it (not "
            "created: JobSet startupPolicy InOrder: created once every pod of replicated job driver runs)") \
        in result.stdout
    verbose = run("explain", "jobset/startup-driver-ready", str(tmp_path / "js.yaml"), "--cluster",
                  str(WORKLOADS / "cluster.yaml"), "-v", env={"COLUMNS": "200"})
    assert ("Pod default/startup-driver-ready-workers-0-0: waits for its controller to create it (not created: "
            "JobSet startupPolicy InOrder: created once every pod of replicated job driver runs)") in verbose.stdout

"""The Kubernetes 1.38 oracle (oracle/k8s138, k8s.io/kubernetes v1.38.0-beta.0, built with Go 1.27.3): a smoke
test that runs the built binary on small inputs and checks what it prints against what the 1.38 code says
(/work/shared/reference/release-1.38.md §2 and §4.1; upstream files: pkg/scheduler/framework/plugins/
gangscheduling/gangscheduling.go PlacementFeasible, pkg/scheduler/types.go podGroupFitError, schedule_one.go,
pkg/apis/scheduling/validation/validation.go ValidateCompositePodGroup, pkg/apis/scheduling/install).

These are the oracle's own facts; wasplan's 1.38 plans are compared with it by the differential suites
(gen.RELEASES has 1.38) and hold the same messages without Go in tests/engine/test_scheduler_138.py
(docs/oracle.md, "Kubernetes 1.38"). The test is skipped when the 1.38 binary was not built (oracle/build skips
it when the go1.27.3 toolchain cannot be fetched).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.oracle.conftest import oracle_plan, run_oracle

RELEASE = "1.38"


@pytest.fixture(scope="module")
def oracle_138(oracle_bin: Path) -> Path:
    """The 1.38 binary: WASPLAN_ORACLE itself when it is one, else the dispatcher's sibling oracle-1.38."""
    binary = oracle_bin if oracle_bin.name == "oracle-1.38" else oracle_bin.parent / "oracle-1.38"
    if not binary.is_file():
        pytest.skip(f"no Kubernetes 1.38 oracle at {binary} (oracle/build 1.38 needs the go1.27.3 toolchain)")
    return binary


def _node(name: str, rack: str) -> str:
    return f"""---
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, rack: {rack}}}}}
status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}, capacity: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
"""


def _gang(topology: bool) -> str:
    """PodGroup pg (gang, minCount 3) and three members asking 2 CPUs each: a 4-CPU node holds two of them."""
    constraints = "\n  schedulingConstraints: {topology: [{key: rack}]}" if topology else ""
    group = f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: pg, namespace: default}}
spec:
  schedulingPolicy: {{gang: {{minCount: 3}}}}{constraints}
"""
    return group + "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: m-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: pg}}
  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "2"}}}}}}]
""" for i in range(3))


def _plan(binary: Path, tmp_path: Path, manifests: str, cluster: str) -> dict:
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(cluster)
    run = oracle_plan(binary, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], RELEASE, arrival="batch")
    assert run.returncode in (0, 1), run.stderr
    plan = run.json
    assert plan["k8sVersion"] == RELEASE
    return plan


# gangscheduling.go PlacementFeasible (1.38 counts unschedulable and not-evaluated members), followed by what
# the PodGroupPostFilter plugins say: DynamicResources for a group without a topology constraint, then
# DefaultPreemption ("Unschedulable" in 1.38, so the chain goes on past DynamicResources)
THRESHOLD = "scheduling policy's minimum threshold (3) cannot be satisfied: 2 scheduled, 1 unschedulable, 0 not-evaluated"
PREEMPTION = "pod group preemption: No preemption victims found for incoming preemptor"


def test_failed_gang_message_and_members(oracle_138, tmp_path):
    plan = _plan(oracle_138, tmp_path, _gang(topology=False), _node("n0", "r1"))
    [group] = plan["podGroups"]
    assert (group["name"], group["status"]) == ("pg", "Unschedulable")
    # with TopologyAwareWorkloadScheduling on (wasplan's profile) a group without a topology constraint is one
    # placement, the whole cluster, and its message takes the placement form too; DynamicResources' reason is
    # there (it is bare only for a group with a topology constraint)
    assert group["message"] == ("0/1 placements are available, first placement status: "
                                f"{THRESHOLD}, deallocation and deletion of ResourceClaims completed, {PREEMPTION}")
    messages = sorted(p["message"] for p in plan["pods"])
    # the members that fitted name their parent group (schedule_one.go, podGroupFitError); no "pod group is
    # unschedulable, " prefix as in 1.37
    assert messages == ["0/1 nodes are available: 1 Insufficient cpu.",
                        'parent pod group "pg" is unschedulable', 'parent pod group "pg" is unschedulable']
    assert all(p["status"] == "Pending" and p["node"] is None for p in plan["pods"])


def test_failed_gang_with_topology_reports_its_placements(oracle_138, tmp_path):
    plan = _plan(oracle_138, tmp_path, _gang(topology=True), _node("n0", "r1") + _node("n1", "r2"))
    [group] = plan["podGroups"]
    # one placement per rack, none holding three members; DynamicResources adds nothing for a TAS group
    assert group["message"] == f"0/2 placements are available, first placement status: {THRESHOLD}, {PREEMPTION}"
    assert sorted({p["message"] for p in plan["pods"]})[-1] == 'parent pod group "pg" is unschedulable'


COMPOSITE = """apiVersion: scheduling.k8s.io/{version}
kind: CompositePodGroup
metadata: {{name: stage, namespace: default}}
spec:
  workloadRef: {{workloadName: pipeline, templateName: stage}}
  schedulingPolicy: {{{policy}}}
  disruptionMode: {{{mode}: {{}}}}
"""


def _validate(binary: Path, tmp_path: Path, text: str, release: str = RELEASE) -> tuple[int, list[dict]]:
    (tmp_path / "v.yaml").write_text(text)
    run = run_oracle(binary, ["validate", tmp_path / "v.yaml", "--k8s-version", release, "-o", "json"])
    assert run.returncode in (0, 1), run.stderr
    return run.returncode, json.loads(run.stdout)["documents"]


def test_v1beta1_composite_pod_group_is_served_and_validated(oracle_138, tmp_path):
    code, [doc] = _validate(oracle_138, tmp_path, COMPOSITE.format(version="v1beta1", policy="gang: {minGroupCount: 2}",
                                                                  mode="all"))
    assert (code, doc["kind"], doc["apiVersion"], doc["verdict"], doc["errors"]) == (
        0, "CompositePodGroup", "scheduling.k8s.io/v1beta1", "valid", [])


def test_basic_composite_pod_group_cannot_be_disrupted_all_together(oracle_138, tmp_path):
    # new in 1.38 (ValidateCompositePodGroup): `all` needs the gang policy
    code, [doc] = _validate(oracle_138, tmp_path, COMPOSITE.format(version="v1beta1", policy="basic: {}", mode="all"))
    assert (code, doc["verdict"]) == (1, "invalid")
    [error] = doc["errors"]
    assert error["field"] == "spec.disruptionMode"
    assert 'cannot have "all" disruption mode when scheduling policy is other than "gang"' in error["message"]


def test_convert_v1alpha3_composite_pod_group_to_v1beta1(oracle_138, tmp_path):
    (tmp_path / "cpg.yaml").write_text(COMPOSITE.format(version="v1alpha3", policy="gang: {minGroupCount: 2}",
                                                        mode="all"))
    for forced in ([], ["--to", "scheduling.k8s.io/v1beta1"]):
        # v1beta1 comes before v1alpha3 in the group's priority list (install.go), and now has the kind
        run = run_oracle(oracle_138, ["convert", tmp_path / "cpg.yaml", "--to-k8s", RELEASE, *forced, "-o", "yaml"])
        assert run.returncode == 0, run.stderr
        [item] = yaml.safe_load(run.stdout)["items"]
        assert (item["apiVersion"], item["kind"]) == ("scheduling.k8s.io/v1beta1", "CompositePodGroup")
        assert item["spec"]["schedulingPolicy"] == {"gang": {"minGroupCount": 2}}
        assert item["spec"]["disruptionMode"] == {"all": {}}


def test_removed_gates_are_refused(oracle_138, tmp_path):
    # PodGroupPreemptionPolicy and DynamicResourceAllocation are gone in 1.38 (kube_features.go): naming them
    # is a usage error, and the 1.38 profile no longer passes them
    (tmp_path / "m.yaml").write_text(_gang(topology=False))
    (tmp_path / "c.yaml").write_text(_node("n0", "r1"))
    for gate in ("PodGroupPreemptionPolicy", "DynamicResourceAllocation"):
        run = oracle_plan(oracle_138, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], RELEASE, gates=f"{gate}=true")
        assert run.returncode == 2 and f'unknown gate "{gate}" for Kubernetes 1.38' in run.stderr, run.stderr

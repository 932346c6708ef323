"""The PlanView the visual reports render: topology keys from the plan's constraints and the snapshot's labels
(coarsest first), per-node fullness from the engine's request arrays and the plan's DRA allocations, who took
each node, selections by PodGroup / Job / JobSet / namespace, and the explain command for the same inputs."""

from __future__ import annotations

from wasplan.planview import Invocation

from tests.conftest import FIXTURES
from tests.report.planviews import DRA, EXAMPLE, view

WORKLOADS = FIXTURES / "workloads"


def _node(v, name):
    return next(n for n in v.nodes if n.name == name)


def test_nodes_group_by_zone_then_rack_with_unlabelled_nodes_last():
    v = view(*EXAMPLE)
    assert v.keys == ("topology.kubernetes.io/zone", "topology.kubernetes.io/rack")
    assert [(a.value, [(b.path[1][1], [n.name for n in b.nodes]) for b in a.blocks]) for a in v.areas] == [
        ("zone-0", [("rack-0", ["gpu-r0-0", "gpu-r0-1", "gpu-r0-2", "gpu-r0-3"]),
                    ("rack-1", ["gpu-r1-0", "gpu-r1-1", "gpu-r1-2", "gpu-r1-3"]),
                    ("rack-inf", ["gpu-inf-0", "gpu-inf-2"]), ("", ["cpu-1", "cpu-3"])]),
        ("zone-1", [("rack-2", ["gpu-r2-0", "gpu-r2-1", "gpu-r2-2", "gpu-r2-3"]),
                    ("rack-inf", ["gpu-inf-1", "gpu-inf-3"]), ("", ["cpu-2"])])]


def test_fullness_puts_accelerators_first_and_marks_taints():
    v = view(*EXAMPLE)
    inf = _node(v, "gpu-inf-0")
    assert [(m.resource, m.used, m.total, m.kind) for m in inf.meters] == [
        ("nvidia.com/gpu", 8, 8, "accelerator"), ("cpu", 48000, 63500, "cpu"),
        ("memory", 400 * 2**30, 500 * 2**30, "memory")]
    assert inf.fullness == 1.0 and inf.taints == ("gpu=true:NoSchedule",) and not inf.unschedulable
    assert inf.pods == (("running before the plan", 2),)
    trainer = _node(v, "gpu-r1-0")
    assert trainer.pods == (("PodGroup ml-research/pretrain-70b-job", 1),)
    assert v.entities[trainer.entity].key == "pg:ml-research/pretrain-70b-job"
    cpu = _node(v, "cpu-3")
    assert cpu.entity is None and cpu.pods == () and cpu.fullness == 0.0


def test_dra_devices_count_per_driver_on_their_nodes():
    v = view(*DRA)
    assert [(m.resource, m.used, m.total, m.kind) for m in _node(v, "gpu-r0-1").meters][0] == \
        ("gpu.example.com", 4, 8, "device")
    assert _node(v, "gpu-r0-1").fullness == 0.5
    assert [(m.resource, m.used) for m in _node(v, "gpu-r1-2").meters][0] == ("gpu.example.com", 0)


def test_jobset_selections_follow_the_owner_chain():
    v = view(WORKLOADS / "jobset-parallel-jobs.yaml", WORKLOADS / "cluster.yaml")
    sel = {s.key: (s.kind, s.pods, len(s.nodes)) for s in v.selections}
    assert sel == {"job:default/paralleljobs-driver-0": ("Job", 1, 1),
                   "job:default/paralleljobs-workers-0": ("Job", 4, 4),
                   "jobset:default/paralleljobs": ("JobSet", 5, 5), "ns:default": ("Namespace", 5, 5)}
    assert [(e.key, e.label, e.pods) for e in v.entities] == [
        ("jobset:default/paralleljobs", "JobSet default/paralleljobs", 5)]


def test_unplanned_workloads_are_the_verdict():
    v = view(WORKLOADS / "pytorchjob.yaml", WORKLOADS / "cluster.yaml")
    assert v.verdict == "1 workload is not planned."


def test_the_explain_command_repeats_the_plans_inputs_quoted():
    how = Invocation(("my manifests/", "b.yaml"), ("c.yaml",), "1.36", ("--arrival", "batch"))
    assert how.explain("podgroup/train", "ml") == ("wasplan explain podgroup/train -n ml 'my manifests/' b.yaml "
                                                   "--cluster c.yaml --k8s-version 1.36 --arrival batch")

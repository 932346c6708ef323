"""The plan pipeline's own findings: what it cannot simulate yet is said, not silently dropped."""

from builders import gang, pod

from wasplan.api import hub
from wasplan.api.releases import get_release, parse_gates
from wasplan.cluster.model import Group, PlanInputs
from wasplan.pipeline.plan import unsimulated_warnings


def test_topology_and_composite_trees_are_reported_when_their_gates_are_on():
    child = hub.PodGroup(metadata={"name": "leaf"}, policy=hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC),
                         parent_composite="root")
    placed_before = gang("done", 1, topology_keys=("topology.kubernetes.io/rack",))
    inputs = PlanInputs([placed_before, pod("d", group="done", node_name="n1")],
                        [gang("racked", 2, topology_keys=("topology.kubernetes.io/rack",)), pod("p"),
                         Group("default", "leaf", child), gang("plain", 2),
                         *[pod(f"{g}-0", group=g) for g in ("racked", "leaf", "plain")]])
    on = parse_gates(get_release("1.37"), None)
    assert [(d.code, d.message.split(" ")[1]) for d in unsimulated_warnings(inputs, on)] == \
        [("WAS701", "default/racked"), ("WAS702", "default/leaf")]
    off = parse_gates(get_release("1.37"), "TopologyAwareWorkloadScheduling=false,CompositePodGroup=false")
    assert unsimulated_warnings(inputs, off) == []

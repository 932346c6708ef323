"""1.38's runtime hierarchy checks, made before a PodGroup or CompositePodGroup tree enters its cycle
(validatePodGroupHierarchy and validatePodGroupSubtree, pkg/scheduler/schedule_one_podgroup.go of
k8s.io/kubernetes v1.38.0-beta.0; the group accessors are kube-scheduler/framework/types.go GenericPodGroup).

The walk starts at the queue entity's root (a standalone PodGroup, or the root CompositePodGroup of a tree),
depth 1, and goes depth first through the children in their creation order. At each group below the root, in
this order: a CompositePodGroup at depth 4 (it would need a PodGroup at depth 5); then the group against the
root: the same Workload, the same priority, the same preemption policy when the group has one; then against
its parent: a gang parent with a basic child, an `all` parent with a `single` child. At a PodGroup, every pod
is checked, the queued ones in the cycle's order and then those already placed: the first pod's
schedulerName, the root's priority, the expected preemption policy (the root's, else the first pod's). The
first failure ends the walk; its message names groups by their entity key (`podgroup/NS/NAME`,
`compositepodgroup/NS/NAME`). A failure is a validation error (condition reason PodGroupError /
CompositePodGroupError); a schedulerName no profile has is a plain error afterwards (SchedulerError).

The groups' preemption policy is what Priority admission leaves in spec.preemptionPolicy: in 1.38 it always
fills it from the group's class (plugin/pkg/admission/priority/admission.go), so every group has one. The
"first pod" of a tree is the first queued pod of its first PodGroup with queued pods, in tree order; upstream
takes the first of a Go map's iteration (QueuedPodGroupInfo.ForEachPodInfo), which only matters when the
tree's pods name different schedulers.

The checks read plain Node records built by the cycle code (`tree_node`, `leaf_node`), so they need neither
the queue nor the cluster state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from wasplan.api import hub
from wasplan.api.priority import admit
from wasplan.engine.cache.composite import MAX_DEPTH
from wasplan.engine.queueing.queue import QueueKind


class HierPod(NamedTuple):
    name: str
    scheduler_name: str
    priority: int
    policy: str


@dataclass(frozen=True)
class Node:
    """A group of the hierarchy as the checks see it."""

    key: str  # the entity key's text: podgroup/NS/NAME or compositepodgroup/NS/NAME
    composite: bool
    workload: str  # spec.workloadRef.workloadName ("" without one)
    priority: int
    policy: str  # spec.preemptionPolicy as admitted ("" when unset)
    gang: bool
    basic: bool
    all_mode: bool  # disruptionMode `all`
    single_mode: bool  # disruptionMode `single`, set explicitly
    children: tuple["Node", ...] = ()
    pods: tuple[HierPod, ...] = field(default=())  # a PodGroup's: queued in cycle order, then placed


class Problem(NamedTuple):
    message: str
    validation: bool  # a validationError (PodGroupError / CompositePodGroupError); else SchedulerError


def check(root: Node, profiles) -> Problem | None:
    """The first failure of the walk from `root`, or None; `profiles`: the scheduler names with a profile."""
    first = _first_pod(root)
    if first is None:
        return None
    expected = root.policy or first.policy
    found = _subtree(root, None, 1, root, first, expected)
    if found is not None:
        return Problem(found, True)
    if first.scheduler_name not in profiles:
        return Problem(f'profile not found for scheduler name "{first.scheduler_name}"', False)
    return None


def _first_pod(node: Node) -> HierPod | None:
    if not node.composite:
        return node.pods[0] if node.pods else None
    return next((p for p in map(_first_pod, node.children) if p is not None), None)


def _subtree(node: Node, parent: Node | None, depth: int, root: Node, first: HierPod, expected: str) -> str | None:
    if node.composite and depth == MAX_DEPTH:
        return f'hierarchy depth exceeds maximum allowed depth {MAX_DEPTH} at "{node.key}"'
    found = _against_root_and_parent(node, parent, root, expected) if parent is not None else None
    if found is not None:
        return found
    if node.composite:
        return next((f for f in (_subtree(c, node, depth + 1, root, first, expected) for c in node.children)
                     if f is not None), None)
    return next((f for f in (_pod(p, root, first, expected) for p in node.pods) if f is not None), None)


def _against_root_and_parent(node: Node, parent: Node, root: Node, expected: str) -> str | None:
    if node.workload != root.workload:
        return (f'pod group workload does not match root workload, got: "{node.workload}" ("{node.key}") and '
                f'"{root.workload}" ("{root.key}")')
    if node.priority != root.priority:
        return (f"all pod groups in a hierarchy should have the same priority as the root pod group's priority, "
                f'got {node.priority} ("{node.key}") and {root.priority} ("{root.key}")')
    if node.policy and node.policy != expected:
        return (f"all pod groups in a hierarchy should have the same preemption policy, got {node.policy} "
                f'("{node.key}") and {expected}')
    if parent.gang and node.basic:
        return f'gang parent "{parent.key}" cannot have basic child "{node.key}"'
    if parent.all_mode and node.single_mode:
        return f'parent "{parent.key}" with All disruption mode cannot have child "{node.key}" with Single disruption mode'
    return None


def _pod(pod: HierPod, root: Node, first: HierPod, expected: str) -> str | None:
    if pod.scheduler_name != first.scheduler_name:
        return (f"all pods in a pod group hierarchy should have the same .spec.schedulerName set, got: "
                f'"{pod.scheduler_name}" ("{pod.name}") and "{first.scheduler_name}" ("{first.name}")')
    if pod.priority != root.priority:
        return (f"all pods in a pod group hierarchy should have the same priority as the root pod group's "
                f'priority, got {pod.priority} ("{pod.name}") and {root.priority} ("{root.key}")')
    if pod.policy != expected:
        return (f"all pods in a pod group hierarchy should have the same preemption policy, got {pod.policy} "
                f'("{pod.name}") and {expected}')
    return None


# ---- building the records from the engine's world --------------------------------------------------------------
def admitted_policy(obj: hub.GroupSettings, world) -> str:
    """A group's spec.preemptionPolicy after 1.38's Priority admission: its own, else its class's (the global
    default class's without one, else PreemptLowerPriority)."""
    if obj.preemption_policy is not None:
        return obj.preemption_policy.value
    return admit(obj.priority_class_name, None, None, world.classes).preemption_policy


def _settings(obj: hub.GroupSettings) -> dict:
    gang = obj.policy.kind == hub.PolicyKind.GANG
    return {"gang": gang, "basic": not gang, "all_mode": obj.disruption_mode == hub.DisruptionMode.ALL,
            "single_mode": obj.disruption_mode == hub.DisruptionMode.SINGLE}


def leaf_node(world, gs, queued: list, policy_of) -> Node:
    """A PodGroup: `queued` its pods waiting in the cycle's order; its placed live pods follow them."""
    placed = [ps for ps in world.live_members(gs) if ps.placed]
    pods = tuple(HierPod(ps.pod.name, ps.pod.scheduler_name, ps.priority, policy_of(ps)) for ps in queued + placed)
    pg = gs.pg
    workload = pg.workload_ref.workload_name if pg.workload_ref is not None else ""
    return Node(f"podgroup/{gs.record.namespace}/{gs.record.name}", False, workload, gs.priority,
                admitted_policy(pg, world), pods=pods, **_settings(pg))


def tree_node(world, forest, key: str, queued_of, policy_of, depth: int = 1) -> Node:
    """A CompositePodGroup and everything below it (`queued_of(gs)`: a PodGroup's queued pods in cycle order).
    The walk stops a level below the depth the checks refuse, so a cycle of parents cannot loop."""
    record = world.composites[key]
    obj = record.obj
    children = []
    for kind, child in forest.children(key) if depth <= MAX_DEPTH else ():
        if kind == QueueKind.GROUP:
            gs = world.groups[child]
            children.append(leaf_node(world, gs, queued_of(gs), policy_of))
        else:
            children.append(tree_node(world, forest, child, queued_of, policy_of, depth + 1))
    return Node(f"compositepodgroup/{record.namespace}/{record.name}", True, obj.workload_ref.workload_name,
                forest.priority(key), admitted_policy(obj, world), children=tuple(children), **_settings(obj))

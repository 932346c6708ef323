"""Turns the simulator's final world into the Plan (DESIGN.md §4) and into the cluster after the plan
(`--emit-snapshot`): pods with their nodes, PodGroups with the conditions the scheduler wrote.
"""

from __future__ import annotations

import copy
import dataclasses
import functools

from wasplan.api import hub
from wasplan.cluster.kueue import ADMISSION_GATE
from wasplan.cluster.model import Group, Node, Pod, PriorityClass
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.result.treeoutcome import composite_outcomes
from wasplan.engine.cache.world import GroupState, PodState, SimStatus, World
from wasplan.engine.preemption.ledger import DISRUPTION_REASON
from wasplan.plan import (GroupCondition, GroupOutcome, GroupPolicy, GroupStatus, OwnerRef, Placement, Plan,
                          PodOutcome, PodStatus, Recreation)

# The simulation's pod statuses that the Plan keeps as they are; every other one (queued, unschedulable) is Pending.
_STATUS = {SimStatus.ALREADY_BOUND: PodStatus.ALREADY_BOUND, SimStatus.BOUND: PodStatus.BOUND, SimStatus.GATED: PodStatus.GATED,
           SimStatus.PREEMPTED: PodStatus.PREEMPTED, SimStatus.EVICTED: PodStatus.EVICTED,
           SimStatus.WAITING_FOR_ADMISSION: PodStatus.WAITING_FOR_ADMISSION}


class FinalCluster:
    """The cluster once the plan is carried out; pods and groups are assembled on first access (only
    `--emit-snapshot` and chaining need them)."""

    def __init__(self, state, world: World, options: EngineOptions, ledger=None, dra=None):
        self._world, self._options, self._dra = world, options, dra
        self._disrupted = ledger.disrupted if ledger is not None else set()
        self.pdbs = tuple(ledger.pdbs.budgets) if ledger is not None else ()  # kept as written, status dropped
        self.nodes: tuple[Node, ...] = tuple(state.nodes)
        self.priority_classes: tuple[PriorityClass, ...] = tuple(world.classes.values())
        self._arrays = (state.resources, state.alloc, state.requested, state.waived)
        # bound pods their allocated devices cannot reach, as the release's scheduler leaves them:
        # (pod key, node, claim key) (draworld.stranded)
        self.stranded: tuple[tuple[str, str, str], ...] = ()
        # groups whose placement search 1.38's sampling would cut short: (kind, key, placements, stop after)
        self.sampled: tuple[tuple[str, str, int, int], ...] = (
            *(("PodGroup", g.key, *g.sampled) for g in world.groups.values() if g.sampled),
            *(("CompositePodGroup", key, *found) for key, found in sorted(world.sampled_trees.items())))

    @functools.cached_property
    def usage(self) -> dict[str, tuple[tuple[str, int, int], ...]]:
        """Per node, (resource, requested, allocatable) as NodeResourcesFit counts them once the plan is carried
        out, for the resources the node has (allocatable above zero; not the ones it leaves to DRA)."""
        resources, alloc, requested, waived = self._arrays
        out = {}
        for node, have, used in zip(self.nodes, alloc.tolist(), requested.tolist()):
            out[node.name] = tuple((name, u, a) for name, u, a in zip(resources, used, have)
                                   if a > 0 and not (name in waived and name not in node.allocatable))
        return out

    @functools.cached_property
    def groups(self) -> tuple[Group, ...]:
        """Workloads, PodGroups (with the conditions the scheduler wrote), CompositePodGroups."""
        ordered = sorted(self._world.groups.values(), key=lambda g: g.seq)
        claims = self._dra.group_claims if self._dra is not None else {}
        return (*self._world.other_groups, *(_group_after(g, self._options, g.key in self._disrupted,
                                                          claims.get(g.key)) for g in ordered))

    @functools.cached_property
    def pods(self) -> tuple[Pod, ...]:
        """Every pod, placed ones with node_name set."""
        out = []
        for ps in sorted(self._world.pods.values(), key=lambda p: p.seq):
            if ps.status in (SimStatus.PREEMPTED, SimStatus.EVICTED):
                continue  # deleted by the scheduler's preemption or the device taint eviction controller
            pod = _with_claim_names(ps.pod, self._dra)
            if ps.status == SimStatus.WAITING_FOR_ADMISSION:  # as Kueue holds it: gated until admitted
                pod = _kueue_gated(pod)
            if ps.status == SimStatus.BOUND:
                pod = copy.copy(pod) if pod is ps.pod else pod
                pod.node_name = ps.node
            out.append(pod)
        return tuple(out)

    @property
    def dra_inputs(self) -> tuple:
        """DeviceClasses, ResourceSlices, DeviceTaintRules and ResourceClaimTemplates as the inputs gave them."""
        return self._dra.store.inputs if self._dra is not None else ()

    @functools.cached_property
    def claims(self) -> tuple:
        """Every ResourceClaim with its allocation and reservedFor as the API server would hold them."""
        if self._dra is None:
            return ()
        return tuple(s.claim for s in sorted(self._dra.store.claims.values(),
                                             key=lambda s: (s.claim.namespace, s.claim.name)))


def _kueue_gated(pod: Pod) -> Pod:
    """The pod with Kueue's admission gate (cluster/kueue.py), so a plan on the emitted snapshot keeps it waiting."""
    out = copy.copy(pod)
    out.scheduling_gates = (*pod.scheduling_gates, ADMISSION_GATE)
    out.admission = None
    return out


def _with_claim_names(pod: Pod, dra) -> Pod:
    """The pod with the claim names the controller recorded in status.resourceClaimStatuses (template entries),
    so a second plan on the emitted snapshot finds the same claims."""
    refs = dra.refs.get(pod.key) if dra is not None and pod.resource_claims else None
    if not refs:
        return pod
    named = {r.entry.name: r.name for r in refs if r.template is not None}
    claims = tuple(dataclasses.replace(c, generated=named.get(c.name, c.generated)) for c in pod.resource_claims)
    if claims == pod.resource_claims:
        return pod
    out = copy.copy(pod)
    out.resource_claims = claims
    return out


def owner_ref(pod: Pod) -> OwnerRef | None:
    """The pod's owner as the Plan reports it, with the chain of controllers below the top one."""
    if not pod.owner:
        return None
    return OwnerRef(pod.owner.kind, pod.owner.name, tuple(OwnerRef(o.kind, o.name) for o in pod.owner.chain))


def group_key(pod: Pod) -> str | None:
    return f"{pod.namespace}/{pod.pod_group}" if pod.pod_group else None


def pod_outcome(ps: PodState, world: World, owners: dict | None = None) -> PodOutcome:
    """`owners`: id(Owner) -> (Owner, OwnerRef) made so far in one Plan; the pods a controller expands from one
    template share their Owner, which is read, not changed, while the Plan is assembled."""
    pod = ps.pod
    status = _STATUS.get(ps.status, PodStatus.PENDING)
    reason, message = (ps.reason, ps.message) if status != PodStatus.ALREADY_BOUND else ("", "")
    if owners is None or pod.owner is None:
        ref = owner_ref(pod)
    else:
        found = owners.get(id(pod.owner))
        if found is None:
            found = owners[id(pod.owner)] = (pod.owner, owner_ref(pod))  # the Owner kept: its id stays its own
        ref = found[1]
    return PodOutcome(pod.namespace, pod.name, status, ps.group_key, ref, ps.node, ps.nominated, reason, message)


def refused_outcome(pod: Pod, message: str) -> PodOutcome:
    """A pod admission refused (cluster/admission.py): never created, so never scheduled."""
    return PodOutcome(pod.namespace, pod.name, PodStatus.REFUSED, group_key(pod), owner_ref(pod), reason="Forbidden",
                      message=message)


def _group_status(gs: GroupState, members: list[PodState], options: EngineOptions,
                  held: list[PodState] | None = None, recreated: str | None = None) -> tuple[GroupStatus, str, str]:
    """`held`: the group's pods that Kueue holds (engine/simulator.py); with none of its pods placed, the group
    waits for that admission too."""
    if not options.groups_on:
        placed = sum(1 for m in members if m.placed)
        ok = placed >= gs.min_count and placed == len(members)
        return (GroupStatus.SCHEDULED if ok else GroupStatus.UNSCHEDULABLE), "", "PodGroup cycles are off: pods were scheduled one by one"
    preempted = [m for m in members if m.status == SimStatus.PREEMPTED]
    if preempted and not any(m.placed for m in members):  # every pod it had running was evicted by the plan
        message = recreated or f"{len(preempted)} of its pods were preempted"
        return GroupStatus.UNSCHEDULABLE, DISRUPTION_REASON, message
    if gs.condition_status == "True":
        return GroupStatus.SCHEDULED, gs.condition_reason, gs.message
    if gs.attempted:
        return GroupStatus.UNSCHEDULABLE, gs.condition_reason, gs.message
    if held and not any(m.placed for m in members):
        return GroupStatus.WAITING_FOR_ADMISSION, "KueueAdmission", held[0].message
    gated = next((m for m in members if m.status == SimStatus.GATED), None)
    if gated is not None or not members:
        return GroupStatus.WAITING_FOR_PODS, "WaitingForPods", gated.message if gated else "no member pod exists yet"
    waiting = next((m for m in members if not m.placed), None)
    if waiting is None and len(members) >= gs.min_count:
        return GroupStatus.SCHEDULED, "", ""  # bound before the plan (the snapshot carries no condition)
    return GroupStatus.UNSCHEDULABLE, "", waiting.message if waiting else ""


def group_outcome(gs: GroupState, world: World, options: EngineOptions, recreated: str | None = None) -> GroupOutcome:
    """`recreated`: what becomes of the group's evicted pods once their controller recreates them."""
    members = [world.pods[k] for k in gs.members]
    held = [world.pods[k] for k in world.awaiting_admission.get(gs.key, ())]
    status, reason, message = _group_status(gs, members, options, held, recreated)
    condition = None
    if options.groups_on and gs.condition_status is not None:
        condition = GroupCondition(options.condition_type, gs.condition_status, gs.condition_reason, gs.message)
    policy = GroupPolicy.GANG if gs.is_gang else GroupPolicy.BASIC
    min_count = gs.min_count if gs.is_gang else 0
    where = Placement(*gs.placement) if gs.placement else None
    return GroupOutcome(gs.record.namespace, gs.record.name, policy, min_count, status,
                        tuple(sorted([*gs.members, *(p.key for p in held)])), where, reason, message, condition,
                        gs.alternatives, gs.tied)


def build_plan(world: World, options: EngineOptions, nodes: int = 0, ledger=None, dra=None,
               recreations: tuple[Recreation, ...] = ()) -> Plan:
    owners: dict = {}
    pods = tuple(pod_outcome(world.pods[k], world, owners) for k in sorted(world.pods, key=_ns_name))
    again = {World.group_key(world.pods[k]): r.message for r in recreations for k in r.pods}
    groups = tuple(group_outcome(world.groups[k], world, options, again.get(k))
                   for k in sorted(world.groups, key=_ns_name))
    preemptions = tuple(ledger.entries) if ledger is not None else ()
    return Plan(options.version, nodes, pods, groups, preemptions, composites=composite_outcomes(world, options),
                claims=_claims(dra), recreations=recreations)


def _claims(dra) -> tuple:
    """The plan's ResourceClaims: none without the DRA plugin, whose claim store claimoutcome.py reads (it loads
    with the plugin, engine/profile/draworld.py)."""
    if dra is None:
        return ()
    from wasplan.engine.result.claimoutcome import claim_outcomes

    return claim_outcomes(dra)


def _ns_name(key: str) -> tuple[str, str]:
    ns, _, name = key.partition("/")
    return ns, name


def _group_after(gs: GroupState, options: EngineOptions, disrupted: bool = False, claims=None) -> Group:
    record = _with_claim_statuses(gs.record, claims) if claims else gs.record
    written = []
    if gs.condition_status is not None and options.groups_on:
        written.append(hub.Condition(type="PodGroupInitiallyScheduled", status=gs.condition_status,
                                     reason=str(gs.condition_reason) or None, message=gs.message or None))
    if disrupted:  # members were preempted (engine-semantics §1.14)
        written.append(hub.Condition(type="DisruptionTarget", status="True", reason=DISRUPTION_REASON,
                                     message="default-scheduler: preempting to accommodate a higher priority workload"))
    if not written:
        return record
    types = {c.type for c in written}
    kept = tuple(c for c in (record.obj.conditions or ()) if c.type not in types)
    obj = dataclasses.replace(record.obj, conditions=kept + tuple(written))
    return dataclasses.replace(record, obj=obj)


def _with_claim_statuses(record: Group, claims: dict[str, str]) -> Group:
    """status.resourceClaimStatuses of a PodGroup whose template entries the ResourceClaim controller served."""
    known = {s.name: s for s in (record.obj.resource_claim_statuses or ())}
    for entry, name in claims.items():
        known[entry] = hub.ResourceClaimStatus(name=entry, resource_claim_name=name)
    statuses = tuple(known[k] for k in sorted(known))
    return dataclasses.replace(record, obj=dataclasses.replace(record.obj, resource_claim_statuses=statuses))


def final_cluster(state, world: World, options: EngineOptions, ledger=None, dra=None) -> FinalCluster:
    return FinalCluster(state, world, options, ledger, dra)

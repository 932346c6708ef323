"""What blocks a target: the plan's verdict, the gang arithmetic, and per pod shape the engine's evidence.

The verdict is the plan's (the group's status, the pod's status); the arithmetic and the evidence come from a
trial placement of the still-pending members on the cluster as the plan leaves it (probe.py), so "can place 3
of 4" is the engine placing 3 and failing the 4th, and the node breakdown is that 4th pod's FitError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.cluster.model import Node, PlanInputs, Pod
from wasplan.engine.facade import NOT_CREATED, GroupState, PodState, SimStatus, Simulator, shape_key, tas_on
from wasplan.explain import devices, probe, rerun
from wasplan.explain.rerun import Verifier
from wasplan.explain.model import (BY_PREEMPTING, DOES_NOT_FIT, FITS, GATED, WAITING_FOR_ADMISSION, WAITING_FOR_GROUP,
                                   WAITING_FOR_PODS, DomainFit, Gang, ShapeEvidence, Topology)
from wasplan.explain.target import Unit
from wasplan.plan import GroupPolicy, GroupStatus, Plan
from wasplan.words import plural

MAX_DOMAINS = 8
REJECTED_PREFIX = "all pods in a single pod group"


@dataclass
class Context:
    """The base run everything is measured against."""

    inputs: PlanInputs
    sim: Simulator
    plan: Plan
    verifier: Verifier
    documents: list = field(default_factory=list)  # every read document, to place changes in files
    node_shapes: list[Node] = field(default_factory=list)  # --node-shape: templates for nodes to add
    kueue_documents: list = field(default_factory=list)  # what Kueue's admission read, when the plan ran it
    _daemons: dict[str, list[Pod]] | None = field(default=None, init=False, repr=False, compare=False)

    def evaluator(self, pod: Pod):
        return self.sim.evaluators.get(pod.scheduler_name)

    def daemon_pods(self, node: str) -> list[Pod]:
        """The DaemonSet pods the snapshot runs on `node` (rerun.daemon_pods, indexed once per explanation)."""
        if self._daemons is None:
            self._daemons = rerun.daemon_pods(self.inputs)
        return self._daemons.get(node, [])

    def honours_topology(self) -> bool:
        """Whether the plan places groups by their topology constraints (the gate is on)."""
        return tas_on(self.verifier.options)


@dataclass
class Subject:
    """A unit with its engine-side facts: members still to place, in cycle order, and the trial's result."""

    unit: Unit
    pending: list[Pod]
    bound: int
    exist: int
    min_count: int
    policy: GroupPolicy
    group: GroupState | None = None
    trial: probe.Trial | None = None
    topology: Topology | None = None
    mask: np.ndarray | None = None  # the best domain's nodes, when the plan honours a topology constraint

    @property
    def placeable(self) -> int:
        return self.bound + (self.trial.placed if self.trial else 0)

    @property
    def needed(self) -> int:
        """Pods still to place: for a gang, what minCount lacks; for a basic group (Scheduled with one pod
        placed) every member still pending, since each is a pod the user expects to run."""
        if self.policy == GroupPolicy.BASIC:
            return len(self.pending)
        return max(self.min_count - self.bound, 1 if self.pending else 0)

    @property
    def wanted(self) -> int:
        """How many pods must be placed for the group to be what the user asked for."""
        return self.exist if self.policy == GroupPolicy.BASIC else self.min_count


def subject(ctx: Context, unit: Unit) -> Subject:
    world = ctx.sim.world
    if unit.kind == "Pod":
        ps = world.pods[unit.key]
        placed = ps.placed
        return Subject(unit, [] if placed else [ps.pod], int(placed), 1, 1, GroupPolicy.NONE)
    gs = world.groups[unit.key]
    members = world.live_members(gs)
    pending = sorted((m for m in members if not m.placed), key=lambda m: (-m.priority, m.initial_ts))
    policy = GroupPolicy.GANG if gs.is_gang else GroupPolicy.BASIC
    bound = sum(1 for m in members if m.placed)
    return Subject(unit, [m.pod for m in pending], bound, len(members), gs.min_count, policy, gs)


def run_trial(ctx: Context, subj: Subject) -> None:
    """The trial (with evidence) on the whole cluster, or inside the best domain when the plan keeps the group
    within one domain of its topology key."""
    subj.topology = topology(ctx, subj)
    if subj.topology is not None and subj.topology.honoured and subj.topology.domains:
        subj.mask = domain_mask(ctx, subj.topology.key, subj.topology.domains[0].domain)
    pods = [p for p in subj.pending if not claims_gated(ctx.sim.world.pods[p.key])]  # never tried: no claims yet
    if pods:
        ev = ctx.evaluator(pods[0])
        subj.trial = probe.trial(ev, pods, subj.mask) if ev is not None else probe.Trial()


def verdict(ctx: Context, subj: Subject) -> tuple[str, str]:
    """(verdict, one-line summary) from the plan's outcome for the unit."""
    if subj.unit.kind == "Pod":
        return _pod_verdict(ctx.sim.world.pods[subj.unit.key])
    outcome = next(g for g in ctx.plan.pod_groups if g.key == subj.unit.key)
    if outcome.status == GroupStatus.WAITING_FOR_ADMISSION:
        return WAITING_FOR_ADMISSION, outcome.message
    gang = f"minCount {subj.min_count}" if subj.policy == GroupPolicy.GANG else "a basic group"
    if outcome.status == GroupStatus.SCHEDULED and preempted_for(ctx, subj):
        return BY_PREEMPTING, f"fits only by preempting {plural(len(preempted_for(ctx, subj)), 'pod')} ({gang})"
    left = [p for p in subj.pending if ctx.sim.world.pods[p.key].status != SimStatus.GATED]
    if outcome.status == GroupStatus.SCHEDULED and subj.policy == GroupPolicy.BASIC and left:
        # A basic group is Scheduled once a pod is placed; the members still pending are what the user asks about.
        return DOES_NOT_FIT, f"does not fit: {subj.bound} of {plural(subj.exist, 'pod')} placed, {len(left)} pending ({gang})"
    if outcome.status == GroupStatus.SCHEDULED:
        return FITS, f"fits: {subj.bound} of {plural(subj.exist, 'pod')} placed ({gang})"
    if outcome.status == GroupStatus.WAITING_FOR_PREEMPTION:
        return BY_PREEMPTING, "fits only by preempting lower-priority pods"
    waiting = [p for p in subj.pending if claims_gated(ctx.sim.world.pods[p.key])]
    if outcome.status == GroupStatus.WAITING_FOR_PODS and waiting:
        message = ctx.sim.world.pods[waiting[0].key].message
        return WAITING_FOR_PODS, f"waits for pods: {len(waiting)} of them wait for a ResourceClaim ({message})"
    if outcome.status == GroupStatus.WAITING_FOR_PODS:
        return WAITING_FOR_PODS, f"waits for pods: {subj.exist} of {gang} pods exist"
    if outcome.message.startswith(REJECTED_PREFIX):  # the cycle refused the group before placing anything
        return DOES_NOT_FIT, f"does not fit: the scheduler rejects the group: {outcome.message}"
    if subj.placeable >= subj.min_count:  # held back by something outside the group (its composite tree)
        return DOES_NOT_FIT, f"does not fit: {outcome.message or 'the plan leaves it pending'}"
    return DOES_NOT_FIT, (f"does not fit: can place {subj.placeable} of {subj.min_count}: "
                          f"{max(subj.min_count - subj.placeable, 0)} short")


def composite_summary(ctx: Context, subj: Subject, parent: str) -> str:
    """Its CompositePodGroup's outcome in the plan: status, minGroupCount, and what became of each child."""
    key = f"{subj.unit.key.split('/')[0]}/{parent}"
    tree = next((c for c in ctx.plan.composites if c.key == key), None)
    if tree is None:
        return f"its CompositePodGroup {key}"
    need = f", minGroupCount {tree.min_group_count}" if tree.policy == GroupPolicy.GANG else ""
    children = ", ".join(f"{c.name} {c.result}" for c in tree.children)
    return f"its CompositePodGroup {key} ({tree.status}{need}: {children})"


def preempted_for(ctx: Context, subj: Subject) -> list:
    """The plan's victims evicted for this group (a PodGroup preemptor) or for one of its member pods."""
    ns, _, name = subj.unit.key.partition("/")
    members = {p.key for p in subj.pending}
    if subj.group is not None:
        members |= set(subj.group.members)
    return [v for p in ctx.plan.preemptions
            if (p.preemptor_namespace == ns and p.preemptor_name == name)
            or f"{p.preemptor_namespace}/{p.preemptor_name}" in members for v in p.victims]


def _pod_verdict(ps: PodState) -> tuple[str, str]:
    if ps.placed:
        return FITS, f"fits: bound to {ps.node}"
    if ps.status == SimStatus.PREEMPTED:
        return DOES_NOT_FIT, f"does not stay: {ps.message}"
    if ps.status == SimStatus.WAITING_FOR_ADMISSION:
        return WAITING_FOR_ADMISSION, ps.message
    if ps.status == SimStatus.GATED and ps.pod.scheduling_gates:
        return GATED, f"waits for its schedulingGates to be removed: {', '.join(ps.pod.scheduling_gates)}"
    if claims_gated(ps):  # DynamicResources' PreEnqueue: a claim or its template is missing
        return DOES_NOT_FIT, f"does not fit: it waits for its ResourceClaim: {ps.message}"
    if ps.status == SimStatus.GATED and ps.reason == NOT_CREATED:  # its controller waits (simulator.py, start_after)
        return WAITING_FOR_PODS, f"waits for its controller to create it ({ps.message})"
    if ps.status == SimStatus.GATED:
        return WAITING_FOR_GROUP, f"waits for its PodGroup {ps.pod.namespace}/{ps.pod.pod_group} to exist"
    return DOES_NOT_FIT, f"does not fit: {ps.message}"


def claims_gated(ps: PodState) -> bool:
    """Held at PreEnqueue by DynamicResources: every one of its messages names the ResourceClaim
    (engine/dra/draclaims.py), none of the other gates' does."""
    return ps.status == SimStatus.GATED and not ps.pod.scheduling_gates and "resourceclaim" in ps.message.lower()


def gang(subj: Subject) -> Gang:
    return Gang(subj.policy, subj.min_count, subj.exist, subj.bound, subj.placeable)


def shapes(ctx: Context, subj: Subject) -> tuple[ShapeEvidence, ...]:
    """Per failing pod shape: the FitError, the plugins that eliminate nodes, the closest nodes, and the
    cluster-wide resource picture measured before the trial (what the gang needs against what is free)."""
    if subj.trial is None:
        return ()
    state, nodes = ctx.sim.state, ctx.sim.state.nodes
    names = tuple(n.name for n in nodes)
    out = []
    for key, f in subj.trial.failures.items():
        ev = ctx.evaluator(f.pod)
        before = probe.now(ev, f.pod, subj.mask)
        labels = bool(state.affecting_pods)
        same = sum(1 for p in subj.pending if shape_key(p, labels) == key)
        needed = min(same, subj.needed) if subj.policy == GroupPolicy.GANG else same
        message = f.diagnosis.message() if f.diagnosis is not None else ""
        out.append(ShapeEvidence(tuple(f.pods), tuple(sorted(f.pod.requests.items())), message,
                                 probe.closest(f, names, state.resources), probe.eliminations(f, nodes),
                                 probe.totals(before, state.resources, needed),
                                 devices.device_evidence(ctx, subj, f, before, needed)))
    return tuple(out)


def topology(ctx: Context, subj: Subject) -> Topology | None:
    """Per domain of the group's first topology key: how many members fit inside it. Members this plan placed
    are taken off their nodes for the measurement (undone afterwards), so a group the plan placed without
    honouring the constraint is measured as if it had; members bound before the plan stay where they are."""
    gs = subj.group
    if gs is None or not gs.pg.topology_keys:
        return None
    key = gs.pg.topology_keys[0]
    members = sorted(ctx.sim.world.live_members(gs), key=lambda m: (-m.priority, m.initial_ts))
    movable = [m for m in members if m.status != SimStatus.ALREADY_BOUND]
    ev = ctx.evaluator(movable[0].pod) if movable else None
    if ev is None:
        return None
    state = ctx.sim.state
    codes, domains = state.labels.codes(key)
    if not domains:  # a blocker besides whatever rejects the pods node by node: both are listed
        return Topology(key, (), ctx.honours_topology(),
                        f"no node has the label {key!r}, so no {key} domain exists to place the group in")
    pinned = [state.index[m.node] for m in members if m.status == SimStatus.ALREADY_BOUND and m.node in state.index]
    mark = state.mark()
    try:
        for m in movable:
            if m.pod.key in state.placed:
                state.remove(m.pod)
        fits = [_domain_fit(ev, [m.pod for m in movable], codes == i, domain, int((codes[pinned] == i).sum()))
                for i, domain in enumerate(domains)]
    finally:
        state.rollback(mark)
    if pinned and ctx.honours_topology():  # members bound before the plan pin the group to their domain
        held = {domains[c] for c in codes[pinned].tolist() if c >= 0}
        fits = [d for d in fits if d.domain in held]
    fits.sort(key=lambda d: (-d.placeable, d.domain))
    return Topology(key, tuple(fits[:MAX_DOMAINS]), ctx.honours_topology())


def _domain_fit(ev, pods: list[Pod], mask: np.ndarray, domain: str, pinned: int) -> DomainFit:
    t = probe.trial(ev, pods, mask, evidence=False)
    first = next(iter(t.failures.values()), None)
    message = first.diagnosis.message() if first is not None and first.diagnosis is not None else ""
    return DomainFit(domain, pinned + t.placed, message)


def domain_mask(ctx: Context, key: str, domain: str) -> np.ndarray:
    return ctx.sim.state.labels.values(key) == domain

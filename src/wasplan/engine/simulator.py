"""Replays the cluster's story: objects are created (existing ones first, then arrivals one at a time or all at
once), and after each creation the scheduler runs until nothing more moves.

A pod whose controller creates it only once other pods run (`Pod.start_after`: JobSet InOrder, StatefulSet
OrderedReady, exclusive-placement followers) is created only if those are placed when its turn comes; otherwise
it is recorded as Gated with reason NotCreated (docs/workload-expansion.md). A pod Kueue holds (`Pod.admission`,
cluster/kueue.py) is never handed to the scheduler: it is recorded as WaitingForAdmission. Once the story is
told, the victims a controller recreates are measured against the final cluster (recreation.py).

This module owns the event loop (creation → PreEnqueue → queue → dispatch) and the cluster-change rules that
move unschedulable items back to activeQ; the cycles themselves live in cycles.py and the Plan assembly in
outcome.py.
"""

from __future__ import annotations

from wasplan.cluster.model import Group, Node, PlanInputs, Pod, PodDisruptionBudget, PriorityClass
from wasplan.engine.cycle import placement
from wasplan.engine.profile import draworld, registry
from wasplan.engine.cycle.cycles import Cycles
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.result.outcome import FinalCluster, build_plan, final_cluster
from wasplan.engine.preemption.driver import Preemption
from wasplan.engine.queueing.queue import SchedulingQueue
from wasplan.engine.preemption.recreation import recreations
from wasplan.engine.preemption.steps import PostFilters
from wasplan.engine.cache.state import ClusterState
from wasplan.engine.cache.world import NOT_CREATED, PodState, SimStatus, World
from wasplan.plan import Arrival, Plan


KUEUE_REASON = "KueueAdmission"


def _resource_names(records) -> set[str]:
    names: set[str] = set()
    for r in records:
        if isinstance(r, Node):
            names |= set(r.allocatable)
        elif isinstance(r, Pod):
            names |= set(r.requests)
    return names


class Simulator:
    def __init__(self, inputs: PlanInputs, options: EngineOptions, progress=None):
        self.inputs, self.options, self.progress = inputs, options, progress
        dra_records, self.existing = draworld.split(inputs.existing)
        dra_arrivals, self.arrivals = draworld.split(inputs.arrivals, keep_rules=True)
        records = [*self.existing, *self.arrivals]
        self.state = ClusterState([r for r in self.existing if isinstance(r, Node)], _resource_names(records),
                                  registry.affects_others)
        self.dra = draworld.install(self.state, [*dra_records, *dra_arrivals], options,
                                    any(isinstance(r, Pod) and r.resource_claims for r in records),
                                    draworld.taint_rules(self.arrivals))
        self.world = World()
        self.queue = SchedulingQueue()
        self.evaluators = {name: Evaluator(self.state, p, options.memo, options.caps)
                           for name, p in options.profiles.items()}
        # built even with --no-preemption: it keeps the PodDisruptionBudgets the emitted snapshot writes back
        self.preemption = Preemption(self.state, self.world, options)
        preemption = self.preemption if options.preemption else None
        self.cycles = Cycles(self.state, self.world, self.queue, self.evaluators, options,
                             lambda cycles: PostFilters(cycles, preemption))
        self._started: dict[int, bool] = {}  # id(StartAfter) -> whether its controller went on

    def run(self) -> tuple[Plan, FinalCluster]:
        self.replay()
        ledger = self.preemption.ledger
        again = recreations(self.world, self.state, self.cycles.evaluator_for) if ledger.entries else ()
        final = final_cluster(self.state, self.world, self.options, ledger, self.dra)
        final.stranded = tuple(draworld.stranded(self.dra, self.world, self.state))
        return build_plan(self.world, self.options, len(self.state.nodes), ledger, self.dra, again), final

    def replay(self) -> None:
        """The whole story without assembling the Plan: callers that only ask about one object (explain's
        verification re-runs) read `world` directly."""
        existing = [r for r in self.existing if not isinstance(r, Node)]
        bound: list = []  # a run of pods bound to known nodes, created together
        for record in sorted(existing, key=_creation_rank):
            if isinstance(record, Pod) and record.eviction is not None:
                self._stopped_by_kueue(record)
                continue
            if isinstance(record, Pod) and record.node_name in self.state.index:
                bound.append(self.world.add_pod(record))
                continue
            self.cycles.bound_pods_created(bound)
            bound = []
            self.create(record, initial=True)
        self.cycles.bound_pods_created(bound)
        self.cycles.run_until_idle()
        arrivals = self.arrivals
        for i, record in enumerate(arrivals):
            self.create(record)
            if self.options.arrival == Arrival.SEQUENTIAL:
                self.cycles.run_until_idle()
            if self.progress:
                self.progress(i + 1, len(arrivals))
        self.cycles.run_until_idle()
        placement.settle_bound_domains(self.state, self.world, self.options)

    def create(self, record, initial: bool = False) -> None:
        if isinstance(record, Node):
            self.state.add_node(record)
            self.cycles.cluster_changed()
        elif isinstance(record, PriorityClass):
            self.world.classes[record.name] = record
        elif isinstance(record, Group):
            if self.world.add_group(record) is not None:
                self.cycles.group_created(record.key)
            elif record.key in self.world.composites:
                self.cycles.composite_created()
        elif isinstance(record, Pod):
            if record.admission is not None:
                self._awaiting_admission(record)
                return
            if record.start_after is not None and not self._may_start(record.start_after):
                self._not_created(record)
                return
            self.cycles.pod_created(self.world.add_pod(record))
        elif isinstance(record, PodDisruptionBudget):
            self.preemption.pdbs.add(record)
        elif draworld.is_taint_rule(record) and draworld.taint_rule_created(self.dra, record, self.options):
            self._evict_for_taints()

    def _evict_for_taints(self) -> None:
        """The device taint eviction controller after a NoExecute DeviceTaintRule: every bound pod holding a
        device it taints, untolerated, is deleted (DisruptionTarget DeletionByDeviceTaintManager); its claims are
        released as the ResourceClaim controller does, and pods waiting for room are retried."""
        state, world = self.state, self.world
        evicted = []
        for key in sorted(state.placed):
            ps = world.pods[key]
            found = self.dra.evictions(ps.pod)
            if found:
                node = state.node_of(key)
                state.remove(ps.pod)
                ps.status, ps.node, ps.nominated = SimStatus.EVICTED, node, None
                ps.reason, ps.message = draworld.EVICTION_REASON, draworld.eviction_message(found)
                group = world.group_of(ps)
                if group is not None:
                    group.live -= 0 if ps.pod.terminating else 1
                evicted.append(ps)
        if evicted:
            state.commit()
            for ps in evicted:
                state.deleted(ps.pod)
            self.cycles.cluster_changed()

    def _stopped_by_kueue(self, pod: Pod) -> None:
        """A snapshot pod whose Workload Kueue evicts (pipeline/kueue_stage.py): Kueue stops its job before the
        plan's arrivals are scheduled, so it never holds its node here; reported Evicted with Kueue's reason."""
        ps = PodState(pod, self.world.resolve_priority(pod.priority, pod.priority_class_name), self.world.next_seq())
        ps.status, ps.node = SimStatus.EVICTED, pod.node_name
        ps.reason, ps.message = pod.eviction
        self.world.pods[pod.key] = ps

    def _may_start(self, wait) -> bool:
        """A controller waits for pods to run before creating more (JobSet InOrder, StatefulSet OrderedReady,
        exclusive-placement followers): let the scheduler finish with what exists, then look. The verdict is
        kept per wait, as the controller creates the waiting pods together."""
        verdict = self._started.get(id(wait))
        if verdict is None:
            self.cycles.run_until_idle()
            pods = self.world.pods
            verdict = not wait.never and all(k in pods and pods[k].placed for k in wait.pods)
            self._started[id(wait)] = verdict
        return verdict

    def _not_created(self, pod: Pod) -> None:
        """The pod its controller never creates in this plan: reported as Gated with the rule that holds it."""
        ps = PodState(pod, self.world.resolve_priority(pod.priority, pod.priority_class_name), self.world.next_seq())
        ps.status, ps.reason, ps.message = SimStatus.GATED, NOT_CREATED, f"not created: {pod.start_after.reason}"
        self.world.pods[pod.key] = ps

    def _awaiting_admission(self, pod: Pod) -> None:
        """The pod Kueue holds until it admits its workload (cluster/kueue.py): never created, or created with
        Kueue's scheduling gate; either way the scheduler never sees it in this plan."""
        ps = PodState(pod, self.world.resolve_priority(pod.priority, pod.priority_class_name), self.world.next_seq())
        ps.status, ps.reason = SimStatus.WAITING_FOR_ADMISSION, KUEUE_REASON
        ps.message = pod.admission.waiting_message()
        self.world.pods[pod.key] = ps
        if pod.pod_group:
            self.world.awaiting_admission.setdefault(World.group_key(ps), []).append(pod.key)


def _creation_rank(record) -> int:
    """Existing objects: priority classes and groups exist before the pods that refer to them, and pods whose
    controller waits for others (a hand-written snapshot's OrderedReady StatefulSet) come after every other pod,
    so the scheduling their wait triggers sees all bound pods."""
    if isinstance(record, PriorityClass):
        return 0
    if isinstance(record, Group):
        return 1
    return 3 if isinstance(record, Pod) and record.start_after is not None else 2


def simulate(inputs: PlanInputs, options: EngineOptions | None = None, progress=None) -> tuple[Plan, FinalCluster]:
    return Simulator(inputs, options or EngineOptions(), progress).run()

"""Replays the cluster's story: objects are created (existing ones first, then arrivals one at a time or all at
once), and after each creation the scheduler runs until nothing more moves.

This module owns the event loop (creation → PreEnqueue → queue → dispatch) and the cluster-change rules that
move unschedulable items back to activeQ; the cycles themselves live in cycles.py and the Plan assembly in
outcome.py.
"""

from __future__ import annotations

from wasplan.cluster.model import Group, Node, PlanInputs, Pod, PodDisruptionBudget, PriorityClass
from wasplan.engine import placement
from wasplan.engine.cycles import Cycles
from wasplan.engine.framework import Evaluator
from wasplan.engine.options import EngineOptions
from wasplan.engine.outcome import FinalCluster, build_plan, final_cluster
from wasplan.engine.preemption.driver import Preemption
from wasplan.engine.queue import SchedulingQueue
from wasplan.engine.state import ClusterState
from wasplan.engine.world import World
from wasplan.plan import Plan


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
        records = [*inputs.existing, *inputs.arrivals]
        self.state = ClusterState([r for r in inputs.existing if isinstance(r, Node)], _resource_names(records))
        self.world = World()
        self.queue = SchedulingQueue()
        self.evaluators = {name: Evaluator(self.state, p) for name, p in options.profiles.items()}
        # built even with --no-preemption: it keeps the PodDisruptionBudgets the emitted snapshot writes back
        self.preemption = Preemption(self.state, self.world, options)
        self.cycles = Cycles(self.state, self.world, self.queue, self.evaluators, options,
                             self.preemption if options.preemption else None)

    def run(self) -> tuple[Plan, FinalCluster]:
        self.replay()
        ledger = self.preemption.ledger
        return (build_plan(self.world, self.options, len(self.state.nodes), ledger),
                final_cluster(self.state, self.world, self.options, ledger))

    def replay(self) -> None:
        """The whole story without assembling the Plan: callers that only ask about one object (explain's
        verification re-runs) read `world` directly."""
        existing = [r for r in self.inputs.existing if not isinstance(r, Node)]
        bound: list = []  # a run of pods bound to known nodes, created together
        for record in sorted(existing, key=_creation_rank):
            if isinstance(record, Pod) and record.node_name in self.state.index:
                bound.append(self.world.add_pod(record))
                continue
            self.cycles.bound_pods_created(bound)
            bound = []
            self.create(record, initial=True)
        self.cycles.bound_pods_created(bound)
        self.cycles.run_until_idle()
        arrivals = self.inputs.arrivals
        for i, record in enumerate(arrivals):
            self.create(record)
            if self.options.arrival == "sequential":
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
            self.cycles.pod_created(self.world.add_pod(record))
        elif isinstance(record, PodDisruptionBudget):
            self.preemption.pdbs.add(record)


def _creation_rank(record) -> int:
    """Existing objects: priority classes and groups exist before the pods that refer to them."""
    if isinstance(record, PriorityClass):
        return 0
    if isinstance(record, Group):
        return 1
    return 2


def simulate(inputs: PlanInputs, options: EngineOptions | None = None, progress=None) -> tuple[Plan, FinalCluster]:
    return Simulator(inputs, options or EngineOptions(), progress).run()

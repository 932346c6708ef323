"""Helpers for engine tests: a state from builders, one pod's decision, a whole simulation."""

from __future__ import annotations

from wasplan.api.releases import get_release, parse_gates
from wasplan.cluster.model import PlanInputs
from wasplan.engine.profile import registry
from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.simulator import simulate
from wasplan.engine.cache.state import ClusterState


def make_state(nodes, placed=(), extra_resources=()) -> ClusterState:
    names = set(extra_resources)
    for n in nodes:
        names |= set(n.allocatable)
    for p, _ in placed:
        names |= set(p.requests)
    state = ClusterState(list(nodes), names, registry.affects_others)
    for p, node_name in placed:
        state.reserve(p, state.index[node_name])
    state.commit()
    return state


def decide(nodes, pod, placed=(), profile: Profile | None = None):
    state = make_state(nodes, placed, pod.requests)
    decision = Evaluator(state, profile or Profile()).find_node(pod)
    node = state.nodes[decision.node].name if decision.node is not None else None
    return node, decision.message


def options(version="1.37", gates=None, arrival="sequential", preemption=True) -> EngineOptions:
    return EngineOptions(gates=parse_gates(get_release(version), gates), arrival=arrival, preemption=preemption)


def run(existing, arrivals, version="1.37", gates=None, arrival="sequential", preemption=True):
    plan, _ = simulate(PlanInputs(list(existing), list(arrivals)), options(version, gates, arrival, preemption))
    return plan


def by_name(plan):
    return {p.name: p for p in plan.pods}


def groups(plan):
    return {g.name: g for g in plan.pod_groups}

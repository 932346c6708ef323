"""Carrying a preemption out: victims leave their nodes, get status Preempted with the DisruptionTarget reason
upstream writes (PreemptionByScheduler) and the `Preempted` event text, budgets are debited, disrupted
PodGroups are remembered (they get a DisruptionTarget condition in the snapshot), and the plan's
`preemptions[]` entry is recorded.

Runs only outside a trial (no outstanding journal mark): it commits the state.
"""

from __future__ import annotations

from wasplan.engine.cache.world import SimStatus
from wasplan.plan import Preemption, Victim

DISRUPTION_REASON = "PreemptionByScheduler"


class Ledger:
    def __init__(self, state, world, pdbs, prio):
        self.state, self.world, self.pdbs, self.prio = state, world, pdbs, prio
        self.entries: list[Preemption] = []
        self.disrupted: set[str] = set()  # PodGroup keys that lost members to preemption

    def evict(self, kind: str, namespace: str, name: str, victims: list, removed: dict | None = None,
              prio=None, alternatives: tuple = (), tied: int = 0) -> None:
        """`kind` is Pod or PodGroup; victims are PodStates currently placed, or, when `removed` maps their keys
        to the rows they ran on, already taken off their nodes by the caller's search. `prio` reports a victim's
        priority as the preemption judged it (default: DefaultPreemption's reading). `alternatives`: a pod
        preemptor's consequential node tie (preemption/ties.py), kept on its record with `tied`, the number of
        nodes that tied."""
        state, world = self.state, self.world
        prio = prio or self.prio
        rows = []
        for ps in victims:
            node = state.nodes[removed[ps.key]].name if removed else state.node_of(ps.key)
            rows.append(Victim(ps.pod.namespace, ps.pod.name, node, prio(ps), world.group_key(ps)))
            self.pdbs.evicted(ps.pod, (p.pod for p in state.placed.values()))
            if not removed:
                state.remove(ps.pod)
            ps.status, ps.node, ps.nominated = SimStatus.PREEMPTED, node, None
            ps.reason = DISRUPTION_REASON
            ps.message = f"Preempted by {kind.lower()} {namespace}/{name} on node {node}"
            group = world.group_of(ps)
            if group is not None:
                self.disrupted.add(group.key)
                group.live -= 0 if ps.pod.terminating else 1
        state.commit()
        for ps in victims:
            state.deleted(ps.pod)
        rows.sort(key=lambda v: (v.namespace, v.name))
        self.entries.append(Preemption(kind, namespace, name, tuple(rows), alternatives, tied))


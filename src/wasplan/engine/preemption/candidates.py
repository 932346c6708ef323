"""The per-node victim search of DefaultPreemption and the choice among candidate nodes.

Follows pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode) and
pkg/scheduler/framework/preemption/preemption.go (pickOneNodeForPreemption):

* remove every lower-priority pod from the node; none → "No preemption victims found for incoming pod"; the
  preemptor still does not fit → the filter's reasons; otherwise reprieve pods, most important first (higher
  priority, then earlier start), PDB-violating ones before the others, keeping each one that leaves room;
* pick the node with the fewest PDB violations, then the lowest highest-victim priority, the smallest sum of
  victim priorities (each offset by 2^31, as upstream does, so fewer victims weigh less), the fewest victims,
  the latest start among the highest-priority victims, and finally the first node in evaluation order — for
  wasplan that is node-name order (upstream starts at a random offset; deliberate difference).

A victim unit is one pod, or (1.37) all pods on the node of a group with disruptionMode `all`; a unit is
reprieved all or nothing. Where only resources can decide, a node is settled with arithmetic on its row;
elsewhere (a filter victims can affect runs for the preemptor: host ports, spread or inter-pod terms, any plugin
whose record does not say otherwise; or placed pods' own fields reject it there, as a running pod's
anti-affinity does) the search takes the journal: remove, run the filters on that node, roll back. Both are the
plugin registry's to say (registry.py: `victims_matter`, `affects_others`); no plugin is named here.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import numpy as np

from wasplan.engine.profile import registry
from wasplan.engine.plugins import resources_fit
from wasplan.engine.pluginapi.status import REASONS

NO_VICTIMS = "No preemption victims found for incoming pod"
NOT_HELPFUL = "Preemption is not helpful for scheduling"
PRIORITY_OFFSET = 2**31
START_SECOND = 10**7  # policy.start_key's ordinal per second of start time


@dataclass(slots=True)
class NodeResult:
    """One node's dry run: the victims (None when the node is no candidate) or the reasons it is not."""

    victims: list | None  # PodStates, most important first
    violations: int = 0
    reasons: tuple[str, ...] = ()


own_constraints = registry.victims_matter  # the preemptor has filters besides resources that victims can affect
carries_terms = registry.affects_others  # a placed pod's own (anti-)affinity terms could reject other pods


def filtered_before_fit(pod) -> bool:
    """Whether a filter that victims can affect runs before NodeResourcesFit for the preemptor (NodePorts, in
    upstream's filter order): a node short of resources even with every lower-priority pod gone can still fail
    that filter first, and then upstream's dry run reports that filter's reason, so no node may be settled by
    the resource test alone."""
    return registry.filtered_before(pod, registry.STAGE[resources_fit.NAME])


def blocked_by_placed(ev, pod) -> np.ndarray | None:
    """Rows where placed pods' own fields (a running pod's required anti-affinity) reject a preemptor without
    constraints of its own (None: nowhere). Removing pods cannot create such a rejection, so every other row is
    decided by resources alone."""
    if not ev.state.affecting_pods:
        return None
    return registry.rejected_by_placed(ev, pod)


def lacking_reasons(state, avail: np.ndarray, req: np.ndarray, cols: np.ndarray) -> tuple[str, ...]:
    """NodeResourcesFit's reasons for one node's free room `avail` (Insufficient <resource>, Too many pods)."""
    short = cols[avail[cols] < req[cols]]
    return tuple(REASONS.text[resources_fit.reason_ids(state.resources[c], False)] for c in short)


def select_on_node_arith(ctx, row: int, req: np.ndarray, cols: np.ndarray, lower: list,
                         extra: np.ndarray | None = None) -> NodeResult:
    """SelectVictimsOnNode for a resource-only preemptor: free room is alloc - requested + what leaves (`extra`:
    nominated pods' requests per row not placed in the state, nominated.NominatedLoad)."""
    if not lower:
        return NodeResult(None, 0, (NO_VICTIMS,))
    state = ctx.state
    avail = state.alloc[row] - state.requested[row]
    if extra is not None:
        avail = avail - extra[row]
    for ps in lower:
        avail = avail + state.vectors(ps.pod)[0]
    if not (avail[cols] >= req[cols]).all():
        return NodeResult(None, 0, lacking_reasons(state, avail, req, cols))
    victims, violations = [], 0
    for unit, violating in ctx.ordered_units(lower):
        need = sum(state.vectors(ps.pod)[0] for ps in unit)
        if ((avail - need)[cols] >= req[cols]).all():
            avail = avail - need
        else:
            victims.extend(unit)
            violations += violating
    return NodeResult(victims, violations)


def select_on_node_filters(ctx, ev, pod, row: int, lower: list, elsewhere: list = ()) -> NodeResult:
    """SelectVictimsOnNode with every filter plugin, through the state journal. Only `row` may take the pod, but
    PodTopologySpread and InterPodAffinity count pods and domains on every node (upstream runs the filters with
    the cycle's PreFilter state, counted over the whole snapshot with the victims taken out): restricting the
    counts to the row would lose another zone's missing pods or another node's matching ones. `elsewhere`: the
    nominated pods placed on other rows for the dry run, taken off for this row's (only the filtered node's
    nominated pods count)."""
    if not lower:
        return NodeResult(None, 0, (NO_VICTIMS,))
    state = ctx.state
    mask = np.zeros(len(state.nodes), dtype=bool)
    mask[row] = True
    mark = state.mark()
    for other in elsewhere:
        state.remove(other)
    for ps in lower:
        state.remove(ps.pod)
    try:
        decision = ev.find_node(pod, mask, counts_everywhere=True)
        if decision.node is None:
            reasons = decision.diagnosis.node_reasons(row) if decision.diagnosis is not None else [decision.error]
            return NodeResult(None, 0, tuple(reasons))
        victims, violations = [], 0
        for unit, violating in ctx.ordered_units(lower):
            back = state.mark()
            for ps in unit:
                state.reserve(ps.pod, row)
            if ev.find_node(pod, mask, counts_everywhere=True).node is None:
                state.rollback(back)
                victims.extend(unit)
                violations += violating
        return NodeResult(victims, violations)
    finally:
        state.rollback(mark)


def node_stats(result: NodeResult, prio, start) -> tuple[int, int, int, int, int]:
    """(violations, highest victim priority, priority sum, victims, earliest start of the highest ones)."""
    victims = result.victims
    top = max(prio(v) for v in victims)
    total = sum(prio(v) + PRIORITY_OFFSET for v in victims)
    earliest = min(start(v) for v in victims if prio(v) == top)
    return result.violations, top, total, len(victims), earliest


def pick_one_node(rows: np.ndarray, stats: np.ndarray) -> int:
    """pickOneNodeForPreemption over candidate `rows` (ascending) with `stats` rows from node_stats: fewest
    violations, lowest top priority, smallest sum, fewest victims, latest earliest-start, first row."""
    return int(pick_order(rows, stats)[0])


def pick_order(rows: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """The candidate rows in pick_one_node's order of preference (the first is its pick)."""
    s = stats[rows]
    return rows[np.lexsort((rows, -s[:, 4], s[:, 3], s[:, 2], s[:, 1], s[:, 0]))]


def tied_prefix(order: np.ndarray, stats: np.ndarray) -> int:
    """How many rows at the head of `order` (pick_order's) tie with its first upstream: equal in the first four
    criteria and in the start's whole second. The preference order sorts by exactly that key (the start
    descending, so its second too), so the tied rows lead and a binary search finds where they end."""
    def key(i: int) -> tuple:
        s = stats[order[i]]
        return int(s[0]), int(s[1]), int(s[2]), int(s[3]), -(int(s[4]) // START_SECOND)
    return bisect.bisect_right(range(len(order)), key(0), key=key)

"""Running the last filter (DynamicResources) node by node instead of on every node.

Allocating devices is the costliest check of a pod (a search per node), and upstream runs it last, after every
other filter. So the framework asks it only where the others passed, best total score first, and stops at the
first node it accepts: no other node can beat a node that already has the best score. The best node is tried
with one search (its result is what Reserve writes); when it fails, the allocator's vectorised pre-check
(engine/dra/precheck.py) answers for every node at once where it is exact, else the nodes are searched one by one.
Two cases evaluate every feasible node, as upstream does, because the answer depends on all of them:

* the late plugin scores nodes itself (a claim with `firstAvailable`: Score ranks the subrequest each node would
  use), or the pod has scores that are normalised over the feasible nodes (taints, node affinity preferences,
  spread, inter-pod affinity), so a rejected node changes the others' scores;
* the cluster has at most 100 nodes (upstream's minFeasibleNodesToFind: every node is filtered), where a Filter
  Error on any node (a CEL runtime error) fails the attempt even if another node fits (upstream
  dynamicresources_test.go `CEL-runtime-error-for-one-of-two-nodes`). On larger clusters upstream stops after
  enough feasible nodes too, so which erroring node it meets depends on its random start; wasplan meets the
  ones it visits in score order.
"""

from __future__ import annotations

import numpy as np

from wasplan.engine.plugins import dynamic_resources as dra

MAX_SCORE = 100


def normalise(raw: np.ndarray, feasible: np.ndarray) -> np.ndarray:
    """DefaultNormalizeScore(100): the best feasible node gets 100, the others in proportion; all 0 stays 0."""
    hi = int(raw[feasible].max(initial=0))
    return raw * MAX_SCORE // hi if hi > 0 else raw


def pick(ev, plugin, pod, sv, feasible: np.ndarray, nominated: int | None, mask, every: bool):
    """(chosen row or None, the late filter's reason per node). Raises dra.FilterError."""
    reasons = np.where(plugin.pinned(pod), 0, dra.NOT_AVAILABLE).astype(np.int32)
    feasible = feasible & (reasons == 0)
    pending = plugin.to_allocate(pod)
    if nominated is not None and feasible[nominated]:
        reasons[nominated] = plugin.check(pod, nominated, pending)[0]
        if reasons[nominated] == 0:
            return nominated, reasons  # the nominated node passes every filter: taken without scoring
        feasible[nominated] = False
    if not feasible.any():
        return None, reasons
    scored = plugin.scores_needed(pod)  # the pre-check says where claims fit, not which subrequest they use
    every = every or scored or len(ev.state.nodes) <= dra.EVERY_NODE_UP_TO
    total = None
    work = bool(pending or plugin.extended.get(pod.key))
    if not every and work:  # the best node usually fits: one search there, its result kept for Reserve
        total = ev.total_scores(pod, sv, feasible, mask)
        best = int(np.argmax(np.where(feasible, total, -1)))
        if not feasible[best]:
            return None, reasons
        reasons[best] = plugin.check(pod, best, pending)[0]
        if reasons[best] == 0:
            return best, reasons
        feasible[best] = False
    quick = plugin.precheck(pod, pending) if work and not scored else None
    if quick is not None:
        return _prechecked(ev, pod, sv, feasible, mask, quick, reasons, None if every else total)
    if every:
        return _every(ev, plugin, pod, sv, feasible, mask, pending, reasons)
    return _in_score_order(ev, plugin, pod, sv, feasible, mask, pending, reasons, total)


def _prechecked(ev, pod, sv, feasible, mask, quick, reasons, total):
    """The allocator's vectorised check is exact for these claims: every node's verdict at once; only the chosen
    node runs the search (in Reserve)."""
    reasons = np.where(feasible, quick, reasons).astype(np.int32)
    feasible = feasible & (quick == 0)
    if not feasible.any():
        return None, reasons
    total = ev.total_scores(pod, sv, feasible, mask) if total is None else total
    return int(np.argmax(np.where(feasible, total, -1))), reasons


def _in_score_order(ev, plugin, pod, sv, feasible, mask, pending, reasons, total):
    total = ev.total_scores(pod, sv, feasible, mask) if total is None else total
    rows = np.flatnonzero(feasible)
    for row in rows[np.lexsort((rows, -total[rows]))].tolist():
        reasons[row] = plugin.check(pod, row, pending)[0]
        if reasons[row] == 0:
            return row, reasons
    return None, reasons


def _every(ev, plugin, pod, sv, feasible, mask, pending, reasons):
    raw = np.zeros(len(feasible), dtype=np.int64)
    for row in np.flatnonzero(feasible).tolist():
        reasons[row], found = plugin.check(pod, row, pending)
        if found is not None:
            raw[row] = found.score
    feasible = feasible & (reasons == 0)
    if not feasible.any():
        return None, reasons
    total = ev.total_scores(pod, sv, feasible, mask)
    weight = ev.profile.weight(dra.NAME)
    if weight and raw.any():
        total = total + weight * normalise(raw, feasible)
    return int(np.argmax(np.where(feasible, total, -1))), reasons

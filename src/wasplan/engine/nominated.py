"""Filter with nominated pods: a pod that preempted waits, nominated, while other pods are scheduled.

Upstream keeps a preemptor's nomination in the scheduling queue's nominator (pkg/scheduler/backend/queue/
nominator.go) until it binds, and every later Filter of another pod runs twice on a node that has nominated pods
of equal or higher priority than that pod (pkg/scheduler/framework/runtime/framework.go
RunFilterPluginsWithNominatedPods, addGENominatedPods): first with those pods added to the node (their requests,
and PodTopologySpread's and InterPodAffinity's PreFilter state through AddPod), then, if that passes, without
them; the node is feasible only if both pass, and a node that fails the first pass reports that pass's reasons.
Scoring sees the cluster without nominated pods (PreScore and Score read the snapshot,
pkg/scheduler/schedule_one.go prioritizeNodes). A pod's own nomination never counts for itself.

Every `Evaluator.find_node` consults the simulation's `Nominator` (pod cycles, PodGroup cycles and their
placements); DefaultPreemption's dry run for a pod runs with the nominated pods placed (`counted`). find_node runs
the second pass as the ordinary filter and the first as `Evaluator.filter_pass` on the state with the node's
nominated pods reserved there (rolled back at once), one pass per node that has any: a node's pass sees only
the pods nominated to that node, as upstream's per-node clone does. Nodes failing it are `blocked` for the
plain search; when no node fits, their rows of the Diagnosis are taken from that pass.

Limits, said here rather than guessed: the stateful late filter (DynamicResources) is not rerun with nominated
pods, and only pod-level preemption nominates into the Nominator (engine/preemption/steps.py): a PodGroup
that preempted is retried at once instead.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod


@dataclass(slots=True)
class Nomination:
    pod: Pod
    priority: int
    row: int


class Nominator:
    """The nominations of one simulation, shared by its evaluators (pod key -> Nomination), and the priority of
    the pod being scheduled (`priority_of`, the world's resolved priority)."""

    def __init__(self, priority_of: Callable[[Pod], int]) -> None:
        self.entries: dict[str, Nomination] = {}
        self.priority_of = priority_of

    def applicable(self, pod: Pod, mask: np.ndarray | None) -> dict[int, list[Pod]]:
        """Per node row, the nominated pods the node holds for `pod`: equal or higher priority, not `pod` itself,
        on nodes inside `mask`."""
        priority = self.priority_of(pod)
        out: dict[int, list[Pod]] = {}
        for key, nom in self.entries.items():
            if key != pod.key and nom.priority >= priority and (mask is None or mask[nom.row]):
                out.setdefault(nom.row, []).append(nom.pod)
        return out

    @contextmanager
    def counted(self, pod: Pod, state):
        """The nominated pods that hold their nodes for `pod` placed there for the duration (preemption's dry run,
        which upstream filters with them: preemption.go SelectVictimsOnNode calls
        RunFilterPluginsWithNominatedPods; they are never its victims, their priority not being lower); all of
        them at once, not node by node, and the nominator is off meanwhile so nothing counts them twice."""
        per_row = self.applicable(pod, None)
        if not per_row:
            yield
            return
        mark, saved = state.mark(), self.entries
        self.entries = {}
        try:
            for row, pods in sorted(per_row.items()):
                for other in pods:
                    state.reserve(other, row)
            yield
        finally:
            state.rollback(mark)
            self.entries = saved

    def find_node(self, ev, pod: Pod, mask: np.ndarray | None):
        """`ev.find_node(pod, mask)` with the nominated pods counted as RunFilterPluginsWithNominatedPods counts
        them."""
        per_row = self.applicable(pod, mask)
        if not per_row:
            return ev.find_node_plain(pod, mask)
        blocked, diagnoses = blocked_rows(ev, pod, per_row, mask)
        if not blocked.any():
            return ev.find_node_plain(pod, mask)
        decision = ev.find_node_plain(pod, mask, blocked)
        if decision.node is None and decision.error is None:
            _merge(decision, diagnoses)
        return decision


def blocked_rows(ev, pod: Pod, per_row: dict[int, list[Pod]], mask: np.ndarray | None):
    """(blocked mask, {row: Diagnosis of the pass with that row's nominated pods}) for the rows where that pass
    fails."""
    state = ev.state
    blocked = np.zeros(len(state.nodes), dtype=bool)
    diagnoses = {}
    for row, pods in sorted(per_row.items()):
        mark = state.mark()
        for other in pods:
            state.reserve(other, row)
        try:
            feasible, diagnosis = ev.filter_pass(pod, mask)
        finally:
            state.rollback(mark)
        if not feasible[row]:
            blocked[row] = True
            diagnoses[row] = diagnosis
    return blocked, diagnoses


def _merge(decision, diagnoses: dict) -> None:
    """Blocked rows report the reasons of the pass that added their nominated pods."""
    diag = decision.diagnosis
    if diag is None or diag.prefilter_msg is not None:
        return
    for row, got in diagnoses.items():
        if diag.fit_columns != got.fit_columns:  # the same pod and resources: never differs, kept safe
            continue
        diag.first[row], diag.first_stage[row] = got.first[row], got.first_stage[row]
        diag.fit_lacking[row], diag.fit_unresolvable[row] = got.fit_lacking[row], got.fit_unresolvable[row]
    diag._text = None

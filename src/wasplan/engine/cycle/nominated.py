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
placements); DefaultPreemption's dry run for a pod counts the nominated pods too (`counted`). find_node runs
the second pass as the ordinary filter and the first per node that holds nominated pods: a node's pass sees
only the pods nominated to that node, as upstream's per-node clone does. Nodes failing it are `blocked` for the
plain search; when no node fits, their rows of the Diagnosis are taken from that pass.

Cost: a cluster can hold as many nominated pods as there are preemptors, so nothing here may cost a pass over
the cluster, or a Python step, per nominated pod for every pod scheduled (it did: the preemption benchmark's
CPU grew fivefold). The nominations are kept as arrays (`_Table`, in step with `entries` through `nominate`
and `forget`), and two vector shortcuts cover the case where only resources can differ:

* a pod judged by static verdicts and NodeResourcesFit alone (no PreFilter message, no dynamic filter), with no
  nominated pod carrying (anti-)affinity terms (which would make InterPodAffinity run), has every node with
  nominated pods judged at once: adding pods to a node then changes only that node's requested row
  (`Evaluator.rows_verdict`); otherwise `Evaluator.filter_pass` runs with the node's nominated pods reserved
  there (rolled back at once), node by node;
* a preemptor whose dry run only resources decide takes plain nominated pods (no terms, host ports, claims,
  PodGroup or spec.nodeName, none below its priority) as a per-node request load (`NominatedLoad`) instead of
  having them placed and removed on every dry run; otherwise they are reserved on their nodes for the dry run.

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
from wasplan.engine.profile import registry


@dataclass(slots=True)
class RowVerdicts:
    """The Filter reasons of the nodes that failed the pass with their nominated pods (Diagnosis rows)."""

    rows: np.ndarray
    first: np.ndarray
    stage: np.ndarray
    lacking: np.ndarray  # rows x checked columns
    unresolvable: np.ndarray
    fit_columns: tuple[str, ...]


@dataclass(slots=True)
class Nomination:
    pod: Pod
    priority: int
    row: int
    victim_priority: int | None = None  # its priority as DefaultPreemption ranks victims (None: not known)


class _Table:
    """The nominations as arrays, kept in step with `Nominator.entries` (one slot per nominated pod, freed slots
    reused after a compaction): each pod's row, priority, request vector and two flags, so the nominated pods
    that count for a pod are selected and summed per node with a few vector operations."""

    __slots__ = ("slot", "pods", "keys", "rows", "prio", "vprio", "reqs", "alive", "terms", "plain", "used", "dead")
    COLUMNS = ("keys", "rows", "prio", "vprio", "reqs", "alive", "terms", "plain")

    def __init__(self, width: int, capacity: int = 64) -> None:
        self.slot: dict[str, int] = {}
        self.pods: list[Pod | None] = []
        self.keys = np.full(capacity, "", dtype=object)
        self.rows = np.zeros(capacity, dtype=np.int64)
        self.prio = np.zeros(capacity, dtype=np.int64)
        self.vprio = np.zeros(capacity, dtype=np.int64)
        self.reqs = np.zeros((capacity, width), dtype=np.int64)
        self.alive = np.zeros(capacity, dtype=bool)
        self.terms = np.zeros(capacity, dtype=bool)  # its own (anti-)affinity terms can reject other pods
        self.plain = np.zeros(capacity, dtype=bool)  # preemption's dry run may count it by its requests alone
        self.used = self.dead = 0

    def put(self, key: str, nom: Nomination, req: np.ndarray) -> None:
        i = self.slot.get(key)
        if i is None:
            if self.used == len(self.alive):
                self._grow()
            i = self.slot[key] = self.used
            self.used += 1
            self.pods.append(nom.pod)
        self.pods[i] = nom.pod
        self.keys[i], self.rows[i], self.prio[i], self.reqs[i], self.alive[i] = key, nom.row, nom.priority, req, True
        self.vprio[i] = nom.victim_priority or 0
        self.terms[i] = registry.affects_others(nom.pod)
        self.plain[i] = nom.victim_priority is not None and _plain(nom.pod)

    def drop(self, key: str) -> None:
        i = self.slot.pop(key, None)
        if i is not None:
            self.alive[i], self.pods[i], self.keys[i] = False, None, ""
            self.dead += 1

    def _grow(self) -> None:
        if self.dead * 2 >= self.used:  # compact: keep the live slots in their order
            live = np.flatnonzero(self.alive[:self.used])
            self.slot = {self.pods[i].key: j for j, i in enumerate(live.tolist())}
            self.pods = [self.pods[i] for i in live.tolist()]
            for name in self.COLUMNS:
                arr = getattr(self, name)
                packed = np.zeros_like(arr)
                packed[:len(live)] = arr[live]
                setattr(self, name, packed)
            self.used, self.dead = len(live), 0
            if self.used < len(self.alive):
                return
        for name in self.COLUMNS:
            arr = getattr(self, name)
            bigger = np.zeros((2 * len(arr),) + arr.shape[1:], dtype=arr.dtype)
            bigger[:len(arr)] = arr
            setattr(self, name, bigger)

    def select(self, key: str, priority: int, mask: np.ndarray | None) -> np.ndarray:
        """Slots of the nominated pods that count for the pod `key` of `priority` (Nominator.applicable)."""
        n = self.used
        sel = self.alive[:n] & (self.prio[:n] >= priority)
        own = self.slot.get(key)
        if own is not None:
            sel[own] = False
        if mask is not None:
            sel &= mask[self.rows[:n]]
        return np.flatnonzero(sel)


def _plain(pod: Pod) -> bool:
    """A nominated pod that DefaultPreemption's dry run can count by its requests alone: no terms that judge
    other pods, no host ports, no claims (no Reserve of a stateful plugin), no PodGroup (whole-group victims
    count their placed members), not bound by spec.nodeName (PodDisruptionBudgets count those as healthy)."""
    return not (registry.affects_others(pod) or pod.host_ports or pod.resource_claims or pod.pod_group
                or pod.node_name)


@dataclass(slots=True)
class NominatedLoad:
    """The nominated pods that count for a preemptor, as DefaultPreemption's dry run may take them when they are
    all plain: their requests summed per node row (`requested`); `placed` puts them on their nodes for real
    (the dry run's filter path). `table` is not changed while the load is in use (Nominator.counted)."""

    requested: np.ndarray  # nodes x resources
    table: _Table
    sel: np.ndarray

    def placed(self, state):
        """The pods placed on their nodes for the duration (the dry run's filter path)."""
        return reserved(state, self.per_row())

    def per_row(self) -> dict[int, list[Pod]]:
        return _per_row(self.table, self.sel)


@contextmanager
def reserved(state, per_row: dict[int, list[Pod]]):
    """`per_row`'s pods reserved on their rows, in row order, for the duration; rolled back after."""
    mark = state.mark()
    try:
        for row, pods in sorted(per_row.items()):
            for other in pods:
                state.reserve(other, row)
        yield
    finally:
        state.rollback(mark)


class Nominator:
    """The nominations of one simulation, shared by its evaluators (pod key -> Nomination), and the priority of
    the pod being scheduled (`priority_of`, the world's resolved priority). `nominate` and `forget` change them,
    keeping the arrays of `_Table` in step."""

    def __init__(self, priority_of: Callable[[Pod], int], state) -> None:
        self.entries: dict[str, Nomination] = {}
        self.placed_rows: dict[int, list[Pod]] = {}  # what `counted` placed, per row, while it is in use
        self.priority_of = priority_of
        self.state = state
        self._table = _Table(len(state.resources))

    def nominate(self, key: str, nom: Nomination) -> None:
        self.entries[key] = nom
        self._table.put(key, nom, self.state.vectors(nom.pod)[0])

    def forget(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self._table.drop(key)

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
    def counted(self, pod: Pod, state, load_floor: int | None = None):
        """The nominated pods that hold their nodes for `pod` counted for the duration (preemption's dry run,
        which upstream filters with them: preemption.go SelectVictimsOnNode calls
        RunFilterPluginsWithNominatedPods; they are never its victims, their priority not being lower); all of
        them at once, not node by node, and the nominator is off meanwhile so nothing counts them twice.
        Yields None when they are placed on their nodes, or a NominatedLoad when the caller can take them by
        their requests (`load_floor`: the preemptor's victim priority when its dry run can, else None) and they
        are all plain, none below that priority: then the state is left as it is and the caller adds them."""
        table = self._table
        sel = table.select(pod.key, self.priority_of(pod), None)
        if not len(sel):
            yield None
            return
        saved = self.entries, self._table
        self.entries, self._table = {}, _Table(len(state.resources), 1)
        try:
            load = self._load(table, sel, state, load_floor) if load_floor is not None else None
            if load is not None:
                yield load
            else:
                self.placed_rows = _per_row(table, sel)
                with reserved(state, self.placed_rows):
                    yield None
        finally:
            self.entries, self._table = saved
            self.placed_rows = {}

    @staticmethod
    def _load(table: _Table, sel: np.ndarray, state, floor: int) -> NominatedLoad | None:
        if not table.plain[sel].all() or table.vprio[sel].min() < floor \
                or not state.placed.keys().isdisjoint(table.keys[sel]):
            return None
        requested = np.zeros_like(state.requested)
        rows, sums = per_node_sums(table.rows[sel], table.reqs[sel])
        requested[rows] = sums
        return NominatedLoad(requested, table, sel)

    def find_node(self, ev, pod: Pod, mask: np.ndarray | None):
        """`ev.find_node(pod, mask)` with the nominated pods counted as RunFilterPluginsWithNominatedPods counts
        them."""
        table = self._table
        sel = table.select(pod.key, self.priority_of(pod), mask)
        if not len(sel):
            return ev.find_node_plain(pod, mask)
        if not table.terms[sel].any() and _resources_decide(ev, pod):
            blocked, verdicts = _blocked_by_resources(ev, pod, table.rows[sel], table.reqs[sel])
        else:
            blocked, verdicts = blocked_rows(ev, pod, _per_row(table, sel), mask)
        if not blocked.any():
            return ev.find_node_plain(pod, mask)
        decision = ev.find_node_plain(pod, mask, blocked)
        if decision.node is None and decision.error is None:
            _merge(decision, verdicts)
        return decision


def _per_row(table: _Table, sel: np.ndarray) -> dict[int, list[Pod]]:
    """The selected nominated pods per node row, each row's in nomination order."""
    out: dict[int, list[Pod]] = {}
    for i in sel.tolist():
        out.setdefault(int(table.rows[i]), []).append(table.pods[i])
    return out


def blocked_rows(ev, pod: Pod, per_row: dict[int, list[Pod]], mask: np.ndarray | None):
    """(blocked mask, RowVerdicts of the pass with each row's nominated pods) for the rows where that pass
    fails."""
    state = ev.state
    blocked = np.zeros(len(state.nodes), dtype=bool)
    failed = []
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
            failed.append((row, diagnosis))
    if not failed:
        return blocked, None
    rows = np.array([row for row, _ in failed], dtype=np.int64)
    return blocked, RowVerdicts(rows, *(np.stack([getattr(d, name)[row] for row, d in failed])
                                        for name in ("first", "first_stage", "fit_lacking", "fit_unresolvable")),
                                failed[0][1].fit_columns)


def _resources_decide(ev, pod: Pod) -> bool:
    """Whether the pass with nominated pods (none of them carrying terms that would make InterPodAffinity run once
    counted) is decided by the static verdicts and NodeResourcesFit alone: no PreFilter rejection and no dynamic
    filter for `pod`. Adding pods to a node then changes only that node's requested row."""
    return ev.static_verdict(pod).prefilter_msg is None and not registry.needs_cycle_work(pod, ev.state)


def _blocked_by_resources(ev, pod: Pod, rows: np.ndarray, reqs: np.ndarray):
    """`blocked_rows` when resources decide (`_resources_decide`): every node with nominated pods (`rows`, one
    per pod, with their request vectors `reqs`) judged at once with its requested row plus their requests,
    instead of one filter pass over the cluster per node."""
    state = ev.state
    nodes, extra = per_node_sums(rows, reqs)
    feasible, first, stage, lacking, unresolvable, names = ev.rows_verdict(pod, nodes, extra)
    blocked = np.zeros(len(state.nodes), dtype=bool)
    failing = ~feasible
    blocked[nodes[failing]] = True
    return blocked, RowVerdicts(nodes[failing], first[failing], stage[failing], lacking[failing],
                                unresolvable[failing], names)


def per_node_sums(rows: np.ndarray, reqs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct `rows` ascending, the request vectors `reqs` summed per row), exact integers."""
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return ordered[starts], np.add.reduceat(reqs[order], starts, axis=0)


def _merge(decision, got: RowVerdicts) -> None:
    """Blocked rows report the reasons of the pass that added their nominated pods."""
    diag = decision.diagnosis
    if diag is None or diag.prefilter_msg is not None:
        return
    if diag.fit_columns == got.fit_columns:  # the same pod and resources: never differs, kept safe
        rows = got.rows
        diag.first[rows], diag.first_stage[rows] = got.first, got.stage
        diag.fit_lacking[rows], diag.fit_unresolvable[rows] = got.lacking, got.unresolvable
    diag._text = None

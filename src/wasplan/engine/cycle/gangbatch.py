"""A gang of identical pods placed in one vectorised pass, with the same nodes as one find_node per pod.

Upstream's opportunistic batching (KEP-5598, beta and on since 1.35; engine-semantics §1.5 step 3) reuses the
previous pod's sorted node list for the next pod with the same scheduling signature, and the KEP defines it
as equivalent to full evaluation. Here the equivalence is exact, not only up to ties: for k members with the
same static verdict and request vectors, on the fast path where resources alone rank the nodes
(framework.Evaluator._by_resources), fit and score are computed once for every node; only the k best nodes
(in argmax order: score, then row) can receive a member, because each member changes one row and an untouched
node among those k always outranks every node outside them. For those nodes the fit and score after 1, 2, ...
more members are computed in one pass (the resource plugins on stacked rows); then each member takes the top
of a heap ordered as argmax orders (highest score, then lowest row) and its node moves to its next value.
A member that finds no node goes back to find_node (which gives the diagnosis), and the batch ends there.

The look-ahead already holds what the resource cache's next refresh would recompute for a row a member took (its
fit and score with that many members more): each placement writes them into the cache entry (`_sync`) and moves
the entry past its own change, so the next gang with the same requests finds nothing to refresh. This is exact
only while the batch's own reservations are the only changes since the entry was refreshed; the first foreign
change (or a row the look-ahead did not cover) stops it, and the entry's refresh recomputes from there.

The resource plugins score each stacked row from that row's values alone, so the look-ahead lines of a row are
kept in the cache entry under the row's values (allocatable, requested, non-zero) and the offset and length of
its stack: a clean cluster's identical nodes pass through the same few states gang after gang, and each state
is stacked once instead of once per gang and node.
"""

from __future__ import annotations

import heapq

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.profile import registry
from wasplan.engine.cycle.podkeys import signature

MAX_ROWS = 16_384  # rows of look-ahead computed in one pass; a node that needs more gets another pass
MAX_MEMO = 4096  # look-ahead lines an entry keeps (`_ahead_keys`); past that the memo starts over
MIN_MEMBERS = 6  # below this, one find_node per member is cheaper than the set-up (measured)


class _Stacked:
    """Rows `requested + j * req` (j = 0, 1, ...) of some nodes, shaped like rescache.Rows."""

    __slots__ = ("alloc", "requested", "non_zero")

    def __init__(self, state, rows: np.ndarray, steps: np.ndarray, req: np.ndarray, nz: np.ndarray):
        self.alloc = state.alloc[rows]
        self.requested = state.requested[rows] + steps[:, None] * req
        self.non_zero = state.non_zero[rows] + steps[:, None] * nz


def _fast(ev, pod: Pod, sv) -> bool:
    """find_node's condition for ranking by resources alone."""
    return not (pod.nominated_node_name or sv.scored or sv.prefilter_msg
                or registry.needs_cycle_work(pod, ev.state))


def _top(ranked: np.ndarray, k: int) -> np.ndarray:
    """The (up to) k feasible rows argmax would pick first: highest value, then lowest row. The common case, k
    rows or more sharing the best value (a clean cluster's identical nodes), is answered without a partition:
    those rows are the first k rows holding it, as below, in three passes instead of six."""
    best = ranked.max(initial=-1)
    if best < 0:
        return np.zeros(0, dtype=np.int64)
    at_best = np.flatnonzero(ranked == best)
    if len(at_best) >= k:
        return at_best[:k]
    feasible = int((ranked >= 0).sum())
    k = min(k, feasible)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    kth = np.partition(ranked, len(ranked) - k)[len(ranked) - k]
    above = np.flatnonzero(ranked > kth)
    ties = np.flatnonzero(ranked == kth)[: k - len(above)]
    return np.concatenate([above, ties])


class GangBatch:
    """Chooses the node of each member in turn; `placed(node)` after each reservation."""

    def __init__(self, ev, pod: Pod, sv, count: int, mask: np.ndarray | None):
        state = ev.state
        self.ev, self.req, self.nz = ev, *state.vectors(pod)
        self.entry = ev.resources.get(self.req, self.nz)
        ranked = self.entry.ranked if sv.all_pass else np.where(sv.passes, self.entry.ranked, -1)
        if mask is not None:
            ranked = np.where(mask, ranked, -1)
        self.count = count
        rows = _top(ranked, count)
        self.added = dict.fromkeys(rows.tolist(), 0)
        self.ahead: dict[int, list[int]] = {}
        self.fits: dict[int, list[bool]] = {}
        self.scores: dict[int, list[int]] = {}
        self.synced = True
        self._look_ahead(rows, 1, max(1, min(count - 1, MAX_ROWS // max(len(rows), 1))))
        self.heap = [(-int(ranked[r]), int(r)) for r in rows]
        heapq.heapify(self.heap)
        self.active = True

    def _look_ahead(self, rows: np.ndarray, first: int, steps: int) -> None:
        """The value (score where the next member fits, -1 elsewhere) of `rows` holding `first`, first + 1, ...
        members of the batch, `steps` of them, in one pass of the resource plugins. The state already counts
        the members reserved so far (`added`), so each row is stacked from there. A row whose state and offset
        the entry's memo has seen (`_ahead_keys`) takes the lines computed then; only the others are stacked, one
        row for each state among them."""
        if not len(rows) or first >= self.count:
            return
        steps = min(steps, self.count - first)
        row_list = rows.tolist()
        offsets = [first - self.added[r] for r in row_list]
        keys = _ahead_keys(self.ev.state, rows, offsets, steps)
        memo = self.entry.ahead
        missing = _missing(keys, memo)
        if missing and len(memo) + len(missing) > MAX_MEMO:
            memo.clear()  # every row is stacked again, the ones the memo held included
            missing = _missing(keys, memo)
        if missing:
            self._compute(rows[missing] if len(missing) < len(row_list) else rows,
                          [offsets[i] for i in missing], steps, [keys[i] for i in missing], memo)
        for row, key in zip(row_list, keys):
            line, fits, scores = memo[key]
            self.ahead.setdefault(row, []).extend(line)
            self.fits.setdefault(row, []).extend(fits)
            self.scores.setdefault(row, []).extend(scores)

    def _compute(self, rows: np.ndarray, offsets: list[int], steps: int, keys: list, memo: dict) -> None:
        """Stack `rows` holding offset, offset + 1, ... members more than now, `steps` each; run the resource
        plugins once over all of them and keep each row's (values, fits, scores) in `memo` under its key."""
        stacked_rows = np.repeat(rows, steps)
        j = (np.repeat(np.array(offsets, dtype=np.int64), steps)
             + np.tile(np.arange(steps, dtype=np.int64), len(offsets)))
        view = _Stacked(self.ev.state, stacked_rows, j, self.req, self.nz)
        cache = self.ev.resources
        fit, score = cache.fit(self.entry, view), cache.score(self.entry, view)
        values = np.where(fit, score, -1).reshape(len(offsets), steps)
        fit, score = fit.reshape(len(offsets), steps), score.reshape(len(offsets), steps)
        for key, line, fits, scores in zip(keys, values.tolist(), fit.tolist(), score.tolist()):
            memo[key] = (line, fits, scores)

    def next_node(self) -> int | None:
        """The node find_node would choose for the next member; None when none fits (the batch then ends)."""
        if not self.heap:
            self.active = False
            return None
        return self.heap[0][1]

    def placed(self, node: int) -> None:
        heapq.heappop(self.heap)
        self.added[node] += 1
        done = self.added[node]
        if done >= self.count:
            self.synced = False  # the look-ahead stops one member short of the batch: the refresh recomputes it
            return
        if done > len(self.ahead[node]):
            self._look_ahead(np.array([node]), done, self.count - done)
        value = self.ahead[node][done - 1]
        self._sync(node, done - 1)
        if value >= 0:
            heapq.heappush(self.heap, (-value, node))


    def _sync(self, node: int, step: int) -> None:
        """Write row `node`'s fit, score and value after the reservation just made into the cache entry and move
        the entry past that change, while that reservation is the only change the entry has not read."""
        entry, state = self.entry, self.ev.state
        changes = state.changes
        if not (self.synced and entry.epoch == state.epoch and entry.pos == len(changes) - 1 and changes[-1] == node):
            self.synced = False
            return
        entry.fit[node], entry.score[node] = self.fits[node][step], self.scores[node][step]
        entry.ranked[node] = self.ahead[node][step]
        entry.pos = len(changes)


def _missing(keys: list[tuple], memo: dict) -> list[int]:
    """The index of the first row of each key the memo lacks, in row order."""
    first_of: dict[tuple, int] = {}
    for i, key in enumerate(keys):
        if key not in memo:
            first_of.setdefault(key, i)
    return list(first_of.values())


def _ahead_keys(state, rows: np.ndarray, offsets: list[int], steps: int) -> list[tuple]:
    """Per row: everything its stacked look-ahead reads besides the entry (the pod's requests, the profile):
    the row's allocatable, requested and non-zero values as bytes, the offset its stack starts at and the
    number of steps. The resource plugins score each row on its own values (no normalisation across nodes),
    so equal keys have equal lines: a clean cluster's identical nodes are stacked once per state they reach."""
    width = state.alloc.shape[1] * state.alloc.itemsize
    alloc, requested, non_zero = (state.alloc[rows].tobytes(), state.requested[rows].tobytes(),
                                  state.non_zero[rows].tobytes())
    return [(alloc[i:i + width], requested[i:i + width], non_zero[i:i + width], offset, steps)
            for i, offset in zip(range(0, len(offsets) * width, width), offsets)]


def signature_of(ev, pod: Pod, key: str | None = None) -> tuple:
    """`podkeys.signature`, once per pod record (kept by the evaluator, `key` = the pod's key when the caller has it):
    a pending group's cycle re-checks every queued member at each arrival."""
    key = key or pod.key
    found = ev.signatures.get(key)
    if found is None or found[0] is not pod:
        found = ev.signatures[key] = (pod, signature(pod))
    return found[1]


def same_signature(ev, members: list) -> bool:
    """Whether every member has the first member's signature (a member without one is batched with none)."""
    signature = signature_of(ev, members[0].pod, members[0].key)
    return signature is not None and all(signature_of(ev, ps.pod, ps.key) == signature for ps in members[1:])


def for_members(ev, members: list, mask: np.ndarray | None) -> GangBatch | None:
    """A batch when every member has the same signature and resources alone rank the nodes for them; None
    otherwise (each member then runs find_node)."""
    if len(members) < MIN_MEMBERS or ev.state.stateful or not same_signature(ev, members):
        return None
    first = members[0].pod
    sv = ev.static_verdict(first)
    return GangBatch(ev, first, sv, len(members), mask) if _fast(ev, first, sv) else None

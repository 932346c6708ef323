"""The per-pod scheduling algorithm (engine-semantics §1.5): PreFilter, Filter, Score, select host.

`Evaluator.find_node(pod, mask)` returns the node kube-scheduler would pick for `pod` on the current state, or a
`Diagnosis` when no node fits. Static plugin verdicts come from the per-shape cache (static.py), resource fit and
resource scores from the incremental cache (rescache.py); only pods with host ports, spread constraints or
inter-pod affinity (or clusters running pods with affinity terms) pay for per-pod plugin work. Deliberate
differences from upstream: every node is evaluated (no percentageOfNodesToScore sampling) and a score tie goes
to the node whose name sorts first. `mask` restricts the snapshot to a subset of nodes (topology placements);
as upstream's AssumePlacement does, PodTopologySpread and InterPodAffinity then see only the pods and domains
inside the placement. `find_node(pod, mask, counts_everywhere=True)` only restricts the nodes the pod may take:
the counting plugins still see every node (preemption's per-node dry run, where upstream's SelectVictimsOnNode
runs the filters with the cycle's PreFilter state, counted over the whole snapshot with the victims removed).

A "no node fits" verdict of the common case (resources and static verdicts decide alone) is a function of the
pod's shape, its request vector, the mask and the node arrays, so it is memoised per (shape, requests, mask)
for as long as the cluster state's `version` is unchanged, Diagnosis included: every pending member of a
PodGroup that a cycle re-attempts (upstream's podGroupSchedulingDefaultAlgorithm tries every queued member,
pkg/scheduler/schedule_one_podgroup.go) then costs a dictionary look-up instead of a filter pass and a FitError.
`memo=False` turns it off (the differential tests and benchmarks/pending.py compare both).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.api.releases import Capabilities
from wasplan.cluster.model import Pod
from wasplan.engine.cycle import latefilter, static
from wasplan.engine.profile import registry
from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.diagnosis import Diagnosis
from wasplan.engine.plugins import resources_fit
from wasplan.engine.plugins.dynamic_resources import FilterError
from wasplan.engine.cycle.rescache import ResourceCache


@dataclass(slots=True)
class Decision:
    node: int | None
    diagnosis: Diagnosis | None = None
    error: str | None = None  # a Filter Error stopped the attempt (no diagnosis, no preemption)

    @property
    def message(self) -> str:
        if self.error is not None:
            return self.error
        return self.diagnosis.message() if self.diagnosis else ""


def _no_fit_key(sv: static.StaticVerdict, req: np.ndarray, mask: np.ndarray | None) -> tuple:
    """The "no node fits" memo's key. The entry keeps `sv` alive, so its id names that verdict for as long as the
    entry exists."""
    return id(sv), req.tobytes(), None if mask is None else mask.tobytes()


class Evaluator:
    def __init__(self, state, profile: Profile, memo: bool = True, caps: Capabilities | None = None):
        self.state, self.profile, self.memo, self.caps = state, profile, memo, caps  # caps: the release's (static.py)
        self.resources = ResourceCache(state, profile)
        self._static: dict[tuple, static.StaticVerdict] = {}
        self._static_epoch = -1
        # the "no node fits" memo (module docstring), by shape and by pod, valid at one state version
        self._no_fit: dict[tuple, tuple[static.StaticVerdict, Decision]] = {}
        self._pod_no_fit: dict[str, tuple[Pod, Decision]] = {}
        self._no_fit_version = -1
        self.signatures: dict[str, tuple] = {}  # pod key -> (pod, gangbatch's signature of it)
        self.nominator = None  # nominated.Nominator of the simulation (set by the cycles), or None
        self.ranker = None  # 1.38 workload-aware preemption's node ranking while it runs (preemption/ranknodes.py)

    def static_verdict(self, pod: Pod) -> static.StaticVerdict:
        if self._static_epoch != self.state.epoch:
            self._static, self._static_epoch = {}, self.state.epoch
        key = static.static_key(pod)
        found = self._static.get(key)
        if found is None:
            found = static.compute(self.state, pod, self.profile, self.caps)
            self._static[key] = found
        return found

    def _dynamic_filters(self, pod: Pod, sv: static.StaticVerdict, mask=None) -> list[tuple[int, np.ndarray]]:
        """(filter position, reason per node) of every dynamic filter that runs for `pod`, in upstream order."""
        return [(registry.STAGE[p.name], p.filter(self, pod, sv, mask)) for p in registry.DYNAMIC_FILTERS
                if self.profile.filter_on(p.name) and p.runs_for(pod, self.state)]

    def find_node(self, pod: Pod, mask: np.ndarray | None = None, counts_everywhere: bool = False) -> Decision:
        """The node for `pod`, Filter counting the nominated pods of the simulation's Nominator (nominated.py).
        `counts_everywhere`: preemption's per-node dry run, where the nominator is off (Nominator.counted has
        placed the nominated pods)."""
        if not counts_everywhere and self.nominator is not None and self.nominator.entries:
            return self.nominator.find_node(self, pod, mask)
        return self.find_node_plain(pod, mask, counts_everywhere=counts_everywhere)

    def find_node_plain(self, pod: Pod, mask: np.ndarray | None = None, blocked: np.ndarray | None = None,
                        counts_everywhere: bool = False) -> Decision:
        """`blocked`: nodes that failed Filter with the nominated pods added (nominated.py); they are not
        feasible, and the caller fills in their reasons when no node fits."""
        state = self.state
        within = None if counts_everywhere else mask  # what PodTopologySpread and InterPodAffinity count over
        if blocked is None and mask is None and self._no_fit_version == state.version:
            known = self._pod_no_fit.get(pod.key)
            if known is not None and known[0] is pod:
                return known[1]
        sv = self.static_verdict(pod)
        req, nz = state.vectors(pod)
        if blocked is None and not (pod.nominated_node_name or sv.scored or sv.prefilter_msg
                                    or registry.needs_cycle_work(pod, state)):
            return self._common(pod, sv, req, nz, mask)
        entry = self.resources.get(req, nz)
        dynamic = self._dynamic_filters(pod, sv, within)
        feasible = self._feasible(sv, entry, dynamic, mask)
        if blocked is not None:
            feasible = feasible & ~blocked
        if sv.prefilter_msg is not None:
            return Decision(None, self._diagnose(pod, sv, entry, dynamic, mask))
        late = self._late(pod)
        if late is not None:
            return self._with_late(late, pod, sv, entry, dynamic, feasible, mask, within)
        nominated = state.index.get(pod.nominated_node_name) if pod.nominated_node_name else None
        if nominated is not None and feasible[nominated]:
            return Decision(nominated)  # the nominated node passes every filter: taken without scoring
        total = self.total_scores(pod, sv, feasible, within, entry)
        best = int(np.argmax(np.where(feasible, total, -1))) if feasible.size else -1  # no nodes: none
        if best >= 0 and feasible[best]:
            return Decision(best)
        return Decision(None, self._diagnose(pod, sv, entry, dynamic, mask))

    @staticmethod
    def _feasible(sv: static.StaticVerdict, entry, dynamic, mask) -> np.ndarray:
        feasible = sv.passes & entry.fit
        for _, reasons in dynamic:
            feasible = feasible & (reasons == 0)
        if mask is not None:
            feasible = feasible & mask
        return feasible

    def filter_pass(self, pod: Pod, mask: np.ndarray | None = None) -> tuple[np.ndarray, Diagnosis]:
        """Every node's Filter verdict for `pod` on the current state, and the reasons of those that fail (the
        stateful late filter, DynamicResources, is not run: nominated.py's pass with nominated pods)."""
        sv = self.static_verdict(pod)
        entry = self.resources.get(*self.state.vectors(pod))
        dynamic = self._dynamic_filters(pod, sv, mask)
        feasible = self._feasible(sv, entry, dynamic, mask)
        if sv.prefilter_msg is not None:
            feasible = np.zeros_like(feasible)
        return feasible, self._diagnose(pod, sv, entry, dynamic, mask)

    def rows_verdict(self, pod: Pod, rows: np.ndarray, extra: np.ndarray):
        """`filter_pass` restricted to `rows` with `extra[i]` more requested on rows[i], for a pod that only static
        verdicts and NodeResourcesFit judge (no PreFilter message, no dynamic filter): (feasible, first reason,
        its stage, lacking and unresolvable per checked column, the checked columns' names), one entry per row."""
        state = self.state
        sv = self.static_verdict(pod)
        req, _ = state.vectors(pod)
        cols = resources_fit.checked_columns(req, state.col["pods"])
        if self.profile.filter_on(resources_fit.NAME):
            lacking, unres = resources_fit.insufficient(state.alloc[rows], state.requested[rows] + extra, req, cols)
        else:
            lacking = unres = np.zeros((len(rows), len(cols)), dtype=bool)
        first = sv.reasons[rows]
        stage = np.where(first != 0, 0, 99).astype(np.int8)
        feasible = sv.passes[rows] & ~lacking.any(axis=1)
        return feasible, first, stage, lacking, unres, tuple(state.resources[c] for c in cols)

    def total_scores(self, pod: Pod, sv: static.StaticVerdict, feasible: np.ndarray, mask=None, entry=None):
        """Every score but the late plugin's, normalised over `feasible`."""
        if entry is None:
            entry = self.resources.get(*self.state.vectors(pod))
        return entry.score + self._static_scores(sv, feasible) + self._dynamic_scores(pod, sv, feasible, mask)

    def _late(self, pod: Pod):
        """The stateful late filter (DynamicResources) when it runs for `pod`."""
        for p in registry.LATE:
            if self.profile.filter_on(p.name) and p.runs_for(pod, self.state):
                return self.state.plugins.get(p.name)
        return None

    def _with_late(self, late, pod, sv, entry, dynamic, feasible, mask, within) -> Decision:
        pre = late.pre_filter(pod)
        if pre is not None:
            return Decision(None, self._diagnose(pod, sv, entry, dynamic, mask, pre))
        nominated = self.state.index.get(pod.nominated_node_name) if pod.nominated_node_name else None
        normalised = bool(sv.scored or registry.needs_cycle_work(pod, self.state, scores=True))
        try:
            best, reasons = latefilter.pick(self, late, pod, sv, feasible, nominated, within, normalised)
        except FilterError as exc:
            return Decision(None, error=str(exc))
        if best is not None:
            return Decision(best)
        return Decision(None, self._diagnose(pod, sv, entry, [*dynamic, (registry.STAGE[late.NAME], reasons)], mask))

    def _common(self, pod: Pod, sv: static.StaticVerdict, req, nz, mask) -> Decision:
        """The common case (resources and static verdicts decide alone), with the "no node fits" memo."""
        if self.memo and self._no_fit_version != self.state.version:
            if self._no_fit:  # most versions see no failure: keep the empty dictionaries
                self._no_fit, self._pod_no_fit = {}, {}
            self._no_fit_version = self.state.version
        if self._no_fit:
            found = self._no_fit.get(_no_fit_key(sv, req, mask))
            if found is not None and found[0] is sv:
                return self._remember(pod, mask, found[1])
        entry = self.resources.get(req, nz)
        best = self._by_resources(sv, entry, mask)
        if best is not None:
            return Decision(best)
        decision = Decision(None, self._diagnose(pod, sv, entry, [], mask))
        if self.memo:
            self._no_fit[_no_fit_key(sv, req, mask)] = (sv, decision)
            self._remember(pod, mask, decision)
        return decision

    def _remember(self, pod: Pod, mask, decision: Decision) -> Decision:
        """Keep a "no node fits" verdict for the pod itself too (whole-cluster runs): its next attempt at the
        same state version skips the shape look-up."""
        if mask is None:
            self._pod_no_fit[pod.key] = (pod, decision)
        return decision

    @staticmethod
    def _by_resources(sv: static.StaticVerdict, entry, mask: np.ndarray | None) -> int | None:
        """The common case: no per-pod plugin applies and the static scores are the same on every node, so the
        resource scores alone rank the feasible nodes."""
        ranked = entry.ranked if sv.all_pass else np.where(sv.passes, entry.ranked, -1)
        if mask is not None:
            ranked = np.where(mask, ranked, -1)
        if not ranked.size:  # a cluster without nodes
            return None
        best = int(ranked.argmax())
        return best if ranked[best] >= 0 else None

    def _static_scores(self, sv: static.StaticVerdict, feasible: np.ndarray) -> np.ndarray | int:
        """Each static scorer's own normalisation of its raw score over `feasible`, times its weight."""
        out: np.ndarray | int = 0
        for p in registry.STATIC_SCORES:
            weight = self.profile.weight(p.name)
            if weight:
                out = out + weight * p.normalise(sv.raw.get(p.name), feasible)
        return out

    def _dynamic_scores(self, pod: Pod, sv: static.StaticVerdict, feasible: np.ndarray,
                        mask=None) -> np.ndarray | int:
        out: np.ndarray | int = 0
        for p in registry.DYNAMIC_SCORES:
            weight = self.profile.weight(p.name)
            if weight and p.runs_for(pod, self.state):
                got = p.score(self, pod, sv, feasible, mask)
                if got is not None:
                    out = out + weight * got
        return out

    def _diagnose(self, pod, sv, entry, dynamic, mask, prefilter: str | None = None) -> Diagnosis:
        n = len(self.state.nodes)
        first = sv.reasons.copy()
        stage = np.where(first != 0, 0, 99).astype(np.int8)
        for st, reasons in dynamic:
            take = (first == 0) & (reasons != 0)
            first = np.where(take, reasons, first)
            stage = np.where(take, st, stage)
        if self.profile.filter_on(resources_fit.NAME):
            lacking, unres = resources_fit.insufficient(self.state.alloc, self.state.requested, entry.req, entry.cols)
        else:
            lacking = unres = np.zeros((n, len(entry.cols)), dtype=bool)
        names = tuple(self.state.resources[c] for c in entry.cols)
        in_snapshot = np.ones(n, dtype=bool) if mask is None else mask
        return Diagnosis(self.state.node_names, in_snapshot, first, lacking, unres, names,
                         registry.STAGE[resources_fit.NAME], stage, prefilter or sv.prefilter_msg)

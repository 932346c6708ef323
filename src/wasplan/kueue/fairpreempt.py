"""Preemption with fair sharing: whom a pending workload evicts when Kueue's Configuration enables fair sharing.

Upstream: KDIR/pkg/scheduler/preemption/preemption.go (`fairPreemptions`: the candidates of `findCandidates`, the
ClusterQueue's own under withinClusterQueue and, under reclaimWithinCohort, those of every ClusterQueue of the root
cohort's tree that borrows one of the flavor-resources needing preemption; sorted by `CandidatesOrdering`; the
preemptor's usage added to its ClusterQueue while the strategies run; `runFirstFsStrategy`: its own ClusterQueue's
candidates taken as they come, with FairSharingPreemptWithinNominal (beta, on in v0.17.0) a preemptor within its
nominal quota on those flavor-resources reclaiming as they come, otherwise per target ClusterQueue the first
candidate the strategy allows, the others kept for a retry; `runSecondFsStrategy`: LessThanInitialShare once per
ClusterQueue over the kept candidates; `workloadFitsForFairSharing`; then `fillBackWorkloads` with borrowing
allowed), KDIR/pkg/scheduler/preemption/fairsharing/ordering.go (`TargetClusterQueueOrdering`: from the root down,
the child ClusterQueue or Cohort with the highest DRS, not-borrowing ones pruned except the preemptor's own queue
and the cohorts on its path, ties between ClusterQueues to the better head candidate, between a Cohort and a
ClusterQueue to the Cohort), target.go and least_common_ancestor.go (the shares compared are those of the
preemptor's and the target's ancestors just below their least common ancestor), strategy.go
(LessThanOrEqualToFinalShare: preemptor's new share <= target's share without the candidate;
LessThanInitialShare: preemptor's new share < target's current share).
"""

from __future__ import annotations

from .fairshare import NEGATIVE, FairShares, compare
from .model import FR, IN_CLUSTER_QUEUE, IN_COHORT_FAIR_SHARING, IN_COHORT_RECLAMATION, Workload
from .preempt import Target
from .quota import Node, add_all, remove_all

FINAL_SHARE = "LessThanOrEqualToFinalShare"
INITIAL_SHARE = "LessThanInitialShare"
DEFAULT_STRATEGIES = (FINAL_SHARE, INITIAL_SHARE)


def _satisfies(policy: str, preemptor: Workload, wl: Workload) -> bool:
    """common/preemption_policy.go SatisfiesPreemptionPolicy."""
    if policy == "Any":
        return True
    if wl.priority < preemptor.priority:
        return True
    return policy == "LowerOrNewerEqualPriority" and wl.priority == preemptor.priority and preemptor.created < wl.created


class FairPreemption:
    """One search: the candidates, per ClusterQueue, in candidate order; the tree's usage is mutated and restored."""

    def __init__(self, preemptor, shares: FairShares, strategies: tuple[str, ...]) -> None:
        self.p = preemptor  # the classical Preemptor: its run, ordering, fit test and fill-back are shared
        self.shares = shares
        self.strategies = strategies or DEFAULT_STRATEGIES

    def targets(self, wl: Workload, pcq: Node, frs: set[FR], usage: dict[FR, int]) -> list[Target]:
        cands = self._candidates(wl, pcq, frs)
        if not cands:
            return []
        ordered = self.p._ordered((cands,), pcq.name)  # CandidatesOrdering
        add_all(pcq, usage)
        search = _Search(self, pcq, usage, frs)
        fits, retry = search.first(ordered, self.strategies[0])
        if not fits and len(self.strategies) > 1:
            fits = search.second(retry)
        remove_all(pcq, usage)
        chosen = search.targets
        if fits:
            chosen = self.p._fill_back(pcq, usage, chosen, True)
        for t in chosen:
            add_all(t.cq, t.wl.usage())
        return chosen if fits else []

    def _candidates(self, wl: Workload, pcq: Node, frs: set[FR]) -> list:
        p = pcq.cq.preemption
        out = []
        if p.within_cluster_queue != "Never":
            out += self._from(pcq, wl, p.within_cluster_queue, frs)
        if pcq.parent is not None and p.reclaim_within_cohort != "Never":
            for cq in pcq.parent.root().subtree_cqs():
                if cq is pcq or not any(cq.borrowing_with(fr, 0) for fr in frs):
                    continue
                out += self._from(cq, wl, p.reclaim_within_cohort, frs)
        return out

    def _from(self, cq: Node, preemptor: Workload, policy: str, frs: set[FR]) -> list:
        return [(w, cq) for w in self.p.run.admitted.get(cq.name, {}).values()
                if _satisfies(policy, preemptor, w) and not frs.isdisjoint(w.held())]


class _Search:
    def __init__(self, owner: FairPreemption, pcq: Node, usage: dict[FR, int], frs: set[FR]) -> None:
        self.o = owner
        self.pcq = pcq
        self.usage = usage
        self.frs = frs
        self.targets: list[Target] = []

    def _take(self, wl: Workload, cq: Node, reason: str) -> bool:
        remove_all(cq, wl.usage())
        self.targets.append(Target(wl, cq, reason))
        remove_all(self.pcq, self.usage)
        ok = self.o.p._fits(self.pcq, self.usage, True)
        add_all(self.pcq, self.usage)
        return ok

    def first(self, ordered: list, strategy: str) -> tuple[bool, list]:
        retry: list = []
        # queueWithinNominalInResourcesNeedingPreemption, with the preemptor's usage already added
        within = not any(self.pcq.borrowing_with(fr, 0) for fr in self.frs)
        ordering = _Ordering(self.o.shares, self.pcq, ordered, self.o.p)
        for cq in ordering:
            if cq is self.pcq or within:
                wl = ordering.pop(cq)
                reason = IN_CLUSTER_QUEUE if cq is self.pcq else IN_COHORT_RECLAMATION
                if self._take(wl, cq, reason):
                    return True, retry
                continue
            preemptor_new, target_old = ordering.shares_at(cq)
            while ordering.has(cq):
                wl = ordering.pop(cq)
                if strategy == FINAL_SHARE:
                    ok = compare(preemptor_new, ordering.share_after_removal(cq, wl)) <= 0
                else:
                    ok = compare(preemptor_new, target_old) < 0
                if ok:
                    if self._take(wl, cq, IN_COHORT_FAIR_SHARING):
                        return True, retry
                    break
                retry.append((wl, cq))
        return False, retry

    def second(self, retry: list) -> bool:
        ordering = _Ordering(self.o.shares, self.pcq, retry, self.o.p)
        for cq in ordering:
            preemptor_new, target_old = ordering.shares_at(cq)
            if compare(preemptor_new, target_old) < 0:
                wl = ordering.pop(cq)
                if self._take(wl, cq, IN_COHORT_FAIR_SHARING):
                    return True
            ordering.drop(cq)
        return False


class _Ordering:
    """TargetClusterQueueOrdering over the candidates (each (workload, its ClusterQueue's node))."""

    def __init__(self, shares: FairShares, pcq: Node, candidates: list, preemptor) -> None:
        self.shares = shares
        self.pcq = pcq
        self.ancestors = list(pcq.ancestors())
        self.per_cq: dict[Node, list[Workload]] = {}
        for wl, cq in candidates:
            self.per_cq.setdefault(cq, []).append(wl)
        self.pruned_cqs: set = set()
        self.pruned_cohorts: set = set()
        self.preemptor = preemptor

    def has(self, cq: Node) -> bool:
        return bool(self.per_cq.get(cq))

    def pop(self, cq: Node) -> Workload:
        return self.per_cq[cq].pop(0)

    def drop(self, cq: Node) -> None:
        self.pruned_cqs.add(cq)

    def __iter__(self):
        if self.pcq.parent is None:
            while self.has(self.pcq):
                yield self.pcq
            return
        root = self.pcq.parent.root()
        while root not in self.pruned_cohorts:
            cq = self._next(root)
            if cq is not None:
                yield cq

    def _next(self, cohort: Node):
        best_cq, best_cq_drs = None, NEGATIVE
        for cq in cohort.child_cqs:
            if cq in self.pruned_cqs:
                continue
            drs = self.shares.drs(cq)
            if (not drs.borrowing and cq is not self.pcq) or not self.has(cq):
                self.pruned_cqs.add(cq)
                continue
            c = compare(drs, best_cq_drs)
            if c == 0 and self._head_first(cq, best_cq):
                best_cq = cq
            elif c == 1:
                best_cq, best_cq_drs = cq, drs
        best_cohort, best_cohort_drs = None, NEGATIVE
        for child in cohort.child_cohorts:
            if child in self.pruned_cohorts:
                continue
            drs = self.shares.drs(child)
            if not drs.borrowing and child not in self.ancestors:
                self.pruned_cohorts.add(child)
            elif compare(drs, best_cohort_drs) >= 0:
                best_cohort, best_cohort_drs = child, drs
        if best_cohort is None and best_cq is None:
            self.pruned_cohorts.add(cohort)
            return None
        if compare(best_cohort_drs, best_cq_drs) >= 0:
            return self._next(best_cohort)
        return best_cq

    def _head_first(self, cq: Node, current: Node) -> bool:
        """CandidatesOrdering between the two ClusterQueues' head candidates."""
        a, b = self.per_cq[cq][0], self.per_cq[current][0]
        order = self.preemptor._ordered(([(a, cq), (b, current)],), self.pcq.name)
        return order[0][0] is a

    def _almost_lca(self, node: Node, lca: Node) -> Node:
        below = node
        for ancestor in node.ancestors():
            if ancestor is lca:
                return below
            below = ancestor
        return below

    def shares_at(self, cq: Node):
        """ComputeShares: the preemptor's and the target's shares just below their least common ancestor."""
        lca = next(a for a in cq.ancestors() if a in self.ancestors)
        return (self.shares.drs(self._almost_lca(self.pcq, lca)), self.shares.drs(self._almost_lca(cq, lca)))

    def share_after_removal(self, cq: Node, wl: Workload):
        usage = wl.usage()
        remove_all(cq, usage)
        lca = next(a for a in cq.ancestors() if a in self.ancestors)
        share = self.shares.drs(self._almost_lca(cq, lca))
        add_all(cq, usage)
        return share

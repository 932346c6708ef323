"""Classical preemption: which admitted workloads a pending one evicts, and the reason for each.

Upstream: KDIR/pkg/scheduler/preemption/preemption.go (`classicalPreemptions`: candidates removed one by one until
the preemptor fits, first allowing borrowing or not depending on borrowWithinCohort, then `fillBackWorkloads`
putting back every target not needed, in reverse order; `preemptionMessage`), classical/candidate_generator.go
(candidate order: hierarchical-reclaim candidates, then other-queue candidates, then the ClusterQueue's own, the
already-evicted first in each; `candidateIsValid`), classical/hierarchical_preemption.go
(`classifyPreemptionVariant`: WithinCQ, HierarchicalReclaim, ReclaimWithoutBorrowing, ReclaimWhileBorrowing with
borrowWithinCohort's maxPriorityThreshold; `collectCandidatesForHierarchicalReclaim`), common/ordering.go
(`CandidatesOrdering`: evicted first, other ClusterQueues before the preemptor's own, lower priority first, the
most recently admitted first (QuotaReserved's lastTransitionTime; now for none), then UID) and
common/preemption_policy.go (LowerPriority, LowerOrNewerEqualPriority, Any) and preemption_oracle.go
(`SimulatePreemption` for the flavor assigner).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import (FR, IN_CLUSTER_QUEUE, IN_COHORT_FAIR_SHARING, IN_COHORT_RECLAIM_WHILE_BORROWING,
                    IN_COHORT_RECLAMATION, Workload)
from .quota import Node, add_all, cq_available, first_advantage, remove_all

WITHIN_CQ, HIERARCHICAL, RECLAIM_NO_BORROW, RECLAIM_WHILE_BORROWING = 1, 2, 3, 4
_REASON = {WITHIN_CQ: IN_CLUSTER_QUEUE, HIERARCHICAL: IN_COHORT_RECLAMATION,
           RECLAIM_NO_BORROW: IN_COHORT_RECLAMATION, RECLAIM_WHILE_BORROWING: IN_COHORT_RECLAIM_WHILE_BORROWING}
HUMAN = {IN_CLUSTER_QUEUE: "prioritization in the ClusterQueue",
         IN_COHORT_RECLAMATION: "reclamation within the cohort",
         IN_COHORT_RECLAIM_WHILE_BORROWING: "reclamation within the cohort while borrowing",
         IN_COHORT_FAIR_SHARING: "Fair Sharing within the cohort"}


@dataclass(slots=True)
class Target:
    wl: Workload
    cq: Node
    reason: str


def message(preemptor: Workload, reason: str, preemptor_path: str, preemptee_path: str) -> str:
    return (f"Preempted to accommodate a workload (UID: {preemptor.uid or 'UNKNOWN'}, JobUID: "
            f"{preemptor.job_uid or 'UNKNOWN'}) due to {HUMAN.get(reason, 'UNKNOWN')}; preemptor path: "
            f"{preemptor_path}; preemptee path: {preemptee_path}")


class Preemptor:
    def __init__(self, run) -> None:
        self.run = run
        self.fair = None  # a fairpreempt.FairPreemption when Kueue's Configuration enables fair sharing

    def _ordered(self, groups, preemptor_cq: str) -> list:
        """CandidatesOrdering over the hierarchical, then priority-reclaim, then own-queue groups, the evicted of
        every group first: one sort on (not evicted, group, priority, -reserved, UID), each key computed once."""
        now = self.run.now
        keyed = []
        for gi, group in enumerate(groups):
            for item in group:
                wl = item[0]
                qr = wl.conditions.get("QuotaReserved")
                reserved = qr.time if qr is not None and qr.status else now
                keyed.append(((not wl.is_evicted(), gi, item[1].name == preemptor_cq, wl.priority, -reserved, wl.uid),
                              item))
        keyed.sort(key=lambda k: k[0])
        return [item for _, item in keyed]

    def _from_cq(self, cq: Node, lca, preemptor, pcq, frs, advantage, out) -> None:
        """getCandidatesFromCQ with classifyPreemptionVariant, the policy tested first (the cheap test)."""
        p = pcq.cq.preemption
        same = cq is pcq
        policy = p.within_cluster_queue if same else p.reclaim_within_cohort
        if policy not in ("LowerPriority", "LowerOrNewerEqualPriority", "Any"):
            return
        top, created = preemptor.priority, preemptor.created
        admitted = self.run.admitted.get(cq.name)
        if not admitted:
            return
        if policy != "Any":
            lowest = admitted.lowest()
            if lowest > top or (lowest == top and policy == "LowerPriority"):
                return  # no workload there has a priority the policy lets the preemptor preempt
        for wl in admitted.values():
            # the policy (preemption_policy.go: LowerPriority, LowerOrNewerEqualPriority, Any), inline: this loop
            # sees every admitted workload in reach, once per simulation
            prio = wl.priority
            if prio >= top and policy != "Any" and not (
                    prio == top and policy == "LowerOrNewerEqualPriority" and created < wl.created):
                continue
            if frs.isdisjoint(wl.held()):
                continue
            if same:
                variant = WITHIN_CQ
            elif advantage:
                variant = HIERARCHICAL
            elif p.borrow_within_cohort == "Never":
                variant = RECLAIM_NO_BORROW
            elif wl.priority >= preemptor.priority or (
                    p.max_priority_threshold is not None and wl.priority > p.max_priority_threshold):
                variant = RECLAIM_NO_BORROW
            else:
                variant = RECLAIM_WHILE_BORROWING
            out.append((wl, cq, variant, lca))

    def _subtree(self, cohort: Node, root: Node, skip, preemptor, pcq, frs, advantage, out) -> None:
        for child in cohort.child_cohorts:
            if child is skip or child.within_nominal(frs):
                continue
            self._subtree(child, root, skip, preemptor, pcq, frs, advantage, out)
        for child in cohort.child_cqs:
            if child is not pcq and not child.within_nominal(frs):
                self._from_cq(child, root, preemptor, pcq, frs, advantage, out)

    def targets(self, preemptor: Workload, pcq: Node, frs: set[FR], usage: dict[FR, int]) -> list[Target]:
        if self.fair is not None:
            return self.fair.targets(preemptor, pcq, frs, usage)
        p = pcq.cq.preemption
        same: list = []
        if p.within_cluster_queue != "Never":
            self._from_cq(pcq, None, preemptor, pcq, frs, False, same)
        forbidden = p.borrow_within_cohort == "Never"
        # with borrowing forbidden, every priority-reclaim candidate is ReclaimWithoutBorrowing, valid only in the
        # attempt without borrowing; that attempt is made only when the preemptor's queue is under nominal, and can
        # succeed only if the preemptor fits without borrowing once all of its own queue's candidates are gone
        no_borrow = self._may_fit_unborrowed(pcq, usage, same)
        skip_prio = forbidden and (not no_borrow or not self._under_nominal(pcq, frs))
        hier: list = []
        prio: list = []
        if pcq.parent is not None and p.reclaim_within_cohort != "Never":
            chain = pcq.chain
            first = first_advantage(pcq, usage)
            for i in range(first if skip_prio else 0, len(chain)):
                advantage = i >= first
                self._subtree(chain[i], chain[i], chain[i - 1] if i else None, preemptor, pcq, frs, advantage,
                              hier if advantage else prio)
        if not hier and not prio and not same:
            return []
        if not hier and not prio:
            attempts = (True,)
        elif forbidden and not self._under_nominal(pcq, frs):
            attempts = (True,)
        elif forbidden and not hier:
            attempts = (False, True)
        else:
            attempts = (True, False)
        if not no_borrow:
            attempts = (True,)
        ordered = self._ordered((hier, prio, same), pcq.name)
        for borrowing in attempts:
            chosen: list[Target] = []
            for wl, cq, variant, lca in ordered:
                if not self._valid(cq, variant, lca, pcq, frs, borrowing):
                    continue
                remove_all(cq, wl.usage())
                chosen.append(Target(wl, cq, _REASON[variant]))
                if self._fits(pcq, usage, borrowing):
                    chosen = self._fill_back(pcq, usage, chosen, borrowing)
                    for t in chosen:
                        add_all(t.cq, t.wl.usage())
                    return chosen
            for t in chosen:
                add_all(t.cq, t.wl.usage())
        return []

    @staticmethod
    def _may_fit_unborrowed(pcq: Node, usage: dict[FR, int], same: list) -> bool:
        """Could an attempt without borrowing fit at all? It needs the preemptor's queue within its nominal quota
        with the preemptor's usage added, and only evicting that queue's own candidates lowers its usage (an
        eviction elsewhere changes that queue and its cohorts only)."""
        freed: dict[FR, int] = {}
        for wl, *_ in same:
            for fr, v in wl.usage().items():
                freed[fr] = freed.get(fr, 0) + v
        used, limit = pcq.usage, pcq.limit
        for fr, v in usage.items():
            if used.get(fr, 0) + v - freed.get(fr, 0) > limit.get(fr, 0):  # borrowing_with
                return False
        return True

    @staticmethod
    def _under_nominal(pcq: Node, frs: set[FR]) -> bool:
        return all(pcq.usage.get(fr, 0) < pcq.quota(fr).nominal for fr in frs)

    @staticmethod
    def _valid(cq: Node, variant: int, lca, pcq: Node, frs: set[FR], borrowing: bool) -> bool:
        if cq is pcq:
            return True
        if borrowing and variant == RECLAIM_NO_BORROW:
            return False
        if cq.within_nominal(frs):
            return False
        for node in cq.ancestors():
            if node is lca:
                break
            if node.within_nominal(frs):
                return False
        return True

    @staticmethod
    def _fits(pcq: Node, usage: dict[FR, int], borrowing: bool) -> bool:
        for fr, v in usage.items():
            if not borrowing and pcq.borrowing_with(fr, v):
                return False
            if v > cq_available(pcq, fr):
                return False
        return True

    def _fill_back(self, pcq: Node, usage, targets: list[Target], borrowing: bool) -> list[Target]:
        for i in range(len(targets) - 2, -1, -1):
            add_all(targets[i].cq, targets[i].wl.usage())
            if self._fits(pcq, usage, borrowing):
                targets[i] = targets[-1]
                targets.pop()
            else:
                remove_all(targets[i].cq, targets[i].wl.usage())
        return targets

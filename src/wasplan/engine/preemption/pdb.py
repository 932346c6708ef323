"""PodDisruptionBudgets as preemption reads them (upstream preemption.go filterPodsWithPDBViolation).

A victim "violates" a PDB when evicting it would take the budget's allowed disruptions below zero; victims are
walked in importance order and each matching budget is debited as they go. A budget matches pods of its own
namespace whose labels its selector selects; an empty selector matches nothing before 1.38 (#141785).

`disruptionsAllowed` comes from the snapshot's `status.disruptionsAllowed` when present. Otherwise wasplan does
the disruption controller's arithmetic itself: healthy = matching pods that run in the input (spec.nodeName
set), expected = the same count the first time the budget is read (bare pods have no controller scale, so the
count at that moment stands in for it), desired healthy = minAvailable, or expected - maxUnavailable;
percentages round up. A pod the plan itself binds is not counted: the controller counts only Ready pods
(pkg/controller/disruption/disruption.go countHealthyPods), and a pod just bound is not Ready before its kubelet
starts it, which no plan reaches. Evictions the plan carries out debit the budget, so later preemptions see the
reduced allowance.
"""

from __future__ import annotations

import math

from wasplan.cluster.model import LabelSelector, PodDisruptionBudget
from wasplan.engine.pluginapi.selectors import selector_matches


def _empty(sel: LabelSelector | None) -> bool:
    return sel is None or (not sel.match_labels and not sel.match_expressions)


def _selects(sel: LabelSelector | None, labels, empty_matches_all: bool) -> bool:
    """metav1.LabelSelectorAsSelector: a missing selector selects nothing; `{}` everything, which 1.38's
    preemption honours (`empty_matches_all`) and earlier releases skipped."""
    if _empty(sel):
        return sel is not None and empty_matches_all
    return selector_matches(sel, labels)


def _scaled(value: int | str, expected: int) -> int:
    if isinstance(value, str) and value.endswith("%"):
        return math.ceil(int(value[:-1]) * expected / 100)
    return int(value)


class PdbTracker:
    def __init__(self, empty_matches_all: bool = False) -> None:
        self.empty_matches_all = empty_matches_all  # caps.pdb_empty_selector_matches_all
        self.budgets: list[PodDisruptionBudget] = []
        self._allowed: dict[int, int] = {}  # budget index -> disruptions still allowed
        self.generation = 0  # bumped whenever an allowance changes (per-node caches key on it)

    def add(self, pdb: PodDisruptionBudget) -> None:
        self.budgets.append(pdb)
        self.generation += 1

    def matching(self, pod) -> list[int]:
        return [i for i, b in enumerate(self.budgets)
                if b.namespace == pod.namespace and _selects(b.selector, pod.labels, self.empty_matches_all)]

    def allowed(self, i: int, placed_pods) -> int:
        if i not in self._allowed:
            b = self.budgets[i]
            if b.disruptions_allowed is not None:
                self._allowed[i] = b.disruptions_allowed
            else:
                healthy = sum(1 for p in placed_pods if p.node_name and i in self.matching(p))
                if b.min_available is not None:
                    desired = _scaled(b.min_available, healthy)
                elif b.max_unavailable is not None:
                    desired = healthy - _scaled(b.max_unavailable, healthy)
                else:
                    desired = healthy
                self._allowed[i] = max(0, healthy - desired)
        return self._allowed[i]

    def violating(self, pods, placed_pods) -> list[bool]:
        """For `pods` in the order given, whether evicting each (after the ones before it) breaks a budget."""
        if not self.budgets:
            return [False] * len(pods)
        left: dict[int, int] = {}
        out = []
        for pod in pods:
            bad = False
            for i in self.matching(pod):
                left[i] = left.get(i, self.allowed(i, placed_pods)) - 1
                bad = bad or left[i] < 0
            out.append(bad)
        return out

    def evicted(self, pod, placed_pods) -> None:
        for i in self.matching(pod):
            self._allowed[i] = self.allowed(i, placed_pods) - 1
            self.generation += 1

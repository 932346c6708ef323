"""Choosing the best candidate placement (engine-semantics §1.9.4), shared by PodGroups (placement.py) and
CompositePodGroups (compositecycle.py).

Upstream evaluates every placement, keeps the feasible ones and takes the highest total of PodGroupPodsCount
(raw·100/max raw over the feasible placements) plus the bin-packing score; wasplan breaks a tie by the domain
value that sorts first instead of at random. The result here is the same, found with less work: domains that
cannot hold the members still needed (`Bounds.fit_at_most`) are never tried, the rest are visited best score
bound first, and once a placement has placed as many pods as any domain could (so the normaliser is known) the
visit stops at the first domain whose bound cannot beat the best total.

Asked for `ties` (workload-aware preemption, where the placement decides the victims), the visit goes on through
the domains whose bound equals the best total, so every placement upstream's `rand.Int()` could pick is
evaluated; `tied_with` then lists them. The normaliser is the same either way: the highest raw count among the
feasible trials (`reached` means a trial met the bound `top_raw`, which no trial can exceed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from wasplan.engine.cycle.domains import Bounds, Domain

POD_COUNT_WEIGHT = 1  # PodGroupPodsCount
BIN_PACKING_WEIGHT = 1  # PlacementBinPacking (NodeResourcesFit's placement score in 1.36)


@dataclass(slots=True)
class Trial:
    domain: Domain
    outcome: Any  # what the evaluation produced (a GroupAttempt, a composite NodeResult)
    success: bool
    raw: int = 0  # PodGroupPodsCount before normalisation
    bin_packing: int = 0

    def total(self, max_raw: int) -> int:
        return POD_COUNT_WEIGHT * (self.raw * 100 // max_raw) + BIN_PACKING_WEIGHT * self.bin_packing


@dataclass(slots=True)
class Need:
    """What the evaluated unit asks of a domain: its queued pods' (request, non-zero request) vectors, the pods
    already scheduled (counted by PodGroupPodsCount) and the fewest new pods a feasible placement places."""

    vectors: list
    scheduled: int
    fewest: int


def best(state, domains: list[Domain], need: Need, evaluate: Callable[[Domain], Trial], ties: bool = False
         ) -> tuple[Trial | None, dict[str, Trial]]:
    """The winning feasible trial (None if none) and every trial evaluated, by domain value; with `ties`, every
    domain that could score as much as the winner is evaluated too."""
    bounds = Bounds(state, domains, [v[0] for v in need.vectors], [v[1] for v in need.vectors])
    codes = np.array([d.code for d in domains], dtype=np.int64)
    most = np.minimum(len(need.vectors), bounds.capacity[codes])
    keep = np.flatnonzero(most >= need.fewest)
    if not len(keep):
        return None, {}
    top_raw = max(need.scheduled + int(most[keep].max()), 1)
    bound = (POD_COUNT_WEIGHT * ((need.scheduled + most[keep]) * 100 // top_raw)
             + BIN_PACKING_WEIGHT * bounds.bin_packing[codes[keep]])
    order = keep[np.argsort(-bound, kind="stable")]  # domains come sorted by value: ties keep that order
    bound_of = dict(zip(keep.tolist(), bound.tolist()))
    trials: dict[str, Trial] = {}
    winner: Trial | None = None
    reached = False  # a feasible trial placed as many pods as any domain could: the normaliser is known
    for i in order.tolist():
        d = domains[i]
        if reached and _cannot_win(bound_of[i], d.name, winner, top_raw, ties):
            break
        trial = trials[d.name] = evaluate(d)
        if trial.success:
            winner, reached = _better(winner, trial, top_raw), reached or trial.raw == top_raw
    feasible = [t for t in trials.values() if t.success]
    if feasible and not reached:  # every candidate was tried; normalise by the best raw actually reached
        max_raw = max(t.raw for t in feasible) or 1
        winner = min(feasible, key=lambda t: (-t.total(max_raw), t.domain.name))
    return winner, trials


def _cannot_win(bound: int, name: str, winner: Trial, top_raw: int, ties: bool = False) -> bool:
    """Candidates come sorted by (-bound, name): once one cannot beat the winner (or, with `ties`, cannot equal
    it), none after it can."""
    score = winner.total(top_raw)
    return bound < score or (bound == score and name > winner.domain.name and not ties)


def tied_with(winner: Trial, trials: dict[str, Trial]) -> list[Trial]:
    """The feasible trials whose total equals the winner's (the winner included), by domain value: the
    placements upstream's findBestPlacement draws between. Complete only for a search run with `ties`."""
    feasible = [t for t in trials.values() if t.success]
    max_raw = max((t.raw for t in feasible), default=0) or 1
    score = winner.total(max_raw)
    return sorted((t for t in feasible if t.total(max_raw) == score), key=lambda t: t.domain.name)


def _better(current: Trial | None, trial: Trial, top_raw: int) -> Trial:
    if current is None:
        return trial
    a, b = trial.total(top_raw), current.total(top_raw)
    return trial if a > b or (a == b and trial.domain.name < current.domain.name) else current

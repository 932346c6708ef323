"""Which claim sets the vectorised pre-check covers, and the subrequest choices it must weigh.

Covered: no constraints, every request `ExactCount` without capacity requests or admin access, either `exactly`
or `firstAvailable` with such subrequests. For `firstAvailable` the search keeps, per node, the first choice in
its depth-first order for which the rest succeeds: with one choice per `firstAvailable` request, that order is
lexicographic over (first such request's subrequest index, second's, ...), which `itertools.product` yields.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Sequence

from wasplan.cluster.devices import ALLOCATION_RESULTS_MAX, EXACT_COUNT, ResourceClaim, RequestSpec

MAX_COMBINATIONS = 64


@dataclass(frozen=True, slots=True)
class ClaimShape:
    fixed: tuple[tuple[int, RequestSpec], ...]  # (claim index, request) of `exactly` requests
    choices: tuple[tuple[int, str, tuple[RequestSpec, ...]], ...]  # (claim index, request name, subrequests)
    combinations: tuple[tuple[int, ...], ...]  # subrequest index per choice, in the search's order


def _plain(spec: RequestSpec) -> bool:
    return spec.allocation_mode == EXACT_COUNT and spec.capacity is None and not spec.admin_access


def _totals_fit(claims: Sequence[ResourceClaim], shape_fixed, choices, combination) -> bool:
    totals = [0] * len(claims)
    for ci, spec in shape_fixed:
        totals[ci] += spec.count
    for (ci, _, subs), j in zip(choices, combination):
        totals[ci] += subs[j].count
    return max(totals, default=0) <= ALLOCATION_RESULTS_MAX


def claim_shape(claims: Sequence[ResourceClaim]) -> ClaimShape | str:
    """The shape, or why the pre-check cannot answer exactly for these claims."""
    fixed, choices = [], []
    for ci, claim in enumerate(claims):
        if claim.spec.constraints:
            return f"claim {claim.key} has constraints"
        for request in claim.spec.requests:
            specs = (request.exactly,) if request.exactly is not None else request.first_available
            if not all(_plain(s) for s in specs):
                return f"claim {claim.key}, request {request.name} is not a plain ExactCount request"
            if request.exactly is not None:
                fixed.append((ci, request.exactly))
            else:
                choices.append((ci, request.name, request.first_available))
    combinations = list(product(*(range(len(subs)) for _, _, subs in choices)))
    if len(combinations) > MAX_COMBINATIONS:
        return f"more than {MAX_COMBINATIONS} combinations of subrequests"
    if not all(_totals_fit(claims, fixed, choices, c) for c in combinations):
        return f"a claim may ask for more than {ALLOCATION_RESULTS_MAX} devices"
    return ClaimShape(tuple(fixed), tuple(choices), tuple(combinations))

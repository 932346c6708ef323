"""Ties that matter: the equally scored choices upstream draws between at random, each evaluated as if chosen.

wasplan's own choice stays deterministic (the first domain or node by name); where upstream would draw, the plan
also names the alternatives and what each would evict, so a reader (and `--fail-on preemption`) sees that the
outcome is a draw. Two draws are modelled:

* a topology-aware PodGroup's workload-aware preemption (1.37): the placement search runs once with every
  potential victim removed and findBestPlacement (pkg/scheduler/schedule_one_podgroup.go) breaks equal totals
  with `rand.Int()`; the reprieve (framework/preemption/podgrouppreemption.go selectVictimsOnDomain) then keeps
  what still fits next to that placement's assignment, so each tied placement has victims of its own;
* a pod's DefaultPreemption: pickOneNodeForPreemption (framework/preemption/preemption.go) falls through its five
  criteria to the first node of a list built from a Go map, i.e. any node whose criteria all equal the best's.

At most MAX_LISTED choices are evaluated and listed (the plan's own and the first others by name); the number of
tied choices is kept beside them. A cluster of thousands of identical nodes makes every pod's preemption a draw
between all of them, and listing each would cost more than planning.

The rule for "matters": the tied choices do not all evict the same pods. Ties whose choices evict the same pods
(or none, as a placement tie without preemption) differ only in nodes; they are the documented name-order tie
break and are not reported. What a different choice would change later in the plan is not evaluated.
"""

from __future__ import annotations

import numpy as np

from wasplan.plan import Alternative

MAX_LISTED = 8  # tied choices evaluated and listed per tie (the plan's own among them)


def listed(names: np.ndarray, chosen: int) -> list[int]:
    """Indexes of the tied choices to evaluate, in name order (`names`: the choices' names, or their ranks in
    name order): the first MAX_LISTED, with the plan's own (`chosen`) in place of the last when it comes later."""
    if len(names) > MAX_LISTED and names.dtype.kind in "iu":  # ranks (unique): the few first without a full sort
        first = np.argpartition(names, MAX_LISTED - 1)[:MAX_LISTED]
        head = first[np.argsort(names[first], kind="stable")].tolist()
    else:
        head = np.argsort(names, kind="stable")[:MAX_LISTED].tolist()
    if chosen not in head:
        head = sorted([*head[:-1], chosen], key=lambda i: names[i])
    return head


def consequential(choices: list[tuple[str | None, tuple[str, ...], list]], chosen: int) -> tuple[Alternative, ...]:
    """`choices`: (placement "key=value" or None, node names, victim PodStates) per tied choice, in name order;
    `chosen` is the index of the plan's. The alternatives when the victims differ between choices, else ()."""
    victim_sets = [tuple(sorted([ps.key for ps in victims])) for _, _, victims in choices]
    if len(choices) < 2 or len(set(victim_sets)) < 2:
        return ()
    return tuple(Alternative(where, nodes if len(nodes) == 1 else tuple(sorted(set(nodes))), keys, i == chosen)
                 for i, ((where, nodes, _), keys) in enumerate(zip(choices, victim_sets)))

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

The rule for "matters": the tied choices do not all evict the same pods. Ties whose choices evict the same pods
(or none, as a placement tie without preemption) differ only in nodes; they are the documented name-order tie
break and are not reported. What a different choice would change later in the plan is not evaluated.
"""

from __future__ import annotations

from wasplan.plan import Alternative


def consequential(choices: list[tuple[str | None, tuple[str, ...], list]], chosen: int) -> tuple[Alternative, ...]:
    """`choices`: (placement "key=value" or None, node names, victim PodStates) per tied choice, in name order;
    `chosen` is the index of the plan's. The alternatives when the victims differ between choices, else ()."""
    victim_sets = [tuple(sorted(ps.key for ps in victims)) for _, _, victims in choices]
    if len(choices) < 2 or len(set(victim_sets)) < 2:
        return ()
    return tuple(Alternative(where, tuple(sorted(set(nodes))), keys, i == chosen)
                 for i, ((where, nodes, _), keys) in enumerate(zip(choices, victim_sets)))

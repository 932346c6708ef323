"""Rules between the group's own pods per topology domain of a key, for the program (grouprules.py states them
on the placed pods): required anti-affinity on a key other than the hostname (`apart`), required pod affinity the
pods hold and match themselves (`close`), and hard topology spread among them (`spread`).

Each is a necessary condition of a filter plugin, stated beside its filter (each plugin's `exact_domains` in the
registry: inter_pod_affinity.py gives `apart` and `close`, topology_spread.py `spread`, with their own counts),
only where it holds whatever order the pods are placed in; everything else is left to the witness replay. Only
the rules of filter plugins the profile runs are asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.engine.facade import Group, SpreadRule, registry
from wasplan.explain.exact.shapes import Shape


@dataclass(frozen=True)
class DomainRules:
    """Rules between the group's own pods per topology domain of a key: `tags` (nodes x keys) each node's domain
    code per key; `apart`: (key column, pairs of shapes (i <= j; (i, i): one pod per domain) never in one
    domain); `close`: (key column, shapes whose pods all share one domain)."""

    tags: np.ndarray | None = None
    apart: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ()
    close: tuple[tuple[int, tuple[int, ...]], ...] = ()
    spread: tuple[Spread, ...] = ()


@dataclass(frozen=True)
class Spread:
    """A hard spread constraint the group's pods of `shapes` (one family) hold and match, and no other pod of the
    group matches: in every domain that receives one of them, the domain's matching pods minus the fewest in any
    counted domain stay within `max_skew` once they are all placed (topology_spread.exact_domains says why)."""

    column: int  # the key's tag column
    shapes: tuple[int, ...]
    max_skew: int
    running: tuple[int, ...]  # per domain code: matching pods already there (on the nodes the engine counts)
    counted: tuple[int, ...]  # the codes of the domains the engine counts (an eligible node in them)
    min_zero: bool  # minDomains not met: the global minimum is 0


def domain_rules(ev, shapes: list[Shape], whole_cluster: bool = False) -> DomainRules:
    """Every enabled plugin's rules between the group's own pods (`whole_cluster`: no topology placement, the
    engine counts over every node), with the keys they name as tag columns."""
    state = ev.state
    group = Group(tuple(s.pod for s in shapes), _families(shapes), whole_cluster)
    apart: dict[str, set[tuple[int, int]]] = {}
    close: dict[str, tuple[int, ...]] = {}
    spread: list[SpreadRule] = []
    for plugin in registry.EXACT_DOMAINS:  # each plugin's rules, beside its filter
        if ev.profile.filter_on(plugin.name):
            part = plugin.exact_domains(state, group, ev.static_verdict)
            for key, pairs in part.apart.items():
                apart.setdefault(key, set()).update(pairs)
            for key, held in part.close.items():
                close[key] = tuple(sorted(set(close.get(key, ())) | set(held)))
            spread += part.spread
    keys = sorted(set(apart) | set(close) | {rule.key for rule in spread})
    if not keys:
        return DomainRules()
    tags = np.column_stack([state.labels.codes(k)[0] for k in keys])
    return DomainRules(tags, tuple((keys.index(k), tuple(sorted(v))) for k, v in sorted(apart.items())),
                       tuple((keys.index(k), v) for k, v in sorted(close.items())),
                       tuple(Spread(keys.index(r.key), r.shapes, r.max_skew, r.running, r.counted, r.min_zero)
                             for r in spread))


def _families(shapes: list[Shape]) -> tuple[tuple[int, ...], ...]:
    """The shapes' families in order of their first shape (a shape outside any family is its own)."""
    families: dict[int, list[int]] = {}
    for i, s in enumerate(shapes):
        families.setdefault(s.family if s.family >= 0 else -1 - i, []).append(i)
    return tuple(tuple(v) for v in families.values())

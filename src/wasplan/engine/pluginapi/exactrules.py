"""What a filter plugin contributes to explain's exact check besides the nodes it allows (`exact_allowed`) and the
pairs of pods it keeps apart on one node (`exact_conflict`): rules between the group's own pods per topology
domain, each a necessary condition of the plugin's filter that holds whatever order the pods are placed in
(`exact_domains` in registry.py; explain/exact/domainrules.py turns them into the program's constraints).

The rules are stated on the group's pods as the check groups them (one representative pod per shape, indices into
that list), so a plugin needs nothing of the check's own types.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SpreadRule:
    """A hard spread constraint that the pods of `shapes` (one family) hold and match, and no other pod of the group
    matches: in every domain of `key` that receives one of them, the domain's matching pods minus the fewest in any
    counted domain stay within `max_skew` once they are all placed."""

    key: str
    shapes: tuple[int, ...]
    max_skew: int
    running: tuple[int, ...]  # per domain code: matching pods already there (on the nodes the engine counts)
    counted: tuple[int, ...]  # the codes of the domains the engine counts (an eligible node in them)
    min_zero: bool  # minDomains not met: the global minimum is 0


@dataclass
class DomainPart:
    """One plugin's rules: `apart` key -> pairs of shapes (i <= j; (i, i): one pod per domain) never in one domain;
    `close` key -> shapes whose pods all share one domain; `spread` the hard spread rules."""

    apart: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    close: dict[str, tuple[int, ...]] = field(default_factory=dict)
    spread: list[SpreadRule] = field(default_factory=list)


@dataclass(frozen=True)
class Group:
    """The group's pods as the exact check sees them: one representative pod per shape, the families (shapes that
    are variants of the same pods) and whether the engine counts over the whole cluster (no topology placement)."""

    pods: tuple
    families: tuple[tuple[int, ...], ...]
    whole_cluster: bool

"""Rules between the group's own pods per topology domain of a key, for the program (grouprules.py states them
on the placed pods): required anti-affinity on a key other than the hostname (`apart`), required pod affinity the
pods hold and match themselves (`close`), and hard topology spread among them (`spread`).

Each is a necessary condition of upstream's filters (InterPodAffinity, PodTopologySpread: the engine's plugins
are the reference, engine/plugins/inter_pod_affinity.py and topology_spread.py, whose own functions compute the
counts here), stated only where it holds whatever order the pods are placed in; everything else is left to the
witness replay.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.plugins import inter_pod_affinity, topology_spread
from wasplan.engine.plugins.inter_pod_affinity import HOSTNAME, anti_terms
from wasplan.engine.selectors import selector_matches
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
    counted domain stay within `max_skew` once they are all placed."""

    column: int  # the key's tag column
    shapes: tuple[int, ...]
    max_skew: int
    running: tuple[int, ...]  # per domain code: matching pods already there (on the nodes the engine counts)
    counted: tuple[int, ...]  # the codes of the domains the engine counts (an eligible node in them)
    min_zero: bool  # minDomains not met: the global minimum is 0


def domain_rules(ev, shapes: list[Shape], whole_cluster: bool = False) -> DomainRules:
    """Required anti-affinity between the group's own pods on a key other than the hostname (either pod's term
    matching the other, as upstream checks both): `apart`. Required pod affinity that the group's pods hold and
    match themselves, when no running pod matches it: upstream lets the first such pod go anywhere its keys
    exist (`_affinity_ok`'s self rule) and every later one only where a matching pod runs, so they all share one
    domain of each key: `close`. With `whole_cluster` (no topology placement: the engine counts over every
    node), hard spread among the group's pods: `spread`. Only the rules of filter plugins the profile runs."""
    state, profile = ev.state, ev.profile
    apart: dict[str, set[tuple[int, int]]] = {}
    close: dict[str, tuple[int, ...]] = {}
    if profile.filter_on(inter_pod_affinity.NAME):
        for i, a in enumerate(shapes):
            for j in range(i, len(shapes)):
                for key in _anti_keys(a.pod, shapes[j].pod) | _anti_keys(shapes[j].pod, a.pod):
                    apart.setdefault(key, set()).add((i, j))
        close = _close(state, shapes)
    spread = _spread(ev, shapes) if whole_cluster and profile.filter_on(topology_spread.NAME) else []
    keys = sorted(set(apart) | set(close) | {key for key, _ in spread})
    if not keys:
        return DomainRules()
    tags = np.column_stack([state.labels.codes(k)[0] for k in keys])
    return DomainRules(tags, tuple((keys.index(k), tuple(sorted(v))) for k, v in sorted(apart.items())),
                       tuple((keys.index(k), v) for k, v in sorted(close.items())),
                       tuple(dataclasses.replace(rule, column=keys.index(key)) for key, rule in spread))


def _anti_keys(owner: Pod, target: Pod) -> set[str]:
    return {t.topology_key for t in anti_terms(owner)
            if t.topology_key != HOSTNAME and inter_pod_affinity.term_matches(t, owner, target)}


def _close(state, shapes: list[Shape]) -> dict[str, tuple[int, ...]]:
    """Key -> shapes held in one domain of it, for required pod-affinity terms every holder matches itself, that
    only holders of the same terms match among the group, and that no running pod matches."""
    out: dict[str, set[int]] = {}
    for i, s in enumerate(shapes):
        terms = s.pod.affinity.pod_required if s.pod.affinity is not None else ()
        if not terms or not all(inter_pod_affinity.term_matches(t, s.pod, s.pod) for t in terms):
            continue
        matching = [j for j, o in enumerate(shapes) if all(inter_pod_affinity.term_matches(t, s.pod, o.pod)
                                                             for t in terms)]
        if any(shapes[j].pod.affinity is None or shapes[j].pod.affinity.pod_required != terms for j in matching):
            continue
        if any(state.matching_counts(*inter_pod_affinity.term_scope(t, s.pod)).any() for t in terms):
            continue
        for t in terms:
            out.setdefault(t.topology_key, set()).update(matching)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _spread(ev, shapes: list[Shape]) -> list[tuple[str, Spread]]:
    """(key, rule) per hard spread constraint of a family of shapes whose pods match its selector, when no pod of
    another family of the group does (their counts would depend on each other's nodes). The counts are the
    engine's: PodTopologySpread's eligible nodes for the pod (keys present, nodeAffinity/nodeTaints policies) and
    matching running pods per domain on them. Why it is necessary: when the last of these pods goes into domain d
    its count is final(d) - 1 and the minimum then is at most the final one, so Filter's count + 1 - min <=
    maxSkew gives final(d) - final min <= maxSkew."""
    state, out = ev.state, []
    families: dict[int, list[int]] = {}
    for i, s in enumerate(shapes):
        families.setdefault(s.family if s.family >= 0 else -1 - i, []).append(i)
    for members in families.values():
        pod = shapes[members[0]].pod
        cons = topology_spread.constraints(pod, hard=True)
        sv = ev.static_verdict(pod)
        for c, selector in cons:
            others = [s.pod for i, s in enumerate(shapes) if i not in members]
            if not selector_matches(selector, pod.labels) or any(
                    o.namespace == pod.namespace and selector_matches(selector, o.labels)
                    for o in others):
                continue
            codes, domains = state.labels.codes(c.topology_key)
            # the plugin's own eligibility and per-domain totals (its Filter's first steps), not a second copy
            eligible = topology_spread._all_keys(state, cons) & topology_spread._included(c, sv.affinity_ok,
                                                                                           sv.taints_ok)
            totals, present = topology_spread._domain_totals(
                codes, len(domains), eligible, topology_spread.count_matching(state, selector, pod.namespace))
            min_zero = c.min_domains is not None and int(present.sum()) < c.min_domains
            out.append((c.topology_key, Spread(-1, tuple(members), c.max_skew, tuple(int(t) for t in totals),
                                               tuple(np.flatnonzero(present).tolist()), min_zero)))
    return out

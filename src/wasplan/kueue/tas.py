"""Topology-aware scheduling: where in a flavor's Topology a PodSet's pods go, or why they do not fit.

Upstream: KDIR/pkg/cache/scheduler/tas_flavor_snapshot.go (`addNode`, `initialize`, `fillInCounts`: each leaf (a
node when the lowest level is kubernetes.io/hostname, else a lowest-level domain) counts how many pods of the
PodSet fit its free capacity (allocatable less non-TAS pods' requests less TAS usage), skipping nodes with an
untolerated taint or not matching the PodSet's nodeSelector or required node affinity, and those counts sum up
the tree; `findLevelWithFitDomains`: required takes the best-fitting domain of its level or fails, preferred
climbs a level at a time and at the top spreads over domains, unconstrained (and a TAS-only ClusterQueue's
implied request) takes the least free domain that fits or spreads from the least free (the TASProfileMixed
default); `updateCountsToMinimumGeneric` descends to the leaves; `notFitMessage` and `ExclusionStats`;
`buildAssignment`), KDIR/pkg/cache/scheduler/tas_nodes_cache.go (only Ready, schedulable nodes),
tas_flavor.go (nodes carrying the flavor's nodeLabels and every level label) and KDIR/pkg/util/tas/
tas_assignment.go (the compact v1beta2 encoding: one slice, per level a universal value or a common
prefix/suffix with roots, pod counts universal or individual).

Modelled: one PodSet per group with pod slices of one pod (the defaults). Not modelled, and named by the result:
podset slices (`podset-slice-*`), PodSet groups (`podset-group-name`, leader and workers), balanced placement and
multi-layer topology (alpha gates, off by default), the replacement of failed nodes.
"""

from __future__ import annotations

import json

from .model import resource_value
from wasplan.api.quantity import QuantityError, parse_quantity

HOSTNAME = "kubernetes.io/hostname"
_INT32_MAX = 2**31 - 1


def count_in(requests: dict[str, int], capacity: dict[str, int]) -> tuple[int, str]:
    """resources.Requests.CountInWithLimitingResource (ties broken by resource name)."""
    result, limiting = None, ""
    for name in sorted(requests):
        value = requests[name]
        if name not in capacity and value != 0:
            return 0, name
        if value == 0:
            count = _INT32_MAX
        else:
            cap = capacity.get(name, 0)
            count = abs(cap) // value * (1 if cap >= 0 else -1)
        if result is None or count < result:
            result, limiting = count, name
    return (result or 0), limiting


class Domain:
    __slots__ = ("id", "values", "parent", "children", "state", "capacity", "usage", "node")

    def __init__(self, id_: str, values: tuple[str, ...]) -> None:
        self.id = id_
        self.values = values
        self.parent: Domain | None = None
        self.children: list[Domain] = []
        self.state = 0
        self.capacity: dict[str, int] = {}
        self.usage: dict[str, int] = {}  # TAS usage
        self.node: dict | None = None


def _ready(node: dict) -> bool:
    if (node.get("spec") or {}).get("unschedulable") is True:
        return False
    for c in (node.get("status") or {}).get("conditions") or ():
        if isinstance(c, dict) and c.get("type") == "Ready":
            return c.get("status") == "True"
    return True  # as the oracle and wasplan plan a node without a Ready condition


def _amounts(raw: object) -> dict[str, int]:
    out = {}
    for k, v in (raw or {}).items() if isinstance(raw, dict) else ():
        try:
            out[str(k)] = resource_value(str(k), parse_quantity(v))
        except QuantityError:
            continue
    return out


def _tolerates(taint: dict, tolerations: list) -> bool:
    from .assign import _tolerated
    return _tolerated(taint, tolerations)


def _taint_string(t: dict) -> str:
    key, value, effect = t.get("key", ""), t.get("value", ""), t.get("effect", "")
    if not effect:
        return key if not value else f"{key}={value}:"
    return f"{key}:{effect}" if not value else f"{key}={value}:{effect}"


class FlavorTopology:
    """One TAS flavor's topology: its leaves and domains with capacity and TAS usage."""

    def __init__(self, name: str, topology: str, levels: list[str], flavor_labels: dict[str, str],
                 tolerations: list[dict], nodes: list[dict], pod_usage: dict[str, dict[str, int]]) -> None:
        self.name = name
        self.topology = topology
        self.levels = levels
        self.tolerations = tolerations
        self.by_hostname = bool(levels) and levels[-1] == HOSTNAME
        self.leaves: dict[str, Domain] = {}
        self.domains: dict[str, Domain] = {}
        self.per_level: list[dict[str, Domain]] = [{} for _ in levels]
        for node in nodes:
            labels = (node.get("metadata") or {}).get("labels") or {}
            if not _ready(node) or any(labels.get(k) != v for k, v in flavor_labels.items()) \
                    or any(level not in labels for level in levels):
                continue
            values = tuple(str(labels[level]) for level in levels)
            leaf_id = str(labels[HOSTNAME]) if self.by_hostname else ",".join(values)
            leaf = self.leaves.get(leaf_id)
            if leaf is None:
                leaf = self.leaves[leaf_id] = Domain(leaf_id, values)
                if self.by_hostname:
                    leaf.node = node
            for r, v in _amounts((node.get("status") or {}).get("allocatable")).items():
                leaf.capacity[r] = leaf.capacity.get(r, 0) + v
            name_ = (node.get("metadata") or {}).get("name")
            for r, v in pod_usage.get(name_, {}).items():
                leaf.capacity[r] = leaf.capacity.get(r, 0) - v
        for leaf in self.leaves.values():
            self.domains[",".join(leaf.values)] = leaf
            self.per_level[len(leaf.values) - 1][",".join(leaf.values)] = leaf
            self._link(leaf)

    def _link(self, dom: Domain) -> None:
        if len(dom.values) == 1:
            return
        parent_values = dom.values[:-1]
        pid = ",".join(parent_values)
        parent = self.domains.get(pid)
        if parent is None:
            parent = self.domains[pid] = Domain(pid, parent_values)
            self.per_level[len(parent_values) - 1][pid] = parent
            self._link(parent)
        dom.parent = parent
        parent.children.append(dom)

    def has_level(self, level: str | None) -> bool:
        return level is None or level in self.levels

    def add_usage(self, domains: list[tuple[tuple[str, ...], int]], single: dict[str, int], sign: int) -> None:
        for values, count in domains:
            leaf = self.leaves.get(values[-1] if self.by_hostname else ",".join(values))
            if leaf is None:
                continue
            for r, v in single.items():
                leaf.usage[r] = leaf.usage.get(r, 0) + sign * v * count
            leaf.usage["pods"] = leaf.usage.get("pods", 0) + sign * count

    def fits(self, domains: list[tuple[tuple[str, ...], int]], single: dict[str, int]) -> bool:
        for values, count in domains:
            leaf = self.leaves.get(values[-1] if self.by_hostname else ",".join(values))
            if leaf is None:
                return False
            remaining = {r: v - leaf.usage.get(r, 0) for r, v in leaf.capacity.items()}
            if count_in(single, remaining)[0] < count:
                return False
        return True

    # -- the search ------------------------------------------------------------------------------------------
    def _fill(self, requests, tolerations, selector, affinity, simulate_empty, assumed, stats) -> None:
        from .assign import _expr
        for d in self.domains.values():
            d.state = 0
        for leaf in self.leaves.values():
            stats["total"] += 1
            if self.by_hostname:
                node = leaf.node
                labels = (node.get("metadata") or {}).get("labels") or {}
                bad = next((t for t in (node.get("spec") or {}).get("taints") or ()
                            if isinstance(t, dict) and t.get("effect") in ("NoSchedule", "NoExecute")
                            and not _tolerates(t, tolerations)), None)
                if bad is not None:
                    key = _taint_string(bad)
                    stats["taints"][key] = stats["taints"].get(key, 0) + 1
                    continue
                if any(labels.get(k) != v for k, v in selector.items()):
                    stats["nodeSelector"] += 1
                    continue
                if affinity and not any(all(_expr(e, labels) for e in term) for term in affinity):
                    stats["affinity"] += 1
                    continue
            remaining = dict(leaf.capacity)
            if not simulate_empty:
                for r, v in leaf.usage.items():
                    remaining[r] = remaining.get(r, 0) - v
            for r, v in assumed.get(leaf.id, {}).items():
                remaining[r] = remaining.get(r, 0) - v
            leaf.state, limiting = count_in(requests, remaining)
            if leaf.state == 0 and limiting:
                stats["resources"][limiting] = stats["resources"].get(limiting, 0) + 1
        for level in range(len(self.levels) - 2, -1, -1):
            for d in self.per_level[level].values():
                d.state = sum(c.state for c in d.children)

    def _not_fit(self, fit: int, total: int, stats) -> str:
        name = json.dumps(self.topology)
        if fit == 0:
            text = f"topology {name} doesn't allow to fit any of {total} pod(s)"
        else:
            text = f"topology {name} allows to fit only {fit} out of {total} pod(s)"
        reasons = []
        if stats["nodeSelector"]:
            reasons.append(f"nodeSelector: {stats['nodeSelector']}")
        if stats["affinity"]:
            reasons.append(f"affinity: {stats['affinity']}")
        reasons += [f"taint {json.dumps(k)}: {v}" for k, v in stats["taints"].items()]
        reasons += [f"resource {json.dumps(k)}: {v}" for k, v in stats["resources"].items()]
        if reasons:
            text += f". Total nodes: {stats['total']}; excluded: {', '.join(sorted(reasons))}"
        return text

    @staticmethod
    def _sorted(domains, least_free: bool):
        if least_free:
            return sorted(domains, key=lambda d: (d.state, d.state, d.values))
        return sorted(domains, key=lambda d: (-d.state, d.state, d.values))

    @staticmethod
    def _best_fit(domains, needed: int):
        best = domains[0]
        for d in domains:
            if needed <= d.state < best.state:
                best = d
        return best

    def _level_fit(self, level: int, required: bool, count: int, unconstrained: bool, stats):
        domains = list(self.per_level[level].values())
        if not domains:
            return None, f"no topology domains at level: {self.levels[level]}"
        ordered = self._sorted(domains, unconstrained)
        top = ordered[0]
        if not unconstrained and top.state >= count:
            top = self._best_fit(ordered, count)
        if unconstrained:
            for d in ordered:
                if d.state >= count:
                    return (level, [d]), None
        if top.state < count:
            if required:
                return None, self._not_fit(top.state, count, stats)
            if level > 0 and not unconstrained:
                return self._level_fit(level - 1, required, count, unconstrained, stats)
            results, remaining = [], count
            ordered = self._sorted(ordered, unconstrained)
            for i, d in enumerate(ordered):
                if remaining <= 0:
                    break
                if not unconstrained and d.state >= remaining:
                    d = self._best_fit(ordered[i:], remaining)
                results.append(d)
                remaining -= d.state
            if remaining > 0:
                return None, self._not_fit(count - remaining, count, stats)
            return (level, results), None
        return (level, [top]), None

    def _minimum(self, domains, count: int, unconstrained: bool):
        result, remaining = [], count
        for i, d in enumerate(domains):
            if not unconstrained and d.state >= remaining:
                d = self._best_fit(domains[i:], remaining)
            if d.state >= remaining:
                d.state = remaining
                result.append(d)
                return result
            remaining -= d.state
            result.append(d)
        return result

    def find(self, requests: dict[str, int], count: int, kind: str, level_key: str | None, spec: dict,
             simulate_empty: bool, assumed: dict[str, dict[str, int]]):
        """([(values at the output levels, count)], levels) or (None, why not)."""
        req = dict(requests)
        req["pods"] = req.get("pods", 0) + 1
        if level_key is None:
            return None, "topology level not specified"
        if level_key not in self.levels:
            return None, f"no requested topology level: {level_key}"
        level = self.levels.index(level_key)
        tolerations = list(spec.get("tolerations") or []) + list(self.tolerations)
        selector = {str(k): str(v) for k, v in (spec.get("nodeSelector") or {}).items()}
        required_affinity = ((((spec.get("affinity") or {}).get("nodeAffinity") or {})
                              .get("requiredDuringSchedulingIgnoredDuringExecution") or {}).get("nodeSelectorTerms"))
        affinity = [list((t or {}).get("matchExpressions") or ()) for t in required_affinity or ()]
        stats = {"total": 0, "nodeSelector": 0, "affinity": 0, "taints": {}, "resources": {}}
        self._fill(req, tolerations, selector, affinity, simulate_empty, assumed, stats)
        unconstrained = kind == "unconstrained"
        found, reason = self._level_fit(level, kind == "required", count, unconstrained, stats)
        if found is None:
            return None, reason
        fit_level, current = found
        current = self._minimum(current, count, unconstrained)
        for _ in range(fit_level, len(self.levels) - 1):
            lower = [c for d in current for c in d.children]
            current = self._minimum(self._sorted(lower, unconstrained), count, unconstrained)
        current = sorted((d for d in current if d.state), key=lambda d: d.values)
        out_level = len(self.levels) - 1 if self.by_hostname else 0
        return [(d.values[out_level:], d.state) for d in current], self.levels[out_level:]


def _compact(values: list[str]) -> dict:
    """fillSingleCompactSliceValues: a universal value, or the common prefix and suffix with the roots."""
    prefix = suffix = values[0]
    min_len = max_len = len(values[0])
    for s in values[1:]:
        n = len(s)
        min_len, max_len = min(min_len, n), max(max_len, n)
        prefix, suffix = prefix[:n], suffix[len(suffix) - n:] if n < len(suffix) else suffix
        for i in range(len(prefix)):
            if s[i] != prefix[i]:
                prefix = prefix[:i]
                break
        for i in range(len(suffix)):
            if s[len(s) - 1 - i] != suffix[len(suffix) - 1 - i]:
                suffix = suffix[len(suffix) - i:]
                break
    if len(prefix) == max_len:
        return {"universal": prefix}
    if len(prefix) + len(suffix) > min_len:
        prefix = prefix[:min_len - len(suffix)]
    ind: dict = {}
    if prefix:
        ind["prefix"] = prefix
    if suffix:
        ind["suffix"] = suffix
    ind["roots"] = [s[len(prefix):len(s) - len(suffix)] for s in values]
    return {"individual": ind}


def encode(levels: list[str], domains: list[tuple[tuple[str, ...], int]]) -> dict:
    """The v1beta2 TopologyAssignment as the API (and the oracle's JSON) holds it."""
    if not domains:
        return {"levels": list(levels)}
    counts = [c for _, c in domains]
    slice_ = {"domainCount": len(domains),
              "valuesPerLevel": [_compact([v[i] for v, _ in domains]) for i in range(len(levels))],
              "podCounts": {"universal": counts[0]} if len(set(counts)) == 1 else {"individual": counts}}
    return {"levels": list(levels), "slices": [slice_]}


def decode(raw: object) -> tuple[list[str], list[tuple[tuple[str, ...], int]]] | None:
    """tas.InternalSeqFrom: the domains of a v1beta2 TopologyAssignment written in a snapshot."""
    if not isinstance(raw, dict):
        return None
    levels = [str(x) for x in raw.get("levels") or ()]
    out = []
    for s in raw.get("slices") or ():
        n = s.get("domainCount", 0)
        per_level = s.get("valuesPerLevel") or []
        pc = s.get("podCounts") or {}
        for i in range(n):
            values = []
            for lv in per_level:
                if "universal" in lv:
                    values.append(str(lv["universal"]))
                else:
                    ind = lv.get("individual") or {}
                    values.append(f"{ind.get('prefix', '')}{ind.get('roots', [''] * n)[i]}{ind.get('suffix', '')}")
            count = pc["universal"] if "universal" in pc else (pc.get("individual") or [0] * n)[i]
            out.append((tuple(values), int(count)))
    return levels, out

"""Selectors, affinity, tolerations, taints, spread constraints and host ports as frozen records.

These shapes repeat across thousands of pods of one ReplicaSet or gang, so each parse is memoised on the raw
value's `repr` (cheap, and equal reprs of plain YAML data mean equal values). Only clean parses are cached: a
shape with findings is parsed again every time so each finding points at its own document.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import (
    Affinity, HostPort, LabelSelector, NodeSelectorTerm, PodAffinityTerm, PreferredSchedulingTerm, Requirement,
    Taint, Toleration, TopologySpreadConstraint, WeightedPodAffinityTerm,
)

T = TypeVar("T")
_CACHE: dict[tuple[str, str], Any] = {}
_CACHE_LIMIT = 100_000

LABEL_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
NODE_OPERATORS = LABEL_OPERATORS + ("Gt", "Lt")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


def memo(kind: str, raw: Any, ctx: Ctx, parse: Callable[[Any, Ctx], T]) -> T:
    """Parse `raw` once per distinct value; findings bypass the cache so they keep their own location."""
    key = (kind, repr(raw))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    before = len(ctx.diags)
    value = parse(raw, ctx)
    if len(ctx.diags) == before and len(_CACHE) < _CACHE_LIMIT:
        _CACHE[key] = value
    return value


def as_list(raw: Any, ctx: Ctx, path: tuple, what: str) -> list:
    if raw is None:
        return []
    if isinstance(raw, list):
        return raw
    ctx.report("WAS602", f"{what} must be a list", path)
    return []


def as_str(raw: Any, ctx: Ctx, path: tuple, default: str = "") -> str:
    if raw is None:
        return default
    if isinstance(raw, str):
        return raw
    ctx.report("WAS602", f"expected a string, got {raw!r}; Kubernetes would reject it", path,
               hint="quote the value in YAML, e.g. \"true\"")
    return default


def string_map(raw: Any, ctx: Ctx, path: tuple) -> dict[str, str]:
    """Labels and nodeSelector: string to string; non-string values are reported and left out."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        ctx.report("WAS602", "expected a map of strings", path)
        return {}
    out = {}
    for k, v in raw.items():
        if isinstance(v, str):
            out[str(k)] = v
        else:
            as_str(v, ctx, path + (k,))
    return out


def _requirement(raw: Any, ctx: Ctx, operators: tuple[str, ...]) -> Requirement | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("key"), str):
        ctx.report("WAS602", "a match expression needs a string key", ())
        return None
    op = raw.get("operator")
    if op not in operators:
        ctx.report("WAS602", f"operator {op!r} is not one of {', '.join(operators)}", ("operator",))
        return None
    values = tuple(as_str(v, ctx, ("values", i)) for i, v in enumerate(as_list(raw.get("values"), ctx, ("values",), "values")))
    return Requirement(raw["key"], op, values)


def _requirements(raw: Any, ctx: Ctx, name: str, operators: tuple[str, ...]) -> tuple[Requirement, ...]:
    out = []
    for i, item in enumerate(as_list(raw, ctx, (name,), name)):
        req = _requirement(item, ctx.at(name, i), operators)
        if req is not None:
            out.append(req)
    return tuple(out)


def _label_selector(raw: Any, ctx: Ctx) -> LabelSelector | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        ctx.report("WAS602", "a label selector must be a map with matchLabels / matchExpressions", ())
        return None
    labels = string_map(raw.get("matchLabels"), ctx, ("matchLabels",))
    return LabelSelector(tuple(sorted(labels.items())),
                         _requirements(raw.get("matchExpressions"), ctx, "matchExpressions", LABEL_OPERATORS))


def label_selector(raw: Any, ctx: Ctx) -> LabelSelector | None:
    return memo("labelSelector", raw, ctx, _label_selector)


def _node_term(raw: Any, ctx: Ctx) -> NodeSelectorTerm:
    if not isinstance(raw, dict):
        ctx.report("WAS602", "a node selector term must be a map", ())
        return NodeSelectorTerm()
    return NodeSelectorTerm(_requirements(raw.get("matchExpressions"), ctx, "matchExpressions", NODE_OPERATORS),
                            _requirements(raw.get("matchFields"), ctx, "matchFields", NODE_OPERATORS))


def node_selector(raw: Any, ctx: Ctx) -> tuple[NodeSelectorTerm, ...] | None:
    """A `v1.NodeSelector` (`{nodeSelectorTerms: [...]}`) as its terms (ORed); None when absent or not a map."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        ctx.report("WAS602", "a node selector must be a map with nodeSelectorTerms", ())
        return None
    terms = as_list(raw.get("nodeSelectorTerms"), ctx, ("nodeSelectorTerms",), "nodeSelectorTerms")
    return tuple(_node_term(t, ctx.at("nodeSelectorTerms", i)) for i, t in enumerate(terms))


def _weight(raw: Any, ctx: Ctx) -> int:
    w = raw.get("weight") if isinstance(raw, dict) else None
    if isinstance(w, int) and not isinstance(w, bool) and 1 <= w <= 100:
        return w
    ctx.report("WAS602", f"weight must be an integer from 1 to 100, got {w!r}", ("weight",))
    return 1


def _node_affinity(raw: dict, ctx: Ctx) -> tuple[tuple[NodeSelectorTerm, ...] | None, tuple[PreferredSchedulingTerm, ...]]:
    req = raw.get("requiredDuringSchedulingIgnoredDuringExecution")
    required = None
    if isinstance(req, dict):
        rctx = ctx.at("requiredDuringSchedulingIgnoredDuringExecution")
        terms = as_list(req.get("nodeSelectorTerms"), rctx, ("nodeSelectorTerms",), "nodeSelectorTerms")
        required = tuple(_node_term(t, rctx.at("nodeSelectorTerms", i)) for i, t in enumerate(terms))
    name = "preferredDuringSchedulingIgnoredDuringExecution"
    preferred = []
    for i, item in enumerate(as_list(raw.get(name), ctx, (name,), name)):
        ictx = ctx.at(name, i)
        term = item.get("preference") if isinstance(item, dict) else None
        preferred.append(PreferredSchedulingTerm(_weight(item, ictx), _node_term(term or {}, ictx.at("preference"))))
    return required, tuple(preferred)


def _pod_term(raw: Any, ctx: Ctx) -> PodAffinityTerm | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("topologyKey"), str) or not raw.get("topologyKey"):
        ctx.report("WAS602", "a pod affinity term needs a topologyKey", ("topologyKey",))
        return None
    def strings(key: str) -> tuple[str, ...]:
        return tuple(as_str(v, ctx, (key, i)) for i, v in enumerate(as_list(raw.get(key), ctx, (key,), key)))

    return PodAffinityTerm(
        label_selector=_label_selector(raw.get("labelSelector"), ctx.at("labelSelector")),
        topology_key=raw["topologyKey"],
        namespaces=strings("namespaces"),
        namespace_selector=_label_selector(raw.get("namespaceSelector"), ctx.at("namespaceSelector")),
        match_label_keys=strings("matchLabelKeys"),
        mismatch_label_keys=strings("mismatchLabelKeys"),
    )


def _pod_terms(raw: dict, ctx: Ctx) -> tuple[tuple[PodAffinityTerm, ...], tuple[WeightedPodAffinityTerm, ...]]:
    name = "requiredDuringSchedulingIgnoredDuringExecution"
    required = [_pod_term(t, ctx.at(name, i)) for i, t in enumerate(as_list(raw.get(name), ctx, (name,), name))]
    name = "preferredDuringSchedulingIgnoredDuringExecution"
    preferred = []
    for i, item in enumerate(as_list(raw.get(name), ctx, (name,), name)):
        ictx = ctx.at(name, i)
        term = _pod_term(item.get("podAffinityTerm") if isinstance(item, dict) else None, ictx.at("podAffinityTerm"))
        if term is not None:
            preferred.append(WeightedPodAffinityTerm(_weight(item, ictx), term))
    return tuple(t for t in required if t is not None), tuple(preferred)


def _affinity(raw: Any, ctx: Ctx) -> Affinity | None:
    if not isinstance(raw, dict):
        ctx.report("WAS602", "affinity must be a map", ())
        return None
    parts: dict[str, Any] = {}
    if isinstance(raw.get("nodeAffinity"), dict):
        parts["node_required"], parts["node_preferred"] = _node_affinity(raw["nodeAffinity"], ctx.at("nodeAffinity"))
    if isinstance(raw.get("podAffinity"), dict):
        parts["pod_required"], parts["pod_preferred"] = _pod_terms(raw["podAffinity"], ctx.at("podAffinity"))
    if isinstance(raw.get("podAntiAffinity"), dict):
        parts["anti_required"], parts["anti_preferred"] = _pod_terms(raw["podAntiAffinity"], ctx.at("podAntiAffinity"))
    affinity = Affinity(**parts)
    return None if affinity == Affinity() else affinity


def affinity(raw: Any, ctx: Ctx) -> Affinity | None:
    return None if raw is None else memo("affinity", raw, ctx, _affinity)

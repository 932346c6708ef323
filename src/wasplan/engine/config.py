"""The scheduler profile a plan runs with: plugin weights, disabled plugins and NodeResourcesFit's scoring
strategy, defaulting to kube-scheduler's default profile (pkg/scheduler/apis/config/v1/default_plugins.go; the
filter order and default weights come from the plugin registry, registry.py) and optionally read from a
KubeSchedulerConfiguration (`--scheduler-config`, kubescheduler.config.k8s.io/v1).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from wasplan.cluster.model import CPU, MEMORY
from wasplan.engine.plugins.resources_fit import ScoringStrategy
from wasplan.engine.registry import DEFAULT_WEIGHTS, FILTERS

DEFAULT_SCHEDULER = "default-scheduler"


class ConfigError(ValueError):
    """A KubeSchedulerConfiguration wasplan cannot use."""


@dataclass(frozen=True)
class Profile:
    scheduler_name: str = DEFAULT_SCHEDULER
    weights: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    filters_off: frozenset[str] = frozenset()
    fit_strategy: ScoringStrategy = ScoringStrategy()
    balanced_resources: tuple[str, ...] = (CPU, MEMORY)
    hard_pod_affinity_weight: int = 1

    def filter_on(self, plugin: str) -> bool:
        return plugin not in self.filters_off

    def weight(self, plugin: str) -> int:
        return self.weights.get(plugin, 0)


def _names(items: Any) -> list[dict]:
    """The entries of a plugin or resource list; each must have a string name (the API server's decoding
    rejects anything else, and a name is used as a key)."""
    if not items:
        return []
    if not isinstance(items, list):
        raise ConfigError(f"expected a list of {{name: ...}} entries, got {type(items).__name__}")
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ConfigError(f"every entry needs a string name, got {str(item)[:60]}")
    return items


def _apply_plugins(profile: Profile, plugins: dict) -> Profile:
    weights, filters_off = dict(profile.weights), set(profile.filters_off)
    for point in ("multiPoint", "filter", "score"):
        section = plugins.get(point) or {}
        for item in _names(section.get("disabled")):
            names = list(DEFAULT_WEIGHTS if item["name"] == "*" else [item["name"]])
            if point in ("multiPoint", "score"):
                for name in names:
                    weights.pop(name, None)
            if point in ("multiPoint", "filter"):
                filters_off |= set(FILTERS if item["name"] == "*" else names)
        for item in _names(section.get("enabled")):
            if point in ("multiPoint", "score"):
                weights[item["name"]] = int(item.get("weight") or DEFAULT_WEIGHTS.get(item["name"], 1))
            if point in ("multiPoint", "filter"):
                filters_off.discard(item["name"])
    return replace(profile, weights=weights, filters_off=frozenset(filters_off))


def _fit_strategy(args: dict) -> ScoringStrategy:
    raw = args.get("scoringStrategy") or {}
    kind = raw.get("type", "LeastAllocated")
    if kind not in ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"):
        raise ConfigError(f"NodeResourcesFit scoringStrategy.type {kind!r} is not one of LeastAllocated, "
                          "MostAllocated, RequestedToCapacityRatio")
    resources = tuple((r["name"], int(r.get("weight", 1))) for r in _names(raw.get("resources")))
    shape_raw = (raw.get("requestedToCapacityRatio") or {}).get("shape") or []
    shape = tuple((int(p["utilization"]), int(p["score"])) for p in shape_raw)
    if kind == "RequestedToCapacityRatio" and not shape:
        raise ConfigError("RequestedToCapacityRatio needs requestedToCapacityRatio.shape")
    _check_shape(shape)
    base = ScoringStrategy()
    return ScoringStrategy(kind, resources or base.resources, shape or base.shape)


def _check_shape(shape: tuple[tuple[int, int], ...]) -> None:
    """The API server's rules for the shape (validation_pluginargs.go, validateFunctionShape): utilization
    0-100 in strictly increasing order, score 0-10."""
    for i, (utilization, score) in enumerate(shape):
        if not 0 <= utilization <= 100 or not 0 <= score <= 10:
            raise ConfigError(f"requestedToCapacityRatio.shape[{i}]: utilization must be 0-100 and score 0-10")
        if i and utilization <= shape[i - 1][0]:
            raise ConfigError("requestedToCapacityRatio.shape: utilization values must be sorted in increasing order")


def _apply_args(profile: Profile, plugin_config: list) -> Profile:
    for entry in _names(plugin_config):
        args = entry.get("args") or {}
        if entry["name"] == "NodeResourcesFit":
            profile = replace(profile, fit_strategy=_fit_strategy(args))
        elif entry["name"] == "NodeResourcesBalancedAllocation" and args.get("resources"):
            profile = replace(profile, balanced_resources=tuple(r["name"] for r in _names(args["resources"])))
        elif entry["name"] == "InterPodAffinity" and "hardPodAffinityWeight" in args:
            profile = replace(profile, hard_pod_affinity_weight=int(args["hardPodAffinityWeight"]))
    return profile


def profiles_from_config(doc: dict | None) -> dict[str, Profile]:
    """Profiles by schedulerName; without a document, the default profile only."""
    if not doc:
        return {DEFAULT_SCHEDULER: Profile()}
    if doc.get("kind") != "KubeSchedulerConfiguration":
        raise ConfigError(f"expected kind KubeSchedulerConfiguration, got {doc.get('kind')!r}")
    out: dict[str, Profile] = {}
    for raw in doc.get("profiles") or [{}]:
        name = raw.get("schedulerName") or DEFAULT_SCHEDULER
        profile = _apply_plugins(Profile(scheduler_name=name), raw.get("plugins") or {})
        out[name] = _apply_args(profile, raw.get("pluginConfig") or [])
    return out

"""The scheduler profile a plan runs with: plugin weights, disabled plugins and NodeResourcesFit's scoring
strategy, defaulting to kube-scheduler's default profile (pkg/scheduler/apis/config/v1/default_plugins.go; the
filter order and default weights come from the plugin registry, registry.py) and optionally read from a
KubeSchedulerConfiguration (`--scheduler-config`, kubescheduler.config.k8s.io/v1). A plugin's own arguments
(pluginConfig[].args) are parsed by the plugin (its `args` in the registry).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from wasplan.cluster.model import CPU, MEMORY
from wasplan.engine.profile import registry
from wasplan.engine.pluginapi.pluginargs import ConfigError
from wasplan.engine.pluginapi.pluginargs import names as _names
from wasplan.engine.plugins.resources_fit import ScoringStrategy

DEFAULT_SCHEDULER = "default-scheduler"


@dataclass(frozen=True)
class Profile:
    """One scheduler profile: its name, plugin weights, disabled filters and plugin arguments."""

    scheduler_name: str = DEFAULT_SCHEDULER
    weights: dict[str, int] = field(default_factory=lambda: dict(registry.DEFAULT_WEIGHTS))
    filters_off: frozenset[str] = frozenset()
    fit_strategy: ScoringStrategy = ScoringStrategy()
    balanced_resources: tuple[str, ...] = (CPU, MEMORY)
    hard_pod_affinity_weight: int = 1

    def filter_on(self, plugin: str) -> bool:
        return plugin not in self.filters_off

    def weight(self, plugin: str) -> int:
        return self.weights.get(plugin, 0)


def _apply_plugins(profile: Profile, plugins: dict) -> Profile:
    weights, filters_off = dict(profile.weights), set(profile.filters_off)
    for point in ("multiPoint", "filter", "score"):
        section = plugins.get(point) or {}
        for item in _names(section.get("disabled")):
            names = list(registry.DEFAULT_WEIGHTS if item["name"] == "*" else [item["name"]])
            if point in ("multiPoint", "score"):
                for name in names:
                    weights.pop(name, None)
            if point in ("multiPoint", "filter"):
                filters_off |= set(registry.FILTERS if item["name"] == "*" else names)
        for item in _names(section.get("enabled")):
            if point in ("multiPoint", "score"):
                weights[item["name"]] = int(item.get("weight") or registry.DEFAULT_WEIGHTS.get(item["name"], 1))
            if point in ("multiPoint", "filter"):
                filters_off.discard(item["name"])
    return replace(profile, weights=weights, filters_off=frozenset(filters_off))


def _apply_args(profile: Profile, plugin_config: list) -> Profile:
    """Each entry's args, parsed by the plugin they name (its `args` in the registry); other names are ignored."""
    for entry in _names(plugin_config):
        plugin = registry.BY_NAME.get(entry["name"])
        if plugin is not None and plugin.args is not None:
            profile = replace(profile, **plugin.args(entry.get("args") or {}))
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

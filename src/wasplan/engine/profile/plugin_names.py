"""Plugin names in a KubeSchedulerConfiguration, checked against the release's in-tree registry.

kube-scheduler builds a profile's framework from the registry of `NewInTreeRegistry`
(pkg/scheduler/framework/plugins/registry.go; the names are plugins/names/names.go), which the release's
`Capabilities.in_tree_plugins` lists. A plugin enabled at an extension point that the registry does not hold
stops the scheduler at start-up: framework.go's `updatePluginList` (and `expandMultiPointPlugins` for
`multiPoint`, whose first extension point is PreFilter) fail with `<Type>Plugin "<name>" does not exist`,
wrapped by profile.go and scheduler.go. A disabled name or a `pluginConfig` entry the registry does not hold is
ignored by kube-scheduler (apis/config/v1 decodes unknown args as raw and the framework reads args only for the
plugins it builds), which silently leaves the meant plugin enabled or its arguments unused.

wasplan refuses both: a plugin of kubernetes-sigs/scheduler-plugins (its cmd/scheduler/main.go registers them)
or any name not close to an in-tree one is an out-of-tree plugin that wasplan does not model (WAS906); another
name close to an in-tree one is a misspelling (WAS905, with the suggestion). The scheduler-plugins names come
first because some of them are a few edits from an in-tree name (Coscheduling, GangScheduling). The check reads plain data only; the pipeline turns the field paths into file lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from wasplan.suggest import did_you_mean


# plugin names registered by kubernetes-sigs/scheduler-plugins' kube-scheduler build (cmd/scheduler/main.go)
SCHEDULER_PLUGINS = frozenset({
    "Coscheduling", "CapacityScheduling", "LoadVariationRiskBalancing", "NetworkOverhead", "TopologicalSort",
    "NodeResourcesAllocatable", "NodeResourceTopologyMatch", "PreemptionToleration", "TargetLoadPacking",
    "LowRiskOverCommitment", "SySched", "PodState", "QOSSort", "NodeResourcesFitPlus", "ScarceResourceAvoidance",
    "CrossNodePreemption"})


@dataclass(frozen=True)
class UnknownPlugin:
    """A plugin name the release's registry does not hold, where it was written and what it likely means."""

    path: tuple  # field path inside the KubeSchedulerConfiguration
    name: str
    point: str | None  # the extension point of a plugins list ("multiPoint", "filter", ...); None: pluginConfig
    enabled: bool
    guess: str | None  # the in-tree name it most likely misspells

    @property
    def code(self) -> str:
        return "WAS905" if self.guess else "WAS906"


def _entries(doc: dict) -> Iterator[tuple[tuple, str, str | None, bool]]:
    """(path, name, extension point, enabled) of every named plugin entry of every profile."""
    profiles = doc.get("profiles")
    for i, profile in enumerate(profiles if isinstance(profiles, list) else ()):
        if not isinstance(profile, dict):
            continue
        plugins = profile.get("plugins")
        for point, section in (plugins.items() if isinstance(plugins, dict) else ()):
            for state in ("enabled", "disabled"):
                items = section.get(state) if isinstance(section, dict) else None
                for j, item in enumerate(items if isinstance(items, list) else ()):
                    if isinstance(item, dict) and isinstance(item.get("name"), str):
                        path = ("profiles", i, "plugins", point, state, j, "name")
                        yield path, item["name"], point, state == "enabled"
        config = profile.get("pluginConfig")
        for j, item in enumerate(config if isinstance(config, list) else ()):
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                yield ("profiles", i, "pluginConfig", j, "name"), item["name"], None, False


def unknown_plugins(doc: Any, in_tree: frozenset[str]) -> list[UnknownPlugin]:
    """Every plugin name of `doc` outside `in_tree` (`*` disables all and is always allowed), in file order."""
    if not isinstance(doc, dict):
        return []
    return [UnknownPlugin(path, name, point, enabled,
                          None if name in SCHEDULER_PLUGINS else did_you_mean(name, in_tree))
            for path, name, point, enabled in _entries(doc) if name != "*" and name not in in_tree]


def upstream_verdict(found: UnknownPlugin, scheduler_name: str) -> str:
    """What kube-scheduler does with the name: the start-up error it fails with, or that it ignores it."""
    if found.enabled:
        point = "preFilter" if found.point == "multiPoint" else found.point or ""
        return (f'kube-scheduler does not start: "initializing profiles: creating profile for scheduler name '
                f'{scheduler_name}: {point[:1].upper()}{point[1:]}Plugin \\"{found.name}\\" does not exist"')
    if found.point is None:
        return "kube-scheduler ignores these args (no plugin of that name is built)"
    return "kube-scheduler ignores the entry, so the plugin meant stays enabled"


def message(found: UnknownPlugin, release: str, scheduler_name: str) -> str:
    where = f"plugins.{found.point}" if found.point else "pluginConfig"
    if found.guess:
        return (f"unknown scheduler plugin {found.name!r} in {where} (did you mean {found.guess}?): "
                f"{upstream_verdict(found, scheduler_name)}")
    origin = "kubernetes-sigs/scheduler-plugins'" if found.name in SCHEDULER_PLUGINS else "an"
    return (f"scheduler plugin {found.name!r} in {where} is not in kube-scheduler {release}'s in-tree registry: "
            f"{origin} out-of-tree plugin, which wasplan does not model; "
            f"{upstream_verdict(found, scheduler_name)}")

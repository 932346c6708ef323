"""Every filter plugin's verdict for one pod on every node, each plugin evaluated on its own.

kube-scheduler stops at the first failing plugin per node (that is what `Diagnosis` and the FitError message
show); explanations want more: which nodes each plugin alone rejects, so "the smallest change that makes it fit"
can be found. `record()` computes that from the same caches the scheduling path uses; `counts(plugin)` is cheap,
`node_reasons(i)` gives one node's full picture on demand. The plugins and their order are the registry's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.profile import registry
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.plugins import resources_fit
from wasplan.engine.pluginapi.status import REASONS


@dataclass(frozen=True)
class PluginVerdicts:
    nodes: tuple[str, ...]
    single: dict[str, np.ndarray]  # plugin -> reason id per node (0 = passes), for one-reason plugins
    fit_lacking: np.ndarray  # nodes x fit_columns
    fit_columns: tuple[str, ...]
    enabled: frozenset[str]

    def rejects(self, plugin: str) -> np.ndarray:
        if plugin == resources_fit.NAME:
            return self.fit_lacking.any(axis=1)
        return self.single[plugin] != 0

    def counts(self, plugin: str) -> dict[str, int]:
        if plugin == resources_fit.NAME:
            return {REASONS.text[resources_fit.reason_ids(c, False)]: int(self.fit_lacking[:, j].sum())
                    for j, c in enumerate(self.fit_columns) if self.fit_lacking[:, j].any()}
        ids, hits = np.unique(self.single[plugin][self.single[plugin] != 0], return_counts=True)
        return {REASONS.text[i]: int(n) for i, n in zip(ids.tolist(), hits.tolist())}

    def node_reasons(self, i: int) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for plugin in registry.FILTERS:
            if plugin == resources_fit.NAME:
                lacking = [REASONS.text[resources_fit.reason_ids(c, False)]
                           for j, c in enumerate(self.fit_columns) if self.fit_lacking[i, j]]
                if lacking:
                    out[plugin] = lacking
            elif self.single[plugin][i]:
                out[plugin] = [REASONS.text[self.single[plugin][i]]]
        return out


def record(ev: Evaluator, pod: Pod) -> PluginVerdicts:
    state = ev.state
    sv = ev.static_verdict(pod)
    single = {name: arr.copy() for name, arr in sv.by_plugin.items()}
    if sv.absent is not None:  # the nodes a static plugin's PreFilter left out report that
        single[sv.prefilter_by] = np.where(sv.absent, sv.absent_reason, single[sv.prefilter_by])
    for plugin in registry.RECORDED:
        got = plugin.filter(ev, pod, sv, None)
        single[plugin.name] = got if got is not None else np.zeros(len(state.nodes), dtype=np.int32)
    req, _ = state.vectors(pod)
    cols = resources_fit.checked_columns(req, state.col["pods"])
    lacking, _ = resources_fit.insufficient(state.alloc, state.requested, req, cols)
    enabled = frozenset(p for p in registry.FILTERS if ev.profile.filter_on(p))
    return PluginVerdicts(state.node_names, single, lacking,
                          tuple(state.resources[c] for c in cols), enabled)

"""Per pod-shape verdicts of the plugins that only look at the pod and the node object.

NodeUnschedulable, NodeName, TaintToleration and NodeAffinity (filters, NodeAffinity's PreFilter, and the raw
TaintToleration/NodeAffinity scores) and ImageLocality (its final score) depend only on a few pod fields — the pod's "static shape" — so they are
computed once per distinct shape over all nodes and reused by every identical pod (every member of a gang,
every replica). Nodes are grouped by taint set so toleration checks run once per group. Which plugins are static,
which pod fields make up the shape key and each plugin's own evaluation (`evaluate`, in the plugin's module) are
the registry's (registry.py) description.

A static scorer keeps its raw score per node in `raw` under its name (`StaticVerdict.add_score`), saying whether
it can rank the nodes differently; its own `normalise` (the registry's) turns that into the score over the
feasible nodes (framework.py). Nothing here names a scorer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.api.releases import DEFAULT_RELEASE, Capabilities, capabilities
from wasplan.cluster.model import Pod
from wasplan.engine.profile import registry
from wasplan.engine.profile.config import Profile

static_key = registry.shape_key  # the fields every static plugin reads, as the registry lists them


@dataclass(slots=True)
class StaticVerdict:
    by_plugin: dict[str, np.ndarray]  # plugin -> int32 reason id per node (0 = passes), each plugin on its own
    affinity_ok: np.ndarray  # NodeAffinity's required part passes (PodTopologySpread's nodeAffinityPolicy)
    taints_ok: np.ndarray  # TaintToleration's filter passes (PodTopologySpread's nodeTaintsPolicy)
    prefilter_msg: str | None = None  # a PreFilter rejection that stops the cycle before filtering
    absent: np.ndarray | None = None  # nodes NodeAffinity's PreFilter left out of the cycle
    absent_reason: int = 0  # the reason those nodes report
    prefilter_by: str | None = None  # the plugin whose PreFilter set prefilter_msg or absent
    reasons: np.ndarray | None = None  # the first failing static plugin's reason per node, absent nodes included
    passes: np.ndarray | None = None  # reasons == 0
    all_pass: bool = False
    raw: dict[str, np.ndarray] = field(default_factory=dict)  # static scorer -> its raw score per node
    scored: bool = False  # the static scores can rank nodes differently (else resources alone rank them)

    def add_score(self, plugin: str, raw: np.ndarray, ranks: bool) -> None:
        """A static scorer's raw score per node; `ranks`: it may rank the nodes differently."""
        self.raw[plugin] = raw
        self.scored = self.scored or ranks


class Nodes:
    """The node side of a static evaluation: the state, and its nodes grouped by taints and cordon (computed once,
    when a plugin first asks), so toleration checks run once per group."""

    __slots__ = ("state", "caps", "_groups")

    def __init__(self, state, caps: Capabilities):
        self.state, self.caps, self._groups = state, caps, None

    @property
    def taint_groups(self) -> dict[tuple, list[int]]:
        if self._groups is None:
            self._groups = {}
            for i, node in enumerate(self.state.nodes):
                self._groups.setdefault((node.taints, node.unschedulable), []).append(i)
        return self._groups


def compute(state, pod: Pod, profile: Profile, caps: Capabilities | None = None) -> StaticVerdict:
    n = len(state.nodes)
    out = StaticVerdict({name: np.zeros(n, dtype=np.int32) for name in registry.STATIC_FILTERS},
                        np.ones(n, dtype=bool), np.ones(n, dtype=bool))
    nodes = Nodes(state, caps or capabilities(DEFAULT_RELEASE))
    for plugin in registry.STATIC:
        plugin.evaluate(nodes, pod, out)
    _combine(out, profile)
    return out


def _combine(out: StaticVerdict, profile: Profile) -> None:
    """First failing enabled plugin per node, in upstream filter order; PreFilter-absent nodes report that."""
    reasons = np.zeros(len(out.affinity_ok), dtype=np.int32)
    for name in reversed(registry.STATIC_FILTERS):
        if profile.filter_on(name):
            verdict = out.by_plugin[name]
            reasons = np.where(verdict != 0, verdict, reasons)
    owner = out.prefilter_by
    if out.absent is not None and profile.filter_on(owner):
        reasons = np.where(out.absent, out.absent_reason, reasons)
    if owner is not None and not profile.filter_on(owner):
        out.prefilter_msg = None
    out.reasons, out.passes = reasons, reasons == 0
    out.all_pass = bool(out.passes.all())

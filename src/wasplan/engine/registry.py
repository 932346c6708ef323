"""Every scheduling plugin wasplan models, described once; the rest of the engine derives from this table.

kube-scheduler's default profile (pkg/scheduler/apis/config/v1/default_plugins.go) runs its plugins in one
order at every extension point. The filter order, the default score weights, which plugins are decided once per
pod shape (static.py), which ones the per-pod cycle must run (framework.py's shortcut), what the recorder
evaluates (recorder.py) and which plugins make preemption leave its arithmetic shortcut
(preemption/candidates.py) are all read from `PLUGINS`, so a new plugin is one module plus one entry here.

A plugin's own module knows nothing of this table (plugins never import each other); the small adapters below
give the dynamic ones one calling convention:

* `filter(ev, pod, sv, within) -> int32 reason per node` (0 = passes; `sv` is the pod's static verdict,
  `within` a placement's node mask or None);
* `score(ev, pod, sv, feasible, within) -> normalised score per node, or None when the plugin is skipped`.

A *late* plugin (DynamicResources) is too costly to evaluate on every node for every pod: upstream runs it last,
so the framework asks it node by node, best-scored first, only where every other filter passed; its `filter`
adapter (every node on its own) serves the recorder.

Plugins with state across pods (DRA's in-flight allocations) register a Reserve/Unreserve pair with the cluster
state (`ClusterState.stateful`), which journals them with every reservation so gang trials, placement trials
and preemption dry runs undo them by rolling the journal back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wasplan.cluster.model import Pod
from wasplan.engine.plugins import dynamic_resources, inter_pod_affinity, node_ports, topology_spread

PRE_ENQUEUE, PRE_FILTER, FILTER, POST_FILTER = "PreEnqueue", "PreFilter", "Filter", "PostFilter"
SCORE, RESERVE, PRE_BIND = "Score", "Reserve", "PreBind"


@dataclass(frozen=True)
class Plugin:
    name: str
    points: frozenset[str]  # extension points implemented (Unreserve goes with Reserve)
    static: bool = False  # Filter/Score verdict depends only on the pod's shape and node objects (static.py)
    shape: Callable[[Pod], object] | None = None  # the pod fields a static plugin reads (part of the shape key)
    needs: Callable[[Pod], bool] | None = None  # what a pod needs for a dynamic plugin to run at all
    cluster_needs: Callable[[object], bool] | None = None  # a cluster condition that makes it run for every pod
    affects_others: Callable[[Pod], bool] | None = None  # a placed pod's fields that can reject other pods
    filter: Callable | None = None
    score: Callable | None = None
    weight: int = 0  # default score weight (0: no score in the default profile)
    victims_matter: bool = False  # preemption's dry run must run this filter (resources alone cannot decide)
    late: bool = False  # the last filter, run per node on demand, best-scored node first (framework.py)

    @property
    def filters(self) -> bool:
        return FILTER in self.points

    @property
    def stateful(self) -> bool:
        return RESERVE in self.points

    def runs_for(self, pod: Pod, state) -> bool:
        """Whether the per-pod cycle must evaluate this dynamic plugin for `pod` on `state`."""
        if self.needs is not None and self.needs(pod):
            return True
        return self.cluster_needs is not None and bool(self.cluster_needs(state))


# ---- adapters of the dynamic plugins --------------------------------------------------------------------------
def _ports_filter(ev, pod, sv, within):
    return node_ports.fail_reasons(ev.state, pod.host_ports)


def _spread_filter(ev, pod, sv, within):
    return topology_spread.filter_reasons(ev.state, pod, sv.affinity_ok, sv.taints_ok, within=within)


def _spread_score(ev, pod, sv, feasible, within):
    if not pod.topology_spread:
        return None
    got = topology_spread.raw_scores(ev.state, pod, feasible, sv.affinity_ok, sv.taints_ok, within=within)
    return None if got is None else topology_spread.normalize(got[0], got[1], feasible)


def _ipa_filter(ev, pod, sv, within):
    return inter_pod_affinity.filter_reasons(ev.state, pod, within=within)


def _ipa_score(ev, pod, sv, feasible, within):
    if not (inter_pod_affinity.has_terms(pod) or ev.state.affinity_pods):
        return None
    raw = inter_pod_affinity.raw_scores(ev.state, pod, ev.profile.hard_pod_affinity_weight, within=within)
    return None if raw is None else inter_pod_affinity.normalize(raw, feasible)


def _dra_filter(ev, pod, sv, within):
    plugin = ev.state.plugins.get(dynamic_resources.NAME)
    return plugin.every_node(pod) if plugin is not None else None


def _node_affinity_shape(pod: Pod) -> tuple:
    a = pod.affinity
    node_part = (a.node_required, a.node_preferred) if a is not None else (None, ())
    return tuple(sorted(pod.node_selector.items())), node_part


_FILTER_SCORE = frozenset({PRE_FILTER, FILTER, SCORE})

PLUGINS: tuple[Plugin, ...] = (
    Plugin("NodeUnschedulable", frozenset({FILTER}), static=True, shape=lambda p: p.tolerations),
    Plugin("NodeName", frozenset({FILTER}), static=True, shape=lambda p: p.node_name),
    Plugin("TaintToleration", frozenset({FILTER, SCORE}), static=True, shape=lambda p: p.tolerations, weight=3),
    Plugin("NodeAffinity", _FILTER_SCORE, static=True, shape=_node_affinity_shape, weight=2),
    Plugin(node_ports.NAME, frozenset({PRE_FILTER, FILTER}), needs=lambda p: bool(p.host_ports),
           filter=_ports_filter, victims_matter=True),
    # NodeResourcesFit runs for every pod through the incremental resource cache (rescache.py); preemption
    # settles it by arithmetic, so it names no `needs`
    Plugin("NodeResourcesFit", _FILTER_SCORE, weight=1, victims_matter=True),
    Plugin(topology_spread.NAME, _FILTER_SCORE, needs=lambda p: bool(p.topology_spread), filter=_spread_filter,
           score=_spread_score, weight=2, victims_matter=True),
    Plugin(inter_pod_affinity.NAME, _FILTER_SCORE, needs=inter_pod_affinity.has_terms,
           cluster_needs=lambda state: state.affinity_pods, affects_others=inter_pod_affinity.has_terms,
           filter=_ipa_filter, score=_ipa_score, weight=2, victims_matter=True),
    Plugin(dynamic_resources.NAME, frozenset({PRE_ENQUEUE, PRE_FILTER, FILTER, POST_FILTER, SCORE, RESERVE, PRE_BIND}),
           needs=dynamic_resources.has_claims, filter=_dra_filter, weight=1, victims_matter=True, late=True),
    Plugin("NodeResourcesBalancedAllocation", frozenset({SCORE}), weight=1),
    # images are not part of a plan's inputs: the weight is kept so a scheduler config can name the plugin
    Plugin("ImageLocality", frozenset({SCORE}), weight=1),
)

BY_NAME = {p.name: p for p in PLUGINS}
FILTERS: tuple[str, ...] = tuple(p.name for p in PLUGINS if p.filters)
STATIC: tuple[Plugin, ...] = tuple(p for p in PLUGINS if p.static)
STATIC_FILTERS: tuple[str, ...] = tuple(p.name for p in STATIC if p.filters)
DYNAMIC: tuple[Plugin, ...] = tuple(p for p in PLUGINS if p.needs is not None)
DYNAMIC_FILTERS: tuple[Plugin, ...] = tuple(p for p in DYNAMIC if p.filter is not None and not p.late)
LATE: tuple[Plugin, ...] = tuple(p for p in DYNAMIC if p.late)
RECORDED: tuple[Plugin, ...] = tuple(p for p in DYNAMIC if p.filter is not None)  # what the recorder evaluates
DYNAMIC_SCORES: tuple[Plugin, ...] = tuple(p for p in DYNAMIC if p.score is not None)
DEFAULT_WEIGHTS: dict[str, int] = {p.name: p.weight for p in PLUGINS if p.weight}
STAGE: dict[str, int] = {name: i for i, name in enumerate(FILTERS)}  # a filter's position in upstream order
_SHAPES = tuple(p.shape for p in STATIC)
_OTHERS = tuple(p.affects_others for p in PLUGINS if p.affects_others is not None)

# every static filter runs before every dynamic one: static.py's combined verdict is the "first" failure
assert all(STAGE[name] < STAGE[p.name] for name in STATIC_FILTERS for p in DYNAMIC_FILTERS)
# a late filter runs after every other one (it is asked only where the others passed)
assert all(STAGE[p.name] == len(FILTERS) - len(LATE) + i for i, p in enumerate(LATE))


def shape_key(pod: Pod) -> tuple:
    """The pod's static shape: every field a static plugin reads."""
    return tuple(f(pod) for f in _SHAPES)


_NEEDS = tuple(p.needs for p in DYNAMIC)
_CLUSTER_NEEDS = tuple(p.cluster_needs for p in DYNAMIC if p.cluster_needs is not None)


def needs_cycle_work(pod: Pod, state, scores: bool = False) -> bool:
    """Whether any dynamic plugin (with `scores`: any dynamic scoring plugin) must run for `pod`; if none does,
    resources and static verdicts decide alone. Called for every pod, so the common answer is reached with as
    few calls as possible."""
    if scores:
        return any(p.runs_for(pod, state) for p in DYNAMIC_SCORES)
    for needs in _NEEDS:
        if needs(pod):
            return True
    for needs in _CLUSTER_NEEDS:
        if needs(state):
            return True
    return False


def victims_matter(pod: Pod) -> bool:
    """Whether the preemptor carries a filter, besides resources, whose verdict victims' removal can change."""
    return any(p.needs(pod) for p in RECORDED if p.victims_matter)


def affects_others(pod: Pod) -> bool:
    """Whether a placed pod's own fields could reject other pods (anti-affinity terms)."""
    return any(f(pod) for f in _OTHERS)

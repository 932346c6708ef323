"""Every scheduling plugin wasplan models, described once; the rest of the engine derives from this table.

kube-scheduler's default profile (pkg/scheduler/apis/config/v1/default_plugins.go) runs its plugins in one
order at every extension point. The filter order, the default score weights, which plugins are decided once per
pod shape (static.py), which ones the per-pod cycle must run (framework.py's shortcut), what the recorder
evaluates (recorder.py) and which plugins make preemption leave its arithmetic shortcut
(preemption/candidates.py) are all read from `PLUGINS`, and so is the rest of what a plugin is: its part of the
pod signature that gang batching compares (gangbatch.py, as upstream's signature.go) and explain's shape key,
whether it counts other pods, its queueing hint on a pod being bound (cycles.py), its static evaluation
(static.py), its pluginConfig arguments (config.py), its description of a rejection (explain) and its necessary
conditions for explain's exact check (explain/exact/shapes.py). A new plugin is one module plus one entry here
(docs/engine.md; `added()` registers one for a test).

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

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from wasplan.cluster.model import Pod
from wasplan.engine.plugins import (balanced_allocation, dynamic_resources, image_locality, inter_pod_affinity,
                                    node_affinity, node_name, node_ports, node_unschedulable, resources_fit,
                                    taint_toleration, topology_spread)

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
    evaluate: Callable | None = None  # a static plugin's verdict for a pod shape: (nodes, pod, StaticVerdict)
    signature: Callable[[Pod], object] | None = None  # the pod fields a dynamic plugin reads (batching, shapes)
    counts_pods: Callable[[Pod], bool] | None = None  # the pod's verdict counts other pods by their labels
    helped_by_bound_pod: Callable[[Pod], bool] | None = None  # queueing hint: a bound pod may make it fit
    wants_company: Callable[[Pod], bool] | None = None  # another pod's reservation can make a rejected pod pass
    args: Callable[[dict], dict] | None = None  # pluginConfig args -> the Profile fields they set
    describe: Callable[[Pod, list], tuple[str, ...]] | None = None  # the pod's terms behind a rejection (explain)
    exact_allowed: Callable | None = None  # (state, pod, sv, codes) -> nodes the exact check may use, or None
    exact_conflict: Callable[[Pod, Pod], bool] | None = None  # two pods that can never share one node
    exact_domains: Callable | None = None  # (state, exactrules.Group, static_verdict) -> exactrules.DomainPart

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
    return topology_spread.filter_reasons(ev.state, pod, sv.affinity_ok, sv.taints_ok, within=within, caps=ev.caps)


def _spread_score(ev, pod, sv, feasible, within):
    if not pod.topology_spread:
        return None
    got = topology_spread.raw_scores(ev.state, pod, feasible, sv.affinity_ok, sv.taints_ok, within=within,
                                     caps=ev.caps)
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
    Plugin(node_unschedulable.NAME, frozenset({FILTER}), static=True, shape=lambda p: p.tolerations,
           evaluate=node_unschedulable.evaluate_static, describe=node_unschedulable.describe),
    Plugin(node_name.NAME, frozenset({FILTER}), static=True, shape=lambda p: p.node_name,
           evaluate=node_name.evaluate_static, describe=node_name.describe),
    Plugin(taint_toleration.NAME, frozenset({FILTER, SCORE}), static=True, shape=lambda p: p.tolerations, weight=3,
           evaluate=taint_toleration.evaluate_static, describe=taint_toleration.describe),
    Plugin(node_affinity.NAME, _FILTER_SCORE, static=True, shape=_node_affinity_shape, weight=2,
           evaluate=node_affinity.evaluate_static, describe=node_affinity.describe),
    Plugin(node_ports.NAME, frozenset({PRE_FILTER, FILTER}), needs=lambda p: bool(p.host_ports),
           filter=_ports_filter, victims_matter=True, signature=lambda p: p.host_ports,
           exact_allowed=node_ports.exact_allowed, exact_conflict=node_ports.exact_conflict),
    # NodeResourcesFit runs for every pod through the incremental resource cache (rescache.py); preemption
    # settles it by arithmetic, so it names no `needs`; the requests are part of every signature already
    Plugin(resources_fit.NAME, _FILTER_SCORE, weight=1, victims_matter=True, args=resources_fit.profile_args),
    Plugin(topology_spread.NAME, _FILTER_SCORE, needs=lambda p: bool(p.topology_spread), filter=_spread_filter,
           score=_spread_score, weight=2, victims_matter=True, signature=lambda p: p.topology_spread,
           counts_pods=topology_spread.counts_pods, helped_by_bound_pod=topology_spread.counts_pods,
           describe=topology_spread.describe, exact_allowed=topology_spread.exact_allowed,
           exact_domains=topology_spread.exact_domains),
    Plugin(inter_pod_affinity.NAME, _FILTER_SCORE, needs=inter_pod_affinity.has_terms,
           cluster_needs=lambda state: state.affinity_pods, affects_others=inter_pod_affinity.has_terms,
           filter=_ipa_filter, score=_ipa_score, weight=2, victims_matter=True, signature=lambda p: p.affinity,
           counts_pods=inter_pod_affinity.counts_pods, helped_by_bound_pod=inter_pod_affinity.helped_by_bound_pod,
           wants_company=inter_pod_affinity.wants_company, args=inter_pod_affinity.profile_args,
           describe=inter_pod_affinity.describe, exact_allowed=inter_pod_affinity.exact_allowed,
           exact_conflict=inter_pod_affinity.exact_conflict, exact_domains=inter_pod_affinity.exact_domains),
    # no signature: a stateful plugin turns gang batching off (gangbatch.py), and explain models claims itself
    Plugin(dynamic_resources.NAME, frozenset({PRE_ENQUEUE, PRE_FILTER, FILTER, POST_FILTER, SCORE, RESERVE, PRE_BIND}),
           needs=dynamic_resources.has_claims, filter=_dra_filter, weight=1, victims_matter=True, late=True),
    Plugin(balanced_allocation.NAME, frozenset({SCORE}), weight=1, args=balanced_allocation.profile_args),
    # a score only: its shape is the pod's image references, its verdict the score per node (no filter)
    Plugin(image_locality.NAME, frozenset({SCORE}), static=True, shape=lambda p: p.images, weight=1,
           evaluate=image_locality.evaluate_static),
)


def _derive() -> None:
    """The tables the engine reads, from `PLUGINS` (again after `added`)."""
    global BY_NAME, FILTERS, STATIC, STATIC_FILTERS, DYNAMIC, DYNAMIC_FILTERS, LATE, RECORDED, DYNAMIC_SCORES
    global DEFAULT_WEIGHTS, STAGE, _SHAPES, _OTHERS, _NEEDS, _CLUSTER_NEEDS, _SIGNATURES, _COUNTS_PODS
    global _HELPED_BY_BOUND, _COMPANY, EXACT, CONFLICTS, EXACT_DOMAINS
    BY_NAME = {p.name: p for p in PLUGINS}
    FILTERS = tuple(p.name for p in PLUGINS if p.filters)
    STATIC = tuple(p for p in PLUGINS if p.static)
    STATIC_FILTERS = tuple(p.name for p in STATIC if p.filters)
    DYNAMIC = tuple(p for p in PLUGINS if p.needs is not None)
    DYNAMIC_FILTERS = tuple(p for p in DYNAMIC if p.filter is not None and not p.late)
    LATE = tuple(p for p in DYNAMIC if p.late)
    RECORDED = tuple(p for p in DYNAMIC if p.filter is not None)  # what the recorder evaluates
    DYNAMIC_SCORES = tuple(p for p in DYNAMIC if p.score is not None)
    DEFAULT_WEIGHTS = {p.name: p.weight for p in PLUGINS if p.weight}
    STAGE = {name: i for i, name in enumerate(FILTERS)}  # a filter's position in upstream order
    _SHAPES = tuple(p.shape for p in STATIC)
    _OTHERS = tuple(p.affects_others for p in PLUGINS if p.affects_others is not None)
    _NEEDS = tuple(p.needs for p in DYNAMIC)
    _CLUSTER_NEEDS = tuple(p.cluster_needs for p in DYNAMIC if p.cluster_needs is not None)
    _SIGNATURES = tuple(p.signature for p in PLUGINS if p.signature is not None)
    _COUNTS_PODS = tuple(p.counts_pods for p in PLUGINS if p.counts_pods is not None)
    _HELPED_BY_BOUND = tuple(p.helped_by_bound_pod for p in PLUGINS if p.helped_by_bound_pod is not None)
    _COMPANY = tuple(p.wants_company for p in PLUGINS if p.wants_company is not None)
    EXACT = tuple(p for p in PLUGINS if p.exact_allowed is not None)
    CONFLICTS = tuple(p.exact_conflict for p in PLUGINS if p.exact_conflict is not None)
    EXACT_DOMAINS = tuple(p for p in PLUGINS if p.exact_domains is not None)
    _check_order()


def _check_order() -> None:
    # every static filter runs before every dynamic one: static.py's combined verdict is the "first" failure
    assert all(STAGE[name] < STAGE[p.name] for name in STATIC_FILTERS for p in DYNAMIC_FILTERS)
    # a late filter runs after every other one (it is asked only where the others passed)
    assert all(STAGE[p.name] == len(FILTERS) - len(LATE) + i for i, p in enumerate(LATE))
    # a static plugin is evaluated by its own `evaluate`; a dynamic one names what it reads from the pod
    assert all(p.evaluate is not None and p.shape is not None for p in STATIC)


@contextlib.contextmanager
def added(plugin: Plugin, after: str) -> Iterator[None]:
    """`PLUGINS` with `plugin` placed right after the plugin named `after`, while the block runs (tests)."""
    global PLUGINS
    saved = PLUGINS
    at = [p.name for p in PLUGINS].index(after) + 1
    PLUGINS = (*PLUGINS[:at], plugin, *PLUGINS[at:])
    try:
        _derive()
        yield
    finally:
        PLUGINS = saved
        _derive()


_derive()

def shape_key(pod: Pod) -> tuple:
    """The pod's static shape: every field a static plugin reads."""
    return tuple(f(pod) for f in _SHAPES)


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


def signature(pod: Pod) -> tuple:
    """What the dynamic plugins read from the pod (with `shape_key` and the requests, everything the node choice
    reads): pods with equal signatures get the same verdicts from them on the same state."""
    return tuple(f(pod) for f in _SIGNATURES)


def counts_pods(pod: Pod) -> bool:
    """Whether some plugin's verdict for the pod counts other pods by their labels (spread, pod affinity)."""
    return any(f(pod) for f in _COUNTS_PODS)


def helped_by_bound_pod(pod: Pod) -> bool:
    """The plugins' queueing hints on a pod being bound: whether that may make this unschedulable pod fit."""
    return any(f(pod) for f in _HELPED_BY_BOUND)


def helped_by_bound_pod_after(pod: Pod, stages: frozenset[int]) -> bool:
    """helped_by_bound_pod, asking only the plugins at `stages` (the filters that rejected the pod's last
    attempt): upstream consults the queueing hints of a pod's rejector plugins alone."""
    return any(p.helped_by_bound_pod(pod) for p in PLUGINS
               if p.helped_by_bound_pod is not None and STAGE.get(p.name) in stages)


def wants_company(pod: Pod) -> bool:
    """Whether another pod's reservation can turn this pod's rejection into a pass (required pod affinity)."""
    return any(f(pod) for f in _COMPANY)


def describe(plugin: str, pod: Pod, nodes: list) -> tuple[str, ...]:
    """The plugin's words for the pod's terms behind its rejections (explain); () when it has none."""
    found = BY_NAME.get(plugin)
    return found.describe(pod, nodes) if found is not None and found.describe is not None else ()

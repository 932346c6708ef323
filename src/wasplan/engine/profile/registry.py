"""Every scheduling plugin wasplan models, described once; the rest of the engine derives from this table.

kube-scheduler's default profile (pkg/scheduler/apis/config/v1/default_plugins.go) runs its plugins in one
order at every extension point. The filter order, the default score weights, which plugins are decided once per
pod shape (static.py) and how each static scorer normalises its raw score, which ones the per-pod cycle must run
(framework.py's shortcut), what the recorder evaluates (recorder.py), which plugins make preemption leave its
arithmetic shortcut (preemption/candidates.py) and which placed pods the cluster state keeps an index of
(`affects_others`, ClusterState.affecting_pods) are all read from `PLUGINS`, and so is the rest of what a plugin is: its part of the
pod signature that gang batching compares (gangbatch.py, as upstream's signature.go) and explain's shape key,
whether it counts other pods, its queueing hint on a pod being bound (cycles.py), its static evaluation
(static.py), its pluginConfig arguments (config.py), its description of a rejection (explain) and its necessary
conditions for explain's exact check (explain/exact/shapes.py). A new plugin is one module plus one entry here
(docs/engine.md; `added()` registers one for a test).

Safe by default. Every optional facet a plugin leaves out takes the choice that can cost time but never makes a
plan wrong, as upstream's framework does for a plugin that does not implement an optional interface
(pkg/scheduler/framework/runtime/framework.go computeBatchablePlugins, SignPod; backend/queue: a plugin without
a QueueingHint gets the pod queued on every event):

* no `needs`: the dynamic plugin runs for every pod (no pod takes the common path where resources alone decide);
* no `signature`: the pods it runs for are not signable, so gang batching leaves them alone (`batchable`) and
  explain gives each a shape of its own (`shaped_alone`; a stateful plugin's claims explain models itself);
* no `helped_by_bound_pod`: a pod it rejected is requeued by every binding (`Plugin.bound_pod_hint`; a static
  plugin's verdict reads only the pod and the node objects, so a binding never helps it);
* `victims_matter` unless it says False: preemption's dry run re-runs its filter after every victim removal.

`_check` refuses at import (and in `added`) a record that contradicts itself or lacks what its extension points
need, naming the plugin and the facet (`RegistryError`).

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
and preemption dry runs undo them by rolling the journal back. Their PreEnqueue, PostFilter and PreBind are the
record's `pre_enqueue`, `post_filter` and `pre_bind`, which the cycles call with the plugin's object
(`ClusterState.plugins`), in this table's order (cycle/cycles.py, preemption/steps.py).
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


class RegistryError(ValueError):
    """A plugin record that contradicts itself or leaves out a facet its extension points need (raised at import,
    and by `added`), naming the plugin and the facet."""


def never(pod: Pod) -> bool:
    """A facet stated as never holding (a queueing hint that no bound pod can satisfy, for one)."""
    return False


@dataclass(frozen=True)
class Plugin:
    """One plugin. Every optional facet defaults to the safe choice (module docstring, "Safe by default")."""

    name: str
    points: frozenset[str]  # extension points implemented (Unreserve goes with Reserve)
    static: bool = False  # Filter/Score verdict depends only on the pod's shape and node objects (static.py)
    shape: Callable[[Pod], object] | None = None  # the pod fields a static plugin reads (part of the shape key)
    needs: Callable[[Pod], bool] | None = None  # when a dynamic plugin runs for a pod; None: for every pod
    cluster_needs: Callable[[object], bool] | None = None  # a cluster condition that makes it run for every pod
    affects_others: Callable[[Pod], bool] | None = None  # a placed pod's fields that can reject other pods
    filter: Callable | None = None
    score: Callable | None = None
    weight: int = 0  # default score weight (0: no score in the default profile)
    victims_matter: bool = True  # preemption's dry run must run this filter; False: resources alone decide
    late: bool = False  # the last filter, run per node on demand, best-scored node first (framework.py)
    rescache: bool = False  # its Filter and Score are the engine's resource cache's (rescache.py)
    evaluate: Callable | None = None  # a static plugin's verdict for a pod shape: (nodes, pod, StaticVerdict)
    normalise: Callable | None = None  # a static scorer's NormalizeScore: (its raw score or None, feasible) -> score
    signature: Callable[[Pod], object] | None = None  # the pod fields a dynamic plugin reads; None: unsignable
    counts_pods: Callable[[Pod], bool] | None = None  # the pod's verdict counts other pods by their labels
    helped_by_bound_pod: Callable[[Pod], bool] | None = None  # queueing hint on a bound pod; None: always requeue
    wants_company: Callable[[Pod], bool] | None = None  # another pod's reservation can make a rejected pod pass
    args: Callable[[dict], dict] | None = None  # pluginConfig args -> the Profile fields they set
    # the extension points around the cycle, each called with the plugin's object in the cluster state
    # (`ClusterState.plugins[name]`) for the pods it runs for (cycle/cycles.py, preemption/steps.py):
    pre_enqueue: Callable | None = None  # (object, pod, group) -> why PreEnqueue holds the pod, or None
    post_filter: Callable | None = None  # (object or None, pod, caps, deallocate) -> (text or None, retry at once)
    pre_bind: Callable | None = None  # (object, pod) -> why PreBind failed (the pod is unreserved), or None
    describe: Callable[[Pod, list], tuple[str, ...]] | None = None  # the pod's terms behind a rejection (explain)
    exact_allowed: Callable | None = None  # (state, pod, sv, codes) -> nodes the exact check may use, or None
    exact_conflict: Callable[[Pod, Pod], bool] | None = None  # two pods that can never share one node
    exact_domains: Callable | None = None  # (state, exactrules.Group, static_verdict) -> exactrules.DomainPart

    @property
    def filters(self) -> bool:
        return FILTER in self.points

    @property
    def scores(self) -> bool:
        return SCORE in self.points

    @property
    def stateful(self) -> bool:
        return RESERVE in self.points

    @property
    def dynamic(self) -> bool:
        """Evaluated per pod by the framework (not per shape, not by the resource cache)."""
        return not self.static and not self.rescache and (self.filters or self.scores)

    def runs_for_pod(self, pod: Pod) -> bool:
        """Whether this dynamic plugin runs for `pod` whatever the cluster holds (no `needs`: for every pod)."""
        return self.needs is None or bool(self.needs(pod))

    def runs_for(self, pod: Pod, state) -> bool:
        """Whether the per-pod cycle must evaluate this dynamic plugin for `pod` on `state`."""
        if self.runs_for_pod(pod):
            return True
        return self.cluster_needs is not None and bool(self.cluster_needs(state))

    def bound_pod_hint(self) -> Callable[[Pod], bool]:
        """Its queueing hint on a pod being bound, for a pod it rejected: the one it states; a static plugin's
        verdict reads only the pod and the node objects, which no binding changes; any other plugin that states
        none requeues every pod it runs for (upstream: no QueueingHint, the pod is queued on every event)."""
        if self.helped_by_bound_pod is not None:
            return self.helped_by_bound_pod
        return never if self.static else self.runs_for_pod


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
    if not (inter_pod_affinity.has_terms(pod) or ev.state.affecting_pods):
        return None
    raw = inter_pod_affinity.raw_scores(ev.state, pod, ev.profile.hard_pod_affinity_weight, within=within)
    return None if raw is None else inter_pod_affinity.normalize(raw, feasible)


def _dra_filter(ev, pod, sv, within):
    plugin = ev.state.plugins.get(dynamic_resources.NAME)
    return plugin.every_node(pod) if plugin is not None else None


def _dra_post_filter(plugin, pod, caps, deallocate: bool) -> tuple[str | None, bool]:
    """DynamicResources' PostFilter: `no new claims to deallocate` when PreFilter left the pod no claims (every pod
    without claims, in plans with or without DRA objects); else the plugin's own, which may deallocate a claim
    (the pod is then retried at once). Without `deallocate` (trial placements that roll back) a pod with claims
    gets nothing."""
    if not pod.resource_claims or plugin is None:
        return dynamic_resources.post_filter_text(dynamic_resources.NO_NEW_CLAIMS, caps), False
    if not deallocate:
        return None, False
    text = plugin.post_filter(pod)
    return text, text == dynamic_resources.DEALLOCATED


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
           evaluate=taint_toleration.evaluate_static, normalise=taint_toleration.normalise,
           describe=taint_toleration.describe),
    Plugin(node_affinity.NAME, _FILTER_SCORE, static=True, shape=_node_affinity_shape, weight=2,
           evaluate=node_affinity.evaluate_static, normalise=node_affinity.normalise, describe=node_affinity.describe),
    # NodePorts' hints: a deleted pod, an added node (upstream EventsToRegister); a bound pod never helps
    Plugin(node_ports.NAME, frozenset({PRE_FILTER, FILTER}), needs=lambda p: bool(p.host_ports),
           filter=_ports_filter, signature=lambda p: p.host_ports, helped_by_bound_pod=never,
           exact_allowed=node_ports.exact_allowed, exact_conflict=node_ports.exact_conflict),
    # NodeResourcesFit runs for every pod through the incremental resource cache (rescache.py); preemption
    # settles it by arithmetic; the requests are part of every signature already; a bound pod only takes room
    Plugin(resources_fit.NAME, _FILTER_SCORE, weight=1, rescache=True, helped_by_bound_pod=never,
           args=resources_fit.profile_args),
    Plugin(topology_spread.NAME, _FILTER_SCORE, needs=lambda p: bool(p.topology_spread), filter=_spread_filter,
           score=_spread_score, weight=2, victims_matter=True, signature=lambda p: p.topology_spread,
           counts_pods=topology_spread.counts_pods, helped_by_bound_pod=topology_spread.counts_pods,
           describe=topology_spread.describe, exact_allowed=topology_spread.exact_allowed,
           exact_domains=topology_spread.exact_domains),
    Plugin(inter_pod_affinity.NAME, _FILTER_SCORE, needs=inter_pod_affinity.has_terms,
           cluster_needs=lambda state: state.affecting_pods, affects_others=inter_pod_affinity.has_terms,
           filter=_ipa_filter, score=_ipa_score, weight=2, victims_matter=True, signature=lambda p: p.affinity,
           counts_pods=inter_pod_affinity.counts_pods, helped_by_bound_pod=inter_pod_affinity.helped_by_bound_pod,
           wants_company=inter_pod_affinity.wants_company, args=inter_pod_affinity.profile_args,
           describe=inter_pod_affinity.describe, exact_allowed=inter_pod_affinity.exact_allowed,
           exact_conflict=inter_pod_affinity.exact_conflict, exact_domains=inter_pod_affinity.exact_domains),
    # no signature: a pod with claims is not signable (upstream's SignPod says so), and explain models claims
    # itself; its hints are on claims, slices and classes, never on a bound pod
    Plugin(dynamic_resources.NAME, frozenset({PRE_ENQUEUE, PRE_FILTER, FILTER, POST_FILTER, SCORE, RESERVE, PRE_BIND}),
           needs=dynamic_resources.has_claims, filter=_dra_filter, weight=1, late=True, helped_by_bound_pod=never,
           pre_enqueue=lambda plugin, pod, group: plugin.pre_enqueue(pod, group), post_filter=_dra_post_filter,
           pre_bind=lambda plugin, pod: plugin.pre_bind(pod)),
    Plugin(balanced_allocation.NAME, frozenset({SCORE}), weight=1, rescache=True,
           args=balanced_allocation.profile_args),
    # a score only: its shape is the pod's image references, its verdict the score per node (no filter)
    Plugin(image_locality.NAME, frozenset({SCORE}), static=True, shape=lambda p: p.images, weight=1,
           evaluate=image_locality.evaluate_static, normalise=image_locality.normalise),
)


def _derive() -> None:
    """The tables the engine reads, from `PLUGINS` (again after `added`), once every record is checked."""
    global BY_NAME, FILTERS, STATIC, STATIC_FILTERS, STATIC_SCORES, DYNAMIC, DYNAMIC_FILTERS, LATE, RECORDED
    global DYNAMIC_SCORES, DEFAULT_WEIGHTS, STAGE, _SHAPES, _OTHERS, _AFFECTING, _NEEDS, _ALWAYS, _CLUSTER_NEEDS
    global _SIGNATURES, _UNSIGNED, _UNSIGNED_ALONE, _COUNTS_PODS, _HINTS, _COMPANY, EXACT, CONFLICTS, EXACT_DOMAINS
    global PRE_ENQUEUERS, POST_FILTERS, PRE_BINDERS
    for p in PLUGINS:
        _check(p)
    BY_NAME = {p.name: p for p in PLUGINS}
    FILTERS = tuple(p.name for p in PLUGINS if p.filters)
    STATIC = tuple(p for p in PLUGINS if p.static)
    STATIC_FILTERS = tuple(p.name for p in STATIC if p.filters)
    STATIC_SCORES = tuple(p for p in STATIC if p.scores)  # each normalises its own raw score
    DYNAMIC = tuple(p for p in PLUGINS if p.dynamic)
    DYNAMIC_FILTERS = tuple(p for p in DYNAMIC if p.filter is not None and not p.late)
    LATE = tuple(p for p in DYNAMIC if p.late)
    RECORDED = tuple(p for p in DYNAMIC if p.filter is not None)  # what the recorder evaluates
    DYNAMIC_SCORES = tuple(p for p in DYNAMIC if p.score is not None)
    DEFAULT_WEIGHTS = {p.name: p.weight for p in PLUGINS if p.weight}
    STAGE = {name: i for i, name in enumerate(FILTERS)}  # a filter's position in upstream order
    _SHAPES = tuple(p.shape for p in STATIC)
    _OTHERS = tuple(p.affects_others for p in PLUGINS if p.affects_others is not None)
    _AFFECTING = tuple(p for p in RECORDED if p.affects_others is not None)
    _NEEDS = tuple(p.needs for p in DYNAMIC if p.needs is not None)
    _ALWAYS = any(p.needs is None for p in DYNAMIC)  # some dynamic plugin runs for every pod
    _CLUSTER_NEEDS = tuple(p.cluster_needs for p in DYNAMIC if p.cluster_needs is not None)
    _SIGNATURES = tuple(p.signature for p in PLUGINS if p.signature is not None)
    _UNSIGNED = tuple(p for p in DYNAMIC if p.signature is None)
    _UNSIGNED_ALONE = tuple(p for p in _UNSIGNED if not p.stateful)  # explain models a stateful plugin itself
    _COUNTS_PODS = tuple(p.counts_pods for p in PLUGINS if p.counts_pods is not None)
    _HINTS = {p.name: hint for p in PLUGINS if p.filters and (hint := p.bound_pod_hint()) is not never}
    _COMPANY = tuple(p.wants_company for p in PLUGINS if p.wants_company is not None)
    EXACT = tuple(p for p in PLUGINS if p.exact_allowed is not None)
    CONFLICTS = tuple(p.exact_conflict for p in PLUGINS if p.exact_conflict is not None)
    EXACT_DOMAINS = tuple(p for p in PLUGINS if p.exact_domains is not None)
    PRE_ENQUEUERS = tuple(p for p in PLUGINS if p.pre_enqueue is not None)
    POST_FILTERS = tuple(p for p in PLUGINS if p.post_filter is not None)  # before DefaultPreemption's
    PRE_BINDERS = tuple(p for p in PLUGINS if p.pre_bind is not None)
    _check_order()


def _refuse(plugin: Plugin, facet: str, why: str) -> None:
    raise RegistryError(f"plugin {plugin.name}: facet `{facet}`: {why}")


def _check(p: Plugin) -> None:
    """Refuse a record that contradicts itself or lacks what its extension points need."""
    if p.static:
        for facet in ("needs", "cluster_needs", "filter", "score", "signature", "late", "rescache"):
            if getattr(p, facet):
                _refuse(p, facet, "a static plugin reads only the pod and the node objects (its `shape` is its "
                                  "part of every signature); this facet belongs to a dynamic plugin")
        if p.evaluate is None or p.shape is None:
            _refuse(p, "evaluate" if p.evaluate is None else "shape", "a static plugin needs `evaluate` and `shape`")
        if p.scores and p.normalise is None:
            _refuse(p, "normalise", "a static scorer normalises its own raw score")
    elif p.normalise is not None or p.evaluate is not None:
        _refuse(p, "normalise" if p.normalise is not None else "evaluate", "only a static plugin has it")
    if p.rescache and (p.filter is not None or p.score is not None):
        _refuse(p, "filter" if p.filter is not None else "score", "the resource cache computes this plugin")
    for facet, point in (("filter", p.filters), ("score", p.scores)):
        if getattr(p, facet) is not None and not point:
            _refuse(p, facet, "its extension point is not in `points`")
    if p.weight and not p.scores:
        _refuse(p, "weight", "a weight without the Score extension point")
    if p.dynamic and p.filters and p.filter is None:
        _refuse(p, "filter", "a dynamic Filter plugin needs its `filter` adapter")
    if p.dynamic and p.scores and p.score is None and not p.late:
        _refuse(p, "score", "a dynamic Score plugin needs its `score` adapter")
    if p.late and p.filter is None:
        _refuse(p, "late", "a late filter needs its `filter` adapter")
    for facet, point in (("pre_enqueue", PRE_ENQUEUE), ("post_filter", POST_FILTER), ("pre_bind", PRE_BIND)):
        if (getattr(p, facet) is None) == (point in p.points):
            _refuse(p, facet, f"the adapter and the {point} extension point go together")
    if not p.filters:
        for facet in ("helped_by_bound_pod", "exact_allowed", "exact_conflict", "exact_domains", "describe"):
            if getattr(p, facet) is not None:
                _refuse(p, facet, "only a Filter plugin rejects a pod")


def _check_order() -> None:
    # every static filter runs before every dynamic one: static.py's combined verdict is the "first" failure
    for name in STATIC_FILTERS:
        for p in DYNAMIC_FILTERS:
            if STAGE[name] > STAGE[p.name]:
                raise RegistryError(f"plugin {name}: a static filter placed after the dynamic filter {p.name}")
    # a late filter runs after every other one (it is asked only where the others passed)
    for i, p in enumerate(LATE):
        if STAGE[p.name] != len(FILTERS) - len(LATE) + i:
            raise RegistryError(f"plugin {p.name}: facet `late`: a late filter must be the last filter")


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
    if _ALWAYS:
        return True
    for needs in _NEEDS:
        if needs(pod):
            return True
    for needs in _CLUSTER_NEEDS:
        if needs(state):
            return True
    return False


def victims_matter(pod: Pod) -> bool:
    """Whether the preemptor carries a filter, besides resources, whose verdict victims' removal can change (every
    dynamic filter that runs for it, unless its record says `victims_matter=False`)."""
    return any(p.runs_for_pod(pod) for p in RECORDED if p.victims_matter)


def filtered_before(pod: Pod, stage: int) -> bool:
    """Whether a filter that victims can affect runs for the preemptor before the filter at `stage`."""
    return any(STAGE[p.name] < stage and p.runs_for_pod(pod) for p in RECORDED if p.victims_matter)


def affects_others(pod: Pod) -> bool:
    """Whether a placed pod's own fields could reject other pods (anti-affinity terms): the cluster state keeps
    the placed pods for which this holds (`ClusterState.affecting_pods`)."""
    for f in _OTHERS:
        if f(pod):
            return True
    return False


def rejected_by_placed(ev, pod: Pod):
    """Rows where placed pods' own fields reject `pod` (the filters of the plugins with `affects_others`), or
    None when none does. For a pod that no such plugin needs, only placed pods' fields can reject it there, so
    taking pods away can lift such a rejection and never adds one (preemption's shortcut)."""
    blocked = None
    for p in _AFFECTING:
        got = p.filter(ev, pod, ev.static_verdict(pod), None)
        if got is not None:
            blocked = got != 0 if blocked is None else blocked | (got != 0)
    return blocked if blocked is not None and blocked.any() else None


def batchable(pod: Pod) -> bool:
    """Whether the pod can be signed for gang batching: no plugin without a `signature` runs for it (upstream's
    SignPod: a plugin that cannot sign a pod turns batching off for it; runtime/framework.go
    computeBatchablePlugins turns it off for the profile)."""
    return not any(p.cluster_needs is not None or p.runs_for_pod(pod) for p in _UNSIGNED)


def shaped_alone(pod: Pod) -> bool:
    """Whether explain must give the pod a shape of its own: a plugin without a signature (other than a stateful
    one, whose claims explain models itself) runs for it, so no other pod is known to get its verdicts."""
    return any(p.cluster_needs is not None or p.runs_for_pod(pod) for p in _UNSIGNED_ALONE)


def signature(pod: Pod) -> tuple:
    """What the signed dynamic plugins read from the pod (with `shape_key` and the requests, everything the node
    choice reads where `batchable`): pods with equal signatures get the same verdicts from them on one state."""
    return tuple(f(pod) for f in _SIGNATURES)


def counts_pods(pod: Pod) -> bool:
    """Whether some plugin's verdict for the pod counts other pods by their labels (spread, pod affinity)."""
    return any(f(pod) for f in _COUNTS_PODS)


def helped_by_bound_pod(pod: Pod) -> bool:
    """The filters' queueing hints on a pod being bound: whether that may make this unschedulable pod fit
    (`Plugin.bound_pod_hint`: a filter that states no hint requeues every pod it runs for)."""
    return any(hint(pod) for hint in _HINTS.values())


def helped_by_bound_pod_after(pod: Pod, stages: frozenset[int]) -> bool:
    """helped_by_bound_pod, asking only the filters at `stages` (those that rejected the pod's last attempt):
    upstream consults the queueing hints of a pod's rejector plugins alone."""
    return any(hint(pod) for name, hint in _HINTS.items() if STAGE[name] in stages)


def wants_company(pod: Pod) -> bool:
    """Whether another pod's reservation can turn this pod's rejection into a pass (required pod affinity)."""
    return any(f(pod) for f in _COMPANY)


def describe(plugin: str, pod: Pod, nodes: list) -> tuple[str, ...]:
    """The plugin's words for the pod's terms behind its rejections (explain); () when it has none."""
    found = BY_NAME.get(plugin)
    return found.describe(pod, nodes) if found is not None and found.describe is not None else ()

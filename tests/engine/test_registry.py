"""The plugin registry: the orders the engine derives from it, and Reserve/Unreserve through the state journal."""

import pytest
from builders import GPU, gang, node, pod
from enginehelp import make_state

from wasplan.engine.cycle import groupcycle, static

from wasplan.engine.profile import registry
from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.cache.world import GroupState, PodState


def test_filter_order_and_weights_are_kube_schedulers_default_profile():
    # pkg/scheduler/apis/config/v1/default_plugins.go: the filters in MultiPoint order, the score weights
    assert registry.FILTERS == ("NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                                "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "DynamicResources")
    assert registry.STATIC_FILTERS == ("NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity")
    assert registry.DEFAULT_WEIGHTS == {"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1,
                                        "PodTopologySpread": 2, "InterPodAffinity": 2, "DynamicResources": 1,
                                        "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}


def test_shape_key_separates_what_static_plugins_read_and_ignores_the_rest():
    a = pod("a", cpu="1", node_selector={"zone": "a"})
    same = pod("b", cpu="7", node_selector={"zone": "a"})
    other = pod("c", cpu="1", node_selector={"zone": "b"})
    assert static.static_key(a) == static.static_key(same)
    assert static.static_key(a) != static.static_key(other)


def test_preemption_shortcut_follows_the_plugins_victims_can_affect():
    assert not registry.victims_matter(pod("plain", cpu="1"))
    assert registry.victims_matter(pod("ports", cpu="1", ports=[8080]))


class Ledger:
    """A stateful plugin that counts reservations per node, to watch Reserve/Unreserve."""

    def __init__(self):
        self.held: dict[str, int] = {}
        self.calls: list[str] = []

    def reserve(self, p, row):
        self.calls.append(f"reserve {p.name}@{row}")
        self.held[p.name] = row
        return row

    def unreserve(self, p, row, token):
        assert token == row
        self.calls.append(f"unreserve {p.name}@{row}")
        del self.held[p.name]

    def pod_deleted(self, p):
        self.calls.append(f"deleted {p.name}")


def test_a_failed_gang_trial_unreserves_every_member_newest_first():
    state = make_state([node("a", gpu=1), node("b", gpu=1)])
    ledger = Ledger()
    state.stateful.append(ledger)
    ev = Evaluator(state, Profile())
    members = [PodState(pod(f"m{i}", gpu=1, group="g"), 0, i) for i in range(3)]
    group = GroupState(gang("g", min_count=3), 0, 0)
    mark = state.mark()
    attempt = groupcycle.run(ev, group, members, 0, True)
    assert not attempt.success and ledger.held == {"m0": 0, "m1": 1}
    state.rollback(mark)
    assert ledger.held == {}
    assert ledger.calls == ["reserve m0@0", "reserve m1@1", "unreserve m1@1", "unreserve m0@0"]
    assert state.requested[:, state.col[GPU]].tolist() == [0, 0]


def test_removing_a_pod_does_not_call_unreserve():
    state = make_state([node("a")])
    ledger = Ledger()
    state.stateful.append(ledger)
    state.reserve(pod("x", cpu="1"), 0)
    state.commit()
    mark = state.mark()
    state.remove(state.placed["default/x"].pod)
    state.rollback(mark)
    assert ledger.calls == ["reserve x@0"] and state.node_of("default/x") == "a"


# ---- safe by default, checked loudly ---------------------------------------------------------------------------
def _filter(ev, p, sv, within):
    return None


def test_a_record_that_leaves_facets_out_gets_the_safe_choice():
    bare = registry.Plugin("Bare", frozenset({registry.FILTER}), filter=_filter)
    assert bare.victims_matter and bare.runs_for_pod(pod("any", cpu="1"))
    assert bare.bound_pod_hint()(pod("any", cpu="1"))  # no queueing hint: every binding requeues its pods
    with registry.added(bare, after="InterPodAffinity"):
        plain = pod("plain", cpu="1")
        assert registry.needs_cycle_work(plain, make_state([node("a")]))  # no `needs`: it runs for every pod
        assert not registry.batchable(plain)  # no `signature`: not signable, so never batched
        assert registry.shaped_alone(plain)
        assert registry.victims_matter(plain)  # the dry run re-runs its filter after each victim removal
        assert registry.helped_by_bound_pod_after(plain, frozenset({registry.STAGE["Bare"]}))
        assert not registry.helped_by_bound_pod_after(plain, frozenset({registry.STAGE["NodeResourcesFit"]}))
    assert registry.batchable(pod("plain", cpu="1")) and not registry.victims_matter(pod("plain", cpu="1"))


@pytest.mark.parametrize(("record", "facet"), [
    (dict(points={registry.FILTER}, static=True, shape=lambda p: p.labels, evaluate=lambda *a: None,
          signature=lambda p: p.labels), "signature"),
    (dict(points={registry.FILTER}, static=True, evaluate=lambda *a: None), "shape"),
    (dict(points={registry.SCORE}, static=True, shape=lambda p: p.labels, evaluate=lambda *a: None), "normalise"),
    (dict(points={registry.FILTER}), "filter"),
    (dict(points={registry.SCORE}, needs=lambda p: True), "score"),
    (dict(points={registry.FILTER}, filter=_filter, weight=2), "weight"),
    (dict(points={registry.SCORE}, score=_filter, helped_by_bound_pod=registry.never), "helped_by_bound_pod"),
    (dict(points={registry.FILTER}, filter=_filter, normalise=lambda raw, f: 0), "normalise"),
    (dict(points={registry.FILTER}, score=_filter, filter=_filter), "score"),
    (dict(points={registry.FILTER, registry.PRE_BIND}, filter=_filter), "pre_bind"),
    (dict(points={registry.FILTER}, filter=_filter, post_filter=lambda *a: (None, False)), "post_filter"),
])
def test_a_record_that_contradicts_itself_is_refused_naming_plugin_and_facet(record, facet):
    record = {**record, "points": frozenset(record["points"])}
    with pytest.raises(registry.RegistryError, match=rf"^plugin Odd: facet `{facet}`: "):
        with registry.added(registry.Plugin("Odd", **record), after="InterPodAffinity"):
            pass
    assert "Odd" not in registry.BY_NAME  # the table is back as it was


def test_a_static_filter_after_a_dynamic_one_is_refused():
    late_static = registry.Plugin("LateStatic", frozenset({registry.FILTER}), static=True, shape=lambda p: p.labels,
                                  evaluate=lambda *a: None)
    with pytest.raises(registry.RegistryError, match="plugin LateStatic: a static filter placed after"):
        with registry.added(late_static, after="NodePorts"):
            pass

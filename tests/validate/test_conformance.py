"""wasplan's schemas against upstream's strict schemas, on fixtures and on random mutations of them.

The promise: wasplan rejects everything upstream's strict schema rejects, and accepts everything it accepts
except where a fixture names the documented server rule (a JSON Schema keyword) that upstream lacks.
"""

from __future__ import annotations

import copy

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance_cases import (Case, fast_upstream_accepts, load_cases, upstream_accepts, wasplan_accepts,
                               wasplan_failed_keywords)
from wasplan.validate.schemas import load_schema

kubernetes_validate = pytest.importorskip("kubernetes_validate")

CASES = load_cases()
VALID = [c for c in CASES if c.upstream_accepts and c.wasplan_accepts]


def test_fixture_set_covers_every_kind_and_both_verdicts():
    kinds = {(c.obj["apiVersion"], c.obj["kind"]) for c in CASES}
    from wasplan.validate.schemas import available
    assert kinds == set(available()) - {a for a in available() if not a[0].startswith("scheduling.k8s.io/")}
    assert any(not c.upstream_accepts for c in CASES)
    assert any(c.rule for c in CASES)
    assert len(VALID) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture(case: Case):
    up = upstream_accepts(case.release, case.obj)
    was = wasplan_accepts(case.obj)
    # the comment must say what really happens, so a fixture cannot drift silently
    assert up == case.upstream_accepts, f"upstream {'accepts' if up else 'rejects'}: {case.text}"
    assert was == case.wasplan_accepts, (
        f"wasplan {'accepts' if was else 'rejects'}: {case.text}; failing keywords "
        f"{sorted(wasplan_failed_keywords(case.obj))}"
    )
    # the contract between the two
    if not up:
        assert not was, "wasplan accepts what upstream rejects"
    if up and not was:
        assert case.rule, "wasplan rejects what upstream accepts without naming the server rule"
        assert case.rule in wasplan_failed_keywords(case.obj), (
            f"rule={case.rule} did not fire; failing keywords {sorted(wasplan_failed_keywords(case.obj))}"
        )
    else:
        assert case.rule is None, "rule= only belongs on documents that upstream accepts and wasplan rejects"
    # the compiled upstream validator wasplan uses elsewhere agrees with kubernetes-validate itself
    assert fast_upstream_accepts(case.release, case.obj) == up
    # and the pure-Python engine reads wasplan's schema the same way jsonschema_rs does
    schema = load_schema(case.obj["apiVersion"], case.obj["kind"])
    assert jsonschema.Draft202012Validator(schema).is_valid(case.obj) == was


# --- random mutations of the valid fixtures ---------------------------------------------------------------
WRONG_TYPES = [7, 2.5, "text", True, [], {}, None, [1], {"a": 1}]


def _paths(value, prefix=()):
    """Every path to a value inside `value` (top-level apiVersion/kind excluded: they select the schema)."""
    if isinstance(value, dict):
        for key, sub in value.items():
            path = prefix + (key,)
            if path not in (("apiVersion",), ("kind",)):
                yield path
                yield from _paths(sub, path)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield prefix + (i,)
            yield from _paths(sub, prefix + (i,))


def _objects(value, prefix=()):
    if isinstance(value, dict):
        yield prefix
        for key, sub in value.items():
            yield from _objects(sub, prefix + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _objects(sub, prefix + (i,))


def _get(obj, path):
    for elem in path:
        obj = obj[elem]
    return obj


@st.composite
def mutated(draw):
    case = draw(st.sampled_from(VALID))
    obj = copy.deepcopy(case.obj)
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["drop", "unknown", "retype"]))
        if kind == "unknown":
            target = _get(obj, draw(st.sampled_from(list(_objects(obj)))))
            target[draw(st.sampled_from(["zzUnknown", "totalPods", "minMatch", "workloadName"]))] = 1
            continue
        paths = list(_paths(obj))
        if not paths:
            continue
        path = draw(st.sampled_from(paths))
        parent = _get(obj, path[:-1])
        if kind == "drop":
            del parent[path[-1]]
        else:
            current = parent[path[-1]]
            choices = [v for v in WRONG_TYPES if type(v) is not type(current)]
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(choices)))
    return case.release, obj


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_upstream_rejects_implies_wasplan_rejects(sample):
    release, obj = sample
    up = upstream_accepts(release, obj)
    assert fast_upstream_accepts(release, obj) == up
    if not up:
        assert not wasplan_accepts(obj), "wasplan accepts a mutation upstream rejects"

"""JSON null on a field: wasplan must treat it the way upstream's schema and the API server do.

For every field present in the valid conformance fixtures the field is set to null and, separately,
removed. Upstream's strict schema decides which fields may be null; the server reads null as "unset". So:
where upstream rejects null, wasplan rejects it; where upstream accepts null on an optional field, wasplan
gives null the same verdict as leaving the field out (an optional union member given as null leaves the
union empty, for example); where upstream accepts null on a required field (a nullable `$ref`), wasplan
rejects it, because the server reports the field as missing.
"""

from __future__ import annotations

import copy

import pytest

from conformance_cases import fast_upstream_accepts, load_cases, wasplan_accepts

VALID = [c for c in load_cases() if c.upstream_accepts and c.wasplan_accepts]


def _key_paths(value, prefix=()):
    if isinstance(value, dict):
        for key, sub in value.items():
            path = prefix + (key,)
            if path not in (("apiVersion",), ("kind",)):
                yield path
            yield from _key_paths(sub, path)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _key_paths(sub, prefix + (i,))


def _with(obj, path, *, delete: bool):
    out = copy.deepcopy(obj)
    parent = out
    for elem in path[:-1]:
        parent = parent[elem]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = None
    return out


@pytest.mark.parametrize("case", VALID, ids=[c.id for c in VALID])
def test_null_means_unset(case):
    checked = 0
    for path in _key_paths(case.obj):
        nulled = _with(case.obj, path, delete=False)
        removed = _with(case.obj, path, delete=True)
        up_null = fast_upstream_accepts(case.release, nulled)
        up_removed = fast_upstream_accepts(case.release, removed)
        was_null = wasplan_accepts(nulled)
        where = ".".join(map(str, path))
        if not up_null:
            assert not was_null, f"{where}: wasplan accepts null where upstream does not"
        elif up_removed:
            assert was_null == wasplan_accepts(removed), f"{where}: wasplan treats null unlike an absent field"
        else:
            assert not was_null, f"{where}: null on a required field must fail as missing"
        checked += 1
    assert checked > 0

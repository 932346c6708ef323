"""wasplan's CEL environment against upstream's, expression by expression (`oracle cel`, oracle/core/cel.go).

A seeded corpus (celcorpus.py: every function and macro of the DRA environment, edge-case arguments, type
errors, runtime errors, and boolean selectors over generated devices) is compiled and evaluated by wasplan
(`wasplan.cel.compile`) and by upstream's `k8s.io/dynamic-resource-allocation/cel` compiler with the real
`DeviceMatches`. Per expression the outcomes must be equal: a compile error on both sides, or per device the
same match / no match / runtime error. Expressions wasplan declares unmodelled (`library.UNMODELLED`) are counted,
not compared. The corpus size is printed (`-s`) and held to a floor so the test cannot shrink into a trivial one.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.oracle.celcorpus import devices, literal, predicates, value_terms
from tests.oracle.conftest import run_oracle
from wasplan.api.quantity import parse_quantity
from wasplan.cel import CelError, CelRuntimeError, compile, device_value
from wasplan.cluster.devices import Attribute, Capacity

SEED = 20261206
ROUNDS = 4
DEVICES = 8
MIN_EXPRESSIONS = 500

# Known disagreements, each with its cause (none may appear unexplained): (release, expression) -> cause.
_FORMAT_ATTRIBUTES = ('"%s-%d".format([device.attributes["gpu.example.com"].model, '
                      'device.attributes["gpu.example.com"].cores]).size() > 5')
KNOWN: dict[tuple[str, str], str] = {
    ("1.37", _FORMAT_ATTRIBUTES): "1.37's stored-expressions environment types attribute values as dyn "
    "(dynamic-resource-allocation v0.37 compile.go allowListType), so format() accepts them; wasplan's compiler "
    "types them as 1.36 and the new-expressions environment do (any), which format() refuses at compile time",
}


def _wasplan_device(raw: dict) -> dict:
    attributes = {name: Attribute(*next(iter(value.items()))) for name, value in raw["attributes"].items()}
    capacity = {name: Capacity(parse_quantity(value["value"]).amount) for name, value in raw["capacity"].items()}
    return device_value(raw["driver"], attributes, capacity, raw["allowMultipleAllocations"])


def _outcome(expression: str, devices_: list[dict]) -> tuple | str:
    compiled = compile(expression)
    if isinstance(compiled, CelError):
        return "unmodelled" if compiled.unmodelled else "compile-error"
    out = []
    for device in devices_:
        try:
            out.append(compiled.evaluate(device))
        except CelRuntimeError:
            out.append("error")
    return tuple(out)


def _value_check(term: str, device: dict) -> str:
    """The expression that asks upstream whether `term` has wasplan's value and type (see celcorpus)."""
    compiled = compile(term)
    if isinstance(compiled, CelError):
        return term
    try:
        value = compiled.value(device)
    except CelRuntimeError:
        return f"({term}) == ({term})"
    text = literal(value)
    if text is None:
        return f"({term}) == ({term})"
    return f"({term}) == {text} && type({term}) == type({text})"


def _upstream(oracle_bin, tmp_path, release: str, expressions: list[str], devices_: list[dict]) -> list:
    path = tmp_path / f"cel-{release}-{len(devices_)}.json"
    path.write_text(json.dumps({"features": {"consumableCapacity": True, "listTypeAttributes": False},
                                "expressions": expressions, "devices": devices_}))
    run = run_oracle(_binary(oracle_bin, release), ["cel", str(path)], timeout=120)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)["results"]
    assert [r["expression"] for r in results] == expressions
    return results


def _binary(oracle_bin, release: str):
    """The release's own binary next to the dispatcher (bin/oracle picks it from --k8s-version)."""
    own = oracle_bin.parent / f"oracle-{release}"
    return own if own.exists() else oracle_bin


def _upstream_outcome(result: dict) -> tuple | str:
    if "compileError" in result:
        return "compile-error"
    return tuple(v["match"] if "error" not in v else "error" for v in result["verdicts"])


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_wasplan_cel_agrees_with_upstream(oracle_bin, tmp_path, release):
    if not _binary(oracle_bin, release).name.endswith(release):
        pytest.skip(f"no oracle for {release} next to {oracle_bin}")
    rng = random.Random(SEED)
    raw_devices = devices(rng, DEVICES)
    ours = [_wasplan_device(d) for d in raw_devices]
    checks = [_value_check(term, ours[0]) for term in value_terms(rng, ROUNDS)]
    selectors = predicates(rng, ROUNDS)
    corpus = [(checks, raw_devices[:1], ours[:1]), (selectors, raw_devices, ours)]
    mismatches, unmodelled, compared = [], 0, 0
    for expressions, raw, mine in corpus:
        for expression, result in zip(expressions, _upstream(oracle_bin, tmp_path, release, expressions, raw)):
            wasplan = _outcome(expression, mine)
            if wasplan == "unmodelled":
                unmodelled += 1
                continue
            compared += 1
            upstream = _upstream_outcome(result)
            if wasplan != upstream and (release, expression) not in KNOWN:
                detail = result.get("compileError") or next((v["error"] for v in result.get("verdicts", [])
                                                             if "error" in v), "")
                mismatches.append(f"{expression}\n    wasplan {wasplan}, upstream {upstream}: {detail[:200]}")
    print(f"\ncel differential {release}: {compared} expressions compared ({len(checks)} value checks, "
          f"{len(selectors)} selectors on {DEVICES} devices), {unmodelled} unmodelled, {len(mismatches)} disagree")
    assert not mismatches, "\n".join(mismatches)
    assert compared >= MIN_EXPRESSIONS


def test_literals_round_trip():
    """The value check's premise: a literal evaluates to the value it was written from."""
    for value in (1, -(2**63), 2.5, 1e21, "é\n\"", b"\xff", [[1], [2]], {"a": None}, True):
        text = literal(value)
        compiled = compile(f"{text} == {text}")
        assert not isinstance(compiled, CelError), text

"""The hub models without pydantic (issue 33): no command imports it, and the models keep the value semantics
migrate's self-check and the engine rely on."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES, ROOT
from wasplan.api import hub
from wasplan.api.convert import from_hub, to_hub

_PROBE = """
import contextlib, io, json, sys
sys.argv = ["wasplan", *json.loads(sys.argv[1])]
from wasplan.cli.app import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main()
    except SystemExit as exc:
        code = exc.code
print(json.dumps([code, sorted(m for m in sys.modules if m.split(".")[0] == "pydantic")]))
"""


@pytest.mark.parametrize(("args", "code"), [
    (["plan", str(FIXTURES / "examples" / "training"), "--cluster", str(FIXTURES / "examples" / "cluster.yaml")], 0),
    (["migrate", str(FIXTURES / "manifests" / "training-1.37.yaml"), "--to-k8s", "1.38"], 0),
    (["explain", "podgroup/bert", "-n", "ml", str(FIXTURES / "explain" / "typo" / "gang.yaml"), "--cluster",
      str(FIXTURES / "explain" / "typo" / "cluster.yaml")], 1),
])
def test_no_command_imports_pydantic(args, code):
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert json.loads(done.stdout) == [code, []]


PODGROUP = {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
            "metadata": {"name": "g", "namespace": "ml"},
            "spec": {"workloadRef": {"workloadName": "w", "templateName": "t"},
                     "schedulingPolicy": {"gang": {"minCount": "3"}},
                     "schedulingConstraints": {"topology": [{"key": "rack"}]}},
            "status": {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "True"}]}}


def test_read_twice_is_equal_and_a_changed_copy_is_not():
    first, second = to_hub(PODGROUP), to_hub(PODGROUP)
    assert first == second and first is not second
    assert first.policy == hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=3)
    assert hash(first.policy) == hash(second.policy)
    changed = dataclasses.replace(first, policy=dataclasses.replace(first.policy, min_count=4))
    assert changed != first and first.policy.min_count == 3 and changed.topology_keys == ("rack",)


def test_the_models_are_frozen_and_take_no_unknown_field():
    group = to_hub(PODGROUP)
    with pytest.raises(dataclasses.FrozenInstanceError):
        group.priority = 5
    with pytest.raises(TypeError):
        hub.WorkloadRef(workload_name="w", template_name="t", extra="x")


def test_metadata_is_the_groups_own_copy():
    group = to_hub(PODGROUP)
    assert group.metadata == PODGROUP["metadata"] and group.metadata is not PODGROUP["metadata"]


def test_a_coerced_min_count_is_written_back_as_the_integer():
    written, losses = from_hub(to_hub(PODGROUP), "scheduling.k8s.io/v1beta1", keep_status=True)
    assert losses == [] and written["spec"]["schedulingPolicy"] == {"gang": {"minCount": 3}}
    assert written["status"] == {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "True"}]}


@pytest.mark.parametrize(("raw", "value"), [
    (3, 3), (True, 1), (False, 0), (3.0, 3), ("3", 3), (" 3 ", 3), ("+3", 3), ("-3", -3), ("03", 3), ("1_0", 10),
    ("3.00", 3), (b"7", 7), (10 ** 30, 10 ** 30),
])
def test_what_an_integer_field_reads_as_pydantic_read_it(raw, value):
    from wasplan.api.fields import integer
    assert integer(raw, "spec.priority") == value and type(integer(raw, "spec.priority")) is int


@pytest.mark.parametrize("raw", ["abc", "", " ", "3.", "3.5", "1e3", "0x10", "0b1", "1__0", "_1", "\u0663", "inf",
                                 2.5, float("inf"), float("nan"), 2.0 ** 70, [3], {"a": 1}, None])
def test_what_an_integer_field_refuses(raw):
    from wasplan.api.fields import integer
    with pytest.raises(ValueError, match=r"^spec\.priority: expected an integer, got "):
        integer(raw, "spec.priority")


@pytest.mark.parametrize(("raw", "value"), [("a", "a"), (hub.PolicyKind.GANG, "gang"), (b"x", "x")])
def test_what_a_string_field_reads(raw, value):
    from wasplan.api.fields import string
    assert string(raw, "spec.priorityClassName") == value and type(string(raw, "x")) is str


@pytest.mark.parametrize("raw", [5, True, 1.5, ["a"], None, b"\xff"])
def test_what_a_string_field_refuses(raw):
    from wasplan.api.fields import string
    with pytest.raises(ValueError, match=r"^spec\.priorityClassName: expected a string, got "):
        string(raw, "spec.priorityClassName")

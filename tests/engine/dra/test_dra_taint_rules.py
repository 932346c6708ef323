"""DeviceTaintRules (DRADeviceTaintRules): parsed with findings, applied to the slices the allocator sees, and
written back for the emitted snapshot. Semantics: k8s.io/api resource/v1 `DeviceTaintSelector` (an empty field
matches anything; no selector matches no device) and dra.md §2 (taints merged into slices)."""

from drahelp import (
    CLASS_A, DRIVER_A, DRIVER_B, NODE1, REGION1, allocate, claim, device, device_class, exact, node, parsed,
    resource_slice,
)
from wasplan.cluster.devices import DeviceTaint
from wasplan.cluster.dra_objects import dra_object
from wasplan.cluster.issues import Ctx
from wasplan.cluster.parse_dra import parse_dra_record
from wasplan.engine.dra import Allocator, apply_taint_rules


def rule(name, taint=None, **selector):
    spec = {"taint": taint or {"key": "maintenance", "effect": "NoSchedule"}}
    if selector.pop("selects", True):
        spec["deviceSelector"] = selector
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": name}, "spec": spec}


SLICES = [resource_slice("s1", NODE1, "pool-1", DRIVER_A, device("d0"), device("d1")),
          resource_slice("s2", NODE1, "pool-2", DRIVER_B, device("d0"))]


def taints_after(*rules):
    slices = apply_taint_rules([parsed(s) for s in SLICES], [parsed(r) for r in rules])
    return {(s.driver, s.pool, d.name): [t.key for t in d.taints] for s in slices for d in s.devices}


def test_selector_fields_narrow_the_devices():
    assert taints_after(rule("r", driver=DRIVER_A, device="d1")) == {
        (DRIVER_A, "pool-1", "d0"): [], (DRIVER_A, "pool-1", "d1"): ["maintenance"], (DRIVER_B, "pool-2", "d0"): []}
    assert taints_after(rule("r", pool="pool-2")) == {
        (DRIVER_A, "pool-1", "d0"): [], (DRIVER_A, "pool-1", "d1"): [], (DRIVER_B, "pool-2", "d0"): ["maintenance"]}


def test_empty_selector_matches_all_and_no_selector_matches_none():
    assert set(map(tuple, taints_after(rule("all")).values())) == {("maintenance",)}
    assert set(map(tuple, taints_after(rule("none", selects=False)).values())) == {()}


def test_rules_apply_in_name_order_and_untouched_slices_stay_the_same_objects():
    slices = [parsed(s) for s in SLICES]
    out = apply_taint_rules(slices, [parsed(rule("b", {"key": "b", "effect": "NoExecute"}, pool="pool-1")),
                                     parsed(rule("a", {"key": "a", "effect": "None"}, pool="pool-1"))])
    assert [t.key for t in out[0].devices[0].taints] == ["a", "b"]
    assert out[1] is slices[1]


def test_a_tainted_device_is_not_allocated():
    n1 = node(NODE1, REGION1)
    claims = [claim("c", exact("r", CLASS_A, 2))]
    classes = [parsed(device_class(CLASS_A, DRIVER_A))]
    tainted = apply_taint_rules([parsed(s) for s in SLICES], [parsed(rule("r", driver=DRIVER_A, device="d1"))])
    assert Allocator(tainted, classes).allocate(n1, [parsed(c) for c in claims]) is None
    assert allocate(claims, [device_class(CLASS_A, DRIVER_A)], SLICES, n1) is not None


def test_parse_and_write_back():
    obj = rule("r", {"key": "k", "value": "v", "effect": "NoExecute"}, driver=DRIVER_A, pool="p")
    record = parsed(obj)
    assert (record.taint, record.driver, record.pool, record.device, record.selects) == (
        DeviceTaint("k", "v", "NoExecute"), DRIVER_A, "p", "", True)
    assert dra_object(record) == obj


def test_a_rule_without_a_usable_taint_is_a_finding():
    ctx = Ctx(None)
    assert parse_dra_record(rule("r", {"key": "k", "effect": "Sometimes"}), ctx) is None
    assert [(d.code, d.location.field, d.message) for d in ctx.diags] == [
        ("WAS648", "spec.taint.effect", "device taint effect 'Sometimes' must be one of None, NoSchedule, NoExecute")]

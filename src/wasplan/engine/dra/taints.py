"""Device taints and request tolerations (DRADeviceTaints).

`taintPreventsAllocation` in `structured/internal/incubating/allocator_incubating.go` and `ToleratesTaint` in
`resourceclaim/devicetoleration.go` (v0.36.0): a `NoSchedule` or `NoExecute` taint that no toleration of the
request tolerates excludes the device; `None` never does. The toleration matcher is the engine's one
(engine/pluginapi/tolerations.py).

DeviceTaintRules (DRADeviceTaintRules: off in 1.36, on in 1.37) add their taint to every device their selector
matches, as if the driver had published it (the scheduler lists slices with the rules applied: dynamic-resource-
allocation `resourceslice/tracker`); `apply_taint_rules` returns the slices the allocator should see. A rule is
applied when it is created, so it changes only what is scheduled after it (draworld.py).

`evicting_taints` is the device taint eviction controller's test for one allocated device
(`pkg/controller/devicetainteviction` claimEvictionTime, v1.36.3 and v1.37.2): every NoExecute taint counts
unless a toleration recorded in the allocation result has effect NoExecute exactly (an empty effect, which the
allocator reads as "every effect", does not count here), tolerates the taint and has no tolerationSeconds. A
finite tolerationSeconds only delays the eviction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from wasplan.cluster.devices import Device, DeviceTaint, DeviceTaintRule, DeviceToleration, ResourceSlice
from wasplan.engine.pluginapi.tolerations import tolerates

BLOCKING = ("NoSchedule", "NoExecute")


def taint_blocks(device: Device, tolerations: tuple[DeviceToleration, ...]) -> bool:
    return any(taint.effect in BLOCKING and not any(tolerates(t, taint) for t in tolerations)
               for taint in device.taints)


def _rule_matches(rule: DeviceTaintRule, slice_: ResourceSlice, device: Device) -> bool:
    return rule.selects and all(not want or want == have for want, have in (
        (rule.driver, slice_.driver), (rule.pool, slice_.pool), (rule.device, device.name)))


def apply_taint_rules(slices: Iterable[ResourceSlice], rules: Iterable[DeviceTaintRule]) -> list[ResourceSlice]:
    """The slices with every matching rule's taint appended to each device (rules in name order); slices no rule
    touches are returned as they are."""
    ordered = sorted(rules, key=lambda r: r.name)
    out = []
    for s in slices:
        devices = tuple(replace(d, taints=d.taints + extra) if (extra := tuple(
            r.taint for r in ordered if _rule_matches(r, s, d))) else d for d in s.devices)
        changed = any(new is not old for new, old in zip(devices, s.devices))
        out.append(replace(s, devices=devices) if changed else s)
    return out


def evicting_taints(device: Device, tolerations: tuple[DeviceToleration, ...]) -> list[tuple[DeviceTaint, int | None]]:
    """The device's NoExecute taints the controller evicts for, each with the seconds the allocation's
    tolerations grant before it does (None: at once)."""
    out = []
    for taint in device.taints:
        if taint.effect != "NoExecute":
            continue
        grants = [t.toleration_seconds for t in tolerations if t.effect == "NoExecute" and tolerates(t, taint)]
        if None in grants:
            continue
        out.append((taint, max(0, min(grants)) if grants else None))
    return out

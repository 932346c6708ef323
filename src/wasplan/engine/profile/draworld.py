"""Setting up Dynamic Resource Allocation for one simulation: the DRA records of the inputs become the claim
store, the allocator's features come from the release and its gates, and the DynamicResources plugin is
registered with the cluster state as a stateful plugin (registry.py, state.py).

DeviceClasses, ResourceSlices, ResourceClaims and ResourceClaimTemplates are taken up front, wherever they
appear in the inputs: a pod never waits for a claim that the same change creates later in file order (upstream
it would wait until the claim arrives and then be scheduled; the plan shows where it ends up).

DeviceTaintRules are the exception: a taint changes what already runs, so its place in the story matters. Rules
of the cluster snapshot apply before anything is scheduled; a rule among the arrivals stays in the arrival
stream and takes effect when it is created (`Simulator.create`): later allocations see its taint, and with
NoExecute the device taint eviction controller deletes the bound pods whose devices it taints
(`evict_for_taints`; upstream pkg/controller/devicetainteviction).

This module is the one gate between a plan and the DRA engine: it imports neither the DRA records nor the
plugin at module level. A plan whose inputs hold no DRA object (`cluster/dra_gate.py`: none can exist while
their module is not loaded) and no pod with claims gets no plugin, and the records, the plugin, the claim store,
the allocator and CEL are never imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wasplan.cluster import dra_gate
from wasplan.engine.plugins.dynamic_resources import NAME

if TYPE_CHECKING:
    from wasplan.cluster.devices import DeviceTaintRule
    from wasplan.engine.plugins.dynamic_resources.plugin import DynamicResources


def _types(devices) -> tuple[type, ...]:
    """The top-level DRA records, in the order the claim store takes them."""
    return (devices.DeviceClass, devices.ResourceSlice, devices.ResourceClaim, devices.ResourceClaimTemplate,
            devices.DeviceTaintRule)


def features(options):
    """The allocator's feature flags from the gates and whether the release runs the 1.37 allocator."""
    from wasplan.engine.dra import Features

    return Features.from_gates(options.gates.on, options.caps)


EVICTION_REASON = "DeletionByDeviceTaintManager"  # the DisruptionTarget condition the controller writes


def split(records, keep_rules: bool = False) -> tuple[list, list]:
    """(DRA records, the others), each in input order; with `keep_rules` DeviceTaintRules stay with the others
    (arrivals, created at their position)."""
    devices = dra_gate.records()
    if devices is None:
        return [], list(records)
    dra, rest = [], []
    types, rule = _types(devices), devices.DeviceTaintRule
    for r in records:
        (dra if isinstance(r, types) and not (keep_rules and isinstance(r, rule)) else rest).append(r)
    return dra, rest


def taint_rules(records) -> list:
    """The DeviceTaintRules among `records`, in order."""
    devices = dra_gate.records()
    return [] if devices is None else [r for r in records if isinstance(r, devices.DeviceTaintRule)]


def is_taint_rule(record) -> bool:
    devices = dra_gate.records()
    return devices is not None and isinstance(record, devices.DeviceTaintRule)


def install(state, records, options, pods_claim: bool = True, later_rules=()) -> DynamicResources | None:
    """The plugin, registered with `state`; None when there is nothing for it to do (no DRA object, no pod with
    claims), so plans without DRA pay nothing for it. `later_rules` are the DeviceTaintRules among the arrivals:
    kept for the emitted snapshot, applied only when created."""
    if not records and not pods_claim and not later_rules:
        return None
    # the records, the plugin, the allocator and CEL load only for plans that use DRA
    from wasplan.cluster import devices as d
    from wasplan.engine.dra.claimstore import ClaimStore
    from wasplan.engine.plugins.dynamic_resources.plugin import DynamicResources

    of = {t: [r for r in records if isinstance(r, t)] for t in _types(d)}
    slices = of[d.ResourceSlice]
    if of[d.DeviceTaintRule] and options.gates.on.dra_device_taint_rules:
        from wasplan.engine.dra import apply_taint_rules

        slices = apply_taint_rules(slices, of[d.DeviceTaintRule])  # what the scheduler's slice lister returns
    store = ClaimStore(of[d.DeviceClass], slices, of[d.ResourceClaimTemplate], of[d.ResourceClaim], features(options))
    store.inputs = (*of[d.DeviceClass], *of[d.ResourceSlice], *of[d.DeviceTaintRule], *later_rules,
                    *of[d.ResourceClaimTemplate])
    plugin = DynamicResources(store, state, options.gates)
    state.register(NAME, plugin)
    state.waive(plugin.backed)
    return plugin


def taint_rule_created(plugin: DynamicResources | None, rule: DeviceTaintRule, options) -> bool:
    """Apply a DeviceTaintRule created during the plan; True when the device taint eviction controller must look
    at the bound pods (a NoExecute taint)."""
    if plugin is None or not options.gates.on.dra_device_taint_rules:
        return False
    plugin.add_taint_rule(rule)
    return rule.selects and rule.taint.effect == "NoExecute"


def eviction_message(found: list[tuple[str, str, int | None]]) -> str:
    """The plan's message for a pod the controller deletes: its devices and taints, and when a toleration only
    delays the eviction, the delay (the plan shows the cluster after it)."""
    device, taint, seconds = min(found, key=lambda f: f[2] or 0)
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    after = f" after the {seconds} s its toleration allows" if seconds is not None else ""
    return (f"deleted by the device taint eviction controller{after}: device {device} has taint {taint} that "
            f"its request does not tolerate{more}")


def stranded(plugin: DynamicResources | None, world, state) -> list[tuple[str, str, str]]:
    """Pods the plan binds to a node their allocated devices cannot reach: (pod key, node, claim key). The
    release's own scheduler does this in 1.36 (a PodGroup member reusing an allocation an earlier member made in
    the same cycle is not held to its nodeSelector, kubernetes/kubernetes#140087, fixed in 1.37 by #140089); the
    plan follows upstream and the pipeline names it (WAS710)."""
    from wasplan.engine.pluginapi.selectors import terms_match_node
    from wasplan.engine.cache.world import SimStatus

    if plugin is None:
        return []
    out = []
    for ps in sorted(world.pods.values(), key=lambda p: p.pod.key):
        if ps.status != SimStatus.BOUND or ps.node not in state.index:
            continue
        node = state.nodes[state.index[ps.node]]
        for claim_state in plugin.claims_of(ps.pod):
            allocation = claim_state.claim.allocation
            if allocation is not None and allocation.node_selector is not None and not terms_match_node(
                    allocation.node_selector, node.labels, node.name):
                out.append((ps.pod.key, ps.node, claim_state.claim.key))
    return out

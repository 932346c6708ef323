"""Setting up Dynamic Resource Allocation for one simulation: the DRA records of the inputs become the claim
store, the allocator's features come from the release and its gates, and the DynamicResources plugin is
registered with the cluster state as a stateful plugin (registry.py, state.py).

DeviceClasses, ResourceSlices, ResourceClaims and ResourceClaimTemplates are taken up front, wherever they
appear in the inputs: a pod never waits for a claim that the same change creates later in file order (upstream
it would wait until the claim arrives and then be scheduled; the plan shows where it ends up).
"""

from __future__ import annotations

from wasplan.cluster.devices import DeviceClass, DeviceTaintRule, ResourceClaim, ResourceClaimTemplate, ResourceSlice
from wasplan.engine.plugins.dynamic_resources import NAME, DynamicResources

DRA_TYPES = (DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule)


def features(options):
    """The allocator's feature flags from the gates and whether the release runs the 1.37 allocator."""
    from wasplan.engine.dra import Features

    return Features.from_gates(options.gates.enabled, options.caps)


def split(records) -> tuple[list, list]:
    """(DRA records, the others), each in input order."""
    dra, rest = [], []
    for r in records:
        (dra if isinstance(r, DRA_TYPES) else rest).append(r)
    return dra, rest


def install(state, records, options, pods_claim: bool = True) -> DynamicResources | None:
    """The plugin, registered with `state`; None when there is nothing for it to do (no DRA object, no pod with
    claims), so plans without DRA pay nothing for it."""
    if not records and not pods_claim:
        return None
    from wasplan.engine.claimstore import ClaimStore  # the allocator and CEL load only for plans that use DRA

    of = {t: [r for r in records if isinstance(r, t)] for t in DRA_TYPES}
    slices = of[ResourceSlice]
    if of[DeviceTaintRule] and options.gates.enabled("DRADeviceTaintRules"):
        from wasplan.engine.dra import apply_taint_rules

        slices = apply_taint_rules(slices, of[DeviceTaintRule])  # what the scheduler's slice lister returns
    store = ClaimStore(of[DeviceClass], slices, of[ResourceClaimTemplate], of[ResourceClaim], features(options))
    store.inputs = (*of[DeviceClass], *of[ResourceSlice], *of[DeviceTaintRule], *of[ResourceClaimTemplate])
    plugin = DynamicResources(store, state, options.gates)
    state.register(NAME, plugin)
    state.waive(plugin.backed)
    return plugin

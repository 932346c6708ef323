"""The DRA dimension of the exact check: device columns beside the resource columns, and the pods' choices.

The DynamicResources filter allocates a pod's claims node by node, first fit (engine/dra, upstream's structured
allocator), and kube-scheduler never revisits an earlier member's devices (kubernetes/kubernetes issue 138765).
Here the group's device needs become columns of the program (built in devicecolumns.py), each a necessary
condition, so the program stays a relaxation of the engine and "no assignment" stays a proof:

* devices: one column per selectable device set (class and request selectors and tolerations, as the engine's
  per-node pre-check `engine/dra/precheck.py` computes it with its selector cache; this module only reads that
  table): free selectable devices per node (unallocated, untainted, reachable from the node), and per pod the
  devices its own claims' `ExactCount` requests ask for;
* counters (partitionable devices): one column per shared counter, what the node's pools still have (the
  allocator's own `available_counters`), and per pod at least the smallest consumption of a selectable device;
* `firstAvailable`: a pod shape becomes one variant per combination of subrequests of its own claims, and the
  program places each pod as one of them (the solver's choice is what the witness replay allocates);
* every pod's nodes are narrowed to those where the DynamicResources filter accepts it on its own (its claims'
  allocations pin it, the pre-check or the allocator per node says its devices fit);
* a claim the group's pods share (a PodGroup-level claim, or one claim named by several pods) is allocated once,
  by the first of them, and pins the others to where its devices are: with node-local devices only, the
  program keeps those pods on one node (`together`);
* network-attached devices count on every node that reaches them, and once for the whole group (`totals`).

What the columns leave out — the devices of a claim the group's pods share, `allocationMode: All`,
`matchAttribute`/`distinctAttribute` constraints, consumable capacity, which nodes share a network-attached device,
overlapping device sets — is named in `relaxed`: the replay through the real allocator (witness.py) then decides,
and an assignment it rejects makes the answer Unknown with those names, never a fit.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import numpy as np

from wasplan.cluster.devices import ClaimSpec, DeviceRequest
from wasplan.engine.facade import dynamic_resources
from wasplan.explain.exact.devicecolumns import Builder, Columns
from wasplan.explain.exact.result import Choice
from wasplan.explain.exact.shapes import Shape


def plugin_of(ev):
    """The DynamicResources plugin when the plan has one and the pods' profile runs its filter, else None."""
    plugin = ev.state.plugins.get(dynamic_resources.NAME)
    return plugin if plugin is not None and ev.profile.filter_on(dynamic_resources.NAME) else None


def expand(ev, shapes: list[Shape]) -> tuple[list[Shape], Columns | None]:
    """The shapes split by what their claims ask for (firstAvailable variants included), with the device
    columns; (shapes, None) when no pod of the group has claims."""
    plugin = plugin_of(ev)
    if plugin is None or not any(dynamic_resources.has_claims(p) for s in shapes for p in s.members):
        return shapes, None
    sharing = _sharing(plugin, shapes)
    out: list[Shape] = []
    for s in shapes:
        for members in _split(plugin, s.members, sharing):
            part = dataclasses.replace(s, members=members)
            if dynamic_resources.has_claims(part.pod):
                part.allowed = part.allowed & _dra_allowed(ev, plugin, part.pod)
            out.append(part)
    return Builder(ev, plugin, sharing).build(out)


def _sharing(plugin, shapes: list[Shape]) -> dict[str, int]:
    """Unallocated claim key -> how many of the group's pods use it."""
    uses: dict[str, int] = {}
    for s in shapes:
        for pod in s.members:
            for state in plugin.claims_of(pod):
                if state.claim.allocation is None:
                    uses[state.claim.key] = uses.get(state.claim.key, 0) + 1
    return uses


def _signature(plugin, pod, sharing: dict[str, int]) -> tuple:
    """What the pod's claims ask of a node: an allocated claim only where its allocation is reachable (pods
    whose claims pin the same nodes stay one shape), a shared one by name (`together`), its own ones by spec."""
    out = []
    for state in plugin.claims_of(pod):
        claim = state.claim
        if claim.allocation is not None:
            out.append(("allocated", claim.allocation.node_selector))
        elif sharing.get(claim.key, 0) > 1:
            out.append(("shared", claim.key))
        else:
            out.append(("own", claim.spec))
    return tuple(out) + (bool(plugin.extended.get(pod.key)), enqueued(plugin, pod))


def _split(plugin, members: list, sharing: dict[str, int]) -> list[list]:
    parts: dict[tuple, list] = {}
    for pod in members:
        parts.setdefault(_signature(plugin, pod, sharing), []).append(pod)
    return list(parts.values())


def _dra_allowed(ev, plugin, pod) -> np.ndarray:
    """Nodes where the DynamicResources filter accepts the pod on its own: its allocated claims reachable, its
    other claims (and DRA-backed extended resources) allocatable now."""
    n = len(ev.state.nodes)
    if not enqueued(plugin, pod) or plugin.pre_filter(pod) is not None:
        return np.zeros(n, dtype=bool)
    quick = plugin.precheck(pod, plugin.to_allocate(pod))
    if quick is not None:
        return (quick == 0) & plugin.pinned(pod)
    return plugin.every_node(pod) == 0


def enqueued(plugin, pod) -> bool:
    """Whether DynamicResources' PreEnqueue let the pod in (its claims resolved): a pod waiting for a missing
    ResourceClaim or template never enters a scheduling cycle, so no node takes it."""
    return pod.key in plugin.refs


def narrowed_spec(spec: ClaimSpec, picks: dict[int, int]) -> ClaimSpec:
    """The claim with each chosen firstAvailable request cut to its one chosen subrequest (the allocator still
    names results `request/subrequest`)."""
    requests = tuple(DeviceRequest(r.name, None, (r.first_available[picks[ri]],)) if ri in picks else r
                     for ri, r in enumerate(spec.requests))
    return dataclasses.replace(spec, requests=requests)


@contextmanager
def narrowed(ev, pod, variant: tuple):
    """While inside, the pod's own claims offer the allocator only the variant's subrequests: the witness's device
    choice, allocated by the engine's own allocator (restored on leaving)."""
    plugin = plugin_of(ev)
    if not variant or plugin is None:
        yield
        return
    claims = [s.claim for s in plugin.claims_of(pod)]
    kept = [(c, c.spec) for c in claims]
    try:
        for ci, claim in enumerate(claims):
            picks = {ri: j for cj, ri, j in variant if cj == ci}
            if picks:
                claim.spec = narrowed_spec(claim.spec, picks)
        yield
    finally:
        for claim, spec in kept:
            claim.spec = spec


def accepts(ev, pod, row: int) -> bool:
    """Whether the DynamicResources filter accepts the pod on `row` now (allocated claims reachable, the others
    allocatable by the engine's allocator); a Filter error counts as a rejection."""
    plugin = plugin_of(ev)
    if plugin is None or not dynamic_resources.has_claims(pod):
        return True
    if not enqueued(plugin, pod) or plugin.pre_filter(pod) is not None or not plugin.pinned(pod)[row]:
        return False
    try:
        return plugin.check(pod, row, plugin.to_allocate(pod))[0] == 0
    except dynamic_resources.FilterError:
        return False


def choices_made(ev, shapes: list[Shape], chosen: dict[str, tuple[int, object]]) -> tuple[Choice, ...]:
    """The firstAvailable subrequests the assignment's pods use (`chosen`: witness.assign), in pod order."""
    plugin = plugin_of(ev)
    out = []
    for key, (i, pod) in sorted(chosen.items()):
        if not shapes[i].variant:
            continue
        states = plugin.claims_of(pod)
        templates = {f"{pod.namespace}/{r.name}": r.template for r in plugin.refs.get(pod.key, ())}
        for pos, ri, j in shapes[i].variant:
            claim = states[pos].claim
            request = claim.spec.requests[ri]
            template = templates.get(claim.key)
            out.append(Choice(key, claim.key, request.name, request.first_available[j].name,
                              f"{pod.namespace}/{template}" if template else None))
    return tuple(out)

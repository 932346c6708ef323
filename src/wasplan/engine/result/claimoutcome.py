"""The plan's `resourceClaims[]` (DESIGN.md §4, docs/plan-json.md): every ResourceClaim of the inputs and every
claim the plan generated, with its devices, the node a node-local allocation is bound to and its consumers.

Status: `AlreadyAllocated` - allocated in the inputs and left as it was; `Allocated` - the plan allocated it;
`Pending` - unallocated after the plan (its `message` is the last failure of a pod that needed it).
"""

from __future__ import annotations

from wasplan.cluster.claims import POD_CLAIM_NAME_ANNOTATION
from wasplan.engine.dra.claimstore import PODGROUPS, ClaimState
from wasplan.plan import ClaimDevice, ClaimOutcome, ClaimOwner, ClaimStatus, Consumer


def allocation_node(allocation) -> str | None:
    """The node of a node-local allocation (`matchFields metadata.name In [N]`), else None."""
    terms = allocation.node_selector if allocation is not None else None
    if not terms or len(terms) != 1 or terms[0].match_expressions or len(terms[0].match_fields) != 1:
        return None
    req = terms[0].match_fields[0]
    return req.values[0] if req.key == "metadata.name" and req.operator == "In" and len(req.values) == 1 else None


def _owner(state: ClaimState) -> ClaimOwner | None:
    if state.owner is not None:
        return state.owner
    claim = state.claim
    entry = claim.annotations.get(POD_CLAIM_NAME_ANNOTATION)
    for ref in claim.owners:
        if ref.controller and ref.kind in ("Pod", "PodGroup") and entry:
            return ClaimOwner(ref.kind, ref.name, entry)
    return None


def claim_outcome(state: ClaimState) -> ClaimOutcome:
    claim, allocation = state.claim, state.claim.allocation
    if allocation is None:
        status = ClaimStatus.PENDING
    else:
        status = ClaimStatus.ALREADY_ALLOCATED if state.input_allocated else ClaimStatus.ALLOCATED
    devices = tuple(ClaimDevice(r.request, r.driver, r.pool, r.device, bool(r.admin_access))
                    for r in (allocation.results if allocation is not None else ()))
    consumers = tuple(Consumer("PodGroup" if c.resource == PODGROUPS else "Pod", claim.namespace, c.name)
                      for c in claim.reserved_for)
    return ClaimOutcome(claim.namespace, claim.name, status, _owner(state), allocation_node(allocation), devices,
                        consumers, state.message if allocation is None else "")


def claim_outcomes(plugin) -> tuple[ClaimOutcome, ...]:
    if plugin is None:
        return ()
    states = sorted(plugin.store.claims.values(), key=lambda s: (s.claim.namespace, s.claim.name))
    return tuple(claim_outcome(s) for s in states)

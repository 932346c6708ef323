"""Every ResourceClaim of a plan as the scheduler's claim cache sees it, and the devices they hold.

Claims from the inputs are copied (the engine changes `allocation` and `reservedFor`, never the parsed
record); claims the ResourceClaim controller generates from templates (cluster/claims.py) are added when a pod
first needs them. Devices held by allocated claims are in the allocator's in-use ledger (engine/dra). Every
change a scheduling decision makes goes through `allocate` / `reserve` and returns an undo token, which the
DynamicResources plugin hands to the cluster state's journal, so gang trials, placement trials and preemption
dry runs roll claims back together with the pods (no copy of the store is ever made).

Consumers in `reservedFor` follow upstream's `ResourceClaimConsumerReference`: `{resource: pods}` for a pod,
`{apiGroup: scheduling.k8s.io, resource: podgroups}` for a PodGroup (KEP-5729).
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.cluster.api_objects import stable_uid
from wasplan.cluster.claims import ClaimOwner, copy_claim
from wasplan.cluster.devices import Allocation, Consumer, ResourceClaim

PODS, PODGROUPS, GROUP_API = "pods", "podgroups", "scheduling.k8s.io"


def pod_consumer(namespace: str, name: str, uid: str | None = None) -> Consumer:
    return Consumer(PODS, name, "", uid or stable_uid(namespace, "Pod", name))


def group_consumer(namespace: str, name: str) -> Consumer:
    return Consumer(PODGROUPS, name, GROUP_API, stable_uid(namespace, "PodGroup", name))


def same_consumer(a: Consumer, b: Consumer) -> bool:
    """reservedFor entries name the same object (uids of hand-written inputs may be missing or differ)."""
    return a.resource == b.resource and a.name == b.name


@dataclass(slots=True)
class ClaimState:
    claim: ResourceClaim  # the engine's copy: allocation and reserved_for change during the plan
    owner: ClaimOwner | None = None  # set for claims generated from a template
    input_allocated: bool = False  # already allocated in the inputs (AlreadyAllocated while it stays so)
    message: str = ""  # the last failure of a pod that needed it, while it stays unallocated


@dataclass(slots=True)
class Undo:
    """What one reservation changed on one claim: its allocation and consumers before."""

    state: ClaimState
    allocation: Allocation | None
    reserved_for: tuple[Consumer, ...]
    added: Allocation | None  # results put into the ledger by this reservation
    created: bool = False  # the reservation created the claim (DRA-backed extended resources): undo deletes it


class ClaimStore:
    def __init__(self, classes, slices, templates, claims, features):
        from wasplan.engine.dra import Allocator, InUseLedger  # loads CEL: only for plans that use DRA

        self.classes = {c.name: c for c in classes}
        self.slices = list(slices)
        self.templates = {t.key: t for t in templates}
        self.ledger = InUseLedger()
        self.allocator = Allocator(self.slices, classes, self.ledger, features)
        self.claims: dict[str, ClaimState] = {}
        for claim in claims:
            self.add(copy_claim(claim))
        self.removed: set[str] = set()  # generated claims deleted with their pod (preemption victims)
        self.inputs: tuple = ()  # the DRA objects as the inputs gave them, for the emitted snapshot

    def add(self, claim: ResourceClaim, owner: ClaimOwner | None = None) -> ClaimState:
        state = ClaimState(claim, owner, input_allocated=claim.allocation is not None)
        self.claims[claim.key] = state
        if claim.allocation is not None:
            self.ledger.add(claim.allocation.results)
        return state

    def get(self, key: str) -> ClaimState | None:
        return self.claims.get(key)

    # ---- devices -----------------------------------------------------------------------------------------------
    def add_taint_rule(self, rule) -> None:
        """A DeviceTaintRule created now: its taint joins the devices it selects, for every later allocation (the
        scheduler's slice tracker re-publishes the slices; the allocator's index is rebuilt from them)."""
        from wasplan.engine.dra import apply_taint_rules
        from wasplan.engine.dra.pools import SliceIndex

        self.slices = apply_taint_rules(self.slices, [rule])
        self.allocator.index = SliceIndex(self.slices, self.allocator.features)

    def device(self, result):
        """The device an allocation result names, as the slices publish it now (None when no slice has it)."""
        for s in self.slices:
            if s.driver == result.driver and s.pool == result.pool:
                for d in s.devices:
                    if d.name == result.device:
                        return d
        return None

    # ---- changes with undo -------------------------------------------------------------------------------------
    def reserve(self, state: ClaimState, consumer: Consumer, allocation: Allocation | None) -> Undo:
        """Allocate (when `allocation` is given and the claim has none) and add `consumer` to reservedFor."""
        claim = state.claim
        undo = Undo(state, claim.allocation, claim.reserved_for, None)
        if allocation is not None and claim.allocation is None:
            claim.allocation = allocation
            self.ledger.add(allocation.results)
            undo.added = allocation
        if not any(same_consumer(c, consumer) for c in claim.reserved_for):
            claim.reserved_for = (*claim.reserved_for, consumer)
        return undo

    def create(self, claim: ResourceClaim, owner: ClaimOwner) -> tuple[ClaimState, Undo]:
        """A claim the scheduler itself creates (PreBind of a DRA-backed extended resource), with its undo."""
        state = ClaimState(claim, owner)
        self.claims[claim.key] = state
        return state, Undo(state, None, (), None, created=True)

    def undo(self, undo: Undo) -> None:
        claim = undo.state.claim
        if undo.added is not None:
            self.ledger.remove(undo.added.results)
        claim.allocation, claim.reserved_for = undo.allocation, undo.reserved_for
        if undo.created:
            del self.claims[claim.key]

    def deallocate(self, state: ClaimState) -> None:
        """Clear allocation and reservations (PostFilter, the controller after the last consumer left)."""
        claim = state.claim
        if claim.allocation is not None:
            self.ledger.remove(claim.allocation.results)
        claim.allocation, claim.reserved_for = None, ()
        state.input_allocated = False

    def release(self, consumer: Consumer, keys) -> None:
        """A consumer is gone for good (an evicted pod): the controller drops it from `reservedFor`,
        deallocates a claim nobody holds any more and deletes the claims generated for that pod."""
        for key in keys:
            state = self.claims.get(key)
            if state is None:
                continue
            kept = tuple(c for c in state.claim.reserved_for if not same_consumer(c, consumer))
            if len(kept) == len(state.claim.reserved_for):
                continue
            state.claim.reserved_for = kept
            if not state.claim.reserved_for:
                self.deallocate(state)
            if state.owner is not None and state.owner.kind == "Pod" and consumer.resource == PODS \
                    and state.owner.name == consumer.name:
                del self.claims[key]
                self.removed.add(key)

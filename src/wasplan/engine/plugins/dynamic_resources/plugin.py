"""The DynamicResources plugin's stateful object (upstream
pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go, read at the 1.36-development revision
6e77b7b0 and the post-1.37 revision 04f5fdea; semantics in dra.md §3, §7). Its name, reasons and texts are in
the package's `__init__.py`, which every plan loads; this module and the allocator load only for plans that use DRA
(engine/profile/draworld.py `install`).

The one stateful plugin: it keeps the plan's ResourceClaims (engine/dra/claimstore.py) and drives the structured
allocator (engine/dra). Per extension point:

* PreEnqueue (engine/dra/draclaims.py): every `spec.resourceClaims` entry must name an existing claim that is not
  being deleted and, for a template entry, was generated for this pod (or, with DRAWorkloadResourceClaims, for its
  PodGroup); the ResourceClaim controller (cluster/claims.py) runs first and generates missing template claims.
* Extended resources backed by a DeviceClass (engine/dra/extendedclaim.py): on nodes that do not publish the
  resource, a per-node claim is allocated last, after the pod's own claims, and created at Reserve.
* PreFilter: every request's device class of an unallocated claim must exist.
* Filter: an allocated claim pins the pod to its `allocation.nodeSelector` ("resourceclaim not available on the
  node"), except in 1.36 for an allocation an earlier member of the pod's PodGroup made in the same, unfinished
  group cycle: v1.36.5's PreFilter reuses that pending allocation without setting the claim's `availableOnNodes`
  (`PreFilter`, "reusing pending allocation"), so later members go wherever the other plugins send them while the
  claim stays on the first member's node; v1.37.2 sets it (`cycle_pending`). The unallocated claims go to the
  allocator ("cannot allocate all claims"). An allocator error (CEL
  runtime error, `All` on an incomplete pool, ...) aborts the whole attempt, as a Filter Error does upstream.
  Filter is the last filter in upstream's order, so the framework runs it only on nodes every other filter
  accepts, best score first (see `late_filter`).
* Score: claims with `firstAvailable` score 8 - index of the subrequest used, normalised to 100.
* Reserve / Unreserve: the node's allocation is written into the claims and the consumer added to
  `reservedFor` (the PodGroup for a group claim when DRAWorkloadResourceClaims is on, else the pod); the undo
  token goes into the cluster state's journal, so a failed gang, a placement trial or a preemption dry run
  gives the devices back. A later member of the same PodGroup cycle sees the earlier member's allocation
  (upstream's pending allocations shared inside the cycle), and its results are paired with its claims in
  upstream's order, the allocator's first and the cycle's pending ones after them (`_paired`).
* PreBind: `reservedFor` holds at most 256 consumers; one more fails the binding as the API server would (checked
  for pods scheduled on their own; members of a PodGroup cycle are bound without this check).
* PostFilter (pod cycles): an allocated claim that kept the pod off some node and is reserved for nobody else
  is deallocated (the lowest name first; upstream picks at random) and the pod retried. When nothing is
  deallocated, 1.36 says `still not schedulable` (`no new claims to deallocate` when PreFilter left no claims);
  1.37's PostFilter returns a bare Unschedulable (v1.37.2 `PostFilter` / `deallocateOrDeletePodClaims`), so
  the FitError carries no DynamicResources text (`post_filter_text`).

Preemption in 1.36/1.37 never frees a victim's devices (no PreFilterExtensions upstream; DRA-aware preemption
is 1.38's DRAPreemption), and DRA's rejections are UnschedulableAndUnresolvable, so those nodes are no
preemption candidates.
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster import claims as controller
from wasplan.cluster.api_objects import stable_uid
from wasplan.cluster.devices import RESERVED_FOR_MAX
from wasplan.engine.dra import extendedclaim as ext
from wasplan.engine.dra.draclaims import PodClaims, backed_classes
from wasplan.engine.dra.claimstore import ClaimState, ClaimStore, pod_consumer, same_consumer
from wasplan.engine.pluginapi.selectors import terms_match_node
from wasplan.engine.pluginapi.status import REASONS, Code
from wasplan.engine.plugins.dynamic_resources import (CANNOT_ALLOCATE, DEALLOCATED, INVALID, NAME, NO_NEW_CLAIMS,
                                                      NOT_AVAILABLE, STILL_NOT_SCHEDULABLE, FilterError,
                                                      filter_error_message, post_filter_text)


def too_many_msg(name: str, count: int) -> str:
    return (f'ResourceClaim.resource.k8s.io "{name}" is invalid: status.reservedFor: Too many: {count}: must have at '
            f"most {RESERVED_FOR_MAX} items")


class DynamicResources(PodClaims):
    NAME = NAME

    def __init__(self, store: ClaimStore, state, gates):
        self.store, self.state = store, state
        self.group_claims_on = gates.on.dra_workload_resource_claims
        self.caps = gates.release.caps
        self.backed = backed_classes(store, gates)  # extended resource name -> DeviceClass (DRAExtendedResource)
        self.extended: dict[str, list] = {}  # pod key -> its DRA-backed requests (extendedclaim.py)
        self.refs: dict[str, list[controller.ClaimRef]] = {}  # pod key -> its entries, resolved at PreEnqueue
        self.group_claims: dict[str, dict[str, str]] = {}  # PodGroup key -> entry -> generated claim name
        self._found: tuple | None = None  # (pod key, row, epoch, ledger version, NodeAllocation): last Filter
        self._precheck: tuple[int, Precheck] | None = None  # (state epoch, the vectorised check for its nodes)

    # ---- PreFilter ---------------------------------------------------------------------------------------------
    def pre_filter(self, pod) -> str | None:
        """Checks of the unallocated claims that stop the cycle (UnschedulableAndUnresolvable): a request naming a
        device class that does not exist, subrequests while DRAPrioritizedList is off."""
        for state in self.claims_of(pod):
            if state.claim.allocation is None:
                problem = self._request_problem(state.claim)
                if problem is not None:
                    return problem
        return None

    def _request_problem(self, claim) -> str | None:
        for request in claim.spec.requests:
            if request.exactly is not None and request.exactly.device_class_name not in self.store.classes:
                return f"request {request.name}: device class {request.exactly.device_class_name} does not exist"
            if request.first_available and not self.store.allocator.features.prioritized_list:
                return (f"resource claim {claim.key}, request {request.name}: has subrequests, but the "
                        "DRAPrioritizedList feature is disabled")
            for sub in request.first_available:
                if sub.device_class_name not in self.store.classes:
                    return f"request {request.name}/{sub.name}: device class {sub.device_class_name} does not exist"
        return None

    # ---- Filter ------------------------------------------------------------------------------------------------
    def pinned(self, pod) -> np.ndarray:
        """Rows every allocated claim of the pod can be used on (its allocation.nodeSelector; None = anywhere)."""
        ok = np.ones(len(self.state.nodes), dtype=bool)
        unpinned = () if self.caps.dra_cycle_allocation_pins else self.cycle_pending(pod)
        for state in self.claims_of(pod):
            allocation = state.claim.allocation
            if allocation is None or allocation.node_selector is None or state.claim.key in unpinned:
                continue
            ok &= _selector_rows(self.state, allocation.node_selector)
        return ok

    def cycle_pending(self, pod) -> set[str]:
        """Keys of the claims that earlier members of the pod's PodGroup allocated in the group cycle under way:
        their reservations are still in the cluster state's journal (a group cycle commits once, at its end; a
        pod's own cycle commits right after its Reserve), as upstream's pending allocations live until PreBind."""
        if pod.pod_group is None or not self.state.journal:
            return set()
        mine = self.state.stateful.index(self)
        out = set()
        for action, other, _row, tokens in self.state.journal:
            if action != "reserve" or other.pod_group != pod.pod_group or other.namespace != pod.namespace:
                continue
            out.update(undo.state.claim.key for undo in tokens[mine] or () if undo.added is not None)
        return out

    def to_allocate(self, pod) -> list[ClaimState]:
        return [s for s in self.claims_of(pod) if s.claim.allocation is None]

    def _claims_for(self, pod, row: int, pending: list[ClaimState]) -> list:
        """The claims to allocate on a node: the pod's unallocated ones, then its extended-resource claim."""
        claims = [s.claim for s in pending]
        requests = self.extended.get(pod.key)
        extra = ext.node_claim(pod, requests, self.backed, self.state.nodes[row]) if requests else None
        return claims + [extra] if extra is not None else claims

    def check(self, pod, row: int, pending: list[ClaimState]):
        """Filter on one node for the unallocated claims: (reason id, NodeAllocation or None). Raises
        FilterError when the allocator returns an error."""
        claims = self._claims_for(pod, row, pending)
        if not claims:
            return 0, None
        from wasplan.engine.dra import AllocationError, NodeUnschedulable  # the allocator loads CEL: only when used
        try:
            found = self.store.allocator.allocate(self.state.nodes[row], claims)
        except AllocationError as exc:
            raise FilterError(filter_error_message(str(exc))) from None
        except NodeUnschedulable as exc:
            return REASONS.intern(str(exc), Code.UNRESOLVABLE), None
        if found is None:
            return CANNOT_ALLOCATE, None
        self._found = (pod.key, row, self.state.epoch, self.store.ledger.version, found)
        return 0, found

    def precheck(self, pod, pending: list[ClaimState]) -> np.ndarray | None:
        """Filter's reason on every node at once where the allocator's vectorised check is exact for these
        claims (node-local devices, plain ExactCount requests), else None. A pod with DRA-backed extended
        requests qualifies only while no node serves them itself (its claim is then the same everywhere)."""
        claims = [s.claim for s in pending]
        requests = self.extended.get(pod.key)
        if requests:
            names = {r[1] for r in requests}
            if any(n.allocatable.get(name, 0) for n in self.state.nodes for name in names):
                return None
            claims.append(ext.node_claim(pod, requests, self.backed, self.state.nodes[0]))
        from wasplan.engine.dra import Precheck

        if self._precheck is None or self._precheck[0] != self.state.epoch:
            self._precheck = (self.state.epoch, Precheck(self.store.allocator, self.state.nodes))
        result = self._precheck[1].check(claims)
        if not result.exact:
            return None
        return np.where(result.feasible, 0, np.where(result.invalid, INVALID, CANNOT_ALLOCATE)).astype(np.int32)

    def every_node(self, pod) -> np.ndarray:
        """Filter on every node on its own (the recorder's view); an allocator error counts as that node's
        reason here."""
        reasons = np.where(self.pinned(pod), 0, NOT_AVAILABLE).astype(np.int32)
        pending = self.to_allocate(pod)
        for row in np.flatnonzero(reasons == 0).tolist():
            try:
                reasons[row] = self.check(pod, row, pending)[0]
            except FilterError as exc:
                reasons[row] = REASONS.intern(str(exc), Code.UNRESOLVABLE)
        return reasons

    def scores_needed(self, pod) -> bool:
        """Score needs every feasible node's allocation when a claim to allocate has firstAvailable requests."""
        return any(r.first_available for s in self.to_allocate(pod) for r in s.claim.spec.requests)

    # ---- Reserve / Unreserve (StatefulPlugin) -----------------------------------------------------------------
    def reserve(self, pod, row: int):
        if not pod.resource_claims or pod.key not in self.refs:
            return None
        claims = self.claims_of(pod)
        pending = [s for s in claims if s.claim.allocation is None]
        found = self._allocation_for(pod, row, pending)
        given, extended = self._paired(pod, claims, pending, found)
        undo = [self.store.reserve(state, self._consumer(pod, state), given.get(state.claim.key)) for state in claims]
        if extended is not None:  # PreBind creates the extended claim
            undo += self._create_extended(pod, row, extended)
        return undo

    def _paired(self, pod, claims: list[ClaimState], pending: list[ClaimState], found):
        """Which allocation Reserve records for which claim: ({claim key: allocation}, the extended claim's).

        Upstream's Filter keeps the node's results as the allocator's (for the claims it allocated, in claim
        order, the extended claim last) followed by the pending allocations earlier members of the PodGroup cycle
        made, while Reserve hands them out in claim order over every claim not allocated at the cycle's start
        (v1.36.5 and v1.37.2 `Filter`: `allocations = append(allocationResult, pendingResult...)`; `Reserve`:
        `allocationResults[allocIndex]`). So when a claim shared in the cycle comes before one of the member's
        own, the member's claim records the shared claim's devices and its own go unrecorded; the shared claim
        keeps the allocation it has. Without such a claim the pairing is the plain one."""
        fresh = list(found.allocations) if found is not None else []
        cycle = self.cycle_pending(pod) if fresh else set()
        shared = [s for s in claims if s.claim.allocation is not None and s.claim.key in cycle]
        slots = [s.claim.key for s in claims if s.claim.allocation is None or s.claim.key in cycle]
        if len(fresh) > len(pending):
            slots.append(None)  # the extended-resource claim, last
        values = fresh + [s.claim.allocation for s in shared] if shared else fresh
        if not shared:
            slots = [s.claim.key for s in pending] + ([None] if len(fresh) > len(pending) else [])
        given = dict(zip(slots, values))
        return {k: v for k, v in given.items() if k is not None}, given.get(None)

    def _create_extended(self, pod, row: int, allocation) -> list:
        spec = ext.node_claim(pod, self.extended[pod.key], self.backed, self.state.nodes[row])
        name = self._extended_name(pod)
        uid = pod.uid or stable_uid(pod.namespace, "Pod", pod.name)
        state, created = self.store.create(ext.created(spec, name, uid, pod.name),
                                           controller.ClaimOwner("Pod", pod.name, ext.IN_MEMORY_NAME))
        return [created, self.store.reserve(state, pod_consumer(pod.namespace, pod.name, pod.uid), allocation)]

    def _allocation_for(self, pod, row: int, pending: list[ClaimState]):
        claims = self._claims_for(pod, row, pending)
        if not claims:
            return None
        from wasplan.engine.dra import AllocationError, NodeUnschedulable

        hit = self._found
        if hit is not None and hit[:4] == (pod.key, row, self.state.epoch, self.store.ledger.version):
            return hit[4]
        try:
            return self.store.allocator.allocate(self.state.nodes[row], claims)
        except (AllocationError, NodeUnschedulable):
            return None  # a pod placed where its devices do not fit (a bound pod of the snapshot): left pending

    def unreserve(self, pod, row: int, token) -> None:
        for undo in reversed(token or ()):
            self.store.undo(undo)

    # ---- PreBind and PostFilter --------------------------------------------------------------------------------
    def pre_bind(self, pod) -> str | None:
        """The API server rejects a `reservedFor` list longer than 256 entries (ResourceClaimReservedForMaxSize)."""
        for state in self.claims_of(pod):
            if len(state.claim.reserved_for) > RESERVED_FOR_MAX:
                return too_many_msg(state.claim.name, len(state.claim.reserved_for))
        return None

    def post_filter(self, pod) -> str:
        """Deallocate one allocated claim that kept the pod off a node and that no one else holds; the text the
        FitError gets (`post_filter_text`)."""
        return post_filter_text(self._post_filter(pod), self.caps)

    def _post_filter(self, pod) -> str:
        if self.pre_filter(pod) is not None:
            return NO_NEW_CLAIMS
        me = pod_consumer(pod.namespace, pod.name, pod.uid)
        everywhere = np.ones(len(self.state.nodes), dtype=bool)
        for state in sorted(self.claims_of(pod), key=lambda s: s.claim.name):
            allocation = state.claim.allocation
            if allocation is None or allocation.node_selector is None:
                continue
            if (_selector_rows(self.state, allocation.node_selector) == everywhere).all():
                continue
            if all(same_consumer(c, me) for c in state.claim.reserved_for):
                self.store.deallocate(state)
                return DEALLOCATED
        return STILL_NOT_SCHEDULABLE

    def pod_deleted(self, pod) -> None:
        """The ResourceClaim controller after a real eviction: the pod leaves `reservedFor`; claims nobody holds
        are deallocated, the pod's generated claims deleted."""
        keys = [s.claim.key for s in self.claims_of(pod)]
        if pod.key in self.extended or pod.containers:
            keys.append(f"{pod.namespace}/{self._extended_name(pod)}")
        self.store.release(pod_consumer(pod.namespace, pod.name, pod.uid), keys)

    # ---- DeviceTaintRules created during the plan ---------------------------------------------------------------
    def add_taint_rule(self, rule) -> None:
        self.store.add_taint_rule(rule)
        self._found = self._precheck = None  # both read the slices

    def evictions(self, pod) -> list[tuple[str, str, int | None]]:
        """What the device taint eviction controller holds against a bound pod (podEvictionTime): for each
        allocated claim reserved for it (or for its PodGroup), each device with a NoExecute taint its request
        does not tolerate for ever, as (device `driver/pool/device`, taint text, seconds before eviction or
        None)."""
        from wasplan.engine.dra.taints import evicting_taints

        out = []
        for state in self.claims_of(pod):
            claim = state.claim
            consumer = self._consumer(pod, state)
            if claim.allocation is None or not any(same_consumer(c, consumer) for c in claim.reserved_for):
                continue
            for result in claim.allocation.results:
                device = self.store.device(result)
                for taint, seconds in evicting_taints(device, result.tolerations) if device is not None else ():
                    value = f"={taint.value}" if taint.value else ""
                    out.append((f"{result.driver}/{result.pool}/{result.device}", f"{taint.key}{value}:NoExecute",
                                seconds))
        return out

    def note_failure(self, pod, message: str) -> None:
        for state in self.claims_of(pod):
            if state.claim.allocation is None:
                state.message = message


def _selector_rows(state, terms) -> np.ndarray:
    """Rows whose node matches the node selector terms (ORed), with the metadata.name fast path."""
    if len(terms) == 1 and not terms[0].match_expressions and len(terms[0].match_fields) == 1:
        req = terms[0].match_fields[0]
        if req.operator == "In" and len(req.values) == 1 and req.values[0] in state.index:
            rows = np.zeros(len(state.nodes), dtype=bool)
            rows[state.index[req.values[0]]] = True
            return rows
    return np.fromiter((terms_match_node(terms, n.labels, n.name) for n in state.nodes), dtype=bool,
                       count=len(state.nodes))

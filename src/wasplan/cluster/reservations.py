"""`status.reservedFor` as the ResourceClaim controller keeps it: entries for pods that do not exist are dropped.

Upstream's resourceclaim controller (pkg/controller/resourceclaim/controller.go, syncClaim) keeps a `pods` entry
only while a pod of that name (and UID, when the entry has one) exists; it removes the others, and when no
consumer is left it clears the allocation of a claim the scheduler allocated, so its devices are free again. A
snapshot taken with `kubectl get` can hold such an entry (the pod finished or was deleted and the controller had
not caught up, or the snapshot was edited by hand); left in, it would keep devices allocated to nobody and block
every pod that needs them. The plan does what the controller does before anything is scheduled, and says so
(WAS663). The pods that exist are the plan's: the snapshot's (finished ones are gone, snapshot.py) and the
manifests' arrivals. PodGroup entries are kept (a PodGroup's claim is released with its group).
"""

from __future__ import annotations

from wasplan.cluster.devices import ResourceClaim
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Pod
from wasplan.diagnostics import Diagnostic

PODS = "pods"


def drop_stale_reservations(records: list, diags: list[Diagnostic]) -> None:
    """Drop, in place, every claim's `pods` entry naming a pod absent from `records`; deallocate a claim none
    is left on."""
    pods = {(r.namespace, r.name): r.uid for r in records if isinstance(r, Pod)}
    for claim in (r for r in records if isinstance(r, ResourceClaim) and r.reserved_for):
        stale = [i for i, c in enumerate(claim.reserved_for) if c.resource == PODS and not _exists(claim, c, pods)]
        if stale:
            _drop(claim, stale, diags)


def _exists(claim: ResourceClaim, consumer, pods: dict) -> bool:
    key = (claim.namespace, consumer.name)
    if key not in pods:
        return False
    uid = pods[key]
    return not (consumer.uid and uid and consumer.uid != uid)  # a pod of that name replaced since


def _drop(claim: ResourceClaim, stale: list[int], diags: list[Diagnostic]) -> None:
    names = ", ".join(f"{claim.namespace}/{claim.reserved_for[i].name}" for i in stale)
    claim.reserved_for = tuple(c for i, c in enumerate(claim.reserved_for) if i not in set(stale))
    freed = not claim.reserved_for and claim.allocation is not None
    if freed:
        claim.allocation = None
    if claim.source is not None:
        tail = "; no consumer is left, so the controller deallocates it" if freed else ""
        Ctx(claim.source, diags).report(
            "WAS663", f"ResourceClaim {claim.key} is reserved for pod(s) not in the inputs ({names}): the "
                      f"resourceclaim controller drops such entries{tail}", ("status", "reservedFor", stale[0]))

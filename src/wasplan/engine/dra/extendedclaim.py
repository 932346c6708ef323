"""Extended resources backed by DRA (DRAExtendedResource, KEP-5004; dra.md §6): the per-node claim
DynamicResources builds for a pod that requests an extended resource a DeviceClass backs.

Upstream: k/k `pkg/scheduler/framework/plugins/dynamicresources/extendeddynamicresources.go` (commit 16913111).
A container request for `R` is DRA-backed when a DeviceClass names `R` as its `extendedResourceName` or `R` is
`deviceclass.resource.kubernetes.io/<class>` (engine/dra/extended.py picks the class). On a node whose allocatable
has `R` the device plugin serves it (NodeResourcesFit checks it); on a node without it NodeResourcesFit leaves `R`
alone and DynamicResources allocates a claim with one ExactCount request per container and resource, named
`container-<i>-request-<j>` (`i` over initContainers then containers, `j` the resource's position among the
container's sorted request names), allocated last after the pod's own claims. After Reserve the claim exists as
`<pod>-extended-resources-<5 characters>` with the `resource.kubernetes.io/extended-resource-claim: "true"`
annotation, owned by and reserved for the pod.

Simplification: a short-lived init container gets requests of its own instead of reusing the long-lived
containers' ones (upstream lets it share them when their counts cover it), so such pods may ask for more
devices than upstream would.
"""

from __future__ import annotations

from wasplan.cluster.devices import ClaimSpec, DeviceRequest, OwnerReference, RequestSpec, ResourceClaim

IN_MEMORY_NAME = "<extended-resources>"  # upstream's specialClaimInMemName
ANNOTATION = "resource.kubernetes.io/extended-resource-claim"
ENTRY = "extended-resources"  # the name part of the generated claim: <pod>-extended-resources-<5>


def backed_requests(pod, backed: dict) -> list[tuple[int, str, int, int]]:
    """(container index, resource, position among the container's request names, amount) of every DRA-backed
    request of the pod."""
    out = []
    for c in pod.containers:
        for name, amount in c.extended:
            if name in backed:
                out.append((c.index, name, c.names.index(name), amount))
    return out


def node_claim(pod, requests: list[tuple[int, str, int, int]], backed: dict, node) -> ResourceClaim | None:
    """The claim for `node`: the backed requests the node does not serve itself (None: it serves them all)."""
    wanted = [r for r in requests if not node.allocatable.get(r[1], 0)]
    if not wanted:
        return None
    devices = tuple(DeviceRequest(f"container-{i}-request-{j}",
                                  exactly=RequestSpec(f"container-{i}-request-{j}", backed[name].name, count=amount))
                    for i, name, j, amount in wanted)
    return ResourceClaim(namespace=pod.namespace, name=IN_MEMORY_NAME, spec=ClaimSpec(requests=devices))


def created(claim: ResourceClaim, name: str, owner_uid: str, pod_name: str) -> ResourceClaim:
    """The claim as PreBind creates it: its generated name, the annotation and the pod as controller owner."""
    return ResourceClaim(namespace=claim.namespace, name=name, spec=claim.spec, annotations={ANNOTATION: "true"},
                         owners=(OwnerReference("v1", "Pod", pod_name, owner_uid, True),))

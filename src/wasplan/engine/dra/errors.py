"""The allocator's two failure kinds besides "cannot allocate" (which is a `None` result, not an exception).

`AllocationError`: the attempt must stop (Filter returns Error for the pod, whatever other nodes would say):
CEL errors, an unknown class, `All` on an incomplete or invalid pool, more than 32 devices for a claim.
`NodeUnschedulable`: this node fails with the message but others may fit (upstream wraps
`ErrFailedAllocationOnNode`: `invalid resource pools were encountered`).
"""


class AllocationError(Exception):
    """Upstream returns an error from Allocate; the DynamicResources plugin turns it into an Error status."""


class NodeUnschedulable(Exception):
    """Allocation failed on this node for a reason worth reporting (Unschedulable with this message)."""

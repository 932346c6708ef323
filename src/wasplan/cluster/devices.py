"""Dynamic Resource Allocation objects as version-free records: DeviceClass, ResourceSlice, ResourceClaim and
ResourceClaimTemplate of `resource.k8s.io/v1`.

The structured allocator (`wasplan.engine.dra`) reads only these records, never raw dicts, so the parse layer
(`parse_dra`) settles defaults and units once: an `ExactCount` request without a count has `count=1`, quantities
are exact `Fraction`s, attribute values keep their type (`int`, `bool`, `string`, `version`) because
`matchAttribute` compares typed values. Field names and defaults follow `k8s.io/api` `resource/v1/types.go`
(v0.36.0); the record shapes mirror what `k8s.io/dynamic-resource-allocation` `structured/internal/incubating`
reads from them.

A device is identified by `(driver, pool, device)` (`DeviceID`), as upstream's `structured/internal/types.go`.
Maps that the allocator looks up (attributes, capacity) are plain dicts kept in input order; nothing iterates
them into output without sorting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from wasplan.api.dra_rules import SUBREQUESTS_MAX
from wasplan.cel.info import MAX_LENGTH as CEL_MAX_LENGTH  # noqa: F401 - re-exported for the parse layer
from wasplan.cluster.model import NodeSelectorTerm

DeviceID = tuple[str, str, str]  # (driver, pool, device)

EXACT_COUNT, ALL = "ExactCount", "All"
ALLOCATION_MODES = (EXACT_COUNT, ALL)
TAINT_EFFECTS = ("None", "NoSchedule", "NoExecute")
AttributeKind = Literal["int", "bool", "string", "version"]

# Limits from resource/v1/types.go (v0.36.0).
ALLOCATION_RESULTS_MAX = 32  # AllocationResultsMaxSize
FIRST_AVAILABLE_MAX = SUBREQUESTS_MAX  # FirstAvailableDeviceRequestMaxSize
RESERVED_FOR_MAX = 256  # ResourceClaimReservedForMaxSize


@dataclass(frozen=True, slots=True)
class Attribute:
    """One typed attribute value (`DeviceAttribute`: exactly one of int, bool, string, version)."""

    kind: AttributeKind
    value: int | bool | str


@dataclass(frozen=True, slots=True)
class RequestPolicy:
    """`CapacityRequestPolicy`: the default consumption and the allowed request values."""

    default: Fraction | None = None
    valid_values: tuple[Fraction, ...] = ()
    range_min: Fraction | None = None
    range_max: Fraction | None = None
    range_step: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Capacity:
    value: Fraction
    policy: RequestPolicy | None = None


@dataclass(frozen=True, slots=True)
class DeviceTaint:
    key: str
    value: str = ""
    effect: str = "NoSchedule"  # None, NoSchedule, NoExecute


@dataclass(frozen=True, slots=True)
class DeviceToleration:
    key: str = ""
    operator: str = "Equal"  # Equal, Exists
    value: str = ""
    effect: str = ""  # empty = every effect
    toleration_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class CounterSet:
    """`CounterSet` in `sharedCounters` (what a partitionable device offers) or in `consumesCounters`."""

    name: str
    counters: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True, slots=True)
class NodeSelection:
    """Where devices are reachable: exactly one of a node name, a node selector or every node."""

    node_name: str | None = None
    node_selector: tuple[NodeSelectorTerm, ...] | None = None
    all_nodes: bool = False

    @property
    def is_set(self) -> bool:
        return self.node_name is not None or self.node_selector is not None or self.all_nodes


@dataclass(frozen=True, slots=True, eq=False)
class Device:
    name: str
    attributes: dict[str, Attribute] = field(default_factory=dict)  # qualified name -> value
    capacity: dict[str, Capacity] = field(default_factory=dict)
    consumes_counters: tuple[CounterSet, ...] = ()
    taints: tuple[DeviceTaint, ...] = ()
    binds_to_node: bool = False
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()
    allow_multiple_allocations: bool | None = None
    node: NodeSelection = NodeSelection()  # only with the slice's perDeviceNodeSelection


@dataclass(frozen=True, slots=True, eq=False)
class ResourceSlice:
    name: str
    driver: str
    pool: str
    generation: int
    slice_count: int
    node: NodeSelection  # nodeName / nodeSelector / allNodes; empty with perDeviceNodeSelection
    per_device_node_selection: bool = False
    devices: tuple[Device, ...] = ()
    shared_counters: tuple[CounterSet, ...] = ()
    source: Any = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class OpaqueConfig:
    """`DeviceConfiguration.opaque`: passed through to the allocation, never interpreted."""

    driver: str
    parameters: Any = None


@dataclass(frozen=True, slots=True, eq=False)
class DeviceClass:
    name: str
    selectors: tuple[str, ...] = ()  # CEL expressions
    config: tuple[OpaqueConfig, ...] = ()
    extended_resource_name: str | None = None
    creation_timestamp: str | None = None  # newest wins for one extendedResourceName, then the lower name
    source: Any = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class RequestSpec:
    """`ExactDeviceRequest` or one `firstAvailable` `DeviceSubRequest` (which has no adminAccess)."""

    name: str
    device_class_name: str
    selectors: tuple[str, ...] = ()
    allocation_mode: str = EXACT_COUNT
    count: int = 1
    admin_access: bool | None = None
    tolerations: tuple[DeviceToleration, ...] = ()
    capacity: tuple[tuple[str, Fraction], ...] | None = None  # capacity.requests, in input order


@dataclass(frozen=True, slots=True)
class DeviceRequest:
    name: str
    exactly: RequestSpec | None = None
    first_available: tuple[RequestSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Constraint:
    requests: tuple[str, ...] = ()  # empty = every request
    match_attribute: str | None = None
    distinct_attribute: str | None = None


@dataclass(frozen=True, slots=True)
class ClaimConfig:
    requests: tuple[str, ...]
    opaque: OpaqueConfig


@dataclass(frozen=True, slots=True)
class ClaimSpec:
    requests: tuple[DeviceRequest, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    config: tuple[ClaimConfig, ...] = ()


@dataclass(frozen=True, slots=True)
class DeviceResult:
    """`DeviceRequestAllocationResult`."""

    request: str  # "req" or "req/sub"
    driver: str
    pool: str
    device: str
    admin_access: bool | None = None
    tolerations: tuple[DeviceToleration, ...] = ()
    binding_conditions: tuple[str, ...] = ()
    binding_failure_conditions: tuple[str, ...] = ()
    share_id: str | None = None
    consumed_capacity: tuple[tuple[str, Fraction], ...] = ()

    @property
    def device_id(self) -> DeviceID:
        return (self.driver, self.pool, self.device)


@dataclass(frozen=True, slots=True)
class AllocationConfig:
    source: str  # FromClass or FromClaim
    requests: tuple[str, ...]
    opaque: OpaqueConfig


@dataclass(frozen=True, slots=True)
class Allocation:
    """`AllocationResult`: the devices and where they are reachable (`None` = every node)."""

    results: tuple[DeviceResult, ...]
    config: tuple[AllocationConfig, ...] = ()
    node_selector: tuple[NodeSelectorTerm, ...] | None = None


@dataclass(frozen=True, slots=True)
class Consumer:
    """`ResourceClaimConsumerReference` in `status.reservedFor`."""

    resource: str  # pods or podgroups
    name: str
    api_group: str = ""
    uid: str = ""


@dataclass(frozen=True, slots=True)
class OwnerReference:
    api_version: str
    kind: str
    name: str
    uid: str = ""
    controller: bool = False


@dataclass(slots=True, eq=False)
class ResourceClaim:
    namespace: str
    name: str
    spec: ClaimSpec
    allocation: Allocation | None = None
    reserved_for: tuple[Consumer, ...] = ()
    deletion_timestamp: str | None = None
    owners: tuple[OwnerReference, ...] = ()
    annotations: dict[str, str] = field(default_factory=dict)
    uid: str = ""
    source: Any = field(default=None, repr=False)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, slots=True, eq=False)
class ResourceClaimTemplate:
    namespace: str
    name: str
    spec: ClaimSpec
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    source: Any = field(default=None, repr=False)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"




@dataclass(frozen=True, slots=True)
class DeviceTaintRule:
    """`DeviceTaintRule` (DRADeviceTaintRules): one taint for every device its selector matches. A selector field
    left empty matches any value; no selector at all matches no device."""

    name: str
    taint: DeviceTaint
    selects: bool  # spec.deviceSelector is present
    driver: str = ""
    pool: str = ""
    device: str = ""
    source: Any = field(default=None, repr=False)


DraRecord = DeviceClass | ResourceSlice | ResourceClaim | ResourceClaimTemplate | DeviceTaintRule

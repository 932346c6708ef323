"""The objects Kueue v0.17.0's admission reads, as this package holds them (v1beta2 shape, CRD defaults applied).

Upstream: KDIR/apis/kueue/v1beta2/{clusterqueue,cohort,localqueue,resourceflavor,workload,topology}_types.go
(fields and kubebuilder defaults) and KDIR/apis/kueue/v1beta1/*_conversion.go (the v1beta1 renames, applied by
`inputs.py`). KDIR is sigs.k8s.io/kueue@v0.17.0 in the Go module cache.

Resource amounts are int64-like integers as Kueue keeps them (`pkg/resources/requests.go` ResourceValue): cpu in
millicores, every other resource in whole units. A (flavor, resource) pair is the key of every quota and usage
map, as Kueue's `resources.FlavorResource`.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field

from wasplan.api.kueue import PRIORITY_CLASS_LABEL, QUEUE_LABEL  # noqa: F401 (re-exported to the package)
from wasplan.api.quantity import Quantity, format_amount, format_milli_cpu

FR = tuple[str, str]  # (flavor, resource)

JOB_UID_LABEL = "kueue.x-k8s.io/job-uid"
MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism"
REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology"
PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology"
UNCONSTRAINED_TOPOLOGY = "kueue.x-k8s.io/podset-unconstrained-topology"
TAS_ANNOTATIONS = (REQUIRED_TOPOLOGY, PREFERRED_TOPOLOGY, UNCONSTRAINED_TOPOLOGY)
TAS_UNMODELLED = ("kueue.x-k8s.io/podset-slice-required-topology", "kueue.x-k8s.io/podset-slice-size",
                  "kueue.x-k8s.io/podset-group-name")

# the scheduler's condition reasons (KDIR/apis/kueue/v1beta2/workload_types.go)
IN_CLUSTER_QUEUE = "InClusterQueue"
IN_COHORT_RECLAMATION = "InCohortReclamation"
IN_COHORT_RECLAIM_WHILE_BORROWING = "InCohortReclaimWhileBorrowing"
IN_COHORT_FAIR_SHARING = "InCohortFairSharing"


class KueueStatus(str, enum.Enum):
    ADMITTED = "Admitted"
    QUOTA_RESERVED = "QuotaReserved"
    PENDING = "Pending"
    INADMISSIBLE = "Inadmissible"
    PREEMPTED = "Preempted"


class AdmissionChecks(enum.Flag):
    """The stated policy for AdmissionChecks no controller runs offline: assumed Ready, or left Pending."""

    READY = enum.auto()
    PENDING = enum.auto()


def resource_value(resource: str, q: Quantity) -> int:
    """KDIR/pkg/resources/requests.go ResourceValue: cpu in millis, the rest in whole units (rounded up)."""
    return q.milli_value() if resource == "cpu" else q.value()


@functools.lru_cache(maxsize=4096)  # the flavor assigner's messages print the same few amounts over and over
def quantity_string(resource: str, value: int) -> str:
    """KDIR/pkg/resources/requests.go ResourceQuantityString: how Kueue prints an amount in its messages."""
    if resource == "cpu":
        return format_milli_cpu(value)
    if resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-"):
        text = format_amount(value, binary=True)
        # newCanonicalQuantity: a BinarySI value without a binary suffix parses back as DecimalSI
        return text if text[-1:] == "i" else format_amount(value)
    return format_amount(value)


@dataclass(frozen=True, slots=True)
class ResourceQuota:
    nominal: int
    borrowing_limit: int | None = None
    lending_limit: int | None = None
    nominal_text: str = "0"  # the quota as the API would print it back


@dataclass(frozen=True, slots=True)
class ResourceGroup:
    covered: tuple[str, ...]
    flavors: tuple[str, ...]
    label_keys: frozenset[str] = frozenset()  # node-label keys of the group's flavors (flavorSelector)


@dataclass(frozen=True, slots=True)
class Preemption:
    within_cluster_queue: str = "Never"
    reclaim_within_cohort: str = "Never"
    borrow_within_cohort: str = "Never"
    max_priority_threshold: int | None = None


@dataclass(frozen=True, slots=True)
class FlavorFungibility:
    when_can_borrow: str = "MayStopSearch"
    when_can_preempt: str = "TryNextFlavor"
    preference: str | None = None


@dataclass(frozen=True, slots=True)
class Selector:
    """A label selector; `nothing` is what a nil namespaceSelector means to Kueue (labels.Nothing())."""

    match_labels: tuple[tuple[str, str], ...] = ()
    expressions: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    nothing: bool = False

    def matches(self, labels: dict[str, str]) -> bool:
        if self.nothing:
            return False
        if any(labels.get(k) != v for k, v in self.match_labels):
            return False
        for key, op, values in self.expressions:
            present = key in labels
            if op == "In" and not (present and labels[key] in values):
                return False
            if op == "NotIn" and present and labels[key] in values:
                return False
            if op == "Exists" and not present:
                return False
            if op == "DoesNotExist" and present:
                return False
        return True


@dataclass(slots=True)
class ResourceFlavor:
    name: str
    node_labels: dict[str, str] = field(default_factory=dict)
    node_taints: list[dict] = field(default_factory=list)
    tolerations: list[dict] = field(default_factory=list)
    topology_name: str | None = None


@dataclass(slots=True)
class ClusterQueue:
    name: str
    resource_groups: list[ResourceGroup]
    quotas: dict[FR, ResourceQuota]
    cohort: str | None = None
    namespace_selector: Selector = field(default_factory=lambda: Selector(nothing=True))
    queueing_strategy: str = "BestEffortFIFO"
    stop_policy: str = "None"
    preemption: Preemption = field(default_factory=Preemption)
    fungibility: FlavorFungibility = field(default_factory=FlavorFungibility)
    admission_checks: tuple[str, ...] = ()
    fair_sharing_weight: str | None = None


@dataclass(slots=True)
class Cohort:
    name: str
    parent: str | None = None
    quotas: dict[FR, ResourceQuota] = field(default_factory=dict)
    fair_sharing_weight: str | None = None


@dataclass(slots=True)
class LocalQueue:
    namespace: str
    name: str
    cluster_queue: str
    stop_policy: str = "None"


@dataclass(frozen=True, slots=True)
class Source:
    """The manifest object a Workload was built from."""

    api_version: str
    kind: str
    namespace: str
    name: str

    def to_json(self) -> dict:
        return {"apiVersion": self.api_version, "kind": self.kind, "namespace": self.namespace, "name": self.name}


@dataclass(slots=True)
class PodSet:
    name: str
    count: int
    requests: dict[str, int]  # one pod's requests after AdjustResources
    template: dict  # the pod template (metadata + spec)
    min_count: int | None = None
    tas: bool = False  # carries one of Kueue's TAS podset annotations
    topology: tuple[str, str | None] | None = None  # ("required" | "preferred" | "unconstrained", level)
    tas_unsupported: str | None = None  # a TAS request this model does not place (slices, PodSet groups)
    # LimitRange violations of the template: (path under its spec, resources, message), requests.limit_range_violations
    limit_range: tuple[tuple[str, tuple[str, ...], str], ...] = ()


@dataclass(slots=True)
class PodSetAdmission:
    """One PodSet's part of status.admission: the flavor per resource, the count and its total usage."""

    name: str
    count: int
    flavors: dict[str, str]
    usage: dict[str, int]
    topology: tuple[list[str], list[tuple[tuple[str, ...], int]]] | None = None  # levels, (values, count)


@dataclass(slots=True)
class Condition:
    status: bool
    reason: str
    message: str
    time: int  # seconds since the run's base time


@dataclass(eq=False, slots=True)
class Workload:
    """A Kueue Workload and the state the run changes: admission, conditions, the last flavor attempt."""

    namespace: str
    name: str
    uid: str
    queue: str
    priority: int
    created: int
    pod_sets: list[PodSet]
    source: Source | None = None
    job_uid: str | None = None
    active: bool = True
    admission_cq: str | None = None
    admission: list[PodSetAdmission] | None = None
    conditions: dict[str, Condition] = field(default_factory=dict)
    last_tried: list[dict[str, int]] | None = None  # LastAssignment.LastTriedFlavorIdx
    preempted_by: str | None = None
    _held: tuple | None = None  # (admission it was computed from, its (flavor, resource) pairs)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    def has_quota(self) -> bool:
        c = self.conditions.get("QuotaReserved")
        return c is not None and c.status

    def is_admitted(self) -> bool:
        c = self.conditions.get("Admitted")
        return c is not None and c.status

    def is_evicted(self) -> bool:
        c = self.conditions.get("Evicted")
        return c is not None and c.status

    def held(self) -> frozenset:
        """The (flavor, resource) pairs its admission assigns, cached per admission."""
        if self._held is None or self._held[0] is not self.admission:
            pairs = frozenset((f, res) for psa in self.admission or () for res, f in psa.flavors.items())
            self._held = (self.admission, pairs)
        return self._held[1]

    def usage(self) -> dict[FR, int]:
        """The quota it holds: status.admission's resourceUsage per (flavor, resource)."""
        out: dict[FR, int] = {}
        for psa in self.admission or ():
            for res, value in psa.usage.items():
                flavor = psa.flavors.get(res)
                if flavor is not None and value:
                    out[(flavor, res)] = out.get((flavor, res), 0) + value
        return out

    def set_condition(self, kind: str, status: bool, reason: str, message: str, now: int) -> bool:
        """apimeta.SetStatusCondition: the transition time moves only when the status changes."""
        old = self.conditions.get(kind)
        if old is not None and (old.status, old.reason, old.message) == (status, reason, message):
            return False
        when = old.time if old is not None and old.status == status else now
        self.conditions[kind] = Condition(status, reason, message, when)
        return True

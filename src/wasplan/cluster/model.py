"""Parsed, typed records of everything the scheduler looks at.

This is the contract between the parse layer (snapshots, manifests, the Job controller) and the engine: the
parse layer turns documents into these records once, with quantities already in integer base units, and the
engine never sees YAML, API versions or raw dicts. Records keep their `source` document so that plan-input
problems can still point at file:line.

Resource amounts are integers: `cpu` in millicores, every other resource in its base unit rounded up
(bytes for memory and ephemeral-storage, a count for `pods` and extended resources), matching how upstream
NodeResourcesFit compares MilliValue() for cpu and Value() for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from wasplan.api import hub

Resources = dict[str, int]
CPU, MEMORY, EPHEMERAL, PODS = "cpu", "memory", "ephemeral-storage", "pods"


@dataclass(frozen=True, slots=True)
class Requirement:
    """One matchExpressions entry (label selectors and node selector terms share the shape)."""

    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """A label selector: `matchLabels` and `matchExpressions`."""

    match_labels: tuple[tuple[str, str], ...] = ()
    match_expressions: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    """One node selector term: its label and field requirements, all of which must hold."""

    match_expressions: tuple[Requirement, ...] = ()
    match_fields: tuple[Requirement, ...] = ()  # only metadata.name is supported upstream


@dataclass(frozen=True, slots=True)
class PreferredSchedulingTerm:
    """A preferred node affinity term and its weight."""

    weight: int
    term: NodeSelectorTerm


@dataclass(frozen=True, slots=True)
class PodAffinityTerm:
    """A pod (anti-)affinity term: which pods, in which namespaces, within which topology domain."""

    label_selector: LabelSelector | None
    topology_key: str
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WeightedPodAffinityTerm:
    """A preferred pod (anti-)affinity term and its weight."""

    weight: int
    term: PodAffinityTerm


@dataclass(frozen=True, slots=True)
class Affinity:
    """A pod's node affinity and pod (anti-)affinity, required and preferred."""

    node_required: tuple[NodeSelectorTerm, ...] | None = None  # None = no required node affinity
    node_preferred: tuple[PreferredSchedulingTerm, ...] = ()
    pod_required: tuple[PodAffinityTerm, ...] = ()
    pod_preferred: tuple[WeightedPodAffinityTerm, ...] = ()
    anti_required: tuple[PodAffinityTerm, ...] = ()
    anti_preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    """One `topologySpreadConstraints` entry of a pod."""

    max_skew: int
    topology_key: str
    when_unsatisfiable: Literal["DoNotSchedule", "ScheduleAnyway"]
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: Literal["Honor", "Ignore"] = "Honor"
    node_taints_policy: Literal["Honor", "Ignore"] = "Ignore"
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Taint:
    """A node taint."""

    key: str
    value: str
    effect: str  # NoSchedule, PreferNoSchedule, NoExecute


@dataclass(frozen=True, slots=True)
class Toleration:
    """A pod's toleration of node taints."""

    key: str = ""
    operator: str = "Equal"  # Equal, Exists
    value: str = ""
    effect: str = ""  # empty = all effects
    toleration_seconds: int | None = None  # how long a NoExecute taint is tolerated (None: for ever)


@dataclass(frozen=True, slots=True)
class HostPort:
    """A host port a container asks for (NodePorts)."""

    port: int
    protocol: str = "TCP"
    host_ip: str = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class NodeImage:
    """One `status.images[]` entry of a node: every name the runtime knows the image by, and its size."""

    names: tuple[str, ...]
    size: int  # sizeBytes


@dataclass(frozen=True, slots=True)
class PodImages:
    """The image references of a pod as written (ImageLocality normalises them): one per init container and
    container, in that order, and one per image volume (`spec.volumes[].image.reference`)."""

    containers: tuple[str, ...] = ()
    volumes: tuple[str, ...] = ()


NO_IMAGES = PodImages()


@dataclass(slots=True)
class Node:
    """A node of the snapshot: labels, allocatable resources, taints and images."""

    name: str
    labels: dict[str, str]
    allocatable: Resources
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    source: Any = None  # Document
    images: tuple[NodeImage, ...] = ()  # status.images


@dataclass(slots=True)
class Owner:
    """The top-level object that made a pod (Job, JobSet, Deployment, ...) and, for controllers that work through
    intermediate objects, the chain below it down to the pod's direct controller (docs/workload-expansion.md)."""

    kind: str
    name: str
    chain: tuple["Owner", ...] = ()

    @property
    def controller(self) -> "Owner":
        """The pod's direct controller: the last link of the chain, or the owner itself."""
        return self.chain[-1] if self.chain else self

    def names(self, kind: str, name: str) -> bool:
        """Whether the owner or any link of its chain is `kind/name`."""
        return any(o.kind == kind and o.name == name for o in (self, *self.chain))


@dataclass(frozen=True, slots=True)
class StartAfter:
    """A controller creates a pod only once these pods are placed (JobSet InOrder startup, exclusive-placement
    followers, StatefulSet OrderedReady); `reason` says which rule waits. Shared by all pods that wait together."""

    pods: tuple[str, ...]  # ns/name keys
    reason: str
    never: bool = False  # waits for something a plan never reaches (a Job's completion)


@dataclass(frozen=True, slots=True)
class PodClaim:
    """One `spec.resourceClaims[]` entry of a pod: a ResourceClaim by name, or one generated from a template.
    `generated` is the claim name `status.resourceClaimStatuses` records for a template entry (snapshot pods)."""

    name: str
    claim_name: str | None = None
    template_name: str | None = None
    generated: str | None = None


@dataclass(frozen=True, slots=True)
class ContainerRequests:
    """One container's extended-resource requests, for the claim DynamicResources builds when a DeviceClass backs
    an extended resource: its index over initContainers + containers, whether it is a short-lived init container,
    the sorted names of all its requests, and the integer amounts of its domain-qualified resources."""

    index: int
    short_lived_init: bool
    names: tuple[str, ...]
    extended: tuple[tuple[str, int], ...]


@dataclass(slots=True)
class Pod:
    """A pod as the scheduler sees it: the effective request is precomputed (containers, init containers,
    sidecars, overhead, pod-level resources), as are the non-zero requests used for scoring."""

    namespace: str
    name: str
    requests: Resources
    non_zero_requests: Resources  # cpu/memory with upstream's defaults for containers that request nothing
    labels: dict[str, str] = field(default_factory=dict)
    node_name: str | None = None  # bound (running) when set
    nominated_node_name: str | None = None
    node_selector: dict[str, str] = field(default_factory=dict)
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread: tuple[TopologySpreadConstraint, ...] = ()
    host_ports: tuple[HostPort, ...] = ()
    scheduling_gates: tuple[str, ...] = ()
    scheduler_name: str = "default-scheduler"
    priority_class_name: str | None = None
    priority: int | None = None  # spec.priority when written explicitly
    preemption_policy: str | None = None  # spec.preemptionPolicy when written explicitly
    pod_group: str | None = None  # spec.schedulingGroup.podGroupName (same namespace)
    owner: Owner | None = None  # the Job that created it, for Job-expanded pods
    phase: str = "Pending"
    terminating: bool = False
    creation_timestamp: str | None = None
    start_time: str | None = None  # status.startTime: when the kubelet took the pod (preemption orders by it)
    uid: str | None = None
    resource_claims: tuple[PodClaim, ...] = ()  # spec.resourceClaims (DRA)
    containers: tuple[ContainerRequests, ...] = ()  # only for pods requesting domain-qualified resources
    images: PodImages = NO_IMAGES  # container and image-volume references (ImageLocality)
    source: Any = None  # Document; None for objects the Job controller creates
    start_after: StartAfter | None = None  # created by its controller only once these pods are placed
    admission: Any = None  # KueueAdmission (cluster/kueue.py): held until Kueue admits its workload
    eviction: tuple[str, str] | None = None  # (reason, message): a snapshot pod Kueue stops (pipeline/kueue_stage.py)
    # the pod template a controller made it from: (Document, path of the template, whose `spec` is the pod's);
    # None for pods written as Pods. Where a fix to a generated pod goes (explain).
    template: tuple[Any, tuple] | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(slots=True)
class PriorityClass:
    """A PriorityClass: its value, whether it is the global default, and its preemption policy."""

    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"
    source: Any = None


@dataclass(slots=True)
class PodDisruptionBudget:
    """A PodDisruptionBudget as preemption reads it: its selector and the disruptions it allows."""

    namespace: str
    name: str
    selector: LabelSelector | None
    min_available: int | str | None = None  # int or "50%"
    max_unavailable: int | str | None = None
    disruptions_allowed: int | None = None  # status.disruptionsAllowed when the snapshot has it
    source: Any = None


@dataclass(slots=True)
class Group:
    """A Workload, PodGroup or CompositePodGroup with the namespace and source the hub model leaves out."""

    namespace: str
    name: str
    obj: hub.HubObject
    source: Any = None

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


Record = Node | Pod | PriorityClass | PodDisruptionBudget | Group
# PlanInputs also carry the DRA records of `wasplan.cluster.devices` (DeviceClass, ResourceSlice, ResourceClaim,
# ResourceClaimTemplate); they are not part of this union because `devices` builds on this module.


@dataclass(frozen=True, slots=True)
class Unplanned:
    """An object that would run pods but that the plan cannot expand (a CRD such as a PyTorchJob)."""

    kind: str
    namespace: str
    name: str
    api_version: str = ""
    file: str = ""  # the input file, and the line of its `kind:`, for the "Not planned" list
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """A pod the API server would not create (admission refused it), with the server's message."""

    pod: Pod
    message: str


@dataclass(slots=True)
class PlanInputs:
    """Everything a plan starts from.

    `existing` is the cluster as the snapshot shows it (ordered by creation: metadata.creationTimestamp, then
    input order). `arrivals` are the objects this change creates, in input order (file order, then document
    order), Job controller output already expanded in place (Workload, PodGroup, then the pods).
    """

    existing: list[Record] = field(default_factory=list)
    arrivals: list[Record] = field(default_factory=list)
    unplanned: list[Unplanned] = field(default_factory=list)  # arrivals that run pods the plan cannot expand
    refused: list[Refused] = field(default_factory=list)  # arrival pods admission refuses (never created)

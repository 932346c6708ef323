"""The result of `wasplan plan`: frozen, serialisable records that the report layer renders as they are.

`Plan.to_dict()` is DESIGN.md §4's Plan contract (apiVersion wasplan.io/v1alpha1): field names, status values
and ordering (pods sorted by namespace/name, every input pod exactly once) are stable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

API_VERSION = "wasplan.io/v1alpha1"


class PodStatus(StrEnum):
    """A pod's status in the Plan (DESIGN.md §4). str-valued, so comparisons with the JSON's strings hold; `to_dict`
    writes the plain value, so every serialiser (JSON, YAML) sees a str."""

    BOUND = "Bound"
    ALREADY_BOUND = "AlreadyBound"
    PENDING = "Pending"
    GATED = "Gated"
    PREEMPTED = "Preempted"
    EVICTED = "Evicted"  # deleted by the device taint eviction controller (NoExecute DeviceTaintRule)
    REFUSED = "Refused"  # the API server would not create it (admission); the scheduler never sees it
    WAITING_FOR_ADMISSION = "WaitingForAdmission"  # Kueue holds it until its ClusterQueue admits it


PLACED = frozenset({PodStatus.BOUND, PodStatus.ALREADY_BOUND})  # on a node when the plan ends
UNPLACED = frozenset({PodStatus.PENDING, PodStatus.GATED, PodStatus.WAITING_FOR_ADMISSION})  # what a user calls pending


class GroupStatus(StrEnum):
    """A PodGroup's (and a CompositePodGroup's) status in the Plan."""

    SCHEDULED = "Scheduled"
    UNSCHEDULABLE = "Unschedulable"
    WAITING_FOR_PODS = "WaitingForPods"
    WAITING_FOR_PREEMPTION = "WaitingForPreemption"
    WAITING_FOR_ADMISSION = "WaitingForAdmission"  # its pods wait for Kueue's admission


class GroupPolicy(StrEnum):
    """How a PodGroup or CompositePodGroup is scheduled (plan JSON `podGroups[].policy`): all or nothing from
    minCount, or each member on its own; `none` is explain's word for a pod that belongs to no group."""

    GANG = "gang"
    BASIC = "basic"
    NONE = "none"


class Arrival(StrEnum):
    """How the manifests reach the scheduler (`--arrival`): one at a time in input order, the scheduler running
    until nothing moves after each creation; or every object created before the first cycle."""

    SEQUENTIAL = "sequential"
    BATCH = "batch"


class FailOn(StrEnum):
    """What makes `plan` exit 1 (`--fail-on`): nothing; a pod left pending (or refused, or not planned); that, or
    any eviction; only a change for the worse against `--baseline`."""

    NEVER = "never"
    PENDING = "pending"
    PREEMPTION = "preemption"
    REGRESSION = "regression"


class ClusterCheck(StrEnum):
    """How a snapshot's objects are checked (`--validate-cluster`): for what the plan reads, as objects an API
    server accepted already; or by every rule, like manifests."""

    STORED = "stored"
    FULL = "full"


class ClaimStatus(StrEnum):
    """A ResourceClaim's status in the Plan (`resourceClaims[]`)."""

    ALLOCATED = "Allocated"
    ALREADY_ALLOCATED = "AlreadyAllocated"
    PENDING = "Pending"


@dataclass(frozen=True, slots=True)
class OwnerRef:
    """The top-level object that made the pod and, when it works through intermediate objects, the chain from
    below it down to the pod's direct controller (`JobSet/train` with `[Job/train-workers-0]`)."""

    kind: str
    name: str
    chain: tuple["OwnerRef", ...] = ()

    def to_dict(self) -> dict:
        out: dict = {"kind": self.kind, "name": self.name}
        if self.chain:
            out["chain"] = [{"kind": o.kind, "name": o.name} for o in self.chain]
        return out


@dataclass(frozen=True, slots=True)
class UnplannedWorkload:
    """An input object that runs pods through a controller the plan does not model."""

    kind: str
    namespace: str
    name: str
    api_version: str = ""
    file: str = ""  # the manifest it is written in ("-" for stdin) and the line of its `kind:`
    line: int | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.file and self.line else self.file

    def to_dict(self) -> dict:
        return {"apiVersion": self.api_version, "kind": self.kind, "namespace": self.namespace, "name": self.name,
                "file": self.file, "line": self.line}


@dataclass(frozen=True, slots=True)
class Provenance:
    """What produced a plan, so a saved Plan says how to make it again: wasplan's version, the gates in force
    (every gate of the release, not only those switched), the arrival order, whether preemption ran, and the
    input files as read (manifests in reading order, then the snapshots; `-` for stdin)."""

    version: str
    feature_gates: tuple[tuple[str, bool], ...]
    arrival: str
    preemption: bool
    manifests: tuple[str, ...]
    cluster: tuple[str, ...]
    scheduler_config: str | None = None
    upstream_version: str = ""  # the upstream Kubernetes version the release is modelled on (v1.38.0-beta.0)
    prerelease: bool = False  # that version is a pre-release

    def to_dict(self, k8s_version: str, nodes: int) -> dict:
        return {"tool": "wasplan", "version": self.version, "k8sVersion": k8s_version,
                "upstreamVersion": self.upstream_version, "prerelease": self.prerelease,
                "featureGates": dict(self.feature_gates), "arrival": str(self.arrival), "preemption": self.preemption,
                "nodes": nodes, "inputs": {"manifests": list(self.manifests), "cluster": list(self.cluster),
                                           "schedulerConfig": self.scheduler_config}}


@dataclass(frozen=True, slots=True)
class Recreation:
    """Pods the plan evicts that their controller recreates (engine/preemption/recreation.py): what would become of them."""

    namespace: str
    owner: OwnerRef  # the top-level owner, with the direct controller as its chain when they differ
    pods: tuple[str, ...]  # the evicted pods, ns/name, in eviction order
    would_fit: int  # replacements the cluster the plan leaves takes (a gang only with its minCount)
    can_preempt: bool  # a placed pod has a lower priority than theirs
    message: str

    def to_dict(self) -> dict:
        return {"owner": {"namespace": self.namespace, **self.owner.to_dict()}, "pods": list(self.pods),
                "wouldFit": self.would_fit, "lowerPriorityRunning": self.can_preempt, "message": self.message}


@dataclass(frozen=True, slots=True)
class PodOutcome:
    """One pod after the plan: its status, node and the scheduler's reason (plan JSON `pods[]`)."""

    namespace: str
    name: str
    status: PodStatus
    pod_group: str | None = None  # "ns/name"
    owner: OwnerRef | None = None
    node: str | None = None
    nominated_node: str | None = None
    reason: str = ""
    message: str = ""

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    def to_dict(self) -> dict:
        return {"namespace": self.namespace, "name": self.name, "podGroup": self.pod_group,
                "owner": self.owner.to_dict() if self.owner else None,
                "status": str(self.status), "node": self.node, "nominatedNode": self.nominated_node,
                "reason": str(self.reason), "message": self.message}


class Reason(StrEnum):
    """The reasons the scheduler writes: a pod's PodScheduled condition and a PodGroup's scheduling condition
    (plan JSON `pods[].reason`, `podGroups[].condition.reason`)."""

    SCHEDULED = "Scheduled"
    UNSCHEDULABLE = "Unschedulable"
    SCHEDULER_ERROR = "SchedulerError"
    POD_GROUP_ERROR = "PodGroupError"  # 1.38: a runtime hierarchy check failed (validatePodGroupHierarchy)
    COMPOSITE_POD_GROUP_ERROR = "CompositePodGroupError"  # 1.38: the same, on a CompositePodGroup
    SCHEDULING_GATED = "SchedulingGated"


@dataclass(frozen=True, slots=True)
class GroupCondition:
    """The scheduling condition the scheduler writes on a PodGroup (plan JSON `podGroups[].condition`)."""

    type: str  # PodGroupScheduled (1.36) | PodGroupInitiallyScheduled (1.37)
    status: str  # "True" | "False"
    reason: Reason
    message: str = ""

    def to_dict(self) -> dict:
        return {"type": self.type, "status": self.status, "reason": str(self.reason)}


@dataclass(frozen=True, slots=True)
class Placement:
    """The topology domain a group was placed in: the key and its value (plan JSON `placement`)."""

    topology_key: str
    domain: str


@dataclass(frozen=True, slots=True)
class Alternative:
    """One of the equally scored choices kube-scheduler draws between at random, evaluated as if it were chosen
    (docs/plan-json.md "Ties"): a topology placement of a group (`placement` = "key=value", `nodes` = where the
    members would go) or a node for a pod's preemption (`placement` None, `nodes` = that node). `victims` are
    ns/name, sorted; `chosen` marks the one the plan carries out (wasplan's choice: first by name)."""

    placement: str | None
    nodes: tuple[str, ...]
    victims: tuple[str, ...]
    chosen: bool = False

    @property
    def label(self) -> str:
        """How the report names it: the placement's domain value, or the node."""
        return self.placement.partition("=")[2] if self.placement else self.nodes[0]

    def to_dict(self) -> dict:
        where = {"placement": self.placement, "nodes": list(self.nodes)} if self.placement else {"node": self.nodes[0]}
        return {**where, "victims": list(self.victims), "chosen": self.chosen}


def alternatives_dict(alternatives: tuple[Alternative, ...], tied: int = 0) -> dict:
    """The additive `alternatives` key: present only where there is a consequential tie; `tiedChoices` too when
    more choices tied than are listed (engine/preemption/ties.py MAX_LISTED)."""
    if not alternatives:
        return {}
    more = {"tiedChoices": tied} if tied > len(alternatives) else {}
    return {"alternatives": [a.to_dict() for a in alternatives], **more}


@dataclass(frozen=True, slots=True)
class GroupOutcome:
    """One PodGroup after the plan: its status, pods, placement and condition (plan JSON `podGroups[]`)."""

    namespace: str
    name: str
    policy: GroupPolicy
    min_count: int
    status: GroupStatus
    pods: tuple[str, ...] = ()
    placement: Placement | None = None
    reason: str = ""
    message: str = ""
    condition: GroupCondition | None = None
    alternatives: tuple[Alternative, ...] = ()  # a consequential placement tie of its preemption (chosen included)
    tied_choices: int = 0  # how many placements tied (more than `alternatives` lists when capped)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    def to_dict(self) -> dict:
        return {"namespace": self.namespace, "name": self.name, "policy": str(self.policy), "minCount": self.min_count,
                "status": str(self.status),
                "placement": ({"topologyKey": self.placement.topology_key, "domain": self.placement.domain}
                              if self.placement else None),
                "pods": list(self.pods), "reason": str(self.reason), "message": self.message,
                "condition": self.condition.to_dict() if self.condition else None,
                **alternatives_dict(self.alternatives, self.tied_choices)}


class TreeResult(StrEnum):
    """What a CompositePodGroup's last cycle made of one child (plan JSON `compositePodGroups[].children[].result`)."""

    SCHEDULED = "Scheduled"
    ALREADY_SCHEDULED = "AlreadyScheduled"
    FAILED = "Failed"
    REVERTED = "Reverted"
    NOT_TRIED = "NotTried"


@dataclass(frozen=True, slots=True)
class TreeChild:
    """One child of a CompositePodGroup and what its parent's last cycle made of it."""

    kind: str  # CompositePodGroup | PodGroup
    name: str
    result: TreeResult
    message: str = ""  # why it failed, or (Reverted) the failure that undid it

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "result": str(self.result), "message": self.message}


@dataclass(frozen=True, slots=True)
class CompositeOutcome:
    """One CompositePodGroup after the plan and its children (plan JSON `compositePodGroups[]`)."""

    namespace: str
    name: str
    policy: GroupPolicy
    min_group_count: int  # 0 for basic
    status: GroupStatus  # Scheduled | Unschedulable | WaitingForPods
    parent: str | None = None  # ns/name of the parent CompositePodGroup; None for a root
    placement: Placement | None = None
    message: str = ""
    children: tuple[TreeChild, ...] = ()
    condition: GroupCondition | None = None  # 1.38: CompositePodGroupInitiallyScheduled; releases before write none

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    def to_dict(self) -> dict:
        out = {"namespace": self.namespace, "name": self.name, "policy": str(self.policy),
               "minGroupCount": self.min_group_count, "status": str(self.status), "parent": self.parent,
               "placement": ({"topologyKey": self.placement.topology_key, "domain": self.placement.domain}
                             if self.placement else None),
               "message": self.message, "children": [c.to_dict() for c in self.children]}
        if self.condition is not None:
            out["condition"] = self.condition.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Victim:
    """A pod a preemption deletes, with its node and priority (plan JSON `preemptions[].victims[]`)."""

    namespace: str
    name: str
    node: str
    priority: int
    pod_group: str | None = None

    def to_dict(self) -> dict:
        return {"namespace": self.namespace, "name": self.name, "node": self.node, "priority": self.priority,
                "podGroup": self.pod_group}


@dataclass(frozen=True, slots=True)
class Preemption:
    """One preemption: the preempting pod or PodGroup and its victims (plan JSON `preemptions[]`)."""

    preemptor_kind: str  # Pod | PodGroup
    preemptor_namespace: str
    preemptor_name: str
    victims: tuple[Victim, ...] = ()
    alternatives: tuple[Alternative, ...] = ()  # a pod preemptor's consequential node tie (chosen included)
    tied_choices: int = 0  # how many nodes tied (more than `alternatives` lists when capped)

    def to_dict(self) -> dict:
        return {"preemptor": {"kind": self.preemptor_kind, "namespace": self.preemptor_namespace,
                              "name": self.preemptor_name},
                "victims": [v.to_dict() for v in self.victims],
                **alternatives_dict(self.alternatives, self.tied_choices)}


@dataclass(frozen=True, slots=True)
class ClaimOwner:
    """Who a claim generated from a ResourceClaimTemplate belongs to (Plan JSON `owner`; the claim records of
    cluster/claims.py hold the same)."""

    kind: str  # Pod | PodGroup
    name: str
    claim: str  # the owner's spec.resourceClaims[].name


@dataclass(frozen=True, slots=True)
class ClaimDevice:
    """One device allocated to a ResourceClaim (plan JSON `resourceClaims[].devices[]`)."""

    request: str  # "req" or "req/subrequest"
    driver: str
    pool: str
    device: str
    admin_access: bool = False

    def to_dict(self) -> dict:
        return {"request": self.request, "driver": self.driver, "pool": self.pool, "device": self.device,
                "adminAccess": self.admin_access}


@dataclass(frozen=True, slots=True)
class Consumer:
    """A pod or PodGroup a ResourceClaim is reserved for (plan JSON `resourceClaims[].reservedFor[]`)."""

    kind: str  # Pod | PodGroup
    namespace: str
    name: str


@dataclass(frozen=True, slots=True)
class ClaimOutcome:
    """One ResourceClaim after the plan (DESIGN.md §4 `resourceClaims[]`)."""

    namespace: str
    name: str
    status: ClaimStatus
    owner: ClaimOwner | None = None  # set for claims generated from a ResourceClaimTemplate
    node: str | None = None  # the node a node-local allocation is bound to; None when reachable from many
    devices: tuple[ClaimDevice, ...] = ()
    reserved_for: tuple[Consumer, ...] = ()
    message: str = ""

    def to_dict(self) -> dict:
        owner = {"kind": self.owner.kind, "name": self.owner.name, "claim": self.owner.claim} if self.owner else None
        return {"namespace": self.namespace, "name": self.name, "owner": owner, "status": str(self.status),
                "node": self.node, "devices": [d.to_dict() for d in self.devices],
                "reservedFor": [{"kind": c.kind, "namespace": c.namespace, "name": c.name} for c in self.reserved_for],
                "message": self.message}


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything a plan says: pods, PodGroups, preemptions, claims and findings (DESIGN.md §4, plan JSON)."""

    k8s_version: str
    nodes: int
    pods: tuple[PodOutcome, ...]
    pod_groups: tuple[GroupOutcome, ...] = ()
    preemptions: tuple[Preemption, ...] = ()
    diagnostics: tuple = field(default=(), compare=False)
    composites: tuple[CompositeOutcome, ...] = ()  # CompositePodGroups, sorted by namespace/name
    claims: tuple[ClaimOutcome, ...] = ()  # ResourceClaims, sorted by namespace/name
    unplanned: tuple[UnplannedWorkload, ...] = ()  # in input order
    recreations: tuple[Recreation, ...] = ()  # evicted pods their controller recreates
    produced_by: Provenance | None = field(default=None, compare=False)
    # Kueue's admission (pipeline/kueue_stage.py), when the inputs hold a ClusterQueue: the plan JSON `kueue`
    # block (docs/plan-json.md), and what the model names as not modelled
    kueue: dict | None = None
    kueue_not_modelled: tuple[str, ...] = ()

    def count(self, status: PodStatus) -> int:
        return sum(1 for p in self.pods if p.status == status)

    def summary(self) -> dict:
        return {"pods": len(self.pods), "bound": self.count(PodStatus.BOUND),
                "alreadyBound": self.count(PodStatus.ALREADY_BOUND),
                "pending": sum(1 for p in self.pods if p.status in UNPLACED),
                "preempted": self.count(PodStatus.PREEMPTED), "evicted": self.count(PodStatus.EVICTED),
                "podGroups": len(self.pod_groups),
                "podGroupsScheduled": sum(1 for g in self.pod_groups if g.status == GroupStatus.SCHEDULED),
                "podGroupsUnschedulable": sum(1 for g in self.pod_groups if g.status != GroupStatus.SCHEDULED),
                "unplanned": len(self.unplanned), "refused": self.count(PodStatus.REFUSED),
                "waitingForAdmission": self.count(PodStatus.WAITING_FOR_ADMISSION)}

    @property
    def all_placed(self) -> bool:
        return not any(p.status in UNPLACED or p.status == PodStatus.REFUSED for p in self.pods)

    @property
    def kueue_waiting(self) -> list[dict]:
        """The Kueue workloads of the `kueue` block that Kueue does not admit (QuotaReserved ones wait for their
        admission checks, so they count too)."""
        return [w for w in (self.kueue or {}).get("workloads", ()) if w.get("status") != "Admitted"]

    @property
    def complete(self) -> bool:
        """Every pod placed, every workload of the input planned, admitted by Kueue and modelled."""
        return self.all_placed and not self.unplanned and not self.kueue_waiting and not self.kueue_not_modelled

    def ties(self) -> list[tuple[str, str, tuple[Alternative, ...], int]]:
        """Every consequential tie of the plan: (kind, ns/name, alternatives listed, choices tied), groups first,
        then pod preemptors in the order they preempted."""
        out = [("PodGroup", g.key, g.alternatives, max(g.tied_choices, len(g.alternatives)))
               for g in self.pod_groups if g.alternatives]
        out += [(p.preemptor_kind, f"{p.preemptor_namespace}/{p.preemptor_name}", p.alternatives,
                 max(p.tied_choices, len(p.alternatives))) for p in self.preemptions if p.alternatives]
        return out

    def to_dict(self) -> dict:
        head = {"apiVersion": API_VERSION, "kind": "Plan", "k8sVersion": self.k8s_version}
        if self.produced_by is not None:
            head["producedBy"] = self.produced_by.to_dict(self.k8s_version, self.nodes)
        return {**head, "summary": self.summary(),
                "podGroups": [g.to_dict() for g in self.pod_groups],
                "pods": [p.to_dict() for p in self.pods],
                "preemptions": [p.to_dict() for p in self.preemptions],
                "compositePodGroups": [c.to_dict() for c in self.composites],
                "resourceClaims": [c.to_dict() for c in self.claims],
                "unplanned": [u.to_dict() for u in self.unplanned],
                "recreations": [r.to_dict() for r in self.recreations],
                **({"kueue": self.kueue} if self.kueue is not None else {})}

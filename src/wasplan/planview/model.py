"""The records of a PlanView (see wasplan/planview/__init__.py): what the visual reports render, built by
build.py from the Plan, the cluster after the plan and the plan diff."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from wasplan.plan import GroupStatus, Plan
from wasplan.plandiff import PlanDiff
from wasplan.planview.kueue import QUEUE_HEADER, QueueRow, queue_rows, stopped_lines, waiting_lines
from wasplan.planview.ties import TieView, tie_views


@dataclass(frozen=True, slots=True)
class Invocation:
    """How `plan` was run, so the report can print the `wasplan explain` command for the same inputs."""

    paths: tuple[str, ...] = ()
    clusters: tuple[str, ...] = ()
    k8s_version: str | None = None
    extra: tuple[str, ...] = ()  # --arrival batch, --no-preemption, --scheduler-config FILE, --feature-gates ...

    def explain(self, target: str, namespace: str) -> str:
        words = ["wasplan", "explain", target, "-n", namespace, *self.paths]
        for c in self.clusters:
            words += ["--cluster", c]
        if self.k8s_version:
            words += ["--k8s-version", self.k8s_version]
        return shlex.join([*words, *self.extra])


@dataclass(frozen=True, slots=True)
class Meter:
    resource: str
    used: int
    total: int
    kind: str  # accelerator | device | cpu | memory

    @property
    def share(self) -> float:
        return min(self.used / self.total, 1.0) if self.total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class NodeView:
    index: int
    name: str
    path: tuple[str, ...]  # the node's value for each topology key ("" without the label)
    meters: tuple[Meter, ...]
    fullness: float
    taints: tuple[str, ...] = ()
    unschedulable: bool = False
    entity: int | None = None  # index into PlanView.entities
    pods: tuple[tuple[str, int], ...] = ()  # (entity label, pods on the node after the plan)
    victims: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    change_effect: str | None = None  # the worst effect of a diff change on this node


@dataclass(frozen=True, slots=True)
class Entity:
    index: int
    key: str  # a selection key, or "running" / "other"
    label: str
    pods: int


@dataclass(frozen=True, slots=True)
class Selection:
    key: str  # pg:ns/name, cpg:ns/name, job:ns/name, jobset:ns/name, ..., ns:name
    kind: str
    label: str
    nodes: tuple[int, ...]
    pods: int


@dataclass(frozen=True, slots=True)
class Block:
    """The nodes of one topology domain path, e.g. zone=a / rack=r1."""

    path: tuple[tuple[str, str], ...]
    nodes: tuple[NodeView, ...]


@dataclass(frozen=True, slots=True)
class Area:
    """One value of the coarsest topology key and the blocks under it."""

    key: str
    value: str
    blocks: tuple[Block, ...]

    @property
    def node_count(self) -> int:
        return sum(len(b.nodes) for b in self.blocks)


@dataclass(frozen=True, slots=True)
class GroupRow:
    key: str
    policy: str
    min_count: int
    placed: int
    total: int
    status: GroupStatus
    placement: str
    nodes: tuple[str, ...]
    message: str
    selection: str
    entity: int | None


@dataclass(frozen=True, slots=True)
class Reason:
    status: str
    message: str
    pods: int


@dataclass(frozen=True, slots=True)
class PendingEntry:
    kind: str  # PodGroup | Job | JobSet | ... | Pod
    key: str
    status: str  # the group's status, or the pods' (Pending | Gated)
    message: str  # the group's message ("" outside a group)
    pods: int
    reasons: tuple[Reason, ...]
    explain: str
    selection: str

    @property
    def label(self) -> str:
        return f"{self.kind} {self.key}"


@dataclass(frozen=True, slots=True)
class PreemptionView:
    preemptor: str  # "PodGroup ns/name"
    selection: str
    victims: tuple[tuple[str, str, int, str | None], ...]  # (ns/name, node, priority, podGroup)


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """One ResourceClaim for the reports: which devices it holds (driver/pool/device, natural order) and for whom,
    or, pending, why not."""

    claim: str  # ns/name
    status: str
    devices: tuple[str, ...] = ()
    users: tuple[str, ...] = ()  # "Pod ns/name", "PodGroup ns/name"
    message: str = ""


@dataclass(frozen=True, slots=True)
class NodeClaims:
    """The claims allocated on one node (`node` None: devices reachable from several nodes, e.g. a fabric)."""

    node: str | None
    claims: tuple[ClaimRow, ...]


@dataclass(frozen=True, slots=True)
class PlanView:
    plan: Plan
    keys: tuple[str, ...]
    areas: tuple[Area, ...]
    nodes: tuple[NodeView, ...]
    entities: tuple[Entity, ...]
    selections: tuple[Selection, ...]
    groups: tuple[GroupRow, ...]
    pending: tuple[PendingEntry, ...]
    preemptions: tuple[PreemptionView, ...]
    diff: PlanDiff | None = None
    claims_by_node: tuple[NodeClaims, ...] = ()  # allocated claims per node, nodes in natural order
    pending_claims: tuple[ClaimRow, ...] = ()

    @property
    def summary(self) -> dict:
        return self.plan.summary()

    @property
    def kueue_header(self) -> tuple[str, ...]:
        return QUEUE_HEADER

    @property
    def kueue_rows(self) -> list[QueueRow]:
        """Kueue's ClusterQueues per flavor and resource (planview/kueue.py); empty when Kueue's admission did not
        run."""
        return queue_rows(self.plan.kueue)

    @property
    def kueue_stopped(self) -> list[str]:
        return stopped_lines(self.plan.pods)

    @property
    def kueue_waiting(self) -> list[str]:
        return waiting_lines(self.plan.kueue)

    @property
    def ties(self) -> tuple[TieView, ...]:
        """The plan's consequential ties (preemptions that are a draw in kube-scheduler), as planview/ties.py
        words them."""
        return tie_views(self.plan)

    @property
    def verdict(self) -> str:
        s = self.summary
        if self.plan.complete:
            return "Every pod is placed."
        parts = []
        if s["pending"]:
            parts.append(f"{s['pending']} pod stays pending" if s["pending"] == 1 else f"{s['pending']} pods stay pending")
        if self.plan.unplanned:
            n = len(self.plan.unplanned)
            parts.append(f"{n} workload is not planned" if n == 1 else f"{n} workloads are not planned")
        return "; ".join(parts) + "."

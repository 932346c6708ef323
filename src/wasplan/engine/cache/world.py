"""What the scheduler knows besides node state: every pod with its scheduling status, the PodGroups with their
policies, priorities and conditions, and the PriorityClasses that resolve priorities (admission's job upstream).

A group cycle runs for every pod that joins a group, so the member views it asks for are kept per group
instead of rebuilt from all members each time: the live members (a pod's `terminating` never changes and
members are only ever appended) and the members still open to scheduling (a member that is bound, already
bound or preempted never waits in the queue again, so it leaves that list for good).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from wasplan.api import hub
from wasplan.api.priority import SYSTEM_CLASSES, global_default
from wasplan.cluster.model import Group, Pod, PriorityClass


class SimStatus(StrEnum):
    """Where a pod is in the simulated scheduler (the Plan folds Queued and Unschedulable into Pending, plan.py)."""

    NEW = "New"
    GATED = "Gated"  # schedulingGates, a claim it waits for, or not created yet by its controller
    QUEUED = "Queued"
    UNSCHEDULABLE = "Unschedulable"
    BOUND = "Bound"
    ALREADY_BOUND = "AlreadyBound"  # bound in the snapshot
    PREEMPTED = "Preempted"
    EVICTED = "Evicted"  # deleted by the device taint eviction controller (a NoExecute DeviceTaintRule)
    WAITING_FOR_ADMISSION = "WaitingForAdmission"  # Kueue has not admitted its workload (cluster/kueue.py)


_PLACED = frozenset({SimStatus.BOUND, SimStatus.ALREADY_BOUND})
NOT_CREATED = "NotCreated"  # the reason of a Gated pod its controller has not created yet (simulator.py)


@dataclass(slots=True)
class PodState:
    pod: Pod
    priority: int
    seq: int  # creation order
    status: SimStatus = SimStatus.NEW
    ts: int = 0  # queue timestamp (PrioritySort's tie-break); reset when an attempt fails
    initial_ts: int = 0  # first time the pod entered the queue
    node: str | None = None
    nominated: str | None = None
    reason: str = ""
    message: str = ""
    key: str = field(init=False, default="")  # ns/name, read in every cycle; `pod` may be replaced, never renamed
    # ns/podGroup, or None: a replacement pod (DRA's adopted copy, a nominated copy) keeps namespace and group
    group_key: str | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        pod = self.pod
        self.key = pod.key
        self.group_key = f"{pod.namespace}/{pod.pod_group}" if pod.pod_group else None

    @property
    def placed(self) -> bool:
        return self.status in _PLACED


@dataclass(slots=True)
class GroupState:
    record: Group
    priority: int
    seq: int
    members: list[str] = field(default_factory=list)  # pod keys in creation order
    live: int = 0  # members that are not terminating (PreEnqueue's quorum count)
    condition_status: str | None = None  # "True" | "False"
    condition_reason: str = ""
    message: str = ""
    attempted: bool = False
    placement: tuple[str, str] | None = None  # (topology key, domain) of the last successful placement search
    alternatives: tuple = ()  # plan.Alternative per tied placement of its last preemption (preemption/ties.py)
    tied: int = 0  # how many placements tied there
    sampled: tuple[int, int] | None = None  # 1.38: (placements, how many upstream's sampling would stop after)
    # World's incremental member views: (members seen, the view)
    live_view: tuple[int, list] = field(default=(0, []), repr=False, compare=False)
    open_view: tuple[int, list] = field(default=(0, []), repr=False, compare=False)

    @property
    def key(self) -> str:
        return self.record.key

    @property
    def pg(self) -> hub.PodGroup:
        return self.record.obj  # type: ignore[return-value]

    # the policy and parent, read once: the record's PodGroup is a frozen API model and the record is never replaced
    is_gang: bool = field(init=False, default=False, repr=False, compare=False)
    min_count: int = field(init=False, default=1, repr=False, compare=False)
    parent_name: str | None = field(init=False, default=None, repr=False, compare=False)  # its composite's name

    def __post_init__(self) -> None:
        self.parent_name = getattr(self.pg, "parent_composite", None)
        policy = self.pg.policy
        self.is_gang = policy.kind == hub.PolicyKind.GANG
        self.min_count = (policy.min_count or 1) if self.is_gang else 1


class World:
    def __init__(self) -> None:
        self.pods: dict[str, PodState] = {}
        self.groups: dict[str, GroupState] = {}
        self.classes: dict[str, PriorityClass] = {}
        self.other_groups: list[Group] = []  # Workloads and CompositePodGroups, kept for the snapshot
        self.composites: dict[str, Group] = {}  # CompositePodGroups by ns/name (composite.py builds the trees)
        self.composite_seq: dict[str, int] = {}  # their creation order, comparable with GroupState.seq
        self.tree_results: dict[str, object] = {}  # composite key -> its last cycle's result (composite.py)
        self.sampled_trees: dict[str, tuple[int, int]] = {}  # as GroupState.sampled, for CompositePodGroups
        self._orphans: dict[str, list[str]] = {}  # group key -> pods naming a PodGroup that does not exist yet
        self.awaiting_admission: dict[str, list[str]] = {}  # group key -> its pods Kueue holds (never members)
        self._seq = 0

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def resolve_priority(self, value: int | None, class_name: str | None) -> int:
        """What Priority admission writes into spec.priority (api/priority.py): the value given, the named class's
        (a system class included), or the global default's, the lowest-valued one if several claim it."""
        if value is not None:
            return value
        if class_name and class_name in self.classes:
            return self.classes[class_name].value
        if class_name in SYSTEM_CLASSES:
            return SYSTEM_CLASSES[class_name]
        default = global_default(self.classes.values())
        return default.value if default is not None else 0

    def add_pod(self, pod: Pod) -> PodState:
        ps = PodState(pod, self.resolve_priority(pod.priority, pod.priority_class_name), self.next_seq())
        self.pods[pod.key] = ps
        group = self.group_of(ps)
        if group is not None:
            group.members.append(pod.key)
            group.live += 0 if pod.terminating else 1
        elif pod.pod_group:
            self._orphans.setdefault(self.group_key(ps), []).append(pod.key)
        return ps

    def add_group(self, group: Group) -> GroupState | None:
        if not isinstance(group.obj, hub.PodGroup):
            self.other_groups.append(group)
            if isinstance(group.obj, hub.CompositePodGroup):
                self.composites[group.key] = group
                self.composite_seq[group.key] = self.next_seq()
            return None
        pg = group.obj
        gs = GroupState(group, self.resolve_priority(pg.priority, pg.priority_class_name), self.next_seq())
        gs.members = self._orphans.pop(group.key, [])
        gs.live = sum(1 for k in gs.members if not self.pods[k].pod.terminating)
        for cond in pg.conditions or ():
            if cond.type == "PodGroupInitiallyScheduled":
                gs.condition_status, gs.condition_reason = cond.status, cond.reason or ""
                gs.message = cond.message or ""
        self.groups[group.key] = gs
        return gs

    @staticmethod
    def group_key(ps: PodState) -> str | None:
        return ps.group_key

    def group_of(self, ps: PodState) -> GroupState | None:
        key = ps.group_key
        return self.groups.get(key) if key else None

    def live_members(self, group: GroupState) -> list[PodState]:
        """The group's members that are not being deleted, in creation order (a new list each call)."""
        seen, live = group.live_view
        if seen != len(group.members):
            live = live + self.live_of(group.members[seen:])
            group.live_view = (len(group.members), live)
        return list(live)

    def queued_members(self, group: GroupState) -> list[PodState]:
        """The live members waiting in the queue (Queued, or Unschedulable after an attempt), in creation order."""
        seen, open_ = group.open_view
        fresh = self.live_of(group.members[seen:]) if seen != len(group.members) else []
        open_ = [ps for ps in (*open_, *fresh) if ps.status not in _SETTLED]
        group.open_view = (len(group.members), open_)
        return [ps for ps in open_ if ps.status in _QUEUED]

    def live_of(self, keys: list[str]) -> list[PodState]:
        """The pods of `keys` that are not being deleted."""
        pods = self.pods
        return [pods[k] for k in keys if not pods[k].pod.terminating]


_SETTLED = frozenset({SimStatus.BOUND, SimStatus.ALREADY_BOUND, SimStatus.PREEMPTED, SimStatus.EVICTED})  # statuses a pod never leaves for the queue
_QUEUED = frozenset({SimStatus.QUEUED, SimStatus.UNSCHEDULABLE})

"""What the run decided, per workload and per ClusterQueue, and the plan JSON `kueue` block.

The block's shape is the one the Kueue oracle prints (oracle/kueue017/output.go, docs/plan-json.md): a workload's
status is Admitted (Admitted condition true), QuotaReserved (quota held, admission checks not Ready), Preempted
(Preempted condition true and no quota held), Inadmissible (QuotaReserved=False with reason Inadmissible), else
Pending; reason and message are those of the condition that decided it. `clusterQueue` is the one holding the
quota, else the one its LocalQueue names. `borrowing`: it holds quota of a (flavor, resource) its ClusterQueue
borrows at the end of the run. Per ClusterQueue: nominal, used and borrowed per flavor and resource as the
scheduling cache reports them (KDIR/pkg/cache/scheduler/cache.go `getUsage`: borrowed only in a cohort).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import KueueStatus, Source, Workload, quantity_string
from .tas import encode


@dataclass(frozen=True, slots=True)
class PodSetOutcome:
    name: str
    count: int
    flavors: dict[str, str]
    node_selector: dict[str, str] = field(default_factory=dict)
    tolerations: list[dict] = field(default_factory=list)
    topology: list[tuple[dict[str, str], int]] | None = None

    encoded_topology: dict | None = None  # the v1beta2 TopologyAssignment, as the plan JSON shows it

    def to_json(self) -> dict:
        out = {"name": self.name, "count": self.count, "flavors": dict(sorted(self.flavors.items()))}
        if self.encoded_topology is not None:
            out["topology"] = self.encoded_topology
        return out


@dataclass(frozen=True, slots=True)
class WorkloadOutcome:
    namespace: str
    name: str
    source: Source | None
    queue: str
    cluster_queue: str | None
    priority: int
    status: KueueStatus
    reason: str
    message: str
    pod_sets: list[PodSetOutcome]
    borrowing: bool = False
    preempted_by: str | None = None
    evicted: bool = False
    eviction: tuple[str, str] = ("", "")  # an evicted one's Evicted condition: (reason, message)

    def to_json(self) -> dict:
        out = {"namespace": self.namespace, "name": self.name,
               "owner": self.source.to_json() if self.source else None, "queue": self.queue,
               "clusterQueue": self.cluster_queue, "priority": self.priority, "status": self.status.value,
               "reason": self.reason, "message": self.message, "podSets": [p.to_json() for p in self.pod_sets],
               "borrowing": self.borrowing}
        if self.preempted_by:
            out["preemptedBy"] = self.preempted_by
        return out


@dataclass(frozen=True, slots=True)
class ClusterQueueOutcome:
    name: str
    cohort: str | None
    usage: dict[str, dict[str, dict[str, str]]]
    admitted: int
    pending: int
    weighted_share: int | None = None  # status.fairSharing.weightedShare, with fair sharing on

    def to_json(self) -> dict:
        usage = {f: {r: self.usage[f][r] for r in sorted(self.usage[f])} for f in sorted(self.usage)}
        out = {"name": self.name, "cohort": self.cohort, "usage": usage, "admitted": self.admitted,
               "pending": self.pending}
        if self.weighted_share is not None:
            out["fairSharing"] = {"weightedShare": self.weighted_share}
        return out


@dataclass(slots=True)
class KueueResult:
    workloads: list[WorkloadOutcome]
    cluster_queues: list[ClusterQueueOutcome]
    not_modelled: list[str] = field(default_factory=list)  # what Kueue would do that this model does not
    config_not_modelled: list[str] = field(default_factory=list)  # those of not_modelled the Configuration sets
    not_built: list[str] = field(default_factory=list)  # objects Kueue's reconciler fails to build a Workload for
    cycles: int = 0
    settled: bool = True

    def to_json(self) -> dict:
        return {"workloads": [w.to_json() for w in self.workloads],
                "clusterQueues": [c.to_json() for c in self.cluster_queues]}


def _status(wl: Workload) -> tuple[KueueStatus, str, str]:
    qr = wl.conditions.get("QuotaReserved")
    pre = wl.conditions.get("Preempted")
    if wl.is_admitted():
        c = wl.conditions["Admitted"]
        return KueueStatus.ADMITTED, c.reason, c.message
    if wl.has_quota():
        return KueueStatus.QUOTA_RESERVED, qr.reason, qr.message
    if pre is not None and pre.status:
        return KueueStatus.PREEMPTED, pre.reason, pre.message
    if qr is not None and qr.reason == "Inadmissible":
        return KueueStatus.INADMISSIBLE, qr.reason, qr.message
    return KueueStatus.PENDING, (qr.reason if qr else ""), (qr.message if qr else "")


def build_result(run, initially_held: set[str]) -> KueueResult:
    inputs = run.inputs
    borrowed: dict[str, set] = {}
    queues = []
    for name, cq in sorted(inputs.cluster_queues.items()):
        node = run.tree.cqs[name]
        usage: dict[str, dict[str, dict[str, str]]] = {}
        borrowed[name] = set()
        for rg in cq.resource_groups:
            for flavor in rg.flavors:
                per = {}
                for (f, res), quota in cq.quotas.items():
                    if f != flavor:
                        continue
                    used = node.usage.get((f, res), 0) if name not in run.tree.cycle_cqs else 0
                    extra = used - quota.nominal if node.parent is not None else 0
                    if extra > 0:
                        borrowed[name].add((f, res))
                    per[res] = {"nominal": quota.nominal_text, "used": quantity_string(res, used),
                                "borrowed": quantity_string(res, max(0, extra))}
                usage[flavor] = per
        queues.append([name, cq.cohort, usage, 0, 0])
    index = {q[0]: q for q in queues}
    outcomes = []
    for wl in run.workloads:
        status, reason, message = _status(wl)
        lq = run.local_queue(wl)
        cq_name = wl.admission_cq if wl.admission is not None else (lq.cluster_queue if lq and lq.cluster_queue else None)
        pod_sets, borrowing = [], False
        held = {psa.name: psa for psa in wl.admission or ()}
        for ps in wl.pod_sets:
            psa = held.get(ps.name)
            if psa is None:
                pod_sets.append(PodSetOutcome(ps.name, ps.count, {}))
                continue
            flavors = dict(psa.flavors)
            borrowing = borrowing or any((f, r) in borrowed.get(cq_name, ()) for r, f in flavors.items())
            selector: dict[str, str] = {}
            tolerations: list[dict] = []
            for f in sorted(set(flavors.values())):
                flavor = inputs.flavors.get(f)
                if flavor is not None:
                    selector.update(flavor.node_labels)
                    tolerations += flavor.tolerations
            topology = encoded = None
            if psa.topology is not None:
                levels, domains = psa.topology
                topology = [(dict(zip(levels, values)), count) for values, count in domains]
                encoded = encode(levels, domains)
            pod_sets.append(PodSetOutcome(ps.name, psa.count, flavors, selector, tolerations, topology, encoded))
        outcome = WorkloadOutcome(wl.namespace, wl.name, wl.source, wl.queue, cq_name, wl.priority, status, reason,
                                  message, pod_sets, borrowing,
                                  wl.preempted_by if status == KueueStatus.PREEMPTED or (
                                      wl.conditions.get("Preempted") and wl.conditions["Preempted"].status) else None,
                                  evicted=wl.key in initially_held and not wl.has_quota(), eviction=_eviction(wl))
        outcomes.append(outcome)
        if cq_name in index:
            if status == KueueStatus.ADMITTED:
                index[cq_name][3] += 1
            elif status in (KueueStatus.PENDING, KueueStatus.PREEMPTED, KueueStatus.INADMISSIBLE):
                index[cq_name][4] += 1
    out = [ClusterQueueOutcome(*q, weighted_share=_weighted_share(run, q[0])) for q in queues]
    return KueueResult(outcomes, out, cycles=run.cycles, settled=run.settled)


def _eviction(wl) -> tuple[str, str]:
    """The reason and message of the workload's Evicted condition (Preempted, LocalQueueStopped, ...), or empty."""
    c = wl.conditions.get("Evicted")
    return (c.reason, c.message) if c is not None and c.status else ("", "")


def _weighted_share(run, cq: str) -> int | None:
    """status.fairSharing.weightedShare of the ClusterQueue on the final usage, when fair sharing is on."""
    if run.fair is None or cq not in run.tree.cqs:
        return None
    return run.fair.drs(run.tree.cqs[cq]).status_share()

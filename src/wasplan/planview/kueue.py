"""What the reports show of Kueue's admission (the plan's `kueue` block, pipeline/kueue_stage.py): one row per
ClusterQueue, flavor and resource (nominal quota, used, borrowed; the queue's admitted and pending counts on
its first row), and one line per workload Kueue does not admit, with Kueue's status, reason and message. The
text, Markdown and HTML reports render these and compute nothing of their own."""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.plan import PodStatus

QUEUE_HEADER = ("clusterQueue", "cohort", "flavor", "resource", "quota", "used", "borrowed", "admitted", "pending")


@dataclass(frozen=True, slots=True)
class QueueRow:
    """One flavor and resource of a ClusterQueue; `first` marks the queue's first row (name, cohort, counts)."""

    cluster_queue: str
    cohort: str
    flavor: str
    resource: str
    nominal: str
    used: str
    borrowed: str
    admitted: int
    pending: int
    first: bool

    def cells(self) -> tuple[str, ...]:
        head = (self.cluster_queue, self.cohort) if self.first else ("", "")
        counts = (str(self.admitted), str(self.pending)) if self.first else ("", "")
        return (*head, self.flavor, self.resource, self.nominal, self.used, self.borrowed, *counts)


def queue_rows(block: dict | None) -> list[QueueRow]:
    rows = []
    for cq in (block or {}).get("clusterQueues", ()):
        cells = [(flavor, resource, u) for flavor, resources in cq["usage"].items() for resource, u in resources.items()]
        cohort = cq["cohort"] or "-"
        if not cells:
            rows.append(QueueRow(cq["name"], cohort, "-", "-", "-", "-", "-", cq["admitted"], cq["pending"], True))
        for i, (flavor, resource, u) in enumerate(cells):
            rows.append(QueueRow(cq["name"], cohort, flavor, resource, u["nominal"], u["used"], u["borrowed"],
                                 cq["admitted"], cq["pending"], i == 0))
    return rows


def waiting_lines(block: dict | None) -> list[str]:
    """`ml/job-third-31831 (Job third), LocalQueue queue, ClusterQueue team: Pending: couldn't assign ...`"""
    out = []
    for w in (block or {}).get("workloads", ()):
        if w["status"] == "Admitted":
            continue
        owner = f" ({w['owner']['kind']} {w['owner']['name']})" if w.get("owner") else ""
        cq = f", ClusterQueue {w['clusterQueue']}" if w.get("clusterQueue") else ""
        why = f" {w['reason']}" if w.get("reason") and w["reason"] != w["status"] else ""
        text = f": {w['message']}" if w.get("message") else ""
        by = f" (by {w['preemptedBy']})" if w.get("preemptedBy") else ""
        out.append(f"{w['namespace']}/{w['name']}{owner}, LocalQueue {w['queue']}{cq}: {w['status']}{why}{by}{text}")
    return out


KUEUE_STOPPED = "WorkloadEvictedDueTo"  # the reason of a snapshot pod Kueue stops (pipeline/kueue_evict.py)


def stopped_lines(pods) -> list[str]:
    """One line per snapshot pod Kueue stops when it evicts its Workload (status Evicted, reason
    WorkloadEvictedDueTo...): `default/batch-x7k2p on node-a: stopped by Kueue: its Workload ... is evicted (...)`."""
    return [f"{p.key} on {p.node}: {p.message}" for p in pods
            if p.status == PodStatus.EVICTED and p.reason.startswith(KUEUE_STOPPED)]

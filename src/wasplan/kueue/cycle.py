"""Kueue's admission cycles, run until nothing changes.

Upstream: KDIR/pkg/scheduler/scheduler.go (`getInitialAssignments` with the partial-admission search of
KDIR/pkg/scheduler/flavorassigner/podset_reducer.go; `schedule`: one head per active ClusterQueue, `nominate` (namespace
selector, then flavor assignment and preemption targets), the classical ordering of entries (not borrowing
first, higher priority, older), then per entry: NoFit skipped; Preempt without targets reserves quota up to what
it could use unless the ClusterQueue can always reclaim (`resourcesToReserve`); overlapping targets and "no
longer fits" skip it; Preempt issues the evictions and leaves it "Pending the preemption of N workload(s)"; Fit
reserves the quota (`admit`); the rest are requeued with a Pending condition carrying the message
(`requeueAndUpdate`)); KDIR/pkg/cache/queue/manager.go (`heads`, `RequeueWorkload`,
`QueueAssociatedInadmissibleWorkloadsAfter`); KDIR/pkg/controller/core/workload_controller.go (a missing or
stopped LocalQueue or ClusterQueue makes a workload Inadmissible; before that, stopPolicy HoldAndDrain evicts the
admitted workloads of the queue: reconcileOnLocalQueueActiveState, reconcileOnClusterQueueActiveState) and KDIR/pkg/controller/jobframework/
reconciler.go (after an eviction the workload loses its admission, is marked Pending with the eviction's message
and requeued, and its cohort tree's inadmissible workloads are retried). Between cycles this module does what the
Kueue oracle's harness does for the controllers (oracle/kueue017/cycles.go), in the same order: evictions, then
admission checks under the policy, then the inadmissible retries; the clock moves one second per cycle.

The run ends when no active ClusterQueue has a queued workload, or when a cycle changed no workload and put every
head back where it was (the next cycle would be the same).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .assign import FIT, G_NO_CANDIDATES, G_PREEMPT, G_RECLAIM, NO_FIT, PREEMPT, Assignment, FlavorAssigner
from .fairpreempt import FairPreemption
from .fairshare import FairShares, tournament_order
from .model import FR, AdmissionChecks, PodSetAdmission, Workload
from .preempt import Preemptor, Target, message as preemption_message
from .requests import limit_range_message, pod_requests
from .tas import FlavorTopology
from .quota import Node, Tree, add_all, cq_available, lowest_subtree_that_fits, remove_all, remove_usage
from .queues import (FAILED_AFTER_NOMINATION, GENERIC, NAMESPACE_MISMATCH, PENDING_PREEMPTION,
                     ClusterQueueQueue)

MAX_CYCLES = 10000


class EntryStatus(enum.Enum):
    """scheduler.go entryStatus: how far an entry got in its cycle."""

    NOT_NOMINATED = "notNominated"
    SKIPPED = "skipped"
    NOMINATED = "nominated"
    ASSUMED = "assumed"


@dataclass(slots=True)
class Entry:
    wl: Workload
    cq: Node
    assignment: Assignment | None = None
    targets: list[Target] = field(default_factory=list)
    msg: str = ""
    reason: str = GENERIC
    status: EntryStatus = EntryStatus.NOT_NOMINATED


class Admitted(dict):
    """One ClusterQueue's workloads holding quota, by key, and the lowest priority among them (kept until the
    next change): the preemption search skips a queue none of whose workloads its policy lets it preempt."""

    __slots__ = ("_lowest",)

    def __init__(self) -> None:
        super().__init__()
        self._lowest: int | None = None

    def __setitem__(self, key: str, wl: Workload) -> None:
        super().__setitem__(key, wl)
        self._lowest = None

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._lowest = None

    def pop(self, key: str, *default):
        self._lowest = None
        return super().pop(key, *default)

    def lowest(self) -> int | None:
        """The lowest priority held, None when empty."""
        if self._lowest is None and self:
            self._lowest = min(wl.priority for wl in self.values())
        return self._lowest


class Run:
    def __init__(self, inputs, checks: AdmissionChecks) -> None:
        self.inputs = inputs
        self.checks = checks
        self.tree = Tree(inputs.cluster_queues, inputs.cohorts)
        self.workloads = sorted(inputs.workloads, key=lambda w: (w.namespace, w.name))
        self.now = len(inputs.workloads)
        self.cycles = 0
        self.settled = False
        self.admitted: dict[str, Admitted] = {n: Admitted() for n in self.tree.cqs}
        self.queues: dict[str, ClusterQueueQueue] = {
            n: ClusterQueueQueue(n, cq.queueing_strategy == "StrictFIFO", cq.namespace_selector)
            for n, cq in sorted(inputs.cluster_queues.items())}
        self.preemptor = Preemptor(self)
        self.fair: FairShares | None = None  # set when Kueue's Configuration enables fair sharing
        if inputs.config is not None and inputs.config.fair_sharing:
            self.fair = FairShares(self.tree, inputs.cluster_queues, inputs.cohorts)
            self.preemptor.fair = FairPreemption(self.preemptor, self.fair, inputs.config.strategies)
        self.changed = False
        self.notes: set[str] = set()
        self.evicted: dict[str, Workload] = {}  # evicted in this cycle, still holding quota
        self.unchecked: dict[str, Workload] = {}  # holding quota, admission checks not yet settled
        # AllocatableResourceGeneration: bumped when a workload leaves a ClusterQueue's usage; a workload's
        # last tried flavors (and the generation they were tried at) are forgotten once it moved on
        self.generation: dict[str, int] = {n: 1 for n in self.tree.cqs}
        self.tried_at: dict[str, int] = {}
        self.tas = self._topologies()
        # FlavorAssigner's flavor checks (taints, affinity, TAS) per (PodSet, group, flavor, ClusterQueue) and
        # tas_only per ClusterQueue: both read static inputs only
        self.flavor_checks: dict[tuple, str | None] = {}
        self._tas_only: dict[str, bool] = {}
        self.active = {n for n in self.tree.cqs if self._active(n)}

    def _topologies(self) -> dict[str, FlavorTopology]:
        """A TAS snapshot per flavor naming an existing Topology (tas_flavor.go), with the non-TAS pods' usage."""
        usage: dict[str, dict[str, int]] = {}
        for pod in self.inputs.pods:
            spec = pod.get("spec") if isinstance(pod.get("spec"), dict) else {}
            node = spec.get("nodeName")
            status = pod.get("status") if isinstance(pod.get("status"), dict) else {}
            if not isinstance(node, str) or not node or status.get("phase") in ("Succeeded", "Failed"):
                continue
            per = usage.setdefault(node, {})
            for r, v in pod_requests(spec, [], {}).items():
                per[r] = per.get(r, 0) + v
            per["pods"] = per.get("pods", 0) + 1
        out = {}
        for name, f in sorted(self.inputs.flavors.items()):
            if f.topology_name and f.topology_name in self.inputs.topologies:
                out[name] = FlavorTopology(name, f.topology_name, self.inputs.topologies[f.topology_name],
                                           f.node_labels, f.tolerations, self.inputs.nodes, usage)
        return out

    def tas_only(self, cq: str) -> bool:
        known = self._tas_only.get(cq)
        if known is None:
            groups = self.inputs.cluster_queues[cq].resource_groups
            flavors = [self.inputs.flavors.get(f) for rg in groups for f in rg.flavors]
            known = self._tas_only[cq] = bool(flavors) and all(f is not None and f.topology_name for f in flavors)
        return known

    def tas_usage(self, wl: Workload, sign: int) -> None:
        for psa in wl.admission or ():
            if psa.topology is None or not psa.count:
                continue
            single = {r: v // psa.count for r, v in psa.usage.items()}
            for flavor in sorted(set(psa.flavors.values())):
                if flavor in self.tas:
                    self.tas[flavor].add_usage(psa.topology[1], single, sign)

    # -- set-up ------------------------------------------------------------------------------------------------
    def _active(self, name: str) -> bool:
        cq = self.inputs.cluster_queues[name]
        if cq.stop_policy != "None" or name in self.tree.cycle_cqs:
            return False
        if any(f not in self.inputs.flavors for rg in cq.resource_groups for f in rg.flavors):
            return False
        if any(self.inputs.flavors[f].topology_name and self.inputs.flavors[f].topology_name
               not in self.inputs.topologies for rg in cq.resource_groups for f in rg.flavors):
            return False  # isTASViolated: the TAS cache of a flavor cannot be initialized
        for check in cq.admission_checks:
            if check not in self.inputs.admission_checks:
                return False
            if self.checks == AdmissionChecks.PENDING and not self.inputs.admission_checks[check]:
                return False
        return True

    def local_queue(self, wl: Workload):
        return self.inputs.local_queues.get((wl.namespace, wl.queue))

    def start(self) -> None:
        for wl in self.workloads:
            if wl.has_quota() and wl.admission_cq in self.admitted and wl.admission_cq not in self.tree.cycle_cqs:
                self.admitted[wl.admission_cq][wl.key] = wl
                add_all(self.tree.cqs[wl.admission_cq], wl.usage())
                self.tas_usage(wl, +1)
                if wl.is_evicted():
                    self.evicted[wl.key] = wl  # evicted in the snapshot: its controllers finish the eviction
        if self._drain_stopped():
            self._settle_evictions()
        for wl in self.workloads:
            if wl.has_quota() or not wl.active:
                continue
            lq = self.local_queue(wl)
            msg = ""
            if lq is None:
                msg = f"LocalQueue {wl.queue} doesn't exist"
            elif lq.stop_policy != "None":
                msg = f"LocalQueue {wl.queue} is inactive"
            elif lq.cluster_queue not in self.tree.cqs:
                msg = f"ClusterQueue {lq.cluster_queue} doesn't exist"
            elif lq.cluster_queue not in self.active:
                msg = f"ClusterQueue {lq.cluster_queue} is inactive"
            if msg:
                self._unset(wl, "Inadmissible", msg)
            if lq is not None and lq.stop_policy == "None" and lq.cluster_queue in self.queues:
                self.queues[lq.cluster_queue].add(wl)
        self._settle_checks(everyone=True)

    def _drain_stopped(self) -> bool:
        """The workload reconciler's eviction of an admitted workload whose LocalQueue, or else the ClusterQueue
        that LocalQueue names, has stopPolicy HoldAndDrain (workload_controller.go,
        reconcileOnLocalQueueActiveState, reconcileOnClusterQueueActiveState); the eviction is not requeued."""
        drained = False
        for wl in self.workloads:
            lq = self.local_queue(wl)
            if not wl.is_admitted() or wl.is_evicted() or lq is None:
                continue
            cq = self.inputs.cluster_queues.get(lq.cluster_queue)
            if lq.stop_policy == "HoldAndDrain":
                reason, msg = "LocalQueueStopped", "The LocalQueue is stopped"
            elif cq is not None and cq.stop_policy == "HoldAndDrain":
                reason, msg = "ClusterQueueStopped", "The ClusterQueue is stopped"
            else:
                continue
            wl.set_condition("Evicted", True, reason, msg, self.now)
            self.evicted[wl.key] = wl
            drained = self.changed = True
        return drained

    # -- the run -----------------------------------------------------------------------------------------------
    def run(self) -> None:
        self.start()
        while self.cycles < MAX_CYCLES:
            if not any(len(self.queues[n]) for n in self.active):
                self.settled = True
                return
            before = {n: set(q.members) for n, q in self.queues.items()}
            self.changed = False
            self.cycle()
            if not self.changed and before == {n: set(q.members) for n, q in self.queues.items()}:
                self.settled = True
                return

    def admitted_in(self, cq: str) -> list[Workload]:
        return list(self.admitted.get(cq, {}).values())

    def simulate_preemption(self, wl: Workload, cq: Node, fr: FR, quantity: int, borrow: int) -> tuple[int, int]:
        """preemption_oracle.go SimulatePreemption; `borrow` is the lowest subtree that fits on the usage as it is
        (the flavor assigner has just computed it), the answer when there are no targets."""
        targets = self.preemptor.targets(wl, cq, {fr}, {fr: quantity})
        if not targets:
            return G_NO_CANDIDATES, borrow
        for t in targets:
            remove_all(t.cq, t.wl.usage())
        borrow = lowest_subtree_that_fits(cq, fr, quantity)[0]
        for t in targets:
            add_all(t.cq, t.wl.usage())
        return (G_PREEMPT if any(t.cq is cq for t in targets) else G_RECLAIM), borrow

    def cycle(self) -> None:
        self.cycles += 1
        heads = []
        for name, q in self.queues.items():
            if name in self.active:
                wl = q.pop()
                if wl is not None:
                    heads.append((wl, self.tree.cqs[name]))
        entries, inadmissible = self._nominate(heads)
        entries.sort(key=lambda e: (e.assignment.borrowing, -e.wl.priority, e.wl.created))
        # the cycle works on a snapshot of the usage (Kueue's Snapshot): reservations and preemptors' usage stay
        # in it; the cache gets only the admissions, replayed on the saved usage at the end of the cycle
        saved = self.tree.save()
        admitted: list[tuple[Node, dict[FR, int]]] = []
        preempted: dict[str, Target] = {}
        for e in (tournament_order(self.fair, entries) if self.fair is not None else entries):
            mode = e.assignment.mode()
            if mode == NO_FIT:
                continue
            if mode == PREEMPT and not e.targets:
                if e.cq.cq.preemption.reclaim_within_cohort != "Any":
                    usage = self._to_reserve(e)
                    add_all(e.cq, usage)
                continue
            if any(t.wl.key in preempted for t in e.targets):
                self._skip(e, "Workload has overlapping preemption targets with another workload")
                continue
            usage = e.assignment.usage
            if not self._fits(e, usage, list(preempted.values()) + e.targets):
                self._skip(e, "Workload no longer fits after processing another workload")
                continue
            for t in e.targets:
                preempted[t.wl.key] = t
            add_all(e.cq, usage)
            if mode == PREEMPT:
                e.wl.last_tried = None
                count = self._issue(e)
                if count:
                    e.msg += f". Pending the preemption of {count} workload(s)"
                    e.reason = PENDING_PREEMPTION
                continue
            e.status = EntryStatus.NOMINATED
            self._admit(e)
            admitted.append((e.cq, usage))
        self.tree.restore(saved)
        for cq, usage in admitted:
            add_all(cq, usage)
        for e in entries + inadmissible:
            if e.status is not EntryStatus.ASSUMED:
                self._requeue(e)
        self._settle_evictions()
        self._settle_checks()
        if self.cycles == 1:
            # adding each ClusterQueue asked the queue manager to retry its cohort tree's inadmissible workloads
            # (manager.go AddClusterQueue: notifyRetryInadmissible); that request is served after the first cycle
            for q in self.queues.values():
                q.flush(self.inputs.namespaces)
        self.now += 1

    # -- cycle steps -------------------------------------------------------------------------------------------
    def _nominate(self, heads):
        entries, inadmissible = [], []
        for wl, cq in heads:
            e = Entry(wl, cq)
            if not cq.cq.namespace_selector.matches(self.inputs.namespaces.get(wl.namespace, {})):
                e.msg, e.reason = "Workload namespace doesn't match ClusterQueue selector", NAMESPACE_MISMATCH
                inadmissible.append(e)
                continue
            e.msg = limit_range_message(wl.pod_sets)
            if e.msg:
                inadmissible.append(e)
                continue
            e.assignment, e.targets = self._assignments(wl, cq)
            e.msg = e.assignment.message()
            wl.last_tried = e.assignment.last_tried
            self.tried_at[wl.key] = self.generation[cq.name]
            entries.append(e)
        return entries, inadmissible

    def _assignments(self, wl: Workload, cq: Node) -> tuple[Assignment, list[Target]]:
        """getInitialAssignments: the full assignment (with its preemption targets), else, for a workload that
        allows it, the largest reduced counts that fit or can preempt (podset_reducer.go: a binary search over
        the steps from the full counts down to the minimum counts)."""
        if wl.last_tried is not None and self.generation[cq.name] > self.tried_at.get(wl.key, 0):
            wl.last_tried = None  # flavorassigner.go Assign: lastAssignmentOutdated
        assigner = FlavorAssigner(self, wl, cq)
        full = assigner.assign()
        mode = full.mode()
        if mode == FIT:
            return full, []
        if mode == PREEMPT:
            targets = self._targets(wl, cq, full)
            if targets:
                return full, targets
        deltas = [ps.count - ps.min_count if ps.min_count is not None else 0 for ps in wl.pod_sets]
        total = sum(deltas)
        if total <= 0 or not any(ps.min_count is not None and ps.min_count < ps.count for ps in wl.pod_sets):
            return full, []
        last_good, found = 0, None
        lo, hi = 0, total + 1
        while lo < hi:
            mid = (lo + hi) // 2
            counts = [ps.count - d * mid // total for ps, d in zip(wl.pod_sets, deltas)]
            attempt = assigner.assign(counts)
            mode = attempt.mode()
            targets = self._targets(wl, cq, attempt) if mode == PREEMPT else []
            if mode == FIT or targets:
                last_good, found = mid, (attempt, targets)
                hi = mid
            else:
                lo = mid + 1
        if found is not None and lo == last_good:
            return found
        return full, []

    def _targets(self, wl: Workload, cq: Node, a: Assignment) -> list[Target]:
        if any(ps.topology for ps in a.pod_sets) or any(p.topology or p.tas_unsupported for p in wl.pod_sets):
            self.notes.add("preemption for topology-aware workloads weighs quota only, not the topology domains "
                           "the preemptor would need")
        return self.preemptor.targets(wl, cq, a.needs_preemption(), a.usage)

    @staticmethod
    def _skip(e: Entry, msg: str) -> None:
        """setSkipped: the next attempt tries every flavor again."""
        e.msg, e.status = msg, EntryStatus.SKIPPED
        e.wl.last_tried = None

    def _to_reserve(self, e: Entry) -> dict[FR, int]:
        out = {}
        for fr, usage in e.assignment.usage.items():
            q = e.cq.quota(fr)
            used = e.cq.usage.get(fr, 0)
            if e.assignment.borrowing > 0:
                out[fr] = usage if q.borrowing_limit is None else min(usage, q.nominal + q.borrowing_limit - used)
            else:
                out[fr] = max(0, min(usage, q.nominal - used))
        return out

    def _fits(self, e: Entry, usage: dict[FR, int], removed: list[Target]) -> bool:
        """fits(): the quota, and the TAS domains, still free once earlier admissions of the cycle are counted."""
        for t in removed:
            remove_all(t.cq, t.wl.usage())
            self.tas_usage(t.wl, -1)
        ok = all(cq_available(e.cq, fr) >= v for fr, v in usage.items())
        for psa in e.assignment.pod_sets if ok else ():
            if psa.topology is None:
                continue
            for res, choice in psa.flavors.items():
                topo = self.tas.get(choice.flavor)
                if topo is None:
                    continue
                single = {r: v // psa.count for r, v in psa.requests.items()
                          if psa.flavors.get(r) is not None and psa.flavors[r].flavor in self.tas}
                ok = ok and topo.fits(psa.topology[1], single)
        for t in removed:
            add_all(t.cq, t.wl.usage())
            self.tas_usage(t.wl, +1)
        return ok

    def _issue(self, e: Entry) -> int:
        count = 0
        for t in e.targets:
            count += 1
            if t.wl.is_evicted():
                continue
            msg = preemption_message(e.wl, t.reason, e.cq.path(), t.cq.path())
            t.wl.set_condition("Evicted", True, "Preempted", msg, self.now)
            t.wl.set_condition("Preempted", True, t.reason, msg, self.now)
            t.wl.preempted_by = e.wl.key
            self.evicted[t.wl.key] = t.wl
            self.changed = True
        return count

    def _admit(self, e: Entry) -> None:
        wl = e.wl
        wl.admission_cq = e.cq.name
        wl.admission = [PodSetAdmission(ps.name, ps.count, {r: c.flavor for r, c in ps.flavors.items()},
                                        {r: ps.requests.get(r, 0) for r in ps.flavors}, ps.topology)
                        for ps in e.assignment.pod_sets]
        self.tas_usage(wl, +1)
        wl.set_condition("QuotaReserved", True, "QuotaReserved", f"Quota reserved in ClusterQueue {e.cq.name}", self.now)
        for kind in ("Evicted", "Preempted"):
            old = wl.conditions.get(kind)
            if old is not None and old.status:
                wl.set_condition(kind, False, "QuotaReserved", f"Previously: {old.message}", self.now)
        if not self._checks_of(e.cq.name):
            self._sync_admitted(wl)
        self.admitted[e.cq.name][wl.key] = wl
        self.unchecked[wl.key] = wl
        self.queues[e.cq.name].forget(wl.key)
        e.status = EntryStatus.ASSUMED
        self.changed = True

    def _checks_of(self, cq: str) -> tuple[str, ...]:
        return self.inputs.cluster_queues[cq].admission_checks

    def _sync_admitted(self, wl: Workload) -> None:
        if wl.has_quota() and not wl.is_admitted():
            wl.set_condition("Admitted", True, "Admitted", "The workload is admitted", self.now)
        elif not wl.has_quota() and wl.is_admitted():
            wl.set_condition("Admitted", False, "NoReservation", "The workload has no reservation", self.now)

    def _unset(self, wl: Workload, reason: str, msg: str) -> None:
        if wl.set_condition("QuotaReserved", False, reason, msg, self.now):
            self.changed = True
        if wl.admission is not None:
            wl.admission, wl.admission_cq = None, None
            self.changed = True
        self._sync_admitted(wl)

    def _requeue(self, e: Entry) -> None:
        if e.status is not EntryStatus.NOT_NOMINATED and e.reason == GENERIC:
            e.reason = FAILED_AFTER_NOMINATION
        wl = e.wl
        lq = self.local_queue(wl)
        if not wl.has_quota() and lq is not None and lq.cluster_queue in self.queues:
            pending = any(idx != -1 for tried in wl.last_tried or () for idx in tried.values())
            self.queues[lq.cluster_queue].requeue(wl, e.reason, pending)
        if e.status in (EntryStatus.NOT_NOMINATED, EntryStatus.SKIPPED):
            self._unset(wl, "Pending", e.msg)

    def _settle_evictions(self) -> None:
        evicted, self.evicted = self.evicted, {}
        for _, wl in sorted(evicted.items()):
            if not (wl.is_evicted() and wl.has_quota()):
                continue
            ev = wl.conditions["Evicted"]
            wl.set_condition("Requeued", ev.reason == "Preempted", ev.reason, ev.message, self.now)
            cq = wl.admission_cq
            usage = wl.usage()
            held = Workload(wl.namespace, wl.name, wl.uid, wl.queue, wl.priority, wl.created, [],
                            admission=wl.admission)
            self._unset(wl, "Pending", ev.message)
            if cq in self.admitted and self.admitted[cq].pop(wl.key, None) is not None:
                for fr, v in usage.items():
                    remove_usage(self.tree.cqs[cq], fr, v)
                self.tas_usage(held, -1)
                self.generation[cq] += 1  # clusterqueue.go deleteWorkload
            wl.last_tried = None  # requeued as a new workload.Info, with no last assignment
            lq = self.local_queue(wl)
            if lq is None or lq.stop_policy != "None" or lq.cluster_queue not in self.queues:
                continue
            self.queues[lq.cluster_queue].add(wl)
            node = self.tree.cqs[lq.cluster_queue]
            tree = node.parent.root().subtree_cqs() if node.parent is not None else [node]
            for member in tree:
                self.queues[member.name].flush(self.inputs.namespaces)

    def _settle_checks(self, everyone: bool = False) -> None:
        todo = self.workloads if everyone else [w for _, w in sorted(self.unchecked.items())]
        self.unchecked = {}
        for wl in todo:
            if not wl.has_quota() or wl.is_admitted() or wl.admission_cq not in self.inputs.cluster_queues:
                continue
            if self.checks == AdmissionChecks.PENDING and self._checks_of(wl.admission_cq):
                continue
            self._sync_admitted(wl)
            self.changed = True

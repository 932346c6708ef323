"""From documents to `PlanInputs`: the cluster as it is (snapshot) and what the change creates (manifests).

Both sides accept any mix of kinds — `kubectl get ... -o yaml` Lists, hand-written objects, the compact
`Cluster` kind, Jobs — so a what-if can add a node pool as a manifest or keep a pending pod in the snapshot.
Kinds the planner does not read (Services, ConfigMaps, ...) are skipped without a word; scheduling kinds of a
version the release does not serve are still read (validation reports the version separately).

Snapshot rules: Succeeded and Failed pods are gone; a pod with `spec.nodeName` is running there; a pod without
one is pending and gets scheduled like an arrival. A workload (Job, JobSet, LeaderWorkerSet, Deployment,
ReplicaSet, StatefulSet) in the snapshot is expanded only when nothing in the snapshot is controlled by it and its
status shows it never started (a hand-written snapshot); otherwise its pods are already listed. `existing` is
ordered by `metadata.creationTimestamp`, objects without one after those with one, each group in input order.

Objects named only by `metadata.generateName` get a deterministic name and a WAS620 note (generated_names.py;
`plan` names them before validation already); arrivals that run pods through a controller the plan does not
model are listed as `Unplanned` (WAS622); arrival pods and PodGroups the API server's Priority admission would
refuse (a PriorityClass that exists nowhere, a priority their class does not give) are taken out
(cluster/admission.py, WAS630); arrivals that Kueue manages wait for its admission (cluster/kueue.py).
"""

from __future__ import annotations

import dataclasses
import gc
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Iterable, Iterator

from wasplan.api.releases import GateSet
from wasplan.cluster.admission import known_classes, refuse_at_admission
from wasplan.cluster.cluster_kind import expand_cluster, is_cluster_kind
from wasplan.cluster.controllers import expander, runs_unplanned_pods
from wasplan.cluster.controllers.context import Expansion
from wasplan.cluster.controllers.job import JOB_NAME_LABEL, MAX_JOB_PODS
from wasplan.cluster.controllers.jobset import PREFIX as JOBSET_PREFIX
from wasplan.cluster.controllers.lws import NAME as LWS_NAME
from wasplan.cluster.generated_names import give_generated_name, needs_name
from wasplan.cluster import dra_gate
from wasplan.cluster.issues import Ctx
from wasplan.cluster.kueue import (QUEUE_LABEL, KueueAdmission, KueueDecisions, KueueVerdict, admission_of, as_admitted,
                                  pin_to_domains, pod_admission, pod_verdicts, tas_annotations, verdict_for,
                                  with_flavors)
from wasplan.cluster.model import Group, Node, PlanInputs, Pod, PriorityClass, Record, Unplanned
from wasplan.cluster.parse_core import parse_record
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document, ReadResult

FINISHED_PHASES = ("Succeeded", "Failed")
_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
def _named(doc: Document, ctx: Ctx, exp: Expansion) -> bool:
    """Whether the document has the name the planner needs: its own, or one made for its `generateName`."""
    if not needs_name(doc) or give_generated_name(doc, exp.namer, ctx):
        return True
    ctx.report("WAS603", f"{doc.kind} has no metadata.name; it was left out of the plan", ("metadata", "name"))
    return False


def records_of(doc: Document, gates: GateSet, diags: list[Diagnostic],
               exp: Expansion | None = None) -> list[Record | Unplanned]:
    """The records one document stands for: one for most kinds, many for a Cluster or a workload controller,
    an `Unplanned` entry for an object that runs pods the plan cannot expand."""
    ctx = Ctx(doc, diags)
    exp = exp or Expansion(gates)
    if is_cluster_kind(doc.obj):
        return expand_cluster(doc.obj, ctx)
    if not _named(doc, ctx, exp):
        return []
    expand = expander(doc.obj)
    if expand is not None:
        return _within_pod_limit(doc, expand(doc.obj, exp, ctx), ctx)
    if runs_unplanned_pods(doc.obj):
        where = doc.location(("kind",))
        return [Unplanned(doc.kind, doc.namespace or "default", doc.name, doc.api_version, where.file, where.line)]
    record = parse_record(doc.obj, ctx)
    return [] if record is None else [record]


def _arrival(doc: Document, gates: GateSet, diags: list[Diagnostic], exp: Expansion,
             assume_admitted: bool, kueue: KueueDecisions | None = None) -> list[Record | Unplanned]:
    """An arriving object's records; one that Kueue manages is expanded as Kueue leaves it on admission, and its
    pods wait for that admission unless it is assumed (WAS624, WAS625; cluster/kueue.py). With `kueue`, Kueue's
    own decision on the object's Workload (pipeline/kueue_stage.py): admitted, its pods carry their flavors'
    node selectors and tolerations (WAS690); not admitted, they wait with Kueue's reason (WAS691)."""
    namespace = doc.namespace or "default"
    admission = admission_of(doc.obj, namespace)
    verdict = verdict_for(kueue, doc.obj, namespace) if admission and not assume_admitted else None
    if verdict is not None and verdict.admitted:
        records = records_of(dataclasses.replace(doc, obj=with_flavors(as_admitted(doc.obj), verdict)), gates,
                             diags, exp=exp)
        pin_to_domains(records, doc.obj, verdict)
        _two_topologies(doc, Ctx(doc, diags), namespace, verdict, records)
        _admitted_by_kueue(doc, Ctx(doc, diags), namespace, verdict)
        return records
    records = records_of(dataclasses.replace(doc, obj=as_admitted(doc.obj)) if admission else doc, gates, diags,
                         exp=exp)
    decided = pod_verdicts(records, kueue, namespace) if kueue and verdict is None and not assume_admitted else []
    if decided:
        _decided_per_pod(doc, Ctx(doc, diags), namespace, decided, admission)
        return records
    held = [(r, admission or pod_admission(doc.obj, r.labels, namespace)) for r in records if isinstance(r, Pod)]
    held = [(pod, why) for pod, why in held if why is not None]
    if not held:
        return records
    ctx, subject, first = Ctx(doc, diags), f"{doc.kind} {namespace}/{doc.name}", held[0][1]
    where = ("metadata", "labels", QUEUE_LABEL) if admission else ("kind",)
    if assume_admitted:
        ctx.report("WAS625", f"{subject} is planned as if Kueue admitted it now ({first.describe()}); "
                             "Kueue's quotas are not modelled", where)
        _topology_not_honoured(doc, ctx, subject)
        return records
    waits = "it waits" if doc.kind == "Pod" else f"its {len(held)} pod{'s wait' if len(held) != 1 else ' waits'}"
    if verdict is not None:
        ctx.report("WAS691", f"{subject} is not admitted by Kueue ({first.describe()}): {verdict.explain()}; {waits}",
                   where, hint="`wasplan explain` on it names the smallest change that admits it")
        held = [(pod, dataclasses.replace(why, verdict=verdict)) for pod, why in held]
    else:
        ctx.report("WAS624", f"{subject} is managed by Kueue ({first.describe()}): {waits} for Kueue to admit it, "
                             "and Kueue's quotas are not modelled", where,
                   hint="--assume-admitted plans it as if Kueue admitted it now; with the cluster's Kueue objects "
                        "among the inputs (`kubectl get clusterqueues,localqueues,resourceflavors,cohorts,"
                        "workloadpriorityclasses,topologies,workloads -A -o yaml`) the plan runs Kueue's admission")
    for pod, why in held:
        pod.admission = why
    return records


def _decided_per_pod(doc: Document, ctx: Ctx, namespace: str, decided: list, admission: KueueAdmission | None) -> None:
    """An object whose pods Kueue admits pod by pod or group by group (a Deployment's pods, a StatefulSet's or a
    LeaderWorkerSet's Workloads, pods queued through a template): WAS690 for what is admitted, WAS691 for what
    waits, whose pods keep Kueue's verdict (cluster/kueue.py `pod_verdicts` already gave the admitted ones their
    flavors)."""
    subject, where = f"{doc.kind} {namespace}/{doc.name}", ("metadata", "labels", QUEUE_LABEL) if admission else ("kind",)
    admitted = [v for _, v in decided if v.admitted]
    waiting = [(pod, v) for pod, v in decided if not v.admitted]
    if admitted:
        names = sorted({v.workload for v in admitted})
        ctx.report("WAS690", f"{subject} is admitted by Kueue: " + (admitted[0].explain() if len(names) == 1 else
                   f"{len(names)} Workloads ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}) in "
                   f"ClusterQueue {admitted[0].cluster_queue}") + (f"; {len(decided) - len(waiting)} of its "
                                                                   f"{len(decided)} pods" if waiting else ""), where)
    if not waiting:
        return
    first_pod, first = waiting[0]
    why = admission or pod_admission(doc.obj, first_pod.labels, namespace) or KueueAdmission(namespace, "")
    state = "partly admitted" if admitted else "not admitted"
    ctx.report("WAS691", f"{subject} is {state} by Kueue ({why.describe()}): {first.explain()}; {len(waiting)} of its "
                         f"pods wait{'s' if len(waiting) == 1 else ''}", where, hint="`wasplan explain` on it names the smallest change that admits it")
    for pod, verdict in waiting:
        base = admission or pod_admission(doc.obj, pod.labels, namespace) or why
        pod.admission = dataclasses.replace(base, verdict=verdict)


def _two_topologies(doc: Document, ctx: Ctx, namespace: str, verdict: KueueVerdict, records: list) -> None:
    """WAS696 where Kueue's topology-aware scheduling pinned the pods to domains and a scheduling.k8s.io PodGroup
    of the same object also constrains them by topology: the two decide apart, and the plan follows both."""
    keys = sorted({k for r in records if isinstance(r, Group) for k in getattr(r.obj, "topology_keys", ()) or ()})
    levels = sorted({label for _, _, _, domains in verdict.pod_sets for labels, _ in domains for label, _ in labels})
    if keys and levels:
        ctx.report("WAS696", f"{doc.kind} {namespace}/{doc.name}: Kueue's topology-aware scheduling pins its pods to "
                             f"domains of {', '.join(levels)}, and its PodGroup's schedulingConstraints.topology "
                             f"({', '.join(keys)}) constrains them too: Kueue chose the domains without the "
                             "PodGroup's constraint, so kube-scheduler may find no placement that satisfies both",
                   ("metadata", "labels", QUEUE_LABEL),
                   hint="keep one of the two: Kueue's kueue.x-k8s.io/podset-*-topology annotation or the "
                        "PodGroup's topology constraint")


def _admitted_by_kueue(doc: Document, ctx: Ctx, namespace: str, verdict: KueueVerdict) -> None:
    flavors = "; ".join(f"podset {name}: nodeSelector " + ",".join(f"{k}={v}" for k, v in sorted(selector.items()))
                        + (f", {len(domains)} topology domain{'s' if len(domains) != 1 else ''}" if domains else "")
                        for name, selector, _, domains in verdict.pod_sets if selector or domains)
    ctx.report("WAS690", f"{doc.kind} {namespace}/{doc.name} is admitted by Kueue: {verdict.explain()}"
                         + (f" ({flavors})" if flavors else ""), ("metadata", "labels", QUEUE_LABEL))


def _topology_not_honoured(doc: Document, ctx: Ctx, subject: str) -> None:
    """WAS626 for each Kueue Topology Aware Scheduling annotation of an object planned as admitted: Kueue would
    pick the domain and pin the pods to it; the plan leaves them to kube-scheduler alone (cluster/kueue.py)."""
    for path, key, value in tas_annotations(doc.obj):
        ctx.report("WAS626", f"{subject}: {key}: {value} is not honoured: Kueue's Topology Aware Scheduling is not "
                             "modelled, so its pods are planned without the topology domain Kueue would assign",
                   path, hint="for a gang kept in one domain by kube-scheduler itself, write the PodGroup's "
                              "schedulingConstraints.topology (1.37)")


def _within_pod_limit(doc: Document, records: list[Record], ctx: Ctx) -> list[Record]:
    """A workload object that starts more pods than the planner expands (docs/exit-codes.md: Limits) is refused as a
    whole; a Job is refused before it is expanded (controllers/job.py), every other controller here."""
    pods = sum(1 for r in records if isinstance(r, Pod))
    if pods <= MAX_JOB_PODS:
        return records
    ctx.report("WAS610", f"{doc.kind} {doc.namespace or 'default'}/{doc.name} would start {pods:,} pods; the planner "
                         f"expands at most {MAX_JOB_PODS:,} per workload", ("spec",),
               hint="plan a scaled-down copy (the scheduler treats its pods alike)")
    return []


def _key(record: Record) -> tuple[str, str, str]:
    if isinstance(record, Group):
        return (type(record.obj).__name__, record.namespace, record.name)
    namespace = getattr(record, "namespace", "") if not isinstance(record, (Node, PriorityClass)) else ""
    return (type(record).__name__, namespace, record.name)


def _timestamp(doc: Document, ctx_diags: list[Diagnostic]) -> datetime | None:
    raw = doc.metadata.get("creationTimestamp")
    if raw is None:
        return None
    if isinstance(raw, str) and _RFC3339.match(raw):
        value = datetime.fromisoformat(raw.replace("z", "Z").replace("t", "T").replace("Z", "+00:00"))
        return value.astimezone(timezone.utc)
    Ctx(doc, ctx_diags).report(
        "WAS604", f"creationTimestamp {raw!r} is not an RFC 3339 time such as 2026-01-31T12:00:00Z",
        ("metadata", "creationTimestamp"))
    return None


Entry = tuple[tuple, Document, list[Record]]


def _sort_key(doc: Document, order: int, diags: list[Diagnostic]) -> tuple:
    ts = _timestamp(doc, diags)
    return (0, ts, order) if ts is not None else (1, order)


def _finished(record: Record) -> bool:
    return isinstance(record, Pod) and record.phase in FINISHED_PHASES


# labels by which a snapshot pod names the workload that made it, besides its controller reference
_OWNER_LABELS = (("Job", JOB_NAME_LABEL), ("JobSet", JOBSET_PREFIX + "jobset-name"), ("LeaderWorkerSet", LWS_NAME))


def _controlled(snapshot: ReadResult) -> set[tuple[str, str, str]]:
    """(namespace, kind, name) of every object that something in the snapshot names as its controller (a
    ReplicaSet's Deployment, a pod's Job or StatefulSet), or that a pod names by a workload label."""
    owned = set()
    for doc in snapshot.documents:
        ns = doc.namespace or "default"
        refs = doc.metadata.get("ownerReferences")
        for ref in refs if isinstance(refs, list) else ():
            if isinstance(ref, dict) and ref.get("controller") is True:
                owned.add((ns, str(ref.get("kind")), str(ref.get("name"))))
        labels = doc.metadata.get("labels")
        if doc.kind == "Pod" and isinstance(labels, dict):
            owned.update((ns, kind, str(labels[key])) for kind, key in _OWNER_LABELS if key in labels)
    return owned


_STARTED_FIELDS = ("active", "succeeded", "failed", "ready", "replicas", "readyReplicas", "availableReplicas",
                   "completionTime", "replicatedJobsStatus", "restarts")


def _started(doc: Document) -> bool:
    """Whether the workload's status shows its controller already acted (so its pods are in the snapshot)."""
    status = doc.obj.get("status")
    return isinstance(status, dict) and any(status.get(k) for k in _STARTED_FIELDS)


def _existing(snapshot: ReadResult, exp: Expansion, diags: list[Diagnostic]) -> list[Entry]:
    entries: list[Entry] = []
    controlled = _controlled(snapshot)
    for order, doc in enumerate(snapshot.documents):
        if expander(doc.obj) is not None and (
                (doc.namespace or "default", doc.kind, doc.name) in controlled or _started(doc)):
            continue
        records = [r for r in records_of(doc, exp.gates, diags, exp=exp) if not isinstance(r, Unplanned)]
        entries.append((_sort_key(doc, order, diags), doc, records))
    entries.sort(key=lambda e: e[0])
    return [(key, doc, [r for r in records if not _finished(r)]) for key, doc, records in entries]


def _dedupe(entries: Iterable[Entry], seen: dict, diags: list[Diagnostic]) -> list[Record]:
    """Keep the first object of each (kind, namespace, name); later ones are reported (WAS606) and dropped."""
    out: list[Record] = []
    for _, doc, records in entries:
        for record in records:
            key = _key(record)
            first = seen.get(key)
            if first is None:
                seen[key] = doc
                out.append(record)
                continue
            where = first.location().file
            ns = f"{key[1]}/" if key[1] else ""
            Ctx(doc, diags).report("WAS606", f"{key[0]} {ns}{key[2]} is already defined (first in {where}); "
                                   "this one was ignored", ("metadata", "name"))
    return out


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Building records allocates millions of small objects next to a large, long-lived document tree; the
    cyclic collector would rescan that tree over and over (about half the time on a 55,000-object snapshot)
    while nothing built here forms a cycle worth collecting. Pause it for the duration, then restore it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build_inputs(snapshot: ReadResult, manifests: ReadResult, gates: GateSet,
                 assume_admitted: bool = False, kueue: KueueDecisions | None = None,
                 evictions: dict | None = None) -> tuple[PlanInputs, list[Diagnostic]]:
    """Records for the engine plus every finding made while building them (reading findings are the caller's).
    `assume_admitted`: arrivals Kueue manages are planned as if it admitted them now (cluster/kueue.py);
    `kueue`: Kueue's decisions per object, when the admission stage ran (pipeline/kueue_stage.py);
    `evictions`: (namespace, pod) -> (reason, message) for the snapshot pods Kueue stops (same stage)."""
    with _gc_paused():
        return _build(snapshot, manifests, gates, assume_admitted, kueue, evictions or {})


def _stopped_by_kueue(existing: list[Record], evictions: dict) -> None:
    """Mark the snapshot pods Kueue stops: the engine takes them off their nodes before it schedules anything."""
    for record in existing:
        if isinstance(record, Pod) and (record.namespace, record.name) in evictions:
            record.eviction = evictions[(record.namespace, record.name)]


def _build(snapshot: ReadResult, manifests: ReadResult, gates: GateSet,
           assume_admitted: bool = False, kueue: KueueDecisions | None = None,
           evictions: dict | None = None) -> tuple[PlanInputs, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    exp = Expansion(gates)
    exp.learn_priorities(doc.obj for doc in (*snapshot.documents, *manifests.documents))
    exp.learn_workloads(doc.obj for doc in (*snapshot.documents, *manifests.documents))
    existing_entries = _existing(snapshot, exp, diags)
    arrival_entries = [((2, order), doc, _arrival(doc, gates, diags, exp, assume_admitted, kueue))
                       for order, doc in enumerate(manifests.documents)]
    unplanned = _unplanned(arrival_entries, diags)
    classes = {**known_classes(existing_entries), **known_classes(arrival_entries)}
    refused = refuse_at_admission(arrival_entries, classes, gates, diags)
    seen: dict = {}
    existing = _dedupe(existing_entries, seen, diags)
    if evictions:
        _stopped_by_kueue(existing, evictions)
    arrivals = _dedupe(arrival_entries, seen, diags)
    dra_gate.check_claims([*existing, *arrivals], diags)
    return PlanInputs(existing=existing, arrivals=arrivals, unplanned=unplanned, refused=refused), diags


def _unplanned(entries: list[Entry], diags: list[Diagnostic]) -> list[Unplanned]:
    """Take the `Unplanned` entries out of the arrivals, each reported once (WAS622)."""
    out = []
    for _, doc, records in entries:
        for r in [r for r in records if isinstance(r, Unplanned)]:
            records.remove(r)
            out.append(r)
            Ctx(doc, diags).report("WAS622", f"{r.kind} {r.namespace}/{r.name} ({r.api_version}) runs pods through "
                                   "a controller wasplan does not model; it is not planned", ("kind",))
    return out

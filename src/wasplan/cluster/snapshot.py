"""From documents to `PlanInputs`: the cluster as it is (snapshot) and what the change creates (manifests).

Both sides accept any mix of kinds — `kubectl get ... -o yaml` Lists, hand-written objects, the compact
`Cluster` kind, Jobs — so a what-if can add a node pool as a manifest or keep a pending pod in the snapshot.
Kinds the planner does not read (Services, ConfigMaps, ...) are skipped without a word; scheduling kinds of a
version the release does not serve are still read (validation reports the version separately).

Snapshot rules: Succeeded and Failed pods are gone; a pod with `spec.nodeName` is running there; a pod without
one is pending and gets scheduled like an arrival. A Job in the snapshot is expanded only when the snapshot holds
none of its pods (a hand-written snapshot); otherwise its pods are already listed. `existing` is ordered by
`metadata.creationTimestamp`, objects without one after those with one, each group in input order.
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Iterable, Iterator

from wasplan.api.releases import GateSet
from wasplan.cluster.cluster_kind import expand_cluster, is_cluster_kind
from wasplan.cluster.issues import Ctx
from wasplan.cluster.dra_refs import check_references
from wasplan.cluster.jobs import JOB_NAME_LABEL, expand_job
from wasplan.cluster.model import Group, Node, PlanInputs, Pod, PriorityClass, Record
from wasplan.cluster.parse_core import parse_record
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document, ReadResult

FINISHED_PHASES = ("Succeeded", "Failed")
_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
_NAMED_KINDS = frozenset({"Pod", "Node", "PriorityClass", "PodDisruptionBudget", "Job",
                          "Workload", "PodGroup", "CompositePodGroup",
                          "DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceTaintRule"})


def _is_job(obj: dict) -> bool:
    return obj.get("kind") == "Job" and str(obj.get("apiVersion", "")).startswith("batch/")


def _has_name(doc: Document, ctx: Ctx) -> bool:
    """Objects the planner refers to by name must have one; generateName is the API server's to resolve."""
    if doc.kind not in _NAMED_KINDS:
        return True
    name = doc.metadata.get("name")
    if isinstance(name, str) and name:
        return True
    hint = ("the API server would pick a random name from generateName; give the object a fixed name to plan it"
            if doc.metadata.get("generateName") else None)
    ctx.report("WAS603", f"{doc.kind} has no metadata.name; it was left out of the plan", ("metadata", "name"), hint)
    return False


def records_of(doc: Document, gates: GateSet, diags: list[Diagnostic], expand_jobs: bool = True) -> list[Record]:
    """The records one document stands for: one for most kinds, many for a Cluster or a Job."""
    ctx = Ctx(doc, diags)
    obj = doc.obj
    if is_cluster_kind(obj):
        return expand_cluster(obj, ctx)
    if not _has_name(doc, ctx):
        return []
    if _is_job(obj):
        return expand_job(obj, gates, ctx) if expand_jobs else []
    record = parse_record(obj, ctx)
    return [] if record is None else [record]


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


def _job_owners(entries: Iterable[Entry]) -> set[tuple[str, str]]:
    """(namespace, job) of every snapshot pod a Job made, by controller reference or by the job-name label."""
    owned = set()
    for _, _, records in entries:
        for r in records:
            if isinstance(r, Pod):
                if r.owner is not None and r.owner.kind == "Job":
                    owned.add((r.namespace, r.owner.name))
                if JOB_NAME_LABEL in r.labels:
                    owned.add((r.namespace, r.labels[JOB_NAME_LABEL]))
    return owned


def _job_started(doc: Document) -> bool:
    status = doc.obj.get("status")
    if not isinstance(status, dict):
        return False
    return bool(status.get("completionTime") or any(status.get(k) for k in ("active", "succeeded", "failed", "ready")))


def _existing(snapshot: ReadResult, gates: GateSet, diags: list[Diagnostic]) -> list[Entry]:
    entries: list[Entry] = []
    jobs: list[tuple[int, Document]] = []
    for order, doc in enumerate(snapshot.documents):
        if _is_job(doc.obj):
            jobs.append((order, doc))
            continue
        entries.append((_sort_key(doc, order, diags), doc, records_of(doc, gates, diags)))
    owned = _job_owners(entries)
    for order, doc in jobs:
        if (doc.namespace or "default", doc.name) in owned or _job_started(doc):
            continue
        entries.append((_sort_key(doc, order, diags), doc, records_of(doc, gates, diags)))
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


def build_inputs(snapshot: ReadResult, manifests: ReadResult, gates: GateSet) -> tuple[PlanInputs, list[Diagnostic]]:
    """Records for the engine plus every finding made while building them (reading findings are the caller's)."""
    with _gc_paused():
        return _build(snapshot, manifests, gates)


def _build(snapshot: ReadResult, manifests: ReadResult, gates: GateSet) -> tuple[PlanInputs, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    existing_entries = _existing(snapshot, gates, diags)
    arrival_entries = [((2, order), doc, records_of(doc, gates, diags)) for order, doc in enumerate(manifests.documents)]
    seen: dict = {}
    existing = _dedupe(existing_entries, seen, diags)
    arrivals = _dedupe(arrival_entries, seen, diags)
    diags += check_references([*existing, *arrivals])
    return PlanInputs(existing=existing, arrivals=arrivals), diags

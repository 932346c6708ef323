"""Kueue's references between objects (WAS440-WAS446): what Kueue v0.17.0 needs to find by name; and the
queue-name label on a kind none of Kueue's integrations reads (WAS447: KDIR/pkg/controller/jobs/, one package
per integration, each naming its GroupVersionKind).

Kueue resolves these names in its cache and controllers (KDIR/pkg/cache/scheduler/cache.go and
clusterqueue.go: a ClusterQueue naming a missing ResourceFlavor or AdmissionCheck is inactive;
KDIR/pkg/cache/queue/manager.go: a workload whose LocalQueue is missing stays pending; KDIR/pkg/cache/hierarchy:
a cohort cycle; KDIR/pkg/controller/jobframework/reconciler.go + pkg/util/priority: a job whose
kueue.x-k8s.io/priority-class names no WorkloadPriorityClass gets no Workload).

Which objects exist: the inputs'. A name missing from them may well exist in the cluster, so a reference is
reported only when the inputs hold at least one object of the kind it names (the setup is in the inputs) or a
close name (a typo). Cohort names need no Cohort object (Kueue creates implicit cohorts), so only a cycle of
parentName is a finding.
"""

from __future__ import annotations

from typing import Iterator

from wasplan.api.kueue import INTEGRATIONS, PRIORITY_CLASS_LABEL, QUEUE_LABEL
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.suggest import guess
from wasplan.validate.rules.common import make
from wasplan.validate.walk import items, mapping

GROUP = "kueue.x-k8s.io"
DEFAULT_NAMESPACE = "default"


def check_kueue(docs: list[Document]) -> list[Diagnostic]:
    kueue = [d for d in docs if d.group == GROUP and isinstance(d.obj, dict)]
    names = {kind: sorted({d.name for d in kueue if d.kind == kind and d.name})
             for kind in ("ClusterQueue", "ResourceFlavor", "Topology", "AdmissionCheck", "WorkloadPriorityClass")}
    queues = {(d.namespace or DEFAULT_NAMESPACE, d.name) for d in kueue if d.kind == "LocalQueue" and d.name}
    out: list[Diagnostic] = []
    for doc in kueue:
        for code, kind, path, name in _references(doc):
            out += _missing(doc, code, kind, path, name, names[kind])
    out += _cohort_cycles([d for d in kueue if d.kind == "Cohort"])
    if queues:
        out += [d for doc in docs for d in _queue_label(doc, queues)]
    out += [d for doc in docs if doc.group != GROUP for d in _priority_label(doc, names["WorkloadPriorityClass"])]
    out += [d for doc in docs if doc.group != GROUP for d in _no_integration(doc)]
    return out


_WHERE_INSTEAD = {"CronJob": "its spec.jobTemplate.metadata.labels (the labels its Jobs get)",
                  "ReplicaSet": "its pod template's labels (Kueue's pod integration then gates each pod), or queue "
                                "a Deployment"}


def _no_integration(doc: Document) -> list[Diagnostic]:
    labels = mapping(mapping(doc.obj.get("metadata")).get("labels")) if isinstance(doc.obj, dict) else {}
    queue = labels.get(QUEUE_LABEL)
    if not isinstance(queue, str) or not queue or (doc.group, doc.kind) in INTEGRATIONS:
        return []
    message = (f'{doc.kind} "{doc.name}" carries {QUEUE_LABEL}: {queue}, but Kueue v0.17.0 has no integration for '
               f"{doc.kind} ({doc.api_version}): Kueue does not read the label there, so it queues nothing through it")
    instead = _WHERE_INSTEAD.get(doc.kind)
    hint = f"put the label on {instead}" if instead else "queue a kind Kueue integrates, or drop the label"
    return [make(doc, "WAS447", message, ("metadata", "labels", QUEUE_LABEL), hint)]


def _references(doc: Document) -> Iterator[tuple[str, str, FieldPath, str]]:
    """(code, kind named, path, name) for every by-name reference of one Kueue object."""
    spec = mapping(doc.obj.get("spec"))
    if doc.kind == "LocalQueue":
        yield "WAS440", "ClusterQueue", ("spec", "clusterQueue"), spec.get("clusterQueue")
    if doc.kind in ("ClusterQueue", "Cohort"):
        for i, group in enumerate(items(spec.get("resourceGroups"))):
            for j, flavor in enumerate(items(mapping(group).get("flavors"))):
                path = ("spec", "resourceGroups", i, "flavors", j, "name")
                yield "WAS441", "ResourceFlavor", path, mapping(flavor).get("name")
    if doc.kind == "ClusterQueue":
        for i, name in enumerate(items(spec.get("admissionChecks"))):  # v1beta1 only
            yield "WAS444", "AdmissionCheck", ("spec", "admissionChecks", i), name
        strategy = items(mapping(spec.get("admissionChecksStrategy")).get("admissionChecks"))
        for i, rule in enumerate(strategy):
            yield ("WAS444", "AdmissionCheck", ("spec", "admissionChecksStrategy", "admissionChecks", i, "name"),
                   mapping(rule).get("name"))
    if doc.kind == "ResourceFlavor":
        yield "WAS443", "Topology", ("spec", "topologyName"), spec.get("topologyName")
    if doc.kind == "Workload":
        yield from _workload_priority(doc, spec)


def _workload_priority(doc: Document, spec: dict) -> Iterator[tuple[str, str, FieldPath, str]]:
    ref = mapping(spec.get("priorityClassRef"))  # v1beta2
    if ref.get("group") == GROUP and ref.get("kind") == "WorkloadPriorityClass":
        yield "WAS446", "WorkloadPriorityClass", ("spec", "priorityClassRef", "name"), ref.get("name")
    if spec.get("priorityClassSource") == f"{GROUP}/workloadpriorityclass":  # v1beta1
        yield "WAS446", "WorkloadPriorityClass", ("spec", "priorityClassName"), spec.get("priorityClassName")


def _missing(doc: Document, code: str, kind: str, path: FieldPath, name: object, known: list[str]) -> list[Diagnostic]:
    if not isinstance(name, str) or not name or name in known:
        return []
    suggestion = guess(name, known)
    if not known and suggestion is None:
        return []  # the inputs hold no such object: it may live in the cluster
    held = f"they hold {', '.join(known[:5])}{', ...' if len(known) > 5 else ''}" if known else "they hold none"
    message = (f'{doc.kind} "{doc.name}" names {kind} "{name}" at {_dotted(path)}, which the inputs do not hold '
               f"({held})")
    hint = f"did you mean {suggestion}?" if suggestion else f"add {kind} {name} to the inputs, or name one that exists"
    return [make(doc, code, message, path, hint)]


def _dotted(path: FieldPath) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _cohort_cycles(cohorts: list[Document]) -> list[Diagnostic]:
    parent = {d.name: mapping(d.obj.get("spec")).get("parentName") for d in cohorts if d.name}
    by_name = {d.name: d for d in cohorts if d.name}
    reported: set[str] = set()
    out = []
    for start in sorted(parent):
        chain, name = [], start
        while isinstance(name, str) and name in parent and name not in chain:
            chain.append(name)
            name = parent[name]
        if name not in chain:
            continue
        loop = chain[chain.index(name):]
        if reported.intersection(loop):
            continue
        reported.update(loop)
        first = min(loop)
        doc = by_name[first]
        order = loop[loop.index(first):] + loop[:loop.index(first)] + [first]
        out.append(make(doc, "WAS442", f"Cohort parentName chain loops ({' -> '.join(order)}): Kueue keeps every "
                        "ClusterQueue in these cohorts inactive", ("spec", "parentName"),
                        "make one Cohort of the loop the root (no parentName)"))
    return out


def _queue_label(doc: Document, queues: set[tuple[str, str]]) -> list[Diagnostic]:
    if doc.group == GROUP and doc.kind == "Workload":
        name, path = mapping(doc.obj.get("spec")).get("queueName"), ("spec", "queueName")
    else:
        name = mapping(mapping(doc.obj.get("metadata")).get("labels")).get(QUEUE_LABEL)
        path = ("metadata", "labels", QUEUE_LABEL)
    if not isinstance(name, str) or not name:
        return []
    namespace = doc.namespace or DEFAULT_NAMESPACE
    if (namespace, name) in queues:
        return []
    here = sorted(q for ns, q in queues if ns == namespace)
    elsewhere = sorted(ns for ns, q in queues if q == name)
    suggestion = guess(name, here)
    held = (f"namespace {namespace} has {', '.join(here)}" if here else f"namespace {namespace} has no LocalQueue")
    also = f"; a LocalQueue {name} is in namespace {', '.join(elsewhere)}, but LocalQueues serve their own namespace" \
        if elsewhere else ""
    message = (f'{doc.kind} "{doc.name}" is sent to LocalQueue "{name}" in namespace {namespace}, which the inputs do '
               f"not hold ({held}{also}): Kueue leaves it pending and its pods never start")
    hint = f"did you mean {suggestion}?" if suggestion else f"create LocalQueue {name} in namespace {namespace}"
    return [make(doc, "WAS445", message, path, hint)]


def _priority_label(doc: Document, known: list[str]) -> list[Diagnostic]:
    if not isinstance(doc.obj, dict):
        return []
    name = mapping(mapping(doc.obj.get("metadata")).get("labels")).get(PRIORITY_CLASS_LABEL)
    return _missing(doc, "WAS446", "WorkloadPriorityClass", ("metadata", "labels", PRIORITY_CLASS_LABEL), name, known)

"""One pass over all input documents, building the lookups that cross-object lint needs.

Lint runs on inputs of tens of thousands of documents, so every check reads these dictionaries instead of
scanning the documents again: the whole lint is linear in the number of documents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.api.releases import SCHEDULING_GROUP
from wasplan.diagnostics import FieldPath
from wasplan.documents import Document
from wasplan.validate.walk import TemplateNode, iter_templates, mapping

DEFAULT_NAMESPACE = "default"
DEFAULT_SCHEDULER = "default-scheduler"
Key = tuple[str, str]  # (namespace, name)

# Controllers with one pod template that can name a PodGroup, and the field giving how many pods they run
# (JobSet and LeaderWorkerSet, with several templates, are read in `pod_templates`).
_CONTROLLERS = {("batch", "Job"): "parallelism", ("apps", "Deployment"): "replicas",
                ("apps", "StatefulSet"): "replicas", ("apps", "ReplicaSet"): "replicas"}


def key_of(doc: Document, name: str | None = None) -> Key:
    return (doc.namespace or DEFAULT_NAMESPACE, doc.name if name is None else name)


@dataclass(slots=True)
class Member:
    """Pods that join one PodGroup: a Pod (count 1) or a controller's pod template (count pods)."""

    doc: Document
    pod_path: FieldPath  # path of the pod spec inside doc
    pod_spec: dict
    count: int

    @property
    def label(self) -> str:
        return f'pod "{self.doc.name}"' if self.doc.kind == "Pod" else f'{self.doc.kind} "{self.doc.name}" pods'

    @property
    def scheduler(self) -> str:
        value = self.pod_spec.get("schedulerName")
        return value if isinstance(value, str) and value else DEFAULT_SCHEDULER

    @property
    def priority_class(self) -> str:
        value = self.pod_spec.get("priorityClassName")
        return value if isinstance(value, str) else ""


@dataclass(slots=True)
class Index:
    workloads: dict[Key, Document] = field(default_factory=dict)
    podgroups: dict[Key, Document] = field(default_factory=dict)
    composites: dict[Key, Document] = field(default_factory=dict)
    members: dict[Key, list[Member]] = field(default_factory=dict)
    jobs: list[Member] = field(default_factory=list)  # every Job's pod template (group claims of 1.37 Jobs)
    _templates: dict[int, dict[str, TemplateNode]] = field(default_factory=dict)
    _by_name: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    _by_namespace: dict[int, dict[str, list[str]]] = field(default_factory=dict)

    def templates(self, workload: Document) -> dict[str, TemplateNode]:
        """name -> template node of a Workload (pod and composite templates), built once per Workload."""
        cached = self._templates.get(id(workload))
        if cached is None:
            nodes = iter_templates(mapping(workload.obj.get("spec")), workload.version)
            cached = {}
            for node in nodes:
                if node.name is not None:
                    cached.setdefault(node.name, node)
            self._templates[id(workload)] = cached
        return cached

    def names_in(self, table: dict[Key, Document], namespace: str) -> list[str]:
        """Names in one namespace of a table, grouped once per table (not rescanned per question)."""
        grouped = self._by_namespace.get(id(table))
        if grouped is None:
            grouped = self._by_namespace[id(table)] = {}
            for ns, name in table:
                grouped.setdefault(ns, []).append(name)
        return grouped.get(namespace, [])

    def namespaces_of(self, table: dict[Key, Document], name: str) -> list[str]:
        """Namespaces in which a table holds an object called `name`."""
        grouped = self._by_name.get(id(table))
        if grouped is None:
            grouped = self._by_name[id(table)] = {}
            for ns, n in table:
                grouped.setdefault(n, []).append(ns)
        return grouped.get(name, [])



def build_index(docs: list[Document]) -> Index:
    index = Index()
    tables = {"Workload": index.workloads, "PodGroup": index.podgroups, "CompositePodGroup": index.composites}
    for doc in docs:
        if doc.group == SCHEDULING_GROUP and doc.kind in tables:
            tables[doc.kind].setdefault(key_of(doc), doc)
            continue
        if (doc.group, doc.kind) == ("batch", "Job"):
            index.jobs += [Member(doc, path, spec, count) for path, spec, count in pod_templates(doc)]
        for member in _members(doc):
            name = member.pod_spec["schedulingGroup"]["podGroupName"]
            index.members.setdefault(key_of(doc, name), []).append(member)
    return index


def _count(spec: dict, key: str) -> int:
    raw = spec.get(key)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0 else 1


def pod_templates(doc: Document) -> list[tuple[FieldPath, dict, int]]:
    """(pod spec path, pod spec, pods made from it) for every pod template of the document."""
    outer = mapping(doc.obj.get("spec"))
    if doc.kind == "Pod" and doc.api_version == "v1":
        return [(("spec",), outer, 1)]
    if (doc.group, doc.kind) in _CONTROLLERS:
        spec = mapping(mapping(outer.get("template")).get("spec"))
        return [(("spec", "template", "spec"), spec, _count(outer, _CONTROLLERS[(doc.group, doc.kind)]))]
    if (doc.group, doc.kind) == ("jobset.x-k8s.io", "JobSet"):  # replicas Jobs of parallelism pods each
        rjobs = outer.get("replicatedJobs")
        out = []
        for i, rjob in enumerate(rjobs if isinstance(rjobs, list) else []):
            job = mapping(mapping(mapping(rjob).get("template")).get("spec"))
            pods = _count(mapping(rjob), "replicas") * _count(job, "parallelism")
            out.append((("spec", "replicatedJobs", i, "template", "spec", "template", "spec"),
                        mapping(mapping(job.get("template")).get("spec")), pods))
        return out
    if (doc.group, doc.kind) == ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"):  # replicas groups of size pods
        lwt, groups = mapping(outer.get("leaderWorkerTemplate")), _count(outer, "replicas")
        size, base = _count(lwt, "size"), ("spec", "leaderWorkerTemplate")
        worker = mapping(mapping(lwt.get("workerTemplate")).get("spec"))
        if not isinstance(lwt.get("leaderTemplate"), dict):
            return [(base + ("workerTemplate", "spec"), worker, groups * size)]
        leader = mapping(mapping(lwt.get("leaderTemplate")).get("spec"))
        return [(base + ("leaderTemplate", "spec"), leader, groups),
                (base + ("workerTemplate", "spec"), worker, groups * (size - 1))]
    return []


def _members(doc: Document) -> list[Member]:
    out = []
    for path, spec, count in pod_templates(doc):
        name = mapping(spec.get("schedulingGroup")).get("podGroupName")
        if isinstance(name, str) and name:
            out.append(Member(doc, path, spec, count))
    return out

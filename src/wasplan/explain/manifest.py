"""Where a change goes in the user's files: which document, which field, at which line.

Records remember their source document; objects a controller creates (pods, the Job's PodGroup) do not, so
their changes go to the pod template they were made from (`Pod.template`: a Job's, Deployment's, StatefulSet's,
ReplicaSet's, a JobSet's replicated Job's, a LeaderWorkerSet's leader or worker template) or the Job's
`spec.scheduling`. Pods and nodes written in the compact
Cluster kind point at their `spec.pods` / `spec.nodePools` entry.
"""

from __future__ import annotations

from wasplan.cluster.cluster_kind import POOL_LABEL, is_cluster_kind
from wasplan.cluster.model import Group, Node, Pod
from wasplan.explain.model import Change
from wasplan.explain.node_manifest import new_nodes

GENERATED = "<generated>"


def field_path(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line(doc, path: tuple) -> int | None:
    """The line of the deepest part of `path` that exists in the document."""
    for end in range(len(path), -1, -1):
        loc = doc.location(path[:end])
        if loc.line is not None:
            return loc.line
    return None


def change(action: str, doc, path: tuple, value, obj: str | None = None) -> Change:
    if doc is None:
        return Change(action, GENERATED, obj or "", field_path(path), value, None, tuple(path))
    return Change(action, doc.source, obj or doc.describe(), field_path(path), value, _line(doc, path), tuple(path))


def job_document(documents: list, namespace: str, name: str):
    for doc in documents:
        if doc.kind == "Job" and doc.name == name and (doc.namespace or "default") == namespace:
            return doc
    return None


def pod_change(documents: list, pod: Pod, path: tuple, value, action: str = "set") -> Change:
    """A change to the pod's spec at `path` (below `spec`): in the Pod, or in the pod template of the controller
    that makes it (a Job's, a Deployment's, a JobSet's replicated Job's, a LeaderWorkerSet's leader or worker
    template), at that template's file and line."""
    if pod.source is None and pod.template is not None:
        doc, prefix = pod.template
        return change(action, doc, (*prefix, "spec", *path), value, _controller(doc, pod))
    if pod.owner is not None and pod.owner.kind == "Job" and pod.source is None:
        doc = job_document(documents, pod.namespace, pod.owner.name)
        return change(action, doc, ("spec", "template", "spec", *path), value, f"Job/{pod.namespace}/{pod.owner.name}")
    if pod.source is not None and is_cluster_kind(pod.source.obj):
        return change(action, pod.source, ("spec", "pods"), value, f"Cluster pod {pod.key}")
    return change(action, pod.source, ("spec", *path), value)


def _controller(doc, pod: Pod) -> str:
    """`Deployment/ml/web`: the object whose template is edited (its namespace defaults as the pod's did)."""
    return f"{doc.kind}/{pod.namespace}/{doc.name}"


def pod_changes(documents: list, pods: list[Pod], path: tuple, value, action: str = "set") -> tuple[Change, ...]:
    """The same change for every pod, once per distinct place (a Job's template is edited once)."""
    out: dict[tuple, Change] = {}
    for pod in pods:
        one = pod_change(documents, pod, path, value, action)
        out.setdefault((one.file, one.obj, one.field_path), one)
    return tuple(out.values())


def _cluster_pod_entry(doc, pod: Pod) -> tuple:
    """The `spec.pods` entry that wrote exactly this pod, or the list itself for templated entries."""
    for i, entry in enumerate((doc.obj.get("spec") or {}).get("pods") or ()):
        if entry.get("name") == pod.name and entry.get("namespace", "default") == pod.namespace:
            return ("spec", "pods", i)
    return ("spec", "pods")


def pod_move(pod: Pod, node: str) -> Change | None:
    """Bind a running pod to another node: a Pod's `spec.nodeName`, or the `node` of its own Cluster kind entry
    (None for a pod a templated entry writes together with others, which one edit cannot move alone)."""
    doc = pod.source
    if doc is not None and is_cluster_kind(doc.obj):
        entry = _cluster_pod_entry(doc, pod)
        return change("set", doc, (*entry, "node"), node, f"Cluster pod {pod.key}") if len(entry) == 3 else None
    return change("set", doc, ("spec", "nodeName"), node) if doc is not None else None


def pod_deletion(documents: list, pod: Pod) -> Change:
    if pod.source is not None and is_cluster_kind(pod.source.obj):
        return change("delete", pod.source, _cluster_pod_entry(pod.source, pod), pod.name, f"Cluster pod {pod.key}")
    if pod.source is None and pod.template is not None:
        doc = pod.template[0]
        return change("delete", doc, (), pod.name, f"Pod/{pod.key} (of {doc.kind} {doc.name})")
    if pod.source is None and pod.owner is not None:
        doc = job_document(documents, pod.namespace, pod.owner.name)
        return change("delete", doc, (), pod.name, f"Pod/{pod.key} (of Job {pod.owner.name})")
    return change("delete", pod.source, (), pod.name, f"Pod/{pod.key}")


def min_count_change(documents: list, group: Group, value: int) -> Change:
    if group.source is not None:
        return change("set", group.source, ("spec", "schedulingPolicy", "gang", "minCount"), value)
    ref = getattr(group.obj, "workload_ref", None)
    doc = job_document(documents, group.namespace, ref.workload_name) if ref is not None else None
    return change("set", doc, ("spec", "scheduling", "schedulingPolicy", "gang", "minCount"), value,
                   f"Job/{group.namespace}/{ref.workload_name}" if ref is not None else f"PodGroup/{group.key}")


def node_addition(template: Node, count: int, labels: dict[str, str] | None = None, external: bool = False,
                  slices: tuple[str, ...] = ()) -> Change:
    """Grow the template's Cluster pool, or add copies of its Node object. A template from `--node-shape`
    (`external`) is a pool of its own: its count becomes the number to add, and the file joins the cluster.
    Nodes that must land in one topology domain (`labels`) become a new pool with the template's labels as
    they are, so templated labels cannot move them elsewhere. Otherwise the value is the manifest to paste into
    the snapshot (explain/node_manifest.py): the new Node objects and, for each, copies of `slices`, the template's
    own ResourceSlices (a Cluster kind pool publishes its devices itself)."""
    doc = template.source
    pool = template.labels.get(POOL_LABEL)
    if doc is not None and is_cluster_kind(doc.obj) and pool is not None:
        pools = (doc.obj.get("spec") or {}).get("nodePools") or []
        for i, entry in enumerate(pools):
            if entry.get("name") == pool and labels:
                pinned = _domain_pool(entry, template, count, labels)
                return change("add", doc, ("spec", "nodePools", len(pools)), pinned, f"Cluster/{doc.name}")
            if entry.get("name") == pool:
                total = count if external else entry["count"] + count
                return change("set", doc, ("spec", "nodePools", i, "count"), total, f"Cluster/{doc.name} pool {pool}")
    return change("add", doc, (), new_nodes(template, count, labels, slices), f"Node/{template.name}")


def _domain_pool(entry: dict, template: Node, count: int, labels: dict[str, str]) -> dict:
    fixed = {k: v for k, v in template.labels.items() if k not in ("kubernetes.io/hostname", POOL_LABEL)}
    fixed.update(labels)
    suffix = "-".join(v for v in labels.values())
    out = {k: v for k, v in entry.items() if k not in ("name", "count", "namePattern", "labels")}
    return {"name": f"{entry['name']}-{suffix}", "count": count, "labels": fixed, **out}

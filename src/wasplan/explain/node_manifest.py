"""The objects an "add nodes like X" suggestion asks for, as manifests a person pastes into the snapshot.

A snapshot of Node objects (`kubectl get nodes -o yaml`) grows by new Node objects: each copy is the template
node's own object with its node-specific parts left out — uid, resourceVersion, creation time, managed fields,
annotations, providerID and pod CIDRs, addresses, node info, images and attached volumes, none of which a new node
shares — under a new name (`<template>-added-<i>`, the names the suggestion was verified with), its
`kubernetes.io/hostname` label set to that name and the topology domain's labels applied. What scheduling reads
stays: labels, taints, `unschedulable`, capacity, allocatable and conditions. The template node's own
ResourceSlices (`spec.nodeName`) are copied for each new node as its driver would publish them (cluster/devices.py
ResourceSlice; explain/rerun.py `clone_slices` does the same for the verifying run). One Node alone is its own
manifest; several objects are one `v1` List, which `wasplan plan --cluster` reads as it reads kubectl's.
"""

from __future__ import annotations

import copy

from wasplan.cluster.model import Node
from wasplan.explain.rerun import added_name, renamed

HOSTNAME = "kubernetes.io/hostname"
_KEEP_SPEC = ("taints", "unschedulable")
_KEEP_STATUS = ("capacity", "allocatable", "conditions")


def _quantities(values: dict[str, int]) -> dict[str, str]:
    """The engine's integers as exact quantities: cpu in millicores, everything else in its base unit."""
    return {r: f"{v}m" if r == "cpu" else str(v) for r, v in sorted(values.items())}


def _from_record(template: Node) -> dict:
    """A Node object for a template that was not written as one (a node of a Cluster kind's explicit list)."""
    spec: dict = {}
    if template.taints:
        spec["taints"] = [{k: v for k, v in (("key", t.key), ("value", t.value), ("effect", t.effect)) if v}
                          for t in template.taints]
    if template.unschedulable:
        spec["unschedulable"] = True
    resources = _quantities(template.allocatable)
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": template.name, "labels": dict(template.labels)},
            "spec": spec, "status": {"capacity": dict(resources), "allocatable": resources}}


def _source_object(template: Node) -> dict:
    doc = template.source
    obj = getattr(doc, "obj", None)
    if isinstance(obj, dict) and obj.get("kind") == "Node":
        return copy.deepcopy(obj)
    return _from_record(template)


def node_object(template: Node, name: str, labels: dict[str, str]) -> dict:
    """One new Node like `template`, named `name`, with `labels` (a topology domain) over the template's."""
    obj = _source_object(template)
    new_labels = {**((obj.get("metadata") or {}).get("labels") or {}), **labels}
    if HOSTNAME in new_labels:
        new_labels[HOSTNAME] = name
    out = {"apiVersion": obj.get("apiVersion", "v1"), "kind": "Node", "metadata": {"name": name, "labels": new_labels}}
    spec = {k: v for k, v in (obj.get("spec") or {}).items() if k in _KEEP_SPEC}
    status = {k: v for k, v in (obj.get("status") or {}).items() if k in _KEEP_STATUS}
    if spec:
        out["spec"] = spec
    if status:
        out["status"] = status
    return out


def slice_object(source: dict, template: str, name: str) -> dict:
    """The template node's ResourceSlice as the new node's driver would publish it."""
    obj = copy.deepcopy(source)
    meta = obj.get("metadata") or {}
    obj["metadata"] = {"name": renamed(str(meta.get("name", "")), template, name)}
    spec = obj.setdefault("spec", {})
    spec["nodeName"] = name
    pool = spec.get("pool")
    if isinstance(pool, dict) and isinstance(pool.get("name"), str):
        pool["name"] = renamed(pool["name"], template, name)
    return obj


def new_nodes(template: Node, count: int, labels: dict[str, str] | None = None, slices: tuple = ()) -> dict:
    """The manifest to paste: one Node, or a v1 List of the Nodes and each one's copies of the template's
    slices (`slices`: ResourceSlice records with their source documents)."""
    items = []
    for i in range(count):
        name = added_name(template.name, i)
        items.append(node_object(template, name, labels or {}))
        items.extend(slice_object(s.source.obj, template.name, name) for s in slices
                     if isinstance(getattr(s.source, "obj", None), dict))
    if len(items) == 1:
        return items[0]
    return {"apiVersion": "v1", "kind": "List", "items": items}

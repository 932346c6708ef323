"""The compact `wasplan.io/v1alpha1` `Cluster` kind, expanded into Node, Pod and PriorityClass records.

A what-if cluster of 12 identical GPU nodes is one pool entry instead of 12 Node objects with status blocks.
The document is checked against its JSON Schema first (schemas/wasplan.io/v1alpha1/Cluster.json); a document
that fails it produces findings and no records, so the expansion below can trust the shapes and only has
templates and quantities left to get wrong. Expansion is deterministic: pools in order, nodes by index, then
pods in order. See docs/cluster-kind.md.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from wasplan import jsontext
from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.cluster import dra_gate
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import CPU, MEMORY, PODS, Node, Pod, PriorityClass, Taint
from wasplan.cluster.resources import DEFAULT_MEMORY, DEFAULT_MILLI_CPU, quantities, to_units
from wasplan.cluster.template import Template, compile_reported as _compile, compile_template, render_reported as _render

API_VERSION = "wasplan.io/v1alpha1"
KIND = "Cluster"
DEFAULT_NAME_PATTERN = "{pool}-{index}"
DEFAULT_MAX_PODS = 110  # kubelet's --max-pods default
POOL_LABEL = "wasplan.io/node-pool"
HOSTNAME_LABEL = "kubernetes.io/hostname"
NODE_NAMES = frozenset({"index", "index1", "count", "pool"})
POD_NAMES = frozenset({"index", "index1", "count"})

if TYPE_CHECKING:
    import jsonschema


def schema_path() -> Path:
    """The schema inside the installed wheel (wasplan/schemas) or, in a source checkout, at the repo root."""
    here = Path(__file__).resolve()
    for base in (here.parents[1] / "schemas", here.parents[3] / "schemas"):
        candidate = base / "wasplan.io" / "v1alpha1" / "Cluster.json"
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("schemas/wasplan.io/v1alpha1/Cluster.json is missing from this installation")


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema  # on the first Cluster document only: python-jsonschema costs ~0.1 s of every plan's start

    schema = jsontext.loads(schema_path().read_text())
    return jsonschema.Draft202012Validator(schema)


def is_cluster_kind(obj: dict) -> bool:
    return obj.get("apiVersion") == API_VERSION and obj.get("kind") == KIND


def _schema_ok(obj: dict, ctx: Ctx) -> bool:
    errors = sorted(_validator().iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        path = tuple(err.absolute_path)
        if len(path) >= 2 and path[-2] in ("allocatable", "requests", "capacity"):
            try:
                parse_quantity(err.instance)
                message = f"invalid quantity {err.instance!r} for {path[-1]}: must not be negative"
            except QuantityError as exc:
                message = f"invalid quantity {err.instance!r} for {path[-1]}: {exc}"
            ctx.report("WAS601", message, path, hint="write e.g. 500m, 2, 1.5Gi or 512Mi")
        else:
            ctx.report("WAS605", f"Cluster: {err.message}", path, hint="see docs/cluster-kind.md")
    return not errors


def _label_templates(raw: dict | None, names: frozenset[str], ctx: Ctx) -> dict[str, Template] | None:
    out = {}
    for key, text in (raw or {}).items():
        template = _compile(text, names, ctx, ("labels", key))
        if template is None:
            return None
        out[key] = template
    return out


def _render_labels(templates: dict[str, Template], env: dict, ctx: Ctx) -> dict[str, str] | None:
    labels = {}
    for key, template in templates.items():
        value = _render(template, env, ctx, ("labels", key))
        if value is None:
            return None
        labels[key] = value
    return labels


def _pool_nodes(pool: dict, ctx: Ctx) -> list[Node]:
    """The nodes of one pool; the first template that fails to evaluate stops the pool (one finding, not N)."""
    name_t = _compile(pool.get("namePattern", DEFAULT_NAME_PATTERN), NODE_NAMES, ctx, ("namePattern",))
    label_ts = _label_templates(pool.get("labels"), NODE_NAMES, ctx)
    if name_t is None or label_ts is None:
        return []
    allocatable = to_units(quantities(pool.get("allocatable"), ctx, ("allocatable",)))
    allocatable.setdefault(PODS, DEFAULT_MAX_PODS)
    taints = tuple(Taint(t["key"], t.get("value", ""), t["effect"]) for t in pool.get("taints") or ())
    count = int(pool["count"])  # the schema lets an integral float (2.0) through as an integer
    nodes = []
    for index in range(count):
        env = {"index": index, "index1": index + 1, "count": count, "pool": pool["name"]}
        name = _render(name_t, env, ctx, ("namePattern",))
        labels = _render_labels(label_ts, env, ctx)
        if name is None or labels is None:
            return nodes
        labels = {HOSTNAME_LABEL: name, POOL_LABEL: pool["name"], **labels}
        nodes.append(Node(name, labels, dict(allocatable), taints, pool.get("unschedulable", False), ctx.doc))
    return nodes


def _pod_requests(raw: dict | None, ctx: Ctx) -> tuple[dict[str, int], dict[str, int]]:
    """A Cluster pod is one container: its requests, with the scheduler's 100m / 200Mi stand-ins for scoring
    where cpu or memory is not named."""
    requests = {k: v for k, v in to_units(quantities(raw, ctx, ("requests",))).items() if v}
    non_zero = {CPU: requests.get(CPU, DEFAULT_MILLI_CPU), MEMORY: requests.get(MEMORY, DEFAULT_MEMORY)}
    if raw and CPU in raw:
        non_zero[CPU] = requests.get(CPU, 0)
    if raw and MEMORY in raw:
        non_zero[MEMORY] = requests.get(MEMORY, 0)
    requests[PODS] = 1
    return requests, non_zero


def _entry_pods(entry: dict, ctx: Ctx) -> list[Pod]:
    count = int(entry.get("count", 1))  # 2.0 passes the schema's integer type
    name_text = entry["name"]
    name_t = _compile(name_text, POD_NAMES, ctx, ("name",))
    if name_t is not None and name_t.constant and count > 1:
        name_t = compile_template(name_text.replace("{", "{{").replace("}", "}}") + "-{index}", POD_NAMES)
    node_t = _compile(entry["node"], POD_NAMES, ctx, ("node",)) if "node" in entry else None
    label_ts = _label_templates(entry.get("labels"), POD_NAMES, ctx)
    if name_t is None or label_ts is None or ("node" in entry and node_t is None):
        return []
    requests, non_zero = _pod_requests(entry.get("requests"), ctx)
    pods = []
    for index in range(count):
        env = {"index": index, "index1": index + 1, "count": count}
        name = _render(name_t, env, ctx, ("name",))
        node = _render(node_t, env, ctx, ("node",)) if node_t is not None else None
        labels = _render_labels(label_ts, env, ctx)
        if name is None or labels is None or (node_t is not None and node is None):
            return pods
        pods.append(Pod(
            namespace=entry.get("namespace", "default"), name=name, requests=dict(requests),
            non_zero_requests=dict(non_zero), labels=labels, node_name=node,
            priority_class_name=entry.get("priorityClassName"), pod_group=entry.get("podGroupName"),
            phase="Running" if node else "Pending", source=ctx.doc))
    return pods


def expand_cluster(obj: dict, ctx: Ctx) -> list:
    """PriorityClasses, then every pool's nodes followed by their ResourceSlices, then the network-attached device
    pools' slices, then the pods — the order they would be created in."""
    if not _schema_ok(obj, ctx):
        return []
    spec = obj.get("spec") or {}
    records: list = []
    for i, pc in enumerate(spec.get("priorityClasses") or ()):
        records.append(PriorityClass(pc["name"], pc["value"], pc.get("globalDefault", False),
                                     pc.get("preemptionPolicy", "PreemptLowerPriority"), ctx.doc))
    for i, pool in enumerate(spec.get("nodePools") or ()):
        nodes = _pool_nodes(pool, ctx.at("spec", "nodePools", i))
        records.extend(nodes)
        records.extend(dra_gate.node_pool_slices(pool, nodes, ctx.at("spec", "nodePools", i)))
    for i, entry in enumerate(spec.get("devicePools") or ()):
        records.extend(s for s in [dra_gate.network_pool_slice(entry, ctx.at("spec", "devicePools", i))] if s is not None)
    for i, entry in enumerate(spec.get("pods") or ()):
        records.extend(_entry_pods(entry, ctx.at("spec", "pods", i)))
    return records

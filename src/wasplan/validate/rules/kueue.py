"""Kueue v0.17.0's rules for its own kinds that the generated CRD schemas cannot express (kueue.x-k8s.io).

Two sources, both Kueue's, both checked when such an object is created:
* the CRDs' CEL rules (`x-kubernetes-validations` in KDIR/config/components/crd/bases/kueue.x-k8s.io_*.yaml,
  generated from the `+kubebuilder:validation:XValidation` markers of KDIR/apis/kueue/v1beta2/*_types.go):
  WAS241, with the CRD's own message; rules comparing with `oldSelf` only bite on update and are left out;
* the validating webhooks (KDIR/pkg/webhooks/clusterqueue_webhook.go, cohort_webhook.go, common.go,
  resourceflavor_webhook.go, workload_webhook.go): WAS242 for quotas and resource groups (ClusterQueue,
  Cohort), WAS243 for ResourceFlavors, WAS244 for Workloads. Kueue v0.17.0 has no LocalQueue webhook (a
  LocalQueue's clusterQueue is immutable by a CEL rule, an update-only check). The webhooks see the v1beta2
  object, so a v1beta1 one is read through its own field names (`cohort` for v1beta2's `cohortName`).
Lists keyed by a field (`x-kubernetes-list-type: map`) repeating a key are WAS202, as for built-in kinds.
The status of a kind with a status subresource is reset on create (validate/checker.py), so status rules of
the webhooks are not repeated here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterator

from wasplan.api.names import is_label_value, is_qualified_name
from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.validate import schemas
from wasplan.validate.rules.common import make
from wasplan.validate.walk import items, mapping

GROUP = "kueue.x-k8s.io"
VERSIONS = ("v1beta1", "v1beta2")
EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
HOSTNAME = "kubernetes.io/hostname"
TRY_NEXT = "TryNextFlavor"
MAX_FLAVORS = MAX_COVERED = 256
MAX_COMBINATIONS = 512


def check(doc: Document, gates: Any = None) -> list[Diagnostic]:
    """Every CEL and webhook finding for one Kueue object, plus repeated list-map keys."""
    if doc.version not in VERSIONS:
        return []
    spec = mapping(doc.obj.get("spec"))
    rules = _KINDS.get(doc.kind)
    out = rules(doc, spec) if rules else []
    return out + _list_map_keys(doc)


# --- ClusterQueue and Cohort -----------------------------------------------------------------------------

def _cluster_queue(doc: Document, spec: dict) -> list[Diagnostic]:
    cohort = spec.get("cohortName" if doc.version == "v1beta2" else "cohort")
    has_parent = isinstance(cohort, str) and cohort != ""
    out = _resource_groups(doc, spec, has_parent, cohort_kind=False)
    out += _fungibility(doc, mapping(spec.get("flavorFungibility")))
    preemption = mapping(spec.get("preemption"))
    borrow = mapping(preemption.get("borrowWithinCohort"))
    if preemption.get("reclaimWithinCohort") == "Never" and borrow and borrow.get("policy", "Never") != "Never":
        out.append(make(doc, "WAS241", "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never: a "
                        "ClusterQueue that never reclaims cannot preempt to borrow", ("spec", "preemption")))
    out += _fair_sharing(doc, spec)
    return out


def _cohort(doc: Document, spec: dict) -> list[Diagnostic]:
    parent = spec.get("parentName")
    out = _resource_groups(doc, spec, isinstance(parent, str) and parent != "", cohort_kind=True)
    return out + _fair_sharing(doc, spec)


def _fungibility(doc: Document, fungibility: dict) -> list[Diagnostic]:
    preference = fungibility.get("preference")
    if preference is None or (fungibility.get("whenCanBorrow") == TRY_NEXT
                              and fungibility.get("whenCanPreempt") == TRY_NEXT):
        return []
    # whenCanBorrow defaults to MayStopSearch, so leaving it out fails the rule too
    return [make(doc, "WAS241", f'preference "{preference}" can only be set when both whenCanBorrow and '
                 "whenCanPreempt are TryNextFlavor", ("spec", "flavorFungibility", "preference"),
                 "set whenCanBorrow: TryNextFlavor and whenCanPreempt: TryNextFlavor, or drop preference")]


def _fair_sharing(doc: Document, spec: dict) -> list[Diagnostic]:
    weight = mapping(spec.get("fairSharing")).get("weight")
    amount = _amount(weight)
    path = ("spec", "fairSharing", "weight")
    if amount is None:
        return []
    if amount < 0:
        return [make(doc, "WAS242", f"fairSharing weight {weight} must be greater than or equal to 0", path)]
    if 0 < amount <= Fraction(1, 10**9):
        return [make(doc, "WAS242", f"fairSharing weight {weight}: when not 0, weight must be > 10e-9", path)]
    return []


def _resource_groups(doc: Document, spec: dict, has_parent: bool, cohort_kind: bool) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    groups = items(spec.get("resourceGroups"))
    base: FieldPath = ("spec", "resourceGroups")
    seen_resources: set[str] = set()
    seen_flavors: dict[str, int] = {}  # flavor -> its group; a repeat within one group is WAS202 (list-map key)
    for i, group in enumerate(groups):
        group = mapping(group)
        covered = [r for r in items(group.get("coveredResources"))]
        for j, name in enumerate(covered):
            path = base + (i, "coveredResources", j)
            if isinstance(name, str) and not is_qualified_name(name):
                out.append(make(doc, "WAS242", f'resource name "{name}" is not a valid label key', path))
            if isinstance(name, str) and name in seen_resources:
                out.append(make(doc, "WAS242", f'resource "{name}" is covered twice: each resource belongs to one '
                                "resourceGroup", path))
            elif isinstance(name, str):
                seen_resources.add(name)
        for j, flavor in enumerate(items(group.get("flavors"))):
            path = base + (i, "flavors", j)
            out += _flavor_quotas(doc, mapping(flavor), covered, path, has_parent, cohort_kind)
            name = mapping(flavor).get("name")
            if isinstance(name, str) and name in seen_flavors and seen_flavors[name] != i:
                out.append(make(doc, "WAS242", f'flavor "{name}" is also in resourceGroups[{seen_flavors[name]}]: '
                                "a flavor belongs to one resourceGroup", path + ("name",)))
            elif isinstance(name, str):
                seen_flavors.setdefault(name, i)
        sizes = [len(items(mapping(f).get("resources"))) for f in items(group.get("flavors"))]
        if any(size != len(covered) for size in sizes):
            out.append(make(doc, "WAS241", "flavors must have the same number of resources as the "
                            f"coveredResources ({len(covered)})", base + (i,)))
        if sum(sizes) > MAX_COMBINATIONS:
            out.append(make(doc, "WAS242", "number of flavor-resource combinations in a resourceGroup must be "
                            f"≤ {MAX_COMBINATIONS}, got {sum(sizes)}", base + (i,)))
    flavors = sum(len(items(mapping(g).get("flavors"))) for g in groups)
    if flavors > MAX_FLAVORS:
        out.append(make(doc, "WAS242", "total number of flavors across all resourceGroups must be "
                        f"≤ {MAX_FLAVORS}, got {flavors}", base))
    covered_total = sum(len(items(mapping(g).get("coveredResources"))) for g in groups)
    if covered_total > MAX_COVERED:
        out.append(make(doc, "WAS242", "total number of covered resources across all resourceGroups must be "
                        f"≤ {MAX_COVERED}, got {covered_total}", base))
    return out


def _flavor_quotas(doc: Document, flavor: dict, covered: list, path: FieldPath, has_parent: bool,
                   cohort_kind: bool) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for k, quota in enumerate(items(flavor.get("resources"))[:len(covered)]):
        quota, at = mapping(quota), path + ("resources", k)
        if quota.get("name") != covered[k]:
            out.append(make(doc, "WAS242", f'resource "{quota.get("name")}" must match the name in coveredResources '
                            f'("{covered[k]}", the same position)', at + ("name",)))
        nominal = _amount(quota.get("nominalQuota"))
        out += _non_negative(doc, quota, "nominalQuota", at)
        for limit in ("borrowingLimit", "lendingLimit"):
            if limit not in quota or quota[limit] is None:
                continue
            if not has_parent:
                owner = "parent" if cohort_kind else "cohort"
                hint = "set spec.parentName" if cohort_kind else "put the ClusterQueue in a cohort (spec.cohortName)"
                out.append(make(doc, "WAS242", f"{limit} must be nil when {owner} is empty: without a {owner} there "
                                "is nothing to borrow from or lend to", at + (limit,), hint + f", or drop {limit}"))
            out += _non_negative(doc, quota, limit, at)
        lend = _amount(quota.get("lendingLimit"))
        if not cohort_kind and lend is not None and nominal is not None and lend > nominal:
            out.append(make(doc, "WAS242", f"lendingLimit {quota['lendingLimit']} must be less than or equal to the "
                            f"nominalQuota ({quota.get('nominalQuota')})", at + ("lendingLimit",)))
    return out


def _non_negative(doc: Document, quota: dict, name: str, at: FieldPath) -> list[Diagnostic]:
    amount = _amount(quota.get(name))
    if amount is None or amount >= 0:
        return []
    return [make(doc, "WAS242", f"{name} {quota[name]} must be greater than or equal to 0", at + (name,))]


def _amount(raw: Any) -> Any:
    """The quantity's exact amount, or None when absent or not a quantity (the schema reports that)."""
    if raw is None:
        return None
    try:
        return parse_quantity(raw).amount
    except QuantityError:
        return None


# --- ResourceFlavor, Topology, Workload ------------------------------------------------------------------

def _resource_flavor(doc: Document, spec: dict) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    if spec.get("topologyName") and not mapping(spec.get("nodeLabels")):
        out.append(make(doc, "WAS241", "at least one nodeLabel is required when topology is set",
                        ("spec", "topologyName"), "add the nodeLabels that select this flavor's nodes"))
    for key, value in mapping(spec.get("nodeLabels")).items():
        path = ("spec", "nodeLabels", key)
        if not is_qualified_name(key):
            out.append(make(doc, "WAS243", f'node label key "{key}" is not a valid label key', path))
        if isinstance(value, str) and not is_label_value(value):
            out.append(make(doc, "WAS243", f'node label {key}="{value}": not a valid label value (at most 63 '
                            "alphanumerics, '-', '_' or '.', starting and ending alphanumeric)", path))
    out += _taints(doc, items(spec.get("nodeTaints")))
    return out + _tolerations(doc, items(spec.get("tolerations")), ("spec", "tolerations"))


def _taints(doc: Document, taints: list) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for i, taint in enumerate(taints):
        taint, path = mapping(taint), ("spec", "nodeTaints", i)
        if taint.get("effect") not in EFFECTS:
            out.append(make(doc, "WAS241", f"supported taint effect values: {', '.join(map(repr, EFFECTS))}; "
                            f"got {taint.get('effect')!r}", path + ("effect",)))
        key = taint.get("key")
        if isinstance(key, str) and not is_qualified_name(key):
            out.append(make(doc, "WAS243", f'taint key "{key}" is not a valid label key', path + ("key",)))
        value = taint.get("value", "")
        if isinstance(value, str) and not is_label_value(value):
            out.append(make(doc, "WAS243", f'taint value "{value}" is not a valid label value', path + ("value",)))
        pair = (taint.get("effect"), key)
        if pair in seen:
            out.append(make(doc, "WAS243", f'taint {key}:{taint.get("effect")} repeats: taints must be unique by '
                            "key and effect pair", path))
        seen.add(pair)
    return out


def _tolerations(doc: Document, tolerations: list, base: FieldPath) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for i, toleration in enumerate(tolerations):
        t, path = mapping(toleration), base + (i,)
        operator = t.get("operator")
        for broken, message, field in (
            ("key" not in t and operator != "Exists",
             "operator must be Exists when 'key' is empty, which means 'match all values and all keys'", "operator"),
            ("tolerationSeconds" in t and t.get("effect") != "NoExecute",
             "effect must be 'NoExecute' when 'tolerationSeconds' is set", "effect"),
            (operator is not None and operator not in ("Equal", "Exists"),
             "supported toleration values: 'Equal'(default), 'Exists'", "operator"),
            (operator == "Exists" and "value" in t, "a value must be empty when 'operator' is 'Exists'", "value"),
            (t.get("effect") is not None and t.get("effect") not in EFFECTS,
             f"supported taint effect values: {', '.join(map(repr, EFFECTS))}", "effect"),
        ):
            if broken:
                out.append(make(doc, "WAS241", message, path + (field,)))
        key = t.get("key")
        if isinstance(key, str) and key and not is_qualified_name(key):
            out.append(make(doc, "WAS243", f'toleration key "{key}" is not a valid label key', path + ("key",)))
    return out


def _topology(doc: Document, spec: dict) -> list[Diagnostic]:
    levels = items(spec.get("levels"))
    labels = [mapping(level).get("nodeLabel") for level in levels]
    out: list[Diagnostic] = []
    for i, label in enumerate(labels):
        if label in labels[:i]:
            out.append(make(doc, "WAS241", f'level "{label}" must be unique', ("spec", "levels", i, "nodeLabel")))
    if HOSTNAME in labels and labels[-1] != HOSTNAME:
        out.append(make(doc, "WAS241", f"the {HOSTNAME} label can only be used at the lowest level of topology",
                        ("spec", "levels", labels.index(HOSTNAME), "nodeLabel"), "make it the last level"))
    return out


def _workload(doc: Document, spec: dict) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    pod_sets = items(spec.get("podSets"))
    with_min = 0
    for i, pod_set in enumerate(pod_sets):
        pod_set, path = mapping(pod_set), ("spec", "podSets", i)
        count, minimum = pod_set.get("count", 1), pod_set.get("minCount")
        if minimum is not None:
            with_min += 1
            if isinstance(minimum, int) and isinstance(count, int) and minimum > count:
                out.append(make(doc, "WAS241", f"minCount {minimum} should be positive and less or equal to count "
                                f"({count})", path + ("minCount",)))
        out += _reserved_pods(doc, pod_set, path)
    if with_min > 1:
        out.append(make(doc, "WAS244", f"at most one podSet can use minCount; {with_min} do",
                        ("spec", "podSets")))
    ref = mapping(spec.get("priorityClassRef"))
    if ref and "priority" not in spec:
        out.append(make(doc, "WAS241", "priority should not be nil when priorityClassRef is set",
                        ("spec", "priorityClassRef"), "set spec.priority to the class's value"))
    wanted = {"scheduling.k8s.io": "PriorityClass", GROUP: "WorkloadPriorityClass"}.get(ref.get("group"))
    if wanted and ref.get("kind") != wanted:
        out.append(make(doc, "WAS241", f"only the {wanted} kind is allowed for the {ref['group']} group",
                        ("spec", "priorityClassRef", "kind")))
    return out


def _reserved_pods(doc: Document, pod_set: dict, path: FieldPath) -> list[Diagnostic]:
    out = []
    pod = mapping(mapping(pod_set.get("template")).get("spec"))
    for field in ("initContainers", "containers"):
        for c, container in enumerate(items(pod.get(field))):
            if "pods" in mapping(mapping(mapping(container).get("resources")).get("requests")):
                out.append(make(doc, "WAS244", '"pods" in resources.requests: the key is reserved for internal '
                                "kueue use", path + ("template", "spec", field, c, "resources", "requests", "pods")))
    return out


_KINDS = {"ClusterQueue": _cluster_queue, "Cohort": _cohort, "ResourceFlavor": _resource_flavor,
          "Topology": _topology, "Workload": _workload}


# --- list-map keys ---------------------------------------------------------------------------------------

def _list_map_keys(doc: Document) -> list[Diagnostic]:
    """WAS202 for a list the CRD keys by fields (`x-kubernetes-list-map-keys`) that repeats a key."""
    schema = schemas.shared_schema(doc.api_version, doc.kind)
    if schema is None:
        return []
    out = []
    for path, keys, entries in _keyed_lists(schema, schema, doc.obj, ()):
        seen: dict[tuple, int] = {}
        for i, entry in enumerate(entries):
            key = tuple(mapping(entry).get(k) for k in keys)
            if not all(isinstance(k, (str, int, float, bool, type(None))) for k in key):
                continue  # a key of the wrong type is the schema's finding (WAS103)
            if key in seen:
                shown = ", ".join(f"{k}={v}" for k, v in zip(keys, key))
                out.append(make(doc, "WAS202", f"{shown} is used twice in {format_path(path)} (also at "
                                f"[{seen[key]}])", path + (i,), "each entry of this list needs its own "
                                + " and ".join(keys)))
            else:
                seen[key] = i
    return out


def _keyed_lists(root: dict, node: dict, value: Any, path: FieldPath) -> Iterator[tuple[FieldPath, list, list]]:
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if isinstance(value, list) and isinstance(node.get("items"), dict):
        if node.get("x-kubernetes-list-type") == "map" and node.get("x-kubernetes-list-map-keys"):
            yield path, node["x-kubernetes-list-map-keys"], value
        for i, entry in enumerate(value):
            yield from _keyed_lists(root, node["items"], entry, path + (i,))
    elif isinstance(value, dict):
        props = node.get("properties") or {}
        for name, sub in value.items():
            child = props.get(name)
            if isinstance(child, dict) and name != "metadata":
                yield from _keyed_lists(root, child, sub, path + (name,))

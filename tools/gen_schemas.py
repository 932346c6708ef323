#!/usr/bin/env python3
"""Generate wasplan's JSON Schemas for scheduling.k8s.io from kubernetes-validate's strict definitions.

Why a generator and not hand-written schemas: upstream's strict `_definitions.json` is the ground truth for
field names, JSON types and `required` lists (api-reference §0, S1), and copying it by hand would drift. What
upstream's schema lacks are the server-side rules JSON Schema *can* express (api-reference §7): enums, ranges,
list limits, exactly-one unions, name formats. Those are layered on top from the OVERLAYS table below, where
every row names the api-reference section it comes from.

Output: `schemas/scheduling.k8s.io/<version>/<Kind>.json` (and `<Kind>List.json`), one self-contained
draft 2020-12 schema per file, with only the definitions the kind reaches and no upstream prose. The files are
written with sorted keys and fixed indentation so that regenerating gives byte-identical output
(tests/validate/test_generated.py checks that).

Usage: python tools/gen_schemas.py [--out DIR]   (DIR defaults to the repository's schemas/)

This is a developer tool; it is not part of the wheel. It needs kubernetes-validate installed.
"""

from __future__ import annotations

import argparse
import copy
import importlib.resources
import json
import sys
from pathlib import Path
from typing import Any, Iterator

GROUP = "scheduling.k8s.io"
ID_BASE = "https://wasplan.io/schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHED = "io.k8s.api.scheduling"
META = "io.k8s.apimachinery.pkg.apis.meta.v1"

# (kubernetes-validate schema directory, API version, kinds). v1alpha1 is only read as `migrate` input.
TARGETS: list[tuple[str, str, tuple[str, ...]]] = [
    ("v1.35.0-local-strict", "v1alpha1", ("Workload",)),
    ("v1.36.0-local-strict", "v1alpha2", ("Workload", "PodGroup")),
    ("v1.37.0-local-strict", "v1alpha3", ("Workload", "PodGroup", "CompositePodGroup")),
    ("v1.37.0-local-strict", "v1beta1", ("Workload", "PodGroup")),
    # 1.38 serves CompositePodGroup in v1beta1 too (its Workload and PodGroup are 1.37's field for field);
    # kubernetes-validate has no 1.38 yet: the directory is wasplan's own (tools/gen_core_schemas.py)
    ("v1.38.0-local-strict", "v1beta1", ("CompositePodGroup",)),
]
OWN_UPSTREAM = Path(__file__).resolve().parents[1] / "src" / "wasplan" / "validate" / "upstream_schemas"

# Our own one-line summaries for the top-level kinds (upstream descriptions are deliberately not copied).
KIND_SUMMARY = {
    "Workload": "Declares the groups of pods a workload is made of and how each group must be scheduled.",
    "PodGroup": "One runtime group of pods that the scheduler places together under a scheduling policy.",
    "CompositePodGroup": "A group of PodGroups (or of further CompositePodGroups) scheduled as one unit.",
}

# --- formats (api-reference §0.1) ------------------------------------------------------------------------
_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN = _LABEL + r"(\." + _LABEL + r")*"
# label key / qualified name: optional DNS-subdomain prefix of at most 253 characters (checked by the
# look-ahead), then "/", then a name of 1-63 characters that starts and ends alphanumeric.
_KEY_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"
DNS_LABEL = {"maxLength": 63, "pattern": f"^{_LABEL}$"}
DNS_SUBDOMAIN = {"maxLength": 253, "pattern": f"^{_SUBDOMAIN}$"}
DNS_SUBDOMAIN_OR_EMPTY = {"maxLength": 253, "pattern": f"^({_SUBDOMAIN})?$"}
LABEL_KEY = {"maxLength": 317, "pattern": f"^((?=[^/]{{1,253}}/){_SUBDOMAIN}/)?{_KEY_NAME}$"}
PATH_SEGMENT = {"minLength": 1, "pattern": "^[^/%]+$", "not": {"enum": [".", ".."]}}
INT32 = {"minimum": -2147483648, "maximum": 2147483647}
# v1alpha2's bound on a group's priority; 1.37's bound on v1alpha3/v1beta1 is a release rule instead
# (validate/rules/priority.py), because 1.38 serves the same versions without it
PRIORITY = {"minimum": -2147483648, "maximum": 1000000000}
# Empty structs (`basic: {}`, `single: {}`, `all: {}`): a strict API server rejects unknown fields in them.
EMPTY_STRUCT = {"additionalProperties": False}


def exactly_one(members: dict[str, dict]) -> dict:
    """A union: exactly one member set. A member given as JSON null counts as unset (api-reference §0.1, §7).

    The `{"type": "null"}` branch keeps a null union value itself acceptable wherever upstream accepts it; a
    required union that must not be null is handled by the required-not-null rule in `_tighten_required`.
    """
    branches: list[dict] = [{"type": "null"}]
    for name, schema in members.items():
        branches.append({"type": "object", "required": [name], "properties": {name: schema}})
    return {"oneOf": branches, "x-wasplan-exactly-one": list(members)}


def at_least_one(members: dict[str, dict]) -> dict:
    """At least one member set (and not null/empty, as `members` says)."""
    branches: list[dict] = [{"type": "null"}]
    for name, schema in members.items():
        branches.append({"type": "object", "required": [name], "properties": {name: schema}})
    return {"anyOf": branches, "x-wasplan-at-least-one": list(members)}


OBJ = {"type": "object"}
STR = {"type": "string"}
NON_EMPTY = {"type": "array", "minItems": 1}

A1 = ("v1alpha1",)
A2 = ("v1alpha2",)
A3B1 = ("v1alpha3", "v1beta1")
ALL = ("v1alpha1", "v1alpha2", "v1alpha3", "v1beta1")
SINCE_A2 = ("v1alpha2", "v1alpha3", "v1beta1")

# --- the overlay table ------------------------------------------------------------------------------------
# (versions, target, keywords). Target "Type.field" adds keywords to that property of the definition
# io.k8s.api.scheduling.<version>.Type; a target without a dot adds them to the definition itself;
# "meta.Type.field" addresses io.k8s.apimachinery.pkg.apis.meta.v1.Type. Every row must match something in
# every version it lists (the generator fails otherwise), so a renamed upstream field cannot slip by.
OVERLAYS: list[tuple[tuple[str, ...], str, dict]] = [
    # object names: Workload, PodGroup, CompositePodGroup names are DNS subdomains (§1, §3.1)
    (ALL, "Workload.metadata", {"properties": {"name": DNS_SUBDOMAIN}}),
    (SINCE_A2, "PodGroup.metadata", {"properties": {"name": DNS_SUBDOMAIN}}),
    (A3B1, "CompositePodGroup.metadata", {"properties": {"name": DNS_SUBDOMAIN}}),
    # controllerRef (§3.1): apiGroup DNS subdomain when non-empty; kind and name path segments
    (ALL, "TypedLocalObjectReference.apiGroup", DNS_SUBDOMAIN_OR_EMPTY),
    (ALL, "TypedLocalObjectReference.kind", PATH_SEGMENT),
    (ALL, "TypedLocalObjectReference.name", PATH_SEGMENT),
    # v1alpha1 Workload (§5): 1..8 podGroups, DNS-label names, policy union, minCount >= 1
    (A1, "WorkloadSpec.podGroups", {"minItems": 1, "maxItems": 8}),
    (A1, "PodGroup.name", DNS_LABEL),
    (A1, "PodGroupPolicy", exactly_one({"basic": OBJ, "gang": OBJ})),
    # v1alpha2 Workload (§3.1): 1..8 templates; disruptionMode is a string enum
    (A2, "WorkloadSpec.podGroupTemplates", {"minItems": 1, "maxItems": 8}),
    (A2, "PodGroupTemplate.disruptionMode", {"enum": ["Pod", "PodGroup", None]}),
    # v1alpha2 PodGroup (§3.2): podGroupTemplateRef is a one-member union; enum disruptionMode
    (A2, "PodGroupSpec.disruptionMode", {"enum": ["Pod", "PodGroup", None]}),
    (A2, "PodGroupTemplateReference", exactly_one({"workload": OBJ})),
    (A2, "WorkloadPodGroupTemplateReference.workloadName", DNS_SUBDOMAIN),
    (A2, "WorkloadPodGroupTemplateReference.podGroupTemplateName", DNS_LABEL),
    # 1.37 Workload (§4.1): exactly one of the two template lists non-empty; 8 templates per list
    (A3B1, "WorkloadSpec", exactly_one({"podGroupTemplates": NON_EMPTY,
                                        "compositePodGroupTemplates": NON_EMPTY})),
    (A3B1, "WorkloadSpec.podGroupTemplates", {"maxItems": 8}),
    (A3B1, "WorkloadSpec.compositePodGroupTemplates", {"maxItems": 8}),
    # CompositePodGroupTemplate (§4.4, §4.1 rule 4): at every level 8 children per list, at least one child
    (A3B1, "CompositePodGroupTemplate", at_least_one({"podGroupTemplates": NON_EMPTY,
                                                     "compositePodGroupTemplates": NON_EMPTY})),
    (A3B1, "CompositePodGroupTemplate.podGroupTemplates", {"maxItems": 8}),
    (A3B1, "CompositePodGroupTemplate.compositePodGroupTemplates", {"maxItems": 8}),
    (A3B1, "CompositePodGroupTemplate.name", DNS_LABEL),
    (A3B1, "CompositePodGroupTemplate.priorityClassName", DNS_SUBDOMAIN),
    (A3B1, "CompositePodGroupTemplate.preemptionPolicy", {"enum": ["Never", "PreemptLowerPriority", None]}),
    (A3B1, "CompositePodGroupSchedulingPolicy", exactly_one({"basic": OBJ, "gang": OBJ})),
    (A3B1, "CompositeBasicSchedulingPolicy", EMPTY_STRUCT),
    (A3B1, "CompositeGangSchedulingPolicy.minGroupCount", {"minimum": 1}),
    (A3B1, "CompositeDisruptionMode", exactly_one({"single": OBJ, "all": OBJ})),
    (A3B1, "SingleCompositeDisruptionMode", EMPTY_STRUCT),
    (A3B1, "AllCompositeDisruptionMode", EMPTY_STRUCT),
    (A3B1, "CompositePodGroupSchedulingConstraints.topology", {"maxItems": 1}),
    # PodGroupTemplate (§3.1, §4.1)
    (SINCE_A2, "PodGroupTemplate.name", DNS_LABEL),
    (SINCE_A2, "PodGroupTemplate.priorityClassName", DNS_SUBDOMAIN),
    (A2, "PodGroupTemplate.priority", PRIORITY),
    (SINCE_A2, "PodGroupTemplate.resourceClaims", {"maxItems": 4}),
    (A3B1, "PodGroupTemplate.preemptionPolicy", {"enum": ["Never", "PreemptLowerPriority", None]}),
    # PodGroup spec (§3.2, §4.2)
    (SINCE_A2, "PodGroupSpec.priorityClassName", DNS_SUBDOMAIN),
    (A2, "PodGroupSpec.priority", PRIORITY),
    (SINCE_A2, "PodGroupSpec.resourceClaims", {"maxItems": 4}),
    (A3B1, "PodGroupSpec.preemptionPolicy", {"enum": ["Never", "PreemptLowerPriority", None]}),
    (A3B1, "PodGroupSpec.parentCompositePodGroupName", DNS_SUBDOMAIN),
    (A3B1, "WorkloadReference.workloadName", DNS_SUBDOMAIN),
    (A3B1, "WorkloadReference.templateName", DNS_LABEL),
    (A3B1, "DisruptionMode", exactly_one({"single": OBJ, "all": OBJ})),
    (A3B1, "SingleDisruptionMode", EMPTY_STRUCT),
    (A3B1, "AllDisruptionMode", EMPTY_STRUCT),
    # CompositePodGroup spec (§4.3): v1alpha3, and v1beta1 from 1.38
    (A3B1, "CompositePodGroupSpec.parentCompositePodGroupName", DNS_SUBDOMAIN),
    (A3B1, "CompositePodGroupSpec.priorityClassName", DNS_SUBDOMAIN),
    (A3B1, "CompositePodGroupSpec.preemptionPolicy", {"enum": ["Never", "PreemptLowerPriority", None]}),
    # scheduling policy, shared by templates and PodGroups (§3.1, §4.1)
    (SINCE_A2, "PodGroupSchedulingPolicy", exactly_one({"basic": OBJ, "gang": OBJ})),
    (ALL, "BasicSchedulingPolicy", EMPTY_STRUCT),
    (ALL, "GangSchedulingPolicy.minCount", {"minimum": 1}),
    # topology (§3.1): at most one entry; the key is a label key
    (SINCE_A2, "PodGroupSchedulingConstraints.topology", {"maxItems": 1}),
    (SINCE_A2, "TopologyConstraint.key", LABEL_KEY),
    # resource claims (§3.1, §3.2, §6.2): DNS-label name, exactly one DNS-subdomain source
    (SINCE_A2, "PodGroupResourceClaim", exactly_one({"resourceClaimName": STR,
                                                     "resourceClaimTemplateName": STR})),
    (SINCE_A2, "PodGroupResourceClaim.name", DNS_LABEL),
    (SINCE_A2, "PodGroupResourceClaim.resourceClaimName", DNS_SUBDOMAIN),
    (SINCE_A2, "PodGroupResourceClaim.resourceClaimTemplateName", DNS_SUBDOMAIN),
    (SINCE_A2, "PodGroupStatus.resourceClaimStatuses", {"maxItems": 4}),
    (SINCE_A2, "PodGroupResourceClaimStatus.resourceClaimName", DNS_SUBDOMAIN),
    # status conditions (§3.3, §4.5)
    (SINCE_A2, "meta.Condition.status", {"enum": ["True", "False", "Unknown"]}),
    (SINCE_A2, "meta.Condition.type", {**LABEL_KEY, "maxLength": 316}),
    (SINCE_A2, "meta.Condition.reason",
     {"minLength": 1, "maxLength": 1024, "pattern": "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"}),
    (SINCE_A2, "meta.Condition.message", {"maxLength": 32768}),
]


# --- reading upstream -------------------------------------------------------------------------------------
def upstream_definitions(schema_dir: str) -> dict[str, Any]:
    """The `$defs` of one strict schema directory: kubernetes-validate's, or wasplan's own for a release the
    package does not have yet."""
    own = OWN_UPSTREAM / schema_dir
    base = own if own.is_dir() else importlib.resources.files("kubernetes_validate") / "kubernetes-json-schema" / schema_dir
    return json.loads((base / "_definitions.json").read_text(encoding="utf-8"))["$defs"]


# Keywords whose value is a map of name -> subschema, or a subschema, or a list of subschemas. Walking by
# keyword (not by any dict key) matters: a *property* called "description" must survive the stripping.
_SCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
_SCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
_SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


def _subschemas(schema: dict) -> Iterator[dict]:
    for key in _SCHEMA_MAPS:
        for sub in schema.get(key, {}).values():
            if isinstance(sub, dict):
                yield sub
    for key in _SCHEMA_ONE:
        sub = schema.get(key)
        if isinstance(sub, dict):
            yield sub
    for key in _SCHEMA_LIST:
        for sub in schema.get(key, ()):
            if isinstance(sub, dict):
                yield sub


def _strip_prose(schema: dict) -> None:
    """Remove upstream `description` keywords everywhere (our product must not carry upstream prose)."""
    schema.pop("description", None)
    for sub in _subschemas(schema):
        _strip_prose(sub)


def _refs(schema: dict) -> Iterator[str]:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        yield ref.rsplit("/", 1)[-1]
    for sub in _subschemas(schema):
        yield from _refs(sub)


def reachable(defs: dict[str, Any], root: str) -> list[str]:
    """Definition names reachable from `root` through `$ref`, root included, in sorted order."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_refs(defs[name]))
    return sorted(seen)


# --- blanket rules (apply to every generated definition) --------------------------------------------------
def _types(schema: dict) -> list[str]:
    t = schema.get("type", [])
    return [t] if isinstance(t, str) else list(t)


def _add_int32_ranges(schema: dict) -> None:
    """`format: int32` is not enforced by JSON Schema validators; give every int32 field its range (§0.1)."""
    if schema.get("format") == "int32":
        for key, value in INT32.items():
            schema.setdefault(key, value)
    for sub in _subschemas(schema):
        _add_int32_ranges(sub)


def _tighten_required(defs: dict[str, Any], schema: dict) -> None:
    """A required field given as JSON null is unset to the API server, so it fails as missing (§0.1, §7).

    Upstream's strict schema accepts `spec: null` or `schedulingPolicy: null` because the referenced
    definition is nullable; we pin such required `$ref` properties to the definition's non-null type.
    """
    for name in schema.get("required", ()):
        prop = schema.get("properties", {}).get(name)
        if not isinstance(prop, dict):
            continue
        if "$ref" in prop:
            target = _types(defs[prop["$ref"].rsplit("/", 1)[-1]])
            non_null = [t for t in target if t != "null"]
            if "null" in target and len(non_null) == 1:
                prop["type"] = non_null[0]
        elif "null" in _types(prop):
            non_null = [t for t in _types(prop) if t != "null"]
            prop["type"] = non_null[0] if len(non_null) == 1 else non_null
    for sub in _subschemas(schema):
        _tighten_required(defs, sub)


def _merge(target: dict, keywords: dict, where: str) -> None:
    for key, value in keywords.items():
        if key in target and target[key] != value and key not in INT32:
            raise SystemExit(f"overlay {where}: keyword {key!r} already set upstream to {target[key]!r}")
        target[key] = copy.deepcopy(value)


def _def_name(version: str, target: str) -> tuple[str, str | None]:
    if target.startswith("meta."):
        parts = target[len("meta."):].split(".")
        prefix = META
    else:
        parts = target.split(".")
        prefix = f"{SCHED}.{version}"
    return f"{prefix}.{parts[0]}", (parts[1] if len(parts) > 1 else None)


def apply_overlays(defs: dict[str, Any], version: str, used: set[tuple[int, str]]) -> None:
    """Apply every OVERLAYS row for `version` to the definitions present in `defs`."""
    for index, (versions, target, keywords) in enumerate(OVERLAYS):
        if version not in versions:
            continue
        def_name, field = _def_name(version, target)
        if def_name not in defs:
            continue
        node = defs[def_name]
        if field is not None:
            props = node.get("properties", {})
            if field not in props:
                raise SystemExit(f"overlay {target} ({version}): {def_name} has no property {field!r}")
            node = props[field]
        _merge(node, keywords, f"{target} ({version})")
        used.add((index, version))


# --- assembling one file ----------------------------------------------------------------------------------
def prepared_definitions(schema_dir: str, version: str, used: set[tuple[int, str]]) -> dict[str, Any]:
    """All scheduling-relevant upstream definitions of one version with prose removed and rules applied."""
    upstream = upstream_definitions(schema_dir)
    wanted: set[str] = set()
    for d, v, kinds in TARGETS:
        if (d, v) == (schema_dir, version):
            for kind in kinds:
                wanted.update(reachable(upstream, f"{SCHED}.{version}.{kind}List"))
    defs = {name: copy.deepcopy(upstream[name]) for name in sorted(wanted)}
    for schema in defs.values():
        _strip_prose(schema)
        _tighten_required(defs, schema)
    apply_overlays(defs, version, used)
    for schema in defs.values():
        _add_int32_ranges(schema)
    return defs


def release_of(schema_dir: str) -> str:
    """`v1.37.0-local-strict` -> `1.37`."""
    return ".".join(schema_dir.lstrip("v").split(".")[:2])


def build_schema(defs: dict[str, Any], version: str, kind: str, release: str) -> dict:
    """The self-contained schema for `kind` (which may be a `*List`) of `scheduling.k8s.io/<version>`."""
    root_name = f"{SCHED}.{version}.{kind}"
    root = copy.deepcopy(defs[root_name])
    root["type"] = "object"  # a document is an object; only nested uses of the definition may be null
    names = [n for n in reachable(defs, root_name) if n != root_name or _self_referenced(defs, root_name)]
    base = kind[:-4] if kind.endswith("List") else kind
    summary = KIND_SUMMARY[base]
    if kind.endswith("List"):
        summary = f"A list of {base} objects. Each item: {summary[0].lower()}{summary[1:]}"
    root.update({
        "$schema": DRAFT,
        "$id": f"{ID_BASE}/{GROUP}/{version}/{kind}.json",
        "title": f"{kind} ({GROUP}/{version}, Kubernetes {release})",
        "description": summary + " Generated by tools/gen_schemas.py from the upstream strict schema plus "
                                 "the server-side rules JSON Schema can express.",
        "$defs": {n: defs[n] for n in names},
    })
    return root


def _self_referenced(defs: dict[str, Any], name: str) -> bool:
    return any(name in _refs(defs[other]) for other in reachable(defs, name))


def render(schema: dict) -> str:
    """Stable text: sorted keys, two-space indent, UTF-8, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def generate() -> dict[str, str]:
    """Relative path -> file text for every schema wasplan ships for scheduling.k8s.io."""
    used: set[tuple[int, str]] = set()
    out: dict[str, str] = {}
    for schema_dir, version, kinds in TARGETS:
        defs = prepared_definitions(schema_dir, version, used)
        for kind in kinds:
            for name in (kind, f"{kind}List"):
                out[f"{GROUP}/{version}/{name}.json"] = render(build_schema(defs, version, name,
                                                                            release_of(schema_dir)))
    unused = [f"{target} ({v})" for i, (versions, target, _) in enumerate(OVERLAYS)
              for v in versions if (i, v) not in used]
    if unused:
        raise SystemExit(f"overlay rows that matched nothing: {unused}")
    return out


def write(out_dir: Path) -> list[Path]:
    written = []
    for rel, text in sorted(generate().items()):
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "schemas",
                        help="directory to write <group>/<version>/<Kind>.json into")
    args = parser.parse_args(argv)
    for path in write(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

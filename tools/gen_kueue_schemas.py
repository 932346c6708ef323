#!/usr/bin/env python3
"""Generate wasplan's JSON Schemas for Kueue's kinds (kueue.x-k8s.io v1beta1 and v1beta2) from Kueue v0.17.0's CRDs.

Source: the CustomResourceDefinitions Kueue ships (`config/components/crd/bases/kueue.x-k8s.io_*.yaml` of
sigs.k8s.io/kueue v0.17.0; `oracle/build` copies them to `oracle/kueue017/crds/`, and the Go module cache holds
them after any oracle build). Each served version's `openAPIV3Schema` (OpenAPI v3.0, structural) is translated
into one self-contained draft 2020-12 schema per kind, `schemas/kueue.x-k8s.io/<version>/<Kind>.json`, which the
validator checks exactly as the scheduling.k8s.io ones (wasplan.validate.schemas).

The translation follows what the API server enforces for a custom resource
(k8s.io/apiextensions-apiserver/pkg/apiserver/validation and kube-openapi's validate package):
* unknown fields are errors (kubectl's default strict field validation), except under
  `x-kubernetes-preserve-unknown-fields`;
* `nullable` adds null; a JSON null in a non-nullable optional field is pruned by the server, so null is
  accepted there too (as in the scheduling.k8s.io schemas);
* OpenAPI v3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` become draft 2020-12 numbers, `format: int32` /
  `int64` become ranges (kube-openapi rejects a value outside them);
* `x-kubernetes-int-or-string` keeps its anyOf; `x-kubernetes-list-type: set` is `uniqueItems`;
  `x-kubernetes-list-type: map` keys and `x-kubernetes-validations` (CEL) stay as annotations: the Kueue rules
  (wasplan.validate.rules.kueue) check the list-map keys and the CEL rules;
* `metadata` is Kubernetes' ObjectMeta (taken from wasplan's scheduling.k8s.io Workload schema) with the name a
  DNS subdomain, as the API server validates every custom resource's name;
* `description` and `default` are dropped (no upstream prose; defaults are the planner's business).
Subtrees that occur more than once (the pod template's affinity terms, probes, volume sources) are moved to
`$defs` so the Workload schema stays small.

Usage: python tools/gen_kueue_schemas.py [--crds DIR] [--out DIR]
The output is byte-identical on every run (sorted keys, fixed indentation; tests/validate/test_kueue_schemas.py
regenerates and compares when the CRDs are at hand). A developer tool, not part of the wheel; it needs PyYAML.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
GROUP = "kueue.x-k8s.io"
ID_BASE = "https://wasplan.io/schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
KUEUE_RELEASE = "v0.17.0"
KINDS = ("AdmissionCheck", "ClusterQueue", "Cohort", "LocalQueue", "ResourceFlavor", "Topology", "Workload",
         "WorkloadPriorityClass")
DEFAULT_CRDS = (ROOT / "oracle" / "kueue017" / "crds",
                Path.home() / "go/pkg/mod/sigs.k8s.io/kueue@v0.17.0/config/components/crd/bases")
META_SOURCE = ROOT / "schemas" / "scheduling.k8s.io" / "v1beta1" / "Workload.json"
META = "io.k8s.apimachinery.pkg.apis.meta.v1"
_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS_SUBDOMAIN = {"maxLength": 253, "pattern": f"^{_LABEL}(\\.{_LABEL})*$"}
RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}
# keywords carried over as they are (their meaning is the same in OpenAPI v3.0 and draft 2020-12)
SAME = ("enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
        "minProperties", "maxProperties", "required", "format")
ANNOTATIONS = ("x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-int-or-string")
MIN_SHARED = 400  # characters of canonical JSON a repeated subtree must have to become a $def


def _translate(node: dict, root: bool = False) -> dict:
    out: dict[str, Any] = {key: node[key] for key in SAME if key in node}
    kind = node.get("type")
    if kind:
        out["type"] = [kind, "null"] if not root else kind
    if node.get("x-kubernetes-int-or-string"):
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        out.pop("type", None)
    if "anyOf" in node and "anyOf" not in out:
        out["anyOf"] = [_translate(branch, root=True) for branch in node["anyOf"]]
    for key in ("oneOf", "allOf"):
        if key in node:
            out[key] = [_translate(branch, root=True) for branch in node[key]]
    if node.get("exclusiveMinimum") is True:
        out["exclusiveMinimum"] = out.pop("minimum")
    if node.get("exclusiveMaximum") is True:
        out["exclusiveMaximum"] = out.pop("maximum")
    if node.get("format") in RANGES and kind == "integer":
        low, high = RANGES[node["format"]]
        out.setdefault("minimum", low)
        out.setdefault("maximum", high)
    for key in ANNOTATIONS:
        if key in node:
            out[key] = node[key]
    if node.get("x-kubernetes-list-type") == "set":
        out["uniqueItems"] = True
    rules = [{"rule": v["rule"], "message": v.get("message", "")} for v in node.get("x-kubernetes-validations", [])]
    if rules:
        out["x-kubernetes-validations"] = rules
    if "items" in node:
        out["items"] = _translate(node["items"])
    _object(node, out)
    return out


def _object(node: dict, out: dict) -> None:
    props = node.get("properties")
    preserve = node.get("x-kubernetes-preserve-unknown-fields")
    if props is not None:
        out["properties"] = {name: _translate(sub) for name, sub in props.items()}
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        out["additionalProperties"] = _translate(extra)
    elif node.get("type") == "object" and not preserve:
        out["additionalProperties"] = extra if isinstance(extra, bool) else False
    if node.get("x-kubernetes-embedded-resource") and "properties" in out:
        for name in ("apiVersion", "kind"):
            out["properties"].setdefault(name, {"type": ["string", "null"]})
        out["properties"].setdefault("metadata", {"type": ["object", "null"]})


def _meta_defs() -> dict:
    """ObjectMeta and what it refers to, from wasplan's own (generated) scheduling.k8s.io schema."""
    defs = json.loads(META_SOURCE.read_text(encoding="utf-8"))["$defs"]
    wanted, todo = {}, [f"{META}.ObjectMeta"]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        wanted[name] = defs[name]
        text = json.dumps(defs[name])
        todo.extend(ref.split('"')[0] for ref in text.split('"$ref": "#/$defs/')[1:])
    return wanted


def _children(node: dict) -> list[tuple[tuple, dict]]:
    """The subschemas of a schema node, each with where it sits (a key, or a key and a name or index)."""
    out: list[tuple[tuple, dict]] = []
    for name, sub in (node.get("properties") or {}).items():
        out.append((("properties", name), sub))
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            out.append(((key,), node[key]))
    for key in ("anyOf", "oneOf", "allOf"):
        out.extend(((key, i), sub) for i, sub in enumerate(node.get(key) or []))
    return out


def _share(schema: dict) -> dict:
    """Move every subschema that occurs twice or more (and is large) to $defs, named after the field it
    first describes plus a digest of its text."""
    counts: dict[str, int] = {}
    names: dict[str, str] = {}

    def visit(node: dict, field: str) -> None:
        text = json.dumps(node, sort_keys=True)
        if len(text) >= MIN_SHARED:
            counts[text] = counts.get(text, 0) + 1
            names.setdefault(text, f"kueue.{field}.{hashlib.sha256(text.encode()).hexdigest()[:8]}")
        for where, sub in _children(node):
            visit(sub, where[1] if where[0] == "properties" else field)

    def rewrite(node: dict, top: bool = False) -> dict:
        text = json.dumps(node, sort_keys=True)
        if not top and counts.get(text, 0) > 1:
            return {"$ref": f"#/$defs/{names[text]}"}
        out = dict(node)
        for where, sub in _children(node):
            if where[0] == "properties":
                out["properties"] = {**out["properties"], where[1]: rewrite(sub)}
            elif len(where) == 1:
                out[where[0]] = rewrite(sub)
            else:
                out[where[0]] = [*out[where[0]][:where[1]], rewrite(sub), *out[where[0]][where[1] + 1:]]
        return out

    visit({k: v for k, v in schema.items() if k != "$defs"}, "root")
    defs = dict(schema.get("$defs", {}))
    for text, count in counts.items():
        if count > 1:
            defs[names[text]] = rewrite(json.loads(text), top=True)
    out = rewrite({k: v for k, v in schema.items() if k != "$defs"}, top=True)
    out["$defs"] = dict(sorted(defs.items()))
    return out


def kind_schema(kind: str, version: str, openapi: dict, scope: str) -> dict:
    schema = _translate(openapi, root=True)
    schema["type"] = "object"
    props = schema.setdefault("properties", {})
    props["apiVersion"] = {"enum": [f"{GROUP}/{version}"], "type": ["string", "null"]}
    props["kind"] = {"enum": [kind], "type": ["string", "null"]}
    props["metadata"] = {"$ref": f"#/$defs/{META}.ObjectMeta", "properties": {"name": DNS_SUBDOMAIN}}
    schema["additionalProperties"] = False
    schema["$defs"] = _meta_defs()
    schema = _share(schema)
    schema.update({
        "$id": f"{ID_BASE}/{GROUP}/{version}/{kind}.json", "$schema": DRAFT,
        "title": f"{kind} ({GROUP}/{version}, Kueue {KUEUE_RELEASE})",
        "description": f"Kueue {KUEUE_RELEASE}'s {kind} ({scope.lower()}-scoped). Generated by "
                       "tools/gen_kueue_schemas.py from Kueue's CRD.",
        "x-kubernetes-group-version-kind": [{"group": GROUP, "kind": kind, "version": version}],
    })
    return schema


def _crd_dir(given: Path | None) -> Path:
    for candidate in ([given] if given else list(DEFAULT_CRDS)):
        if candidate and candidate.is_dir():
            return candidate
    raise SystemExit("no Kueue CRD directory: pass --crds (KDIR/config/components/crd/bases)")


def write(out: Path, crds: Path | None = None) -> list[Path]:
    written = []
    for path in sorted(_crd_dir(crds).glob(f"{GROUP}_*.yaml")):
        crd = yaml.safe_load(path.read_text(encoding="utf-8"))
        kind = crd["spec"]["names"]["kind"]
        if kind not in KINDS:
            continue
        for version in crd["spec"]["versions"]:
            schema = kind_schema(kind, version["name"], version["schema"]["openAPIV3Schema"], crd["spec"]["scope"])
            target = out / GROUP / version["name"] / f"{kind}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crds", type=Path, help="directory of Kueue's CRD files (kueue.x-k8s.io_*.yaml)")
    parser.add_argument("--out", type=Path, default=ROOT / "schemas", help="schemas root to write into")
    args = parser.parse_args(argv)
    for path in write(args.out, args.crds):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

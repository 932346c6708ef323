#!/usr/bin/env python3
"""Make a release's strict upstream schemas (Pod, Job, Node, ...) from its OpenAPI document, in the layout and
form kubernetes-validate ships them, for a release kubernetes-validate does not cover yet.

kubernetes-validate publishes `kubernetes-json-schema/v<release>.0-local-strict/` per Kubernetes release, made
from upstream's `api/openapi-spec/swagger.json`; wasplan reads those through `wasplan.validate.core_schemas`.
When wasplan models a release before kubernetes-validate has it (1.38, from v1.38.0-beta.0), this tool makes
the same directory from that release's swagger.json (the one in the Go module cache after the oracle's build:
`~/go/pkg/mod/k8s.io/kubernetes@v1.38.0-beta.0/api/openapi-spec/swagger.json`). The transformation, as read
off kubernetes-validate's own output (`--compare` checks it reproduces that output for a release both have):

- every definition goes under `$defs` of `_definitions.json` (`$id` https://kubernetes.io/api/_definitions.json,
  draft 2020-12), references rewritten from `#/definitions/X` to `#/$defs/X`;
- every `type` may also be null, except the type of a property its object lists as `required`, and below a
  property named `required` or `x-kubernetes-*` (JSONSchemaProps' own fields), whose inner types stay as they are;
- an object with `properties` and no `additionalProperties` gets `additionalProperties: false` (strict);
- a top-level kind's `apiVersion` and `kind` properties get an `enum` of its group-version-kinds;
- Quantity and IntOrString become a string-or-number (integer) `oneOf`.

Only `_definitions.json` and the files of the top-level kinds (those with `x-kubernetes-group-version-kind`)
are written: they are all that wasplan looks up (`core_schemas.schema_file_name`). A kind file is its
definition converted the same way (its own type not nullable, its own properties all nullable), referring into `/api/_definitions.json`, with its
own `$id`.

Usage: python tools/gen_core_schemas.py SWAGGER_JSON OUT_DIR [--compare KUBERNETES_VALIDATE_DIR]

A developer tool, not part of the wheel; tests/validate/test_core_schemas_138.py keeps the committed 1.38
directory identical to its output and checks that it reproduces kubernetes-validate for 1.37.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://kubernetes.io/api/"
DEFINITIONS_ID = BASE + "_definitions.json"
# the two scalars the API takes as either form (apimachinery resource.Quantity, intstr.IntOrString)
EITHER = {"io.k8s.apimachinery.pkg.api.resource.Quantity": "number",
          "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "integer"}


def _nullable(kind: Any) -> Any:
    return [kind, "null"] if isinstance(kind, str) else kind


def _refs(node: Any, prefix: str) -> Any:
    """`node` with every `$ref` pointing under `prefix`, nothing else changed."""
    if isinstance(node, list):
        return [_refs(x, prefix) for x in node]
    if not isinstance(node, dict):
        return node
    return {k: prefix + v.rsplit("/", 1)[-1] if k == "$ref" else _refs(v, prefix) for k, v in node.items()}


def _untouched_below(name: str) -> bool:
    return name == "required" or name.startswith("x-kubernetes-")


def _property(name: str, schema: dict, prefix: str, required: bool) -> dict:
    if _untouched_below(name):
        out = _refs(schema, prefix)
        if not required and "type" in out:
            out["type"] = _nullable(out["type"])
        return out
    return convert(schema, prefix, nullable=not required)


def convert(node: Any, prefix: str, nullable: bool = True, honour_required: bool = True) -> Any:
    """One schema node in the strict, nullable form (`honour_required`: a required property's type stays
    non-null, as in `_definitions.json`; a kind file's own properties are all nullable)."""
    if isinstance(node, list):
        return [convert(x, prefix) for x in node]
    if not isinstance(node, dict):
        return node
    required = set(node.get("required", ())) if honour_required else set()
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref":
            out[key] = prefix + value.rsplit("/", 1)[-1]
        elif key == "type":
            out[key] = _nullable(value) if nullable else value
        elif key == "properties":
            out[key] = {n: _property(n, s, prefix, n in required) for n, s in value.items()}
        else:
            out[key] = convert(value, prefix)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _with_kind_enums(source: dict, out: dict) -> dict:
    gvks = source.get("x-kubernetes-group-version-kind") or ()
    props = out.get("properties", {})
    if gvks and "apiVersion" in props:
        props["apiVersion"]["enum"] = list(dict.fromkeys(
            f"{g['group']}/{g['version']}" if g["group"] else g["version"] for g in gvks))
    if gvks and "kind" in props:
        props["kind"]["enum"] = list(dict.fromkeys(g["kind"] for g in gvks))
    return out


def definition(name: str, source: dict, prefix: str) -> dict:
    if name in EITHER:
        return {"oneOf": [{"type": ["string", "null"]}, {"type": [EITHER[name], "null"]}]}
    return _with_kind_enums(source, convert(source, prefix))


def file_stem(name: str) -> str:
    """`io.k8s.api.scheduling.v1beta1.PodGroup` -> `podgroup-scheduling-v1beta1`; the core group and
    apimachinery's `api` package are left out (`pod-v1`, `quantity-resource`)."""
    group, version, kind = name.split(".")[-3:]
    parts = [kind, version] if group in ("core", "api") else [kind, group, version]
    return "-".join(parts).lower()


def generate(swagger: dict) -> dict[str, dict]:
    """File name -> content: `_definitions.json` and one file per top-level kind."""
    defs = swagger["definitions"]
    out = {"_definitions.json": {"$defs": {n: definition(n, d, "#/$defs/") for n, d in defs.items()},
                                 "$schema": DRAFT, "$id": DEFINITIONS_ID}}
    for name, source in defs.items():
        if not source.get("x-kubernetes-group-version-kind"):
            continue
        stem = file_stem(name)
        schema = _with_kind_enums(source, convert(source, "/api/_definitions.json#/$defs/", nullable=False,
                                                           honour_required=False))
        schema.update({"$schema": DRAFT, "additionalProperties": False, "$id": BASE + stem.replace("-", "/")})
        out[stem + ".json"] = schema
    return out


def text(content: dict) -> str:
    return json.dumps(content, indent=2, ensure_ascii=False) + "\n"


def compare(made: dict[str, dict], reference: Path) -> list[str]:
    """Files whose parsed content differs from the reference directory's (empty: identical)."""
    return [name for name, content in sorted(made.items())
            if json.loads((reference / name).read_text(encoding="utf-8")) != content]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("swagger", type=Path)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--compare", type=Path, help="a kubernetes-validate directory to check the output against")
    args = parser.parse_args(argv)
    made = generate(json.loads(args.swagger.read_text(encoding="utf-8")))
    if args.compare:
        differ = compare(made, args.compare)
        print(f"{len(made) - len(differ)} of {len(made)} files identical to {args.compare}")
        for name in differ:
            print(f"  differs: {name}")
        if differ:
            return 1
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for stale in args.out.glob("*.json"):
            if stale.name not in made:
                stale.unlink()
        for name, content in made.items():
            (args.out / name).write_text(text(content), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hypothesis strategies that damage the repository's real fixtures the way hostile or careless input would.

Three layers of damage, freely combined: the object (a wrong type or an absurd value at any field path, a key
deleted or misspelt, a value buried in deep nesting), the text (YAML syntax damage, tags, anchors, template
directives, truncation) and the bytes (UTF-16, Latin-1, a stray invalid byte, a NUL, a BOM).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

LONG = os.environ.get("WASPLAN_FUZZ_LONG") == "1"
settings.register_profile("wasplan-fuzz", max_examples=12, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("wasplan-fuzz-long", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("wasplan-fuzz-process", max_examples=3, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("wasplan-fuzz-process-long", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ = settings.get_profile("wasplan-fuzz-long" if LONG else "wasplan-fuzz")
FUZZ_PROCESS = settings.get_profile("wasplan-fuzz-process-long" if LONG else "wasplan-fuzz-process")


def _load(path: Path) -> list:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


MANIFEST_FILES = sorted(
    [*FIXTURES.glob("examples/training/*.yaml"), *FIXTURES.glob("manifests/*.yaml"), *FIXTURES.glob("rules/*.yaml"),
     *FIXTURES.glob("conformance/1.3[67]/*.yaml"), *FIXTURES.glob("explain/*/gang.yaml"),
     *FIXTURES.glob("migrate/*/input.yaml")])
CLUSTER_FILES = sorted([FIXTURES / "examples" / "cluster.yaml", FIXTURES / "clusters" / "kubectl-snapshot.yaml",
                        *FIXTURES.glob("explain/*/cluster.yaml")])
MANIFESTS = {p.relative_to(FIXTURES).as_posix(): _load(p) for p in MANIFEST_FILES}
SCHEDULER_CONFIGS = {"scheduler-config": [{
    "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
    "profiles": [{"schedulerName": "default-scheduler",
                  "plugins": {"score": {"disabled": [{"name": "*"}], "enabled": [{"name": "NodeResourcesFit", "weight": 2}]}},
                  "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {
                      "type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 1}],
                      "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0},
                                                             {"utilization": 100, "score": 10}]}}}},
                                   {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 2}}]}]}]}
CLUSTERS = {p.relative_to(FIXTURES).as_posix(): _load(p) for p in CLUSTER_FILES}

ABSURD = [None, True, False, 0, -1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, 10**30, 1e308, -1e-308, 2.0, 0.5,
          "", " ", "x" * 300, "-1", "1e9999", "0x10", "1.5.5", "10 Gi", "999999999999999999999Gi", "NaN",
          "\u00e9\u4e2d\U0001f600", "a/b/c", "../../etc/passwd", "{index // 0}", "{" * 60 + "index" + "}" * 60,
          "(" * 200 + "1" + ")" * 200, "{9" + "9" * 400 + "}", [], {}, [None], {"": None}, [[[[]]]], {"a": {"b": {}}}]

TEXT_INSERTS = ["!!python/object/apply:os.system ['true']", "!!binary aGk=", "!custom", "!!set", "!!omap",
                "!!timestamp 2024-01-01", "!!int abc", "!!float x", "&a", "*a", "*nosuch", "<<: *a", "{{ .Values.x }}",
                ": :", "\t", "- ", "[", "]", "{", "}", "'", '"', "\\ud800", "%YAML 1.1\n", "---\n", "...\n", "? ",
                "|", ">", "#", "\x00", "\ufeff", "\u2028", "\x85", "9" * 400, "[" * 1200 + "]" * 1200, "{a: " * 300 + "1" + "}" * 300, "-.inf", ".nan", "0o777", "1_000",
                # every core tag with a value it cannot take, and core tags on the wrong kind of node
                '!!int ""', "!!int _", "!!bool maybe", '!!bool ""', '!!float ""', "!!float .", "!!null x",
                "!!timestamp nope", "!!binary @@", "!!str {a: 1}", "!!str [1]", "!!map x", "!!seq x", "!!int [1]",
                "!!bool {a: b}"]


def field_paths(value, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(field_paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(field_paths(v, prefix + (i,)))
    return out


def _set(doc, path: tuple, action: str, new):
    """A copy of `doc` with the value at `path` replaced, deleted, renamed or nested (never mutates the input)."""
    doc = json.loads(json.dumps(doc))
    if not path:
        return new if action == "replace" else doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "replace":
        parent[last] = new
    elif action == "nest":
        value = parent[last]
        for _ in range(new if isinstance(new, int) and 0 < new < 2000 else 150):
            value = [value]
        parent[last] = value
    elif action == "delete" and isinstance(parent, dict):
        del parent[last]
    elif action == "rename" and isinstance(parent, dict):
        parent[str(last) + "s"] = parent.pop(last)
    return doc


@st.composite
def mutated_documents(draw, corpus: dict) -> list:
    name = draw(st.sampled_from(sorted(corpus)))
    docs = [json.loads(json.dumps(d, default=str)) for d in corpus[name]]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(docs) - 1))
        path = draw(st.sampled_from(field_paths(docs[i])))
        action = draw(st.sampled_from(["replace", "replace", "replace", "delete", "rename", "nest"]))
        new = draw(st.sampled_from(ABSURD)) if action != "nest" else draw(st.sampled_from([5, 99, 101, 150]))
        docs[i] = _set(docs[i], path, action, new)
    return docs


def _dump(docs: list, as_json: bool) -> str:
    if as_json:
        return json.dumps(docs[0] if len(docs) == 1 else {"apiVersion": "v1", "kind": "List", "items": docs})
    return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True, width=10**6)


@st.composite
def damaged_text(draw, text: str) -> str:
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "insert", "delete", "truncate", "indent"]))
        if op == "insert":
            text = text[:at] + draw(st.sampled_from(TEXT_INSERTS)) + " " + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif op == "truncate":
            text = text[:at]
        else:
            line_start = text.rfind("\n", 0, at) + 1
            text = text[:line_start] + " " * draw(st.integers(1, 3)) + text[line_start:]
    return text


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "invalid-byte":
        data = text.encode("utf-8", "surrogatepass")
        return data[: len(data) // 2] + b"\xff" + data[len(data) // 2:]
    return text.encode(encoding, "surrogatepass" if encoding == "utf-8" else "replace")


@st.composite
def manifest_bytes(draw, corpus: dict = MANIFESTS) -> tuple[bytes, str]:
    """(the damaged file's bytes, its suffix)."""
    docs = draw(mutated_documents(corpus))
    as_json = draw(st.booleans())
    text = _dump(docs, as_json)
    if draw(st.integers(0, 2)) == 0:
        text = draw(damaged_text(text))
    encoding = draw(st.sampled_from(["utf-8"] * 6 + ["utf-16", "latin-1", "invalid-byte"]))
    return _encode(text, encoding), ".json" if as_json else ".yaml"


# DRA objects: the upstream examples, the DRA quick start's classes and claims, and one slice of each shape; their
# CEL selectors get damaged too (tokens inserted, cut, doubled), so the parser, checker and position mapping meet
# every kind of broken expression.
DRA_FILES = sorted([*FIXTURES.glob("dra-upstream/*.yaml"), FIXTURES / "examples" / "dra" / "workloads" / "classes.yaml",
                    FIXTURES / "rules" / "dra-slices.yaml"])
DRA_MANIFESTS = {p.relative_to(FIXTURES).as_posix(): _load(p) for p in DRA_FILES}
CEL_INSERTS = ["(", ")", "[", "]", "{", "}", ".", ",", "?", ":", "!", "-", "==", "=", "&&", "||", " in ", "'", '"',
               '"""', "r'", "b'", "\\", "\\x", "\\u12", "1u", "0x", "1e", ".5", "device", "attributes", "has(",
               ".all(x, ", ".exists(", "cel.bind(", ".?", "[?", "size()", "quantity(", "semver(", "\n", "  ",
               "9" * 30, "x" * 80, "`", "@", "#", "\t"]


def _selector_paths(value, prefix: tuple = ()) -> list[tuple]:
    return [p for p in field_paths(value, prefix) if p and p[-1] == "expression"]


@st.composite
def damaged_selectors(draw) -> tuple[bytes, str]:
    """A DRA file whose CEL expressions are damaged, written as YAML with a random scalar style."""
    name = draw(st.sampled_from(sorted(n for n, d in DRA_MANIFESTS.items() if any(_selector_paths(x) for x in d))))
    docs = [json.loads(json.dumps(d)) for d in DRA_MANIFESTS[name]]
    i = draw(st.sampled_from([k for k, d in enumerate(docs) if _selector_paths(d)]))
    path = draw(st.sampled_from(_selector_paths(docs[i])))
    parent = docs[i]
    for key in path[:-1]:
        parent = parent[key]
    text = str(parent["expression"])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(CEL_INSERTS)) + text[at + draw(st.integers(0, 3)):]
    parent["expression"] = text
    style = draw(st.sampled_from([None, "|", ">", '"', "'"]))
    dumped = yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True, width=draw(st.sampled_from([30, 10**6])),
                                default_style=None)
    if style is not None:
        dumped = yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True, default_style=style)
    return dumped.encode("utf-8", "surrogatepass"), ".yaml"


# Cluster kind templates with widths, literals and products beyond any node count or name length
TEMPLATE_PARTS = ["{index}", "{index:99999999999999999999}", "{index:999999999}", "{index:254}", "{index:253}",
                  "{index:03}", "{index*99999999999999999*99999999999999999}", "{index // 0}", "{count % 0}",
                  "{999999999999999999}", "{9999999999999999999}", "{index1:00}", "{pool:300}", "{(((index)))}",
                  "{index:²}", "{index:}", "{", "}", "{{", "-"]


@st.composite
def cluster_templates(draw) -> tuple[bytes, str]:
    """A Cluster with hostile name and label templates on its node pool and pods."""
    def template() -> str:
        return "n" + "".join(draw(st.lists(st.sampled_from(TEMPLATE_PARTS), min_size=1, max_size=3)))
    count = draw(st.sampled_from([0, 1, 3, 100000, 100001, 10**20]))
    doc = {"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "hostile"},
           "spec": {"nodePools": [{"name": "pool", "count": count, "namePattern": template(),
                                   "labels": {"rack": template()}, "allocatable": {"cpu": "8", "memory": "32Gi"}}],
                    "pods": [{"name": template(), "count": draw(st.sampled_from([1, 2, 10**20])),
                              "requests": {"cpu": "1"}}]}}
    return yaml.safe_dump(doc, sort_keys=False).encode(), ".yaml"

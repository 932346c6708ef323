"""The compiled reader for List entries (documents/yamlfast.py) gives exactly the libyaml path's values, or
declines: on every scalar form where YAML 1.1 and 1.2 (or the two readers) could differ, on every fixture, and
on a generated kubectl dump with such scalars planned both ways, byte for byte."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from wasplan.documents import reader, yamlfast, yamllist

ROOT = Path(__file__).resolve().parents[2]

# plain scalars whose readings differ between YAML 1.1 (wasplan, go-yaml v2) and YAML 1.2 (yaml-rs), or that
# one of the two refuses, and some that read alike
FORMS = [
    "yes", "no", "on", "off", "y", "n", "Y", "Yes", "NO", "ON", "Off", "True", "TRUE", "False", "true", "false",
    "null", "Null", "NULL", "~", "", "012", "0o12", "0x1F", "0X1f", "-0x1F", "+0x1F", "0b101", "1_000", "1__0",
    "0_1", "1:30", "190:20:30.15", "1e3", "1E3", "1e+3", "1.0e+3", "1E-3", "12e03", "1.e5", "0e0", "1.5", "-1.5",
    "+1", "+1.5", ".5", "5.", "+.5", "-.5", "-0", "00", "0", "-1", "-0.0", "8080", "9223372036854775807",
    "9223372036854775808", "99999999999999999999", "0xffffffffffffffffff", ".inf", "-.inf", ".Inf", "+.INF",
    "inf", "-inf", "Infinity", "nan", ".nan", ".NaN", "NaN", "2026-12-06", "2026-12-06T08:15:36Z",
    "2026-12-06 08:15:36", "=", "<<", "1.2.3", "0xZZ", "1e", "e3", "'q'", "'yes'", '"012"', '"a\\x41\\u00e9\\N"',
    '"\\q"', "[1, yes]", "{a: on}", "[]", "{}", "[ ]", "! 5", "!!int 5", "!!str 5", "yes # c", "8080 # c", "---",
    "--port=80", "-- x", "a\x07b", "a\x85b", "a\tb", "nginx", "1Gi", "100m", "10.0.0.1", "|\n    yes\n    012",
    ">-\n    fold\n\n    ed", "1E", "1e", "5Ei", "500Mi", "1.27.3", "1-2", "12e-5x", "0x1Fg", "1:2x", "1_0m",
    "2001:db8::1", "1e2b3c4d-0000-4000-8000-00000000000a", "9d1f0c2a-5b4d-4e8f-9a7b-1c2d3e4f5a6b", "1.2.3e5",
    "3 replicas", "1:30 pm", "0o17x", "10.0.0.1:80", "1e+5 g", "12:30:45Z", "2026-01-01T00:00:00+01:00", "plain\n    on\n    more", '"line\n    012"', "a: b", "- x",
]
PLACES = ["items:\n- k: {}\n", "items:\n- {}: v\n", "items:\n- k:\n  - {}\n", "items:\n- k:\n  - - {}\n",
          "items:\n- k:\n    j: {}\n"]


def as_read(value) -> str:
    """The value with every type spelled out (1, 1.0 and True are equal in Python, not in a plan)."""
    return repr(value)


@pytest.mark.parametrize("form", FORMS)
def test_a_scalar_form_reads_as_libyaml_reads_it_or_goes_to_libyaml(form):
    assert yamlfast.available()
    for place in PLACES:
        text = place.format(form)
        fast = yamlfast.read(text)
        if fast is not None:
            assert as_read(fast) == as_read(yamllist._plain(text)), text


@pytest.mark.parametrize("form", ["yes", "on", "Off", "012", "0o12", "1_000", "1:30", "1e3", ".inf", "<<", "~",
                                  "9223372036854775808", "True", "! 5"])
def test_the_forms_yaml_1_2_reads_differently_are_never_read_fast(form):
    assert yamlfast.read(f"items:\n- k: {form}\n") is None
    assert yamlfast.read(f"items:\n- k:\n  - {form}\n") is None


@pytest.mark.parametrize("key", ["1", "true", "null", "1.5", "yes"])
def test_a_key_that_yaml_1_2_types_is_never_read_fast(key):
    assert yamllist._plain(f"items:\n- {key}: v\n") == {"items": [{key: "v"}]}
    assert yamlfast.read(f"items:\n- {key}: v\n") is None


def test_plain_entries_are_read_fast_with_the_same_values():
    text = ("items:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n    labels:\n      app: web\n"
            "      \"example.com/x\": \"012\"\n  spec:\n    containers:\n    - name: c\n      image: nginx:1.27\n"
            "      args:\n      - --port=80\n      - |\n        echo yes\n      ports:\n      - containerPort: 8080\n"
            "      resources:\n        requests:\n          cpu: 100m\n          memory: 1Gi\n    priority: -5\n"
            "    enableServiceLinks: true\n    terminationGracePeriodSeconds: 30\n    nodeSelector: {}\n"
            "    score: 0.25\n    tolerations: []\n    x: null\n    z:\n")
    fast = yamlfast.read(text)
    assert fast is not None
    assert as_read(fast) == as_read(yamllist._plain(text))


def test_a_duplicate_key_or_a_control_character_goes_to_libyaml():
    assert yamlfast.read("items:\n- a: 1\n  b: 2\n  a: 3\n") is None
    assert yamllist._plain("items:\n- a: 1\n  b: 2\n  a: 3\n") is None  # libyaml's path reports WAS005
    assert yamlfast.read("items:\n- a: \"x\x07\"\n") is None
    assert yamlfast.read("items:\n- a:\n\t  b: 1\n") is None
    deep = "items:\n- " + "".join(" " * (2 * i) + f"k{i}:\n" for i in range(50)) + " " * 100 + "v: 1\n"
    assert yamlfast.read(deep) is None


def _documents(path: Path) -> list[str]:
    """A fixture's documents as texts (split at `---` lines; a part that is not one document reads as None)."""
    return [part for part in re.split(r"(?m)^---[^\n]*\n", path.read_text(encoding="utf-8", errors="replace"))
            if part.strip()]


def test_every_fixture_reads_the_same_both_ways():
    paths = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in (".yaml", ".yml"))
    assert len(paths) > 300
    fast_read = 0
    for path in paths:
        for text in _documents(path):
            fast = yamlfast.read(text)
            if fast is not None:
                fast_read += 1
                assert as_read(fast) == as_read(yamllist._plain(text)), path
    assert fast_read > 100  # most fixtures hold no form that needs libyaml


def _bigdump():
    spec = importlib.util.spec_from_file_location("bigdump", ROOT / "benchmarks" / "bigdump.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRICKY_LABELS = ("      t-yes: yes\n      t-on: on\n      t-octal: 012\n      t-exp: 1e3\n      t-sexa: 1:30\n"
                 "      t-o: 0o12\n      t-under: 1_000\n      t-true: True\n      t-null: ~\n")


def test_a_generated_dump_with_tricky_scalars_plans_byte_for_byte_both_ways(tmp_path, monkeypatch):
    from tests.cli.helpers import run

    bigdump = _bigdump()
    json_path, yaml_path, job_path = bigdump.write(tmp_path, 0.01)
    text = yaml_path.read_text()
    # every fifth object's labels get the forms YAML 1.1 and 1.2 read differently; the rest are read fast
    parts = text.split("\n    labels:\n")
    text = "".join(part + ("\n    labels:\n" + (TRICKY_LABELS if i % 5 == 0 else "") if i < len(parts) - 1 else "")
                   for i, part in enumerate(parts))
    yaml_path.write_text(text)
    assert len(text) > reader._ENTRY_BY_ENTRY

    calls = []
    real = yamlfast.read
    monkeypatch.setattr(yamlfast, "read", lambda t: calls.append(real(t) is not None) or real(t))
    fast = reader.read_text(str(yaml_path), text)
    fast_plan = run("plan", str(job_path), "--cluster", str(yaml_path), "-o", "json", "--no-config")
    assert calls.count(True) > len(calls) // 2 and calls.count(False) > 0
    monkeypatch.setattr(yamlfast, "_reader", False)
    slow = reader.read_text(str(yaml_path), text)
    slow_plan = run("plan", str(job_path), "--cluster", str(yaml_path), "-o", "json", "--no-config")

    assert [as_read(d.obj) for d in fast.documents] == [as_read(d.obj) for d in slow.documents]
    assert [(d.code, d.message, d.location) for d in fast.diagnostics] == \
           [(d.code, d.message, d.location) for d in slow.diagnostics]
    assert fast_plan.exit_code == slow_plan.exit_code
    assert fast_plan.output == slow_plan.output
    labels = [d.obj["metadata"]["labels"] for d in fast.documents if "t-yes" in d.obj["metadata"].get("labels", {})]
    assert labels and all(as_read([v["t-yes"], v["t-octal"], v["t-exp"], v["t-sexa"], v["t-o"], v["t-null"]])
                          == "[True, 10, '1e3', 90, '0o12', None]" for v in labels)  # YAML 1.1's readings

"""wasplan.jsontext writes the json module's exact bytes and reads the json module's exact values.

Every `-o json` output of the real fixtures is compared with what `json.dumps(indent=2)` makes of the same data
(the data read back from the output: the JSON types survive the trip), and random data of every JSON type
(non-ASCII and astral text, DEL and control characters, integers beyond 64 bits, floats of every exponent,
str/int subclasses) is encoded by both and compared byte for byte."""

from __future__ import annotations

import json
import math

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from wasplan import jsontext


class _Name(str):
    pass


_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**80, max_value=2**80)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text() | st.text().map(_Name)
            | st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 1e-05, 2.5e-07, 1e16, 1e15,
                               0.0001, "caf\u00e9", "\x7f", "\U0001f600", "\u2028", "\t\n\"\\"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                       | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4), max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans())
def test_dumps_equals_json_dumps_byte_for_byte(value, ensure_ascii):
    expected = json.dumps(value, indent=2, ensure_ascii=ensure_ascii) + "\n"
    assert jsontext.dumps(value, ensure_ascii=ensure_ascii) == expected


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_loads_equals_json_loads(value):
    text = json.dumps(value)
    ours, theirs = jsontext.loads(text), json.loads(text)
    assert ours == theirs and json.dumps(ours) == json.dumps(theirs)  # equal, and of the same types (1 vs 1.0)


def test_loads_keeps_the_json_modules_values_and_errors():
    big = "[123456789012345678901234567890, -9223372036854775809, NaN]"
    value = jsontext.loads(big)
    assert value[:2] == [123456789012345678901234567890, -9223372036854775809] and math.isnan(value[2])
    assert jsontext.loads('{"a": "\\ud800"}') == {"a": "\ud800"}
    for broken in ('{"a": 1,}', "[1, 2", "{'a': 1}"):
        try:
            json.loads(broken)
        except json.JSONDecodeError as exc:
            expected = str(exc)
        try:
            jsontext.loads(broken)
        except json.JSONDecodeError as exc:
            assert str(exc) == expected
        else:
            raise AssertionError(f"{broken!r} was accepted")


def test_dumps_falls_back_for_what_only_default_can_encode():
    class Opaque:
        def __str__(self) -> str:
            return "opaque \u00e9"

    data = {"v": Opaque(), "n": 2**70}
    assert jsontext.dumps(data, ensure_ascii=False, default=str) == json.dumps(data, indent=2, ensure_ascii=False,
                                                                               default=str) + "\n"


def _same_as_json_module(output: str, ensure_ascii: bool) -> None:
    assert output == json.dumps(json.loads(output), indent=2, ensure_ascii=ensure_ascii) + "\n"


def test_plan_json_of_the_scenarios_is_the_json_modules_bytes():
    for manifests, cluster in [(FIXTURES / "scenarios" / "racks-and-trees" / "manifests",
                                FIXTURES / "scenarios" / "racks-and-trees" / "cluster.yaml"),
                               (FIXTURES / "scenarios" / "preemption" / "serving.yaml",
                                FIXTURES / "scenarios" / "preemption" / "cluster.yaml"),
                               (FIXTURES / "examples" / "training", FIXTURES / "examples" / "cluster.yaml")]:
        result = run("plan", str(manifests), "--cluster", str(cluster), "-o", "json")
        assert result.exit_code in (0, 1) and '"kind": "Plan"' in result.output
        _same_as_json_module(result.output, ensure_ascii=True)


def test_validate_json_and_sarif_escape_non_ascii_as_before(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata:\n"
                   "  name: tr\u00e4ining-\U0001f600\n  namespace: ml\nspec:\n  schedulingPolicy:\n    gang:\n"
                   "      minCount: 99999999999  # beyond int32 (a number beyond int64 is refused when read)\n",
                   encoding="utf-8")
    for fmt in ("json", "sarif"):
        result = run("validate", str(bad), "-o", fmt)
        assert result.exit_code == 1 and "\\u00e4" in result.output and "\\ud83d\\ude00" in result.output
        _same_as_json_module(result.output, ensure_ascii=True)


def test_explain_and_migrate_json_keep_non_ascii_as_before():
    case = FIXTURES / "explain" / "taint"
    result = run("explain", "podgroup/ml/llm", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"),
                 "-o", "json")
    assert result.exit_code == 1 and '"targets"' in result.output
    _same_as_json_module(result.output, ensure_ascii=False)
    source = FIXTURES / "migrate" / "training-bundle" / "input.yaml"
    result = run("migrate", str(source), "--to-k8s", "1.37", "--check", "-o", "json")
    assert '"kind": "MigrationReport"' in result.output
    _same_as_json_module(result.output, ensure_ascii=False)


@pytest.mark.parametrize(("text", "exact"), [
    ('{"a": 12345678901234567890}', False),  # beyond int64: the json module keeps it an int
    ('[1, -12345678901234567890]', False),
    ('12345678901234567890', False),
    ('{"imageID": "sha256:1234567890123456789012ab"}', True),  # a digit run inside a string
    ('{"uid": "x-1234567890123456789012"}', True),
    ('[1.12345678901234567890123]', True),  # a long fraction is a float for both decoders
    ('["\\ud800"]', False),  # a lone surrogate: only the json module decodes it
])
def test_loads_exact_says_which_decoder_read_the_text(text, exact):
    value, by_orjson = jsontext.loads_exact(text)
    assert by_orjson is exact
    assert value == json.loads(text) and type(value) is type(json.loads(text))


@pytest.mark.parametrize("pad", range(0, 40, 3))
def test_long_integers_are_found_across_the_slices_a_large_text_is_scanned_in(monkeypatch, pad):
    monkeypatch.setattr(jsontext, "_SLICE", 50)
    monkeypatch.setattr(jsontext, "_OVERLAP", 30)
    prefix = '["x",' + '"digest:123456789012345678901",' * pad
    assert jsontext.loads_exact(prefix + ' 12345678901234567890]')[1] is False
    assert jsontext.loads_exact(prefix + ' 1]') == (json.loads(prefix + " 1]"), True)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_the_quick_scan_misses_no_token_the_exact_pattern_finds(value):
    """`_maybe_float_form` only spares the exact search: wherever `_FLOAT_FORM` matches, it must say maybe."""
    raw = (json.dumps(value, indent=2) + "\n").encode()  # what orjson writes wherever it can write the value
    if jsontext._FLOAT_FORM.search(raw):
        assert jsontext._maybe_float_form(raw)


def test_hex_hashes_in_names_do_not_send_the_output_to_the_slow_search():
    raw = json.dumps({"name": "leaderworkerset-llm-0-4eef3", "items": ["job-3e81a", 12, 1.5]}, indent=2).encode()
    assert not jsontext._maybe_float_form(raw)
    for token in (b"1e-05", b"2.5e-07", b"1e+16", b"0.00001"):
        assert jsontext._maybe_float_form(b'{\n  "x": ' + token + b"\n}\n")
        assert jsontext._maybe_float_form(b"[\n  " + token + b",\n  1\n]\n")

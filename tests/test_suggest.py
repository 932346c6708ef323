"""One "did you mean" rule (wasplan/suggest.py) for fields, explain targets, label values, gates and kinds."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from tests.cli.helpers import run
from wasplan.suggest import bag_distance, closest, did_you_mean, edit_distance


@pytest.mark.parametrize("word, known, expected", [
    ("MinCount", ["minCount", "maxCount"], "minCount"),  # case alone wins outright
    ("minCuont", ["minCount", "maxCount"], "minCount"),  # a swap of neighbours is one edit
    ("podgroupName", ["podGroupName"], "podGroupName"),
    ("x", ["y", "z"], None),  # never a replacement of the whole word
    ("GenericWorkloads", ["GenericWorkload", "CompositePodGroup"], "GenericWorkload"),
])
def test_did_you_mean(word, known, expected):
    assert did_you_mean(word, known) == expected
    assert did_you_mean(word, list(reversed(known))) == expected  # the order of candidates never matters


def test_closest_ranks_by_distance_then_name():
    assert closest("llm", ["lm", "llm-2", "llx", "alm", "zzz"], 3) == ["alm", "llx", "lm"]


def test_unknown_gate_gets_a_suggestion(tmp_path):
    path = tmp_path / "pod.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n")
    result = run("validate", str(path), "--feature-gates", "GenericWorkloads=true")
    assert result.exit_code == 2
    assert "unknown feature gate 'GenericWorkloads' for Kubernetes 1.37; did you mean GenericWorkload?" in result.stderr


def test_misspelt_kind_gets_a_suggestion(tmp_path):
    path = tmp_path / "pg.yaml"
    path.write_text("apiVersion: scheduling.k8s.io/v1beta1\nkind: Podgroup\nmetadata: {name: a}\nspec: {}\n")
    result = run("validate", str(path))
    assert "hint: did you mean kind: PodGroup?" in result.stdout
    assert "did you mean PodGroup?" in run("schema", "Podgruop").stderr


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abc-12", max_size=9), st.text(alphabet="abc-12", max_size=9))
def test_the_letter_count_filter_never_rules_out_a_name_within_the_bound(a, b):
    """closest() skips names whose letter counts differ by more than the bound: that difference is a lower bound of
    the edit distance (a substitution changes one letter on each side, a swap none)."""
    assert bag_distance(Counter(a), Counter(b)) <= edit_distance(a, b)

"""A thousand Jobs from one template: the pod-spec and quantity rules remember the specs they found clean
(validate/rules/common.CleanVerdicts) and skip them the next time, exactly: a spec that differs in any value,
in a value's type (1 and "1", 1 and 1.0), in the gates or in where it sits is checked again, and a finding is
never remembered, so every document with one reports it at its own line."""

from __future__ import annotations

import pytest

from wasplan.api.releases import get_release, parse_gates
from wasplan.diagnostics import Severity
from wasplan.documents import read_text
from wasplan.pipeline.validate import validate_read
from wasplan.validate.rules.common import CleanVerdicts


def job(name: str, container: str = "c", cpu: str = '"1"', toleration: str = "operator: Exists") -> str:
    return (f"apiVersion: batch/v1\nkind: Job\nmetadata: {{name: {name}}}\nspec:\n  template:\n    spec:\n"
            f"      restartPolicy: Never\n      tolerations: [{{key: k, {toleration}}}]\n"
            f"      containers: [{{name: {container}, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]\n")


def errors(text: str, gates: str | None = None) -> list[tuple]:
    report = validate_read(read_text("jobs.yaml", text), parse_gates(get_release("1.37"), gates))
    return [(d.code, d.location.line, d.location.field) for r in report.results for d in r.diagnostics
            if d.severity is Severity.ERROR]


def test_a_finding_in_a_repeated_template_is_reported_at_each_documents_line():
    text = "---\n".join([job("a"), job("b", container="Bad_Name"), job("c", container="Bad_Name"), job("d")])
    field = "spec.template.spec.containers[0].name"
    assert errors(text) == [("WAS107", 19, field), ("WAS107", 29, field)]


@pytest.mark.parametrize("cpu", ['"1 x"', '"1.5.5"'])
def test_a_spec_found_clean_hides_no_malformed_quantity_in_the_next(cpu):
    text = "---\n".join([job("a"), job("b", cpu=cpu), job("c")])
    assert errors(text) == [("WAS107", 19, "spec.template.spec.containers[0].resources.requests.cpu")]


def test_the_same_spec_under_other_gates_is_checked_again():
    """`Lt` is a toleration operator only with the TaintTolerationComparisonOperators gate: the template found
    clean with the gate on is checked again, and refused, with it off."""
    text = job("a", toleration='operator: Lt, value: "5"')
    assert errors(text, "TaintTolerationComparisonOperators=true") == []
    assert errors(text, "TaintTolerationComparisonOperators=false") == [
        ("WAS104", 8, "spec.template.spec.tolerations[0].operator")]


def test_keys_that_equality_would_blur_stay_apart():
    verdicts, runs = CleanVerdicts(), []
    for value in (1, True, 1.0, "1", 1):
        verdicts.check((repr({"cpu": value}),), lambda: runs.append(value) or [])
    assert runs == [1, True, 1.0, "1"]  # the second 1 is remembered; the others are not taken for it

import pytest
from _manifests import codes, docs, gates, only

from wasplan.diagnostics import Severity
from wasplan.validate.rules import check

JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {{name: train}}
spec:
{spec}
  template:
    spec:
      restartPolicy: Never
      containers: [{{name: c, image: x}}]
"""


def run(spec, release="1.37"):
    (doc,) = docs(JOB.format(spec=spec))
    return check(doc, gates(release))


def test_min_count_above_parallelism():
    d = only(run("  parallelism: 4\n  scheduling:\n    schedulingPolicy: {gang: {minCount: 5}}"), "WAS209")
    assert d.severity is Severity.ERROR
    assert d.message.startswith("gang minCount 5 is greater than spec.parallelism 4: ")
    assert (d.location.path, d.location.line) == (("spec", "scheduling", "schedulingPolicy", "gang", "minCount"), 7)


def test_min_count_against_default_parallelism_of_one():
    d = only(run("  scheduling:\n    schedulingPolicy: {gang: {minCount: 2}}"), "WAS209")
    assert "spec.parallelism 1 (the default)" in d.message


@pytest.mark.parametrize("spec", [
    "  parallelism: 4\n  scheduling:\n    schedulingPolicy: {gang: {minCount: 4}}",
    "  parallelism: 4\n  scheduling:\n    schedulingPolicy: {gang: {}}\n    disruptionMode: {all: {}}",
    "  scheduling:\n    schedulingPolicy: {basic: {}}\n    disruptionMode: {single: {}}",
])
def test_valid_scheduling_blocks(spec):
    assert run(spec) == []


def test_min_count_below_one():
    assert only(run("  scheduling:\n    schedulingPolicy: {gang: {minCount: 0}}"), "WAS105").location.line == 6


@pytest.mark.parametrize("spec, given", [
    ("  scheduling:\n    schedulingPolicy: {basic: {}}\n    disruptionMode: {all: {}}", "a basic schedulingPolicy"),
    ("  scheduling:\n    disruptionMode: {all: {}}", "no schedulingPolicy (basic)"),
])
def test_disrupt_all_with_basic_is_an_error_for_jobs(spec, given):
    d = only(run(spec), "WAS210")
    assert d.severity is Severity.ERROR
    assert d.message.startswith(f"disruptionMode all is not allowed with {given}")
    assert d.location.path == ("spec", "scheduling", "disruptionMode", "all")


def test_unions():
    diags = run("  scheduling:\n    schedulingPolicy: {}\n    disruptionMode: {single: {}, all: {}}")
    assert codes(diags) == ["WAS108", "WAS108", "WAS210"]
    policy, mode = [d for d in diags if d.code == "WAS108"]
    assert policy.message == "exactly one of basic, gang must be set; neither is set"
    assert mode.message == "exactly one of single, all must be set; both are set"
    assert mode.location.line == 7


def test_topology_and_claims():
    diags = run("""\
  scheduling:
    schedulingConstraints:
      topology: [{key: Example.com/rack}, {key: zone}]
    resourceClaims:
    - {name: gpu, resourceClaimName: a, resourceClaimTemplateName: b}
    - {name: gpu}
    - {name: Nic, resourceClaimName: shared_nic}""")
    assert codes(diags) == ["WAS106", "WAS107", "WAS107", "WAS107", "WAS108", "WAS108", "WAS202"]
    assert only(diags, "WAS106").location.path == ("spec", "scheduling", "schedulingConstraints", "topology", 1)
    dup = only(diags, "WAS202")
    assert dup.location.path == ("spec", "scheduling", "resourceClaims", 1, "name")
    assert dup.location.line == 10


def test_scheduling_is_ignored_with_a_byo_pod_group():
    (doc,) = docs("""\
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train}
        spec:
          scheduling: {schedulingPolicy: {gang: {}}}
          template:
            spec:
              schedulingGroup: {podGroupName: mine}
              containers: [{name: c, image: x}]
        """)
    d = only(check(doc, gates()), "WAS211")
    assert d.severity is Severity.WARNING
    assert (d.location.path, d.location.line) == (("spec", "scheduling"), 5)


def test_pod_template_scheduling_group_is_checked():
    (doc,) = docs("""\
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train}
        spec:
          template:
            spec:
              schedulingGroup: {}
        """)
    assert only(check(doc, gates("1.36")), "WAS108").location.path == ("spec", "template", "spec", "schedulingGroup")


def test_scheduling_rules_do_not_run_for_1_36():
    # 1.36 has no spec.scheduling; the schema reports the unknown field, the rules stay quiet.
    assert run("  scheduling:\n    disruptionMode: {all: {}}", "1.36") == []

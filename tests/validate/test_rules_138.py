"""The validation rules Kubernetes 1.38 adds or changes, on real manifests: what 1.38 refuses 1.37 accepts (or
only warns about), with upstream's messages (v1.38.0-beta.0 pkg/apis/scheduling/validation/validation.go,
pkg/apis/batch/validation/validation.go); each verdict was checked with the 1.38 and 1.37 oracles' `validate`
(tests/oracle/test_validate_138_oracle.py runs them again where the oracle is built)."""

from __future__ import annotations

import pytest

from wasplan.api.releases import default_gates, get_release, parse_gates
from wasplan.diagnostics import Severity
from wasplan.documents import read_paths
from wasplan.pipeline.validate import validate_read

NON_GANG_ALL = 'cannot have "all" disruption mode when scheduling policy is other than "gang"'

PODGROUP_BASIC_ALL = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: default}
spec:
  schedulingPolicy: {basic: {}}
  disruptionMode: {all: {}}
"""
COMPOSITE_BASIC_ALL = """\
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: tree, namespace: default}
spec:
  workloadRef: {workloadName: w, templateName: top}
  schedulingPolicy: {basic: {}}
  disruptionMode: {all: {}}
"""
WORKLOAD_TREE = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: default}
spec:
  compositePodGroupTemplates:
  - name: top
    schedulingPolicy: {gang: {minGroupCount: 1}}
    disruptionMode: {all: {}}
    podGroupTemplates:
    - name: leaf
      schedulingPolicy: {basic: {}}
      preemptionPolicy: Never
    - name: leaf2
      schedulingPolicy: {gang: {minCount: 1}}
      disruptionMode: {all: {}}
"""
PRIORITY = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: default}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
  priority: 2000000000
"""
JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: default
{annotations}spec:
  parallelism: 2
  completions: 2
{scheduling}  template:
    spec:
      restartPolicy: Never
{group}      containers: [{{name: main, image: app:1}}]
"""
SCHEDULING = "  scheduling:\n    schedulingPolicy: {gang: {}}\n"
GROUP = "      schedulingGroup: {podGroupName: trainers}\n"
BOTH = ("  annotations:\n    scheduling.k8s.io/workload-name: pipeline\n"
        "    scheduling.k8s.io/group-template-name: workers\n")
ONE = "  annotations:\n    scheduling.k8s.io/workload-name: pipeline\n"


def findings(tmp_path, text: str, release: str, gates: str | None = None) -> list[tuple[str, str, str, str]]:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    gate_set = parse_gates(get_release(release), gates) if gates else default_gates(get_release(release))
    report = validate_read(read_paths([str(path)]), gate_set)
    return [(d.code, d.severity.label, ".".join(map(str, d.location.path)), d.message) for d in report.diagnostics]


def errors(found):
    return [f for f in found if f[1] == Severity.ERROR.label]


def test_a_basic_podgroup_cannot_disrupt_all_in_1_38(tmp_path):
    assert findings(tmp_path, PODGROUP_BASIC_ALL, "1.38") == [
        ("WAS260", "error", "spec.disruptionMode", f'PodGroup "pg": {NON_GANG_ALL}')]
    assert [f[:2] for f in findings(tmp_path, PODGROUP_BASIC_ALL, "1.37")] == [("WAS207", "warning")]


def test_a_basic_composite_pod_group_cannot_disrupt_all_in_1_38(tmp_path):
    assert errors(findings(tmp_path, COMPOSITE_BASIC_ALL, "1.38")) == [
        ("WAS260", "error", "spec.disruptionMode", f'CompositePodGroup "tree": {NON_GANG_ALL}')]
    assert errors(findings(tmp_path, COMPOSITE_BASIC_ALL, "1.37")) == []


def test_workload_templates_follow_their_gang_and_all_parent_and_share_a_preemption_policy(tmp_path):
    leaf = "spec.compositePodGroupTemplates.0.podGroupTemplates.0"
    assert sorted(errors(findings(tmp_path, WORKLOAD_TREE, "1.38"))) == sorted([
        ("WAS261", "error", f"{leaf}.schedulingPolicy", 'template "leaf": must have "gang" scheduling policy when '
         'parent compositePodGroupTemplate has "gang" scheduling policy'),
        ("WAS262", "error", f"{leaf}.disruptionMode", 'template "leaf": must have "all" disruption mode when parent '
         'compositePodGroupTemplate has "all" disruption mode'),
        ("WAS206", "error", f"{leaf}.preemptionPolicy", "all priority, priorityClassName, and preemptionPolicy values "
         'must be identical, detected multiple values: template "leaf" has no priorityClassName, no priority and '
         'preemptionPolicy Never, but composite template "top" has no priorityClassName, no priority and no '
         "preemptionPolicy")])
    assert errors(findings(tmp_path, WORKLOAD_TREE, "1.37")) == []


def test_1_37_bounds_group_priority_and_1_38_does_not(tmp_path):
    assert errors(findings(tmp_path, PRIORITY, "1.37")) == [
        ("WAS105", "error", "spec.priority", '"spec.priority" is 2000000000; it must be at most 1000000000')]
    assert errors(findings(tmp_path, PRIORITY, "1.38")) == []
    templates = PRIORITY.replace("kind: PodGroup", "kind: Workload").replace(
        "  schedulingPolicy: {gang: {minCount: 2}}\n  priority: 2000000000\n",
        "  podGroupTemplates:\n  - name: a\n    schedulingPolicy: {basic: {}}\n    priority: 2000000000\n")
    assert [f[2] for f in errors(findings(tmp_path, templates, "1.37"))] == ["spec.podGroupTemplates.0.priority"]
    assert errors(findings(tmp_path, templates, "1.38")) == []


@pytest.mark.parametrize("annotations, scheduling, group, expected", [
    ("", SCHEDULING, GROUP, [("WAS263", "spec.scheduling",
                              "spec.scheduling: must not be set together with template.spec.schedulingGroup")]),
    (BOTH, SCHEDULING, "", [("WAS264", "spec.scheduling", "spec.scheduling: must not be set together with the "
                             "scheduling.k8s.io/workload-name annotation")]),
    (ONE, "", "", [("WAS265", "metadata.annotations.scheduling.k8s.io/group-template-name",
                    "metadata.annotations[scheduling.k8s.io/group-template-name]: must be set to a non-empty value "
                    "when scheduling.k8s.io/workload-name or scheduling.k8s.io/group-template-name is set")]),
    (BOTH, "", "", []),
])
def test_job_scheduling_is_exclusive_in_1_38(tmp_path, annotations, scheduling, group, expected):
    text = JOB.format(annotations=annotations, scheduling=scheduling, group=group)
    assert [(f[0], f[2], f[3]) for f in errors(findings(tmp_path, text, "1.38"))] == expected
    assert errors(findings(tmp_path, text, "1.37")) == []


def test_without_workload_with_job_the_server_drops_spec_scheduling_first(tmp_path):
    text = JOB.format(annotations="", scheduling=SCHEDULING, group=GROUP)
    found = findings(tmp_path, text, "1.38", "WorkloadWithJob=false")
    assert errors(found) == [] and "WAS301" in [f[0] for f in found]

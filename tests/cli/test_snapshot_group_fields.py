"""What `plan` does with a `--cluster` snapshot's scheduling objects whose fields have an unexpected type.

Snapshot objects are not schema-validated (an API server stored them), so the hub conversion is what stands
between a hand-edited or mangled snapshot and the engine: a value the API server would have decoded into the
field's type (`minCount: "3"` as a quantity-like string, `2.0`, `true`) is read as that integer; anything else
makes the object unusable for planning (WAS608) and the plan stops (exit 2). The verdicts were pinned against the
pydantic models before they became dataclasses (issue 33) and are the same since; the finding's text is new: one
line naming the field in the manifest's spelling and the value.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import run

NODES = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
"""
PODS = "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: p{i}, namespace: ml}}
spec:
  schedulingGroup: {{podGroupName: g}}
  containers: [{{name: c, image: i, resources: {{requests: {{cpu: "1"}}}}}}]
""" for i in range(2))


def podgroup(spec: str, status: str = "", api: str = "v1alpha3") -> str:
    return (f"apiVersion: scheduling.k8s.io/{api}\nkind: PodGroup\nmetadata: {{name: g, namespace: ml}}\n"
            f"spec:\n{spec}" + (f"status:\n{status}" if status else ""))


GANG = "  schedulingPolicy: {gang: {minCount: %s}}\n"


def plan(tmp_path, snapshot: str, release: str = "1.37") -> tuple[int, dict]:
    (tmp_path / "nodes.yaml").write_text(NODES)
    (tmp_path / "snap.yaml").write_text(snapshot)
    (tmp_path / "pods.yaml").write_text(PODS)
    result = run("plan", str(tmp_path / "pods.yaml"), "--cluster", str(tmp_path / "nodes.yaml"),
                 "--cluster", str(tmp_path / "snap.yaml"), "--no-config", "--k8s-version", release, "-o", "json")
    return result.exit_code, json.loads(result.stdout)


def outcome(code: int, doc: dict) -> tuple:
    """Exit code, each group's (name, minCount, status), each pod's (name, bound or not), the finding codes."""
    groups = tuple((g["name"], g.get("minCount"), g["status"]) for g in doc.get("podGroups", ()))
    pods = tuple((p["name"], p.get("node") is not None) for p in doc.get("pods", ()))
    codes = tuple(d["code"] for d in doc.get("diagnostics", ()))
    return code, groups, pods, codes


def was608(doc: dict) -> list[str]:
    return [d["message"] for d in doc.get("diagnostics", ()) if d["code"] == "WAS608"]


BOUND = (("p0", True), ("p1", True))
REFUSED = (2, (), (), ("WAS608",))

READ_AS_INTEGER = [  # what the API server's JSON decoding would have refused too, but pydantic read leniently
    ('"2"', 2), ("2.0", 2), ("true", 1), ('" 2 "', 2), ('"+2"', 2), ('"2.00"', 2), ("1", 1),
]


@pytest.mark.parametrize(("raw", "count"), READ_AS_INTEGER)
def test_a_min_count_written_as_an_integer_in_another_type_is_read_as_that_integer(tmp_path, raw, count):
    code, doc = plan(tmp_path, podgroup(GANG % raw))
    assert outcome(code, doc) == (0, (("g", count, "Scheduled"),), BOUND, ())


def test_a_min_count_string_above_the_pod_count_leaves_the_gang_waiting_for_pods(tmp_path):
    code, doc = plan(tmp_path, podgroup(GANG % '"3"'))
    assert outcome(code, doc)[:2] == (1, (("g", 3, "WaitingForPods"),))


REFUSED_SPECS = [
    GANG % '"abc"',
    GANG % "2.5",
    GANG % "[2]",
    GANG % '"3.5"',
    GANG % '"1e3"',
    GANG % '""',
    "  schedulingPolicy: {gang: {}}\n  schedulingConstraints: {topology: [{key: 7}]}\n",
    "  schedulingPolicy: {gang: {}}\n  priority: x\n",
    "  schedulingPolicy: {gang: {}}\n  priorityClassName: 5\n",
    "  schedulingPolicy: {gang: {}}\n  preemptionPolicy: Bogus\n",
    "  schedulingPolicy: {gang: {}}\n  disruptionMode: Bogus\n",
    "  schedulingPolicy: {gang: {}}\n  parentCompositePodGroupName: 5\n",
    "  schedulingPolicy: {gang: {}}\n  resourceClaims: [{name: 5}]\n",
    "  schedulingPolicy: {gang: {}}\n  resourceClaims: [{name: a, resourceClaimName: 5}]\n",
    "  schedulingPolicy: {gang: {}}\n  resourceClaims: [a]\n",
    "  schedulingPolicy: {gang: x}\n",
    "  schedulingPolicy: {gang: {}}\n  workloadRef: {workloadName: 5, templateName: t}\n",
]


REFUSED_STATUSES = [
    "  conditions: x\n",
    "  conditions: [x]\n",
    "  conditions: [{type: 5, status: 'True'}]\n",
    "  conditions: [{type: A, status: true}]\n",
    "  conditions: [{type: A, status: 'True', lastTransitionTime: 5}]\n",
    "  conditions: [{type: A, status: 'True', observedGeneration: x}]\n",
    "  resourceClaimStatuses: [{name: a, resourceClaimName: 5}]\n",
]


@pytest.mark.parametrize("snapshot", [podgroup(spec) for spec in REFUSED_SPECS]
                         + [podgroup(GANG % "2", status) for status in REFUSED_STATUSES])
def test_a_field_of_the_wrong_type_makes_the_podgroup_unusable(tmp_path, snapshot):
    code, doc = plan(tmp_path, snapshot)
    assert outcome(code, doc) == REFUSED
    assert was608(doc)[0].startswith("PodGroup/ml/g cannot be read for planning (")


@pytest.mark.parametrize("status", [
    "  conditions: [{type: A, status: 'True', observedGeneration: '3'}]\n",
    "  conditions: [{status: 'True'}]\n",
    "  conditions: {}\n",
    "  conditions: []\n",
])
def test_a_status_pydantic_read_leniently_still_plans(tmp_path, status):
    code, doc = plan(tmp_path, podgroup(GANG % "2", status))
    assert outcome(code, doc) == (0, (("g", 2, "Scheduled"),), BOUND, ())


@pytest.mark.parametrize(("spec", "count"), [
    ("  schedulingPolicy: {gang: {minCount: 2}}\n  schedulingConstraints: {topology: [a]}\n", 2),
    ("  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: {bogus: {}}\n", 2),
    ("  schedulingPolicy: {gang: {minCount: 2}}\n  preemptionPolicy: ''\n", 2),
    ("  schedulingPolicy: []\n", 0),  # read as basic
])
def test_other_lenient_readings_still_plan(tmp_path, spec, count):
    code, doc = plan(tmp_path, podgroup(spec))
    assert outcome(code, doc)[1:] == ((("g", count, "Scheduled"),), BOUND, ())


def test_the_136_spelling_with_a_bogus_disruption_mode_is_unusable(tmp_path):
    code, doc = plan(tmp_path, podgroup("  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: Bogus\n",
                                        api="v1alpha2"), release="1.36")
    assert outcome(code, doc) == REFUSED


def test_the_136_spelling_reads_a_string_min_count(tmp_path):
    code, doc = plan(tmp_path, podgroup(GANG % '"2"', api="v1alpha2"), release="1.36")
    assert outcome(code, doc) == (0, (("g", 2, "Scheduled"),), BOUND, ())


WORKLOAD = """apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata: {name: w, namespace: ml}
spec:
  podGroupTemplates: %s
---
"""
REF = "  schedulingPolicy: {gang: {minCount: 2}}\n  workloadRef: {workloadName: w, templateName: t}\n"


@pytest.mark.parametrize("templates", ["[x]", "[{name: t, schedulingPolicy: {gang: {minCount: abc}}}]",
                                       "[{name: 5, schedulingPolicy: {basic: {}}}]"])
def test_a_workload_with_a_malformed_template_is_unusable(tmp_path, templates):
    code, doc = plan(tmp_path, WORKLOAD % templates + podgroup(REF))
    assert code == 2 and [d["code"] for d in doc["diagnostics"]] == ["WAS608"]
    assert was608(doc)[0].startswith("Workload/ml/w cannot be read for planning (")


def test_a_workload_whose_template_min_count_is_a_string_plans(tmp_path):
    code, doc = plan(tmp_path, WORKLOAD % "[{name: t, schedulingPolicy: {gang: {minCount: '2'}}}]" + podgroup(REF))
    assert outcome(code, doc) == (0, (("g", 2, "Scheduled"),), BOUND, ())


@pytest.mark.parametrize("raw", ["'5'", "5.0", "5"])
def test_a_group_priority_written_as_text_or_float_is_compared_as_the_integer(tmp_path, raw):
    code, doc = plan(tmp_path, podgroup(f"  schedulingPolicy: {{gang: {{minCount: 2}}}}\n  priority: {raw}\n"))
    assert outcome(code, doc) == (1, (("g", 2, "Unschedulable"),), (("p0", False), ("p1", False)), ())
    assert doc["podGroups"][0]["message"].endswith(
        "should have the same priority as the pod group's priority, got 0 and 5")


@pytest.mark.parametrize(("snapshot", "message"), [
    (podgroup(GANG % '"abc"'), "spec.schedulingPolicy.gang.minCount: expected an integer, got 'abc'"),
    (podgroup(GANG % "2.5"), "spec.schedulingPolicy.gang.minCount: expected an integer, got 2.5"),
    (podgroup("  schedulingPolicy: {gang: {}}\n  schedulingConstraints: {topology: [{key: a}, {key: 7}]}\n"),
     "spec.schedulingConstraints.topology[1].key: expected a string, got 7"),
    (podgroup("  schedulingPolicy: {gang: {}}\n  preemptionPolicy: Bogus\n"),
     "spec.preemptionPolicy: expected Never or PreemptLowerPriority, got 'Bogus'"),
    (podgroup("  schedulingPolicy: {gang: {}}\n  disruptionMode: Bogus\n"),
     "spec.disruptionMode: expected a map, got 'Bogus'"),
    (podgroup("  schedulingPolicy: {gang: {}}\n  resourceClaims: [{name: a}, {name: b, resourceClaimName: 5}]\n"),
     "spec.resourceClaims[1].resourceClaimName: expected a string, got 5"),
    (podgroup(GANG % "2", "  conditions: [{type: A, status: true}]\n"),
     "status.conditions[0].status: expected a string, got True"),
    (podgroup(GANG % "2", "  conditions: x\n"), "status.conditions: expected a list, got 'x'"),
    (WORKLOAD % "[{name: t, schedulingPolicy: {basic: {}}}, x]" + podgroup(REF),
     "spec.podGroupTemplates[1]: expected a map, got 'x'"),
    (WORKLOAD % "[{name: t, schedulingPolicy: {gang: {minCount: abc}}}]" + podgroup(REF),
     "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: expected an integer, got 'abc'"),
])
def test_the_finding_names_the_field_in_the_manifests_spelling_and_the_value(tmp_path, snapshot, message):
    _, doc = plan(tmp_path, snapshot)
    subject = "Workload/ml/w" if "kind: Workload" in snapshot else "PodGroup/ml/g"
    assert was608(doc) == [f"{subject} cannot be read for planning ({message}); run `wasplan validate` for details"]


def test_the_136_spelling_names_its_own_fields(tmp_path):
    _, doc = plan(tmp_path, podgroup("  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: Bogus\n"
                                     "  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: 3}}\n",
                                     api="v1alpha2"), release="1.36")
    assert was608(doc)[0].startswith("PodGroup/ml/g cannot be read for planning (spec.podGroupTemplateRef.workload."
                                     "podGroupTemplateName: expected a string, got 3)")



@pytest.mark.parametrize(("spec", "line", "column", "path"), [
    (GANG % '"abc"', 5, 29, "spec.schedulingPolicy.gang.minCount"),  # the key of the wrong value
    ("  schedulingPolicy: {gang: {}}\n  schedulingConstraints: {topology: [{key: a}, {key: 7}]}\n", 6, 49,
     "spec.schedulingConstraints.topology[1].key"),
    ("  schedulingPolicy: {gang: {}}\n  resourceClaims: [{name: a}, {name: b, resourceClaimName: 5}]\n", 6, 41,
     "spec.resourceClaims[1].resourceClaimName"),
])
def test_the_finding_points_at_the_wrong_field_line_and_column(tmp_path, spec, line, column, path):
    _, doc = plan(tmp_path, podgroup(spec))
    [finding] = [d for d in doc["diagnostics"] if d["code"] == "WAS608"]
    assert (finding["file"].endswith("snap.yaml"), finding["line"], finding["column"], finding["field"]) == \
        (True, line, column, path)

JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: one, namespace: default}
spec:
  parallelism: 2
  completions: 2
  scheduling:
    schedulingPolicy: {gang: {minCount: 2}}
    resourceClaims: [{name: a, resourceClaimName: 5}]
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]
"""


def test_a_snapshot_job_whose_claim_name_is_not_a_string_is_a_finding_with_its_line(tmp_path):
    """Was an internal error (the PodGroup model refused it inside the Job expansion)."""
    code, doc = plan(tmp_path, JOB, release="1.38")
    assert code == 2
    assert [(d["code"], d["message"], d["line"]) for d in doc["diagnostics"]] == [
        ("WAS602", "resourceClaims[].resourceClaimName must be a string, got 5", 9)]

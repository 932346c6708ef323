"""Regressions found by comparing `wasplan validate` with the API server's own create path (the oracle's
`validate`, issue 22). Each case is a minimised document the server and wasplan judged differently."""

from __future__ import annotations

import textwrap

import pytest

from wasplan.api.releases import default_gates, get_release
from wasplan.diagnostics import Severity
from wasplan.documents import read_paths
from wasplan.pipeline.validate import validate_read


def _errors(tmp_path, text: str, release: str = "1.37") -> list[tuple[str, str, int | None]]:
    path = tmp_path / "doc.yaml"
    path.write_text(textwrap.dedent(text))
    report = validate_read(read_paths([str(path)]), default_gates(get_release(release)))
    return [(d.code, d.location.field, d.location.line) for r in report.results for d in r.diagnostics
            if d.severity is Severity.ERROR]


@pytest.mark.parametrize("kind, api_version", [
    ("DeviceClass", "resource.k8s.io/v1"), ("PriorityClass", "scheduling.k8s.io/v1"),
    ("PodGroup", "scheduling.k8s.io/v1beta1")])
def test_a_document_without_a_name_is_invalid(tmp_path, kind, api_version):
    body = {"DeviceClass": "spec: {}", "PriorityClass": "value: 10",
            "PodGroup": "spec:\n  schedulingPolicy:\n    basic: {}"}[kind]
    found = _errors(tmp_path, f"apiVersion: {api_version}\nkind: {kind}\nmetadata: {{}}\n{body}\n")
    assert found == [("WAS102", "metadata.name", 3)]


def test_generate_name_stands_in_for_the_name(tmp_path):
    assert _errors(tmp_path, """\
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {generateName: batch-}
        value: 10
        """) == []


@pytest.mark.parametrize("name", ["has space", "-x", "Upper", "a" * 254])
def test_a_priority_class_name_must_be_a_dns_subdomain(tmp_path, name):
    found = _errors(tmp_path, f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: '{name}'}}\n"
                              "value: 10\n")
    assert found == [("WAS107", "metadata.name", 3)]


def test_a_missing_required_field_is_named_at_its_own_path(tmp_path):
    found = _errors(tmp_path, """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates:
          - schedulingPolicy:
              basic: {}
        """)
    # the server says `spec.podGroupTemplates[0].name: Required value`; the line is the template's
    assert found == [("WAS102", "spec.podGroupTemplates[0].name", 6)]


def test_a_key_inside_an_empty_policy_is_an_unknown_field(tmp_path):
    found = _errors(tmp_path, """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec:
          schedulingPolicy:
            basic: {pods: 3}
        """)
    # the server's strict decoder: unknown field "spec.schedulingPolicy.basic.pods"
    assert found == [("WAS101", "spec.schedulingPolicy.basic.pods", 6)]


def test_a_composite_only_workload_is_rejected_when_composite_pod_groups_are_off(tmp_path):
    path = tmp_path / "doc.yaml"
    path.write_text(textwrap.dedent("""\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: Workload
        metadata: {name: w}
        spec:
          compositePodGroupTemplates:
          - name: root
            schedulingPolicy: {basic: {}}
            podGroupTemplates:
            - name: workers
              schedulingPolicy: {gang: {minCount: 2}}
        """))
    gates = default_gates(get_release("1.37"))
    gates = type(gates)(gates.release, dict(gates.values, CompositePodGroup=False))
    report = validate_read(read_paths([str(path)]), gates)
    errors = [(d.code, d.location.field) for r in report.results for d in r.diagnostics if d.severity is Severity.ERROR]
    assert errors == [("WAS108", "spec")]


def _pod(spec: str) -> str:
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" + textwrap.indent(textwrap.dedent(spec), "  ")


@pytest.mark.parametrize("spec, expected", [
    ("containers:\n- {name: c, image: x}\n- {name: c, image: y}\n", [("WAS202", "spec.containers[1].name")]),
    ("containers:\n- {name: Bad_Name, image: x}\n", [("WAS107", "spec.containers[0].name")]),
    ("containers:\n- name: c\n  image: x\n  ports: [{containerPort: 100001}]\n",
     [("WAS105", "spec.containers[0].ports[0].containerPort")]),
    ("containers:\n- name: c\n  image: x\n  resources: {requests: {nvidia.com/gpu: 1}}\n",
     [("WAS102", "spec.containers[0].resources.limits")]),
    ("containers:\n- name: c\n  image: x\n  resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}\n",
     [("WAS105", "spec.containers[0].resources.requests")]),
    ("containers:\n- name: c\n  image: x\n  resources: {requests: {cpu: 2}, limits: {cpu: 1}}\n",
     [("WAS105", "spec.containers[0].resources.requests")]),
    ("containers:\n- name: c\n  image: x\n  resources: {requests: {gpus: 1}}\n",
     [("WAS107", "spec.containers[0].resources.requests.gpus")]),
    ("containers:\n- name: c\n  image: x\n  resources: {claims: [{name: gpu}]}\n",
     [("WAS107", "spec.containers[0].resources.claims[0]")]),
    ("resourceClaims:\n- {name: gpu, resourceClaimName: a}\n- {name: gpu, resourceClaimName: b}\n"
     "containers:\n- {name: c, image: x}\n", [("WAS202", "spec.resourceClaims[1].name")]),
    ("containers:\n- name: c\n  image: x\n  resources: {requests: {cpu: 1}, limits: {cpu: 2, nvidia.com/gpu: 1}}\n", []),
])
def test_pod_spec_rules_the_server_enforces(tmp_path, spec, expected):
    found = [(code, field) for code, field, _ in _errors(tmp_path, _pod(spec))]
    assert found == expected


def test_an_indexed_job_needs_completions(tmp_path):
    found = _errors(tmp_path, """\
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j}
        spec:
          completionMode: Indexed
          parallelism: -1
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, image: x}]
        """)
    assert sorted((c, f) for c, f, _ in found) == [("WAS102", "spec.completions"), ("WAS105", "spec.parallelism")]


def _findings(tmp_path, text: str, **gate_values) -> list[tuple[str, str, str]]:
    path = tmp_path / "doc.yaml"
    path.write_text(textwrap.dedent(text))
    gates = default_gates(get_release("1.37"))
    gates = type(gates)(gates.release, dict(gates.values, **gate_values))
    report = validate_read(read_paths([str(path)]), gates)
    return [(d.code, d.severity.name.lower(), d.location.field) for r in report.results for d in r.diagnostics]


def test_a_bad_status_is_a_warning_because_the_server_resets_it_on_create(tmp_path):
    found = _findings(tmp_path, """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec:
          schedulingPolicy: {basic: {}}
        status:
          conditions:
          - {type: PodGroupInitiallyScheduled, status: Maybe, reason: X, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
        """)
    assert found and all(severity == "warning" for _, severity, _ in found)
    assert ("WAS104", "warning", "status.conditions[0].status") in found


def test_errors_inside_a_field_the_gate_drops_are_warnings_and_count_when_the_gate_is_on(tmp_path):
    text = """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec:
          schedulingPolicy: {basic: {}}
          resourceClaims:
          - {name: GPU_Claim, resourceClaimName: c}
        """
    off = _findings(tmp_path, text)
    assert ("WAS301", "warning", "spec.resourceClaims") in off
    assert ("WAS107", "warning", "spec.resourceClaims[0].name") in off
    assert ("WAS107", "error", "spec.resourceClaims[0].name") in _findings(tmp_path, text, DRAWorkloadResourceClaims=True)


def test_hugepages_need_cpu_or_memory(tmp_path):
    found = _errors(tmp_path, _pod("containers:\n- name: c\n  image: x\n  resources: {limits: {hugepages-2Mi: 4Mi}}\n"))
    assert [(c, f) for c, f, _ in found] == [("WAS102", "spec.containers[0].resources")]


def test_pod_claims_of_the_wrong_type_are_the_schemas_finding_not_a_crash(tmp_path):
    found = _errors(tmp_path, _pod("resourceClaims:\n- {name: {a: 1}, resourceClaimName: c}\n"
                                   "containers:\n- name: c\n  image: x\n  resources: {claims: [{name: {a: 1}}]}\n"))
    assert found and {code for code, _, _ in found} <= {"WAS103", "WAS107", "WAS108"}


@pytest.mark.parametrize("name, value, expected", [
    ("batch", 1_000_000_001, [("WAS105", "value")]),
    ("batch", 1_000_000_000, []),
    ("system-cluster-critical", 0, [("WAS105", "metadata.name")]),
    ("system-cluster-critical", 2_000_000_000, []),
    ("system-mine", 10, [("WAS107", "metadata.name")]),
])
def test_priority_class_values_and_reserved_names(tmp_path, name, value, expected):
    found = _errors(tmp_path, f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {name}}}\n"
                              f"value: {value}\n")
    assert [(c, f) for c, f, _ in found] == expected


def test_a_negative_generation_is_invalid(tmp_path):
    found = _errors(tmp_path, "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n"
                              "metadata: {name: g, generation: -1}\nspec:\n  schedulingPolicy: {basic: {}}\n")
    assert [(c, f) for c, f, _ in found] == [("WAS105", "metadata.generation")]


def test_a_negative_generation_is_reset_where_the_strategy_sets_it(tmp_path):
    """Pod, Job, PriorityClass, DeviceClass and ResourceSlice strategies set generation 1 on create (v1.36.5 and
    v1.37.2 PrepareForCreate), so the server accepts these with generation -1."""
    assert _errors(tmp_path, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, generation: -1}\n"
                             "spec:\n  containers: [{name: c, image: x}]\n") == []
    assert _errors(tmp_path, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                             "metadata: {name: batch, generation: -1}\nvalue: 10\n") == []


def test_a_duplicate_key_makes_its_document_invalid_as_strict_decoding_does(tmp_path):
    """kubectl's default strict field validation refuses a repeated key (the oracle's validate: FieldValueDuplicate);
    the document is invalid even where nothing else is wrong with it, and its neighbour stays valid."""
    path = tmp_path / "pods.yaml"
    path.write_text(textwrap.dedent("""\
        apiVersion: v1
        kind: Pod
        metadata:
          name: a
          name: b
        spec:
          containers:
          - {name: c, image: x}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: ok}
        spec:
          containers:
          - {name: c, image: x}
        """))
    read = read_paths([str(path)])
    report = validate_read(read, default_gates(get_release("1.37")))
    assert [r.verdict for r in report.results] == ["invalid", "valid"]
    assert [(d.code, d.location.line, d.location.field) for d in read.diagnostics] == [("WAS005", 5, "metadata.name")]

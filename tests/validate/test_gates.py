import pytest
from _manifests import codes, docs, gates, only

from wasplan.api.releases import RELEASES
from wasplan.diagnostics import Severity
from wasplan.validate.gates import GATED_FIELDS, KIND_GATES, check_gates

WORKLOAD_136 = """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata: {name: w}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
    disruptionMode: PodGroup
    priorityClassName: high
    schedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}
    resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
"""


def test_table_names_only_gates_of_its_release():
    for row in GATED_FIELDS:
        assert row.gate in RELEASES[row.release].gates, row
    for (release, _), needed in KIND_GATES.items():
        assert all(g in RELEASES[release].gates for g in needed)


def test_all_gates_on_reports_nothing():
    (doc,) = docs(WORKLOAD_136)
    assert check_gates(doc, gates("1.36", "DRAWorkloadResourceClaims=true")) == []


def test_podgroup_claims_gate_keeps_upstreams_default_off():
    (doc,) = docs(WORKLOAD_136)
    diags = check_gates(doc, gates("1.36"))
    assert [(d.code, d.location.path[-1], d.data) for d in diags] == [
        ("WAS301", "resourceClaims", {"gate": "DRAWorkloadResourceClaims"})]


def test_1_36_fields_dropped_when_their_gates_are_off():
    (doc,) = docs(WORKLOAD_136)
    diags = check_gates(doc, gates("1.36", "WorkloadAwarePreemption=false,TopologyAwareWorkloadScheduling=false,"
                                          "DRAWorkloadResourceClaims=true"))
    assert [(d.code, d.location.path[-1], d.location.line) for d in diags] == [
        ("WAS301", "disruptionMode", 8), ("WAS301", "priorityClassName", 9), ("WAS301", "schedulingConstraints", 10)]
    first = diags[0]
    assert first.severity is Severity.WARNING
    assert first.message == ("spec.podGroupTemplates[0].disruptionMode needs feature gate WorkloadAwarePreemption, "
                             "which is off in Kubernetes 1.36: the API server silently drops it on create")
    assert first.data == {"gate": "WorkloadAwarePreemption"}


def test_kind_off_is_an_error_and_hides_field_findings():
    (doc,) = docs(WORKLOAD_136)
    diags = check_gates(doc, gates("1.36", "GenericWorkload=false,DRAWorkloadResourceClaims=false"))
    d = only(diags, "WAS302")
    assert codes(diags) == ["WAS302"]
    assert d.severity is Severity.ERROR
    assert d.message == ("Workload needs feature gate GenericWorkload, which is off: the API server does not serve "
                         "Workload objects")
    assert (d.location.path, d.location.line) == (("kind",), 2)


def test_composite_pod_group_needs_both_gates():
    (doc,) = docs("""\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: CompositePodGroup
        metadata: {name: c}
        spec: {workloadRef: {workloadName: w, templateName: c}, schedulingPolicy: {basic: {}}}
        """)
    d = only(check_gates(doc, gates("1.37", "GenericWorkload=false,CompositePodGroup=false")), "WAS302")
    assert d.message.startswith("CompositePodGroup needs feature gates GenericWorkload and CompositePodGroup, which are off")
    assert check_gates(doc, gates("1.37", "PodGroupPreemptionPolicy=false")) == []


def test_1_37_workload_fields_and_dropped_subtree_reported_once():
    (doc,) = docs("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates:
          - name: a
            schedulingPolicy: {basic: {}}
            preemptionPolicy: Never
            disruptionMode: {all: {}}
            priority: 5
          compositePodGroupTemplates:
          - name: c
            schedulingPolicy: {basic: {}}
            preemptionPolicy: Never
            podGroupTemplates: [{name: b, schedulingPolicy: {basic: {}}, preemptionPolicy: Never}]
        """)
    diags = check_gates(doc, gates("1.37", "CompositePodGroup=false,PodGroupPreemptionPolicy=false"))
    assert sorted(d.location.field for d in diags) == [
        "spec.compositePodGroupTemplates", "spec.podGroupTemplates[0].preemptionPolicy"]
    only_pgpp = check_gates(doc, gates("1.37", "PodGroupPreemptionPolicy=false"))
    assert sorted(d.location.field for d in only_pgpp) == [
        "spec.compositePodGroupTemplates[0].podGroupTemplates[0].preemptionPolicy",
        "spec.compositePodGroupTemplates[0].preemptionPolicy",
        "spec.podGroupTemplates[0].preemptionPolicy"]


@pytest.mark.parametrize("release, field, gate", [
    ("1.37", "parentCompositePodGroupName: root", "CompositePodGroup"),
    ("1.37", "resourceClaims: [{name: g, resourceClaimName: c}]", "DRAWorkloadResourceClaims"),
    ("1.37", "schedulingConstraints: {topology: [{key: zone}]}", "TopologyAwareWorkloadScheduling"),
    ("1.36", "priority: 10", "WorkloadAwarePreemption"),
])
def test_pod_group_fields(release, field, gate):
    version = "v1alpha2" if release == "1.36" else "v1beta1"
    (doc,) = docs(f"apiVersion: scheduling.k8s.io/{version}\nkind: PodGroup\nmetadata: {{name: p}}\n"
                  f"spec:\n  schedulingPolicy: {{basic: {{}}}}\n  {field}\n")
    d = only(check_gates(doc, gates(release, f"{gate}=false")), "WAS301")
    assert d.data["gate"] == gate
    assert d.location.line == 6


def test_status_claims_pods_and_jobs():
    pg, pod, job = docs("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: p}
        spec: {schedulingPolicy: {basic: {}}}
        status: {resourceClaimStatuses: [{name: g}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: x}
        spec: {schedulingGroup: {podGroupName: p}}
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j}
        spec:
          scheduling: {schedulingPolicy: {gang: {}}}
          template: {spec: {schedulingGroup: {podGroupName: p}}}
        """)
    off = gates("1.37", "DRAWorkloadResourceClaims=false,GenericWorkload=false,WorkloadWithJob=false")
    assert only(check_gates(pg, off), "WAS302")  # the kind's own gate wins
    assert only(check_gates(pg, gates("1.37", "DRAWorkloadResourceClaims=false")), "WAS301").location.line == 5
    assert only(check_gates(pod, off), "WAS301").message.startswith("spec.schedulingGroup needs feature gate GenericWorkload")
    assert sorted(d.location.field for d in check_gates(job, off)) == ["spec.scheduling", "spec.template.spec.schedulingGroup"]
    assert check_gates(job, gates("1.36", "GenericWorkload=false"))[0].location.field == "spec.template.spec.schedulingGroup"


def test_versions_the_release_does_not_serve_are_left_to_the_release_check():
    (doc,) = docs(WORKLOAD_136)
    assert check_gates(doc, gates("1.37", "GenericWorkload=false")) == []

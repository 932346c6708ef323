from _manifests import codes, docs, gates, only

from wasplan.diagnostics import Severity
from wasplan.validate.rules import check


def run(text, release="1.37"):
    (doc,) = docs(text)
    return check(doc, gates(release))


def test_claim_names_statuses_and_conditions_in_1_36():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: PodGroup
        metadata: {name: pg}
        spec:
          schedulingPolicy: {gang: {minCount: 2}}
          resourceClaims:
          - {name: gpu, resourceClaimTemplateName: t}
          - {name: gpu, resourceClaimName: c}
        status:
          conditions:
          - {type: PodGroupScheduled, status: "True", reason: Scheduled, message: ok, lastTransitionTime: "2026-01-01T00:00:00Z"}
          - {type: PodGroupScheduled, status: "False", reason: Unschedulable, message: no, lastTransitionTime: "2026-01-01T00:00:00Z"}
          resourceClaimStatuses:
          - {name: gpu, resourceClaimName: pg-gpu-x1}
          - {name: nic, resourceClaimName: pg-nic-x1}
        """, "1.36")
    assert codes(diags) == ["WAS202", "WAS202", "WAS203"]
    claim, cond = [d for d in diags if d.code == "WAS202"]
    assert claim.location.path == ("spec", "resourceClaims", 1, "name")
    assert cond.message == 'condition type "PodGroupScheduled" is used twice (also at status.conditions[0])'
    assert (cond.location.path, cond.location.line) == (("status", "conditions", 1, "type"), 12)
    missing = only(diags, "WAS203")
    assert missing.message == 'resource claim status "nic" names no claim in spec.resourceClaims (declared: "gpu")'
    assert missing.location.line == 15


def test_condition_fields_and_renamed_type_in_1_37():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: pg}
        spec:
          schedulingPolicy: {basic: {}}
        status:
          conditions:
          - type: PodGroupScheduled
            status: "Yes"
            reason: "not schedulable"
            message: x
            lastTransitionTime: "2026-01-01T00:00:00Z"
        """)
    assert codes(diags) == ["WAS212", "WAS212", "WAS213"]
    status, reason = [d for d in diags if d.code == "WAS212"]
    assert status.message == 'condition status "Yes" must be one of True, False, Unknown'
    assert status.location.line == 9
    assert reason.location.path == ("status", "conditions", 0, "reason")
    renamed = only(diags, "WAS213")
    assert renamed.severity is Severity.WARNING
    assert '"PodGroupInitiallyScheduled"' in renamed.message
    assert renamed.location.line == 8


def test_duplicate_status_claim_names():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: pg}
        spec:
          schedulingPolicy: {basic: {}}
          resourceClaims: [{name: gpu, resourceClaimName: c}]
        status:
          resourceClaimStatuses: [{name: gpu}, {name: gpu}]
        """)
    assert only(diags, "WAS202").message.startswith('resource claim status name "gpu" is used twice')


def test_parent_without_workload_ref_is_an_error_in_1_37_only_when_ref_missing():
    base = """\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: PodGroup
        metadata: {name: leaf}
        spec:
          parentCompositePodGroupName: rack-0
          schedulingPolicy: {gang: {minCount: 2}}
        """
    d = only(run(base), "WAS208")
    assert d.severity is Severity.ERROR  # the 1.37.2 API server: spec.workloadRef: Required value
    assert d.message == 'PodGroup "leaf" names parent CompositePodGroup "rack-0" but has no spec.workloadRef'
    assert (d.location.path, d.location.line) == (("spec", "workloadRef"), 5)
    with_ref = base.replace("spec:\n", "spec:\n          workloadRef: {workloadName: w, templateName: leaf}\n")
    assert run(with_ref) == []


def test_podgroup_disruption_all_with_basic_warns():
    d = only(run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: solo}
        spec:
          schedulingPolicy: {basic: {}}
          disruptionMode: {all: {}}
        """), "WAS207")
    assert d.message.startswith('PodGroup "solo" has disruptionMode {all: {}} but a basic scheduling policy')
    assert d.location.line == 6


def test_valid_podgroups_have_no_findings():
    assert run("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: PodGroup
        metadata: {name: pg}
        spec:
          podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: workers}}
          schedulingPolicy: {gang: {minCount: 2}}
          disruptionMode: PodGroup
          resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
        status:
          conditions:
          - {type: PodGroupScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
          resourceClaimStatuses: [{name: gpu, resourceClaimName: pg-gpu}]
        """, "1.36") == []

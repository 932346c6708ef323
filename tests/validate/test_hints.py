import pytest

from wasplan.suggest import did_you_mean
from wasplan.validate.hints import hint_for_unknown_field

A2, A3, B1 = "scheduling.k8s.io/v1alpha2", "scheduling.k8s.io/v1alpha3", "scheduling.k8s.io/v1beta1"
TOPO = ("spec", "podGroupTemplates", 0, "schedulingConstraints", "topology", 0)


@pytest.mark.parametrize("api_version, kind, parent, field, expected", [
    (A2, "PodGroup", ("spec",), "totalPods", "spec.schedulingPolicy.gang.minCount"),
    (B1, "Workload", ("spec",), "minMatch", "spec.podGroupTemplates[].schedulingPolicy.gang.minCount"),
    (B1, "Workload", ("spec", "podGroupTemplates", 2), "totalPods", "schedulingPolicy.gang.minCount of this template"),
    (A2, "PodGroup", ("spec",), "workloadName", "spec.podGroupTemplateRef.workload.workloadName"),
    (B1, "PodGroup", ("spec",), "workloadName", "spec.workloadRef.workloadName"),
    (A3, "PodGroup", ("spec",), "podGroupTemplateRef", "spec.workloadRef {workloadName, templateName}"),
    (B1, "PodGroup", ("spec", "workloadRef"), "podGroupTemplateName", "templateName"),
    (A2, "PodGroup", ("spec",), "workloadRef", "spec.podGroupTemplateRef.workload"),
    (A2, "PodGroup", ("spec", "podGroupTemplateRef", "workload"), "templateName", "podGroupTemplateName"),
    (A2, "PodGroup", ("spec", "podGroupTemplateRef"), "workloadName", "podGroupTemplateRef.workload.workloadName"),
    (B1, "Workload", ("spec", "podGroupTemplates", 0, "schedulingConstraints"), "topologyConstraints",
     "schedulingConstraints.topology[].key"),
    (A2, "PodGroup", ("spec", "schedulingConstraints", "topology", 0), "topologyKey", "key"),
    (B1, "Workload", TOPO, "level", "key: name the node label key"),
    ("batch/v1", "Job", ("spec", "scheduling", "schedulingConstraints"), "topologyConstraints", "topology[].key"),
    (A2, "Workload", ("spec",), "podGroups", "spec.podGroupTemplates"),
    (B1, "Workload", ("spec", "podGroupTemplates", 0), "policy", "schedulingPolicy"),
    ("scheduling.k8s.io/v1alpha1", "Workload", ("spec",), "podGroupTemplates", "spec.podGroups"),
    (A2, "Workload", ("spec", "podGroupTemplates", 0, "schedulingPolicy", "gang"), "desiredCount",
     "there is no desiredCount"),
    (B1, "PodGroup", ("spec", "schedulingPolicy"), "minCount", "schedulingPolicy.gang.minCount"),
    (A3, "CompositePodGroup", ("spec", "schedulingPolicy", "gang"), "minCount", "minGroupCount"),
    (B1, "PodGroup", ("spec", "schedulingPolicy", "gang"), "minGroupCount", "minCount"),
    ("v1", "Pod", ("spec",), "workloadRef", "spec.schedulingGroup.podGroupName"),
    ("batch/v1", "Job", ("spec", "template", "spec"), "workloadRef", "spec.schedulingGroup.podGroupName"),
    (B1, "Workload", ("spec", "controllerRef"), "apiVersion", "controllerRef.apiGroup"),
    (A2, "PodGroup", ("spec",), "preemptionPolicy", "preemptionPolicy exists from Kubernetes 1.37"),
    (A2, "Workload", ("spec",), "compositePodGroupTemplates", "compositePodGroupTemplates exists from Kubernetes 1.37"),
    ("batch/v1", "Job", ("spec",), "scheduling", "Job spec.scheduling exists from Kubernetes 1.37"),
    # the 1.37 documentation's own Job example, and KEP-era spellings
    ("batch/v1", "Job", ("spec", "scheduling", "schedulingConstraints"), "key", "schedulingConstraints.topology[].key"),
    (B1, "PodGroup", ("spec", "schedulingConstraints"), "key", "schedulingConstraints.topology[].key"),
    ("batch/v1", "Job", ("spec", "scheduling"), "policy", "spec.scheduling.schedulingPolicy"),
    ("batch/v1", "Job", ("spec", "scheduling"), "constraints", "spec.scheduling.schedulingConstraints"),
    ("batch/v1", "Job", ("spec", "scheduling"), "disruption", "spec.scheduling.disruptionMode"),
    ("batch/v1", "Job", ("spec", "scheduling", "schedulingPolicy"), "priorityClassName",
     "spec.template.spec.priorityClassName"),
    (B1, "PodGroup", ("spec", "schedulingPolicy"), "priorityClassName", "priorityClassName sits beside schedulingPolicy"),
    (B1, "Workload", ("spec", "podGroupTemplates", 0, "schedulingPolicy"), "priorityClassName",
     "priorityClassName sits beside schedulingPolicy"),
])
def test_hints(api_version, kind, parent, field, expected):
    hint = hint_for_unknown_field(api_version, kind, parent, field)
    assert hint is not None and expected in hint, hint


@pytest.mark.parametrize("api_version, kind, parent, field", [
    (B1, "PodGroup", ("spec",), "frobnicate"),
    (A2, "PodGroup", ("spec",), "podGroupTemplateRef"),  # real in 1.36: no hint even if asked
    (B1, "PodGroup", ("spec", "workloadRef"), "templateName"),
    ("scheduling.k8s.io/v9", "PodGroup", ("spec",), "totalPods"),
    (B1, "Workload", ("spec", "controllerRef", "x"), "apiVersion"),
])
def test_no_hint(api_version, kind, parent, field):
    assert hint_for_unknown_field(api_version, kind, parent, field) is None


def test_pod_group_total_pods_explains_membership():
    hint = hint_for_unknown_field(B1, "PodGroup", ("spec",), "totalPods")
    assert "spec.schedulingGroup.podGroupName" in hint and "spec.schedulingPolicy.gang.minCount" in hint


@pytest.mark.parametrize("field, known, expected", [
    ("MinCount", ["minCount", "minGroupCount"], "minCount"),
    ("minCout", ["minCount", "minGroupCount"], "minCount"),
    ("schedulingPolciy", ["schedulingPolicy", "schedulingConstraints"], "schedulingPolicy"),  # transposition
    ("podGroupTemplate", ["podGroupTemplates", "compositePodGroupTemplates"], "podGroupTemplates"),
    ("priorityClass", ["priorityClassName", "priority"], "priorityClassName"),
    ("x", ["key"], None),
    ("completelyDifferent", ["name", "key"], None),
    ("ab", ["ac", "ad"], "ac"),  # tie -> alphabetical
])
def test_did_you_mean(field, known, expected):
    assert did_you_mean(field, known) == expected
    assert did_you_mean(field, list(reversed(known))) == expected

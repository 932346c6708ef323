from _manifests import codes, docs, gates, only

from wasplan.validate.rules import check


def test_composite_pod_group_rules():
    (doc,) = docs("""\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: CompositePodGroup
        metadata: {name: job}
        spec:
          workloadRef: {workloadName: w, templateName: job}
          schedulingPolicy: {basic: {}}
          disruptionMode: {all: {}}
        status:
          conditions:
          - {type: CompositePodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
          - {type: CompositePodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
        """)
    diags = check(doc, gates())
    assert codes(diags) == ["WAS202", "WAS207"]
    assert only(diags, "WAS207").message.startswith('CompositePodGroup "job" has disruptionMode {all: {}}')
    assert only(diags, "WAS202").location.line == 11


def test_kinds_and_versions_without_rules_give_nothing():
    for text in ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
                 "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 1\n",
                 "apiVersion: scheduling.k8s.io/v2\nkind: Workload\nmetadata: {name: w}\nspec: {podGroupTemplates: [{name: a}, {name: a}]}\n",
                 "apiVersion: batch/v2\nkind: Job\nmetadata: {name: j}\nspec: {scheduling: {disruptionMode: {all: {}}}}\n"):
        (doc,) = docs(text)
        assert check(doc, gates()) == []

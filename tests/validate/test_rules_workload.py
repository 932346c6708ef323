from _manifests import codes, docs, gates, only

from wasplan.diagnostics import Severity
from wasplan.validate.rules import check


def run(text, release="1.37"):
    (doc,) = docs(text)
    return check(doc, gates(release))


def test_duplicate_template_name_v1alpha2_points_at_second_name():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: Workload
        metadata: {name: train}
        spec:
          podGroupTemplates:
          - name: workers
            schedulingPolicy: {gang: {minCount: 4}}
          - name: workers
            schedulingPolicy: {basic: {}}
        """, "1.36")
    d = only(diags, "WAS201")
    assert d.severity is Severity.ERROR
    assert d.message == 'template name "workers" is used twice (also at spec.podGroupTemplates[0])'
    assert d.location.path == ("spec", "podGroupTemplates", 1, "name")
    assert (d.location.line, d.location.col) == (8, 5)
    assert codes(diags) == ["WAS201"]


def test_v1alpha1_pod_groups_names_are_keys_too():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1alpha1
        kind: Workload
        metadata: {name: old}
        spec:
          podGroups:
          - {name: a, policy: {basic: {}}}
          - {name: a, policy: {basic: {}}}
        """, "1.36")
    assert only(diags, "WAS201").location.path == ("spec", "podGroups", 1, "name")


def test_names_are_unique_across_the_whole_1_37_tree(fixtures):
    (doc,) = docs((fixtures / "rules" / "composite-tree.yaml").read_text())
    diags = check(doc, gates())
    dup = only(diags, "WAS201")
    assert dup.message == ('template name "ranks" is used twice '
                           "(also at spec.compositePodGroupTemplates[0].podGroupTemplates[0])")
    assert dup.location.path == ("spec", "compositePodGroupTemplates", 0, "compositePodGroupTemplates", 0,
                                 "compositePodGroupTemplates", 0, "compositePodGroupTemplates", 0,
                                 "podGroupTemplates", 0, "name")
    assert dup.location.line == 24


def test_tree_deeper_than_four_levels_is_reported_once_at_level_four(fixtures):
    (doc,) = docs((fixtures / "rules" / "composite-tree.yaml").read_text())
    deep = only(check(doc, gates()), "WAS204")
    assert deep.message.startswith('composite template "rack" is at level 4, so its children would be at level 5')
    assert deep.location.path == ("spec", "compositePodGroupTemplates", 0, "compositePodGroupTemplates", 0,
                                  "compositePodGroupTemplates", 0, "compositePodGroupTemplates", 0)
    assert deep.location.line == 21


def test_composite_template_without_children(fixtures):
    (doc,) = docs((fixtures / "rules" / "composite-tree.yaml").read_text())
    empty = only(check(doc, gates()), "WAS205")
    assert 'composite template "spare" has no children' in empty.message
    assert empty.location.path == ("spec", "compositePodGroupTemplates", 1)
    assert empty.location.line == 26


def test_three_composite_levels_are_fine():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: Workload
        metadata: {name: ok}
        spec:
          compositePodGroupTemplates:
          - name: l1
            schedulingPolicy: {basic: {}}
            compositePodGroupTemplates:
            - name: l2
              schedulingPolicy: {basic: {}}
              compositePodGroupTemplates:
              - name: l3
                schedulingPolicy: {gang: {minGroupCount: 1}}
                podGroupTemplates:
                - {name: leaf, schedulingPolicy: {gang: {minCount: 2}}}
        """)
    assert diags == []


WORKLOAD_PRIORITIES = """\
    apiVersion: scheduling.k8s.io/{version}
    kind: Workload
    metadata: {{name: mixed}}
    spec:
      podGroupTemplates:
      - name: driver
        priorityClassName: high
        schedulingPolicy: {{basic: {{}}}}
      - name: workers
        priorityClassName: low
        schedulingPolicy: {{gang: {{minCount: 8}}}}
      - name: ps
        priorityClassName: high
        priority: 1000
        schedulingPolicy: {{basic: {{}}}}
    """


def test_multiple_priority_configurations_in_1_37():
    diags = run(WORKLOAD_PRIORITIES.format(version="v1beta1"))
    found = [d for d in diags if d.code == "WAS206"]
    assert [d.location.path for d in found] == [("spec", "podGroupTemplates", 1, "priorityClassName"),
                                               ("spec", "podGroupTemplates", 2, "priority")]
    assert found[0].message == ('detected multiple priority configurations: template "workers" has priorityClassName '
                                '"low" and no priority, but template "driver" has priorityClassName "high" and '
                                "no priority")
    assert found[1].location.line == 14
    assert "priority 1000" in found[1].message


def test_priority_uniformity_is_not_applied_to_1_36():
    assert run(WORKLOAD_PRIORITIES.format(version="v1alpha2"), "1.36") == []


def test_priority_uniformity_includes_composite_templates():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1alpha3
        kind: Workload
        metadata: {name: w}
        spec:
          compositePodGroupTemplates:
          - name: job
            priorityClassName: high
            schedulingPolicy: {basic: {}}
            podGroupTemplates:
            - {name: leaf, schedulingPolicy: {basic: {}}}
        """)
    d = only(diags, "WAS206")
    assert d.location.path == ("spec", "compositePodGroupTemplates", 0, "podGroupTemplates", 0)
    assert 'template "leaf" has no priorityClassName and no priority' in d.message


def test_disruption_all_with_basic_is_a_warning_in_both_releases():
    v136 = run("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates:
          - name: a
            disruptionMode: PodGroup
            schedulingPolicy: {basic: {}}
          - name: b
            disruptionMode: PodGroup
            schedulingPolicy: {gang: {minCount: 2}}
        """, "1.36")
    d = only(v136, "WAS207")
    assert d.severity is Severity.WARNING
    assert d.message.startswith('template "a" has disruptionMode PodGroup but a basic scheduling policy')
    assert d.location.path == ("spec", "podGroupTemplates", 0, "disruptionMode")
    v137 = run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates:
          - name: a
            schedulingPolicy: {basic: {}}
            disruptionMode: {all: {}}
        """)
    assert "disruptionMode {all: {}}" in only(v137, "WAS207").message
    assert only(v137, "WAS207").location.line == 8


def test_duplicate_claim_names_in_a_template():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates:
          - name: a
            schedulingPolicy: {basic: {}}
            resourceClaims:
            - {name: gpu, resourceClaimTemplateName: gpu-tmpl}
            - {name: gpu, resourceClaimName: shared}
        """)
    d = only(diags, "WAS202")
    assert d.message == 'resource claim name "gpu" is used twice (also at spec.podGroupTemplates[0].resourceClaims[0])'
    assert d.location.path == ("spec", "podGroupTemplates", 0, "resourceClaims", 1, "name")
    assert d.location.line == 10


def test_rules_survive_schema_invalid_shapes():
    diags = run("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates: not-a-list
          compositePodGroupTemplates: [1, {name: 7}]
        """)
    assert codes(diags) == ["WAS205"]

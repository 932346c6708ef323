from _manifests import codes, docs, gates, only

from wasplan.diagnostics import Severity
from wasplan.documents import read_text
from wasplan.validate.lint import lint

NODES = [{"metadata": {"name": "n1", "labels": {"topology.kubernetes.io/zone": "a", "kubernetes.io/hostname": "n1"}}}]


def training(fixtures, release="1.37", nodes=None):
    return lint(docs((fixtures / "rules" / "lint-training.yaml").read_text(), "lint-training.yaml"),
                gates(release), nodes)


def test_training_fixture_findings(fixtures):
    diags = training(fixtures)
    assert codes(diags) == ["WAS403", "WAS404", "WAS405", "WAS406", "WAS407"]
    policy = only(diags, "WAS403")
    assert policy.message == ('PodGroup "train-workers" has scheduling policy gang minCount 4, but template "workers" '
                              'of Workload "train" has gang minCount 3')
    assert (policy.location.path, policy.location.line) == (("spec", "schedulingPolicy", "gang", "minCount"), 16)
    missing = only(diags, "WAS404")
    assert missing.severity is Severity.WARNING
    assert missing.message.startswith('pod "worker-2" names PodGroup "train-worker", which is not among the inputs '
                                      "in namespace ml")
    assert missing.hint == 'did you mean PodGroup "train-workers"?'
    assert missing.location.line == 40
    quorum = only(diags, "WAS405")
    assert quorum.message.startswith('PodGroup "train-workers" needs 4 pods (gang minCount) but the inputs hold only 2')
    sched = only(diags, "WAS406")
    assert sched.message.startswith('pod "worker-1" of PodGroup "train-workers" uses scheduler "gang-scheduler", '
                                    'but pod "worker-0" of the same group uses "default-scheduler"')
    assert sched.location.line == 32
    prio = only(diags, "WAS407")
    assert prio.message == ("all pods in a single pod group should have the same priority as the pod group's "
                            'priority: pod "worker-1" has priorityClassName "low", PodGroup "train-workers" has "high"')
    assert prio.location.line == 33


def test_priority_rule_is_1_37_only_and_topology_needs_nodes(fixtures):
    assert "WAS407" not in codes(training(fixtures, "1.36"))
    topo = only(training(fixtures, nodes=NODES), "WAS408")
    assert topo.message.startswith('topology key "topology.kubernetes.io/rack" is carried by none of the 1 nodes')
    assert topo.location.path == ("spec", "podGroupTemplates", 0, "schedulingConstraints", "topology", 0, "key")
    assert topo.location.line == 9
    assert topo.hint == 'did you mean "topology.kubernetes.io/zone"?'


def test_workload_and_template_references():
    diags = lint(docs("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: Workload
        metadata: {name: train}
        spec:
          podGroupTemplates: [{name: workers, schedulingPolicy: {basic: {}}}]
        ---
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: PodGroup
        metadata: {name: a}
        spec:
          podGroupTemplateRef: {workload: {workloadName: trian, podGroupTemplateName: workers}}
          schedulingPolicy: {basic: {}}
        ---
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: PodGroup
        metadata: {name: b}
        spec:
          podGroupTemplateRef: {workload: {workloadName: train, podGroupTemplateName: worker}}
          schedulingPolicy: {basic: {}}
        ---
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: PodGroup
        metadata: {name: c, namespace: default}
        spec:
          podGroupTemplateRef: {workload: {workloadName: train, podGroupTemplateName: workers}}
          schedulingPolicy: {gang: {minCount: 2}}
        """), gates("1.36"))
    assert codes(diags) == ["WAS401", "WAS402", "WAS403"]
    wl = only(diags, "WAS401")
    assert wl.message == 'PodGroup "a" references Workload "trian", which is not among the inputs'
    assert wl.location.path == ("spec", "podGroupTemplateRef", "workload", "workloadName")
    assert wl.hint == 'did you mean "train"?'
    tmpl = only(diags, "WAS402")
    assert tmpl.message.endswith('which has no such podGroupTemplate (it has: "workers")')
    assert tmpl.location.line == 18
    assert only(diags, "WAS403").message.endswith('has scheduling policy gang minCount 2, but template "workers" '
                                                 'of Workload "train" has basic')


def test_namespaces_are_compared():
    diags = lint(docs("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g, namespace: team-a}
        spec: {schedulingPolicy: {basic: {}}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {schedulingGroup: {podGroupName: g}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: q, namespace: team-a}
        spec: {schedulingGroup: {podGroupName: g}}
        """), gates())
    d = only(diags, "WAS404")
    assert "in namespace default" in d.message
    assert d.hint.startswith('a PodGroup "g" exists in namespace team-a')


def test_job_pods_count_towards_quorum_and_share_checks():
    text = """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec: {schedulingPolicy: {gang: {minCount: 4}}}
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j}
        spec:
          parallelism: PAR
          template: {spec: {schedulingGroup: {podGroupName: g}, containers: []}}
        """
    assert lint(docs(text.replace("PAR", "4")), gates()) == []
    d = only(lint(docs(text.replace("PAR", "3")), gates()), "WAS405")
    assert "only 3 member pods" in d.message


def test_gang_without_member_pods_in_inputs_is_not_counted():
    diags = lint(docs("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: g}
        spec: {schedulingPolicy: {gang: {minCount: 4}}}
        """), gates())
    assert diags == []


COMPOSITES = """\
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: l1}
spec: {workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: l2}
spec: {parentCompositePodGroupName: l1, workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: l3}
spec: {parentCompositePodGroupName: l2, workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: l4}
spec: {parentCompositePodGroupName: l3, workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: x}
spec: {parentCompositePodGroupName: y, workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: y}
spec: {parentCompositePodGroupName: x, workloadRef: {workloadName: w, templateName: t}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: leaf}
spec: {parentCompositePodGroupName: l1, workloadRef: {workloadName: other, templateName: p}, schedulingPolicy: {basic: {}}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: lost}
spec: {parentCompositePodGroupName: l9, schedulingPolicy: {basic: {}}}
"""


def test_composite_hierarchy():
    diags = [d for d in lint(docs(COMPOSITES), gates()) if d.code not in ("WAS401",)]
    assert codes(diags) == ["WAS409", "WAS410", "WAS411", "WAS413"]
    cycle = only(diags, "WAS410")
    assert cycle.message == "CompositePodGroup parent references form a cycle: x -> y -> x"
    assert cycle.location.line == 24
    deep = only(diags, "WAS411")
    assert deep.message.startswith('CompositePodGroup "l4" is at level 4 of its hierarchy (l1 -> l2 -> l3 -> l4)')
    assert deep.location.line == 19
    assert only(diags, "WAS409").message == ('PodGroup "lost" names parent CompositePodGroup "l9", which is not among '
                                              "the inputs in namespace default")
    assert only(diags, "WAS413").location.path == ("spec", "workloadRef", "workloadName")


def test_parent_composite_under_1_36():
    found = [d for d in lint(docs(COMPOSITES), gates("1.36")) if d.code == "WAS412"]
    assert [d.location.line for d in found] == [34, 39]
    d = found[0]
    assert d.message.startswith('PodGroup "leaf" names a parent CompositePodGroup, but Kubernetes 1.36 has no')


def test_twenty_thousand_documents_in_one_pass():
    parts = []
    for g in range(2000):
        parts.append(f"apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {{name: g{g}}}\n"
                     f"spec: {{schedulingPolicy: {{gang: {{minCount: 9}}}}}}\n")
        for p in range(9):
            parts.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: g{g}-p{p}}}\n"
                         f"spec: {{schedulingGroup: {{podGroupName: g{g}}}, containers: []}}\n")
    result = read_text("big.yaml", "---\n".join(parts))
    assert len(result.documents) == 20000
    assert lint(result.documents, gates()) == []

"""Priority admission before the scheduler (api/priority.py, cluster/admission.py; upstream
plugin/pkg/admission/priority/admission.go): a pod naming a PriorityClass that exists nowhere is refused and never
placed; the system classes always exist; a pod without a class gets the globalDefault one (lowest value wins),
with its preemptionPolicy."""

from __future__ import annotations

import json

from tests.cli.helpers import run
from wasplan.api.releases import default_gates, get_release, parse_gates
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from scaffold import node

NODE = node("only", "2")


def klass(name: str, value: int, default: bool = False, policy: str | None = None) -> str:
    extra = ("globalDefault: true\n" if default else "") + (f"preemptionPolicy: {policy}\n" if policy else "")
    return f"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {name}}}\nvalue: {value}\n{extra}"


def pod(name: str, cls: str | None = None, node: str | None = None, priority: int | None = None, cpu: str = "2") -> str:
    lines = [f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:"]
    if cls:
        lines.append(f"  priorityClassName: {cls}")
    if node:
        lines.append(f"  nodeName: {node}")
    if priority is not None:
        lines.append(f"  priority: {priority}")
    lines.append(f'  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "{cpu}"}}}}}}]')
    return "\n".join(lines) + "\n"


def plan(tmp_path, cluster: str, manifests: str):
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "change.yaml").write_text(manifests)
    return run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                                default_gates(get_release("1.37"))))


def outcome(run) -> dict[str, tuple]:
    return {p.name: (str(p.status), p.node, p.reason, p.message) for p in run.plan.pods}


def test_pod_naming_a_missing_class_is_refused_not_placed(tmp_path):
    run = plan(tmp_path, NODE, pod("lone", "no-such-class", cpu="1"))
    assert outcome(run)["lone"] == ("Refused", None, "Forbidden",
                                    'pods "lone" is forbidden: no PriorityClass with name no-such-class was found')
    assert not run.plan.complete and run.plan.summary()["refused"] == 1
    (found,) = [d for d in run.diagnostics if d.code == "WAS630"]
    assert (found.location.path, found.location.line, found.hint) == (
        ("spec", "priorityClassName"), 6, "create PriorityClass no-such-class, or name one that exists")


def test_class_in_the_snapshot_or_the_manifests_exists(tmp_path):
    run = plan(tmp_path, NODE + klass("high", 1000), pod("a", "high", cpu="1") + pod("b", "mine", cpu="1")
               + klass("mine", 10))
    assert [s for s, *_ in outcome(run).values()] == ["Bound", "Bound"]


def test_system_class_exists_everywhere_and_carries_its_value(tmp_path):
    """system-cluster-critical (2000000000) preempts a running pod of the snapshot's highest class."""
    run = plan(tmp_path, NODE + klass("high", 1000) + pod("running", "high", node="only", priority=1000),
               pod("critical", "system-cluster-critical"))
    assert outcome(run)["critical"][:2] == ("Bound", "only")
    assert outcome(run)["running"][0] == "Preempted"


def test_global_default_is_the_lowest_valued_default(tmp_path):
    """Two classes claim globalDefault (50 and 100): admission picks 50, which cannot preempt a 60 pod."""
    cluster = NODE + klass("low-default", 50, True) + klass("high-default", 100, True) + pod(
        "running", node="only", priority=60)
    assert outcome(plan(tmp_path, cluster, pod("new")))["new"][0] == "Pending"
    lone_default = NODE + klass("high-default", 100, True) + pod("running", node="only", priority=60)
    assert outcome(plan(tmp_path, lone_default, pod("new")))["new"][:2] == ("Bound", "only")


def test_global_default_preemption_policy_never(tmp_path):
    cluster = NODE + klass("default", 100, True, "Never") + pod("running", node="only", priority=60)
    assert outcome(plan(tmp_path, cluster, pod("new")))["new"][0] == "Pending"


JOB = """\
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 3
  completions: 3
  template:
    spec:
      priorityClassName: hihg
      restartPolicy: Never
      containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
"""


def test_job_pods_are_refused_as_the_job_controller_creates_them(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(NODE + klass("high", 1000))
    job = tmp_path / "job.yaml"
    job.write_text(JOB)
    result = run("plan", str(job), "--cluster", str(cluster), "--no-config", "-o", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert [(p["name"], p["status"], p["owner"]["name"], p["reason"]) for p in doc["pods"]] == [
        ("train-0", "Refused", "train", "Forbidden"), ("train-1", "Refused", "train", "Forbidden"),
        ("train-2", "Refused", "train", "Forbidden")]
    assert doc["summary"]["refused"] == 3 and doc["summary"]["bound"] == 0
    # 1.37: the Job's PodGroup carries the template's class and is refused first; the Job controller then creates
    # no pods at all (job_controller.go syncJob stops at ensureWorkloadAndPodGroup's error)
    assert doc["podGroups"] == []
    text = run("plan", str(job), "--cluster", str(cluster), "--no-config")
    assert "4 refused" not in text.stdout and "3 refused" in text.stdout
    assert ('job ml/train: 3 pods: podgroups.scheduling.k8s.io "train-job" is forbidden: no PriorityClass with name '
            "hihg was found" in " ".join(text.stdout.split()))
    assert f"{job}:10:7: warning WAS630 " in text.stderr and "hint: did you mean high?" in text.stderr


def test_lint_reports_the_missing_class(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(NODE + klass("high", 1000))
    job = tmp_path / "job.yaml"
    job.write_text(JOB + pod("lone", "elsewhere", cpu="1"))
    alone = json.loads(run("lint", str(job), "--no-config", "-o", "json").stdout)
    assert alone["diagnostics"] == []  # it may exist in the cluster
    with_cluster = run("lint", str(job), "--cluster", str(cluster), "--no-config", "-o", "json")
    assert with_cluster.exit_code == 1
    found = [(d["code"], d["line"], d["field"], d["message"], d.get("hint"))
             for d in json.loads(with_cluster.stdout)["diagnostics"]]
    assert found == [
        ("WAS433", 10, "spec.template.spec.priorityClassName", 'Job "train" (3 pods) names PriorityClass "hihg", '
         "which neither the inputs nor the --cluster snapshot hold: the API server refuses each pod as it is created "
         "(no PriorityClass with name hihg was found)", "did you mean high?"),
        ("WAS433", 18, "spec.priorityClassName", 'pod "lone" names PriorityClass "elsewhere", which neither the '
         'inputs nor the --cluster snapshot hold: the API server refuses the pod (pods "lone" is forbidden: no '
         "PriorityClass with name elsewhere was found)", "create PriorityClass elsewhere, or name one that exists"),
    ]


def test_lint_without_cluster_catches_a_typo_of_an_input_class(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text(klass("high", 1000) + JOB)
    result = run("lint", str(job), "--no-config", "-o", "json")
    assert result.exit_code == 1
    (found,) = json.loads(result.stdout)["diagnostics"]
    assert (found["code"], found["message"].split(",")[0], found["hint"]) == (
        "WAS433", 'Job "train" (3 pods) names PriorityClass "hihg"', "did you mean high?")


def test_explain_fails_when_admission_refuses_pods(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(NODE + klass("high", 1000))
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(pod("lone", "hihg", cpu="1"))
    result = run("explain", "--cluster", str(cluster), str(manifest), "--no-config")
    assert result.exit_code == 1
    assert 'warning WAS630 pods "lone" is forbidden: no PriorityClass with name hihg was found' in result.stderr


GROUP_137 = """\
---
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: default}
spec:
  podGroupTemplates: [{name: workers, priorityClassName: no-such-class, schedulingPolicy: {gang: {minCount: 1}}}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: workers, namespace: default}
spec:
  priorityClassName: no-such-class
  schedulingPolicy: {gang: {minCount: 1}}
---
apiVersion: v1
kind: Pod
metadata: {name: w-0, namespace: default}
spec:
  schedulingGroup: {podGroupName: workers}
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
"""


def test_podgroup_naming_a_missing_class_is_refused_and_a_workload_is_not(tmp_path):
    """Priority admission checks PodGroups (1.37: under GenericWorkload) but has no case for Workloads; the pod
    waits for a group that was never created."""
    run = plan(tmp_path, NODE, GROUP_137)
    assert outcome(run)["w-0"] == ("Gated", None, "Unschedulable",
                                   'waiting for pod\'s pod group "workers" to appear in scheduling queue')
    assert run.plan.pod_groups == ()
    (found,) = [d for d in run.diagnostics if d.code == "WAS630"]
    assert (found.message, found.location.path, found.location.line) == (
        'podgroups.scheduling.k8s.io "workers" is forbidden: no PriorityClass with name no-such-class was found',
        ("spec", "priorityClassName"), 12)


def test_136_podgroup_naming_a_missing_class_is_refused_under_workload_aware_preemption(tmp_path):
    manifests = GROUP_137.replace("v1beta1", "v1alpha2")
    (tmp_path / "cluster.yaml").write_text(NODE)
    (tmp_path / "change.yaml").write_text(manifests)
    for gates, refused in (("", True), ("WorkloadAwarePreemption=false", False)):
        run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                                   parse_gates(get_release("1.36"), gates or None)))
        found = [d.message for d in run.diagnostics if d.code == "WAS630"]
        assert found == (['podgroups.scheduling.k8s.io "workers" is forbidden: no PriorityClass with name '
                          "no-such-class was found"] if refused else []), gates


def test_a_pod_writing_a_priority_its_class_does_not_give_is_refused(tmp_path):
    run = plan(tmp_path, NODE + klass("high", 1000), pod("a", "high", priority=5, cpu="1") + pod("b", priority=0,
                                                                                                 cpu="1"))
    assert outcome(run)["a"] == ("Refused", None, "Forbidden", 'pods "a" is forbidden: the integer value of priority '
                                 "(5) must not be provided in pod spec; priority admission controller computed 1000 "
                                 "from the given PriorityClass name")
    assert outcome(run)["b"][0] == "Bound"  # 0 is what admission computes without a default class


NEVER_GROUP = """\
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: batch, namespace: default}
spec:
  priorityClassName: never
  schedulingPolicy: {basic: {}}
"""


def test_137_podgroup_naming_a_never_class_without_writing_never_is_refused(tmp_path):
    """With PodGroupPreemptionPolicy the scheme defaults spec.preemptionPolicy to PreemptLowerPriority before
    admission, which then finds it differs from the class's Never (upstream v1.37.2, checked with the oracle)."""
    (tmp_path / "cluster.yaml").write_text(NODE + klass("never", 500, policy="Never"))
    for manifests, gates, refused in ((NEVER_GROUP, None, True),
                                      (NEVER_GROUP.replace("  schedulingPolicy", "  preemptionPolicy: Never\n"
                                                           "  schedulingPolicy"), None, False),
                                      (NEVER_GROUP, "PodGroupPreemptionPolicy=false", False)):
        (tmp_path / "change.yaml").write_text(manifests)
        run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                                   parse_gates(get_release("1.37"), gates)))
        found = [d.message for d in run.diagnostics if d.code == "WAS630"]
        assert found == (['podgroups.scheduling.k8s.io "batch" is forbidden: the string value of PreemptionPolicy '
                          "(PreemptLowerPriority) must not be provided in pod group spec; priority admission "
                          "controller computed Never from the given PriorityClass name"] if refused else []), gates
        assert [g.name for g in run.plan.pod_groups] == ([] if refused else ["batch"])


def test_137_job_whose_template_names_a_never_class_creates_no_pods(tmp_path):
    """The 1.37 Job controller copies the template's class into the PodGroup but not a preemptionPolicy; the
    server defaults it to PreemptLowerPriority and admission refuses the group; 1.36 copies no class."""
    job = JOB.replace("hihg", "never")
    (tmp_path / "cluster.yaml").write_text(NODE + klass("never", 5, policy="Never"))
    (tmp_path / "job.yaml").write_text(job)
    result = run("plan", str(tmp_path / "job.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--no-config",
                 "-o", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert {(p["status"], p["message"]) for p in doc["pods"]} == {(
        "Refused", 'podgroups.scheduling.k8s.io "train-job" is forbidden: the string value of PreemptionPolicy '
        "(PreemptLowerPriority) must not be provided in pod group spec; priority admission controller computed "
        "Never from the given PriorityClass name")}
    older = run("plan", str(tmp_path / "job.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--no-config",
                "--k8s-version", "1.36", "-o", "json")
    # three 1-cpu pods on a 2-cpu node: two placed, none refused
    assert [p["status"] for p in json.loads(older.stdout)["pods"]] == ["Bound", "Bound", "Pending"]


def test_138_podgroup_naming_a_never_class_is_admitted_with_never(tmp_path):
    """1.38 deleted SetDefaults_PodGroup's preemptionPolicy default: Priority admission fills the unset policy from
    the class, so the group 1.37 refused is created (v1.38.0-beta.0 plugin/pkg/admission/priority/admission.go
    admitPodGroup, CHANGELOG #143253; issue 34 observed it running 1.38 code); writing another policy is still
    refused."""
    (tmp_path / "cluster.yaml").write_text(NODE + klass("never", 500, policy="Never"))
    for manifests, refused in ((NEVER_GROUP, False),
                               (NEVER_GROUP.replace("  schedulingPolicy", "  preemptionPolicy: PreemptLowerPriority\n"
                                                    "  schedulingPolicy"), True)):
        (tmp_path / "change.yaml").write_text(manifests)
        run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                                   default_gates(get_release("1.38"))))
        found = [d.message for d in run.diagnostics if d.code == "WAS630"]
        assert found == (['podgroups.scheduling.k8s.io "batch" is forbidden: the string value of PreemptionPolicy '
                          "(PreemptLowerPriority) must not be provided in pod group spec; priority admission "
                          "controller computed Never from the given PriorityClass name"] if refused else [])
        assert [g.name for g in run.plan.pod_groups] == ([] if refused else ["batch"])

"""The oracle's own behaviour where it used to fall short of upstream (docs/oracle.md "What changed"): each test
runs the built binary on a small input and asserts what upstream v1.37.2's code does there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES
from tests.engine.drascenes import DEVICE_CLASS, TEMPLATE
from tests.oracle.conftest import oracle_plan, run_oracle

NODE = """apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def _job_with_class(policy: str) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: batch}}
value: 100
preemptionPolicy: {policy}
---
apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: default}}
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      priorityClassName: batch
      restartPolicy: Never
      containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "1"}}}}}}]
"""


def _expand_then_plan(oracle_bin: Path, tmp_path: Path, policy: str) -> tuple[list[str], dict]:
    job = tmp_path / "job.yaml"
    job.write_text(_job_with_class(policy))
    expanded = run_oracle(oracle_bin, ["expand", job, "--k8s-version", "1.37"])
    assert expanded.returncode == 0, expanded.stderr
    items = yaml.safe_load(expanded.stdout)["items"]
    (tmp_path / "expanded.yaml").write_text(expanded.stdout)
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(job.read_text().split("---\n")[0] + "---\n" + NODE)
    planned = oracle_plan(oracle_bin, [tmp_path / "expanded.yaml"], [cluster], "1.37")
    assert planned.returncode in (0, 1), planned.stderr
    return sorted(i["kind"] for i in items), json.loads(planned.stdout)


def test_job_naming_a_never_class_creates_no_pod_group_and_the_expansion_plans(oracle_bin, tmp_path):
    # the scheme defaults the PodGroup's preemptionPolicy to PreemptLowerPriority before Priority admission
    # computes Never from the class, so the server refuses the Job's PodGroup and the Job creates no pods
    kinds, plan = _expand_then_plan(oracle_bin, tmp_path, "Never")
    assert kinds == ["Workload"]
    assert plan["summary"]["pods"] == 0 and plan["podGroups"] == []


def test_job_naming_a_preempting_class_expands_and_binds(oracle_bin, tmp_path):
    kinds, plan = _expand_then_plan(oracle_bin, tmp_path, "PreemptLowerPriority")
    assert kinds == ["Pod", "Pod", "PodGroup", "Workload"]
    assert [p["status"] for p in plan["pods"]] == ["Bound", "Bound"]
    assert {p["node"] for p in plan["pods"]} == {"n1"}


def _composite(cpu: str) -> str:
    docs = ["""apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: stage, namespace: default}
spec:
  schedulingPolicy: {gang: {minGroupCount: 2}}
"""]
    for shard in ("a", "b"):
        docs.append(f"""apiVersion: scheduling.k8s.io/v1alpha3
kind: PodGroup
metadata: {{name: shard-{shard}, namespace: default}}
spec:
  parentCompositePodGroupName: stage
  schedulingPolicy: {{gang: {{minCount: 2}}}}
""")
        docs += [f"""apiVersion: v1
kind: Pod
metadata: {{name: shard-{shard}-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: shard-{shard}}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
""" for i in range(2)]
    return "---\n".join(docs)


def _plan(oracle_bin: Path, tmp_path: Path, manifests: str, cluster: str) -> dict:
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(cluster)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.37", arrival="batch")
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_composite_pod_group_reads_its_children_when_the_tree_fits(oracle_bin, tmp_path):
    [stage] = _plan(oracle_bin, tmp_path, _composite("1"), NODE)["compositePodGroups"]
    assert (stage["status"], stage["condition"], stage["message"]) == ("Scheduled", None, "")
    assert [(c["kind"], c["name"], c["result"]) for c in stage["children"]] == [
        ("PodGroup", "shard-a", "Scheduled"), ("PodGroup", "shard-b", "Scheduled")]


def test_composite_pod_group_reads_its_children_when_the_tree_does_not_fit(oracle_bin, tmp_path):
    plan = _plan(oracle_bin, tmp_path, _composite("3"), NODE)
    [stage] = plan["compositePodGroups"]
    groups = {g["name"]: g for g in plan["podGroups"]}
    assert stage["status"] == "Unschedulable" and stage["condition"] is None
    assert {g["status"] for g in groups.values()} == {"Unschedulable"}
    assert [(c["name"], c["result"], c["message"]) for c in stage["children"]] == [
        (name, "Failed", groups[name]["message"]) for name in ("shard-a", "shard-b")]
    assert stage["message"] == groups["shard-a"]["message"] != ""


BOUND_GROUPS = NODE + "".join(f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: default}}
spec:
  schedulingPolicy: {{gang: {{minCount: 2}}}}
""" + "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}-{i}, namespace: default}}
spec:
  nodeName: n1
  schedulingGroup: {{podGroupName: {name}}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]
""" for i in range(bound)) for name, bound in (("done", 2), ("half", 1)))


def test_pod_groups_bound_before_the_plan_read_from_their_bound_members(oracle_bin, tmp_path):
    # upstream writes no condition on a group it never schedules; its bound members are the state
    plan = _plan(oracle_bin, tmp_path, "apiVersion: v1\nkind: List\nitems: []\n", BOUND_GROUPS)
    assert [(g["name"], g["status"], g["condition"]) for g in plan["podGroups"]] == [
        ("done", "Scheduled", None), ("half", "WaitingForPods", None)]


GPU_FULL = Path(__file__).resolve().parents[2] / "fixtures" / "dra-upstream" / "nvidia-gpu-full"


def test_claim_for_a_device_class_backed_extended_resource_is_named_as_wasplan_names_it(oracle_bin):
    # the DynamicResources plugin creates it with generateName "<pod>-extended-resources-", which the fake
    # clientset leaves unapplied; the oracle names it as the API server would, with a derived suffix
    from wasplan.cluster.claims import generated_name
    from wasplan.plan import ClaimOwner

    for release in ("1.36", "1.37"):
        run = oracle_plan(oracle_bin, [GPU_FULL / "gpu-full.yaml"], [GPU_FULL / "cluster.yaml"], release)
        assert run.returncode == 0, run.stderr
        [claim] = json.loads(run.stdout)["resourceClaims"]
        namespace = "extended-resource-gpu-full"
        assert claim["name"] == generated_name(namespace, ClaimOwner("Pod", "gpu-full-pod", "extended-resources"))
        assert claim["name"].startswith("gpu-full-pod-extended-resources-") and len(claim["name"]) == 37
        assert claim["owner"] == {"kind": "Pod", "name": "gpu-full-pod", "claim": "<extended-resources>"}
        assert (claim["status"], claim["node"], len(claim["devices"])) == ("Allocated", "gpu-node", 1)


# drascenes' DeviceClass and template, and a pod claiming one device on a node that publishes none
UNSERVED_CLAIM = DEVICE_CLASS + TEMPLATE + """---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
  containers: [{name: c, image: x, resources: {claims: [{name: gpu}]}}]
"""


def test_pending_claim_carries_the_failure_of_the_pod_waiting_for_it(oracle_bin, tmp_path):
    # ResourceClaimStatus has no message of its own; the pod's PodScheduled=False message says why
    plan = _plan(oracle_bin, tmp_path, UNSERVED_CLAIM, NODE)
    [pod] = plan["pods"]
    [claim] = plan["resourceClaims"]
    assert pod["status"] == "Pending" and "cannot allocate all claims" in pod["message"]
    assert (claim["status"], claim["message"]) == ("Pending", pod["message"])


def test_gang_requeued_in_the_error_backoff_after_its_preemption_binds_once_the_backoff_completes(oracle_bin):
    # v1.37.2 evicts the four pods of ml/lp, nominates urgent-0 and urgent-1, then requeues the group with no
    # rejector plugin: it waits in the error backoff queue, which Pop does not take from. A running scheduler
    # retries it when flushBackoffQCompleted moves it to the activeQ; the oracle used to stop there with the
    # gang Pending on its nominated nodes.
    eviction = FIXTURES / "scenarios" / "eviction"
    planned = oracle_plan(oracle_bin, [eviction / "urgent.yaml"], [eviction / "cluster.yaml"], "1.37")
    assert planned.returncode == 0, planned.stderr
    plan = json.loads(planned.stdout)
    pods = {p["name"]: (p["status"], p["node"]) for p in plan["pods"]}
    assert {pods["lp-0"], pods["lp-1"], pods["lp-2"], pods["lp-3"]} == {("Preempted", "gpu-0"),
                                                                          ("Preempted", "gpu-1")}
    nominated = {p["name"]: p["nominatedNode"] for p in plan["pods"] if p["name"].startswith("urgent-")}
    assert pods["urgent-0"] == ("Bound", nominated["urgent-0"])
    assert pods["urgent-1"] == ("Bound", nominated["urgent-1"])
    assert {nominated["urgent-0"], nominated["urgent-1"]} == {"gpu-0", "gpu-1"}
    assert [(g["name"], g["status"]) for g in plan["podGroups"]] == [("lp", "Scheduled"), ("urgent", "Scheduled")]
    assert [(p["preemptor"]["name"], len(p["victims"])) for p in plan["preemptions"]] == [("urgent", 4)]
    assert plan["oracle"]["backoffWaits"] == 1 and "watchdog" not in plan["oracle"]


def _late_member_tree() -> str:
    """A basic CompositePodGroup over two gangs of two; shard-a's pods come first, then shard-b's one by one."""
    docs = ["""apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: stage, namespace: default}
spec:
  schedulingPolicy: {basic: {}}
"""]
    for shard in ("a", "b"):
        docs.append(f"""apiVersion: scheduling.k8s.io/v1alpha3
kind: PodGroup
metadata: {{name: shard-{shard}, namespace: default}}
spec:
  parentCompositePodGroupName: stage
  schedulingPolicy: {{gang: {{minCount: 2}}}}
""")
        docs += [f"""apiVersion: v1
kind: Pod
metadata: {{name: shard-{shard}-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: shard-{shard}}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]
""" for i in range(2)]
    return "---\n".join(docs)


def test_tree_failing_before_any_member_is_tried_waits_for_its_next_member(oracle_bin, tmp_path):
    # shard-a runs before the plan, so the attempt with shard-b-0 alone calls SchedulePod on no pod (the gang
    # stops at PlacementFeasible): the pop is the attempt. The driver used to take the tree for never attempted
    # and wait out backoff after backoff with shard-b-0 alone, then ended with shard-b-1 never attempted.
    docs = _late_member_tree().split("---\n")
    running = [d.replace("spec:\n  schedulingGroup", "spec:\n  nodeName: n1\n  schedulingGroup")
               for d in docs[:4]]
    (tmp_path / "m.yaml").write_text("---\n".join(docs[4:]))
    (tmp_path / "c.yaml").write_text("---\n".join([NODE, *running]))
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.37", arrival="sequential")
    assert run.returncode == 0, run.stderr
    plan = json.loads(run.stdout)
    assert [(p["name"], p["status"]) for p in plan["pods"]] == [
        ("shard-a-0", "AlreadyBound"), ("shard-a-1", "AlreadyBound"), ("shard-b-0", "Bound"), ("shard-b-1", "Bound")]
    assert [(g["name"], g["condition"]["status"]) for g in plan["podGroups"]] == [("shard-a", "True"),
                                                                                  ("shard-b", "True")]
    # the member's creation moves the backing-off entity to the activeQ at once (core/retries.go: the move
    # upstream's flush makes once the backoff completes), so nothing is waited out on the clock
    assert plan["oracle"].get("backoffWaits", 0) == 0 and "watchdog" not in plan["oracle"]


def test_member_created_while_its_tree_backs_off_is_scheduled_once_the_backoff_completes(oracle_bin, tmp_path):
    # Sequential arrival: shard-a binds; shard-b-0 passes PreEnqueue alone (the basic root's quorum is met by
    # shard-a, gangscheduling.go isCPGTreeReady), so the tree is attempted with one of shard-b's two pods and
    # fails at PlacementFeasible with no rejector plugin: the error backoff. shard-b-1 joins the tree there
    # (scheduling_queue.go addToPodGroupIfExists); a running scheduler retries once the backoff completes and
    # binds shard-b. The oracle used to end the run with shard-b-1 never attempted.
    (tmp_path / "m.yaml").write_text(_late_member_tree())
    (tmp_path / "c.yaml").write_text(NODE)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.37", arrival="sequential")
    assert run.returncode == 0, run.stderr
    plan = json.loads(run.stdout)
    assert [(p["name"], p["status"], p["node"]) for p in plan["pods"]] == [
        (f"shard-{s}-{i}", "Bound", "n1") for s in ("a", "b") for i in range(2)]
    assert [(g["name"], g["status"]) for g in plan["podGroups"]] == [("shard-a", "Scheduled"),
                                                                      ("shard-b", "Scheduled")]
    # the member's creation moves the backing-off entity to the activeQ at once (core/retries.go: the move
    # upstream's flush makes once the backoff completes), so nothing is waited out on the clock
    assert plan["oracle"].get("backoffWaits", 0) == 0 and "watchdog" not in plan["oracle"]


GANG_OF_THREE = """apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: default}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
""" + "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: g-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: g}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "2"}}}}}}]
""" for i in range(3))


def test_gang_scheduled_before_its_last_member_fails_keeps_its_true_condition(oracle_bin, tmp_path):
    # g binds two of its three pods and gets PodGroupInitiallyScheduled=True; the third is retried and fails.
    # updatePodGroupCondition (schedule_one_podgroup.go) does not lower a True condition, but it reads the one
    # the scheduler's informer delivered: the oracle's status patch used to keep the group's resourceVersion, so
    # updatePodGroup (eventhandlers.go) dropped the update and the retry wrote False over the True.
    plan = _plan(oracle_bin, tmp_path, GANG_OF_THREE, NODE)
    assert [(p["name"], p["status"], p["node"]) for p in plan["pods"]] == [
        ("g-0", "Bound", "n1"), ("g-1", "Bound", "n1"), ("g-2", "Pending", None)]
    [group] = plan["podGroups"]
    assert (group["status"], group["condition"]["status"], group["condition"]["reason"]) == \
        ("Scheduled", "True", "Scheduled")
NOMINATED_CLUSTER = """apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: a, labels: {kubernetes.io/hostname: a, topology.kubernetes.io/zone: z0}}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}, capacity: {cpu: "8", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b, labels: {kubernetes.io/hostname: b, topology.kubernetes.io/zone: z0}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: c, labels: {kubernetes.io/hostname: c, topology.kubernetes.io/zone: z1}}
spec: {unschedulable: true}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-old, namespace: default, labels: {app: web}}
spec:
  nodeName: b
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
"""

NOMINATED_POD = """apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
"""


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_preemptor_retry_takes_its_nominated_node(oracle_bin, tmp_path, arrival):
    # zone z1 (c, unschedulable but counted) holds no web pod, so neither a nor b may take one while web-old runs
    # on b; evicting it makes both fit. The status patch that nominates b must reach the queue (a patch gets a
    # new resourceVersion, or the pod informer's handler drops the update, eventhandlers.go
    # updatePodInSchedulingQueue), so the retry tries b first (schedule_one.go evaluateNominatedNode) instead of
    # scoring a, the emptier node, higher.
    (tmp_path / "cluster.yaml").write_text(NOMINATED_CLUSTER)
    (tmp_path / "pod.yaml").write_text(NOMINATED_POD)
    planned = oracle_plan(oracle_bin, [tmp_path / "pod.yaml"], [tmp_path / "cluster.yaml"], "1.36", arrival=arrival)
    assert planned.returncode == 0, planned.stderr
    plan = json.loads(planned.stdout)
    pods = {p["name"]: p for p in plan["pods"]}
    assert (pods["web"]["status"], pods["web"]["node"], pods["web"]["nominatedNode"]) == ("Bound", "b", "b")
    assert pods["web"]["tiedNodes"] == ["b"]
    assert pods["web-old"]["status"] == "Preempted"

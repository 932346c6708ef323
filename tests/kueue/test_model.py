"""The Kueue model's parts on their own: Workload names, v1beta1 conversion and CRD defaults, request
adjustment, the admission-check policy, inactive queues, what is named as not modelled, and what the pipeline
reads from an outcome (flavor node labels and tolerations, TAS domains, evictions). The expected statuses and
messages were checked against the Kueue oracle (oracle/kueue017) where it models the case."""

from __future__ import annotations

import textwrap

import yaml

from wasplan.kueue import AdmissionChecks, AdmissionPolicy, KueueInputs, KueueStatus, admit
from wasplan.kueue.jobs import workload_name
from wasplan.kueue.model import quantity_string

from .helpers import load, run_text

SETUP = "fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml"


def test_workload_names_hash_kind_group_name_and_uid():
    assert workload_name("Job", "batch", "fits", "uid-default-fits") == "job-fits-b2c6d"
    assert workload_name("JobSet", "jobset.x-k8s.io", "first", "uid-default-first") == "jobset-first-76994"
    long = workload_name("Job", "batch", "x" * 300, "u")
    assert len(long) == 253 and long.startswith("job-" + "x" * 243 + "-")


def test_quantities_print_as_kueue_prints_them():
    assert [quantity_string("cpu", v) for v in (8000, 1500, 0)] == ["8", "1500m", "0"]
    assert [quantity_string("memory", v) for v in (600 * 2**20, 4 * 2**30, 100000, 1000)] == \
        ["600Mi", "4Gi", "100k", "1k"]
    assert quantity_string("pods", 5) == "5"


def test_v1beta1_spellings_convert_and_crd_defaults_apply():
    inputs = KueueInputs.from_objects(yaml.safe_load_all(textwrap.dedent("""
        apiVersion: kueue.x-k8s.io/v1beta1
        kind: ClusterQueue
        metadata: {name: old}
        spec:
          cohort: pool
          admissionChecks: [prov]
          flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
          resourceGroups: []
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: new}
        spec:
          namespaceSelector: {}
          resourceGroups: []
        """)))
    old, new = inputs.cluster_queues["old"], inputs.cluster_queues["new"]
    assert (old.cohort, old.admission_checks) == ("pool", ("prov",))
    assert (old.fungibility.when_can_borrow, old.fungibility.when_can_preempt) == ("MayStopSearch", "MayStopSearch")
    assert old.namespace_selector.nothing and not new.namespace_selector.nothing
    assert (new.queueing_strategy, new.stop_policy, new.preemption.within_cluster_queue,
            new.fungibility.when_can_preempt) == ("BestEffortFIFO", "None", "Never", "TryNextFlavor")


def test_sample_job_is_admitted_with_its_flavor_for_the_pipeline():
    result = admit(KueueInputs.from_objects(load(SETUP, "fixtures/kueue/sample-job.yaml")))
    [wl] = result.workloads
    assert (wl.name, wl.status, wl.cluster_queue) == ("job-sample-job-588b9-82251", KueueStatus.ADMITTED,
                                                       "cluster-queue")
    assert (wl.source.kind, wl.source.name) == ("Job", "sample-job-588b9")
    [ps] = wl.pod_sets
    assert (ps.name, ps.count, ps.flavors, ps.node_selector, ps.topology) == (
        "main", 3, {"cpu": "default-flavor", "memory": "default-flavor"}, {}, None)


def test_admission_checks_policy():
    docs = load(SETUP, "fixtures/kueue/sample-job.yaml")
    docs[1]["spec"]["admissionChecks"] = ["prov"]
    docs.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "AdmissionCheck", "metadata": {"name": "prov"},
                 "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request"},
                 "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Active", "message": "ok"}]}})
    got = {}
    for policy in (AdmissionChecks.READY, AdmissionChecks.PENDING):
        [wl] = admit(KueueInputs.from_objects(docs), AdmissionPolicy(policy)).workloads
        got[policy] = (wl.status, wl.reason, wl.message)
    assert got == {AdmissionChecks.READY: (KueueStatus.ADMITTED, "Admitted", "The workload is admitted"),
                   AdmissionChecks.PENDING: (KueueStatus.QUOTA_RESERVED, "QuotaReserved",
                                             "Quota reserved in ClusterQueue cluster-queue")}


QUEUE = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f, }
spec: {nodeLabels: {pool: a}, tolerations: [{key: pool, operator: Exists, effect: NoSchedule}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: f, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: default}
spec: {clusterQueue: cq}
"""


def job(name: str, cpu: str, extra_labels: str = "", annotations: str = "", template_spec: str = "") -> str:
    return textwrap.dedent(f"""
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {name}
          labels: {{kueue.x-k8s.io/queue-name: q{extra_labels}}}
          annotations: {{{annotations}}}
        spec:
          template:
            spec:
              {template_spec}
              containers: [{{name: c, image: busybox, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
        """)


def test_admitted_pods_get_the_flavors_node_labels_and_tolerations():
    [wl] = run_text(QUEUE + job("a", "1")).workloads
    [ps] = wl.pod_sets
    assert ps.node_selector == {"pool": "a"}
    assert ps.tolerations == [{"key": "pool", "operator": "Exists", "effect": "NoSchedule"}]


def test_a_missing_priority_class_builds_no_workload():
    result = run_text(QUEUE + job("a", "1", ", kueue.x-k8s.io/priority-class: nope"))
    assert result.workloads == []
    assert result.not_built == ['Job default/a: workloadpriorityclasses.kueue.x-k8s.io "nope" not found']


def test_a_stopped_local_queue_and_a_missing_cluster_queue_are_inadmissible():
    text = QUEUE.replace("spec: {clusterQueue: cq}", "spec: {clusterQueue: cq, stopPolicy: Hold}") + textwrap.dedent("""
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: orphan, namespace: default}
        spec: {clusterQueue: gone}
        """) + job("held", "1") + job("lost", "1").replace("queue-name: q", "queue-name: orphan")
    got = {w.source.name: (w.status, w.cluster_queue, w.message) for w in run_text(text).workloads}
    assert got == {"held": (KueueStatus.INADMISSIBLE, "cq", "LocalQueue q is inactive"),
                   "lost": (KueueStatus.INADMISSIBLE, "gone", "ClusterQueue gone doesn't exist")}


RUNNING = """
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: running, namespace: default}
spec:
  queueName: drain
  podSets:
  - {name: main, count: 1, template: {spec: {containers: [{name: c, image: b, resources: {requests: {cpu: "3"}}}]}}}
status:
  admission:
    clusterQueue: cq
    podSetAssignments: [{name: main, count: 1, flavors: {cpu: f}, resourceUsage: {cpu: "3"}}]
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: m, lastTransitionTime: "2025-12-31T22:00:00Z"}
  - {type: Admitted, status: "True", reason: Admitted, message: m, lastTransitionTime: "2025-12-31T22:00:00Z"}
"""


def test_a_local_queue_holding_and_draining_evicts_its_workloads_and_frees_the_quota():
    """reconcileOnLocalQueueActiveState: `running` (3 of cq's 4 cpu) is evicted with LocalQueueStopped and is
    then Inadmissible; the stopped LocalQueue is not in the queue manager (localqueue_controller.go Create), so
    it is not queued again, and `other` (2 cpu) fits in the freed quota. A Hold LocalQueue keeps what runs."""
    drain = "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: drain, namespace: default}\n" \
            "spec: {clusterQueue: cq, stopPolicy: HoldAndDrain}\n"
    result = run_text(QUEUE + drain + RUNNING + job("other", "2"))
    [other, running] = sorted(result.workloads, key=lambda w: w.name != "running")[::-1]
    assert (running.status, running.reason, running.message, running.evicted) == (
        KueueStatus.INADMISSIBLE, "Inadmissible", "LocalQueue drain is inactive", True)
    assert (other.status, other.message, other.pod_sets[0].node_selector) == (
        KueueStatus.ADMITTED, "The workload is admitted", {"pool": "a"})
    held = run_text(QUEUE + drain.replace("HoldAndDrain", "Hold") + RUNNING + job("other", "2"))
    assert {w.name: w.status for w in held.workloads if w.name == "running"} == {"running": KueueStatus.ADMITTED}
    assert [w.status for w in held.workloads if w.name != "running"] == [KueueStatus.PENDING]


def limit_range(*items: str) -> str:
    return ("---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: default}\nspec:\n  limits:\n"
            + "".join(f"  - {i}\n" for i in items))


def test_a_limit_range_max_or_min_refuses_the_workload_before_flavors_are_tried():
    """ValidateLimitRange in nominate: the container's larger of request and limit against max, its smaller against
    min, init containers first; the pod's total against the Pod type; several errors as one bracketed aggregate.
    The workload stays Pending with Kueue's message and takes no quota: `small` is admitted."""
    text = QUEUE + limit_range("{type: Container, max: {cpu: '3', memory: 1Gi}, min: {cpu: 500m}}",
                               "{type: Pod, max: {cpu: '3500m'}}") + job("small", "1")
    text += job("wide", "2", template_spec="initContainers: [{name: i, image: b, resources: {requests: {cpu: '4'}}}]")
    text += job("tiny", "100m").replace('cpu: "100m"}', 'cpu: "100m", memory: 2Gi}')
    text += job("pair", "2", template_spec="initContainers: [{name: s, image: b, restartPolicy: Always, "
                                           "resources: {requests: {cpu: '2'}}}]")
    got = {w.source.name: (w.status, w.reason, w.message) for w in run_text(text).workloads}
    prefix = "resources didn't satisfy LimitRange constraints: "
    assert got == {
        "small": (KueueStatus.ADMITTED, "Admitted", "The workload is admitted"),
        "wide": (KueueStatus.PENDING, "Pending", prefix + "[spec.podSets[0].template.spec.initContainers[0]: "
                 'Invalid value: ["cpu"]: requests must not be above the limitRange max, '
                 "spec.podSets[0].template.spec: "
                 'Invalid value: ["cpu"]: requests must not be above the limitRange max]'),
        "tiny": (KueueStatus.PENDING, "Pending", prefix + "[spec.podSets[0].template.spec.containers[0]: "
                 'Invalid value: ["memory"]: requests must not be above the limitRange max, '
                 "spec.podSets[0].template.spec.containers[0]: "
                 'Invalid value: ["cpu"]: requests must not be below the limitRange min]'),
        "pair": (KueueStatus.PENDING, "Pending", prefix + "spec.podSets[0].template.spec: "
                 'Invalid value: ["cpu"]: requests must not be above the limitRange max')}


def test_a_limit_range_default_is_checked_as_the_container_request():
    text = QUEUE + limit_range("{type: Container, default: {cpu: '4'}, max: {cpu: '3'}}") + job("a", "1").replace(
        "resources: {requests: {cpu: \"1\"}}", "resources: {}")
    [wl] = run_text(text).workloads
    assert (wl.status, wl.message) == (KueueStatus.PENDING, "resources didn't satisfy LimitRange constraints: "
                                       "spec.podSets[0].template.spec.containers[0]: Invalid value: [\"cpu\"]: "
                                       "requests must not be above the limitRange max")


def test_a_preempted_snapshot_workload_is_marked_evicted():
    result = admit(KueueInputs.from_objects(load("fixtures/kueue-scenarios/preemption-within-cq.yaml")))
    got = {w.name: (w.status, w.evicted, w.preempted_by) for w in result.workloads}
    assert got == {"job-urgent-9cc20": (KueueStatus.ADMITTED, False, None),
                   "low-running": (KueueStatus.PREEMPTED, True, "default/job-urgent-9cc20")}


def test_tas_domains_are_handed_to_the_pipeline_as_label_dicts():
    result = admit(KueueInputs.from_objects(load("fixtures/kueue-scenarios/tas-rack.yaml")))
    admitted = [w for w in result.workloads if w.status == KueueStatus.ADMITTED]
    assert [ps.topology for w in admitted for ps in w.pod_sets] == [
        [({"kubernetes.io/hostname": "n1"}, 1), ({"kubernetes.io/hostname": "n2"}, 1)]]


def test_fair_sharing_weights_without_a_configuration_are_named():
    text = QUEUE.replace("  namespaceSelector: {}\n", "  namespaceSelector: {}\n  fairSharing: {weight: 2}\n", 1)
    result = run_text(text + job("a", "1"))
    assert [w.status for w in result.workloads] == [KueueStatus.ADMITTED]
    assert result.not_modelled == [
        "fair sharing (fairSharing weights, and no Kueue Configuration among the inputs to say whether it is "
        "enabled): the classical ordering and preemption are used, as Kueue does with fair sharing off"]


def test_a_bound_queued_pod_counts_against_tas_capacity():
    docs = load("fixtures/kueue-scenarios/tas-rack.yaml")
    docs.insert(0, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default",
                                                                      "labels": {"kueue.x-k8s.io/queue-name": "queue"}},
                    "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "b",
                                                               "resources": {"requests": {"cpu": "2"}}}]}})
    result = admit(KueueInputs.from_objects(docs))
    placed = {w.name: [ps.topology for ps in w.pod_sets] for w in result.workloads}
    assert placed["job-in-one-rack-8bbed"] == [[({"kubernetes.io/hostname": "n3"}, 1),
                                                ({"kubernetes.io/hostname": "n4"}, 1)]]
    assert result.not_modelled == []


def test_the_pipelines_documents_are_read_as_they_come():
    from wasplan.documents.reader import read_paths

    from .helpers import ROOT
    read = read_paths([str(ROOT / SETUP), str(ROOT / "fixtures/kueue/sample-job.yaml")])
    [wl] = admit(KueueInputs.from_objects(read.documents)).workloads
    assert (wl.name, wl.status) == ("job-sample-job-588b9-82251", KueueStatus.ADMITTED)


def test_a_pods_requests_are_summed_exactly_and_rounded_once():
    """Kueue sums a pod's Quantities (component-helpers PodRequests, sidecars included) and converts the sum
    (resources.NewRequests): two containers of 1.5 millicores take 3m of quota, not 2m + 2m (the Kueue oracle
    prints 3m)."""
    text = QUEUE + job("tiny", "1500u", template_spec="initContainers: [{name: s, image: b, restartPolicy: Always, "
                                                      "resources: {requests: {cpu: 1500u}}}]")
    result = run_text(text)
    [cq] = result.cluster_queues
    assert [w.status for w in result.workloads] == [KueueStatus.ADMITTED]
    assert cq.usage["f"]["cpu"]["used"] == "3m"


RECLAIM_COHORT = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-a}
spec:
  cohortName: team
  namespaceSelector: {}
  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: default, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-b}
spec:
  cohortName: team
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: default, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: a}
spec: {clusterQueue: cq-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: b}
spec: {clusterQueue: cq-b}
"""


def _cpu_job(name: str, namespace: str, cpu: int, second: int) -> str:
    return textwrap.dedent(f"""\
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: {name}
          namespace: {namespace}
          labels: {{kueue.x-k8s.io/queue-name: lq}}
          creationTimestamp: '2025-12-01T00:00:0{second}Z'
        spec:
          suspend: true
          template:
            spec:
              restartPolicy: Never
              containers: [{{name: main, image: busybox, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
        """)


def test_reclaim_without_borrowing_frees_quota_only_for_a_preemptor_within_nominal():
    """With borrowWithinCohort Never a queue reclaims its lent quota only for a workload that fits its nominal
    quota: the 6-CPU borrower in cq-b is preempted for a 3-CPU workload of cq-a (4 nominal), not for a 5-CPU one,
    which stays pending while a 2-CPU one is admitted beside the borrower (checked against the Kueue oracle)."""
    within = {w.name: (w.status, w.message) for w in run_text(
        RECLAIM_COHORT + _cpu_job("borrower", "b", 6, 0) + _cpu_job("reclaimer", "a", 3, 1)).workloads}
    assert within == {
        "job-reclaimer-c32e2": (KueueStatus.ADMITTED, "The workload is admitted"),
        "job-borrower-1804f": (KueueStatus.PENDING, "couldn't assign flavors to pod set main: insufficient unused "
                                                    "quota for cpu in flavor default, 1 more needed")}
    beyond = {w.name: (w.status, w.message) for w in run_text(
        RECLAIM_COHORT + _cpu_job("borrower", "b", 6, 0) + _cpu_job("big", "a", 5, 1)
        + _cpu_job("small", "a", 2, 2)).workloads}
    assert beyond == {
        "job-borrower-1804f": (KueueStatus.ADMITTED, "The workload is admitted"),
        "job-big-13d82": (KueueStatus.PENDING, "couldn't assign flavors to pod set main: insufficient unused quota "
                                               "for cpu in flavor default, 3 more needed"),
        "job-small-d682f": (KueueStatus.ADMITTED, "The workload is admitted")}

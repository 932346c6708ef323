"""A seeded generator of Kueue admission cases for the Kueue differential (tests/oracle/test_kueue_differential.py).

`generate(seed)` returns a `KueueCase`: Kueue's objects (ResourceFlavors, ClusterQueues, Cohorts, LocalQueues,
WorkloadPriorityClasses, Topologies), the cluster beside them (Namespaces, Nodes, PriorityClasses, Workloads
already holding quota) in `cluster.yaml`, and the Jobs and JobSets carrying `kueue.x-k8s.io/queue-name` in
`manifests.yaml`. Both `wasplan plan` and the Kueue oracle (oracle/bin/oracle-kueue) read exactly these files.
Each case is built around one theme, so agreement can be reported per theme:

* quota: one to three ClusterQueues without a cohort, one or two flavors, BestEffortFIFO and StrictFIFO;
* flavors: flavors with nodeLabels, nodeTaints and tolerations, several resource groups, flavorFungibility,
  Jobs tolerating some taints and not others;
* cohort: a flat cohort (spec.cohortName) with borrowingLimit and lendingLimit;
* hierarchy: Cohort objects with parentName and quotas of their own, a tree of two or three levels;
* priority: WorkloadPriorityClass and PriorityClass, withinClusterQueue preemption, admitted Workloads in the
  snapshot;
* reclaim: borrowers in the snapshot, reclaimWithinCohort and borrowWithinCohort;
* stop: stopPolicy on ClusterQueues and LocalQueues, namespaceSelector with labelled Namespaces, a queue label
  naming no LocalQueue;
* tas: a Topology (block, rack, hostname) over Ready nodes, flavors pointing at it, required, preferred and
  unconstrained topology requests;
* jobset: JobSets of several replicated jobs beside Jobs;
* partial: Jobs with kueue.x-k8s.io/job-min-parallelism (partial admission);
* fair: Kueue's Configuration (config.kueue.x-k8s.io v1beta2, or v1beta1 with `enable`) turning fair sharing on
  with one of the valid preemptionStrategies lists, a flat cohort or a tree of Cohort objects, fairSharing
  weights on ClusterQueues and Cohorts (0, fractions, milli-quantities, none), borrowers in the snapshot, and
  reclaimWithinCohort and withinClusterQueue policies.
* tree: benchmarks/kueue.py's shape in small: a three-level Cohort tree whose departments (and some orgs) hold
  quota of their own, two flavors, borrowing and lending limits, preemption within the queue and reclaim within
  the cohort, more demand than quota.
* pods: Kueue's pod-based and LeaderWorkerSet integrations beside Jobs: Deployments (queued by their own label,
  with a WorkloadPriorityClass at times, or through their pod template), StatefulSets, plain pods and pod
  groups of one or two roles, LeaderWorkerSets with and without a leader template, over one or two flavors.

Every object Kueue orders by time gets a distinct creation timestamp (Kueue orders heads across ClusterQueues
without a final tiebreak: pkg/scheduler/scheduler.go, and equal priorities by creation time), in an order
that is not always the input order; Workloads in the snapshot carry distinct QuotaReserved transition times
(the preemptor takes the most recently admitted first among equals: pkg/scheduler/preemption/common/ordering.go).
The objects follow the v1beta2 API of sigs.k8s.io/kueue v0.17.0 (apis/kueue/v1beta2) and the job integrations'
annotations (pkg/controller/jobs/job, pkg/controller/jobframework, apis/kueue/v1beta2/topology_types.go).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .case import write_case

KUEUE = "kueue.x-k8s.io/v1beta2"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism"
TAS_REQUIRED = "kueue.x-k8s.io/podset-required-topology"
TAS_PREFERRED = "kueue.x-k8s.io/podset-preferred-topology"
TAS_UNCONSTRAINED = "kueue.x-k8s.io/podset-unconstrained-topology"
BLOCK, RACK, HOST = "topology.example.com/block", "topology.example.com/rack", "kubernetes.io/hostname"
THEMES = ("quota", "flavors", "cohort", "hierarchy", "priority", "reclaim", "stop", "tas", "jobset", "partial",
          "fair", "tree", "pods")
NAMESPACES = ("default", "team-a", "team-b")
WORKLOAD_PRIORITIES = {"wl-low": 50, "wl-high": 500}
POD_PRIORITIES = {"pod-low": 10, "pod-high": 1000}
CPUS = ("500m", "1", "1", "2", "3", "4")
MEMS = ("512Mi", "1Gi", "2Gi", "4Gi")
BASE = datetime(2025, 12, 1, tzinfo=timezone.utc)


@dataclass
class KueueCase:
    seed: int
    theme: str
    cluster: list[dict] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"seed={self.seed} theme={self.theme}"

    def write(self, root: Path) -> tuple[Path, Path]:
        """Write `cluster.yaml` and `manifests.yaml` under `root`; returns (manifests, cluster)."""
        return write_case(root, self.cluster, self.manifests, self.label)


@dataclass
class World:
    """One case under construction: its random source, the flavors and queues made so far, the clock."""
    rng: random.Random
    cluster: list[dict] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)
    flavors: dict[str, dict] = field(default_factory=dict)  # name -> ResourceFlavor
    queues: dict[str, str] = field(default_factory=dict)  # "namespace/localqueue" -> ClusterQueue
    times: list[int] = field(default_factory=list)  # creation offsets (seconds), drawn without repeats
    counter: int = 0

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def stamp(self, span: int = 1) -> str:
        """A creation timestamp no other object of the case has, nor the `span - 1` seconds after it (a
        Deployment's pods and a LeaderWorkerSet's groups take the seconds after their object's)."""
        while True:
            offset = self.rng.randint(0, 3600)
            if not any(offset + i in self.times for i in range(span)):
                self.times.extend(offset + i for i in range(span))
                return (BASE + timedelta(seconds=offset)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def new_name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter}"


# ---- Kueue's objects -------------------------------------------------------------------------------------------

def kobj(kind: str, name: str, spec: dict | None = None, namespace: str | None = None, **top) -> dict:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    doc = {"apiVersion": KUEUE, "kind": kind, "metadata": meta}
    if spec is not None:
        doc["spec"] = spec
    doc.update(top)
    return doc


def flavor(w: World, name: str, *, labels: dict | None = None, taint: dict | None = None,
           toleration: dict | None = None, topology: str | None = None) -> str:
    spec: dict = {}
    if labels:
        spec["nodeLabels"] = labels
    if taint:
        spec["nodeTaints"] = [taint]
    if toleration:
        spec["tolerations"] = [toleration]
    if topology:
        spec["topologyName"] = topology
    w.flavors[name] = kobj("ResourceFlavor", name, spec)
    w.cluster.append(w.flavors[name])
    return name


def quota(nominal, *, borrowing=None, lending=None) -> dict:
    q = {"nominalQuota": nominal}
    if borrowing is not None:
        q["borrowingLimit"] = borrowing
    if lending is not None:
        q["lendingLimit"] = lending
    return q


def resource_group(flavors: dict[str, dict[str, dict]]) -> dict:
    """flavors: flavor -> resource -> quota(...); the covered resources are the first flavor's."""
    covered = list(next(iter(flavors.values())))
    return {"coveredResources": covered,
            "flavors": [{"name": f, "resources": [{"name": r, **q} for r, q in res.items()]}
                        for f, res in flavors.items()]}


def cluster_queue(w: World, name: str, groups: list[dict], *, cohort: str | None = None, **spec) -> dict:
    body: dict = {"namespaceSelector": {}, "resourceGroups": groups}
    if cohort:
        body["cohortName"] = cohort
    body.update({k: v for k, v in spec.items() if v is not None})
    cq = kobj("ClusterQueue", name, body)
    w.cluster.append(cq)
    return cq


def local_queue(w: World, namespace: str, name: str, cq: str, stop: str | None = None) -> str:
    spec = {"clusterQueue": cq}
    if stop:
        spec["stopPolicy"] = stop
    w.cluster.append(kobj("LocalQueue", name, spec, namespace=namespace))
    w.queues[f"{namespace}/{name}"] = cq
    return name


def cohort(w: World, name: str, parent: str | None = None, groups: list[dict] | None = None) -> None:
    spec: dict = {}
    if parent:
        spec["parentName"] = parent
    if groups:
        spec["resourceGroups"] = groups
    w.cluster.append(kobj("Cohort", name, spec))


def priority_classes(w: World) -> None:
    for name, value in WORKLOAD_PRIORITIES.items():
        w.cluster.append({"apiVersion": KUEUE, "kind": "WorkloadPriorityClass", "metadata": {"name": name},
                          "value": value})
    for name, value in POD_PRIORITIES.items():
        w.cluster.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                          "value": value})


def namespaces(w: World, labelled: bool = False) -> None:
    for ns in NAMESPACES:
        labels = {"kubernetes.io/metadata.name": ns}
        if labelled and ns != "default":
            labels["team"] = ns.split("-")[1]
        w.cluster.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": labels}})


# ---- Jobs, JobSets and Workloads already holding quota ---------------------------------------------------------

def _requests(w: World, resources: tuple[str, ...]) -> dict:
    req = {"cpu": w.pick(CPUS)}
    if "memory" in resources:
        req["memory"] = w.pick(MEMS)
    if "example.com/gpu" in resources and w.chance(0.6):
        req["example.com/gpu"] = str(w.rng.randint(1, 2))
    return req


def _pod_spec(w: World, requests: dict, *, tolerations: list[dict] | None = None,
              priority: str | None = None) -> dict:
    resources: dict = {"requests": requests}
    extended = {r: q for r, q in requests.items() if "/" in r}
    if extended:  # an extended resource cannot be overcommitted: its limit equals its request
        resources["limits"] = extended
    spec: dict = {"restartPolicy": "Never",
                  "containers": [{"name": "main", "image": "busybox", "resources": resources}]}
    if tolerations:
        spec["tolerations"] = tolerations
    if priority:
        spec["priorityClassName"] = priority
    return spec


def _labels(w: World, queue: str, *, priorities: bool) -> dict:
    labels = {QUEUE_LABEL: queue}
    if priorities and w.chance(0.4):
        labels[PRIORITY_LABEL] = w.pick(WORKLOAD_PRIORITIES)
    return labels


def job(w: World, namespace: str, queue: str, *, resources=("cpu",), priorities: bool = False,
        tolerations: list[dict] | None = None, partial: bool = False, topology: str | None = None,
        max_pods: int = 3) -> dict:
    pods = w.rng.randint(1, max_pods)
    meta: dict = {"name": w.new_name("job"), "namespace": namespace,
                  "labels": _labels(w, queue, priorities=priorities), "creationTimestamp": w.stamp()}
    if partial and pods > 1 and w.chance(0.7):
        meta["annotations"] = {MIN_PARALLELISM: str(w.rng.randint(1, pods - 1))}
    template: dict = {"spec": _pod_spec(w, _requests(w, resources), tolerations=tolerations,
                                        priority=w.pick(POD_PRIORITIES) if priorities and w.chance(0.4) else None)}
    if topology:
        template["metadata"] = {"annotations": topology_request(w, topology)}
    doc = {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta,
           "spec": {"parallelism": pods, "completions": pods, "suspend": True, "template": template}}
    w.manifests.append(doc)
    return doc


def topology_request(w: World, level: str) -> dict:
    kind = w.pick((TAS_REQUIRED, TAS_REQUIRED, TAS_PREFERRED, TAS_UNCONSTRAINED))
    return {kind: "true" if kind == TAS_UNCONSTRAINED else level}


def jobset(w: World, namespace: str, queue: str, *, priorities: bool = False) -> dict:
    replicated = []
    for i in range(w.rng.randint(1, 3)):
        pods = w.rng.randint(1, 2)
        replicated.append({"name": f"rj{i}", "replicas": w.rng.randint(1, 2),
                           "template": {"spec": {"parallelism": pods, "completions": pods, "template": {
                               "spec": _pod_spec(w, _requests(w, ("cpu",)))}}}})
    doc = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
           "metadata": {"name": w.new_name("js"), "namespace": namespace,
                        "labels": _labels(w, queue, priorities=priorities), "creationTimestamp": w.stamp()},
           "spec": {"suspend": True, "replicatedJobs": replicated}}
    w.manifests.append(doc)
    return doc


def admitted_workload(w: World, namespace: str, queue: str, cq: str, flavor_of: dict[str, str], requests: dict,
                      *, count: int = 1, priority: int = 0) -> dict:
    """A Workload written directly that already holds quota in `cq` (as `kubectl get workloads -o yaml` shows
    one admitted by Kueue): spec, status.admission and the QuotaReserved and Admitted conditions."""
    when = w.stamp()
    usage = {r: _times(q, count) for r, q in requests.items()}
    doc = kobj("Workload", w.new_name("running"), {
        "queueName": queue, "priority": priority,
        "podSets": [{"name": "main", "count": count, "template": {"spec": _pod_spec(w, requests)}}]},
        namespace=namespace,
        status={"admission": {"clusterQueue": cq, "podSetAssignments": [
            {"name": "main", "count": count, "flavors": {r: flavor_of[r] for r in requests},
             "resourceUsage": usage}]},
            "conditions": [
                {"type": t, "status": "True", "reason": t, "message": m, "lastTransitionTime": when}
                for t, m in (("QuotaReserved", f"Quota reserved in ClusterQueue {cq}"),
                             ("Admitted", "The workload is admitted"))]})
    doc["metadata"]["creationTimestamp"] = when
    w.cluster.append(doc)
    return doc


def _times(quantity: str, count: int) -> str:
    if quantity.endswith("m"):
        return f"{int(quantity[:-1]) * count}m"
    if quantity.endswith("Mi") or quantity.endswith("Gi"):
        return f"{int(quantity[:-2]) * count}{quantity[-2:]}"
    return str(int(quantity) * count)


# ---- nodes for TAS ----------------------------------------------------------------------------------------------

def tas_nodes(w: World, blocks: int, racks: int, hosts: int, group: str) -> None:
    cpu = w.pick(("4", "8"))
    for b in range(blocks):
        for r in range(racks):
            for h in range(hosts):
                name = f"b{b}-r{r}-n{h}"
                alloc = {"cpu": cpu, "memory": "32Gi", "pods": "110"}
                w.cluster.append({
                    "apiVersion": "v1", "kind": "Node",
                    "metadata": {"name": name, "labels": {"node-group": group, BLOCK: f"b{b}", RACK: f"b{b}-r{r}",
                                                          HOST: name}},
                    "status": {"capacity": dict(alloc), "allocatable": alloc,
                               "conditions": [{"type": "Ready", "status": "True"}]}})


# ---- themes -----------------------------------------------------------------------------------------------------

def _jobs(w: World, count: int, **features) -> None:
    queues = list(w.queues)
    for _ in range(count):
        ns, lq = w.pick(queues).split("/")
        job(w, ns, lq, **features)


def _quota(w: World) -> None:
    two = w.chance(0.5)
    flavors = [flavor(w, "default-flavor")] + ([flavor(w, "spare")] if two else [])
    for i in range(w.rng.randint(1, 3)):
        cq = f"cq-{i}"
        group = resource_group({f: {"cpu": quota(w.rng.randint(2, 8)), "memory": quota(f"{w.rng.randint(4, 16)}Gi")}
                                for f in flavors})
        cluster_queue(w, cq, [group], queueingStrategy=w.pick(("BestEffortFIFO", "StrictFIFO")))
        local_queue(w, w.pick(NAMESPACES), f"lq-{i}", cq)
    _jobs(w, w.rng.randint(3, 10), resources=("cpu", "memory"))


def _flavors(w: World) -> None:
    spot_taint = {"key": "spot", "value": "true", "effect": "NoSchedule"}
    flavor(w, "on-demand", labels={"instance": "on-demand"})
    flavor(w, "spot", labels={"instance": "spot"}, taint=spot_taint if w.chance(0.6) else None)
    flavor(w, "gpu", labels={"accelerator": "a100"},
           toleration={"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"})
    fungibility = {"whenCanBorrow": w.pick(("MayStopSearch", "TryNextFlavor")),
                   "whenCanPreempt": w.pick(("MayStopSearch", "TryNextFlavor"))}
    groups = [resource_group({"on-demand": {"cpu": quota(w.rng.randint(2, 6)), "memory": quota("8Gi")},
                              "spot": {"cpu": quota(w.rng.randint(2, 8)), "memory": quota("16Gi")}}),
              resource_group({"gpu": {"example.com/gpu": quota(w.rng.randint(1, 4))}})]
    cluster_queue(w, "cq", groups, flavorFungibility=fungibility if w.chance(0.7) else None)
    local_queue(w, "default", "lq", "cq")
    tolerate = [{"key": "spot", "operator": "Exists", "effect": "NoSchedule"}]
    for _ in range(w.rng.randint(3, 9)):
        job(w, "default", "lq", resources=("cpu", "memory", "example.com/gpu"),
            tolerations=tolerate if w.chance(0.5) else None)


def _cohort_groups(w: World, limits: bool) -> list[dict]:
    q = {"cpu": quota(w.rng.randint(2, 8), borrowing=w.rng.randint(0, 4) if limits and w.chance(0.4) else None,
                      lending=w.rng.randint(0, 4) if limits and w.chance(0.4) else None)}
    return [resource_group({"default-flavor": q})]


def _cohort(w: World) -> None:
    flavor(w, "default-flavor")
    for i in range(w.rng.randint(2, 4)):
        cluster_queue(w, f"cq-{i}", _cohort_groups(w, True), cohort="all",
                      queueingStrategy=w.pick(("BestEffortFIFO", "StrictFIFO")))
        local_queue(w, w.pick(NAMESPACES), f"lq-{i}", f"cq-{i}")
    _jobs(w, w.rng.randint(4, 12), max_pods=4)


def _hierarchy(w: World) -> None:
    flavor(w, "default-flavor")
    cohort(w, "root", groups=_cohort_groups(w, False) if w.chance(0.5) else None)
    leaves = []
    for i in range(w.rng.randint(2, 3)):
        name = f"mid-{i}"
        lend = w.rng.randint(0, 4) if w.chance(0.4) else None
        groups = [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(0, 4), lending=lend)}})]
        cohort(w, name, "root", groups if w.chance(0.6) else None)
        leaves.append(name)
        if w.chance(0.4):
            cohort(w, f"leaf-{i}", name)
            leaves.append(f"leaf-{i}")
    for i in range(w.rng.randint(3, 5)):
        cq = f"cq-{i}"
        cluster_queue(w, cq, _cohort_groups(w, True), cohort=w.pick(leaves))
        local_queue(w, w.pick(NAMESPACES), f"lq-{i}", cq)
    _jobs(w, w.rng.randint(4, 12), max_pods=4)


_POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")


def _preemption(w: World, cohort_policies: bool) -> dict:
    p = {"withinClusterQueue": w.pick(_POLICIES)}
    if cohort_policies:
        p["reclaimWithinCohort"] = w.pick(("Never", "LowerPriority", "Any"))
        borrow = w.pick(("Never", "LowerPriority"))
        p["borrowWithinCohort"] = {"policy": borrow}
        if borrow == "LowerPriority" and w.chance(0.5):
            p["borrowWithinCohort"]["maxPriorityThreshold"] = w.pick((100, 500))
    return p


def _running(w: World, cqs: list[str], *, count: int) -> None:
    lq_of = {cq: q for q, cq in reversed(list(w.queues.items()))}
    for _ in range(count):
        cq = w.pick(cqs)
        ns, lq = lq_of[cq].split("/")
        admitted_workload(w, ns, lq, cq, {"cpu": "default-flavor"}, {"cpu": w.pick(("1", "2", "2", "3"))},
                          count=w.rng.randint(1, 2), priority=w.pick((0, 10, 50, 500)))


def _priority(w: World) -> None:
    priority_classes(w)
    flavor(w, "default-flavor")
    cqs = [f"cq-{i}" for i in range(w.rng.randint(1, 2))]
    for cq in cqs:
        cluster_queue(w, cq, [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(4, 8))}})],
                      preemption=_preemption(w, False))
        local_queue(w, "default", f"lq-{cq}", cq)
    _running(w, cqs, count=w.rng.randint(1, 3))
    _jobs(w, w.rng.randint(2, 6), priorities=True)


def _reclaim(w: World) -> None:
    priority_classes(w)
    flavor(w, "default-flavor")
    cqs = [f"cq-{i}" for i in range(w.rng.randint(2, 3))]
    for cq in cqs:
        cluster_queue(w, cq, [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(2, 6))}})],
                      cohort="all", preemption=_preemption(w, True))
        local_queue(w, "default", f"lq-{cq}", cq)
    _running(w, cqs, count=w.rng.randint(2, 4))
    _jobs(w, w.rng.randint(2, 6), priorities=True, max_pods=2)


def _stop(w: World) -> None:
    namespaces(w, labelled=True)
    flavor(w, "default-flavor")
    selectors = [{}, {"matchLabels": {"team": "a"}}, {"matchExpressions": [{"key": "team", "operator": "Exists"}]}]
    for i in range(w.rng.randint(2, 3)):
        cq = cluster_queue(w, f"cq-{i}", [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(2, 8))}})],
                           stopPolicy=w.pick(("None", "None", "Hold", "HoldAndDrain")))
        cq["spec"]["namespaceSelector"] = w.pick(selectors)
        local_queue(w, w.pick(NAMESPACES), f"lq-{i}", f"cq-{i}",
                    stop=w.pick(("None", "Hold")) if w.chance(0.3) else None)
    if w.chance(0.3):
        cq = w.pick(["cq-0", "cq-1"])
        admitted_workload(w, *next(q.split("/") for q, c in w.queues.items() if c == cq), cq,
                          {"cpu": "default-flavor"}, {"cpu": "1"})
    _jobs(w, w.rng.randint(3, 8))
    if w.chance(0.4):
        job(w, "default", "no-such-queue")


def _tas(w: World) -> None:
    w.cluster.append(kobj("Topology", "dc", {"levels": [{"nodeLabel": BLOCK}, {"nodeLabel": RACK},
                                                        {"nodeLabel": HOST}]}))
    tas_nodes(w, w.rng.randint(1, 2), w.rng.randint(1, 3), w.rng.randint(1, 3), "tas")
    flavor(w, "tas", labels={"node-group": "tas"}, topology="dc")
    cluster_queue(w, "tas-cq", [resource_group({"tas": {"cpu": quota(w.rng.randint(8, 40))}})])
    local_queue(w, "default", "lq", "tas-cq")
    for _ in range(w.rng.randint(2, 6)):
        job(w, "default", "lq", topology=w.pick((BLOCK, RACK, RACK, HOST)), max_pods=5)


def _jobset(w: World) -> None:
    flavor(w, "default-flavor")
    for i in range(w.rng.randint(1, 2)):
        cluster_queue(w, f"cq-{i}", _cohort_groups(w, False), cohort="all")
        local_queue(w, "default", f"lq-{i}", f"cq-{i}")
    queues = [q.split("/")[1] for q in w.queues]
    for _ in range(w.rng.randint(2, 5)):
        if w.chance(0.6):
            jobset(w, "default", w.pick(queues))
        else:
            job(w, "default", w.pick(queues))


def _partial(w: World) -> None:
    flavor(w, "default-flavor")
    cluster_queue(w, "cq", [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(3, 10))}})])
    local_queue(w, "default", "lq", "cq")
    for _ in range(w.rng.randint(2, 6)):
        job(w, "default", "lq", partial=True, max_pods=6)


_STRATEGIES = (["LessThanOrEqualToFinalShare", "LessThanInitialShare"], ["LessThanOrEqualToFinalShare"],
               ["LessThanInitialShare"])
_WEIGHTS = (None, None, "1", "2", "500m", "0", "1.5")


def _configuration(w: World) -> None:
    """Kueue's Configuration enabling fair sharing (apis/config/v1beta2 and v1beta1), in the cluster files."""
    strategies = w.pick(_STRATEGIES)
    if w.chance(0.3):
        fs: dict = {"enable": True}
        if w.chance(0.6):
            fs["preemptionStrategies"] = strategies
        w.cluster.append({"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration", "fairSharing": fs})
    else:
        w.cluster.append({"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
                          "fairSharing": {"preemptionStrategies": strategies}})


def _weight(w: World) -> dict | None:
    weight = w.pick(_WEIGHTS)
    return {"weight": weight} if weight is not None else None


def _fair(w: World) -> None:
    _configuration(w)
    priority_classes(w)
    flavor(w, "default-flavor")
    parents = ["all"]
    if w.chance(0.5):
        cohort(w, "all", groups=_cohort_groups(w, False) if w.chance(0.4) else None)
        for i in range(w.rng.randint(1, 2)):
            cohort(w, f"mid-{i}", "all")
            parents.append(f"mid-{i}")
        for c in w.cluster:
            if c["kind"] == "Cohort" and (fs := _weight(w)):
                c["spec"]["fairSharing"] = fs
    cqs = [f"cq-{i}" for i in range(w.rng.randint(2, 4))]
    for cq in cqs:
        weight = _weight(w)
        # a zero-weight ClusterQueue that reclaims can evict a workload that then wins the tournament back, cycle
        # after cycle, in Kueue as in the model: such a queue never reclaims here, so every case settles
        reclaim = "Never" if weight == {"weight": "0"} else w.pick(("Never", "LowerPriority", "Any", "Any"))
        preemption = {"reclaimWithinCohort": reclaim, "withinClusterQueue": w.pick(_POLICIES)}
        cluster_queue(w, cq, [resource_group({"default-flavor": {"cpu": quota(w.rng.randint(2, 6))}})],
                      cohort=w.pick(parents), preemption=preemption, fairSharing=weight)
        local_queue(w, "default", f"lq-{cq}", cq)
    _running(w, cqs, count=w.rng.randint(2, 5))
    _jobs(w, w.rng.randint(2, 7), priorities=True, max_pods=2)


def _two_flavors(w: World, cpu: int, *, limits: bool) -> list[dict]:
    """on-demand and spot (half the CPUs), memory alongside; borrowing and lending limits on some CPU quotas
    (a lending limit at most the nominal quota, as Kueue's webhook requires)."""
    def cpu_quota(nominal: int) -> dict:
        return quota(nominal, borrowing=w.rng.randint(0, nominal + 2) if limits and w.chance(0.3) else None,
                     lending=w.rng.randint(0, nominal) if limits and w.chance(0.3) else None)
    return [resource_group({f: {"cpu": cpu_quota(n), "memory": quota(f"{n * 4}Gi")}
                            for f, n in (("on-demand", cpu), ("spot", max(1, cpu // 2)))})]


def _tree(w: World) -> None:
    """benchmarks/kueue.py's shape, small: a cohort tree (root, two orgs, departments under them) where the
    departments, and sometimes the orgs, hold quota of their own; ClusterQueues under the departments with quotas
    in two flavors, borrowing and lending limits, preemption within the queue and reclaim within the cohort; more
    demand than quota, so workloads borrow, are reclaimed, requeued and admitted again."""
    priority_classes(w)
    flavor(w, "on-demand", labels={"pool": "on-demand"})
    flavor(w, "spot", labels={"pool": "spot"})
    cohort(w, "root")
    depts = []
    for org in range(2):
        cohort(w, f"org-{org}", "root", _two_flavors(w, w.rng.randint(1, 3), limits=False) if w.chance(0.3) else None)
        for d in range(w.rng.randint(1, 2)):
            depts.append(f"dept-{org}-{d}")
            cohort(w, depts[-1], f"org-{org}", _two_flavors(w, w.rng.randint(1, 4), limits=False))
    for i in range(w.rng.randint(3, 5)):
        cq = f"cq-{i}"
        cluster_queue(w, cq, _two_flavors(w, w.rng.randint(2, 6), limits=True), cohort=depts[i % len(depts)],
                      preemption={"withinClusterQueue": "LowerPriority",
                                  "reclaimWithinCohort": w.pick(("Any", "Any", "LowerPriority"))})
        local_queue(w, w.pick(NAMESPACES), f"lq-{i}", cq)
    _jobs(w, w.rng.randint(8, 24), resources=("cpu", "memory"), priorities=True, max_pods=3)


def _pod_template(w: World, queue: str | None, *, priorities: bool) -> dict:
    spec = _pod_spec(w, _requests(w, ("cpu",)), priority=w.pick(POD_PRIORITIES) if priorities and w.chance(0.3)
                     else None)
    spec.pop("restartPolicy")
    return {"metadata": {"labels": {"app": w.new_name("app"), **({QUEUE_LABEL: queue} if queue else {})}},
            "spec": spec}


def _apps(w: World, kind: str, namespace: str, queue: str) -> None:
    """A Deployment or StatefulSet of one to three pods, queued by its own label or (a Deployment) its template's."""
    through_template = kind == "Deployment" and w.chance(0.3)
    labels = {} if through_template else _labels(w, queue, priorities=True)
    template = _pod_template(w, queue if through_template else None, priorities=True)
    spec = {"replicas": w.rng.randint(1, 3), "selector": {"matchLabels": dict(template["metadata"]["labels"])},
            "template": template}
    if kind == "StatefulSet":
        spec["serviceName"] = "svc"
    w.manifests.append({"apiVersion": "apps/v1", "kind": kind,
                        "metadata": {"name": w.new_name(kind.lower()), "namespace": namespace,
                                     **({"labels": labels} if labels else {}),
                                     "creationTimestamp": w.stamp(spec["replicas"])},
                        "spec": spec})


def _lws(w: World, namespace: str, queue: str) -> None:
    template = {"size": w.rng.randint(1, 3), "workerTemplate": _pod_template(w, None, priorities=True)}
    if template["size"] > 1 and w.chance(0.6):
        template["leaderTemplate"] = _pod_template(w, None, priorities=False)
    replicas = w.rng.randint(1, 2)
    w.manifests.append({"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
                        "metadata": {"name": w.new_name("lws"), "namespace": namespace,
                                     "labels": _labels(w, queue, priorities=True),
                                     "creationTimestamp": w.stamp(replicas)},
                        "spec": {"replicas": replicas, "leaderWorkerTemplate": template}})


def _plain_pods(w: World, namespace: str, queue: str) -> None:
    """A single plain pod, or a pod group of two or three pods in one or two roles."""
    size = w.pick((1, 2, 3))
    group = w.new_name("group") if size > 1 else None
    roles = [_pod_template(w, queue, priorities=True)["spec"] for _ in range(w.pick((1, 2)) if group else 1)]
    for i in range(size):
        meta = {"name": w.new_name("pod"), "namespace": namespace, "labels": {QUEUE_LABEL: queue},
                "creationTimestamp": w.stamp()}
        if group:
            meta["labels"]["kueue.x-k8s.io/pod-group-name"] = group
            meta["annotations"] = {"kueue.x-k8s.io/pod-group-total-count": str(size)}
        w.manifests.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": roles[i % len(roles)]})


def _pods(w: World) -> None:
    priority_classes(w)
    flavors = {flavor(w, "default-flavor"): None}
    if w.chance(0.5):
        flavors[flavor(w, "spot")] = None
    cluster_queue(w, "cq", [resource_group({f: {"cpu": quota(w.rng.randint(3, 10))} for f in flavors})],
                  preemption={"withinClusterQueue": "LowerPriority"} if w.chance(0.4) else None)
    local_queue(w, "default", "lq", "cq")
    makers = (lambda: _apps(w, "Deployment", "default", "lq"), lambda: _apps(w, "StatefulSet", "default", "lq"),
              lambda: _lws(w, "default", "lq"), lambda: _plain_pods(w, "default", "lq"),
              lambda: job(w, "default", "lq", priorities=True))
    for _ in range(w.rng.randint(3, 6)):
        w.pick(makers)()


_BUILD = {"quota": _quota, "flavors": _flavors, "cohort": _cohort, "hierarchy": _hierarchy, "priority": _priority,
          "reclaim": _reclaim, "stop": _stop, "tas": _tas, "jobset": _jobset, "partial": _partial,
          "fair": _fair, "tree": _tree, "pods": _pods}


def generate(seed: int, theme: str | None = None) -> KueueCase:
    """The case of `seed`: the theme cycles with the seed (seed % len(THEMES)) unless given."""
    rng = random.Random(f"kueue/{seed}")
    theme = theme or THEMES[seed % len(THEMES)]
    world = World(rng)
    _BUILD[theme](world)
    return KueueCase(seed, theme, world.cluster, world.manifests)

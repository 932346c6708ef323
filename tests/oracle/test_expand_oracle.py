"""Job expansion: wasplan's Job controller model against the release's own Job controller (oracle `expand`).

Generated Jobs cover Indexed and NonIndexed completion, every parallelism/completions relation, 1.37
`spec.scheduling` (none, basic, gang with and without minCount, a topology constraint, disruption modes) and
pod templates that bring their own schedulingGroup, and from 1.37 every sixth Job owned by a JobSet (1.38 manages
one with spec.scheduling), and from 1.38 every seventh Job delegating its PodGroup to a Workload of the input.
Compared per Job: how many Workloads, PodGroups and Pods
are created, each PodGroup's policy and minCount, which pods join the group, the completion indexes the pods
carry (names aside from upstream's suffixes), the pod fields copied from the template as the API server
defaults them: the scheduler name and the pod's effective request (requests from limits for every resource,
extended ones and hugepages included; init containers); and the priority each object carries: the
priorityClassName, priority and preemptionPolicy of the Workload's templates, of the PodGroup (as the server
defaults it) and of the pods (templates that name a class, and pods that say preemptionPolicy: Never).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import yaml

from tests.oracle.apicompare import load_list
from tests.oracle.conftest import API_RELEASES, require_release, run_oracle
from wasplan.api.convert import to_hub
from wasplan.api.quantity import parse_quantity
from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.controllers.job import INDEX_LABEL, expand_job
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Pod

RELATIONS = ((2, 2), (3, 5), (4, 2), (1, 1), (3, None), (5, 5))
# container resources the API server defaults: requests from limits, for every resource (extended included)
RESOURCES = ({"limits": {"cpu": "1"}}, {"limits": {"cpu": "2", "memory": "1Gi"}},
             {"limits": {"nvidia.com/gpu": "2", "cpu": "500m"}}, {"requests": {"cpu": "250m"}, "limits": {"cpu": "1"}},
             {"limits": {"example.com/fpga": "1", "hugepages-2Mi": "4Mi", "memory": "1Gi"}}, {})




def generated_jobs(seed: int, count: int, release: str) -> list[dict]:
    rng = random.Random(seed)
    jobs = []
    for n in range(count):
        parallelism, completions = rng.choice(RELATIONS)
        indexed = completions is not None and rng.random() < 0.6
        spec: dict = {"parallelism": parallelism, "template": {"spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "c", "image": "busybox", "resources": rng.choice(RESOURCES)}]}}}
        if rng.random() < 0.3:
            spec["template"]["spec"]["initContainers"] = [
                {"name": "init", "image": "busybox", "resources": rng.choice(RESOURCES)}]
        if completions is not None:
            spec["completions"] = completions
        if indexed:
            spec["completionMode"] = "Indexed"
        if rng.random() < 0.15:
            spec["template"]["spec"]["schedulingGroup"] = {"podGroupName": "byo"}
        if get_release(release).caps.job_scheduling_field and not (
                get_release(release).caps.job_scheduling_exclusive and "schedulingGroup" in spec["template"]["spec"]):
            choice = rng.choice(("none", "basic", "gang", "gang-min", "topology"))
            if choice != "none":
                policy = {"basic": {}} if choice == "basic" else {"gang": {}}
                if choice == "gang-min":
                    policy = {"gang": {"minCount": rng.randint(1, parallelism)}}
                scheduling: dict = {"schedulingPolicy": policy}
                if choice == "topology":
                    scheduling["schedulingConstraints"] = {"topology": [{"key": "topology.kubernetes.io/zone"}]}
                jobs_mode = rng.choice((None, "single", "all"))
                if jobs_mode and "gang" in policy:
                    scheduling["disruptionMode"] = {jobs_mode: {}}
                spec["scheduling"] = scheduling
        pod_spec = spec["template"]["spec"]
        if n == 0 or rng.random() < 0.4:  # the class is copied into the Workload's template and the PodGroup
            pod_spec["priorityClassName"] = rng.choice(("high", "never"))
        if n == 1 or rng.random() < 0.15:  # the pods' own preemptionPolicy is not
            pod_spec["preemptionPolicy"] = "Never"
        meta: dict = {"name": f"job-{n}", "namespace": "ml"}
        if n % 7 == 6 and get_release(release).caps.job_delegation:  # delegates to SHARED (no draw)
            meta["annotations"] = {"scheduling.k8s.io/workload-name": "shared",
                                   "scheduling.k8s.io/group-template-name": "workers"}
            spec.pop("scheduling", None)  # 1.38 refuses it together with the annotations
        if n % 6 == 5 and get_release(release).caps.child_jobs_get_no_workload:  # a JobSet's child Job (no draw)
            meta["ownerReferences"] = [{"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "name": "js",
                                        "uid": "js-uid", "controller": True}]
        jobs.append({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": spec})
    return jobs


# the Workload the delegating Jobs name (given to both: the oracle's fake API holds it from the start)
SHARED = {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "Workload", "metadata": {"name": "shared", "namespace": "ml"},
          "spec": {"podGroupTemplates": [{"name": "workers", "schedulingPolicy": {"gang": {"minCount": 2}},
                                          "schedulingConstraints": {"topology": [{"key": "rack"}]},
                                          "priorityClassName": "high"}]}}


def _summary_oracle(items: list[dict], job: str) -> dict:
    """What the controller created for one Job, in comparable terms."""
    pods = [i for i in items if i["kind"] == "Pod" and i["metadata"]["labels"].get("batch.kubernetes.io/job-name") == job]
    groups = [i for i in items if i["kind"] == "PodGroup" and
              any(o["kind"] == "Job" and o["name"] == job for o in i["metadata"].get("ownerReferences", []))]
    workloads = [i for i in items if i["kind"] == "Workload" and i["spec"]["controllerRef"]["name"] == job]
    group_names = {g["metadata"]["name"] for g in groups}
    return {
        "workloads": len(workloads), "podGroups": len(groups), "pods": len(pods),
        "policies": sorted(_policy(g["spec"]) for g in groups),
        "inGroup": Counter("own" if p["spec"].get("schedulingGroup", {}).get("podGroupName") in group_names
                           else "byo" if p["spec"].get("schedulingGroup") else "none" for p in pods),
        "indexes": sorted(p["metadata"]["labels"].get(INDEX_LABEL, "") for p in pods),
        "jobLabel": sorted({p["metadata"]["labels"].get("job-name", "") for p in pods}),
        "schedulerNames": sorted({p["spec"].get("schedulerName") for p in pods}),
        "requests": sorted({tuple(sorted(_effective(p["spec"]).items())) for p in pods}),
        "groupPriorities": sorted([_priority("Workload", t) for w in workloads for t in w["spec"]["podGroupTemplates"]]
                                  + [_priority("PodGroup", g["spec"]) for g in groups]),
        "podPriorities": sorted({(p["spec"].get("priorityClassName"), p["spec"].get("preemptionPolicy"))
                                 for p in pods}),
    }


def _priority(kind: str, spec: dict) -> tuple:
    return (kind, spec.get("priorityClassName"), spec.get("priority"), spec.get("preemptionPolicy"))


def _effective(spec: dict) -> dict[str, int]:
    """The pod's request from its defaulted containers (app containers summed, at least each init container's),
    in wasplan's units (milli-cpu, else whole units), plus the pod count."""
    def amounts(container: dict) -> dict[str, int]:
        out = {}
        for name, raw in ((container.get("resources") or {}).get("requests") or {}).items():
            quantity = parse_quantity(raw)
            out[name] = quantity.milli_value() if name == "cpu" else quantity.value()
        return out
    total: dict[str, int] = {}
    for container in spec["containers"]:
        for name, value in amounts(container).items():
            total[name] = total.get(name, 0) + value
    for container in spec.get("initContainers") or []:
        for name, value in amounts(container).items():
            total[name] = max(total.get(name, 0), value)
    return {**{k: v for k, v in total.items() if v}, "pods": 1}


def _policy(spec: dict) -> tuple:
    policy = spec.get("schedulingPolicy") or {}
    topology = tuple(t["key"] for t in (spec.get("schedulingConstraints") or {}).get("topology") or [])
    mode = spec.get("disruptionMode")
    mode = {"Pod": "single", "PodGroup": "all"}.get(mode) if isinstance(mode, str) else next(iter(mode or {}), None)
    if "gang" in policy:
        return ("gang", policy["gang"].get("minCount"), topology, mode)
    return ("basic", None, topology, mode)


def _summary_wasplan(job: dict, release: str) -> dict:
    gates = default_gates(get_release(release))
    records = expand_job(job, gates, Ctx(None), workloads={("ml", "shared"): to_hub(SHARED)})
    groups = [r for r in records if isinstance(r, Group) and type(r.obj).__name__ == "PodGroup"]
    workloads = [r for r in records if isinstance(r, Group) and type(r.obj).__name__ == "Workload"]
    # the 1.37 scheme defaults a PodGroup's policy (PodGroupPreemptionPolicy); 1.38 leaves it to admission, which
    # expand does not run
    pg_default = "PreemptLowerPriority" if gates.enabled("PodGroupPreemptionPolicy") and \
        not gates.release.caps.admission_fills_preemption_policy else None
    pods = [r for r in records if isinstance(r, Pod)]
    own = {g.name for g in groups}
    return {
        "workloads": len(workloads),
        "podGroups": len(groups), "pods": len(pods),
        "policies": sorted(_hub_policy(g.obj) for g in groups),
        "inGroup": Counter("own" if p.pod_group in own else "byo" if p.pod_group else "none" for p in pods),
        "indexes": sorted(p.labels.get(INDEX_LABEL, "") for p in pods),
        "jobLabel": sorted({p.labels.get("job-name", "") for p in pods}),
        "schedulerNames": sorted({p.scheduler_name for p in pods}),
        "requests": sorted({tuple(sorted((k, v) for k, v in p.requests.items() if v)) for p in pods}),
        "groupPriorities": sorted([_hub_priority("Workload", t, None) for w in workloads
                                   for t in w.obj.pod_group_templates]
                                  + [_hub_priority("PodGroup", g.obj, pg_default) for g in groups]),
        "podPriorities": sorted({(p.priority_class_name, p.preemption_policy) for p in pods}),
    }


def _hub_priority(kind: str, settings, default_policy: str | None) -> tuple:
    """A template's or PodGroup's class, priority and preemption policy; `default_policy`: what the server's
    defaulting writes into a PodGroup that has none (1.37 with PodGroupPreemptionPolicy)."""
    policy = settings.preemption_policy.value if settings.preemption_policy is not None else default_policy
    return (kind, settings.priority_class_name, settings.priority, policy)


def _hub_policy(group) -> tuple:
    gang = group.policy.kind.name == "GANG"
    # the API server defaults a PodGroup's disruption mode to single (1.36: Pod); compared after defaulting
    mode = "single" if group.disruption_mode is None else group.disruption_mode.name.lower()
    return ("gang" if gang else "basic", group.policy.min_count if gang else None, tuple(group.topology_keys), mode)


@pytest.mark.parametrize("release", API_RELEASES)
def test_generated_jobs_expand_as_the_job_controller_expands_them(oracle_bin, release, tmp_path, oracle_long):
    require_release(oracle_bin, release)
    count = 200 if oracle_long else 24
    jobs = generated_jobs(seed=22, count=count, release=release)
    stream = tmp_path / "jobs.yaml"
    shared = [SHARED] if get_release(release).caps.job_delegation else []
    stream.write_text(yaml.safe_dump_all([*jobs, *shared]))  # last: the Jobs keep their UIDs (job-uid-<n>)
    result = run_oracle(oracle_bin, ["expand", str(stream), "--k8s-version", release, "-o", "yaml"])
    assert result.returncode == 0, result.stderr[-2000:]
    items = load_list(result.stdout)
    mismatches = []
    for job in jobs:
        name = job["metadata"]["name"]
        server, ours = _summary_oracle(items, name), _summary_wasplan(job, release)
        if server != ours:
            mismatches.append(f"{name} {job['spec']}:\n  oracle  {server}\n  wasplan {ours}")
    print(f"\nexpand {release}: {len(jobs) - len(mismatches)}/{len(jobs)} Jobs agree")
    assert not mismatches, "\n".join(mismatches[:10])

"""PodGroups (gang and basic), topology constraints, workload-aware preemption and 1.37 CompositePodGroups.

The shapes follow the served APIs: 1.36 `scheduling.k8s.io/v1alpha2` (disruptionMode `Pod`/`PodGroup`), 1.37
`v1beta1` PodGroups (disruptionMode `{single: {}}`/`{all: {}}`) and `v1alpha3` for a CompositePodGroup tree,
which needs its Workload (`workloadRef` is required there). Members name their group in
`spec.schedulingGroup.podGroupName`; a group and its members carry the same priority class, as 1.37 requires
(upstream pkg/scheduler/schedule_one_podgroup.go validates it per cycle).
"""

from __future__ import annotations

from wasplan.api.releases import capabilities

from .core import HOST, RACK, ZONE, World, pending_pod, pod, requests

GROUP_API = {"1.36": "scheduling.k8s.io/v1alpha2", "1.37": "scheduling.k8s.io/v1beta1",
             "1.38": "scheduling.k8s.io/v1beta1"}
TREE_API = "scheduling.k8s.io/v1alpha3"


def _disruption(w: World, mode: str) -> object:
    if w.release == "1.36":
        return {"single": "Pod", "all": "PodGroup"}[mode]
    return {mode: {}}


def pod_group(w: World, name: str, *, gang: int | None, topology: str | None = None, priority: str | None = None,
              disruption: str | None = None, api: str | None = None, workload: tuple[str, str] | None = None,
              parent: str | None = None) -> dict:
    spec: dict = {}
    if workload:
        if w.release == "1.36":
            spec["podGroupTemplateRef"] = {"workload": {"workloadName": workload[0],
                                                        "podGroupTemplateName": workload[1]}}
        else:
            spec["workloadRef"] = {"workloadName": workload[0], "templateName": workload[1]}
    if parent:
        spec["parentCompositePodGroupName"] = parent
    spec["schedulingPolicy"] = {"gang": {"minCount": gang}} if gang else {"basic": {}}
    if topology:
        spec["schedulingConstraints"] = {"topology": [{"key": topology}]}
    if priority:
        spec["priorityClassName"] = priority
    if disruption == "all" and not gang and capabilities(w.release).all_disruption_needs_gang:
        disruption = "single"  # 1.38 refuses `all` on a group that is not a gang (WAS260); the draw stays the same
    if disruption:
        spec["disruptionMode"] = _disruption(w, disruption)
    return {"apiVersion": api or GROUP_API[w.release], "kind": "PodGroup",
            "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def members(w: World, group: str, count: int, *, priority: str | None, node_features: bool = True,
            uniform: bool = True) -> list[dict]:
    """`count` pending pods of `group`; `uniform` gives them one shape (a gang's usual case)."""
    shape = requests(w, empty=0.0)
    out = []
    for i in range(count):
        p = pending_pod(w, selectors=node_features, taints=node_features, prefix=f"{group}-m")
        p["metadata"]["name"] = f"{group}-{i}"
        if uniform:
            p["spec"]["containers"][0]["resources"] = {"requests": dict(shape)}
        p["spec"].pop("priorityClassName", None)
        if priority:
            p["spec"]["priorityClassName"] = priority
        p["spec"]["schedulingGroup"] = {"podGroupName": group}
        out.append(p)
    return out


def gangs(w: World, count: int, *, topology: bool = False, priorities: bool = False) -> None:
    for g in range(count):
        name = f"g{g}"
        size = w.rng.randint(2, 5)
        gang = w.pick((size, size, max(1, size - 1), None))
        priority = w.pick(("low", "mid", "high")) if priorities and w.chance(0.7) else None
        key = w.pick((RACK, ZONE)) if topology and w.chance(0.7) else None
        w.manifests.append(pod_group(w, name, gang=gang, topology=key, priority=priority))
        count_members = size if w.chance(0.85) else max(1, size - 1)  # sometimes below quorum: gated
        w.manifests.extend(members(w, name, count_members, priority=priority, uniform=w.chance(0.7)))


def running_groups(w: World, count: int) -> None:
    """Low-priority groups already bound, each with a disruption mode, as workload-aware preemption's victims."""
    for g in range(count):
        name = f"run-g{g}"
        size = w.rng.randint(2, 3)
        w.cluster.append(pod_group(w, name, gang=size if w.chance(0.7) else None, priority="low",
                                   disruption=w.pick(("single", "all"))))
        for i in range(size):
            w.seq += 1
            p = pod(w, f"{name}-{i}", requests(w, empty=0.0), app=w.pick(("web", "db")), priority="low",
                    node=w.pick(w.node_names))
            p["metadata"]["creationTimestamp"] = f"2026-01-01T00:{w.seq // 60:02d}:{w.seq % 60:02d}Z"
            p["status"] = {"phase": "Running", "startTime": f"2026-01-01T01:{w.rng.randint(0, 59):02d}:00Z"}
            p["spec"]["schedulingGroup"] = {"podGroupName": name}
            w.cluster.append(p)


def preempting_groups(w: World, count: int) -> None:
    for g in range(count):
        name = f"hi-g{g}"
        size = w.rng.randint(2, 4)
        w.manifests.append(pod_group(w, name, gang=size if w.chance(0.7) else None, priority="high",
                                     disruption=w.pick(("single", "all", None))))
        w.manifests.extend(members(w, name, size, priority="high", node_features=False))


def composite_tree(w: World, index: int) -> None:
    """A two-level tree (1.37): a CompositePodGroup over 2-3 gang PodGroups, with its Workload."""
    workload, root = f"wl{index}", f"wl{index}-root"
    children = w.rng.randint(2, 3)
    root_gang = w.pick((children, children - 1, None))
    key = w.pick((RACK, ZONE, None))
    child_key = w.pick((HOST, RACK, None)) if key != RACK else w.pick((HOST, None))
    size = w.rng.randint(1, 3)
    child_template = {"name": "shard", "schedulingPolicy": {"gang": {"minCount": size}}}
    if child_key:
        child_template["schedulingConstraints"] = {"topology": [{"key": child_key}]}
    root_template: dict = {"name": "root", "schedulingPolicy": ({"gang": {"minGroupCount": root_gang}} if root_gang
                                                               else {"basic": {}}),
                           "podGroupTemplates": [child_template]}
    if key:
        root_template["schedulingConstraints"] = {"topology": [{"key": key}]}
    w.manifests.append({"apiVersion": TREE_API, "kind": "Workload",
                        "metadata": {"name": workload, "namespace": "default"},
                        "spec": {"compositePodGroupTemplates": [root_template]}})
    cpg_spec: dict = {"workloadRef": {"workloadName": workload, "templateName": "root"},
                      "schedulingPolicy": root_template["schedulingPolicy"]}
    if key:
        cpg_spec["schedulingConstraints"] = {"topology": [{"key": key}]}
    w.manifests.append({"apiVersion": TREE_API, "kind": "CompositePodGroup",
                        "metadata": {"name": root, "namespace": "default"}, "spec": cpg_spec})
    for c in range(children):
        name = f"{root}-{c}"
        w.manifests.append(pod_group(w, name, gang=size, topology=child_key, api=TREE_API,
                                     workload=(workload, "shard"), parent=root))
        w.manifests.extend(members(w, name, size, priority=None, node_features=False))

"""The cluster after a plan as ordinary Kubernetes objects (`--emit-snapshot`), which `--cluster` reads back: Nodes,
PriorityClasses, Workloads and PodGroups (at the release's served versions, with their conditions), every Pod
(placed ones with `spec.nodeName`, preempted ones gone), PodDisruptionBudgets, and the DRA objects (dra_objects.py,
the same serialiser's DRA half). The report layer only dumps what `snapshot_objects` returns.

Output is deterministic: same plan, same objects. Conditions the scheduler writes get a fixed lastTransitionTime
(the Unix epoch) because a plan has no wall clock.
"""

from __future__ import annotations

import copy
import dataclasses

from wasplan.api import hub
from wasplan.api.convert import from_hub
from wasplan.api.releases import Release
from wasplan.cluster.api_objects import node_term_object, requirement_object, stable_uid
from wasplan.cluster.model import CPU, Group, Node, Pod, PriorityClass

PLAN_EPOCH = "1970-01-01T00:00:00Z"
_OWNER_API = {"Job": "batch/v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1"}


def _quantity(name: str, amount: int) -> str:
    return f"{amount}m" if name == CPU else str(amount)


def node_object(node: Node) -> dict:
    amounts = {k: _quantity(k, v) for k, v in sorted(node.allocatable.items())}
    spec: dict = {}
    if node.taints:
        spec["taints"] = [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect}
                          for t in node.taints]
    if node.unschedulable:
        spec["unschedulable"] = True
    status: dict = {"capacity": amounts, "allocatable": dict(amounts)}
    if node.images:  # ImageLocality reads them
        status["images"] = [{"names": list(i.names), "sizeBytes": i.size} for i in node.images]
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": node.name, "labels": dict(node.labels)},
            "spec": spec, "status": status}


def priority_class_object(pc: PriorityClass) -> dict:
    out = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": pc.name},
           "value": pc.value, "preemptionPolicy": pc.preemption_policy}
    if pc.global_default:
        out["globalDefault"] = True
    return out


def _with_times(obj):
    conds = getattr(obj, "conditions", None)
    if not conds:
        return obj
    fixed = tuple(c if c.last_transition_time else
                  dataclasses.replace(c, last_transition_time=PLAN_EPOCH, message=c.message or "")
                  for c in conds)
    return dataclasses.replace(obj, conditions=fixed)


owner_uid = stable_uid  # a stable stand-in for an owner's uid: same owner, same uid


def _owner_uids(meta: dict, namespace: str) -> None:
    for ref in meta.get("ownerReferences") or ():
        if isinstance(ref, dict) and not ref.get("uid"):
            ref["uid"] = owner_uid(namespace, str(ref.get("kind")), str(ref.get("name")))


def group_object(group: Group, release: Release) -> dict:
    kind = type(group.obj).__name__
    version = release.preferred[kind]
    out, _ = from_hub(_with_times(group.obj), version, allow_lossy=True, keep_status=True)
    meta = out.setdefault("metadata", {})
    meta["name"], meta["namespace"] = group.name, group.namespace
    _owner_uids(meta, group.namespace)
    return out


def _selector(sel) -> dict | None:
    if sel is None:
        return None
    out: dict = {}
    if sel.match_labels:
        out["matchLabels"] = dict(sel.match_labels)
    if sel.match_expressions:
        out["matchExpressions"] = [requirement_object(r) for r in sel.match_expressions]
    return out


def _pod_term(t) -> dict:
    out: dict = {"topologyKey": t.topology_key}
    for key, value in (("labelSelector", _selector(t.label_selector)), ("namespaces", list(t.namespaces)),
                       ("namespaceSelector", _selector(t.namespace_selector)),
                       ("matchLabelKeys", list(t.match_label_keys)), ("mismatchLabelKeys", list(t.mismatch_label_keys))):
        if value or value == {}:
            out[key] = value
    return out


def _affinity(a) -> dict:
    out: dict = {}
    node: dict = {}
    if a.node_required is not None:
        node["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [node_term_object(t) for t in a.node_required]}
    if a.node_preferred:
        node["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": p.weight, "preference": node_term_object(p.term)} for p in a.node_preferred]
    if node:
        out["nodeAffinity"] = node
    for key, required, preferred in (("podAffinity", a.pod_required, a.pod_preferred),
                                     ("podAntiAffinity", a.anti_required, a.anti_preferred)):
        part: dict = {}
        if required:
            part["requiredDuringSchedulingIgnoredDuringExecution"] = [_pod_term(t) for t in required]
        if preferred:
            part["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": w.weight, "podAffinityTerm": _pod_term(w.term)} for w in preferred]
        if part:
            out[key] = part
    return out


def _spread(c) -> dict:
    out = {"maxSkew": c.max_skew, "topologyKey": c.topology_key, "whenUnsatisfiable": c.when_unsatisfiable,
           "nodeAffinityPolicy": c.node_affinity_policy, "nodeTaintsPolicy": c.node_taints_policy}
    if c.label_selector is not None:
        out["labelSelector"] = _selector(c.label_selector)
    if c.min_domains is not None:
        out["minDomains"] = c.min_domains
    if c.match_label_keys:
        out["matchLabelKeys"] = list(c.match_label_keys)
    return out


def _container(pod: Pod) -> dict:
    """The one container of a synthesised pod, as the API server accepts it: the pod count the planner keeps
    among the requests is not a container resource, and a resource that cannot be overcommitted (extended,
    hugepages) carries a limit equal to its request (pkg/apis/core/validation validateResourceRequirements)."""
    requests = {k: _quantity(k, v) for k, v in sorted(pod.requests.items()) if v and k != "pods"}
    resources: dict = {"requests": requests}
    limits = {k: v for k, v in requests.items()
              if ("/" in k and "kubernetes.io/" not in k) or k.startswith("hugepages-")}
    if limits:
        resources["limits"] = limits
    out: dict = {"name": "main", "image": "registry.k8s.io/pause:3.10", "resources": resources}
    if pod.host_ports:
        out["ports"] = [{"containerPort": p.port, "hostPort": p.port, "protocol": p.protocol,
                         **({"hostIP": p.host_ip} if p.host_ip not in ("", "0.0.0.0") else {})}
                        for p in pod.host_ports]
    return out


def _synthesised_pod(pod: Pod) -> dict:
    """A pod the inputs did not spell out (Job controller output, the Cluster kind): one container carrying the
    effective requests, plus every field the scheduler reads."""
    spec: dict = {"schedulerName": pod.scheduler_name, "containers": [_container(pod)]}
    for key, value in (("priorityClassName", pod.priority_class_name), ("priority", pod.priority),
                       ("preemptionPolicy", pod.preemption_policy),
                       ("nodeSelector", dict(pod.node_selector)),
                       ("affinity", _affinity(pod.affinity) if pod.affinity else None),
                       ("tolerations", [{k: v for k, v in (("key", t.key), ("operator", t.operator),
                                                           ("value", t.value), ("effect", t.effect),
                                                           ("tolerationSeconds", t.toleration_seconds))
                                         if v is not None and v != ""}
                                        for t in pod.tolerations]),
                       ("topologySpreadConstraints", [_spread(c) for c in pod.topology_spread]),
                       ("schedulingGates", [{"name": g} for g in pod.scheduling_gates]),
                       ("schedulingGroup", {"podGroupName": pod.pod_group} if pod.pod_group else None)):
        if value is not None and value != [] and value != {}:
            spec[key] = value
    meta: dict = {"name": pod.name, "namespace": pod.namespace}
    if pod.labels:
        meta["labels"] = dict(pod.labels)
    if pod.owner:
        ctl = pod.owner.controller  # the direct controller: the Job of a JobSet pod, a Deployment's ReplicaSet
        meta["ownerReferences"] = [{"apiVersion": _OWNER_API.get(ctl.kind, "v1"), "kind": ctl.kind, "name": ctl.name,
                                    "controller": True, "uid": owner_uid(pod.namespace, ctl.kind, ctl.name)}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def pod_object(pod: Pod) -> dict:
    source = getattr(pod, "source", None)
    raw = getattr(source, "obj", None)
    if isinstance(raw, dict) and raw.get("kind") == "Pod":
        out = copy.deepcopy(raw)
        if pod.scheduling_gates:  # as written, plus a gate the plan leaves on it (Kueue's admission gate)
            out.setdefault("spec", {})["schedulingGates"] = [{"name": g} for g in pod.scheduling_gates]
    else:
        out = _synthesised_pod(pod)
    if pod.node_name:
        out.setdefault("spec", {})["nodeName"] = pod.node_name
    if pod.resource_claims:
        _claims_of(pod, out)
    return out


def _claims_of(pod: Pod, out: dict) -> None:
    """spec.resourceClaims of a synthesised pod, and status.resourceClaimStatuses as the controller wrote them."""
    spec = out.setdefault("spec", {})
    entries = [c for c in pod.resource_claims if not c.name.startswith("<")]  # not the scheduler's in-memory one
    if "resourceClaims" not in spec and entries:
        spec["resourceClaims"] = [{"name": c.name, **({"resourceClaimName": c.claim_name} if c.claim_name else
                                                      {"resourceClaimTemplateName": c.template_name})}
                                  for c in entries]
    named = [{"name": c.name, "resourceClaimName": c.generated} for c in pod.resource_claims if c.generated]
    if named:
        out.setdefault("status", {})["resourceClaimStatuses"] = named


def snapshot_objects(final, release: Release) -> list[dict]:
    objs = [node_object(n) for n in final.nodes]
    objs += [priority_class_object(pc) for pc in sorted(final.priority_classes, key=lambda p: p.name)]
    order = {hub.Workload: 0, hub.CompositePodGroup: 1, hub.PodGroup: 2}
    for g in sorted(final.groups, key=lambda g: order[type(g.obj)]):
        if isinstance(g.obj, hub.CompositePodGroup) and "CompositePodGroup" not in release.preferred:
            continue
        objs.append(group_object(g, release))
    objs += [pdb_object(b) for b in getattr(final, "pdbs", ())]
    objs += _dra_objects(final)
    objs += [pod_object(p) for p in final.pods]
    return objs


def _dra_objects(final) -> list[dict]:
    """DeviceClasses, ResourceSlices, DeviceTaintRules, ResourceClaimTemplates, then every claim with its status
    (the DRA writer loads only for a plan that has any)."""
    records = (*final.dra_inputs, *final.claims)
    if not records:
        return []
    from wasplan.cluster.dra_objects import dra_object

    return [dra_object(r) for r in records]


def pdb_object(pdb) -> dict:
    """A PodDisruptionBudget as the snapshot read it, without status: disruptionsAllowed is recomputed."""
    spec: dict = {"selector": _selector(pdb.selector) or {}}
    for key, value in (("minAvailable", pdb.min_available), ("maxUnavailable", pdb.max_unavailable)):
        if value is not None:
            spec[key] = value
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": pdb.name, "namespace": pdb.namespace}, "spec": spec}

"""Dynamic Resource Allocation objects for generated cases (resource.k8s.io/v1).

Per node a driver publishes a few GPUs (attributes `model`, `index`; capacity `memory`), some nodes publish a
partitionable accelerator (a counter set in one slice, a whole device and two halves consuming it in another, as
KEP-4815 lays them out), some devices carry a taint, and one network-attached pool is reachable from the nodes
of one zone (a slice with `nodeSelector` instead of `nodeName`). Requests use CEL selectors, `count`,
`allocationMode: All`, `firstAvailable` subrequests, `adminAccess` (in a namespace labelled for it) and device
tolerations; claims come as ResourceClaims, ResourceClaimTemplates, PodGroup-level claims and as extended
resources backed by a DeviceClass (`extendedResourceName`). Field meanings: upstream
staging/src/k8s.io/api/resource/v1/types.go; allocation: staging/src/k8s.io/dynamic-resource-allocation/
structured/.
"""

from __future__ import annotations

from .core import ZONE, World, pending_pod
from .groups import members, pod_group

API = "resource.k8s.io/v1"
GPU, NET = "gpu.example.com", "net.example.com"
MODELS = ("a100", "h100")
ADMIN_NS = "admin"


def classes(w: World) -> None:
    w.cluster.append({"apiVersion": API, "kind": "DeviceClass", "metadata": {"name": GPU},
                      "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{GPU}"'}}]}})
    w.cluster.append({"apiVersion": API, "kind": "DeviceClass", "metadata": {"name": NET},
                      "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{NET}"'}}]}})
    w.cluster.append({"apiVersion": API, "kind": "DeviceClass", "metadata": {"name": "gpu-extended"},
                      "spec": {"extendedResourceName": "example.com/gpu",
                               "selectors": [{"cel": {"expression": f'device.driver == "{GPU}"'}}]}})
    w.cluster.append({"apiVersion": "v1", "kind": "Namespace",
                      "metadata": {"name": ADMIN_NS, "labels": {"resource.kubernetes.io/admin-access": "true"}}})
    w.cluster.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}})


def _slice(name: str, node: str | None, pool: str, count: int, driver: str = GPU) -> dict:
    spec: dict = {"driver": driver, "pool": {"name": pool, "generation": 1, "resourceSliceCount": count}}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": API, "kind": "ResourceSlice", "metadata": {"name": name}, "spec": spec}


def slices(w: World) -> None:
    for node in w.node_names:
        if w.chance(0.25):
            continue  # a node without devices
        partitioned = w.chance(0.3)
        s = _slice(f"{node}-gpus", node, node, 2 if partitioned else 1)
        devices = []
        for i in range(w.rng.randint(1, 4)):
            d = {"name": f"gpu-{i}", "attributes": {"model": {"string": w.pick(MODELS)}, "index": {"int": i}},
                 "capacity": {"memory": {"value": w.pick(("40Gi", "80Gi"))}}}
            if w.chance(0.15):
                d["taints"] = [{"key": "example.com/unhealthy", "value": "true", "effect": "NoSchedule"}]
            devices.append(d)
        if partitioned:
            counters = _slice(f"{node}-counters", node, node, 2)
            counters["spec"]["sharedCounters"] = [{"name": "acc", "counters": {"memory": {"value": "8Gi"}}}]
            w.cluster.append(counters)
            devices += [{"name": "whole", "attributes": {"model": {"string": "part"}},
                         "consumesCounters": [{"counterSet": "acc", "counters": {"memory": {"value": "8Gi"}}}]}]
            devices += [{"name": f"half-{i}", "attributes": {"model": {"string": "part"}},
                         "consumesCounters": [{"counterSet": "acc", "counters": {"memory": {"value": "4Gi"}}}]}
                        for i in range(2)]
        s["spec"]["devices"] = devices
        w.cluster.append(s)
    net = _slice("net-pool", None, "net", 1, NET)
    zone = w.nodes[0]["metadata"]["labels"][ZONE]
    net["spec"]["nodeSelector"] = {"nodeSelectorTerms": [{"matchExpressions": [
        {"key": ZONE, "operator": "In", "values": [zone]}]}]}
    net["spec"]["devices"] = [{"name": f"nic-{i}", "attributes": {"speed": {"int": w.pick((10, 100))}}}
                              for i in range(w.rng.randint(1, 3))]
    w.cluster.append(net)


def _exactly(w: World) -> dict:
    ex: dict = {"deviceClassName": GPU}
    roll = w.rng.random()
    if roll < 0.4:
        ex["selectors"] = [{"cel": {"expression": f'device.attributes["{GPU}"].model == "{w.pick(MODELS)}"'}}]
    elif roll < 0.55:
        ex["selectors"] = [{"cel": {"expression": f'device.capacity["{GPU}"].memory.compareTo(quantity("80Gi")) >= 0'}}]
    elif roll < 0.65:
        ex["selectors"] = [{"cel": {"expression": f'device.attributes["{GPU}"].model == "part"'}}]
    if w.chance(0.1):
        ex["allocationMode"] = "All"
    elif w.chance(0.3):
        ex["count"] = w.rng.randint(2, 3)
    if w.chance(0.2):
        ex["tolerations"] = [{"key": "example.com/unhealthy", "operator": "Exists", "effect": "NoSchedule"}]
    return ex


def _request(w: World, i: int) -> dict:
    if w.chance(0.15):
        return {"name": f"r{i}", "exactly": {"deviceClassName": NET}}
    if w.chance(0.2):
        return {"name": f"r{i}", "firstAvailable": [
            {"name": "big", "deviceClassName": GPU,
             "selectors": [{"cel": {"expression": f'device.attributes["{GPU}"].model == "h100"'}}]},
            {"name": "any", "deviceClassName": GPU, "count": w.rng.randint(1, 2)}]}
    return {"name": f"r{i}", "exactly": _exactly(w)}


def claim_spec(w: World) -> dict:
    return {"devices": {"requests": [_request(w, i) for i in range(w.rng.randint(1, 2))]}}


def _uses(pod: dict, entry: dict) -> None:
    pod["spec"].setdefault("resourceClaims", []).append(entry)
    pod["spec"]["containers"][0].setdefault("resources", {}).setdefault("claims", []).append({"name": entry["name"]})


def workload(w: World, pods: int, groups: int) -> None:
    templates = []
    for t in range(2):
        templates.append({"apiVersion": API, "kind": "ResourceClaimTemplate",
                          "metadata": {"name": f"tpl-{t}", "namespace": "default"}, "spec": {"spec": claim_spec(w)}})
    w.manifests.extend(templates)
    shared = 0
    for _ in range(pods):
        p = pending_pod(w, selectors=True)
        roll = w.rng.random()
        if roll < 0.45:
            _uses(p, {"name": "dev", "resourceClaimTemplateName": w.pick(("tpl-0", "tpl-1"))})
        elif roll < 0.7:
            shared += 1
            name = f"claim-{shared}"
            w.manifests.append({"apiVersion": API, "kind": "ResourceClaim",
                                "metadata": {"name": name, "namespace": "default"}, "spec": claim_spec(w)})
            _uses(p, {"name": "dev", "resourceClaimName": name})
        elif roll < 0.85:
            amount = str(w.rng.randint(1, 2))
            res = p["spec"]["containers"][0].setdefault("resources", {})
            res.setdefault("requests", {})["example.com/gpu"] = amount
            res.setdefault("limits", {})["example.com/gpu"] = amount
        else:
            p["metadata"]["namespace"] = ADMIN_NS
            name = f"admin-{p['metadata']['name']}"
            w.manifests.append({"apiVersion": API, "kind": "ResourceClaim",
                                "metadata": {"name": name, "namespace": ADMIN_NS},
                                "spec": {"devices": {"requests": [{"name": "r0", "exactly": {
                                    "deviceClassName": GPU, "adminAccess": True}}]}}})
            _uses(p, {"name": "dev", "resourceClaimName": name})
        w.manifests.append(p)
    for g in range(groups):
        name = f"dg{g}"
        group = pod_group(w, name, gang=w.pick((2, None)))
        claim = {"name": "shared", "resourceClaimTemplateName": "tpl-0"}
        group["spec"]["resourceClaims"] = [claim]
        w.manifests.append(group)
        for m in members(w, name, w.rng.randint(2, 3), priority=None, node_features=False):
            _uses(m, dict(claim))
            w.manifests.append(m)

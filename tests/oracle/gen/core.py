"""Nodes, running pods, pending pods, PriorityClasses and PodDisruptionBudgets for generated cases.

`World` holds one case's random source and what has been made so far (node names and labels, priority classes),
so that every selector, toleration and affinity term it writes refers to labels and keys that exist, some of the
time, and to ones that do not, the rest of the time. The plugin features follow the fields upstream's plugins
read (pkg/scheduler/framework/plugins/{noderesources,tainttoleration,nodeaffinity,interpodaffinity,
podtopologyspread,nodeunschedulable}); the objects are ordinary v1 objects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

ZONE, RACK, HOST, DISK = "topology.kubernetes.io/zone", "example.com/rack", "kubernetes.io/hostname", "disktype"
EXTENDED = "example.com/foo"
APPS = ("web", "db", "cache")
PRIORITIES = {"low": 10, "mid": 100, "high": 1000}
CPUS = ("100m", "250m", "500m", "1", "2")
MEMS = ("128Mi", "512Mi", "1Gi", "2Gi")


@dataclass
class World:
    rng: random.Random
    release: str
    nodes: list[dict] = field(default_factory=list)
    cluster: list[dict] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)
    seq: int = 0  # running pods' creation order
    counter: int = 0  # pending pods' names

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(list(seq))

    @property
    def node_names(self) -> list[str]:
        return [n["metadata"]["name"] for n in self.nodes]

    def new_name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter}"


def priority_classes(w: World) -> None:
    for name, value in PRIORITIES.items():
        w.cluster.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
                          "value": value})
    w.cluster.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high-never"},
                      "value": 1000, "preemptionPolicy": "Never"})


def make_nodes(w: World, count: int, *, taints: bool = False, unschedulable: bool = False,
               extended: bool = False, racks: int = 0, small: bool = False) -> None:
    zones = w.rng.randint(2, 3)
    for i in range(count):
        name = f"n{i}"
        labels = {HOST: name, ZONE: f"z{i % zones}", DISK: w.pick(("ssd", "hdd"))}
        if racks:
            labels[RACK] = f"r{i % racks}"
        elif w.chance(0.7):
            labels[RACK] = f"r{i // 2}"
        alloc = {"cpu": w.pick(("2", "2", "3") if small else ("2", "4", "4", "8")),
                 "memory": w.pick(("4Gi", "8Gi") if small else ("4Gi", "8Gi", "16Gi")),
                 "pods": w.pick(("110", "110", "110", "4"))}
        if extended and w.chance(0.5):
            alloc[EXTENDED] = str(w.rng.randint(1, 4))
        node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                "spec": {}, "status": {"capacity": dict(alloc), "allocatable": alloc}}
        if taints and w.chance(0.35):
            node["spec"]["taints"] = [{"key": "dedicated", "value": w.pick(("infra", "gpu")),
                                       "effect": w.pick(("NoSchedule", "PreferNoSchedule", "NoExecute"))}]
        if unschedulable and w.chance(0.2):
            node["spec"]["unschedulable"] = True
        if not node["spec"]:
            del node["spec"]
        w.nodes.append(node)
        w.cluster.append(node)


def requests(w: World, extended: bool = False, empty: float = 0.1) -> dict:
    if w.chance(empty):
        return {}
    req = {"cpu": w.pick(CPUS), "memory": w.pick(MEMS)}
    if extended and w.chance(0.4):
        req[EXTENDED] = str(w.rng.randint(1, 2))
    return req


def resources(req: dict) -> dict:
    """A container's resources as the API server accepts them: an extended resource cannot be overcommitted, so
    its limit is written and equals the request (pkg/apis/core/validation)."""
    out: dict = {"requests": dict(req)}
    extended = {k: v for k, v in req.items() if "/" in k}
    if extended:
        out["limits"] = extended
    return out


def pod(w: World, name: str, req: dict, *, app: str | None = None, priority: str | None = None,
        node: str | None = None) -> dict:
    container = {"name": "main", "image": f"example.com/{app or 'app'}:1"}
    if req:
        container["resources"] = resources(req)
    labels = {"app": app} if app else {}
    spec: dict = {"containers": [container]}
    if priority:
        spec["priorityClassName"] = priority
    if node:
        spec["nodeName"] = node
    out = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}
    if labels:
        out["metadata"]["labels"] = labels
    return out


def running_pods(w: World, count: int, *, priorities: bool = False, anti_affinity: bool = False) -> list[dict]:
    """Pods already bound; each is started at a random time (status.startTime), created in input order."""
    made = []
    for _ in range(count):
        w.seq += 1
        node = w.pick(w.node_names)
        p = pod(w, f"run-{w.seq}", requests(w, empty=0.0), app=w.pick(APPS),
                priority=w.pick(("low", "mid")) if priorities else None, node=node)
        p["metadata"]["creationTimestamp"] = f"2026-01-01T00:{w.seq // 60:02d}:{w.seq % 60:02d}Z"
        p["status"] = {"phase": "Running", "startTime": f"2026-01-01T01:{w.rng.randint(0, 59):02d}:00Z"}
        if anti_affinity and w.chance(0.3):
            p["spec"]["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": w.pick(APPS)}}, "topologyKey": w.pick((HOST, ZONE))}]}}
        made.append(p)
        w.cluster.append(p)
    return made


def tolerations(w: World) -> list[dict]:
    out = []
    for _ in range(w.rng.randint(1, 2)):
        t = {"key": "dedicated"}
        if w.chance(0.5):
            t.update(operator="Equal", value=w.pick(("infra", "gpu")))
        else:
            t["operator"] = "Exists"
        if w.chance(0.6):
            t["effect"] = w.pick(("NoSchedule", "PreferNoSchedule", "NoExecute"))
        out.append(t)
    return out


def _expression(w: World) -> dict:
    key = w.pick((ZONE, DISK, RACK))
    values = {ZONE: ("z0", "z1", "z2"), DISK: ("ssd", "hdd"), RACK: ("r0", "r1", "r2", "r3")}[key]
    op = w.pick(("In", "In", "NotIn", "Exists", "DoesNotExist"))
    expr = {"key": key, "operator": op}
    if op in ("In", "NotIn"):
        expr["values"] = sorted(w.rng.sample(values, w.rng.randint(1, 2)))
    return expr


def node_affinity(w: World) -> dict:
    out: dict = {}
    if w.chance(0.6):
        terms = []
        for _ in range(w.rng.randint(1, 2)):
            if w.chance(0.15):  # the API server allows exactly one value for a field selector
                op = w.pick(("In", "In", "NotIn"))
                terms.append({"matchFields": [{"key": "metadata.name", "operator": op, "values": [w.pick(w.node_names)]}]})
            else:
                terms.append({"matchExpressions": [_expression(w) for _ in range(w.rng.randint(1, 2))]})
        out["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
    if not out or w.chance(0.5):
        out["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": w.rng.randint(1, 100), "preference": {"matchExpressions": [_expression(w)]}}
            for _ in range(w.rng.randint(1, 2))]
    return out


def _term(w: World) -> dict:
    return {"labelSelector": {"matchLabels": {"app": w.pick(APPS)}}, "topologyKey": w.pick((HOST, ZONE, HOST))}


def pod_affinity(w: World) -> dict:
    out: dict = {}
    for kind in ("podAffinity", "podAntiAffinity"):
        if not w.chance(0.5):
            continue
        block: dict = {}
        if w.chance(0.5):
            block["requiredDuringSchedulingIgnoredDuringExecution"] = [_term(w)]
        if not block or w.chance(0.5):
            block["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": w.rng.randint(1, 100), "podAffinityTerm": _term(w)}]
        out[kind] = block
    return out or {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [_term(w)]}}


def spread(w: World, app: str) -> list[dict]:
    out = []
    for key in w.rng.sample((ZONE, HOST), w.rng.randint(1, 2)):
        hard = w.chance(0.6)
        c = {"maxSkew": w.rng.randint(1, 2), "topologyKey": key,
             "whenUnsatisfiable": "DoNotSchedule" if hard else "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app": app}}}
        if hard and w.chance(0.3):
            c["minDomains"] = w.rng.randint(2, 4)
        if w.chance(0.3):
            c["nodeAffinityPolicy"] = w.pick(("Honor", "Ignore"))
        if w.chance(0.3):
            c["nodeTaintsPolicy"] = w.pick(("Honor", "Ignore"))
        out.append(c)
    return out


def pending_pod(w: World, *, extended=False, taints=False, selectors=False, affinity=False, spreading=False,
                priorities=False, prefix: str = "p") -> dict:
    app = w.pick(APPS)
    p = pod(w, w.new_name(prefix), requests(w, extended), app=app,
            priority=w.pick(("low", "mid", "high", "high", "high-never")) if priorities and w.chance(0.8) else None)
    spec = p["spec"]
    if taints and w.chance(0.5):
        spec["tolerations"] = tolerations(w)
    if selectors and w.chance(0.3):
        spec["nodeSelector"] = {DISK: w.pick(("ssd", "hdd"))}
    if selectors and w.chance(0.5):
        spec.setdefault("affinity", {})["nodeAffinity"] = node_affinity(w)
    if affinity and w.chance(0.7):
        spec.setdefault("affinity", {}).update(pod_affinity(w))
    if spreading and w.chance(0.8):
        spec["topologySpreadConstraints"] = spread(w, app)
    return p


def pdbs(w: World) -> None:
    for app in w.rng.sample(APPS, w.rng.randint(1, 2)):
        spec = {"selector": {"matchLabels": {"app": app}}}
        spec["minAvailable" if w.chance(0.5) else "maxUnavailable"] = w.rng.randint(0, 2)
        # no status: both sides compute disruptionsAllowed from the running pods, as the disruption controller does
        w.cluster.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                          "metadata": {"name": f"pdb-{app}", "namespace": "default"}, "spec": spec})

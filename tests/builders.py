"""Builders for cluster records, so tests read like the scenario they describe.

`node("n1", cpu="8", memory="32Gi", gpu=8, labels={...}, taints=["gpu=true:NoSchedule"])`,
`pod("p1", cpu="1", gpu=1, group="g")`, `gang("g", min_count=4)`, `basic("g")`, `priority_class("high", 100)`.
Quantities accept Kubernetes notation ("500m", "2Gi") and are converted to the engine's integer base units.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from wasplan.api import hub
from wasplan.cluster.model import (Affinity, Group, HostPort, LabelSelector, Node, NodeSelectorTerm, Pod,
                                   PodDisruptionBudget,
                                   PriorityClass, Requirement, Taint, Toleration, TopologySpreadConstraint)

GPU = "nvidia.com/gpu"
_SUFFIX = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
           "m": Fraction(1, 1000), "": 1}


def quantity(text: str | int) -> Fraction:
    if isinstance(text, int):
        return Fraction(text)
    m = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text))
    if not m or m.group(2) not in _SUFFIX:
        raise ValueError(f"bad quantity {text!r}")
    return Fraction(m.group(1)) * _SUFFIX[m.group(2)]


def resources(cpu=None, memory=None, gpu=None, pods=None, ephemeral=None, extra=None) -> dict[str, int]:
    out: dict[str, int] = {}
    if cpu is not None:
        out["cpu"] = math.ceil(quantity(cpu) * 1000)
    if memory is not None:
        out["memory"] = math.ceil(quantity(memory))
    if ephemeral is not None:
        out["ephemeral-storage"] = math.ceil(quantity(ephemeral))
    if gpu is not None:
        out[GPU] = int(gpu)
    if pods is not None:
        out["pods"] = int(pods)
    for name, value in (extra or {}).items():
        out[name] = math.ceil(quantity(value))
    return out


def taint(text: str) -> Taint:
    """"key=value:Effect" or "key:Effect"."""
    kv, effect = text.rsplit(":", 1)
    key, _, value = kv.partition("=")
    return Taint(key, value, effect)


def node(name: str, cpu="8", memory="32Gi", gpu=None, pods=110, labels=None, taints=(), unschedulable=False,
         extra=None) -> Node:
    labels = {"kubernetes.io/hostname": name, **(labels or {})}
    return Node(name, labels, resources(cpu, memory, gpu, pods, extra=extra),
                tuple(taint(t) for t in taints), unschedulable)


def toleration(key="", value="", effect="", operator=None) -> Toleration:
    op = operator or ("Exists" if not value else "Equal")
    return Toleration(key, op, value, effect)


def pod(name: str, cpu=None, memory=None, gpu=None, namespace="default", labels=None, group=None, priority=None,
        node_name=None, node_selector=None, affinity=None, tolerations=(), spread=(), ports=(), gates=(),
        priority_class=None, scheduler="default-scheduler", created=None, extra=None, preemption_policy=None) -> Pod:
    req = resources(cpu, memory, gpu, extra=extra)
    non_zero = dict(req)
    non_zero.setdefault("cpu", 100)
    non_zero.setdefault("memory", 200 * 2**20)
    return Pod(namespace, name, req, {"cpu": non_zero["cpu"], "memory": non_zero["memory"]},
               labels=dict(labels or {}), node_name=node_name, node_selector=dict(node_selector or {}),
               affinity=affinity, tolerations=tuple(tolerations), topology_spread=tuple(spread),
               host_ports=tuple(HostPort(p) if isinstance(p, int) else p for p in ports),
               scheduling_gates=tuple(gates), scheduler_name=scheduler, priority_class_name=priority_class,
               priority=priority, pod_group=group, creation_timestamp=created, preemption_policy=preemption_policy)


def pods(prefix: str, count: int, **kw) -> list[Pod]:
    return [pod(f"{prefix}-{i}", **kw) for i in range(count)]


def _group(name: str, policy: hub.SchedulingPolicy, namespace: str, priority, topology_keys=(), parent=None,
           **kw) -> Group:
    """`kw`: disruption ("all"/"single"), priority_class, preemption_policy ("Never"/...)."""
    extra = {}
    if kw.get("disruption"):
        extra["disruption_mode"] = hub.DisruptionMode(kw["disruption"])
    if kw.get("priority_class"):
        extra["priority_class_name"] = kw["priority_class"]
    if kw.get("preemption_policy"):
        extra["preemption_policy"] = hub.PreemptionPolicy(kw["preemption_policy"])
    pg = hub.PodGroup(metadata={"name": name, "namespace": namespace}, policy=policy, priority=priority,
                      topology_keys=tuple(topology_keys), parent_composite=parent, **extra)
    return Group(namespace, name, pg)


def gang(name: str, min_count: int, namespace="default", priority=None, topology_keys=(), parent=None,
         **kw) -> Group:
    return _group(name, hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=min_count), namespace, priority,
                  topology_keys, parent, **kw)


def basic(name: str, namespace="default", priority=None, topology_keys=(), parent=None, **kw) -> Group:
    return _group(name, hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC), namespace, priority, topology_keys, parent,
                  **kw)


def pdb(name: str, match: dict, min_available=None, max_unavailable=None, allowed=None, namespace="default"):
    return PodDisruptionBudget(namespace, name, selector(match), min_available, max_unavailable, allowed)


def composite(name: str, min_group_count: int | None = None, parent=None, namespace="default", priority=None,
              topology_keys=()) -> Group:
    """A CompositePodGroup: gang with `min_group_count`, basic without."""
    policy = (hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_group_count=min_group_count) if min_group_count
              else hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC))
    obj = hub.CompositePodGroup(metadata={"name": name, "namespace": namespace}, policy=policy, priority=priority,
                                workload_ref=hub.WorkloadRef(workload_name="w", template_name=name),
                                parent_composite=parent, topology_keys=tuple(topology_keys))
    return Group(namespace, name, obj)


def priority_class(name: str, value: int, global_default=False) -> PriorityClass:
    return PriorityClass(name, value, global_default)


def req(key: str, op: str, *values: str) -> Requirement:
    return Requirement(key, op, tuple(values))


def selector(match_labels=None, *exprs: Requirement) -> LabelSelector:
    return LabelSelector(tuple(sorted((match_labels or {}).items())), tuple(exprs))


def node_affinity(*terms: NodeSelectorTerm, preferred=()) -> Affinity:
    return Affinity(node_required=tuple(terms) if terms else None, node_preferred=tuple(preferred))


def term(*exprs: Requirement, fields=()) -> NodeSelectorTerm:
    return NodeSelectorTerm(tuple(exprs), tuple(fields))


def spread(key: str, max_skew=1, hard=True, match=None, min_domains=None, **kw) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(max_skew, key, "DoNotSchedule" if hard else "ScheduleAnyway",
                                    selector(match or {}), min_domains, **kw)

"""The device evidence of `wasplan explain` for a pod shape held back by Dynamic Resource Allocation: frozen
records the report layer renders as they are, and their `-o json` form (`devices` of a target, docs/explain.md).

Every number was measured with the engine's own allocator pieces on the cluster the plan leaves
(explain/devices.py); nothing here computes.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.engine.facade import Unpublished, ValueCount


@dataclass(frozen=True, slots=True)
class Stage:
    """Devices still matching after one step of the allocator's per-device checks, in its order."""

    label: str  # "class gpu.example.com", "selector #0 <expression>", "capacity", "tolerated taints"
    cluster: int  # in the whole cluster
    eligible: int  # reachable from the nodes the pod may use (its other filters passed)

    def to_dict(self) -> dict:
        return {"stage": self.label, "inCluster": self.cluster, "onEligibleNodes": self.eligible}



@dataclass(frozen=True, slots=True)
class Eliminator:
    """What left a request without devices: a selector (with the attribute values the devices have, closest to
    the expression's literal first), capacity, taints, devices in use, or a count no node reaches."""

    kind: str  # selector | capacity | taints | allocated | count | class
    text: str
    attribute: str = ""  # the attribute the selector reads (qualified)
    literal: str = ""  # the value the selector compares it with
    values: tuple[ValueCount, ...] = ()
    unpublished: tuple[Unpublished, ...] = ()  # names the selector reads that no device publishes
    expression: str = ""  # the selector's expression (its text may be the CEL error it met)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "attribute": self.attribute or None,
                "literal": self.literal or None, "values": [v.to_dict() for v in self.values],
                "unpublished": [u.to_dict() for u in self.unpublished]}


@dataclass(frozen=True, slots=True)
class RequestDevices:
    claim: str  # ns/name
    entry: str  # the pod's spec.resourceClaims[].name
    origin: str  # "ResourceClaimTemplate ns/name" or "ResourceClaim ns/name"
    request: str  # "gpu" or "gpu/subrequest"
    device_class: str
    count: int  # 0 = allocationMode All
    needed: int  # devices the pods still needed ask for together (a shared claim once)
    stages: tuple[Stage, ...]
    allocated: int  # matching devices on eligible nodes already in use
    free: int  # matching devices on eligible nodes still free
    most_on_node: int  # the most free matching devices one eligible node reaches
    node: str  # that node ("" when none)
    eliminated_by: Eliminator | None = None

    def to_dict(self) -> dict:
        return {"claim": self.claim, "entry": self.entry, "origin": self.origin, "request": self.request,
                "deviceClass": self.device_class,
                "count": self.count, "needed": self.needed, "stages": [s.to_dict() for s in self.stages],
                "allocated": self.allocated, "free": self.free,
                "mostOnOneNode": {"node": self.node or None, "devices": self.most_on_node},
                "eliminatedBy": self.eliminated_by.to_dict() if self.eliminated_by else None}


@dataclass(frozen=True, slots=True)
class ConstraintDevices:
    """A claim constraint that no eligible node can meet with its free matching devices."""

    claim: str
    index: int
    kind: str  # matchAttribute | distinctAttribute
    attribute: str
    needed: int  # devices the constrained requests ask for together
    best: int  # the most devices one node offers that satisfy it together
    node: str
    values: tuple[ValueCount, ...]  # the attribute's values on that node

    def to_dict(self) -> dict:
        return {"claim": self.claim, "index": self.index, "kind": self.kind, "attribute": self.attribute,
                "needed": self.needed, "best": self.best, "node": self.node or None,
                "values": [v.to_dict() for v in self.values]}


@dataclass(frozen=True, slots=True)
class DomainDevices:
    domain: str
    request: str  # claim/request
    needed: int
    free: int

    def to_dict(self) -> dict:
        return {"domain": self.domain, "request": self.request, "needed": self.needed, "free": self.free}


@dataclass(frozen=True, slots=True)
class NodeOrder:
    node: str
    in_order: int  # pods whose claims the allocator fits one pod at a time (the scheduler's way)
    together: int  # pods whose claims fit when allocated in one search (it backtracks across claims)

    def to_dict(self) -> dict:
        return {"node": self.node, "inOrder": self.in_order, "together": self.together}


@dataclass(frozen=True, slots=True)
class GreedyOrder:
    """The allocator picks each pod's devices first-fit and never revisits them for a later pod
    (kubernetes/kubernetes#138765): per node, how many pods fit in that order against one search for all."""

    needed: int
    in_order: int
    together: int
    nodes: tuple[NodeOrder, ...]

    @property
    def named(self) -> bool:
        return self.in_order < self.needed <= self.together

    def to_dict(self) -> dict:
        return {"needed": self.needed, "inOrder": self.in_order, "together": self.together,
                "greedyOrder": self.named, "nodes": [n.to_dict() for n in self.nodes]}


@dataclass(frozen=True, slots=True)
class DeviceEvidence:
    pods: tuple[str, ...]
    nodes: int  # nodes that pass every filter but DynamicResources
    requests: tuple[RequestDevices, ...]
    constraints: tuple[ConstraintDevices, ...] = ()
    domains: tuple[DomainDevices, ...] = ()
    greedy: GreedyOrder | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"pods": list(self.pods), "eligibleNodes": self.nodes,
                "requests": [r.to_dict() for r in self.requests],
                "constraints": [c.to_dict() for c in self.constraints],
                "domains": [d.to_dict() for d in self.domains],
                "order": self.greedy.to_dict() if self.greedy else None, "notes": list(self.notes)}

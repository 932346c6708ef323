"""The result of `wasplan explain`: frozen records the report layer renders as they are.

Every number here was measured by the engine (a trial placement, a recorder verdict, a verified re-run); the
report layer only formats. `Explanation.to_dict()` is the `-o json` contract documented in docs/explain.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.explain.devices_model import DeviceEvidence
from wasplan.explain.exact.result import ExactCheck
from wasplan.explain.verdicts import TARGET, Verdict
from wasplan.plan import UnplannedWorkload

API_VERSION = "wasplan.io/v1alpha1"

FITS, DOES_NOT_FIT, BY_PREEMPTING = Verdict.FITS, Verdict.DOES_NOT_FIT, Verdict.BY_PREEMPTING
WAITING_FOR_PODS, WAITING_FOR_GROUP, GATED = Verdict.WAITING_FOR_PODS, Verdict.WAITING_FOR_GROUP, Verdict.GATED
WAITING_FOR_ADMISSION = Verdict.WAITING_FOR_ADMISSION
VERDICTS = TARGET


@dataclass(frozen=True, slots=True)
class Gang:
    """The gang arithmetic: how many pods exist, are bound, and could be placed now in cycle order."""

    policy: str  # gang | basic | none (a plain pod)
    min_count: int
    pods_exist: int
    pods_bound: int
    placeable: int  # bound + the pending members a trial placement fits, in cycle order

    @property
    def short(self) -> int:
        return max(self.min_count - self.placeable, 0)

    def to_dict(self) -> dict:
        return {"policy": str(self.policy), "minCount": self.min_count, "podsExist": self.pods_exist,
                "podsBound": self.pods_bound, "placeable": self.placeable, "short": self.short}


@dataclass(frozen=True, slots=True)
class Lack:
    resource: str
    needs: int
    free: int

    @property
    def short(self) -> int:
        return self.needs - self.free

    def to_dict(self) -> dict:
        return {"resource": self.resource, "needs": self.needs, "free": self.free, "short": self.short}


@dataclass(frozen=True, slots=True)
class CloseNode:
    """A node that passes every other filter and lacks only resources."""

    node: str
    lacks: tuple[Lack, ...]

    def to_dict(self) -> dict:
        return {"node": self.node, "lacks": [x.to_dict() for x in self.lacks]}


@dataclass(frozen=True, slots=True)
class Elimination:
    """One filter plugin evaluated on its own: how many nodes it rejects, and for which reasons."""

    plugin: str
    nodes: int
    reasons: tuple[tuple[str, int], ...]
    constraints: tuple[str, ...] = ()  # the pod's own terms behind the rejections (selector, taints, spread)

    def to_dict(self) -> dict:
        return {"plugin": self.plugin, "nodes": self.nodes, "reasons": dict(self.reasons),
                "constraints": list(self.constraints)}


@dataclass(frozen=True, slots=True)
class ResourceTotal:
    resource: str
    needed: int  # what the pods still missing for minCount request together
    free_total: int  # free on every node
    free_eligible: int  # free on nodes that pass every non-resource filter
    stranded: int  # free on eligible nodes that cannot take even one pod

    @property
    def missing(self) -> bool:
        """Whether this resource is what the pods lack: usable free room (not stranded) below the need, while
        some node is allowed at all (otherwise the eliminating constraints are the story)."""
        usable_short = self.free_eligible - self.stranded < self.needed
        return usable_short and not (self.free_eligible == 0 and self.free_total >= self.needed)

    def to_dict(self) -> dict:
        return {"resource": self.resource, "needed": self.needed, "freeTotal": self.free_total,
                "freeOnEligibleNodes": self.free_eligible, "stranded": self.stranded, "missing": self.missing}


@dataclass(frozen=True, slots=True)
class ShapeEvidence:
    """Why one pod shape (identical requests and constraints) finds no node, at the point its member failed."""

    pods: tuple[str, ...]
    requests: tuple[tuple[str, int], ...]
    message: str  # the upstream FitError text
    closest: tuple[CloseNode, ...] = ()
    eliminations: tuple[Elimination, ...] = ()
    resources: tuple[ResourceTotal, ...] = ()
    devices: DeviceEvidence | None = None  # the pods' ResourceClaims against the devices (explain/devices.py)

    def to_dict(self) -> dict:
        return {"pods": list(self.pods), "requests": dict(self.requests), "message": self.message,
                "closestNodes": [c.to_dict() for c in self.closest],
                "eliminatedBy": [e.to_dict() for e in self.eliminations],
                "resources": [r.to_dict() for r in self.resources],
                "devices": self.devices.to_dict() if self.devices else None}


@dataclass(frozen=True, slots=True)
class DomainFit:
    domain: str
    placeable: int
    message: str = ""  # why the next pod does not fit there

    def to_dict(self) -> dict:
        return {"domain": self.domain, "placeable": self.placeable, "message": self.message}


@dataclass(frozen=True, slots=True)
class Topology:
    key: str
    domains: tuple[DomainFit, ...]
    honoured: bool  # whether the plan engine placed the group by this constraint
    blocker: str = ""  # why no domain can hold the group at all (no node carries the key), a blocker of its own

    def to_dict(self) -> dict:
        return {"topologyKey": self.key, "honouredByPlan": self.honoured,
                "domains": [d.to_dict() for d in self.domains], "blocker": self.blocker or None}


@dataclass(frozen=True, slots=True)
class Change:
    """One edit in the user's terms: which file, which object, which field, what value."""

    action: str  # set | add | delete | remove
    file: str
    obj: str  # Kind/namespace/name
    field_path: str
    value: object = None
    line: int | None = None
    segments: tuple = ()  # field_path as keys and list indexes, for tools that apply the change

    def to_dict(self) -> dict:
        return {"action": self.action, "file": self.file, "line": self.line, "object": self.obj,
                "fieldPath": self.field_path, "path": list(self.segments), "value": self.value}


@dataclass(frozen=True, slots=True)
class Suggestion:
    kind: str  # minCount | addNodes | nodeSelector | ... | deviceSelector | firstAvailable | claimTemplate (docs)
    title: str
    why: str
    changes: tuple[Change, ...]
    opens_nodes: int | None = None
    verified: bool = True  # only verified suggestions are shown; kept explicit for the JSON contract

    def to_dict(self) -> dict:
        return {"kind": self.kind, "title": self.title, "why": self.why, "verified": self.verified,
                "opensNodes": self.opens_nodes, "changes": [c.to_dict() for c in self.changes]}


@dataclass(frozen=True, slots=True)
class TargetExplanation:
    kind: str  # PodGroup | Pod
    namespace: str
    name: str
    verdict: str
    summary: str  # one line: the verdict in words
    gang: Gang | None = None
    shapes: tuple[ShapeEvidence, ...] = ()
    topology: Topology | None = None
    victims: tuple[dict, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    notes: tuple[str, ...] = ()
    exact: ExactCheck | None = None  # the exact feasibility check (explain/exact), None when skipped

    @property
    def fits(self) -> bool:
        """Whether the plan places it (at the cost of victims, for FitsByPreempting)."""
        return self.verdict in (FITS, BY_PREEMPTING)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "namespace": self.namespace, "name": self.name, "verdict": self.verdict,
                "summary": self.summary, "gang": self.gang.to_dict() if self.gang else None,
                "shapes": [s.to_dict() for s in self.shapes],
                "topology": self.topology.to_dict() if self.topology else None,
                "victims": list(self.victims), "suggestions": [s.to_dict() for s in self.suggestions],
                "notes": list(self.notes), "exact": self.exact.to_dict() if self.exact else None}


@dataclass(frozen=True, slots=True)
class Explanation:
    k8s_version: str
    nodes: int
    targets: tuple[TargetExplanation, ...] = ()
    timings: dict = field(default_factory=dict, compare=False)
    # objects whose pods were not looked at: their controller has no model (WAS622); they keep all_fit false
    unplanned: tuple[UnplannedWorkload, ...] = ()

    @property
    def all_fit(self) -> bool:
        return all(t.fits for t in self.targets) and not self.unplanned

    def to_dict(self) -> dict:
        return {"apiVersion": API_VERSION, "kind": "Explanation", "k8sVersion": self.k8s_version,
                "nodes": self.nodes, "targets": [t.to_dict() for t in self.targets],
                "unplanned": [_unplanned_dict(u) for u in self.unplanned]}


def _unplanned_dict(u: UnplannedWorkload) -> dict:
    return {**u.to_dict(), "file": u.file or None, "line": u.line}

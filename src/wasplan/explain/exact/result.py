"""The exact check's answer: frozen records the report layer renders as they are (docs/explain.md, `exact`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from wasplan.explain.verdicts import EXACT, Verdict


@dataclass(frozen=True, slots=True)
class Bound:
    kind: str  # pods | resource | devices | counter
    subject: str  # the shape's first pod, or the resource name
    available: int  # pods the nodes hold one by one, or free units on nodes that can take a pod
    needed: int
    stranded: int = 0  # free units on nodes the filters allow that cannot take even one pod

    @property
    def short(self) -> bool:
        return self.available < self.needed

    def to_dict(self) -> dict:
        return {"kind": self.kind, "subject": self.subject, "available": self.available, "needed": self.needed,
                "stranded": self.stranded, "short": self.short}


@dataclass(frozen=True, slots=True)
class Proof:
    domain: str | None  # the best topology domain, None without a constraint
    bounds: tuple[Bound, ...]
    other_domains: int = 0  # domains that hold fewer pods by the same bounds
    allowed_nodes: int = 0  # nodes (in the domain) whose filters accept some pod of the group, room aside

    def to_dict(self) -> dict:
        return {"domain": self.domain, "otherDomains": self.other_domains, "allowedNodes": self.allowed_nodes,
                "bounds": [b.to_dict() for b in self.bounds]}


class Status(StrEnum):
    """One solver question's outcome (JSON `status` of `answer`, `withEviction`, `withMoves`, `tree`)."""

    FITS = "fits"
    NO_FIT = "noFit"
    UNKNOWN = "unknown"


DOES_NOT_FIT, FOUND, MISSED, UNKNOWN = Verdict.DOES_NOT_FIT, Verdict.FOUND, Verdict.MISSED, Verdict.UNKNOWN
VERDICTS = EXACT


@dataclass(frozen=True, slots=True)
class NodePods:
    node: str
    pods: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"node": self.node, "pods": list(self.pods)}


@dataclass(frozen=True, slots=True)
class Choice:
    """The firstAvailable subrequest a pod's own claim uses in the assignment (allocated by the engine's
    allocator in the replay)."""

    pod: str
    claim: str  # namespace/name of the ResourceClaim
    request: str
    subrequest: str
    template: str | None = None  # namespace/name of the ResourceClaimTemplate the claim was generated from

    def to_dict(self) -> dict:
        return {"pod": self.pod, "claim": self.claim, "request": self.request, "subrequest": self.subrequest,
                "template": self.template}


@dataclass(frozen=True, slots=True)
class Answer:
    """One question put to the solver: can the pods still needed be placed on this cluster?"""

    status: Status
    needed: int
    placed: int  # the best assignment found places this many (capped at `needed`)
    bound: int  # proved: no assignment places more
    domain: str | None = None  # the topology domain the assignment uses
    witness: tuple[NodePods, ...] = ()  # replayed through the engine's filters
    proof: Proof | None = None
    evicts: tuple[str, ...] = ()  # with lower-priority pods removable: the pods the assignment evicts
    note: str = ""
    fewest: bool = False  # `evicts` is the fewest (else: every removable pod on the witness's nodes)
    verified: bool | None = False  # the re-planned run without `evicts` places the group (None: not re-planned)
    subrequests: tuple[Choice, ...] = ()  # the witness's firstAvailable choices, by pod

    def to_dict(self) -> dict:
        return {"status": str(self.status), "needed": self.needed, "placed": self.placed, "bound": self.bound,
                "domain": self.domain, "witness": [w.to_dict() for w in self.witness],
                "proof": self.proof.to_dict() if self.proof else None, "evicts": list(self.evicts),
                "fewestEvictions": self.fewest, "verified": self.verified, "note": self.note,
                "subrequests": [c.to_dict() for c in self.subrequests]}


@dataclass(frozen=True, slots=True)
class Move:
    pod: str
    source: str
    target: str

    def to_dict(self) -> dict:
        return {"pod": self.pod, "from": self.source, "to": self.target}


@dataclass(frozen=True, slots=True)
class MovesAnswer:
    """With running pods movable: the fewest pods to move for the group to fit, and whether a re-planned run with
    them moved places it."""

    status: Status
    needed: int
    moves: tuple[Move, ...] = ()
    verified: bool | None = False  # None: not re-planned, the verification budget was spent
    note: str = ""
    evicts: tuple[str, ...] = ()  # asked as the fewest evictions instead: the pods that go
    witness: tuple[NodePods, ...] = ()  # where the group's pods go

    def to_dict(self) -> dict:
        return {"status": str(self.status), "needed": self.needed, "moves": [m.to_dict() for m in self.moves],
                "verified": self.verified, "witness": [w.to_dict() for w in self.witness], "note": self.note}


@dataclass(frozen=True, slots=True)
class Model:
    """How small symmetry made the program: nodes folded into classes, pods into shapes."""

    nodes: int
    classes: int
    pooled: int
    shapes: int
    patterns: int

    def to_dict(self) -> dict:
        return {"nodes": self.nodes, "classes": self.classes, "pooledClasses": self.pooled, "shapes": self.shapes,
                "patterns": self.patterns}


@dataclass(frozen=True, slots=True)
class TreeAnswer:
    """The question for a whole CompositePodGroup tree: can the root's minGroupCount children be scheduled?"""

    root: str  # namespace/name of the root CompositePodGroup
    status: Status
    needed: int  # children of the root that must be scheduled
    placed: int  # children the best assignment found schedules (capped at `needed`)
    bound: int  # proved: no assignment schedules more
    groups: tuple[str, ...] = ()  # the PodGroups the (best) assignment schedules
    witness: tuple[NodePods, ...] = ()
    note: str = ""
    fewest_pods: int = 0  # the cheapest children the root needs ask for this many pods together
    pods_room: int = 0  # the nodes hold at most this many of the tree's pods (each node's fullest combination)
    subrequests: tuple[Choice, ...] = ()  # the witness's firstAvailable choices, by pod

    def to_dict(self) -> dict:
        return {"root": self.root, "status": str(self.status), "needed": self.needed, "placed": self.placed,
                "bound": self.bound, "groups": list(self.groups), "witness": [w.to_dict() for w in self.witness],
                "fewestPods": self.fewest_pods, "podsRoom": self.pods_room, "note": self.note,
                "subrequests": [c.to_dict() for c in self.subrequests]}


@dataclass(frozen=True, slots=True)
class ExactCheck:
    verdict: Verdict
    summary: str
    budget: float  # seconds the solver may spend per question
    now: Answer | None = None  # on the cluster as the plan leaves it
    with_eviction: Answer | None = None  # the same, every lower-priority pod removable
    model: Model | None = None
    tree: TreeAnswer | None = None  # for a PodGroup in a CompositePodGroup tree: the whole tree's question
    own_summary: str = ""  # in a tree: the group's own answer in one line (the summary is the tree's)
    with_moves: MovesAnswer | None = None  # the same, running pods of at most its priority movable

    def to_dict(self) -> dict:
        return {"verdict": str(self.verdict), "summary": self.summary, "budgetSeconds": self.budget,
                "answer": self.now.to_dict() if self.now else None,
                "withEviction": self.with_eviction.to_dict() if self.with_eviction else None,
                "model": self.model.to_dict() if self.model else None,
                "tree": self.tree.to_dict() if self.tree else None, "ownSummary": self.own_summary,
                "withMoves": self.with_moves.to_dict() if self.with_moves else None}

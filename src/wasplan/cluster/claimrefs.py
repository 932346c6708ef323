"""Resolving DRA references by name, once for lint and the plan: which ResourceClaim, ResourceClaimTemplate or
DeviceClass a name stands for and, when no input holds it, what to tell the user.

A pod's (or PodGroup's) `resourceClaims[]` entry names a claim or a template in its own namespace; a claim
request names a cluster-scoped DeviceClass (`k8s.io/api` `core/v1` `PodResourceClaim`, `resource/v1`
`ExactDeviceRequest`). Upstream the pod waits for a missing object (DynamicResources PreEnqueue/PreFilter,
`../shared/reference/dra.md` §3). `cluster.dra_refs` (plan, WAS660-WAS662) and `validate.claim_lint` (lint,
WAS420-WAS422) both ask `Refs` and word the answer with `Missing`, so the two commands never disagree about what
is missing or what it was probably meant to be. Names are grouped per namespace once, and a suggestion compares
against at most `MAX_GUESS_CANDIDATES` names, so a question costs the same on 20,000 documents as on 20.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.suggest import guess

CLAIM, TEMPLATE, CLASS = "ResourceClaim", "ResourceClaimTemplate", "DeviceClass"
CLUSTER_SCOPED = ""  # the namespace key of cluster-scoped kinds (DeviceClass)


@dataclass(frozen=True, slots=True)
class Missing:
    """A name no input holds: its kind, where it was looked for, and the likely intended object."""

    kind: str
    namespace: str  # CLUSTER_SCOPED for a DeviceClass
    name: str
    suggestion: str | None = None  # a close name of the same kind in the same namespace
    elsewhere: tuple[str, ...] = ()  # namespaces that hold an object of this kind and exact name

    @property
    def near_miss(self) -> bool:
        """A typo or a wrong namespace is likely, rather than an object applied from somewhere else."""
        return self.suggestion is not None or bool(self.elsewhere)

    @property
    def shown(self) -> str:
        return self.name if self.namespace == CLUSTER_SCOPED else f"{self.namespace}/{self.name}"

    def hint(self) -> str | None:
        if self.suggestion is not None:
            return f'did you mean {self.kind} "{self.suggestion}"?'
        if self.elsewhere:
            return (f'a {self.kind} "{self.name}" exists in namespace {self.elsewhere[0]}; a pod can only use '
                    f"claims and templates of its own namespace")
        return None


@dataclass(slots=True)
class Refs:
    """The DRA objects one can refer to: kind -> namespace -> names (in input order, no duplicates)."""

    _names: dict[str, dict[str, dict[str, None]]] = field(default_factory=dict)
    _by_name: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _answers: dict[tuple[str, str, str], Missing | None] = field(default_factory=dict)

    def add(self, kind: str, namespace: str, name: str) -> None:
        self._names.setdefault(kind, {}).setdefault(namespace, {})[name] = None
        self._by_name.pop(kind, None)  # rebuilt on the next question
        self._answers.clear()

    def copy(self) -> "Refs":
        """An independent copy: lint adds the inputs' objects to a copy of the snapshot's."""
        out = Refs()
        for kind, spaces in self._names.items():
            out._names[kind] = {namespace: dict(names) for namespace, names in spaces.items()}
        return out

    def holds(self, kind: str) -> bool:
        """Whether any object of `kind` is known at all (then the set of that kind is likely complete)."""
        return bool(self._names.get(kind))

    def has(self, kind: str, namespace: str, name: str) -> bool:
        return name in self._names.get(kind, {}).get(namespace, {})

    def names(self, kind: str, namespace: str) -> list[str]:
        return list(self._names.get(kind, {}).get(namespace, {}))

    def _namespaces_of(self, kind: str, name: str) -> list[str]:
        grouped = self._by_name.get(kind)
        if grouped is None:
            grouped = self._by_name[kind] = {}
            for namespace, names in self._names.get(kind, {}).items():
                for n in names:
                    grouped.setdefault(n, []).append(namespace)
        return sorted(grouped.get(name, []))

    def find(self, kind: str, namespace: str, name: str) -> Missing | None:
        """None when the object is known, else what is missing and what was likely meant. Answers are kept:
        the pods of one controller or gang ask the same question many times."""
        if self.has(kind, namespace, name):
            return None
        key = (kind, namespace, name)
        if key not in self._answers:
            elsewhere = () if namespace == CLUSTER_SCOPED else tuple(self._namespaces_of(kind, name))
            self._answers[key] = Missing(kind, namespace, name, guess(name, self.names(kind, namespace)), elsewhere)
        return self._answers[key]

    def claim_source(self, namespace: str, claim: str | None, template: str | None) -> Missing | None:
        """The object a `resourceClaims[]` entry names (the template when both are set, as the plan reads it)."""
        if template:
            return self.find(TEMPLATE, namespace, template)
        if claim:
            return self.find(CLAIM, namespace, claim)
        return None

    def device_class(self, name: str) -> Missing | None:
        return self.find(CLASS, CLUSTER_SCOPED, name)

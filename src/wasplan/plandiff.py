"""What a change does to a plan: the difference between two Plan documents (docs/plan-json.md), e.g. the plan of a
pull request's target branch (the baseline) and the plan of its head.

Works on the Plan JSON contract (plain dicts), not on engine objects, so a baseline saved by an older wasplan,
or by `-o yaml`, compares the same way. Each change says whether things got worse (`regression`: a group that
stopped fitting, a pod that lost its node, a new eviction, a claim that lost its devices), better
(`improvement`), or only moved (`neutral`: another node, domain or device). An evicted pod counts once, as its
Preemption, not again as a pod that lost its node. `resourceClaims[]` is compared
when either side has it (additive in the contract). Every list is sorted, so the diff is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from wasplan.plan import API_VERSION, PLACED, ClaimStatus, GroupStatus, PodStatus


class Effect(StrEnum):
    """What a change does to the plan (PlanDiff JSON `changes[].effect`)."""

    REGRESSION = "regression"
    IMPROVEMENT = "improvement"
    NEUTRAL = "neutral"


class ChangeKind(StrEnum):
    """A change's name (PlanDiff JSON `changes[].change`): how one object differs between the two plans."""

    ADDED = "Added"
    REMOVED = "Removed"
    ADDED_UNSCHEDULABLE = "AddedUnschedulable"
    UNSCHEDULABLE = "Unschedulable"
    SCHEDULABLE = "Schedulable"
    ADDED_UNPLACED = "AddedUnplaced"
    UNPLACED = "Unplaced"
    PLACED = "Placed"
    ADDED_PENDING = "AddedPending"
    UNALLOCATED = "Unallocated"
    ALLOCATED = "Allocated"
    STATUS_CHANGED = "StatusChanged"
    MOVED = "Moved"
    DEVICES_CHANGED = "DevicesChanged"


REGRESSION, IMPROVEMENT, NEUTRAL = Effect.REGRESSION, Effect.IMPROVEMENT, Effect.NEUTRAL
PREEMPTED = PodStatus.PREEMPTED
_PLACED_CLAIMS = frozenset({ClaimStatus.ALLOCATED, ClaimStatus.ALREADY_ALLOCATED})


@dataclass(frozen=True, slots=True)
class Change:
    """One object that differs: its kind (PodGroup, Pod, Preemption, ResourceClaim), its key, what it was and
    is now (None when absent on that side), the change's name and its effect."""

    kind: str
    key: str
    before: dict | None
    after: dict | None
    change: ChangeKind
    effect: Effect
    message: str

    def to_dict(self) -> dict:
        namespace, _, name = self.key.partition("/")
        return {"kind": self.kind, "namespace": namespace, "name": name, "change": str(self.change),
                "effect": str(self.effect), "before": self.before, "after": self.after, "message": self.message}


@dataclass(frozen=True, slots=True)
class PlanDiff:
    k8s_version: str
    baseline_k8s_version: str
    changes: tuple[Change, ...] = field(default_factory=tuple)

    def of(self, effect: Effect) -> list[Change]:
        return [c for c in self.changes if c.effect == effect]

    @property
    def regressed(self) -> bool:
        return any(c.effect == REGRESSION for c in self.changes)

    def summary(self) -> dict:
        counts = {REGRESSION: 0, IMPROVEMENT: 0, NEUTRAL: 0}
        for c in self.changes:
            counts[c.effect] += 1
        return {"changes": len(self.changes), "regressions": counts[REGRESSION],
                "improvements": counts[IMPROVEMENT], "neutral": counts[NEUTRAL]}

    def to_dict(self) -> dict:
        return {"apiVersion": API_VERSION, "kind": "PlanDiff", "k8sVersion": self.k8s_version,
                "baselineK8sVersion": self.baseline_k8s_version, "summary": self.summary(),
                "changes": [c.to_dict() for c in self.changes]}


def _key(item: dict) -> str:
    return f"{item.get('namespace') or ''}/{item.get('name') or ''}"


def _by_key(plan: dict, section: str) -> dict[str, dict]:
    return {_key(item): item for item in plan.get(section) or ()}


def _where(group: dict) -> str | None:
    p = group.get("placement")
    return f"{p.get('topologyKey')}={p.get('domain')}" if p else None


@dataclass(frozen=True, slots=True)
class _Rules:
    """How one kind of object gets better or worse: which statuses count as good, and the change names."""

    kind: str
    good: frozenset[str]
    added_bad: ChangeKind  # a new object that is not good
    lost: ChangeKind  # good before, not now (a regression)
    won: ChangeKind  # good now, not before (an improvement)


_GROUPS = _Rules("PodGroup", frozenset({GroupStatus.SCHEDULED}), ChangeKind.ADDED_UNSCHEDULABLE,
                 ChangeKind.UNSCHEDULABLE, ChangeKind.SCHEDULABLE)
_PODS = _Rules("Pod", PLACED, ChangeKind.ADDED_UNPLACED, ChangeKind.UNPLACED, ChangeKind.PLACED)
_CLAIMS = _Rules("ResourceClaim", _PLACED_CLAIMS, ChangeKind.ADDED_PENDING, ChangeKind.UNALLOCATED,
                 ChangeKind.ALLOCATED)


def _transition(rules: _Rules, key: str, before: dict | None, after: dict | None, messages: dict) -> Change | None:
    """The change that adds, removes, or moves an object between good and bad; None when it stays either."""
    if after is None:
        return Change(rules.kind, key, before, None, ChangeKind.REMOVED, NEUTRAL, "no longer in the plan")
    good_now = after["status"] in rules.good
    if before is None:
        effect, change = (NEUTRAL, ChangeKind.ADDED) if good_now else (REGRESSION, rules.added_bad)
        return Change(rules.kind, key, None, after, change, effect, messages["added"])
    good = before["status"] in rules.good
    if good and not good_now:
        return Change(rules.kind, key, before, after, rules.lost, REGRESSION, messages["lost"])
    if good_now and not good:
        return Change(rules.kind, key, before, after, rules.won, IMPROVEMENT, messages["won"])
    return None


def _group(key: str, b: dict | None, a: dict | None) -> Change | None:
    before = {"status": b.get("status"), "placement": _where(b)} if b else None
    after = {"status": a.get("status"), "placement": _where(a)} if a else None
    if before == after:
        return None
    was, now = (before or {}).get("status"), (after or {}).get("status")
    why = f": {a.get('message')}" if a and a.get("message") else ""
    change = _transition(_GROUPS, key, before, after, {"added": f"new, {now}", "lost": f"was {was}, now {now}{why}",
                                                        "won": f"was {was}, now {now}"})
    if change is not None:
        return change
    if was != now:
        return Change("PodGroup", key, before, after, ChangeKind.STATUS_CHANGED, NEUTRAL, f"was {was}, now {now}")
    return Change("PodGroup", key, before, after, ChangeKind.MOVED, NEUTRAL,
                  f"moved from {before['placement'] or 'no domain'} to {after['placement'] or 'no domain'}")


def _pod(key: str, b: dict | None, a: dict | None) -> Change | None:
    before = {"status": b.get("status"), "node": b.get("node")} if b else None
    after = {"status": a.get("status"), "node": a.get("node")} if a else None
    if before == after:
        return None
    was, now = before or {}, after or {}
    where = f" on {now.get('node')}" if now.get("node") else ""
    change = _transition(_PODS, key, before, after, {
        "added": f"new, {now.get('status')}{where}", "lost": f"was on {was.get('node')}, now {now.get('status')}",
        "won": f"was {was.get('status')}, now on {now.get('node')}"})
    if change is not None:
        return change
    if before["node"] != after["node"] and after["status"] in PLACED:
        return Change("Pod", key, before, after, ChangeKind.MOVED, NEUTRAL, f"moved from {before['node']} to {after['node']}")
    return Change("Pod", key, before, after, ChangeKind.STATUS_CHANGED, NEUTRAL,
                  f"was {before['status']}, now {after['status']}")


def _evictions(plan: dict) -> dict[tuple[str, str], dict]:
    out: dict[tuple[str, str], dict] = {}
    for p in plan.get("preemptions") or ():
        who = p.get("preemptor") or {}
        preemptor = f"{who.get('kind', 'Pod')} {_key(who)}"
        for v in p.get("victims") or ():
            out[(_key(v), preemptor)] = {"preemptor": preemptor, "node": v.get("node")}
    return out


def _preemptions(base: dict, head: dict) -> list[Change]:
    b, a = _evictions(base), _evictions(head)
    out = []
    for victim, preemptor in sorted(set(b) | set(a)):
        if (victim, preemptor) in a and (victim, preemptor) not in b:
            info = a[(victim, preemptor)]
            out.append(Change("Preemption", victim, None, info, ChangeKind.ADDED, REGRESSION,
                              f"newly evicted from {info['node']} by {preemptor}"))
        elif (victim, preemptor) in b and (victim, preemptor) not in a:
            info = b[(victim, preemptor)]
            out.append(Change("Preemption", victim, info, None, ChangeKind.REMOVED, IMPROVEMENT,
                              f"no longer evicted from {info['node']} by {preemptor}"))
    return out


def _devices(claim: dict) -> list[str]:
    return sorted(f"{d.get('driver')}/{d.get('pool')}/{d.get('device')}" for d in claim.get("devices") or ())


def _claim(key: str, b: dict | None, a: dict | None) -> Change | None:
    before = {"status": b.get("status"), "node": b.get("node"), "devices": _devices(b)} if b else None
    after = {"status": a.get("status"), "node": a.get("node"), "devices": _devices(a)} if a else None
    if before == after:
        return None
    was, now = before or {}, after or {}
    change = _transition(_CLAIMS, key, before, after, {
        "added": f"new, {now.get('status')}",
        "lost": f"had {', '.join(was.get('devices') or ()) or 'devices'}, now {now.get('status')}",
        "won": f"was {was.get('status')}, now {', '.join(now.get('devices') or ())}"})
    if change is not None:
        return change
    return Change("ResourceClaim", key, before, after, ChangeKind.DEVICES_CHANGED, NEUTRAL,
                  f"devices {', '.join(before['devices']) or 'none'} -> {', '.join(after['devices']) or 'none'}")


def _section(base: dict, head: dict, section: str, compare) -> list[Change]:
    b, a = _by_key(base, section), _by_key(head, section)
    changes = (compare(k, b.get(k), a.get(k)) for k in sorted(set(b) | set(a)))
    return [c for c in changes if c is not None]


def _counted_once(pods: list[Change], evictions: list[Change]) -> list[Change]:
    """An evicted pod is one change, its Preemption (which names node and preemptor): the same pod's status
    change to or from `Preempted` is dropped, so a new eviction is one regression and an eviction that no longer
    happens one improvement, not two."""
    newly = {c.key for c in evictions if c.change == ChangeKind.ADDED}
    spared = {c.key for c in evictions if c.change == ChangeKind.REMOVED}

    def twice(c: Change) -> bool:
        return (c.key in newly and (c.after or {}).get("status") == PREEMPTED
                or c.key in spared and (c.before or {}).get("status") == PREEMPTED)

    return [c for c in pods if not twice(c)]


def diff_plans(base: dict, head: dict) -> PlanDiff:
    """Every difference between the baseline Plan document `base` and `head`: groups, pods, evictions, claims."""
    evictions = _preemptions(base, head)
    changes = [*_section(base, head, "podGroups", _group),
               *_counted_once(_section(base, head, "pods", _pod), evictions), *evictions]
    if "resourceClaims" in base or "resourceClaims" in head:
        changes += _section(base, head, "resourceClaims", _claim)
    return PlanDiff(str(head.get("k8sVersion", "")), str(base.get("k8sVersion", "")), tuple(changes))

"""Comparing two `kueue` blocks of the plan JSON (docs/plan-json.md): wasplan's and the Kueue oracle's.

Shared by the Kueue differential (tests/oracle/test_kueue_differential.py), the oracle's scenario test
(tests/oracle/test_kueue_oracle.py) and the scenario test that needs no Go (tests/test_kueue_scenarios.py), so the
three read the same facts out of a block:

* per workload, keyed by the object it was built from ("Job ns/name", "JobSet ns/name", or "Workload ns/name"
  when written directly): Kueue's name for it, status, ClusterQueue, reason, message, borrowing, per PodSet the
  flavor of each resource and the count, the preemptor, and the TAS assignment as a multiset of
  (domain, pod count), whatever the slices' compression (Kueue's TopologyAssignment: apis/kueue/v1beta2/
  workload_types.go);
* per ClusterQueue: cohort, usage (nominal, used, borrowed per flavor and resource), admitted and pending.

A message Kueue builds from a Go map (several failing resources of one flavor: pkg/scheduler/flavorassigner
walks a PodSet's requests in map order and reports them up to the first that fails each flavor) differs from run
to run of the same input, in order and in which resources it names; such a message (two resources of one flavor
named, in either tool's message) and any the caller names as unstable (it differed between oracle runs) are
compared on the part before the first colon.
"""

from __future__ import annotations

import re
from collections import Counter

_RESOURCE_OF_FLAVOR = re.compile(r"insufficient (?:unused )?quota for \S+ in flavor ([^\s,;]+)")

WORKLOAD_FIELDS = ("name", "status", "clusterQueue", "reason", "message", "borrowing")


def key(workload: dict) -> str:
    """How a workload is named across runs: by the object it was built from (and, for a LeaderWorkerSet, which
    builds one per group, its name too), or as written."""
    owner = workload.get("owner")
    if owner:
        one_of = f" {workload['name']}" if owner["kind"] == "LeaderWorkerSet" else ""
        return f"{owner['kind']} {owner['namespace']}/{owner['name']}{one_of}"
    return f"Workload {workload['namespace']}/{workload['name']}"


def domains(assignment: dict | None) -> list[list]:
    """Kueue's TopologyAssignment as a sorted list of [{level: value}, pods], one entry per domain."""
    if not assignment:
        return []
    levels, out = assignment.get("levels", []), []
    for piece in assignment.get("slices", []):
        for i in range(piece.get("domainCount", 0)):
            values = [_value(per_level, i) for per_level in piece.get("valuesPerLevel", [])]
            counts = piece.get("podCounts", {})
            pods = counts["universal"] if counts.get("universal") is not None else counts["individual"][i]
            out.append([dict(zip(levels, values)), pods])
    return sorted(out, key=lambda d: (sorted(d[0].items()), d[1]))


def _value(per_level: dict, i: int) -> str:
    if per_level.get("universal") is not None:
        return per_level["universal"]
    ind = per_level["individual"]
    return f"{ind.get('prefix') or ''}{ind['roots'][i]}{ind.get('suffix') or ''}"


def facts(workload: dict) -> dict:
    """The facts of one workload, in the shape fixtures/kueue-scenarios/expected.yaml records them."""
    got = {f: workload.get(f) for f in WORKLOAD_FIELDS}
    got["flavors"] = {ps["name"]: ps["flavors"] for ps in workload["podSets"]}
    got["counts"] = {ps["name"]: ps["count"] for ps in workload["podSets"]}
    if "preemptedBy" in workload:
        got["preemptedBy"] = workload["preemptedBy"]
    if any(ps.get("topology") for ps in workload["podSets"]):
        got["topology"] = {ps["name"]: ps.get("topology") for ps in workload["podSets"]}
    return got


def comparable(workload: dict, loose_message: bool = False) -> dict:
    """facts() with the topology as a multiset of domains, and the message cut at its first colon when loose."""
    got = facts(workload)
    if "topology" in got:
        got["topology"] = {ps: domains(t) for ps, t in got["topology"].items() if t}
    if loose_message and got["message"]:
        got["message"] = got["message"].split(":")[0] + ": ..."
    return got


def map_ordered(message: str | None) -> bool:
    """Whether Kueue built `message` in Go map order: it names two or more resources of one flavor."""
    counts = Counter(_RESOURCE_OF_FLAVOR.findall(message or ""))
    return any(n > 1 for n in counts.values())


def queue_facts(cq: dict) -> dict:
    return {f: cq.get(f) for f in ("cohort", "usage", "admitted", "pending")}


def unstable_messages(runs: list[dict]) -> set[str]:
    """The workloads whose message differs between runs of the oracle on one input."""
    seen: dict[str, set] = {}
    for run in runs:
        for wl in run["workloads"]:
            seen.setdefault(key(wl), set()).add(wl.get("message"))
    return {k for k, messages in seen.items() if len(messages) > 1}


def differences(ours: dict, theirs: dict, unstable: set[str] = frozenset()) -> list[str]:
    """Every way two kueue blocks differ, one line each (empty: they agree)."""
    out = []
    mine = {key(w): w for w in ours.get("workloads", [])}
    upstream = {key(w): w for w in theirs.get("workloads", [])}
    for k in sorted(set(mine) | set(upstream)):
        if k not in mine or k not in upstream:
            out.append(f"{k}: only in {'the oracle' if k in upstream else 'wasplan'}")
            continue
        loose = k in unstable or map_ordered(mine[k].get("message")) or map_ordered(upstream[k].get("message"))
        a, b = comparable(mine[k], loose), comparable(upstream[k], loose)
        for field in sorted(set(a) | set(b)):
            if a.get(field) != b.get(field):
                out.append(f"{k}: {field}: wasplan {a.get(field)!r}, Kueue {b.get(field)!r}")
    # with fair sharing on, status.fairSharing.weightedShare too (absent otherwise, in both)
    mine_q = {q["name"]: {**queue_facts(q), "fairSharing": q.get("fairSharing")} for q in ours.get("clusterQueues", [])}
    their_q = {q["name"]: {**queue_facts(q), "fairSharing": q.get("fairSharing")}
               for q in theirs.get("clusterQueues", [])}
    for name in sorted(set(mine_q) | set(their_q)):
        if mine_q.get(name) != their_q.get(name):
            out.append(f"ClusterQueue {name}: wasplan {mine_q.get(name)!r}, Kueue {their_q.get(name)!r}")
    return out


def outcome_counts(block: dict) -> Counter:
    return Counter(w["status"] for w in block.get("workloads", []))

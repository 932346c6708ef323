"""Run wasplan and the oracle (upstream kube-scheduler, `oracle/bin/oracle`) on the same files and compare.

What is compared, per case (the Plan JSON shape both print, docs/plan-json.md and docs/oracle.md):

* every pod: status (Bound, AlreadyBound, Pending, Gated, Preempted); a bound pod's node must equal the oracle's
  or be one of the oracle's `tiedNodes` for that pod (every node whose total score equalled the chosen one's);
  a pending pod's nominated node;
* every PodGroup and CompositePodGroup: the condition the scheduler wrote (status and reason; "no condition"
  where no cycle wrote one: see `_group_status`);
* every preemption: the preemptor and its set of victims;
* every ResourceClaim: allocated or not, the number of devices, the node.

wasplan breaks a score tie by node name, upstream by heap order (oracle.md §4); between equally scored
placements of a topology-aware group wasplan takes the first domain by name, upstream a random one (its
`rand.Int()` randomizer: the oracle lists them as the group's `tiedPlacements`, each with its nodes). Once a tie
went another way, the rest of the run legitimately differs, so such a case is compared on outcomes only: how many pods end in each
status, how many groups in each status, how many victims, how many claims are allocated. `Comparison.tied`
says this happened; those cases are counted separately.

Where wasplan names a preemption's tied placements (`podGroups[].alternatives`, docs/plan-json.md "Ties"), they
must be exactly the oracle's `tiedPlacements` for that group; when the oracle drew another of them, that
alternative's victims must be the oracle's victims, and the outcomes are compared as if wasplan had drawn it too
(`_drawn_alternatives`). A pod's preemption names its tied candidate nodes the same way
(`preemptions[].alternatives`): upstream's dry run starts at a random node (DryRunPreemption's offset,
preemption.go GetOffsetAndNumCandidates) and pickOneNodeForPreemption keeps the first of the candidates tied to
the last criterion, so when the oracle evicted the victims of another listed candidate, on that node, the rest is
compared as if wasplan had drawn it (`_drawn_pod_alternatives`).

A 1.36 gang's members take their nodes in an order upstream does not fix (`_gang_order_ties`): when both tools
bind every member on the same nodes, counted with multiplicity, which member took which node is such a tie.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Comparison:
    differences: list[str] = field(default_factory=list)
    tied: bool = False  # a tie was broken differently: the rest compared on outcomes only
    ties: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.differences


# -- running the two sides ---------------------------------------------------------------------------------

def gate_set(release: str, gates: str):
    from wasplan.api.releases import get_release, parse_gates

    return parse_gates(get_release(release), gates)


def validation_errors(paths: list[Path], release: str, gates: str) -> list[str]:
    """`wasplan validate`'s errors and warnings for the generated files (the generator must write valid objects)."""
    from wasplan.pipeline.validate import validate_paths

    report = validate_paths([str(p) for p in paths], gate_set(release, gates))
    return [f"{d.location.file}:{d.location.line}: {d.severity.value} {d.code} {d.message}" for d in report.diagnostics
            if d.severity.value in ("error", "warning")]


def run_wasplan(manifests: Path, cluster: Path, release: str, arrival: str, gates: str) -> dict:
    """`wasplan plan MANIFESTS --cluster CLUSTER -o json`, in process (the same pipeline and renderer)."""
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest
    from wasplan.report.plan_json import render_plan_json

    run = run_plan(PlanRequest([str(manifests)], [str(cluster)], gate_set(release, gates), arrival=arrival))
    if run.invalid or run.plan is None:
        problems = [f"{d.location.file}:{d.location.line}: {d.code} {d.message}" for d in run.diagnostics][:5]
        raise AssertionError(f"wasplan refused the case: {run.error or problems}")
    return json.loads(render_plan_json(run.plan))


def run_oracle(binary: str, manifests: Path, cluster: Path, release: str, arrival: str, gates: str,
               timeout: float = 120, seed: int | None = None) -> dict:
    """`oracle plan`; `seed` sets the oracle's math/rand seed (ORACLE_SEED), which draws upstream's random
    tie-breaks (placements, preemption candidates) another way; the default seed is 1."""
    cmd = [binary, "plan", str(manifests), "--cluster", str(cluster), "--k8s-version", release,
           "--feature-gates", gates, "--arrival", arrival, "-o", "json"]
    env = None if seed is None else {**os.environ, "ORACLE_SEED": str(seed)}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False, env=env)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise AssertionError(f"oracle failed (exit {done.returncode}): {' '.join(map(str, cmd))}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def run_oracle_evaluate(binary: str, pod: str, manifests: Path, cluster: Path, release: str, gates: str) -> dict:
    cmd = [binary, "evaluate", "--pod", pod, str(manifests), "--cluster", str(cluster), "--k8s-version", release,
           "--feature-gates", gates, "-o", "json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise AssertionError(f"oracle evaluate failed (exit {done.returncode}): {' '.join(cmd)}\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


# -- comparing ---------------------------------------------------------------------------------------------

def _key(obj: dict) -> str:
    return f"{obj.get('namespace', '')}/{obj['name']}"


def _by_key(items) -> dict[str, dict]:
    return {_key(i): i for i in items or ()}


def _ref(ref) -> str:
    if isinstance(ref, dict):
        return f"{ref.get('kind', 'Pod')} {ref.get('namespace', '')}/{ref.get('name', '')}"
    return str(ref)


def _victims(plan: dict) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for p in plan.get("preemptions") or ():
        out.setdefault(_ref(p["preemptor"]), set()).update(_key(v) for v in p.get("victims") or ())
    return {k: frozenset(v) for k, v in out.items()}


def _claims(plan: dict) -> dict[str, dict]:
    """Claims by name, a generated one by its owner and the owner's claim entry (the two sides may name
    generated claims differently; what matters is which pod's claim it is)."""
    out = {}
    for c in plan.get("resourceClaims") or ():
        owner = c.get("owner")
        key = (f"{c.get('namespace', '')}/{owner['name']} {owner.get('kind', '')} claim {owner.get('claim', '')}"
               if owner else _key(c))
        out[key] = c
    return out


def _claim_view(c: dict) -> tuple:
    allocated = c.get("status") in ("Allocated", "AlreadyAllocated")
    return (allocated, len(c.get("devices") or ()) if allocated else 0, c.get("node") if allocated else None)


def _gang_order_ties(ours: dict, theirs: dict, out: Comparison) -> set[str]:
    """Pods of 1.36 gangs bound on other nodes only because upstream tried the members in another order.

    v1.36.5 tries a gang's queued members sorted by priority, then InitialAttemptTimestamp
    (pkg/scheduler/schedule_one_podgroup.go podGroupInfoForPod). The queue stamps that time when it moves a pod
    to the activeQ (pkg/scheduler/backend/queue/scheduling_queue.go moveToActiveQ), and the members waiting at
    PreEnqueue for the gang's minCount move there together, as the last member's arrival lets them in, in the
    iteration order of a Go map (movePodsToActiveOrBackoffQueue over unschedulablePods.podInfoMap,
    backend/queue/unschedulable_pods.go): the order, and so which member takes which node, changes from run to
    run. Accepted when every member is bound on both sides and the two place the gang on the same multiset of
    nodes; a gang that ends on other nodes (another order can change that too) is still a difference."""
    if theirs.get("k8sVersion") != "1.36":
        return set()
    mine, upstream = _by_key(ours.get("pods")), _by_key(theirs.get("pods"))
    covered: set[str] = set()
    for group in theirs.get("podGroups") or ():
        if group.get("policy") != "gang":
            continue
        members = [m for m in group.get("pods") or () if m in mine and m in upstream]
        if not members or any(mine[m]["status"] != "Bound" or upstream[m]["status"] != "Bound" for m in members):
            continue
        placed = Counter(mine[m].get("node") for m in members)
        if placed != Counter(upstream[m].get("node") for m in members):
            continue
        moved = [m for m in members if mine[m].get("node") != upstream[m].get("node")]
        covered.update(members)
        if moved:
            out.tied = True
            swaps = ", ".join(f"{m} wasplan {mine[m].get('node')}, oracle {upstream[m].get('node')}" for m in moved)
            out.ties.append(f"podGroup {_key(group)}: members in another order on the same nodes ({swaps})")
    return covered


def _pod_ties(ours: dict, theirs: dict, out: Comparison) -> None:
    """Bound on different nodes: a tie if ours is among the oracle's tied nodes, else a difference."""
    mine, upstream = _by_key(ours.get("pods")), _by_key(theirs.get("pods"))
    ordered = _gang_order_ties(ours, theirs, out)
    for key in sorted(mine.keys() & upstream.keys()):
        a, b = mine[key], upstream[key]
        if key in ordered:
            continue
        if a["status"] == b["status"] == "Bound" and a.get("node") != b.get("node"):
            if a.get("node") in (b.get("tiedNodes") or ()):
                out.tied = True
                out.ties.append(f"pod {key}: wasplan {a.get('node')}, oracle {b.get('node')} "
                                f"(tied: {', '.join(b.get('tiedNodes') or ())})")


def _group_members(theirs: dict, kind: str, key: str, seen: frozenset = frozenset()) -> set[str]:
    """The pods of an oracle group: a PodGroup's own, a CompositePodGroup's those of its descendants."""
    groups = _by_key(theirs.get(kind))
    group = groups.get(key)
    if group is None or key in seen:
        return set()
    if kind == "podGroups":
        return set(group.get("pods") or ())
    namespace = group.get("namespace", "")
    out: set[str] = set()
    for child in group.get("children") or ():
        child_kind = "podGroups" if child.get("kind") == "PodGroup" else "compositePodGroups"
        out |= _group_members(theirs, child_kind, f"{namespace}/{child['name']}", seen | {key})
    return out


def _placement_ties(ours: dict, theirs: dict, out: Comparison) -> None:
    """A topology-aware group placed elsewhere than the oracle placed it: a tie if every member wasplan bound is
    on a node of one placement that tied with the oracle's choice."""
    mine, upstream = _by_key(ours.get("pods")), _by_key(theirs.get("pods"))
    for kind in ("podGroups", "compositePodGroups"):
        for key, group in sorted(_by_key(theirs.get(kind)).items()):
            tied = group.get("tiedPlacements") or ()
            members = sorted(_group_members(theirs, kind, key))
            ours_nodes = {m: mine[m].get("node") for m in members if m in mine and mine[m]["status"] == "Bound"}
            if not tied or not ours_nodes:
                continue
            if all(ours_nodes[m] == (upstream.get(m) or {}).get("node") for m in ours_nodes):
                continue
            used = set(ours_nodes.values())
            match = next((p["name"] for p in tied if used <= set(p.get("nodes") or ())), None)
            if match is not None:
                out.tied = True
                out.ties.append(f"{kind[:-1]} {key}: wasplan placed it in {match}, the oracle elsewhere "
                                f"(tied placements: {', '.join(p['name'] for p in tied)})")


def _drawn_alternatives(ours: dict, theirs: dict, out: Comparison) -> dict:
    """Check wasplan's tied placements against the oracle's tie set, and return wasplan's plan as it reads when
    each group's preemption had drawn the placement the oracle drew (victims swapped), for the comparison."""
    upstream, pods_up = _by_key(theirs.get("podGroups")), _by_key(theirs.get("pods"))
    for key, group in sorted(_by_key(ours.get("podGroups")).items()):
        alternatives = group.get("alternatives") or ()
        if not alternatives:
            continue
        names = sorted(a["placement"].partition("=")[2] for a in alternatives)
        tied = sorted(p["name"] for p in (upstream.get(key) or {}).get("tiedPlacements") or ())
        listed_all = group.get("tiedChoices", len(names)) == len(tied) and set(names) <= set(tied)
        if names != tied and not (group.get("tiedChoices") and listed_all):  # a capped list names some of them
            out.differences.append(f"podGroup {key}: tied placements wasplan {names}, oracle {tied or 'none'}")
            continue
        used = {(pods_up.get(m) or {}).get("node") or (pods_up.get(m) or {}).get("nominatedNode")
                for m in group.get("pods") or ()} - {None}
        drawn = next((a for a in alternatives if used and used <= set(a["nodes"])), None)
        if drawn is None or drawn["chosen"]:
            continue
        chosen = next(a for a in alternatives if a["chosen"])
        mine = _victims(ours).get(f"PodGroup {key}", frozenset())
        upstream_victims = _victims(theirs).get(f"PodGroup {key}", frozenset())
        if frozenset(drawn["victims"]) != upstream_victims:
            out.differences.append(f"podGroup {key}: the oracle drew {drawn['placement']}, whose victims wasplan "
                                   f"gives as {drawn['victims']}, oracle {sorted(upstream_victims)}")
        out.tied = True
        out.ties.append(f"podGroup {key}: the oracle drew {drawn['placement']}, wasplan carries out "
                        f"{chosen['placement']}")
        ours = _as_drawn(ours, f"PodGroup {key}", mine, frozenset(drawn["victims"]), theirs)
    return ours


def _drawn_pod_alternatives(ours: dict, theirs: dict, out: Comparison) -> dict:
    """A pod's preemption whose tied candidate nodes wasplan names: when the oracle nominated the pod on another
    of them and evicted exactly that candidate's victims, the oracle drew it; the rest is compared on outcomes,
    with wasplan's plan read as if it had drawn the same candidate (victims swapped)."""
    pods_up, upstream_victims = _by_key(theirs.get("pods")), _victims(theirs)
    for entry in ours.get("preemptions") or ():
        preemptor, alternatives = entry["preemptor"], entry.get("alternatives") or ()
        if preemptor.get("kind", "Pod") != "Pod" or not alternatives:
            continue
        key = _key(preemptor)
        pod = pods_up.get(key) or {}
        node = pod.get("nominatedNode") or pod.get("node")
        theirs_victims = upstream_victims.get(_ref(preemptor), frozenset())
        drawn = next((a for a in alternatives if a["node"] == node and frozenset(a["victims"]) == theirs_victims),
                     None)
        if drawn is None or drawn["chosen"]:
            continue
        chosen = next(a for a in alternatives if a["chosen"])
        out.tied = True
        out.ties.append(f"pod {key}: the oracle drew the preemption candidate {drawn['node']}, wasplan carries out "
                        f"{chosen['node']}")
        ours = _as_drawn(ours, _ref(preemptor), frozenset(chosen["victims"]), frozenset(drawn["victims"]), theirs)
    return ours


def _as_drawn(plan: dict, preemptor: str, victims: frozenset, drawn: frozenset, theirs: dict) -> dict:
    """`plan` with the preemption of `preemptor` ("PodGroup ns/name", "Pod ns/name") evicting `drawn` instead
    of `victims`, which stay running: AlreadyBound, or Bound where the oracle, which kept them, says so (a pod
    the plan itself bound before it was evicted)."""
    upstream = _by_key(theirs.get("pods"))

    def status(p):
        key = _key(p)
        if key in drawn:
            return "Preempted"
        if key not in victims:
            return p["status"]
        kept = (upstream.get(key) or {}).get("status")
        return kept if kept in ("Bound", "AlreadyBound") else "AlreadyBound"
    pods = [{**p, "status": status(p)} for p in plan.get("pods") or ()]
    preemptions = [{**p, "victims": [{"namespace": k.partition("/")[0], "name": k.partition("/")[2]}
                                     for k in sorted(drawn)]}
                   if _ref(p["preemptor"]) == preemptor else p for p in plan.get("preemptions") or ()]
    return {**plan, "pods": pods, "preemptions": preemptions}


def _strict(ours: dict, theirs: dict, out: Comparison) -> None:
    mine, upstream = _by_key(ours.get("pods")), _by_key(theirs.get("pods"))
    for key in sorted(mine.keys() | upstream.keys()):
        a, b = mine.get(key), upstream.get(key)
        if a is None or b is None:
            out.differences.append(f"pod {key}: only in {'oracle' if a is None else 'wasplan'}")
            continue
        if a["status"] != b["status"]:
            out.differences.append(f"pod {key}: status wasplan {a['status']} ({a.get('node') or a.get('message', '')})"
                                   f", oracle {b['status']} ({b.get('node') or b.get('message', '')})")
        elif a["status"] == "Bound" and a.get("node") != b.get("node") \
                and a.get("node") not in (b.get("tiedNodes") or ()):
            out.differences.append(f"pod {key}: node wasplan {a.get('node')}, oracle {b.get('node')} "
                                   f"(tied: {', '.join(b.get('tiedNodes') or ()) or 'none'})")
        elif a["status"] == "Pending" and (a.get("nominatedNode") or None) != (b.get("nominatedNode") or None):
            out.differences.append(f"pod {key}: nominated node wasplan {a.get('nominatedNode')}, "
                                   f"oracle {b.get('nominatedNode')}")
    for kind in ("podGroups", "compositePodGroups"):
        mg, ug = _by_key(ours.get(kind)), _by_key(theirs.get(kind))
        for key in sorted(mg.keys() | ug.keys()):
            sa, sb = _group_status(mg.get(key)), _group_status(ug.get(key))
            if sa != sb:
                out.differences.append(f"{kind[:-1]} {key}: status wasplan {sa}, oracle {sb}")
    mv, uv = _victims(ours), _victims(theirs)
    for key in sorted(mv.keys() | uv.keys()):
        if mv.get(key, frozenset()) != uv.get(key, frozenset()):
            out.differences.append(f"preemption by {key}: victims wasplan {sorted(mv.get(key, ()))}, "
                                   f"oracle {sorted(uv.get(key, ()))}")
    mc, uc = _claims(ours), _claims(theirs)
    for key in sorted(mc.keys() | uc.keys()):
        va = _claim_view(mc[key]) if key in mc else None
        vb = _claim_view(uc[key]) if key in uc else None
        if va != vb:
            out.differences.append(f"claim {key}: wasplan {_claim_text(va)}, oracle {_claim_text(vb)}")


def _group_status(group: dict | None) -> str | None:
    """A group's status as compared: what the scheduler wrote, its condition's status and reason. The `status`
    label is each tool's summary of it and says more where no cycle wrote anything: a group whose pods ran
    before the plan (wasplan Scheduled, the oracle WaitingForPods), one whose every pod the plan evicts (wasplan
    Unschedulable/PreemptionByScheduler, docs/plan-json.md, while the condition upstream never lowers stays
    True), a CompositePodGroup (upstream v1.37.2 never gives one a condition). Those compare as the condition
    both sides agree on, or as "no condition"; their pods are compared anyway."""
    if group is None:
        return None
    cond = group.get("condition")
    return f"{cond.get('status')} {cond.get('reason')}" if cond else NO_CONDITION


NO_CONDITION = "(no condition)"


def _claim_text(view) -> str:
    if view is None:
        return "absent"
    allocated, devices, node = view
    return f"{devices} device(s) on {node or 'no single node'}" if allocated else "not allocated"


def _outcomes(plan: dict) -> dict[str, Counter]:
    return {"pods": Counter(p["status"] for p in plan.get("pods") or ()),
            "podGroups": Counter(_group_status(g) for g in plan.get("podGroups") or ()),
            "compositePodGroups": Counter(_group_status(g) for g in plan.get("compositePodGroups") or ()),
            "victims": Counter({"victims": sum(len(p.get("victims") or ()) for p in plan.get("preemptions") or ())}),
            "claims": Counter("allocated" if _claim_view(c)[0] else "not allocated"
                              for c in plan.get("resourceClaims") or ())}


def _loose(ours: dict, theirs: dict, out: Comparison) -> None:
    mine, upstream = _outcomes(ours), _outcomes(theirs)
    for what in mine:
        if mine[what] != upstream[what]:
            out.differences.append(f"{what} outcomes (after a tie went another way): wasplan {dict(mine[what])}, "
                                   f"oracle {dict(upstream[what])}")


def compare(ours: dict, theirs: dict) -> Comparison:
    out = Comparison()
    ours = _drawn_alternatives(ours, theirs, out)
    ours = _drawn_pod_alternatives(ours, theirs, out)
    _pod_ties(ours, theirs, out)
    _placement_ties(ours, theirs, out)
    (_loose if out.tied else _strict)(ours, theirs, out)
    return out


def describe(label: str, root: Path, result: Comparison, ours: dict, theirs: dict) -> str:
    """What a failing comparison prints: the case, where its files are, and the differences."""
    lines = [f"wasplan and the oracle disagree: {label}", f"  files: {root}/manifests.yaml --cluster {root}/cluster.yaml"]
    lines += [f"  - {d}" for d in result.differences]
    if result.ties:
        lines.append("  ties broken differently:")
        lines += [f"    {t}" for t in result.ties]
    (root / "wasplan.json").write_text(json.dumps(ours, indent=1))
    (root / "oracle.json").write_text(json.dumps(theirs, indent=1))
    lines.append(f"  both plans: {root}/wasplan.json {root}/oracle.json")
    return "\n".join(lines)

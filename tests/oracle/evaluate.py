"""The per-plugin comparison: one pending pod against one state, every Filter plugin on every node and the total
score of every feasible node, from wasplan's recorder (engine/cycle/recorder.py, each plugin judged on its own) and
from `oracle evaluate` (upstream's plugins called one by one, oracle.md §11.2), and ImageLocality's raw,
normalised and weighted scores on every feasible node. This finds plugin differences
that ties and queue order hide in whole plans.

The state is the case's cluster file as it is (running pods included, nothing scheduled); the pod is written
alone as the manifests file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import compare
import gen

IMAGE_LOCALITY = "ImageLocality"


def write_pair(case: gen.Case, pod: dict, root: Path) -> tuple[Path, Path]:
    """The cluster of `case` and `pod` alone as the manifests (namespaces the pod needs come along)."""
    single = gen.Case(case.seed, case.release, case.arrival, case.theme, case.cluster, [pod])
    return single.write(root)


def wasplan_verdicts(manifests: Path, cluster: Path, release: str, gates: str) -> dict:
    """{"nodes": {node: {"filters": {plugin: [reasons]}, "feasible": bool}}, "totals": {node: score},
    "images": {node: [raw, normalised, weighted]}} (ImageLocality's scores, feasible nodes) for the one pod of
    `manifests`, on the cluster's state (running pods bound, nothing else scheduled)."""
    from wasplan.cluster.model import Pod
    from wasplan.engine.cycle.recorder import record
    from wasplan.engine.simulator import Simulator
    from wasplan.pipeline.plan import prepare_plan
    from wasplan.pipeline.requests import PlanRequest

    prepared = prepare_plan(PlanRequest([str(manifests)], [str(cluster)], compare.gate_set(release, gates)))
    assert prepared.inputs is not None, [d.message for d in prepared.run.diagnostics][:3]
    sim = Simulator(prepared.inputs, prepared.options)
    pods = [r for r in sim.arrivals if isinstance(r, Pod)]
    sim.arrivals = [r for r in sim.arrivals if not isinstance(r, Pod)]  # the state: everything but the pod
    sim.replay()
    (pod,) = pods
    ev = sim.evaluators[pod.scheduler_name]
    verdicts = record(ev, pod)
    nodes = {}
    feasible = np.zeros(len(verdicts.nodes), dtype=bool)
    for i, name in enumerate(verdicts.nodes):
        reasons = {p: r for p, r in verdicts.node_reasons(i).items() if p in verdicts.enabled}
        feasible[i] = not reasons
        nodes[name] = {"filters": reasons, "feasible": bool(feasible[i])}
    totals, images = {}, {}
    if feasible.any():
        sv = ev.static_verdict(pod)
        scores = np.broadcast_to(ev.total_scores(pod, sv, feasible), feasible.shape)
        totals = {verdicts.nodes[i]: int(scores[i]) for i in np.flatnonzero(feasible)}
        weight = ev.profile.weight(IMAGE_LOCALITY)
        for i in np.flatnonzero(feasible):
            raw = sv.raw.get(IMAGE_LOCALITY)
            score = 0 if raw is None else int(raw[i])  # no normalisation: raw = normalised
            images[verdicts.nodes[i]] = [score, score, weight * score]
    return {"nodes": nodes, "totals": totals, "images": images}


def oracle_verdicts(raw: dict) -> dict:
    """The oracle's evaluate JSON in the same shape as wasplan_verdicts."""
    nodes = {}
    for entry in raw.get("nodes") or ():
        failing = {p: list(v.get("reasons") or [v.get("code", "")]) for p, v in (entry.get("filters") or {}).items()
                   if v and v.get("code") not in (None, "", "Success", "Skip")}
        nodes[entry["node"]] = {"filters": failing, "feasible": bool(entry.get("feasible"))}
    totals = {e["node"]: int(e["total"]) for e in raw.get("scores") or ()}
    images = {e["node"]: [int(e[part].get(IMAGE_LOCALITY, 0)) for part in ("raw", "normalized", "weighted")]
              for e in raw.get("scores") or ()}
    return {"nodes": nodes, "totals": totals, "images": images}


def differences(ours: dict, theirs: dict, reasons: bool = True) -> list[str]:
    """What differs: feasibility per node, each filter's reasons (unless `reasons` is False), then, where those
    agree, ImageLocality's scores and the totals."""
    out = []
    for node in sorted(ours["nodes"].keys() | theirs["nodes"].keys()):
        a, b = ours["nodes"].get(node), theirs["nodes"].get(node)
        if a is None or b is None:
            out.append(f"node {node}: only in {'oracle' if a is None else 'wasplan'}")
            continue
        if a["feasible"] != b["feasible"]:
            out.append(f"node {node}: feasible wasplan {a['feasible']}, oracle {b['feasible']}")
        for plugin in sorted(a["filters"].keys() | b["filters"].keys()) if reasons else ():
            ra, rb = sorted(a["filters"].get(plugin, [])), sorted(b["filters"].get(plugin, []))
            if ra != rb:
                out.append(f"node {node} {plugin}: wasplan {ra or 'passes'}, oracle {rb or 'passes'}")
    if not out:
        for node in sorted(ours["images"].keys() | theirs["images"].keys()):
            if ours["images"].get(node) != theirs["images"].get(node):
                out.append(f"node {node}: {IMAGE_LOCALITY} (raw, normalised, weighted) wasplan "
                           f"{ours['images'].get(node)}, oracle {theirs['images'].get(node)}")
        for node in sorted(ours["totals"].keys() | theirs["totals"].keys()):
            if ours["totals"].get(node) != theirs["totals"].get(node):
                out.append(f"node {node}: total score wasplan {ours['totals'].get(node)}, "
                           f"oracle {theirs['totals'].get(node)}")
    return out


def pending_pods(case: gen.Case) -> list[dict]:
    """The case's pods the per-plugin mode can ask about: plain pods (a group member's verdict depends on its
    group's cycle) without claims (the DRA filter needs the allocator's state, compared through whole plans)."""
    return [d for d in case.manifests if d["kind"] == "Pod" and "schedulingGroup" not in d["spec"]
            and "resourceClaims" not in d["spec"]
            and not any("example.com/gpu" in ((c.get("resources") or {}).get("requests") or {})
                        for c in d["spec"]["containers"])]

"""wasplan's pods as the engine plans them against the oracle's pods as the scheduler receives them (oracle
`default`: the release's defaulting, the Priority and DefaultTolerationSeconds admission plugins).

Per pod present on both sides, every field the scheduler reads, in wasplan's record terms: the effective and
non-zero requests and the per-container extended requests (requests from limits for every resource), the
tolerations with their tolerationSeconds, schedulerName, node selector and affinity, spread constraints, host
ports, scheduling gates, the PodGroup it joins, labels; and what admission wrote: priorityClassName (the
global default's when none was named), priority and preemptionPolicy. The oracle's pod is read back through
wasplan's own reader: its requests are explicit by then, so what is compared is the defaulting, not the sum.
Refusals are compared too: which pods of the manifests admission refuses, and the server's message.

Pods only wasplan has (a Job's, a Deployment's: the controllers are compared by test_expand_oracle.py) and pods
the oracle reads but wasplan plans under another name (generateName) are left out of the per-pod comparison.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tests.oracle.conftest import run_oracle
from wasplan.api.priority import admit
from wasplan.api.releases import get_release, parse_gates
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Pod, PriorityClass
from wasplan.cluster.parse_pod import parse_pod
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import ReadResult, read_paths

FIELDS = ("requests", "non_zero_requests", "containers", "tolerations", "scheduler_name", "node_selector",
          "affinity", "topology_spread", "host_ports", "scheduling_gates", "pod_group", "labels")


@dataclass
class Comparison:
    pods: int = 0  # compared on both sides
    agree: int = 0
    refused_both: int = 0
    differences: list[str] = field(default_factory=list)


def admitted(pod: Pod, classes: dict[str, PriorityClass]) -> tuple:
    """(priorityClassName, priority, preemptionPolicy) as the engine takes them: what the pod wrote, else what
    Priority admission gives (api/priority.py admit; the engine's World.resolve_priority and pod_policy)."""
    got = admit(pod.priority_class_name, None, None, classes)
    return (pod.priority_class_name or got.class_name, got.priority if pod.priority is None else pod.priority,
            pod.preemption_policy or got.preemption_policy)


def wasplan_pods(manifests: Path, cluster: Path | None, release: str, gates: str) -> tuple[dict, dict]:
    """({ns/name: view}, {ns/name: refusal message}) for the pods written as Pods."""
    snapshot = read_paths([str(cluster)]) if cluster else ReadResult()
    inputs, _ = build_inputs(snapshot, read_paths([str(manifests)]), parse_gates(get_release(release), gates or None))
    records = [*inputs.existing, *inputs.arrivals]
    classes = {r.name: r for r in records if isinstance(r, PriorityClass)}
    views = {p.key: _view(p) + (admitted(p, classes),) for p in records
             if isinstance(p, Pod) and p.source is not None and p.source.kind == "Pod" and p.source.name}
    refused = {f"{r.pod.namespace}/{r.pod.name}": r.message for r in inputs.refused if r.pod.source is not None}
    return views, refused


def _view(pod: Pod) -> tuple:
    return tuple(getattr(pod, f) for f in FIELDS)


def oracle_pods(binary: Path, manifests: Path, cluster: Path | None, release: str, gates: str) -> tuple[dict, dict]:
    args = ["default", str(manifests), *(["--cluster", str(cluster)] if cluster else []), "--k8s-version", release,
            *(["--feature-gates", gates] if gates else []), "-o", "json"]
    result = run_oracle(binary, args)
    if result.returncode != 0:
        raise AssertionError(f"oracle default failed ({result.returncode}): {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    views = {}
    for obj in report["objects"]:
        if obj["kind"] != "Pod":
            continue
        pod = parse_pod(obj, Ctx(None))
        spec = obj["spec"]
        views[pod.key] = _view(pod) + ((spec.get("priorityClassName") or None, spec.get("priority"),
                                        spec.get("preemptionPolicy")),)
    refused = {f"{r['namespace'] or 'default'}/{r['name']}": r["message"] for r in report["refused"]
               if r["kind"] == "Pod" and r["reason"] == "refused" and Path(r["file"]) == Path(manifests)}
    return views, refused


def compare(binary: Path, manifests: Path, cluster: Path | None, release: str, gates: str, label: str,
            into: Comparison) -> None:
    ours, our_refusals = wasplan_pods(manifests, cluster, release, gates)
    theirs, their_refusals = oracle_pods(binary, manifests, cluster, release, gates)
    for key in sorted(set(ours) & set(theirs)):
        into.pods += 1
        if ours[key] == theirs[key]:
            into.agree += 1
            continue
        diff = [f"{name}: wasplan {a!r} oracle {b!r}" for name, a, b in
                zip((*FIELDS, "admission"), ours[key], theirs[key]) if a != b]
        into.differences.append(f"{label} pod {key}: " + "; ".join(diff))
    for key in sorted((set(ours) ^ set(theirs)) - set(our_refusals) - set(their_refusals)):
        into.differences.append(f"{label} pod {key}: only {'wasplan' if key in ours else 'the oracle'} has it")
    into.refused_both += len(set(our_refusals) & set(their_refusals))
    if our_refusals != their_refusals:
        into.differences.append(f"{label} refusals: wasplan {our_refusals} oracle {their_refusals}")

"""The Kueue stage of `plan`: Kueue's admission runs before kube-scheduler when the inputs hold a ClusterQueue.

The model is `wasplan.kueue` (Kueue v0.17.0's scheduler, flavor assigner and preemptor, modelled offline); this
stage feeds it the read documents (the snapshot's first, so a snapshot's Workloads are older than the
manifests' objects, as `KueueInputs.from_objects` expects) and turns its result into what the rest of the plan
needs:
* per object Kueue built a Workload from, a `KueueVerdict` (cluster/kueue.py): an admitted object's pods reach
  the engine with their flavors' node selectors and tolerations, as Kueue's job framework sets them on
  admission (KDIR/pkg/controller/jobframework/reconciler.go `startJob`); the others' pods wait with Kueue's
  status, reason and message (cluster/snapshot.py `_arrival`). The Workloads of the pod-based integrations and
  LeaderWorkerSet stand for named pods (`KueueInputs.members`: a pod group's members, a Deployment's pod, a
  StatefulSet's or a LeaderWorkerSet group's pods): each such pod gets a verdict of its own, keyed as a Pod,
  holding only its PodSet (and, with TAS, the one domain its place in the PodSet falls in), as Kueue ungates
  each pod with its PodSet's flavors (KDIR/pkg/controller/jobs/pod/pod_controller.go `Run`);
* the plan JSON `kueue` block (`KueueResult.to_json()`, docs/plan-json.md);
* `evictions`: the snapshot pods of each Workload that held quota and that Kueue evicts (preempted, or drained by
  a HoldAndDrain queue), found as Kueue's job framework stops them (pipeline/kueue_evict.py): they leave their
  nodes before kube-scheduler runs (cluster/snapshot.py) and the plan lists them `Evicted`;
* diagnostics: WAS692 for what the model names as not modelled (the plan is then incomplete: `--fail-on
  pending` exits 1), WAS698 for what Kueue's Configuration sets that the model does not follow (the same),
  WAS693 for a Workload Kueue evicted whose pods the plan cannot find in the snapshot (the plan is then
  incomplete), WAS694 for a Workload Kueue could not build. After the simulation, `disagreements` adds WAS695 for an admitted object whose
  pods kube-scheduler leaves pending.
Without a ClusterQueue, or with `--assume-admitted`, the stage does nothing and today's behaviour stays.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from wasplan.cluster.kueue import QUEUE_LABEL, KueueDecisions, KueueVerdict
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location
from wasplan.pipeline.kueue_evict import eviction_reason, stopped_pods, workload_doc
from wasplan.plan import Plan, PodStatus

ADMITTED = "Admitted"  # KueueStatus.ADMITTED; the model is imported only when a ClusterQueue is among the inputs


@dataclass
class KueueStage:
    """What the Kueue stage gives the rest of the plan: the model's result, its verdicts and evictions."""

    result: Any  # wasplan.kueue.KueueResult
    decisions: KueueDecisions
    documents: list = field(default_factory=list)  # what the admission read, snapshot first (explain re-runs it)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    members: dict = field(default_factory=dict)  # (namespace, Workload) -> ((pod, PodSet), ...): KueueInputs.members
    evictions: dict = field(default_factory=dict)  # (namespace, pod) -> (reason, message): snapshot pods Kueue stops
    unfound: list[str] = field(default_factory=list)  # evicted Workloads whose pods the plan could not find

    @property
    def block(self) -> dict:
        return self.result.to_json()

    @property
    def not_admitted(self) -> int:
        return sum(1 for w in self.result.workloads if w.status.value != ADMITTED)


def run_stage(snapshot_docs: list, manifest_docs: list, assume_admitted: bool) -> KueueStage | None:
    """Kueue's admission over the inputs, or None without a ClusterQueue (or with --assume-admitted)."""
    if assume_admitted or not any(_is_cluster_queue(d) for d in (*snapshot_docs, *manifest_docs)):
        return None
    from wasplan.kueue import KueueInputs, admit

    inputs = KueueInputs.from_objects([d.obj for d in (*snapshot_docs, *manifest_docs)])
    if not inputs.has_cluster_queue:
        return None
    result = admit(inputs)
    where = _locations(manifest_docs)
    stage = KueueStage(result, _decisions(result, inputs.members), [*snapshot_docs, *manifest_docs],
                       members=inputs.members)
    config_at = next((d.location(("kind",)) for d in (*snapshot_docs, *manifest_docs) if _is_configuration(d)),
                     Location("<plan>"))
    for what in result.not_modelled:
        if what in result.config_not_modelled:
            stage.diagnostics.append(_diag("WAS698", f"not modelled in Kueue's admission: {what}; Kueue's decisions "
                                                     "may differ from the plan's", config_at))
        else:
            stage.diagnostics.append(_diag("WAS692", f"not modelled in Kueue's admission: {what}; Kueue's decisions "
                                                     "may differ from the plan's", Location("<plan>")))
    stage.diagnostics += [_diag("WAS694", f"Kueue builds no Workload for {what}", Location("<plan>"))
                          for what in result.not_built]
    for wl in result.workloads:
        if wl.evicted:
            _evict(stage, wl, snapshot_docs, where)
    return stage


def _evict(stage: KueueStage, wl, snapshot_docs: list, where: dict) -> None:
    """The snapshot pods of an evicted Workload are stopped (pipeline/kueue_evict.py); where the plan cannot
    find them, WAS693 says so and the plan counts as incomplete."""
    reason, message = wl.eviction
    pods = stopped_pods(wl, snapshot_docs)
    subject = f"Workload {wl.namespace}/{wl.name}"
    by = f"stopped by Kueue: its {subject} is evicted ({reason or 'Preempted'}" + (
        f" by {wl.preempted_by})" if wl.preempted_by else ")")
    for pod in pods:
        stage.evictions[(wl.namespace, pod)] = (eviction_reason(reason), by)
    if pods:
        return
    stage.unfound.append(f"the running pods of {subject}, which Kueue evicts (the plan found none of them, so "
                         "they keep their nodes)")
    stage.diagnostics.append(_diag(
        "WAS693", f"Kueue evicts {subject}, which holds quota in the snapshot ({reason or 'Preempted'}: "
                  f"{message or wl.message}), but the plan could not find its pods: they keep their nodes in the "
                  "plan, where Kueue stops them", _where(wl, snapshot_docs, where),
        "give the snapshot the Workload's job (its controller ownerReference) and its pods: `kubectl get "
        "workloads,jobs,jobsets,pods -A -o yaml`"))


def _where(wl, snapshot_docs: list, where: dict) -> Location:
    """The Workload's own document in the snapshot, else the manifest object it was built from."""
    doc = workload_doc(wl, snapshot_docs)
    return doc.location(("metadata", "name")) if doc is not None else where.get(_owner_key(wl), Location("<plan>"))


def _is_configuration(doc) -> bool:
    """Kueue's Configuration (config.kueue.x-k8s.io), which the admission model reads (docs/kueue.md)."""
    return doc.kind == "Configuration" and doc.api_version.startswith("config.kueue.x-k8s.io/")


def _is_cluster_queue(doc) -> bool:
    return doc.kind == "ClusterQueue" and doc.api_version.startswith("kueue.x-k8s.io/")


def _decisions(result, members: dict) -> KueueDecisions:
    out: KueueDecisions = {}
    for wl in result.workloads:
        if wl.source is None:
            continue
        group = wl.source.api_version.rpartition("/")[0] if "/" in wl.source.api_version else ""
        admitted = wl.status.value == ADMITTED
        pod_sets = tuple((p.name, dict(p.node_selector), tuple(p.tolerations), _domains(p.topology))
                         for p in wl.pod_sets) if admitted else ()
        verdict = KueueVerdict(wl.name, wl.cluster_queue, admitted, wl.status.value, wl.reason, wl.message, pod_sets)
        pods = members.get((wl.namespace, wl.name))
        if pods is None:
            out[(group, wl.source.kind, wl.source.namespace, wl.source.name)] = verdict
        else:
            out.update(_pod_verdicts(wl.namespace, pods, verdict))
    return out


def _pod_verdicts(namespace: str, pods: tuple, verdict: KueueVerdict) -> KueueDecisions:
    """Each pod of a Workload built from pods its verdict: only its PodSet, and with TAS the domain of its place
    among the PodSet's pods (the first `count` pods in the first domain, and so on)."""
    out: KueueDecisions = {}
    index: dict[str, int] = {}
    by_name = {name: (name, selector, tolerations, domains) for name, selector, tolerations, domains in verdict.pod_sets}
    for pod, pod_set in pods:
        k = index[pod_set] = index.get(pod_set, -1) + 1
        own = ()
        if pod_set in by_name:
            name, selector, tolerations, domains = by_name[pod_set]
            own = ((name, selector, tolerations, _nth_domain(domains, k)),)
        out[("", "Pod", namespace, pod)] = dataclasses.replace(verdict, pod_sets=own)
    return out


def _nth_domain(domains: tuple, k: int) -> tuple:
    for labels, count in domains:
        if k < count:
            return ((labels, 1),)
        k -= count
    return ()


def _domains(topology) -> tuple:
    """A PodSet's TAS domains as ((label, value) pairs, pod count), in Kueue's order; () without TAS."""
    return tuple((tuple(sorted(labels.items())), count) for labels, count in topology or ())


def _owner_key(wl) -> tuple[str, str, str] | None:
    return (wl.source.kind, wl.source.namespace, wl.source.name) if wl.source else None


def _locations(docs: list) -> dict:
    return {(d.kind, d.namespace or "default", d.name): d.location(("metadata", "labels", QUEUE_LABEL))
            for d in docs if d.name}


def _diag(code: str, message: str, where: Location, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, where, hint)


def disagreements(stage: KueueStage, plan: Plan, origins: dict) -> list[Diagnostic]:
    """WAS695 for each object Kueue admits whose pods kube-scheduler does not all place: Kueue's quota says yes,
    the nodes say no (a flavor's nodeLabels no node has, taints, or quota larger than what nodes hold). Pods with a
    verdict of their own (the pod-based integrations) count towards the object that creates them."""
    out = []
    left_of: dict[tuple, tuple[KueueVerdict, list]] = {}
    by_owner, by_name = _pending(plan)
    for (group, kind, namespace, name), verdict in sorted(stage.decisions.items()):
        if not verdict.admitted:
            continue
        if (group, kind) == ("", "Pod"):
            for pod in by_name.get((namespace, name), ()):
                owner = (pod.owner.kind, pod.owner.name) if pod.owner is not None else ("Pod", name)
                left_of.setdefault((owner[0], namespace, owner[1]), (verdict, []))[1].append(pod)
            continue
        left = by_owner.get((kind, namespace, name))
        if left:
            left_of[(kind, namespace, name)] = (verdict, left)
    for (kind, namespace, name), (verdict, left) in sorted(left_of.items()):
        where = origins.get((kind, namespace, name), Location("<plan>"))
        out.append(_diag("WAS695", f"{kind} {namespace}/{name} is admitted by Kueue to ClusterQueue "
                                   f"{verdict.cluster_queue}, but kube-scheduler leaves {len(left)} of its pods "
                                   f"pending ({left[0].name}: {left[0].message})", where,
                         "Kueue's quota is not capacity: check the flavor's nodeLabels and tolerations against the "
                         "nodes, and that the quota fits what the nodes hold"))
    return out


def _pending(plan: Plan) -> tuple[dict, dict]:
    """The plan's pending pods, in plan order, by (owner kind, namespace, owner name) and by (namespace, name):
    one pass, where a scan per admitted object cost 0.1 s for 2,000 Jobs."""
    by_owner: dict[tuple, list] = {}
    by_name: dict[tuple, list] = {}
    for p in plan.pods:
        if p.status != PodStatus.PENDING:
            continue
        by_name.setdefault((p.namespace, p.name), []).append(p)
        if p.owner is not None:
            by_owner.setdefault((p.owner.kind, p.namespace, p.owner.name), []).append(p)
    return by_owner, by_name

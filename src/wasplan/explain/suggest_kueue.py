"""What admits a workload Kueue holds: the smallest verified change to its ClusterQueue, its priority or its queue.

For a target whose pods wait for Kueue (the plan's Kueue stage ran: a ClusterQueue is among the inputs), each
candidate change is applied to a copy of the objects Kueue's admission read and verified by re-running that
admission (`wasplan.kueue.admit`), as the scheduler suggestions are verified by re-running the engine:
* raise the nominalQuota of one (flavor, resource) of its ClusterQueue, by the least amount that admits it
  (a bisection over the workload's own request of that resource, every probe a re-run);
* raise a borrowingLimit of its ClusterQueue the same way, when it is in a cohort;
* a higher priority: the lowest WorkloadPriorityClass of the inputs, above its priority, that admits it
  (through preemption, as Kueue's preemptor decides);
* another LocalQueue of its namespace that admits it.
Admission is monotone in each of these (more quota, a higher priority never admit less), which the bisection
relies on. Re-runs are counted: at most MAX_RUNS per target, so the answer is the same on any machine.
"""

from __future__ import annotations

from wasplan.api.kueue import PRIORITY_CLASS_LABEL, QUEUE_LABEL
from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.explain import manifest
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Suggestion

MAX_RUNS = 64
WHY = "re-running Kueue's admission with the change admits Workload {}"


class _Trials:
    """Re-runs of Kueue's admission over the objects with one object replaced; True when the target is admitted."""

    def __init__(self, docs: list, owner_index: int):
        from wasplan.kueue import KueueInputs, admit

        self.inputs, self.admit = KueueInputs, admit
        self.objects = [d.obj for d in docs]
        self.owner = self.objects[owner_index]
        self.runs = 0

    def admitted(self, index: int, obj: dict) -> bool | None:
        """None once the budget is spent."""
        if self.runs >= MAX_RUNS:
            return None
        self.runs += 1
        objects = list(self.objects)
        objects[index] = obj
        result = self.admit(self.inputs.from_objects(objects))  # the owner's kind, namespace and name never change
        return any(w.status.value == "Admitted" and w.source is not None and _same(w.source, self.owner)
                   for w in result.workloads)


def _same(source, obj: dict) -> bool:
    meta = obj.get("metadata") or {}
    return (source.kind, source.namespace, source.name) == (obj.get("kind"), meta.get("namespace") or "default",
                                                             meta.get("name"))


def suggestions(ctx: Context, subj: Subject) -> list[Suggestion]:
    docs = ctx.kueue_documents
    pod = _held(ctx, subj)
    verdict = getattr(getattr(pod, "admission", None), "verdict", None)
    if not docs or verdict is None or pod.owner is None:
        return []
    owner = next((i for i, d in enumerate(docs) if d.kind == pod.owner.kind and d.name == pod.owner.name
                  and (d.namespace or "default") == pod.namespace), None)
    if owner is None:
        return []
    trials = _Trials(docs, owner)
    need = _requests(trials, docs[owner].obj)
    found = [_quota(docs, trials, verdict, need, "nominalQuota"), _quota(docs, trials, verdict, need, "borrowingLimit"),
             _priority(docs, trials, owner, verdict), _queue(docs, trials, owner, verdict)]
    return [s for s in found if s is not None]


def _held(ctx: Context, subj: Subject):
    """One of the target's pods that Kueue holds (a Job's PodGroup has no member pod yet: they wait unmade)."""
    for ps in ctx.sim.world.pods.values():
        pod = ps.pod
        if pod.admission is not None and (pod.key == subj.unit.key or (
                pod.pod_group and f"{pod.namespace}/{pod.pod_group}" == subj.unit.key)):
            return pod
    return None


def _requests(trials: _Trials, owner: dict) -> dict[str, int]:
    """What the target's Workload requests in all, per resource (Kueue's units: cpu in millis)."""
    inputs = trials.inputs.from_objects(trials.objects)
    for wl in inputs.workloads:
        if wl.source is not None and _same(wl.source, owner):
            out: dict[str, int] = {}
            for ps in wl.pod_sets:
                for res, value in ps.requests.items():
                    out[res] = out.get(res, 0) + value * ps.count
            return out
    return {}


def _cluster_queue(docs: list, name: str | None) -> int | None:
    return next((i for i, d in enumerate(docs) if d.kind == "ClusterQueue" and d.name == name
                 and d.api_version.startswith("kueue.x-k8s.io/")), None)


def _quota(docs: list, trials: _Trials, verdict, need: dict[str, int], field: str) -> Suggestion | None:
    """The least raise of one `field` (nominalQuota or borrowingLimit) of the ClusterQueue that admits it."""
    from wasplan.kueue.model import quantity_string, resource_value

    index = _cluster_queue(docs, verdict.cluster_queue)
    if index is None:
        return None
    doc = docs[index]
    spec = doc.obj.get("spec") or {}
    if field == "borrowingLimit" and not (spec.get("cohortName") or spec.get("cohort")):
        return None
    best = None
    for path, resource, current in _entries(spec, field):
        if resource not in need or need[resource] <= 0:
            continue
        base = resource_value(resource, current)
        raised = _least(lambda delta: trials.admitted(index, _with(doc.obj, path, quantity_string(resource, base + delta))),
                        need[resource])
        if raised is not None and (best is None or raised < best[0]):
            best = (raised, path, resource, base)
    if best is None:
        return None
    raised, path, resource, base = best
    old, new = quantity_string(resource, base), quantity_string(resource, base + raised)
    flavor = (spec["resourceGroups"][path[2]]["flavors"][path[4]]).get("name")
    change = manifest.change("set", doc, path, new)
    return Suggestion("kueueQuota" if field == "nominalQuota" else "kueueBorrowingLimit",
                      f"raise ClusterQueue {doc.name}'s {field} of {resource} in flavor {flavor} from {old} to {new}",
                      WHY.format(verdict.workload), (change,))


def _entries(spec: dict, field: str):
    """(path, resource, current quantity) of every resource entry of the ClusterQueue that has `field`
    (nominalQuota always; borrowingLimit only where set: unset means no limit)."""
    for g, group in enumerate(spec.get("resourceGroups") or ()):
        for f, flavor in enumerate((group or {}).get("flavors") or ()):
            for r, entry in enumerate((flavor or {}).get("resources") or ()):
                if not isinstance(entry, dict) or field not in entry:
                    continue
                try:
                    current = parse_quantity(entry[field])
                except QuantityError:
                    continue
                yield ("spec", "resourceGroups", g, "flavors", f, "resources", r, field), entry.get("name"), current


def _least(admits, most: int) -> int | None:
    """The least amount in 1..most for which `admits` is true, by bisection; None when `most` does not admit or
    the re-run budget runs out."""
    if admits(most) is not True:
        return None
    low, high = 0, most  # admits(high) is true, admits(low) is taken false (the plan said so)
    while high - low > 1:
        mid = (low + high) // 2
        result = admits(mid)
        if result is None:
            return high
        low, high = (low, mid) if result else (mid, high)
    return high


def _with(obj: dict, path: tuple, value) -> dict:
    """A copy of `obj` with `path` set to `value` (the containers along the path copied, the rest shared)."""
    top = dict(obj)
    node = top
    for key in path[:-1]:
        child = node[key]
        child = list(child) if isinstance(child, list) else dict(child)
        node[key] = child
        node = child
    node[path[-1]] = value
    return top


def _priority(docs: list, trials: _Trials, owner: int, verdict) -> Suggestion | None:
    from wasplan.kueue import KueueInputs

    current = next((w.priority for w in KueueInputs.from_objects(trials.objects).workloads
                    if w.source is not None and _same(w.source, docs[owner].obj)), None)
    classes = sorted((d.obj.get("value"), d.name) for d in docs if d.kind == "WorkloadPriorityClass"
                     and isinstance(d.obj.get("value"), int) and d.name)
    path = ("metadata", "labels", PRIORITY_CLASS_LABEL)
    for value, name in classes:
        if current is not None and value <= current:
            continue
        result = trials.admitted(owner, _with(_labelled(docs[owner].obj), path, name))
        if result is None:
            return None
        if result:
            change = manifest.change("set", docs[owner], path, name)
            return Suggestion("kueuePriority", f"give {docs[owner].kind} {docs[owner].name} WorkloadPriorityClass "
                              f"{name} (priority {value})", WHY.format(verdict.workload), (change,))
    return None


def _labelled(obj: dict) -> dict:
    """The object with a metadata.labels mapping of its own, so a label can be set on the copy."""
    meta = dict(obj.get("metadata") or {})
    meta["labels"] = dict(meta.get("labels") or {})
    return {**obj, "metadata": meta}


def _queue(docs: list, trials: _Trials, owner: int, verdict) -> Suggestion | None:
    doc = docs[owner]
    namespace = doc.namespace or "default"
    current = ((doc.obj.get("metadata") or {}).get("labels") or {}).get(QUEUE_LABEL)
    queues = sorted({d.name for d in docs if d.kind == "LocalQueue" and (d.namespace or "default") == namespace
                     and d.name and d.name != current})
    path = ("metadata", "labels", QUEUE_LABEL)
    for name in queues:
        result = trials.admitted(owner, _with(_labelled(doc.obj), path, name))
        if result is None:
            return None
        if result:
            return Suggestion("kueueLocalQueue", f"send {doc.kind} {doc.name} to LocalQueue {namespace}/{name}",
                              WHY.format(verdict.workload), (manifest.change("set", doc, path, name),))
    return None

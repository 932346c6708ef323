"""Admission before the scheduler: the arrival objects the API server would refuse to create.

The Priority admission plugin (api/priority.py; upstream `plugin/pkg/admission/priority/admission.go`, v1.36.5
and v1.37.2) refuses with 403 Forbidden:

* a pod whose priorityClassName names a class that does not exist, or that writes a spec.priority or
  spec.preemptionPolicy other than the one its class (or the global default) gives;
* a PodGroup the same way, while the release's gate for it is on (`Capabilities.group_admission_gate`:
  WorkloadAwarePreemption in 1.36, GenericWorkload in 1.37), and a 1.37 CompositePodGroup while CompositePodGroup
  is on; the preemption policy is checked only with PodGroupPreemptionPolicy. With that gate the 1.37 scheme
  has already defaulted an unset spec.preemptionPolicy to PreemptLowerPriority when admission runs
  (pkg/apis/scheduling/v1beta1 and v1alpha3 SetDefaults_PodGroup, SetDefaults_CompositePodGroup), so a group
  naming a class whose preemptionPolicy is Never is refused unless it writes Never itself. 1.38 deleted those
  defaults (v1.38.0-beta.0 `Capabilities.admission_fills_preemption_policy`): the plugin fills the unset policy
  from the class, so such a group is admitted with Never. A Workload is never checked: the plugin has no case for it, so a template naming a missing class is stored as written.

A refused object is never stored, so the scheduler never sees it: the planner takes it out of the arrivals and
reports it (WAS630) at the priorityClassName the object, or the pod template its controller copies, writes. A
Job's pods are refused one by one as the Job controller tries to create them; the finding names the first and
counts the rest. The pods of a refused PodGroup stay Pending, waiting for a group that does not exist; a 1.37
Job whose own PodGroup is refused creates no pods at all (listed as refused with the group's message).

The classes that exist are those of the snapshot and of the manifests (a PriorityClass manifest is created with
the rest) and the two system classes. Objects of the snapshot exist already and are never refused.
"""

from __future__ import annotations

from typing import Any, Iterable

from wasplan.api import hub
from wasplan.api.priority import DEFAULT_PREEMPTION, SYSTEM_CLASSES, admit
from wasplan.api.releases import GateSet
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Pod, PriorityClass, Refused
from wasplan.diagnostics import Diagnostic
from wasplan.suggest import did_you_mean

Entry = tuple[tuple, Any, list]  # (sort key, Document, records), as cluster/snapshot.py builds them
_RESOURCE = {"pod": "pods", "pod group": "podgroups.scheduling.k8s.io",
             "composite pod group": "compositepodgroups.scheduling.k8s.io"}


def known_classes(entries: Iterable[Entry]) -> dict[str, PriorityClass]:
    return {r.name: r for _, _, records in entries for r in records if isinstance(r, PriorityClass)}


def refusal(record: Any, classes: dict[str, PriorityClass], gates: GateSet,
            verdicts: dict | None = None) -> str | None:
    """The API server's message when Priority admission refuses `record` on create, else None. `verdicts` keeps
    the plugin's verdict per (class, priority, policy) a pod writes: a controller's pods all write the same."""
    if isinstance(record, Pod):
        asked = (record.priority_class_name, record.priority, record.preemption_policy)
        why = verdicts.get(asked, False) if verdicts is not None else False
        if why is False:
            why = admit(*asked, classes).refusal
            if verdicts is not None:
                verdicts[asked] = why
        return f'pods "{record.name}" is forbidden: {why}' if why else None
    if not isinstance(record, Group):
        return None
    obj = record.obj
    if isinstance(obj, hub.PodGroup):
        what, gate = "pod group", gates.release.caps.group_admission_gate
    elif isinstance(obj, hub.CompositePodGroup):
        what, gate = "composite pod group", "CompositePodGroup"
    else:
        return None
    if not gates.enabled(gate):
        return None
    policy_gate = gates.on.pod_group_preemption_policy  # removed in 1.38 with the feature always on
    policy = obj.preemption_policy.value if obj.preemption_policy is not None else None
    if policy is None and policy_gate and not gates.release.caps.admission_fills_preemption_policy:
        policy = DEFAULT_PREEMPTION  # the 1.37 scheme defaults it before admission (SetDefaults_PodGroup)
    got = admit(obj.priority_class_name, obj.priority, policy, classes, what, policy_gate=policy_gate)
    return f'{_RESOURCE[what]} "{record.name}" is forbidden: {got.refusal}' if got.refusal else None


def refuse_at_admission(entries: list[Entry], classes: dict[str, PriorityClass], gates: GateSet,
                        diags: list[Diagnostic]) -> list[Refused]:
    """Take every arrival Priority admission refuses out of the entries' records (in place); the refused pods are
    returned for the plan's list, every refusal is reported once per document and reason."""
    refused: list[Refused] = []
    verdicts: dict = {}
    for _, doc, records in entries:
        found = [(r, m) for r in records if (m := refusal(r, classes, gates, verdicts)) is not None]
        if not found:
            continue
        unborn = _behind_refused_groups(records, found)
        gone = {id(r) for r, _ in (*found, *unborn)}
        records[:] = [r for r in records if id(r) not in gone]
        for group, message in ((r, m) for r, m in found if isinstance(r, Group)):
            count = sum(1 for _, m in unborn if m is message)
            _report(doc, group, group.obj.priority_class_name, message, count, "never created", classes, diags)
        refused += [Refused(p, m) for p, m in unborn]
        behind = {id(p) for p, _ in unborn}
        for pods in _by_reason([(r, m) for r, m in found if isinstance(r, Pod) and id(r) not in behind]):
            refused += [Refused(p, m) for p, m in pods]
            _report(doc, pods[0][0], pods[0][0].priority_class_name, pods[0][1], len(pods) - 1, "more", classes,
                    diags)
    return refused


def _behind_refused_groups(records: list, found: list[tuple[Any, str]]) -> list[tuple[Pod, str]]:
    """The pods a controller would create for a PodGroup admission refused, each with the group's message: the
    1.37 Job controller stops at that error (job_controller.go syncJob returns ensureWorkloadAndPodGroup's error
    before it manages pods), so they are never created."""
    groups = {r.name: m for r, m in found if isinstance(r, Group)}
    return [(r, groups[r.pod_group]) for r in records
            if isinstance(r, Pod) and r.pod_group in groups and r.source is None]


def _by_reason(pods: list[tuple[Pod, str]]) -> list[list[tuple[Pod, str]]]:
    """Refused pods grouped by the reason after `... is forbidden: `, in order of first appearance."""
    out: dict[str, list[tuple[Pod, str]]] = {}
    for pod, message in pods:
        out.setdefault(message.split(" is forbidden: ", 1)[1], []).append((pod, message))
    return list(out.values())


def _report(doc, first: Any, class_name: str | None, message: str, others: int, how: str,
            classes: dict[str, PriorityClass], diags: list[Diagnostic]) -> None:
    """One WAS630 finding: the server's message for the first refused object; `others` pods of the same document
    share its fate (`how`: "more" refused the same way, or "never created" behind a refused PodGroup)."""
    if others:
        message += (f" (and {others} more pods of {doc.kind} {doc.namespace or 'default'}/{doc.name})" if how == "more"
                    else f" ({doc.kind} {doc.namespace or 'default'}/{doc.name} creates none of its {others} pods)")
    field = class_field(doc.obj, class_name) if class_name else ()
    Ctx(doc, diags).report("WAS630", message, field, hint=_hint(first, class_name, message, classes))


def _hint(first: Any, class_name: str | None, message: str, classes: dict[str, PriorityClass]) -> str:
    if class_name and "no PriorityClass with name" in message:
        return class_hint(class_name, set(classes))
    if isinstance(first, Group) and first.obj.preemption_policy is None and "PreemptionPolicy (" in message:
        return (f"PriorityClass {class_name}'s preemptionPolicy is Never, and the server defaults a group's to "
                "PreemptLowerPriority before admission: write preemptionPolicy: Never on the group, or name a "
                "class that may preempt (a Job's PodGroup takes the pod template's class)")
    return "leave spec.priority and spec.preemptionPolicy out: admission writes them from the PriorityClass"


def class_hint(class_name: str, known: set[str]) -> str:
    guess = did_you_mean(class_name, sorted(known | set(SYSTEM_CLASSES)))
    return f"did you mean {guess}?" if guess else f"create PriorityClass {class_name}, or name one that exists"


def class_field(obj: Any, class_name: str, path: tuple = ()) -> tuple:
    """The path of the first `priorityClassName: <class_name>` inside an object (a pod's spec, a workload's pod
    template, a PodGroup's spec)."""
    if isinstance(obj, dict):
        if obj.get("priorityClassName") == class_name:
            return path + ("priorityClassName",)
        for key, value in obj.items():
            if isinstance(value, (dict, list)):
                found = class_field(value, class_name, path + (key,))
                if found:
                    return found
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            found = class_field(value, class_name, path + (i,))
            if found:
                return found
    return ()

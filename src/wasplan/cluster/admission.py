"""Admission before the scheduler: the arrival pods the API server would refuse to create.

The Priority admission plugin (api/priority.py; upstream `plugin/pkg/admission/priority/admission.go`) refuses a
pod whose priorityClassName names a class that does not exist, with 403 Forbidden. Such a pod is never stored,
so the scheduler never sees it: the planner takes it out of the arrivals and reports it (WAS630) at the
priorityClassName the pod, or the pod template its controller copies, writes. A Job's pods are refused one by one
as the Job controller tries to create them; the finding names the first and counts the rest.

The classes that exist are those of the snapshot and of the manifests (a PriorityClass manifest is created with
the rest) and the two system classes. Pods of the snapshot exist already and are never refused.
"""

from __future__ import annotations

from typing import Any, Iterable

from wasplan.api.priority import SYSTEM_CLASSES, exists, forbidden
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Pod, PriorityClass, Refused
from wasplan.diagnostics import Diagnostic
from wasplan.suggest import did_you_mean

Entry = tuple[tuple, Any, list]  # (sort key, Document, records), as cluster/snapshot.py builds them


def known_classes(entries: Iterable[Entry]) -> set[str]:
    return {r.name for _, _, records in entries for r in records if isinstance(r, PriorityClass)}


def refuse_unknown_classes(entries: list[Entry], known: set[str], diags: list[Diagnostic]) -> list[Refused]:
    """Take every pod naming a PriorityClass that does not exist out of the entries' records (in place)."""
    refused: list[Refused] = []
    for _, doc, records in entries:
        by_class: dict[str, list[Pod]] = {}
        for record in records:
            name = record.priority_class_name if isinstance(record, Pod) else None
            if name and not exists(name, known):
                by_class.setdefault(name, []).append(record)
        if not by_class:
            continue
        gone = {id(p) for pods in by_class.values() for p in pods}
        records[:] = [r for r in records if id(r) not in gone]
        for class_name, pods in by_class.items():
            refused += [Refused(p, forbidden(p.name, class_name)) for p in pods]
            _report(doc, class_name, pods, known, diags)
    return refused


def _report(doc, class_name: str, pods: list[Pod], known: set[str], diags: list[Diagnostic]) -> None:
    message = forbidden(pods[0].name, class_name)
    if len(pods) > 1:
        message += f" (and {len(pods) - 1} more pods of {doc.kind} {doc.namespace or 'default'}/{doc.name})"
    Ctx(doc, diags).report("WAS630", message, class_field(doc.obj, class_name), hint=class_hint(class_name, known))


def class_hint(class_name: str, known: set[str]) -> str:
    guess = did_you_mean(class_name, sorted(known | set(SYSTEM_CLASSES)))
    return f"did you mean {guess}?" if guess else f"create PriorityClass {class_name}, or name one that exists"


def class_field(obj: Any, class_name: str, path: tuple = ()) -> tuple:
    """The path of the first `priorityClassName: <class_name>` inside a pod or a workload's pod template."""
    if isinstance(obj, dict):
        if obj.get("priorityClassName") == class_name and isinstance(obj.get("containers"), list):
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

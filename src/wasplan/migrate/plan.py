"""Decide, for one document (an object or a List of them), what migrating it means.

The typed conversion (`wasplan.api.convert`) is the authority on what a target version cannot hold: its
losses become refusals, or drops under `--allow-lossy`. The edit steps then run on a plain copy, which yields
the list of changes (for `--check`, `--diff` and `-o json`) and the result that must pass the target's
validation -- all before the slow round-trip parser is involved. `apply_plan` replays the same steps on the
round-trip tree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from wasplan.api import hub as h
from wasplan.api.convert import ConversionError, from_hub, to_hub
from wasplan.api.releases import SCHEDULING_KINDS, capabilities, get_release
from wasplan.codes import lookup
from wasplan.diagnostics import Severity
from wasplan.migrate import jobs
from wasplan.migrate.checks import Finding, source_problems, target_problems, unchanged_problems
from wasplan.migrate.steps import StepContext, migrate_object
from wasplan.migrate.targets import RELEASE_OF, Target, base_kind, is_scheduling
from wasplan.migrate.tree import set_scalar


@dataclass(frozen=True)
class Options:
    allow_lossy: bool = False
    keep_status: bool = False


@dataclass(frozen=True)
class Change:
    path: tuple  # field path in the document (a List item's path starts with "items", i)
    action: str  # set | rename | move | add | remove
    old: Any
    new: Any


@dataclass
class ObjectPlan:
    """One object's migration: where it sits in the document, its versions, changes and findings."""

    path: tuple
    kind: str
    source: str
    target: str
    drops: tuple = ()
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    expected: h.HubObject | None = None  # the typed conversion's result, for the self-check
    list_header: bool = False  # the apiVersion of a typed List itself, not an object

    @property
    def refused(self) -> bool:
        return any(lookup(f.code).severity is Severity.ERROR for f in self.findings)


@dataclass
class DocumentPlan:
    objects: list[ObjectPlan]
    result: Any  # the migrated document as plain data (meaningless when refused)
    list_target: str | None = None  # new apiVersion of a typed List

    @property
    def refused(self) -> bool:
        return any(o.refused for o in self.objects)

    @property
    def changes(self) -> list[Change]:
        return [c for o in self.objects for c in o.changes]

    @property
    def findings(self) -> list[tuple[ObjectPlan, Finding]]:
        return [(o, f) for o in self.objects for f in o.findings]


def relevant(api_version: Any, kind: Any) -> bool:
    """Documents migrate may touch; everything else (PriorityClass of scheduling.k8s.io/v1 included) is copied
    through without ever meeting the slow parser."""
    if not isinstance(kind, str):
        return False
    if is_scheduling(api_version):
        return base_kind(kind) in SCHEDULING_KINDS
    return api_version == "batch/v1" and kind in ("Job", "JobList")


def _typed(obj: dict, api_version: str, kind: str) -> dict:
    """A List item with the type the List gives it (typed Lists may omit it per item)."""
    if obj.get("apiVersion") == api_version and obj.get("kind") == kind:
        return obj
    return {"apiVersion": api_version, "kind": kind, **obj}


def plan_document(doc: dict, target: Target, opts: Options) -> DocumentPlan:
    """Plan one top-level document; a List is planned item by item, a typed List also gets one apiVersion."""
    result = copy.deepcopy(doc)
    kind, api_version = doc.get("kind"), doc.get("apiVersion")
    items = doc.get("items")
    if not (isinstance(kind, str) and kind.endswith("List") and isinstance(items, list)):
        plan = _plan_object(result, api_version, kind, None, target, opts, ())
        return DocumentPlan([plan] if plan else [], result)
    typed = kind != "List"
    list_target = target.version_for_list(kind, items) if typed and is_scheduling(api_version) else None
    plans = []
    for i, item in enumerate(result["items"]):
        if not isinstance(item, dict):
            continue
        item_av = item.get("apiVersion", api_version if typed else None)
        item_kind = item.get("kind", base_kind(kind) if typed else None)
        plan = _plan_object(item, item_av, item_kind, list_target, target, opts, ("items", i))
        if plan:
            plans.append(plan)
    if list_target and list_target != api_version and not any(p.refused for p in plans):
        result["apiVersion"] = list_target
        plans.append(ObjectPlan((), kind, api_version, list_target, list_header=True,
                                changes=[Change(("apiVersion",), "set", api_version, list_target)]))
    return DocumentPlan(plans, result, list_target)


def _plan_object(obj: dict, api_version: Any, kind: Any, list_version: str | None, target: Target, opts: Options,
                 path: tuple) -> ObjectPlan | None:
    if not relevant(api_version, kind) or not isinstance(kind, str):
        return None
    if api_version == "batch/v1":
        return _plan_job(obj, kind, target, opts, path) if kind == "Job" else None
    typed = _typed(obj, api_version, kind)
    version = list_version or target.version_for(kind, typed)
    plan = ObjectPlan(path, kind, api_version, version)
    if api_version == version:
        plan.findings += unchanged_problems(obj, target.release)
        return plan
    # the source is judged by the target release when that serves it (a 1.38 v1beta1 CompositePodGroup), else
    # by the release that introduced its version
    source_release = target.release if get_release(target.release).serves(api_version, kind) else \
        RELEASE_OF.get(api_version)
    if source_release is None:
        plan.findings.append(Finding("WAS505", ("apiVersion",), f"{api_version} is not a version migrate knows"))
        return plan
    if _invalid_source(plan, typed, source_release):
        return plan
    if not get_release(target.release).serves(version, kind):  # a forced --to the release lacks for the kind
        served = " or ".join(get_release(target.release).versions_serving(kind))
        plan.findings.append(Finding("WAS501", (), f"cannot migrate to {version}: Kubernetes {target.release} "
                                     f"serves {kind} only as {served}"))
        return plan
    expected = _convert(typed, plan, opts)
    if plan.refused:
        return plan
    ctx = StepContext(keep_status=opts.keep_status, drops=plan.drops,
                      record=lambda p, action, old, new: plan.changes.append(Change(path + p, action, old, new)))
    migrate_object(obj, api_version, kind, version, ctx)
    plan.findings += target_problems(_typed(obj, version, kind), target.release)
    plan.expected = expected
    return plan


def _invalid_source(plan: ObjectPlan, obj: dict, release: str) -> bool:
    """Validate the source as `wasplan validate` would; an invalid one is reported and left alone."""
    problems = source_problems(obj, release)
    if problems:
        plan.findings += problems
        plan.findings.append(Finding("WAS505", (), f"not migrated: this {plan.source} {plan.kind} is invalid for "
                                     f"Kubernetes {release} ({len(problems)} finding{'s' if len(problems) > 1 else ''})"))
    return bool(problems)


def _convert(obj: dict, plan: ObjectPlan, opts: Options) -> h.HubObject | None:
    """Run the typed conversion; its losses become refusals (WAS501) or allowed drops (WAS502)."""
    try:
        converted, losses = from_hub(to_hub(obj), plan.target, allow_lossy=opts.allow_lossy,
                                     keep_status=opts.keep_status)
    except ConversionError as exc:
        for loss in exc.losses:
            if loss.droppable and opts.allow_lossy:
                continue  # would have been dropped; the object is refused for its other losses anyway
            hint = "rerun with --allow-lossy to drop it" if loss.droppable else None
            plan.findings.append(Finding("WAS501", loss.path, f"cannot migrate to {plan.target}: {loss.message}", hint))
        return None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        plan.findings.append(Finding("WAS505", (), f"cannot read {plan.source} {plan.kind}: {exc}"))
        return None
    for loss in losses:
        plan.findings.append(Finding("WAS502", loss.path, f"dropped: {loss.message}"))
    plan.drops = tuple(loss.path for loss in losses)
    return to_hub(converted)


def _plan_job(obj: dict, kind: str, target: Target, opts: Options, path: tuple) -> ObjectPlan:
    plan = ObjectPlan(path, kind, "batch/v1", "batch/v1")
    notes = jobs.plan_job(obj, target.release, opts.allow_lossy)
    if not notes:
        plan.findings += unchanged_problems(obj, target.release)
        return plan
    if _invalid_source(plan, obj, _job_source_release(target.release)):
        return plan
    plan.findings += [_job_finding(n, target) for n in notes]
    if plan.refused:
        return plan
    ctx = StepContext(record=lambda p, action, old, new: plan.changes.append(Change(path + p, action, old, new)))
    jobs.migrate_job(obj, target.release, ctx)
    plan.findings += target_problems(obj, target.release)
    return plan


def _job_source_release(target: str) -> str:
    """The release a Job that needs rewriting was written for: the Job gang of 1.36 (implicit, indexed Jobs)
    when the target has spec.scheduling, else a 1.37-or-later Job with spec.scheduling."""
    return "1.36" if capabilities(target).job_scheduling_field else "1.37"


def _job_finding(note: jobs.JobNote, target: Target) -> Finding:
    if note.code == "WAS501":
        return Finding(note.code, note.path, f"cannot migrate to Kubernetes {target.release}: {note.message}",
                       "rerun with --allow-lossy to drop it")
    return Finding(note.code, note.path, note.message)


def apply_plan(tree: Any, plan: DocumentPlan, target: Target, opts: Options) -> None:
    """Replay the planned edits on the round-trip tree of the same document."""
    for obj_plan in plan.objects:
        node = tree
        for elem in obj_plan.path:
            node = node[elem]
        if obj_plan.list_header:
            set_scalar(node, "apiVersion", obj_plan.target)
        elif obj_plan.source == "batch/v1":
            jobs.migrate_job(node, target.release, StepContext())
        elif obj_plan.changes:
            migrate_object(node, obj_plan.source, obj_plan.kind, obj_plan.target,
                           StepContext(keep_status=opts.keep_status, drops=obj_plan.drops))

"""`wasplan plan` for CI: JUnit (one case per PodGroup and per pod outside a group) and GitHub annotations
(one per group left pending, on the line of the Job or PodGroup manifest that asked for it).

Where an object is written comes from `PlanRun.origins`; a group a Job controller creates has no manifest of
its own, so it is pinned to its Job's manifest, found through its pods' owner. A workload the plan cannot expand
(`Plan.unplanned`) is a failing case, since it fails the plan. As annotations, the plan's findings (WAS6xx) come
first, each with the severity it has in every format; an unplanned workload is its WAS622 finding there, not a
second annotation of another severity.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from wasplan.diagnostics import Diagnostic, Location
from wasplan.plan import UNPLACED, FailOn, GroupOutcome, GroupStatus, Plan, PodOutcome, PodStatus, UnplannedWorkload
from wasplan.report.annotations import annotation, render_github
from wasplan.report.junit import Case, render_suites
from wasplan.words import plural

Origins = Mapping[tuple[str, str, str], Location]


def _split(key: str) -> tuple[str, str]:
    ns, _, name = key.partition("/")
    return ns, name


def _group_origin(group: GroupOutcome, plan: Plan, origins: Origins) -> Location | None:
    here = origins.get(("PodGroup", group.namespace, group.name))
    if here is not None:
        return here
    members = set(group.pods)
    for pod in plan.pods:
        if pod.key in members and pod.owner is not None:
            found = origins.get((pod.owner.kind, pod.namespace, pod.owner.name))
            if found is not None:
                return found
    return None


def _pod_origin(pod: PodOutcome, origins: Origins) -> Location | None:
    if pod.owner is not None and (pod.owner.kind, pod.namespace, pod.owner.name) in origins:
        return origins[(pod.owner.kind, pod.namespace, pod.owner.name)]
    return origins.get(("Pod", pod.namespace, pod.name))


def _why(reason: str, message: str) -> str:
    return f"{reason}: {message}" if reason and message else reason or message or "not scheduled"


def _ungrouped(plan: Plan) -> list[PodOutcome]:
    """Pods of the change outside any PodGroup of the plan (none named, or the named one does not exist)."""
    groups = {g.key for g in plan.pod_groups}
    return [p for p in plan.pods if (p.pod_group is None or p.pod_group not in groups) and p.status != PodStatus.ALREADY_BOUND]


def _group_case(group: GroupOutcome, plan: Plan, origins: Origins) -> Case:
    origin = _group_origin(group, plan, origins)
    case = Case(origin.file if origin else "PodGroup", f"PodGroup {group.namespace}/{group.name}",
                origin.file if origin else None)
    if group.status != GroupStatus.SCHEDULED:
        why = _why(group.reason, group.message)
        case.failure = (why, group.status, f"{group.status}: {plural(len(group.pods), 'pod')}, minCount {group.min_count}\n{why}\n")
    return case


_NOT_RUNNING = UNPLACED | {PodStatus.REFUSED}  # pods the change asks for that do not run: each fails the plan


def _pod_case(pod: PodOutcome, origins: Origins, fail_on: FailOn) -> Case:
    origin = _pod_origin(pod, origins)
    owner = f" ({pod.owner.kind} {pod.owner.name})" if pod.owner else ""
    case = Case(origin.file if origin else "Pod", f"Pod {pod.namespace}/{pod.name}{owner}", origin.file if origin else None)
    failing = pod.status in _NOT_RUNNING or (pod.status in (PodStatus.PREEMPTED, PodStatus.EVICTED)
                                            and fail_on == FailOn.PREEMPTION)
    if failing:
        why = _why(pod.reason, pod.message)
        case.failure = (why, pod.status, f"{pod.status}: {why}\n")
    elif pod.node:
        case.out.append(f"{pod.status} on {pod.node}")
    return case


_NOT_PLANNED = "not planned: wasplan has no model of its controller, so its pods are not in the plan"


def _unplanned_case(u: UnplannedWorkload, origins: Origins) -> Case:
    origin = origins.get((u.kind, u.namespace, u.name))
    case = Case(origin.file if origin else u.kind, f"{u.kind} {u.namespace}/{u.name}", origin.file if origin else None)
    case.failure = (_NOT_PLANNED, "Unplanned", f"Unplanned: {_NOT_PLANNED}\n")
    return case


def render_plan(plan: Plan, origins: Origins, fail_on: FailOn = FailOn.PENDING) -> str:
    """Pods already bound in the snapshot are not cases (they are not what the change asks for), unless evicted."""
    cases = [_group_case(g, plan, origins) for g in plan.pod_groups]
    cases += [_pod_case(p, origins, fail_on) for p in _ungrouped(plan)]
    cases += [_unplanned_case(u, origins) for u in plan.unplanned]
    return render_suites("wasplan plan", {"wasplan plan": cases})


def render_plan_github(plan: Plan, origins: Origins, diagnostics: Iterable[Diagnostic] = ()) -> str:
    """The plan's findings, then one error per group left pending; pending pods outside a group get one per Job
    (or Pod) manifest."""
    lines = [render_github(diagnostics).rstrip("\n")] if diagnostics else []
    for group in plan.pod_groups:
        if group.status == GroupStatus.SCHEDULED:
            continue
        origin = _group_origin(group, plan, origins)
        title = f"PodGroup {group.namespace}/{group.name} {group.status}"
        lines.append(annotation("error", origin, title, _why(group.reason, group.message)))
    seen = set()
    for pod in _ungrouped(plan):
        who = f"{pod.owner.kind} {pod.namespace}/{pod.owner.name}" if pod.owner else f"Pod {pod.namespace}/{pod.name}"
        if pod.status in _NOT_RUNNING and who not in seen:
            seen.add(who)
            lines.append(annotation("error", _pod_origin(pod, origins), f"{who} {pod.status}",
                                    _why(pod.reason, pod.message)))
    return "".join(line + "\n" for line in lines)

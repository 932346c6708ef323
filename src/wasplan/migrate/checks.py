"""Validation before and after a migration, each one call: `source_problems` and `target_problems`.

A document invalid for its own version is not converted (the typed conversion assumes valid input), and what
migrate writes must be valid for the target release. Shapes come from the upstream strict schemas
(kubernetes-validate's, compiled once in `wasplan.migrate.schemas`); the few server rules the schema cannot express but the conversion depends on (enums,
unions, 1.37's uniform template priorities) are checked here on the object itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wasplan.migrate.schemas import first_error
from wasplan.migrate.targets import is_scheduling


@dataclass(frozen=True)
class Finding:
    """A problem with one object: diagnostic code, field path inside the object, message."""

    code: str
    path: tuple
    message: str
    hint: str | None = None


def _schema(obj: dict, release: str, code: str) -> list[Finding]:
    problem = first_error(release, obj)
    if problem is None:
        return []
    path, message = problem
    return [Finding(code, path, f"schema ({release}): {message}")]


def _union(m: dict, key: str, members: tuple[str, ...], path: tuple, code: str) -> list[Finding]:
    value = m.get(key)
    if value is None:
        return []
    if not isinstance(value, dict) or sum(value.get(k) is not None for k in members) != 1:
        return [Finding(code, path + (key,), f"{key} must set exactly one of {', '.join(members)}")]
    return []


def _group_rules(m: dict, path: tuple, old: bool, code: str) -> list[Finding]:
    out = _union(m, "schedulingPolicy", ("basic", "gang"), path, code)
    mode = m.get("disruptionMode")
    if old and mode is not None and mode not in ("Pod", "PodGroup"):
        out.append(Finding(code, path + ("disruptionMode",), f"disruptionMode must be Pod or PodGroup, not {mode!r}"))
    if not old:
        out += _union(m, "disruptionMode", ("single", "all"), path, code)
    pp = m.get("preemptionPolicy")
    if pp is not None and pp not in ("Never", "PreemptLowerPriority"):
        out.append(Finding(code, path + ("preemptionPolicy",),
                           f"preemptionPolicy must be Never or PreemptLowerPriority, not {pp!r}"))
    return out


def _templates(spec: dict, path: tuple):
    """Every template of a Workload, flat or nested, with its path."""
    stack = [(spec, path)]
    while stack:
        node, p = stack.pop()
        for key in ("podGroupTemplates", "compositePodGroupTemplates", "podGroups"):
            for i, tpl in enumerate(node.get(key) or ()):
                if isinstance(tpl, dict):
                    yield tpl, p + (key, i)
                    stack.append((tpl, p + (key, i)))


def _uniform_priorities(spec: dict, code: str) -> list[Finding]:
    """1.37 `ValidateWorkloadSpec`: all templates carry the same priorityClassName and priority."""
    seen: dict[tuple, tuple] = {}
    for tpl, path in _templates(spec, ("spec",)):
        seen.setdefault((tpl.get("priorityClassName"), tpl.get("priority")), path)
    if len(seen) <= 1:
        return []
    shown = "; ".join(f"{cls or '-'}/{prio if prio is not None else '-'}" for cls, prio in seen)
    path = sorted(seen.values())[-1]
    return [Finding(code, path, f"Kubernetes 1.37 requires every template of a Workload to carry the same "
                    f"priorityClassName and priority; found {shown} (detected multiple priority configurations)",
                    hint="give all templates the same priorityClassName/priority before migrating")]


def _rules(obj: dict, release: str, code: str) -> list[Finding]:
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return []
    old = release in ("1.35", "1.36")
    kind = obj.get("kind")
    if kind == "Workload":
        out = [f for tpl, p in _templates(spec, ("spec",)) for f in _group_rules(tpl, p, old, code)]
        return out + ([] if old else _uniform_priorities(spec, code))
    out = _group_rules(spec, ("spec",), old, code)
    ref = spec.get("podGroupTemplateRef")
    if old and ref is not None and (not isinstance(ref, dict) or ref.get("workload") is None):
        out.append(Finding(code, ("spec", "podGroupTemplateRef"), "podGroupTemplateRef must set workload"))
    return out


def problems(obj: dict, release: str, code: str) -> list[Finding]:
    found = _schema(obj, release, code)
    if not found and is_scheduling(obj.get("apiVersion")):
        found = _rules(obj, release, code)
    return found


def source_problems(obj: dict, release: str) -> list[Finding]:
    """Why `obj` is invalid for the release that serves its own version (empty when valid)."""
    return problems(obj, release, "WAS505")


def target_problems(obj: dict, release: str) -> list[Finding]:
    """Why the migrated `obj` would be rejected by the target release (empty when it would be accepted)."""
    return problems(obj, release, "WAS503")

"""The per-version-pair edits of api-reference §8 for Workload, PodGroup and CompositePodGroup.

Each function edits one object in place through `wasplan.migrate.tree`, so the same code updates a plain
dict (to learn what changes) and the comment-keeping tree (to write it). Refusals are decided before any
step runs (`wasplan.migrate.plan`, from the typed conversion's losses); steps only drop what was allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from wasplan.api.convert import V1ALPHA1, V1ALPHA2
from wasplan.api.hub import CONDITION_RENAMES_136
from wasplan.migrate import tree as t

MODE_TO_NEW = {"Pod": "single", "PodGroup": "all"}
MODE_TO_OLD = {v: k for k, v in MODE_TO_NEW.items()}

Recorder = Callable[[tuple, str, Any, Any], None]


def _ignore(path: tuple, action: str, old: Any, new: Any) -> None:
    return None


@dataclass
class StepContext:
    """What a step may need besides the object: options, fields to drop, and where to record changes."""

    keep_status: bool = False
    drops: tuple[tuple, ...] = ()  # paths of droppable losses allowed by --allow-lossy
    record: Recorder = field(default=_ignore)


def migrate_object(obj: dict, source: str, kind: str, target: str, ctx: StepContext) -> None:
    """Rewrite one scheduling object from `source` to `target` (which can hold it).

    `source`/`kind` are passed because items of a typed List may leave them to the List."""
    if source == target:
        return
    for path in ctx.drops:
        _drop(obj, path, ctx)
    if source == V1ALPHA1:
        _v1alpha1_to_v1alpha2(obj, ctx)
    old_source = source in (V1ALPHA1, V1ALPHA2)
    if old_source and target != V1ALPHA2:
        _each_group(obj, kind, lambda m, p: _mode(m, p, MODE_TO_NEW, ctx))
        if kind == "PodGroup":
            _ref_to_new(obj["spec"], ctx)
    elif not old_source and target == V1ALPHA2:
        _each_group(obj, kind, lambda m, p: _mode(m, p, MODE_TO_OLD, ctx))
        if kind == "PodGroup":
            _ref_to_old(obj["spec"], ctx)
    _status(obj, to_old=target == V1ALPHA2, from_old=old_source, ctx=ctx)
    if "apiVersion" in obj:
        t.set_scalar(obj, "apiVersion", target)
        ctx.record(("apiVersion",), "set", source, target)


def _drop(obj: dict, path: tuple, ctx: StepContext) -> None:
    parent: Any = obj
    for elem in path[:-1]:
        parent = parent[elem]
    old = t.pop_entry(parent, path[-1])
    ctx.record(path, "remove", old, None)


def _v1alpha1_to_v1alpha2(obj: dict, ctx: StepContext) -> None:
    """1.35 `spec.podGroups[].policy` became 1.36 `spec.podGroupTemplates[].schedulingPolicy`."""
    spec = obj["spec"]
    t.replace_entry(spec, "podGroups", "podGroupTemplates")
    ctx.record(("spec", "podGroups"), "rename", "podGroups", "podGroupTemplates")
    for i, group in enumerate(spec["podGroupTemplates"]):
        if "policy" in group:
            t.replace_entry(group, "policy", "schedulingPolicy")
            ctx.record(("spec", "podGroups", i, "policy"), "rename", "policy", "schedulingPolicy")


def _each_group(obj: dict, kind: str, edit: Callable[[dict, tuple], None]) -> None:
    """Call `edit` on every mapping that carries group settings: the spec, or every template of the tree."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    if kind != "Workload":
        edit(spec, ("spec",))
        return
    stack = [(spec, ("spec",))]
    while stack:
        node, path = stack.pop()
        for key in ("podGroupTemplates", "compositePodGroupTemplates"):
            for i, template in enumerate(node.get(key) or ()):
                edit(template, path + (key, i))
                stack.append((template, path + (key, i)))


def _mode(m: dict, path: tuple, table: dict, ctx: StepContext) -> None:
    """`disruptionMode: Pod|PodGroup` (1.36) <-> `disruptionMode: {single: {}}|{all: {}}` (1.37)."""
    if m.get("disruptionMode") is None:
        return
    old = m["disruptionMode"]
    if isinstance(old, str):
        new: Any = t.new_map(m, {table[old]: t.new_map(m)})
        shown = {table[old]: {}}
    else:
        member = "all" if old.get("all") is not None else "single"
        new = shown = table[member]
    t.replace_entry(m, "disruptionMode", "disruptionMode", new)
    ctx.record(path + ("disruptionMode",), "set", _plain(old), shown)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value if not isinstance(value, str) else str(value)


def _ref_to_new(spec: dict, ctx: StepContext) -> None:
    """`podGroupTemplateRef.workload{workloadName, podGroupTemplateName}` -> `workloadRef{workloadName, templateName}`."""
    if spec.get("podGroupTemplateRef") is None:
        return
    ref = spec["podGroupTemplateRef"]
    old = _plain(ref)
    inner = ref["workload"]
    if "podGroupTemplateName" in inner:
        t.replace_entry(inner, "podGroupTemplateName", "templateName")
    t.carry_key_comment(ref, "workload", spec, "podGroupTemplateRef")
    t.move_subtree(inner, ref)
    t.replace_entry(spec, "podGroupTemplateRef", "workloadRef", inner)
    ctx.record(("spec", "podGroupTemplateRef"), "move", old, {"workloadRef": _plain(inner)})


def _ref_to_old(spec: dict, ctx: StepContext) -> None:
    """`workloadRef{workloadName, templateName}` -> `podGroupTemplateRef.workload{workloadName, podGroupTemplateName}`."""
    if spec.get("workloadRef") is None:
        return
    inner = spec["workloadRef"]
    old = _plain(inner)
    if "templateName" in inner:
        t.replace_entry(inner, "templateName", "podGroupTemplateName")
    wrapper = t.new_map(spec, {"workload": inner})
    t.nest_subtree(inner, wrapper, spec, "workloadRef")
    t.replace_entry(spec, "workloadRef", "podGroupTemplateRef", wrapper)
    ctx.record(("spec", "workloadRef"), "move", old, {"podGroupTemplateRef": _plain(wrapper)})


def _status(obj: dict, to_old: bool, from_old: bool, ctx: StepContext) -> None:
    """Status is reset on create: dropped by default, or kept with the 1.36<->1.37 condition renames."""
    if "status" not in obj:
        return
    if not ctx.keep_status:
        old = t.pop_entry(obj, "status")
        ctx.record(("status",), "remove", _plain(old), None)
        return
    renames = CONDITION_RENAMES_136 if from_old and not to_old else (
        {v: k for k, v in CONDITION_RENAMES_136.items()} if to_old and not from_old else {})
    status = obj["status"]
    conditions = status.get("conditions") if isinstance(status, dict) else None
    for i, cond in enumerate(conditions or ()):
        ctype = cond.get("type") if isinstance(cond, dict) else None
        if ctype in renames:
            t.set_scalar(cond, "type", renames[ctype])
            ctx.record(("status", "conditions", i, "type"), "set", ctype, renames[ctype])

"""What priority the target would need for the scheduler to preempt its way in.

Only where preemption is simulated: the cheapest set of other pods whose removal lets the trial reach
minCount is found as for evictions (suggest_gang.choose, with no priority ceiling); the target then needs a
priority above the highest of them. The smallest existing PriorityClass above that is suggested (or a new
one), and a re-run with the group and its pods on that class must place the target. The re-run changes
exactly what the suggested edit changes: a Job's PodGroup is the controller's and keeps its priority.
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.model import Node, PriorityClass
from wasplan.explain import manifest, rerun
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Change, Suggestion
from wasplan.explain.suggest_gang import choose, target_priority, victims_by_node
from wasplan.words import plural


def _class_for(ctx: Context, subj: Subject, value: int) -> tuple[str, PriorityClass | None]:
    """(class name, new class record or None): the lowest existing class at or above `value`, else a new one."""
    above = sorted((c.value, c.name) for c in ctx.sim.world.classes.values() if c.value >= value)
    if above:
        return above[0][1], None
    name = f"{subj.unit.key.split('/')[1]}-priority"
    return name, PriorityClass(name, value)


def _variant(ctx: Context, subj: Subject, name: str, new: PriorityClass | None):
    keys = {p.key for p in subj.pending}
    inputs = rerun.with_pods(ctx.inputs, keys, lambda p: dataclasses.replace(p, priority_class_name=name,
                                                                             priority=None))
    if subj.group is not None and subj.group.record.source is not None:  # a Job's PodGroup keeps priority 0
        inputs = rerun.with_group(inputs, subj.unit.key, lambda g: dataclasses.replace(
            g, obj=dataclasses.replace(g.obj, priority_class_name=name, priority=None)))
    if new is not None:
        inputs = rerun.PlanInputs([new, *inputs.existing], inputs.arrivals)
    return inputs


def _changes(ctx: Context, subj: Subject, name: str, new: PriorityClass | None) -> tuple[Change, ...]:
    out = list(manifest.pod_changes(ctx.documents, subj.pending, ("priorityClassName",), name))
    if subj.group is not None and subj.group.record.source is not None:
        out.insert(0, manifest.change("set", subj.group.record.source, ("spec", "priorityClassName"), name))
    if new is not None:  # created in the cluster, before the pods that name it
        where = _cluster_file(ctx)
        obj = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
               "value": new.value}
        out.insert(0, manifest.Change("add", where, f"PriorityClass/{name}", "", obj))
    return tuple(out)


def _cluster_file(ctx: Context) -> str:
    """The snapshot file that holds the cluster's PriorityClasses (else its nodes)."""
    for kind in (PriorityClass, Node):
        for r in ctx.inputs.existing:
            if isinstance(r, kind) and r.source is not None:
                return r.source.source
    return manifest.GENERATED


def priority(ctx: Context, subj: Subject) -> Suggestion | None:
    if not getattr(ctx.verifier.options, "preemption", False) or subj.trial is None or not subj.trial.failures:
        return None
    first = next(iter(subj.trial.failures.values())).pod
    by_node = victims_by_node(ctx, subj, first, None)
    victims = choose(ctx, subj, by_node) if by_node else None
    if not victims:
        return None
    world = ctx.sim.world
    need = max(world.pods[v.key].priority for v in victims) + 1
    if need <= target_priority(ctx, subj, first):
        return None  # lower-priority victims exist, yet the scheduler did not preempt: priority is not the fix
    name, new = _class_for(ctx, subj, need)
    if not ctx.verifier.places(subj.unit, _variant(ctx, subj, name, new)):
        return None
    why = (f"the scheduler would preempt {plural(len(victims), 'pod')} of priority up to {need - 1} "
           f"({', '.join(v.key for v in victims[:3])}{' ...' if len(victims) > 3 else ''}) once the target's "
           f"priority is above theirs")
    return Suggestion("priority", f"raise the priority to at least {need} (PriorityClass {name})", why,
                      _changes(ctx, subj, name, new))

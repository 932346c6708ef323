"""CompositePodGroups in the Plan: each composite's status, placement and what its last cycle made of every
child (the NodeResults compositecycle.py recorded in `World.tree_results`)."""

from __future__ import annotations

from wasplan.api import hub
from wasplan.engine.cache.composite import Forest
from wasplan.engine.queueing.queue import QueueKind
from wasplan.plan import (CompositeOutcome, GroupCondition, GroupPolicy, GroupStatus, Placement, Reason, TreeChild,
                          TreeResult)

_KIND = {QueueKind.COMPOSITE: "CompositePodGroup", QueueKind.GROUP: "PodGroup"}


def composite_outcomes(world, options) -> tuple[CompositeOutcome, ...]:
    forest = Forest(world, options)
    if not forest.on or not options.groups_on:  # no trees, or no PodGroup cycles at all
        return ()
    return tuple(_outcome(forest, world, key, options) for key in sorted(world.composites, key=lambda k: k.split("/", 1)))


def _outcome(forest: Forest, world, key: str, options) -> CompositeOutcome:
    record = world.composites[key]
    obj = record.obj
    gang = obj.policy.kind == hub.PolicyKind.GANG
    parent = f"{record.namespace}/{obj.parent_composite}" if obj.parent_composite else None
    res = world.tree_results.get(key)
    if res is None:
        children = tuple(TreeChild(_KIND[kind], child.partition("/")[2], TreeResult.NOT_TRIED)
                         for kind, child in forest.children(key))
        return CompositeOutcome(record.namespace, record.name, GroupPolicy.GANG if gang else GroupPolicy.BASIC,
                                forest.min_children(key) if gang else 0, GroupStatus.WAITING_FOR_PODS, parent, None, "", children)
    children = tuple(TreeChild(_KIND[c.kind], c.key.partition("/")[2], c.result, c.message) for c in res.children)
    where = Placement(*res.placement) if res.placement and res.success else None
    return CompositeOutcome(record.namespace, record.name, GroupPolicy.GANG if gang else GroupPolicy.BASIC,
                            forest.min_children(key) if gang else 0, GroupStatus.SCHEDULED if res.success else GroupStatus.UNSCHEDULABLE,
                            parent, where, res.message, children, _condition(res, options.caps.composite_condition))


def _condition(res, kind: str) -> GroupCondition | None:
    """The condition 1.38 writes on a CompositePodGroup its cycle concerned (a True one is kept: tree_results never
    lets a later failure hide a success); a failure is Unschedulable, SchedulerError for an error, or
    CompositePodGroupError for a failed runtime hierarchy check (compositecycle.py _fail_before_cycle)."""
    if not kind:
        return None
    if res.success:
        return GroupCondition(kind, "True", Reason.SCHEDULED)
    reason = (Reason.COMPOSITE_POD_GROUP_ERROR if res.invalid else
              Reason.SCHEDULER_ERROR if res.error else Reason.UNSCHEDULABLE)
    return GroupCondition(kind, "False", reason, res.message)

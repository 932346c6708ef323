"""The CompositePodGroup cycle (1.37; engine-semantics §1.10.3; upstream `schedule_one_podgroup.go`
podGroupSchedulingRecursiveAlgorithm / compositePodGroupSchedulingDefaultAlgorithm).

Recursive, greedy, top-down, no backtracking. At a composite with a topology key, every domain of the key
inside the parent's placement is tried (pinned to the domain of members already bound anywhere below), and in
each the children are scheduled in creation order: a child that fails is rolled back and skipped, and the
composite is feasible once minGroupCount children (basic: one) succeed; PlacementFeasible stops early when
`scheduled + remaining < minGroupCount`. Feasible domains are scored like a PodGroup's placements, with
PodGroupPodsCount summed over the subtree; the best one's children are scheduled again for real (the same,
deterministic, result). A leaf PodGroup runs the ordinary placement algorithm inside its parent's placement; a gang leaf whose queued and
scheduled pods fall short of minCount (its first pods can pass PreEnqueue on the root's quorum) fails at the
PlacementFeasible check made before any member is tried.
A leaf whose bound pods already meet its quorum and has nothing queued counts as scheduled. The root succeeds
only if at least one new pod was placed. Every trial rolls back through the state's journal.

The root is one queue entity holding every pod created under it; a pod of it held at PreEnqueue
(schedulingGates, DynamicResources) gates the whole entity (v1.37.2 scheduling_queue.go
runPreEnqueuePlugins), so such a tree runs no cycle: its pods never attempted stay Gated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.engine.cycle import groupcycle, hierarchy, placement, search
from wasplan.engine.cache.composite import MAX_DEPTH
from wasplan.engine.cycle.domains import PlacementError, bin_packing_score, generate
from wasplan.engine.cycle.groupcycle import UNSCHEDULABLE_MSG, GroupAttempt, scheduler_name_problem
from wasplan.engine.queueing.queue import QueueKind
from wasplan.engine.cache.world import NOT_CREATED, SimStatus
from wasplan.plan import Reason, TreeResult



@dataclass(slots=True)
class NodeResult:
    kind: QueueKind  # COMPOSITE | GROUP
    key: str
    result: TreeResult = TreeResult.NOT_TRIED
    message: str = ""
    placement: tuple[str, str] | None = None
    attempt: GroupAttempt | None = None
    children: list["NodeResult"] = field(default_factory=list)
    placed: int = 0  # new pods reserved in the subtree
    raw: int = 0  # PodGroupPodsCount over the subtree: scheduled plus placed pods of succeeding leaves
    error: bool = False
    invalid: bool = False  # 1.38: the runtime hierarchy checks failed (CompositePodGroupError / PodGroupError)

    @property
    def success(self) -> bool:
        return self.result in (TreeResult.SCHEDULED, TreeResult.ALREADY_SCHEDULED)

    def revert(self, why: str) -> None:
        """The subtree's reservations were rolled back (`why`: the failure that caused it): successes below
        become Reverted and carry that reason."""
        if self.success:
            self.result, self.message = TreeResult.REVERTED, why
        for child in self.children:
            child.revert(why)


def queued(world, gs) -> list:
    """A leaf's pods waiting to be scheduled, in the group cycle's order (priority, then first queue time)."""
    return sorted(world.queued_members(gs), key=lambda m: (-m.priority, m.initial_ts))


def ancestor_failure(failed: NodeResult, caps) -> str:
    """What the nodes below a failed composite are told: 1.37 its own status; 1.38 (buildAncestorFailureStatus,
    schedule_one_podgroup.go) only its name, the reason being in its own status."""
    if not caps.group_fit_error:
        return failed.message
    verdict = "encountered an error" if failed.error else "is unschedulable"
    return f'ancestor composite pod group "{failed.key.partition("/")[2]}" {verdict}'


def cannot_satisfy(need: int, scheduled: int, remaining: int) -> str:
    return f"minCount ({need}) cannot be satisfied: {scheduled} scheduled, {remaining} remaining"


class TreeRun:
    """One cycle's recursive evaluation of a tree; results only, the caller applies them."""

    def __init__(self, cycles, ev, root: str) -> None:
        self.cycles, self.ev, self.state, self.root = cycles, ev, ev.state, root
        self.world, self.forest, self.options = cycles.world, cycles.forest, cycles.options

    def node(self, kind: str, key: str, mask) -> NodeResult:
        return self.leaf(key, mask) if kind == QueueKind.GROUP else self.composite(key, mask)

    def leaf(self, key: str, mask) -> NodeResult:
        gs = self.world.groups[key]
        live = self.world.live_members(gs)
        scheduled = sum(1 for ps in live if ps.placed)
        res = NodeResult(QueueKind.GROUP, key, raw=scheduled)
        members = queued(self.world, gs)
        if not members:
            res.result = TreeResult.ALREADY_SCHEDULED if scheduled >= gs.min_count else TreeResult.FAILED
            res.message = "" if res.success else UNSCHEDULABLE_MSG
            return res
        mark = self.state.mark()
        bound = placement.bound_rows(self.state, live)
        attempt = (self.short_of_quorum(gs, len(members), scheduled, bound, mask)
                   or placement.run_group(self.ev, gs, members, scheduled, bound, self.options, mask))
        ok = attempt.success or (not attempt.error and not attempt.placements and scheduled >= gs.min_count)
        res.attempt, res.placement, res.message, res.error = attempt, attempt.placement, attempt.message, attempt.error
        if ok:
            res.result = TreeResult.SCHEDULED if attempt.success else TreeResult.ALREADY_SCHEDULED
            res.placed = len(attempt.placements) if attempt.success else 0
            res.raw += res.placed
        else:
            res.result = TreeResult.FAILED
            self.state.rollback(mark)
        return res

    def short_of_quorum(self, gs, queued_count: int, scheduled: int, bound, mask) -> GroupAttempt | None:
        """A gang whose queued and scheduled pods together fall short of minCount, or None. Inside a tree a
        child's pod passes PreEnqueue once the root's quorum is met elsewhere (gangscheduling.go
        isCPGTreeReady), so a gang can come with fewer pods than its minCount. Upstream's
        podGroupSchedulingDefaultAlgorithm then stops at the PlacementFeasible check made before any member
        is tried, in every placement, with a status built with errPodGroupUnschedulable: the placements
        message quotes it as that error alone, and no member is attempted."""
        if not gs.is_gang or scheduled + queued_count >= gs.min_count:
            return None
        fit_error = self.options.caps.group_fit_error  # 1.38: the plugin's reason, the members not evaluated
        first = (groupcycle.threshold(gs.min_count, scheduled, 0, queued_count, True) if fit_error
                 else groupcycle.unschedulable(cannot_satisfy(gs.min_count, scheduled, queued_count)))
        parent = gs.record.name if fit_error else None
        if not placement.tas_on(self.options):
            return GroupAttempt(False, first, wrapped=not fit_error, parent=parent)
        count, key = 1, placement.topology_key(gs.pg)
        if key is not None:
            try:
                count = len(generate(self.state, key, mask, bound, self.options.caps.empty_domain_excluded))
            except PlacementError as exc:
                return GroupAttempt(False, str(exc), error=True)
            if not count:
                return GroupAttempt(False, placement.no_domain_msg(key))
        if fit_error:
            return GroupAttempt(False, placement.placements_msg(count, first), parent=parent)
        return GroupAttempt(False, groupcycle.unschedulable(placement.placements_msg(count, UNSCHEDULABLE_MSG)),
                            wrapped=True)

    def subtree_bound(self, key: str) -> list[tuple[str, int]]:
        out = []
        for gs in self.forest.leaves(key):
            out += placement.bound_rows(self.state, self.world.live_members(gs))
        return out

    def composite(self, key: str, mask) -> NodeResult:
        obj = self.world.composites[key].obj
        tkey = placement.topology_key(obj) if placement.tas_on(self.options) else None
        if tkey is None:  # one placement (the parent's nodes); a failure reads as that placement's
            res = self.children(key, mask)
            if not res.success and not res.error and placement.tas_on(self.options):
                res.message = self.placements_failed(1, res.message)
            return res
        try:
            domains = generate(self.state, tkey, mask, self.subtree_bound(key),
                               self.options.caps.empty_domain_excluded)
        except PlacementError as exc:
            return NodeResult(QueueKind.COMPOSITE, key, TreeResult.FAILED, str(exc), error=True)
        if not domains:
            return NodeResult(QueueKind.COMPOSITE, key, TreeResult.FAILED, placement.no_domain_msg(tkey))
        if sampled := placement.sampling(self.options, domains):
            self.world.sampled_trees[key] = sampled
        need = self.need(key, root=key == self.root)
        winner, trials = search.best(self.state, domains, need, lambda d: self._trial(key, d))
        if winner is None:
            first = trials.get(domains[0].name) or self._trial(key, domains[0])
            res = first.outcome  # v1.37.2 builds the placements status with errPodGroupUnschedulable
            res.message = self.placements_failed(len(domains), res.message)
            return res
        chosen = self.children(key, winner.domain.mask(len(self.state.nodes)))
        chosen.placement = (tkey, winner.domain.name)
        return chosen

    def placements_failed(self, count: int, first: str) -> str:
        """A composite's status when none of its `count` placements is feasible (1.37 leads with
        errPodGroupUnschedulable's text; 1.38 is a podGroupPlacementFitError)."""
        message = placement.placements_msg(count, first)
        return message if self.options.caps.group_fit_error else groupcycle.unschedulable(message)

    def _trial(self, key: str, domain) -> search.Trial:
        mark = self.state.mark()
        res = self.children(key, domain.mask(len(self.state.nodes)))
        score = bin_packing_score(self.state, domain.rows) if res.success else 0
        self.state.rollback(mark)
        return search.Trial(domain, res, res.success, res.raw, score)

    def need(self, key: str, root: bool) -> search.Need:
        """The subtree's queued pods, its pods already scheduled and the fewest new pods it can succeed with."""
        leaves = self.forest.leaves(key)
        waiting = [ps for gs in leaves for ps in queued(self.world, gs)]
        scheduled = sum(1 for gs in leaves for ps in self.world.live_members(gs) if ps.placed)
        fewest = self.fewest(key)
        vectors = [self.state.vectors(ps.pod) for ps in waiting]
        return search.Need(vectors, scheduled, max(fewest, 1) if root else fewest)

    def fewest(self, key: str, depth: int = 0) -> int:
        """A lower bound on the new pods a subtree must place to succeed (its cheapest minGroupCount children)."""
        costs = []
        for kind, child in self.forest.children(key) if depth < MAX_DEPTH else ():
            if kind == QueueKind.COMPOSITE:
                costs.append(self.fewest(child, depth + 1))
                continue
            gs = self.world.groups[child]
            bound = sum(1 for ps in self.world.live_members(gs) if ps.placed)
            costs.append(max(gs.min_count - bound, 0) if gs.is_gang or bound else 1)
        return sum(sorted(costs)[:self.forest.min_children(key)])

    def children(self, key: str, mask) -> NodeResult:
        res = NodeResult(QueueKind.COMPOSITE, key, TreeResult.FAILED)
        need, kids = self.forest.min_children(key), self.forest.children(key)
        scheduled, remaining, failed = 0, len(kids), 0
        fit_error = self.options.caps.group_fit_error
        for i, (kind, child) in enumerate(kids):
            if scheduled + remaining < need:
                break
            mark = self.state.mark()
            r = self.node(kind, child, mask)
            remaining -= 1
            res.children.append(r)
            if r.error:
                res.error = True
                res.message = (f'composite pod group "{key.partition("/")[2]}" evaluation failed due to child '
                               f'"{child.partition("/")[2]}" error: {r.message}' if fit_error else
                               f"composite pod group evaluation failed due to child error: {r.message}")
                return res
            if r.success:
                scheduled, res.placed, res.raw = scheduled + 1, res.placed + r.placed, res.raw + r.raw
            else:
                failed += 1
                self.state.rollback(mark)
                r.revert(self.undone_by(r))
        res.children += [NodeResult(kind, child) for kind, child in kids[len(res.children):]]
        if scheduled >= need:
            res.result = TreeResult.SCHEDULED
        elif fit_error:  # 1.38 PlacementFeasible counts the failed children too
            res.message = groupcycle.threshold(need, scheduled, failed, remaining, True)
        else:
            res.message = cannot_satisfy(need, scheduled, remaining)
        return res

    def undone_by(self, failed: NodeResult) -> str:
        return ancestor_failure(failed, self.options.caps)


# ---- applying a tree cycle's result ----------------------------------------------------------------------------
def run(cycles, root: str) -> None:
    """The cycle for one root entity: evaluate the tree, then bind or fail every queued pod below it."""
    forest, state = cycles.forest, cycles.state
    leaves = forest.leaves(root)
    waiting = [ps for gs in leaves for ps in queued(cycles.world, gs)]
    if not waiting:
        return
    gating = _gating_member(cycles.world, leaves)
    if gating is not None:
        _hold_all(cycles, root, waiting, gating)
        return
    if cycles.options.caps.hierarchy_validation:
        policy_of = cycles.post_filters.pod_policy_of()
        tree = hierarchy.tree_node(cycles.world, forest, root, lambda gs: queued(cycles.world, gs), policy_of)
        found = hierarchy.check(tree, cycles.evaluators)
        if found is not None:
            _fail_before_cycle(cycles, root, waiting, found)
            return
    elif (problem := scheduler_name_problem([ps.pod.scheduler_name for ps in waiting], cycles.evaluators)) is not None:
        _fail_all(cycles, root, waiting, problem)
        return
    ev = cycles.evaluator_for(waiting[0])
    mark = state.mark()
    result = TreeRun(cycles, ev, root).node(QueueKind.COMPOSITE, root, None)
    if result.success and result.placed == 0:  # the root needs at least one newly placed pod
        result.result = TreeResult.FAILED
        result.message = groupcycle.NO_POD_SCHEDULABLE if cycles.options.caps.group_fit_error else UNSCHEDULABLE_MSG
    suffix = ""
    if not result.success:
        state.rollback(mark)
        result.revert(ancestor_failure(result, cycles.options.caps))
        suffix = _post_filter_text(cycles, root, result)
        _append(result, suffix)
    _record(cycles.world, result)
    failed = _apply(cycles, result, result.success, result.message if result.success else
                    ancestor_failure(result, cycles.options.caps), suffix)
    if result.success:
        state.commit()
        if failed:  # partial success: the root is retried at once with its old timestamp
            cycles.queue.push((QueueKind.COMPOSITE, root), forest.priority(root), min(m.initial_ts for m in waiting))
        cycles.pods_bound()
    else:
        cycles.queue.failed((QueueKind.COMPOSITE, root))
        cycles.queue.park((QueueKind.COMPOSITE, root), forest.priority(root), cycles.tick())


def _post_filter_text(cycles, root: str, result: NodeResult) -> str:
    """1.38: what the root's PodGroupPostFilter adds to every group of a failed tree (", " and the reason;
    applyPodGroupPostFilterResult appends it to each result, the ones never evaluated too), when wasplan knows
    it (PostFilters.tree_verdict); nothing after an error, which runs no PodGroupPostFilter."""
    if result.error or not cycles.options.caps.tree_preemption_verdict:
        return ""
    obj = cycles.world.composites[root].obj
    verdict = cycles.post_filters.tree_verdict(cycles.forest.priority(root),
                                               hierarchy.admitted_policy(obj, cycles.world))
    return f", {cycles.options.caps.group_preemption_prefix}{verdict}" if verdict else ""


def _append(res: NodeResult, suffix: str) -> None:
    """Add the PodGroupPostFilter's text to every failed or undone node's status below (and at) `res`."""
    if suffix and res.message and not res.success:
        res.message += suffix
    for child in res.children:
        _append(child, suffix)


def tree_gated_msg(root: str, pod: str) -> str:
    """wasplan's wording: upstream writes no condition on the pods of a gated tree that were never attempted."""
    return f'the composite pod group "{root.partition("/")[2]}" tree is gated by its pod {pod}; none of it is scheduled'


def _gating_member(world, leaves):
    """A pod of the tree that a PreEnqueue plugin holds (schedulingGates, DynamicResources), or None. v1.37.2
    queues a tree as one entity holding every pod created under it (scheduling_queue.go addPodGroupMember), and
    runPreEnqueuePlugins gates the whole entity when any of its pods is gated. Pods not created yet (a
    controller's later pods) are not in it."""
    for gs in leaves:
        for ps in world.live_members(gs):
            if ps.status == SimStatus.GATED and ps.reason != NOT_CREATED:
                return ps
    return None


def _hold_all(cycles, root: str, queued: list, gating) -> None:
    """The tree is gated: a pod never attempted stays Gated; one attempted before keeps what it was told."""
    for ps in queued:
        if ps.status == SimStatus.QUEUED:
            ps.status, ps.reason, ps.message = SimStatus.GATED, Reason.UNSCHEDULABLE, tree_gated_msg(root, gating.key)
    cycles.queue.park((QueueKind.COMPOSITE, root), cycles.forest.priority(root), cycles.tick())


def _fail_all(cycles, root: str, queued: list, message: str) -> None:
    for ps in queued:
        cycles.fail(ps, message)
    cycles.queue.failed((QueueKind.COMPOSITE, root))
    cycles.queue.park((QueueKind.COMPOSITE, root), cycles.forest.priority(root), cycles.tick())


def _fail_before_cycle(cycles, root: str, queued: list, found: hierarchy.Problem) -> None:
    """1.38 handlePodGroupFailureBeforeScheduling for a tree: every queued pod is told the error (reason
    SchedulerError, the status being fwk.AsStatus of it), and updatePodGroupConditionWithError writes it on the
    root and, recursively, on every group below: CompositePodGroupError / PodGroupError for a failed check,
    SchedulerError otherwise."""
    for ps in queued:
        cycles.fail(ps, found.message, Reason.SCHEDULER_ERROR)
    _record(cycles.world, _failed_subtree(cycles, QueueKind.COMPOSITE, root, found))
    cycles.queue.park((QueueKind.COMPOSITE, root), cycles.forest.priority(root), cycles.tick())


def _failed_subtree(cycles, kind: QueueKind, key: str, found: hierarchy.Problem, depth: int = 1) -> NodeResult:
    res = NodeResult(kind, key, TreeResult.FAILED, found.message, error=not found.validation,
                     invalid=found.validation)
    if kind == QueueKind.GROUP:
        gs = cycles.world.groups[key]
        gs.attempted = True
        cycles.set_condition(gs, "False", Reason.POD_GROUP_ERROR if found.validation else Reason.SCHEDULER_ERROR,
                             found.message)
        return res
    for child_kind, child in cycles.forest.children(key) if depth <= MAX_DEPTH else ():
        res.children.append(_failed_subtree(cycles, child_kind, child, found, depth + 1))
    return res


def _record(world, res: NodeResult) -> None:
    """Keep each composite's latest result, but never let a later failed retry hide an earlier success."""
    if res.kind != QueueKind.COMPOSITE:
        return
    kept = world.tree_results.get(res.key)
    if res.success or kept is None or not kept.success:
        world.tree_results[res.key] = res
    for child in res.children:
        _record(world, child)


def _apply(cycles, res: NodeResult, keep: bool, inherited: str, suffix: str = "") -> bool:
    """Bind what the tree kept; fail the rest with their own FitError, their group's message or the message of
    the nearest failing ancestor (with `suffix`, the PodGroupPostFilter's text, on a group's status). Returns
    whether any queued pod stayed unplaced."""
    if res.kind == QueueKind.COMPOSITE:
        failed = False
        below = inherited if res.success or not res.message else ancestor_failure(res, cycles.options.caps)
        for child in res.children:
            failed |= _apply(cycles, child, keep and res.success, below, suffix)
        return failed
    return _apply_leaf(cycles, res, keep, inherited, suffix)


def _apply_leaf(cycles, res: NodeResult, keep: bool, inherited: str, suffix: str = "") -> bool:
    """Every PodGroup of the tree gets the cycle's verdict as its condition, one with nothing queued too:
    v1.37.2 gives each node of the tree a result (completeCompositePodGroupAlgorithmResultMap hands a
    failing parent's status to a child that succeeded or was never reached) and submitPodGroupAlgorithmResult
    writes every PodGroup's condition (a True one is never lowered)."""
    gs = cycles.world.groups[res.key]
    members = queued(cycles.world, gs)
    if not members:
        _settle_condition(cycles, gs, res, keep, inherited, suffix)
        return False
    gs.attempted = True
    attempt = res.attempt or GroupAttempt(False, inherited)
    if keep and res.result == TreeResult.SCHEDULED:
        for ps in members:
            if ps.key in attempt.placements:
                cycles.bind(ps, attempt.placements[ps.key])
            else:
                cycles.fail(ps, attempt.member_message(ps.key))
        gs.placement = res.placement or gs.placement
        cycles.set_condition(gs, "True", Reason.SCHEDULED, "")
        return len(attempt.placements) < len(members)
    own = res.result in (TreeResult.FAILED, TreeResult.ALREADY_SCHEDULED) and res.message
    message = res.message if own else inherited
    if cycles.options.caps.group_fit_error:  # 1.38: a member that did not fail itself names its group
        attempt.parent = gs.record.name
    for ps in members:
        cycles.fail(ps, _told(attempt, ps.key, message))
    condition = message if own or not suffix or message.endswith(suffix) else message + suffix
    cycles.set_condition(gs, "False", Reason.SCHEDULER_ERROR if res.error else Reason.UNSCHEDULABLE, condition)
    return True


def _settle_condition(cycles, gs, res: NodeResult, keep: bool, inherited: str, suffix: str = "") -> None:
    """The condition of a PodGroup of the tree with no pod queued (its pods run, or it has none)."""
    gs.attempted = True
    if keep and res.success:
        cycles.set_condition(gs, "True", Reason.SCHEDULED, "")
        return
    own = res.result == TreeResult.FAILED and res.message
    cycles.set_condition(gs, "False", Reason.SCHEDULER_ERROR if res.error else Reason.UNSCHEDULABLE,
                         res.message if own else inherited + suffix)


def _told(attempt: GroupAttempt, key: str, message: str) -> str:
    """A member's own FitError; a member that had found a node hears the status that undid it, prefixed as
    upstream's rejection of a fitted member is; one never reached hears the status alone."""
    if key in attempt.failures:
        return attempt.failures[key]
    if attempt.parent is not None:
        return attempt.member_message(key)
    if key in attempt.placements:
        return f"{UNSCHEDULABLE_MSG}, {message}"
    return message

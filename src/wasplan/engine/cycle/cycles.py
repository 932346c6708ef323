"""Dispatch and the scheduling cycles: PreEnqueue gating, the per-pod cycle, the 1.36 pod-led PodGroup cycle
(a popped member pulls its queued siblings) and the 1.37 PodGroup entity cycle; binding, failure handling,
PodGroup conditions, and which cluster changes send unschedulable items back to activeQ.

PostFilter (DynamicResources', DefaultPreemption's, workload-aware preemption) is an object the simulator gives
the cycles (`post_filters`, engine/preemption/steps.py PostFilters, built from the cycles it serves): this
module calls it and imports nothing of preemption.
"""

from __future__ import annotations

from collections.abc import Callable

from wasplan.engine.cycle import compositecycle, groupcycle, hierarchy, nominated, placement

from wasplan.engine.profile import registry
from wasplan.engine.cache.composite import Forest, invalid_msg, quorum_msg
from wasplan.engine.cycle.diagnosis import Diagnosis
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.plugins import dynamic_resources
from wasplan.engine.queueing.queue import Item, QueueKind, SchedulingQueue
from wasplan.engine.cache.world import GroupState, PodState, SimStatus, World
from wasplan.plan import Reason

# Read on every pending member's every attempt: a module constant, since an enum member lookup costs ~60 ns on 3.11.
_UNSCHEDULABLE, _QUEUED = SimStatus.UNSCHEDULABLE, SimStatus.QUEUED

GATED_MSG = "Scheduling is blocked due to non-empty scheduling gates"


def group_missing_msg(name: str) -> str:
    return f'waiting for pod\'s pod group "{name}" to appear in scheduling queue'


PRIORITY_MSG = "all pods in a single pod group should have the same priority as the pod group's priority, got {} and {}"
QUORUM_MSG = "waiting for minCount pods from a gang to appear in scheduling queue"


class Cycles:
    def __init__(self, state, world: World, queue: SchedulingQueue, evaluators, options: EngineOptions,
                 post_filters: Callable[[Cycles], object]):
        """`post_filters`: builds the PostFilter steps for these cycles (the simulator's preemption.steps)."""
        self.state, self.world, self.queue = state, world, queue
        self.evaluators, self.options = evaluators, options
        self._clock = 0
        # pod key -> the Diagnosis of its last own cycle (None: it had none), whose rejector stages are read only
        # when a binding asks (_rejector_stages), so a failure that nothing asks about costs nothing more
        self.rejectors: dict[str, Diagnosis | frozenset[int] | None] = {}
        self._groups_on, self._entity = options.groups_on, options.caps.group_entity_cycle
        self._waiting: dict[str, list[PodState]] = {}  # group key -> pods held by GangScheduling's PreEnqueue
        self.dra = state.plugins.get(dynamic_resources.NAME)
        self.forest = Forest(world, options)  # CompositePodGroup trees (1.37, gate CompositePodGroup)
        self._placed_memo: dict[str, tuple] = {}  # group key -> (version, members seen, group, placed, bound rows)
        self.nominator = nominated.Nominator(self._priority_of, state)  # preemptors waiting for their retry
        for ev in evaluators.values():
            ev.nominator = self.nominator
        self.post_filters = post_filters(self)

    def _priority_of(self, pod) -> int:
        """The resolved priority of a pod of the world (a pod outside it, a recreation's replacement: its own)."""
        ps = self.world.pods.get(pod.key)
        return ps.priority if ps is not None else (pod.priority or 0)

    def tick(self) -> int:
        self._clock += 1
        return self._clock

    # ---- creation and PreEnqueue -----------------------------------------------------------------------------
    def in_group_mode(self, ps: PodState) -> bool:
        return self._groups_on and ps.pod.pod_group is not None

    def pod_created(self, ps: PodState) -> None:
        if self.dra is not None:
            ps.pod = self.dra.adopt(ps.pod)
        if ps.pod.node_name:
            if ps.pod.resource_claims and self.dra is not None:  # its claims, for Reserve and the controller
                self.dra.pre_enqueue(ps.pod, self.world.group_of(ps))
            if ps.pod.node_name in self.state.index:
                self.state.reserve(ps.pod, self.state.index[ps.pod.node_name])
                self.state.commit()
            ps.status, ps.node = SimStatus.ALREADY_BOUND, ps.pod.node_name
            return
        if ps.pod.terminating:  # the scheduler skips pods that are being deleted
            ps.status, ps.reason, ps.message = SimStatus.UNSCHEDULABLE, "", "the pod is being deleted; the scheduler skips it"
            return
        self.pre_enqueue(ps)
        group = self.world.group_of(ps) if self.in_group_mode(ps) else None
        if group is not None:
            # the group existed before this pod: its waiting pods already carry its quorum message (set when
            # they were gated, or when the group was created), so a gang below quorum needs no pass over them
            self.release_gated(group, refresh=False)

    def bound_pods_created(self, states: list[PodState]) -> None:
        """Many pods that already run on nodes of the cluster, created at once (the snapshot's bound pods):
        what pod_created does for each, with the node arrays updated in one pass (ClusterState.place_bound)."""
        if self.state.stateful:
            for ps in states:
                self.pod_created(ps)
            return
        index = self.state.index
        self.state.place_bound([ps.pod for ps in states], [index[ps.pod.node_name] for ps in states])
        for ps in states:
            ps.status, ps.node = SimStatus.ALREADY_BOUND, ps.pod.node_name

    def _gate(self, ps: PodState) -> tuple[str, str] | None:
        if ps.pod.scheduling_gates:
            return Reason.SCHEDULING_GATED, GATED_MSG
        if not self.in_group_mode(ps):
            return None
        group = self.world.group_of(ps)
        if group is None:
            return Reason.UNSCHEDULABLE, group_missing_msg(ps.pod.pod_group)
        root = self.forest.root_key(group)
        problem = self.forest.problem(group) if root is not None else None
        if problem is not None:
            return Reason.UNSCHEDULABLE, invalid_msg(*problem)
        if root is not None:  # a tree's pods wait for the whole tree's quorum, evaluated from the root
            return None if self.forest.admissible(root) else (Reason.UNSCHEDULABLE, quorum_msg(root.partition("/")[2]))
        if group.is_gang and group.live < group.min_count:
            return Reason.UNSCHEDULABLE, QUORUM_MSG
        return None

    def pre_enqueue(self, ps: PodState) -> None:
        if not ps.ts:  # the queue timestamp is taken when the pod is first added, gated or not
            ps.ts = self.tick()
            if self._entity:
                ps.initial_ts = ps.ts
        gate = self._gate(ps)
        if gate is None:
            problem = self._pre_enqueue(ps)
            if problem is not None:  # a plugin's PreEnqueue (DynamicResources': the claim never appears)
                ps.status, ps.reason, ps.message = SimStatus.GATED, Reason.UNSCHEDULABLE, problem
                return
        if gate is not None:
            ps.status, (ps.reason, ps.message) = SimStatus.GATED, gate
            if gate[0] != Reason.SCHEDULING_GATED:
                self._waiting.setdefault(World.group_key(ps), []).append(ps)
            return
        ps.status, ps.reason, ps.message = _QUEUED, "", ""
        if not ps.initial_ts:
            # 1.36 stamps InitialAttemptTimestamp when a pod first enters activeQ, not while PreEnqueue holds it
            # (v1.36.5 scheduling_queue.go moveToActiveQ), and its group cycle orders the members by it
            # (podGroupInfoForPod): the member that completes a gang's quorum comes first, then those released
            ps.initial_ts = self.tick()
        self.enqueue(ps)

    def _pre_enqueue(self, ps: PodState) -> str | None:
        """The registry's PreEnqueue plugins that run for the pod and its profile keeps, in order: the first
        that holds the pod says why (upstream's RunPreEnqueuePlugins stops there)."""
        ev = None
        for p in registry.PRE_ENQUEUERS:
            plugin = self.state.plugins.get(p.name)
            if plugin is None or not p.runs_for_pod(ps.pod):
                continue
            ev = ev or self.evaluator_for(ps)
            if ev is None or ev.profile.filter_on(p.name):
                problem = p.pre_enqueue(plugin, ps.pod, self.world.group_of(ps))
                if problem is not None:
                    return problem
        return None

    def _pre_bind(self, pod) -> str | None:
        """The registry's PreBind plugins that run for the pod, in order: the first refusal, or None."""
        for p in registry.PRE_BINDERS:
            plugin = self.state.plugins.get(p.name)
            if plugin is not None and p.runs_for_pod(pod):
                refused = p.pre_bind(plugin, pod)
                if refused is not None:
                    return refused
        return None

    def enqueue(self, ps: PodState) -> None:
        group = self.world.group_of(ps) if self.in_group_mode(ps) else None
        if group is not None and self._entity:
            # the entity sorts by the group's priority and the timestamp of its first queued pod
            root = self.forest.root_key(group)
            item: Item = (QueueKind.COMPOSITE, root) if root else (QueueKind.GROUP, group.key)
            priority = self.forest.priority(root) if root else group.priority
            current = self.queue.timestamp(item)
            if not self.queue.active(item) or current is None or ps.ts < current:
                self.queue.push(item, priority, ps.ts if current is None else min(current, ps.ts))
        else:
            self.queue.push((QueueKind.POD, ps.key), ps.priority, ps.ts)

    def release_gated(self, group: GroupState, refresh: bool = True) -> None:
        root = self.forest.root_key(group)
        if root is not None:
            problem = self.forest.problem(group)
            if problem is None and self.forest.admissible(root):
                for leaf in self.forest.leaves(root):
                    self._release(leaf)
                return
            message = invalid_msg(*problem) if problem else quorum_msg(root.partition("/")[2])
            for ps in self._waiting.get(group.key, ()):
                ps.message = message  # the group exists; the tree is what is missing
            return
        if group.is_gang and group.live < group.min_count:
            for ps in self._waiting.get(group.key, ()) if refresh else ():
                ps.message = QUORUM_MSG  # the group exists now; the quorum is what is missing
            return
        self._release(group)

    def _release(self, group: GroupState) -> None:
        for ps in sorted(self._waiting.pop(group.key, ()), key=lambda p: p.seq):
            self.pre_enqueue(ps)

    def composite_created(self) -> None:
        """A CompositePodGroup appeared: trees waiting for it (or for its quorum) may now be admitted."""
        for key in list(self._waiting):
            if key in self.world.groups:
                self.release_gated(self.world.groups[key])
        self.cluster_changed()

    def group_created(self, key: str) -> None:
        self.release_gated(self.world.groups[key])
        self.cluster_changed()

    # ---- cluster changes ---------------------------------------------------------------------------------------
    def cluster_changed(self) -> None:
        """Node added, pod deleted, group created: anything may help, retry every unschedulable item."""
        self.queue.requeue()

    def pods_bound(self) -> None:
        """A bound pod only helps pods that some plugin's queueing hint names (registry.helped_by_bound_pod: pod
        affinity, spread constraints), and items whose last attempt ended in a scheduler error: those wait in
        the error backoff, which upstream flushes to activeQ once the backoff completes whatever happened, not
        in the unschedulable pool (backend/queue scheduling_queue.go AddUnschedulablePodIfNotPresent: no rejector
        plugin, queueAfterBackoff; backoff_queue.go add: the error heap). A binding may let the retry pass: it can
        fill the node whose filter erred, so that an earlier filter rejects it there. 1.36 PodGroup members go
        the same way whatever rejected them (`_backs_off_always`)."""
        self.queue.requeue(lambda item: self._helped_by_pod_add(item) or self._failed_with_error(item)
                           or self._backs_off_always(item))

    def _backs_off_always(self, item: Item) -> bool:
        """A failed PodGroup member of a pod-by-pod group cycle (1.36): upstream has no event-based requeueing at
        the group level yet and sends it to the backoffQ whatever plugin rejected it (v1.36.3 backend/queue
        scheduling_queue.go determineSchedulingHintForInFlightPod: queueAfterBackoff for a pod with a
        SchedulingGroup), from where Pop takes it once activeQ is empty (SchedulerPopFromBackoffQ). A retry can
        only differ from the last attempt after a change, so it is requeued on every binding, as an error is."""
        kind, key = item
        return kind == QueueKind.POD and not self._entity and self.in_group_mode(self.world.pods[key])

    def _item_members(self, item: Item) -> list[str]:
        kind, key = item
        if kind == QueueKind.COMPOSITE:
            return [k for gs in self.forest.leaves(key) for k in gs.members]
        return [key] if kind == QueueKind.POD else self.world.groups[key].members

    def _helped_by_pod_add(self, item: Item) -> bool:
        kind, key = item
        stages = self._rejector_stages(key) if kind == QueueKind.POD else None
        if stages is not None:  # a pod's own cycle failed: only its rejector plugins' hints count
            return registry.helped_by_bound_pod_after(self.world.pods[key].pod, stages)
        return any(registry.helped_by_bound_pod(self.world.pods[k].pod) for k in self._item_members(item))

    def _rejector_stages(self, key: str) -> frozenset[int] | None:
        """The stages of the plugins that rejected the pod's last own cycle (Diagnosis.rejecting_stages), read
        once and kept; None when that cycle had no diagnosis or a PreFilter rejected the pod."""
        found = self.rejectors.get(key)
        if found is None or isinstance(found, frozenset):
            return found
        stages = found.rejecting_stages()
        self.rejectors[key] = stages
        return stages

    def _failed_with_error(self, item: Item) -> bool:
        pods = self.world.pods
        return any(k in pods and pods[k].reason == Reason.SCHEDULER_ERROR for k in self._item_members(item))

    # ---- the loop ----------------------------------------------------------------------------------------------
    def run_until_idle(self) -> None:
        while (item := self.queue.pop()) is not None:
            kind, key = item
            if kind == QueueKind.COMPOSITE:
                compositecycle.run(self, key)
                continue
            if kind == QueueKind.GROUP:
                self.group_cycle(self.world.groups[key], self._queued_members(self.world.groups[key]))
                continue
            ps = self.world.pods[key]
            if self.in_group_mode(ps) and self.world.group_of(ps) is not None:
                group = self.world.group_of(ps)
                siblings = [m for m in self._queued_members(group) if m.key != key]
                for m in siblings:
                    self.queue.discard((QueueKind.POD, m.key))
                self.group_cycle(group, [ps, *siblings])
            else:
                self.pod_cycle(ps)

    def _queued_members(self, group: GroupState) -> list[PodState]:
        return self.world.queued_members(group)

    def evaluator_for(self, ps: PodState):
        return self.evaluators.get(ps.pod.scheduler_name)

    # ---- per-pod cycle -----------------------------------------------------------------------------------------
    def pod_cycle(self, ps: PodState) -> None:
        ev = self.evaluator_for(ps)
        if ev is None:
            ps.status, ps.reason = _UNSCHEDULABLE, ""
            ps.message = f"no kube-scheduler profile is named {ps.pod.scheduler_name!r}; the pod waits for another scheduler"
            return
        self.nominator.forget(ps.key)  # its own nomination is not counted; a new preemption sets it again
        decision = ev.find_node(ps.pod)
        self.rejectors[ps.key] = decision.diagnosis
        if decision.node is None and decision.error is None:
            decision, message = self.post_filters.post_filter(ps, ev, decision)
        else:
            message = decision.message
        if decision is None or decision.node is None:
            failed = decision is not None and decision.error
            self.fail(ps, message, Reason.SCHEDULER_ERROR if failed else Reason.UNSCHEDULABLE)
            self.queue.failed((QueueKind.POD, ps.key), error=bool(failed))
            if ps.key in self.nominator.entries:  # it preempted: its victims' deletion requeued it, into the backoffQ
                self.queue.back_off((QueueKind.POD, ps.key), ps.priority, ps.ts)
            else:
                self.queue.park((QueueKind.POD, ps.key), ps.priority, ps.ts)
            return
        mark = self.state.mark()
        self.state.reserve(ps.pod, decision.node)
        refused = self._pre_bind(ps.pod)
        if refused is not None:  # PreBind failed: Unreserve, and the pod goes back to the queue
            self.state.rollback(mark)
            self.fail(ps, refused, Reason.SCHEDULER_ERROR)
            self.queue.failed((QueueKind.POD, ps.key), error=True)
            self.queue.park((QueueKind.POD, ps.key), ps.priority, ps.ts)
            return
        self.bind(ps, decision.node)
        self.state.commit()
        self.pods_bound()

    def bind(self, ps: PodState, row: int) -> None:
        ps.status, ps.node = SimStatus.BOUND, self.state.nodes[row].name
        ps.reason, ps.message = Reason.SCHEDULED, f"Successfully assigned {ps.key} to {ps.node}"

    def fail(self, ps: PodState, message: str, reason: Reason = Reason.UNSCHEDULABLE) -> None:
        ps.status, ps.reason, ps.message = _UNSCHEDULABLE, reason, message
        ps.ts = self.tick()
        if ps.pod.resource_claims and self.dra is not None:
            self.dra.note_failure(ps.pod, message)

    # ---- PodGroup cycle ----------------------------------------------------------------------------------------
    def group_cycle(self, group: GroupState, members: list[PodState]) -> None:
        if not members:
            return
        members.sort(key=lambda m: (-m.priority, m.initial_ts))
        if self.options.caps.hierarchy_validation and self._invalid_hierarchy(group, members):
            return
        problem = groupcycle.scheduler_name_problem([m.pod.scheduler_name for m in members], self.evaluators)
        if problem is None and self.options.caps.group_priority and any(m.priority != group.priority for m in members):
            odd = next(m for m in members if m.priority != group.priority)
            problem = PRIORITY_MSG.format(odd.priority, group.priority)
        if problem is not None:  # 1.37: an error before the cycle (fwk.AsStatus): the pods read SchedulerError
            error = self.options.caps.group_validation_condition
            self.reject(group, members, problem, {}, Reason.SCHEDULER_ERROR if error else Reason.UNSCHEDULABLE)
            if error:
                self._set_condition(group, "False", Reason.SCHEDULER_ERROR, problem)
            return
        ev = self.evaluator_for(members[0])
        scheduled, bound = self._placed_members(group)
        mark, since = self.state.mark(), self.state.version
        pending: list = []  # 1.36 pod-by-pod preemption: (member, nominated row, victims)
        attempt = placement.run_group(ev, group, members, scheduled, bound, self.options,
                                      post_filter=self.post_filters.member_post_filter(group, pending),
                                      standalone=True)
        group.attempted = True
        if attempt.success and pending:
            self.post_filters.finish_member_preemption(group, members, pending, mark)
        elif attempt.success:
            group.placement = attempt.placement or group.placement
            self._accept(group, members, attempt)
            self._note_bound(group, members, attempt, since)
        else:
            self.state.rollback(mark)
            before = attempt.message
            message = attempt.message if attempt.error else \
                self.post_filters.preempt_for_group(group, members, ev, scheduled, bound, attempt.message)
            if message is not None:  # None: workload-aware preemption evicted victims, the group waits
                attempt.message = message
                self.reject(group, members, message,
                             {m.key: attempt.member_message(m.key, before) for m in members})
                self._set_condition(group, "False", Reason.SCHEDULER_ERROR if attempt.error else Reason.UNSCHEDULABLE,
                                    message)

    def _invalid_hierarchy(self, group: GroupState, members: list[PodState]) -> bool:
        """1.38: the runtime hierarchy checks before the cycle; a failure is the group's condition (PodGroupError
        for a validation error, SchedulerError otherwise) and every member's message."""
        policy_of = self.post_filters.pod_policy_of()
        found = hierarchy.check(hierarchy.leaf_node(self.world, group, members, policy_of), self.evaluators)
        if found is None:
            return False
        self.reject(group, members, found.message, {}, Reason.SCHEDULER_ERROR)
        self._set_condition(group, "False", Reason.POD_GROUP_ERROR if found.validation else Reason.SCHEDULER_ERROR,
                            found.message)
        return True

    def _placed_members(self, group: GroupState) -> tuple[int, list[tuple[str, int]]]:
        """(live members placed, (key, row) of those on known nodes). A member is placed or unplaced only with a
        reservation or removal, which changes the state's version, so at an unchanged version only the members
        that joined since need a look (options.memo)."""
        seen, scheduled, bound, version = 0, 0, [], self.state.version
        found = self._placed_memo.get(group.key) if self.options.memo else None
        if found is not None and found[0] == version and found[2] is group:
            seen, scheduled, bound = found[1], found[3], found[4]
        if seen != len(group.members):
            new = self.world.live_of(group.members[seen:])
            scheduled += sum(1 for ps in new if ps.placed)
            bound = bound + placement.bound_rows(self.state, new)
        if self.options.memo:
            self._placed_memo[group.key] = (version, len(group.members), group, scheduled, bound)
        return scheduled, list(bound)

    def _note_bound(self, group: GroupState, members: list[PodState], attempt, since: int) -> None:
        """After a cycle whose only changes to the cluster were binding members (the state was at version
        `since` before it), the placed-members memo moves on with them instead of starting over; it is dropped
        when a newly bound member is older than one bound before (the rows are kept in creation order)."""
        found = self._placed_memo.get(group.key)
        if found is None or found[0] != since or found[2] is not group or found[1] != len(group.members):
            return
        new = sorted((ps for ps in members if ps.key in attempt.placements), key=lambda ps: ps.seq)
        bound = found[4]
        if bound and new and new[0].seq < self.world.pods[bound[-1][0]].seq:
            del self._placed_memo[group.key]
            return
        rows = [(ps.key, attempt.placements[ps.key]) for ps in new]
        self._placed_memo[group.key] = (self.state.version, found[1], group, found[3] + len(new), bound + rows)

    def _accept(self, group: GroupState, members: list[PodState], attempt: groupcycle.GroupAttempt) -> None:
        failed = []
        for ps in members:
            if ps.key in attempt.placements:
                self.bind(ps, attempt.placements[ps.key])
            else:
                failed.append(ps)
                self.fail(ps, attempt.member_message(ps.key))
        self.state.commit()
        self._set_condition(group, "True", Reason.SCHEDULED, "")
        if self._entity:
            if failed:  # partial success: retried at once with the group's old timestamp
                self.queue.push((QueueKind.GROUP, group.key), group.priority, min(m.initial_ts for m in members))
        else:  # 1.36: the members that failed go to the backoffQ (`_backs_off_always`) and retry on their own
            for ps in failed:
                self.queue.failed((QueueKind.POD, ps.key))
                self.queue.back_off((QueueKind.POD, ps.key), ps.priority, ps.ts)
        self.pods_bound()

    def reject(self, group: GroupState, members: list[PodState], message: str, failures: dict,
               reason: Reason = Reason.UNSCHEDULABLE) -> None:
        for ps in members:
            self.fail(ps, failures.get(ps.key) or message, reason)
            if not self._entity:
                self.queue.failed((QueueKind.POD, ps.key))
                self.queue.park((QueueKind.POD, ps.key), ps.priority, ps.ts)
        if self._entity:
            self.queue.failed((QueueKind.GROUP, group.key))
            self.queue.park((QueueKind.GROUP, group.key), group.priority, self.tick())

    def _set_condition(self, group: GroupState, status: str, reason: str, message: str) -> None:
        if group.condition_status == "True" and status != "True":
            return
        group.condition_status, group.condition_reason, group.message = status, reason, message

    set_condition = _set_condition  # for the CompositePodGroup cycle (compositecycle.py)

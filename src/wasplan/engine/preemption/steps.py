"""What the scheduling cycles do at PostFilter, around preemption: `PostFilters`, an object the simulator builds
for `Cycles` (cycle/cycles.py keeps only the calls, and reaches preemption only through it), holding the
preemption driver (driver.py; None with --no-preemption) and a reference back to the cycles for the queue, the
nominator and the group conditions it changes.

* DynamicResources' PostFilter runs first for every pod that failed Filter while its profile keeps the plugin
  (GA and in the default profile in 1.36 and 1.37): a pod without claims gets `no new claims to deallocate`
  in 1.36 and nothing in 1.37 (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go PostFilter;
  `post_filter_text`); a pod with claims may have
  a claim that keeps it off a node deallocated (the pod is then retried at once). The verdict is joined with
  DefaultPreemption's as upstream's RunPostFilterPlugins joins them (`no new claims to deallocate, preemption:
  ...`). `plugin_verdicts` asks it, through the plugin registry's `post_filter` (registry.py), for both the pod
  cycle and 1.36 member preemption.
* A pod's PostFilter nominates a node: the victims are evicted, the pod gets `nominatedNodeName`, enters the
  simulation's Nominator (engine/cycle/nominated.py) and waits in the backoffQ (engine/queueing/queue.py `back_off`): every pod
  already queued is attempted first, its Filter counting the nominated pod on that node when the pod's
  priority is not above the preemptor's, its Score not counting it; the retry then takes the nominated node by
  the fast path if it still fits (pkg/scheduler/schedule_one.go handleSchedulingFailure, the queue's
  AddUnschedulableIfNotPresent). Meanwhile the pod's message is the FitError with DefaultPreemption's success
  text (`preemption: found a potential placement ...`, pkg/scheduler/framework/preemption/preemption.go
  Preempt). Otherwise the FitError gets the PostFilter message appended (` preemption: ...`) with a bare space,
  so the message ends with the PostFilter text's own full stop.
* 1.36 pod-by-pod member preemption: a member that does not fit but gets a nomination is placed there with its
  victims removed in the trial; if the group would then succeed, the cycle ends "waiting for preemption": the
  victims are evicted, placed members keep their nominated node, and the group is retried. If the group fails
  anyway nothing is evicted.
* WAP: on success the victims are evicted, members (1.37) are nominated to the nodes of the all-removed run, and
  the group is retried at once (as a preempting pod is; v1.37.2 itself requeues the group without a rejector
  plugin, so it waits out its backoff before that retry); on failure its message is appended to the group's
  status as a further reason (`, `), and members that fitted carry it too.
"""

from __future__ import annotations

import copy

from wasplan.engine.cycle import placement
from wasplan.engine.cycle.nominated import Nomination
from wasplan.engine.profile import registry
from wasplan.engine.plugins.dynamic_resources import NAME
from wasplan.engine.preemption import policy
from wasplan.engine.preemption.driver import member_refusal, members_post_filter
from wasplan.engine.preemption.workload import NO_VICTIMS_GROUP
from wasplan.engine.queueing.queue import QueueKind
from wasplan.plan import Reason

WAITING_MSG = "pod group is waiting for preemption to complete"
GROUP_CLAIMS_DONE = "deallocation and deletion of ResourceClaims completed"  # DynamicResources PodGroupPostFilter


def with_post_filter(message: str, post_filter_msg: str) -> str:
    """FitError.Error() (staging/src/k8s.io/kube-scheduler/framework, 1.34 and later): the PostFilter message is
    appended with a bare " %v", unlike the reasons' " %v.", so the message ends with whatever full stop the
    PostFilter text carries (DefaultPreemption's inner FitError has one; `no new claims to deallocate` has none)."""
    return f"{message} {post_filter_msg}" if post_filter_msg else message


def joined(*messages: str | None) -> str:
    """RunPostFilterPlugins joins the rejecting plugins' reasons with ", "."""
    return ", ".join(m for m in messages if m)


def preempting_msg(node: str, victims: int) -> str:
    """DefaultPreemption's PostFilter text when it preempted (preemption.go Preempt, default_preemption.go
    PostFilter's prefix); RunPostFilterPlugins returns a success at once, without earlier plugins' reasons."""
    return f"preemption: found a potential placement for pod on node {node}, preempting {victims} victims"


def fit_error(decision) -> bool:
    """PostFilter runs only after a FitError; a cluster without nodes ends the cycle before any filter
    (schedule_one.go ErrNoNodesAvailable)."""
    return bool(decision.diagnosis.in_snapshot.size)


class PostFilters:
    """The PostFilter steps of one simulation's cycles: `post_filter` (a pod), `member_post_filter` and
    `finish_member_preemption` (1.36 members), `preempt_for_group` (workload-aware preemption)."""

    def __init__(self, cycles, preemption):
        """`cycles`: the simulation's Cycles; `preemption`: its driver.Preemption, or None (--no-preemption)."""
        self.cycles, self.preemption = cycles, preemption
        self.state, self.options, self.nominator = cycles.state, cycles.options, cycles.nominator
        self._preemption_retries: frozenset = frozenset()  # groups being retried right after their preemption

    def _nominate(self, ps, row: int) -> None:
        ps.nominated = self.state.nodes[row].name
        if ps.pod.nominated_node_name != ps.nominated:
            ps.pod = copy.copy(ps.pod)
            ps.pod.nominated_node_name = ps.nominated

    def post_filter(self, ps, ev, decision):
        """DynamicResources' PostFilter, then DefaultPreemption's; a deallocated claim retries the pod at once
        (upstream: the claim update requeues it)."""
        if not fit_error(decision):
            return None, decision.message
        earlier, retry = self.plugin_verdicts(ps, ev)
        if retry:
            retried = ev.find_node(ps.pod)
            if retried.node is not None or retried.error is not None:
                return retried, retried.message
            decision, (earlier, _) = retried, self.plugin_verdicts(ps, ev)
        return self.preempt_for_pod(ps, ev, decision, earlier)

    def plugin_verdicts(self, ps, ev, deallocate: bool = True) -> tuple[str | None, bool]:
        """What the registry's PostFilter plugins (DynamicResources') say for a pod that failed Filter, before
        DefaultPreemption's, joined as RunPostFilterPlugins joins them; and whether one changed the cluster so
        the pod is retried at once (a deallocated claim). A plugin its profile disables says nothing. Without
        `deallocate` (trial placements of 1.36 member preemption, which roll back) a plugin changes nothing."""
        texts, retry = [], False
        for p in registry.POST_FILTERS:
            if ev.profile.filter_on(p.name):
                text, again = p.post_filter(self.state.plugins.get(p.name), ps.pod, self.options.caps, deallocate)
                texts.append(text)
                retry = retry or again
        return (joined(*texts) if any(t is not None for t in texts) else None), retry

    def preempt_for_pod(self, ps, ev, decision, earlier: str | None = None):
        """Runs DefaultPreemption's PostFilter; returns the retried decision when a preemption happened, else the
        FitError text. `earlier`: what a PostFilter before it said (DynamicResources'), joined with ", " as
        RunPostFilterPlugins joins the plugins' reasons."""
        if self.preemption is None:
            return None, with_post_filter(decision.message, earlier or "")
        with self.nominator.counted(ps.pod, self.state, self.preemption.default.load_floor(ps)) as load:
            outcome = self.preemption.for_pod(ps, ev, decision, load, self.nominator.placed_rows)
        if outcome.node is None:
            return None, with_post_filter(decision.message, joined(earlier, outcome.message))
        self.preemption.ledger.evict("Pod", ps.pod.namespace, ps.pod.name, outcome.victims,
                                     alternatives=outcome.alternatives, tied=outcome.tied)
        self._nominate(ps, outcome.node)
        self.nominator.nominate(ps.key, Nomination(ps.pod, ps.priority, outcome.node, self.preemption.prio(ps)))
        self.cycles.cluster_changed()
        return None, with_post_filter(decision.message, preempting_msg(ps.nominated, len(outcome.victims)))

    def member_post_filter(self, group, pending: list):
        """1.36 pod-by-pod preemption inside a group cycle, as groupcycle's post_filter hook; with --no-preemption
        the members still run DynamicResources' PostFilter. Where DefaultPreemption leaves the members to
        workload-aware preemption (or refuses a constrained group) its PostFilter still runs and says so."""
        if self.options.caps.group_entity_cycle:
            return None  # 1.37 disables the per-pod PostFilter inside a group cycle
        if not members_post_filter(group, self.options):
            return self._member_refusal(member_refusal(group, self.options))

        def post_filter(ps, ev, decision):
            if not fit_error(decision):
                return None, decision.message
            earlier, _ = self.plugin_verdicts(ps, ev, deallocate=False)
            if self.preemption is None:
                return None, with_post_filter(decision.message, earlier or "")
            outcome = self.preemption.for_pod(ps, ev, decision)
            if outcome.node is None:
                return None, with_post_filter(decision.message, joined(earlier, outcome.message))
            for victim in outcome.victims:
                self.state.remove(victim.pod)
            pending.append((ps, outcome.node, outcome.victims, outcome))
            return outcome.node, ""
        return post_filter

    def _member_refusal(self, refusal: str):
        def post_filter(ps, ev, decision):
            if not fit_error(decision):
                return None, decision.message
            verdict = refusal if self.preemption is not None else None
            earlier, _ = self.plugin_verdicts(ps, ev, deallocate=False)
            return None, with_post_filter(decision.message, joined(earlier, verdict))
        return post_filter

    def finish_member_preemption(self, group, members, pending: list, mark: int) -> None:
        """The group would succeed but members need victims gone: evict them and wait (waitingOnPreemption)."""
        self.state.rollback(mark)
        for ps, row, victims, outcome in pending:
            alive = [v for v in victims if v.key in self.state.placed]
            self.preemption.ledger.evict("Pod", ps.pod.namespace, ps.pod.name, alive,
                                         alternatives=outcome.alternatives, tied=outcome.tied)
            self._nominate(ps, row)
        self._wait_for_preemption(group, members)

    def tree_verdict(self, priority: int, preemption_policy: str) -> str | None:
        """What DefaultPreemption's PodGroupPostFilter says for a failed CompositePodGroup tree where no search
        is needed (v1.38.0-beta.0 framework/preemption/manager.go GenerateVictims, podgrouppreemption.go Preempt):
        a root whose policy is Never is not eligible; with no placed pod below the root's priority there is no
        victim. None otherwise: the search would run, and wasplan does not preempt for trees (driver.py)."""
        if self.preemption is None or not policy.wap_on(self.options):
            return None
        if preemption_policy == policy.NEVER:
            return policy.NOT_ELIGIBLE_NEVER
        if not any(self.preemption.wap_prio_of_key(key) < priority for key in self.state.placed):
            return NO_VICTIMS_GROUP
        return None

    def pod_policy_of(self):
        """A function giving a pod's preemption policy as admitted: what 1.38's hierarchy checks compare."""
        world = self.cycles.world
        return lambda ps: policy.pod_policy(ps, world)

    def preempt_for_group(self, group, members, ev, scheduled: int, bound: list, message: str) -> str | None:
        """WAP after a plain Unschedulable cycle; returns None when victims were evicted, else the message: the
        group's status with the PodGroupPostFilter's reason appended (`AppendReason`, so joined with ", ")."""
        dra_msg = self.group_dra_verdict(group, members, ev)
        if self.preemption is None:
            return joined(message, dra_msg)
        result = self.preemption.for_group(group, members, ev, scheduled, bound)
        if not result.success:
            wap_msg = f"{self.options.caps.group_preemption_prefix}{result.message}" if result.message else None
            return joined(message, dra_msg, wap_msg)
        self.preemption.ledger.evict("PodGroup", group.record.namespace, group.record.name, result.victims,
                                     result.nodes if result.removed else None, self.preemption.wap_prio)
        group.alternatives, group.tied = result.alternatives, result.tied
        if self.options.caps.group_entity_cycle:
            for ps in members:
                if ps.key in result.placements:
                    self._nominate(ps, result.placements[ps.key])
        self._wait_for_preemption(group, members)
        return None

    def group_dra_verdict(self, group, members, ev) -> str | None:
        """DynamicResources' PodGroupPostFilter, which v1.37.2 runs before DefaultPreemption's (1.36 has only
        workload-aware preemption there): it passes over a group with scheduling constraints under the TAS gate
        (a bare Unschedulable, no reason) and otherwise, for a group none of whose pods has a claim to
        deallocate, says it has finished. Groups with claims of their own or on their pods are not modelled
        (None: nothing is said)."""
        if not self.options.caps.group_entity_cycle or not ev.profile.filter_on(NAME):
            return None
        if placement.tas_on(self.options) and placement.topology_key(group.pg) is not None:
            return None
        if group.pg.resource_claims or any(ps.pod.resource_claims for ps in members):
            return None
        return GROUP_CLAIMS_DONE

    def _wait_for_preemption(self, group, members) -> None:
        """The cycle ends "waiting for preemption"; the group is then retried at once, so the nodes freed for it
        are not taken by an equal-priority item first (upstream keeps them through the members' nominations).
        A retry that preempts again goes back to the queue instead of nesting."""
        cycles = self.cycles
        cycles.reject(group, members, WAITING_MSG, {})
        cycles.set_condition(group, "False", Reason.UNSCHEDULABLE, WAITING_MSG)
        cycles.cluster_changed()
        if group.key in self._preemption_retries:
            return
        self._preemption_retries = self._preemption_retries | {group.key}
        try:
            retry = cycles.world.queued_members(group)
            cycles.queue.discard((QueueKind.GROUP, group.key))
            for ps in retry:
                cycles.queue.discard((QueueKind.POD, ps.key))
            cycles.group_cycle(group, retry)
        finally:
            self._preemption_retries = self._preemption_retries - {group.key}

"""The one object the scheduling cycles talk to about preemption, and the shared context the algorithms read.

Which preemption runs where (engine-semantics §1.6, §1.7, §1.11, §1.12, §2):

* a pod without a group (or with PodGroup cycles off): DefaultPreemption after its FitError;
* 1.36 group members: pod by pod inside the group cycle when WorkloadAwarePreemption is off; with the gate on,
  DefaultPreemption leaves members to WAP (KEP-5710), which runs once after a plain Unschedulable cycle;
* 1.37: per-pod PostFilter is disabled inside group cycles; WAP runs as the root's PodGroupPostFilter;
* 1.36 groups with a topology constraint (TAS gate on) get no preemption at all (placement.preemption_refusal);
  in 1.37 WAP re-runs their placement search; CompositePodGroup trees (compositecycle.py) are not preempted
  for (v1.37.2 preempts for a composite root too: not modelled).

`--no-preemption` (EngineOptions.preemption False) switches all of it off.
"""

from __future__ import annotations

from wasplan.engine.cycle import placement
from wasplan.engine.preemption import policy
from wasplan.engine.preemption.default import DefaultPreemption, Outcome
from wasplan.engine.preemption.ledger import Ledger
from wasplan.engine.preemption.lower import LowerSums
from wasplan.engine.preemption.pdb import PdbTracker
from wasplan.engine.preemption.workload import WapResult, preempt as wap_preempt


MEMBER_TOPOLOGY_MSG = "preemption: not eligible due to placement-based pod group scheduling limitation"
MEMBER_WAP_MSG = "preemption: not eligible due to workload aware preemption enabled"


def members_post_filter(group, options) -> bool:
    """Whether each member of a 1.36 group cycle runs the ordinary PostFilter plugins (DefaultPreemption pod by
    pod, DynamicResources): WAP off, no topology placement."""
    return not options.caps.group_entity_cycle and member_refusal(group, options) is None


def member_refusal(group, options) -> str | None:
    """What 1.36 DefaultPreemption's PostFilter tells a group member instead of preempting for it (v1.36.5
    default_preemption.go PostFilter, checked in this order): a group with scheduling constraints under the TAS
    gate, then any group member while WorkloadAwarePreemption is on; None when it preempts pod by pod."""
    if placement.tas_on(options) and getattr(group.pg, "topology_keys", ()):
        return MEMBER_TOPOLOGY_MSG
    if policy.wap_on(options):
        return MEMBER_WAP_MSG
    return None


class Preemption:
    def __init__(self, state, world, options):
        self.state, self.world, self.options = state, world, options
        self.pdbs = PdbTracker(options.caps.pdb_empty_selector_matches_all)
        self._prio_cache: dict[str, int] = {}
        self._wap_prio_cache: dict[str, int] = {}
        self._unit_cache: dict[str, str] = {}  # pod key -> its victim-unit key (a whole group's, or its own)
        self._start_cache: dict[str, int] = {}
        self.lower = LowerSums(state, self.prio_of_key)
        self.ledger = Ledger(state, world, self.pdbs, self.prio)
        self.default = DefaultPreemption(self)
        self.whole_groups = options.caps.whole_group_victims  # DefaultPreemption honours disruptionMode all
        self._scans: dict[tuple[str, str], tuple] = {}  # (scan, group key) -> (state version, group, answer)

    # ---- priorities and units ------------------------------------------------------------------------------
    def prio(self, ps) -> int:
        return self.prio_of_key(ps.key)

    def prio_of_key(self, key: str) -> int:
        """A victim's priority for DefaultPreemption."""
        found = self._prio_cache.get(key)
        if found is None:
            found = self._prio_cache[key] = policy.effective_priority(self.world.pods[key], self.world, self.options)
        return found

    def wap_prio(self, ps) -> int:
        return self.wap_prio_of_key(ps.key)

    def wap_prio_of_key(self, key: str) -> int:
        """A victim's priority for workload-aware preemption."""
        found = self._wap_prio_cache.get(key)
        if found is None:
            ps = self.world.pods[key]
            found = self._wap_prio_cache[key] = policy.effective_priority(ps, self.world, self.options, for_wap=True)
        return found

    def start(self, ps) -> int:
        """policy.start_key, once per pod (it may parse a timestamp, and every preemption sorts by it)."""
        found = self._start_cache.get(ps.key)
        if found is None:
            found = self._start_cache[ps.key] = policy.start_key(ps)
        return found

    def terminating_on_nominated(self, ps, threshold: int, wap: bool = False) -> bool:
        """PodEligibleToPreemptOthers: a lower-priority pod (by effective priority) is already terminating on the
        pod's nominated node, so the pod waits for it instead of preempting again."""
        row = self.state.index.get(ps.pod.nominated_node_name or "")
        if row is None:
            return False
        prio = self.wap_prio_of_key if wap else self.prio_of_key
        return any(p.terminating and prio(k) < threshold for k, p in self.state.pods_on[row].items())

    def lower_pods(self, row: int, threshold: int) -> list:
        pods = self.world.pods
        return [pods[k] for k in self.state.pods_on[row] if self.prio_of_key(k) < threshold]

    def _whole(self, ps):
        group = self.world.group_of(ps)
        return group if policy.disrupts_whole_group(group) else None

    def unit_key(self, key: str) -> str:
        """The key of the victim unit a placed pod belongs to: its group's for disruptionMode all, else its own."""
        found = self._unit_cache.get(key)
        if found is None:
            whole = self._whole(self.world.pods[key])
            found = self._unit_cache[key] = "group:" + whole.key if whole else key
        return found

    def ordered_units(self, lower: list) -> list[tuple[list, int]]:
        """Per-node victim units in reprieve order: importance order, PDB-violating units first. 1.37 ranks them
        with v1.37.2 preemption.MoreImportantVictim, which DefaultPreemption uses too: higher priority, then a
        PodGroup's pods (a whole group, or one member in single mode) before a pod without a group, then the
        larger unit, then the earlier start; 1.36 with MoreImportantPod as sort.Slice applies it to the node's
        pods in NodeInfo order (policy.reprieve_order_136)."""
        if not self.whole_groups:
            pods = policy.reprieve_order_136(lower, lambda p: (self.prio(p), self.start(p)))
            return self._violating_first([[p] for p in pods])
        pods = sorted(lower, key=lambda p: (-self.prio(p), self.start(p)))
        units = _group_units(pods, lambda p: self.unit_key(p.key))
        units.sort(key=self._importance)
        return self._violating_first(units)

    def _importance(self, unit: list) -> tuple:
        """MoreImportantVictim's key for a node's part of a victim unit: a disruptionMode-all group counts with
        all its placed pods (size and earliest start), wherever they run, as upstream's DomainVictim does."""
        whole = self._whole(unit[0])
        pods = [self.world.pods[k] for k in whole.members if k in self.state.placed] if whole else unit
        return (-self.prio(unit[0]), -self.type_rank(unit), -len(pods), min(self.start(p) for p in pods))

    def _violating_first(self, units: list[list]) -> list[tuple[list, int]]:
        """Each unit with how many of its pods break a budget (FilterVictimsWithPDBViolation's ViolateCount:
        a unit is violating when any pod is, and counts its violating pods; SelectVictimsOnNode and RankNodes'
        CompareVictimSets add those counts up), violating units first."""
        flat = [ps.pod for unit in units for ps in unit]
        flags = iter(self.pdbs.violating(flat, (p.pod for p in self.state.placed.values())))
        marked = [(unit, sum(1 for _ in unit if next(flags))) for unit in units]
        return [u for u in marked if u[1]] + [u for u in marked if not u[1]]

    def expand(self, victims: list) -> list:
        """1.37: a victim in a disruptionMode-all group takes every placed member of its group along."""
        if not self.whole_groups:
            return list(victims)
        out, seen = [], set()
        for ps in victims:
            group = self._whole(ps)
            more = [self.world.pods[k] for k in group.members if k in self.state.placed] if group else [ps]
            for m in more:
                if m.key not in seen:
                    seen.add(m.key)
                    out.append(m)
        return out

    def scan(self, name: str, group, compute, keep=None):
        """`compute()`, a scan of the placed pods on behalf of `group`, kept for as long as the state's version is
        unchanged (options.memo): placed pods change only with the version, and a member that joins the group
        meanwhile is not placed, so it changes no such answer. A pending group re-runs its cycle at every
        arrival; this spares it the scan over every running pod each time."""
        key, version = (name, group.key), self.state.version
        found = self._scans.get(key)
        if found is not None and found[0] == version and found[1] is group:
            return found[2]
        answer = compute()
        if self.options.memo and (keep is None or keep(answer)):
            self._scans[key] = (version, group, answer)
        return answer

    def wap_units(self, group) -> list[tuple[list, int]]:
        """Every placed pod below the group's priority, in WAP units and reprieve order. 1.37 ranks a unit of
        PodGroup members (whole group or, in single mode, one member) above a pod without a group
        (podgroup preemption evaluator test "Priority: mix of no groups and pod groups"). An empty answer is
        memoised (`scan`); a non-empty one depends on the PodDisruptionBudgets too and is built each time."""
        return self.scan("units", group, lambda: self._wap_units(group), keep=lambda units: not units)

    def _wap_units(self, group) -> list[tuple[list, int]]:
        own = set(group.members)
        threshold = group.priority
        units: dict[str, list] = {}
        pods, known, unit_of = self.world.pods, self._wap_prio_cache, self._unit_cache
        for key in self.state.placed:  # every placed pod, per preemption: the cached lookups are inlined
            prio = known.get(key)
            if (prio if prio is not None else self.wap_prio_of_key(key)) >= threshold or key in own:
                continue
            unit = unit_of.get(key)
            units.setdefault(unit if unit is not None else self.unit_key(key), []).append(pods[key])
        ordered = sorted(units.items(), key=lambda kv: (*self.wap_importance(kv[1]), kv[0]))
        return self._violating_first([sorted(u, key=lambda p: p.key) if len(u) > 1 else u for _, u in ordered])

    def wap_importance(self, unit: list) -> tuple:
        """MoreImportantVictim's order for a workload-aware preemption victim unit (most important first):
        priority, then its type (type_rank), then size, then the earliest start."""
        start = min(self.start(p) for p in unit) if len(unit) > 1 else self.start(unit[0])
        return -self.wap_prio(unit[0]), -self.type_rank(unit), -len(unit), start

    def type_rank(self, unit: list) -> int:
        """The victim's type in MoreImportantVictim (victimRank): 1.37 ranks every PodGroup member's unit (a whole
        group, or one member in single mode) above a pod without a group; 1.38 (#142955) ranks only a whole
        group (disruptionMode all) so, a single-mode member being a Pod victim. 1.36 has no type."""
        if not self.options.caps.whole_group_victims:
            return 0
        if self.options.caps.single_members_are_pod_victims:
            return 2 if self._whole(unit[0]) else 1
        return 2 if unit[0].pod.pod_group else 1

    # ---- entry points for the cycles -----------------------------------------------------------------------
    def for_pod(self, ps, ev, decision, load=None, placed=None) -> Outcome:
        """DefaultPreemption's dry run for a pod that found no node; does not change the cluster. `load`: the
        nominated pods that count for it, by their requests (nominated.NominatedLoad), when not placed; `placed`:
        those placed on their rows (row -> pods), when they are."""
        return self.default.post_filter(ps, ev, decision.diagnosis, load, placed or {})

    def for_group(self, group, members, ev, scheduled: int, bound: list) -> WapResult:
        """WAP for a group whose cycle ended plain Unschedulable; does not change the cluster. 1.36 refuses a
        group with a topology placement (placement.preemption_refusal) before looking at the cluster.
        `bound`: (key, row) of the group's members already on nodes (the placement search needs them)."""
        if not policy.wap_on(self.options):
            return WapResult(message="")
        refusal = placement.preemption_refusal(group, self.options)
        if refusal is not None:
            return WapResult(message=refusal)
        return wap_preempt(self, ev, group, members, scheduled, bound)


def _group_units(pods: list, key) -> list[list]:
    units: dict = {}
    for ps in pods:
        units.setdefault(key(ps), []).append(ps)
    return list(units.values())

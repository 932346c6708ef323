"""Flavor assignment: for each PodSet and resource group, the first flavor (in the ClusterQueue's order) that the
pods tolerate and select and whose quota fits, following the flavor fungibility policy.

Upstream: KDIR/pkg/scheduler/flavorassigner/flavorassigner.go (`assignFlavors`, `findFlavorForPodSets`,
`checkFlavorForPodSets`, `fitsResourceQuota`, `shouldTryNextFlavor`, `isPreferred`, `Assignment.Message`,
`PodSetAssignment.RepresentativeMode`). Modes are NoFit < Preempt < Fit; the granular mode also tells "preemption
possible but no candidates", "preempt" and "reclaim" apart and carries the borrowing height (0 = no borrowing).
A workload that was tried before resumes with the flavor after the one it last tried
(`LastAssignment.NextFlavorToTryForPodSetResource`).

Kueue walks a group's resources in Go map order and stops at the first one that fits no flavor; the reasons it
collected so far make the message (the pitfall "a message listing several failing resources of one flavor follows
Go map order"). Here the resources are walked in name order, so such a message may list a different subset.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .model import FR, Workload, quantity_string
from .quota import Node, cq_available, lowest_subtree_that_fits, potential_available

NO_FIT, PREEMPT, FIT = 0, 1, 2
# granular preemption modes (flavorassigner.go preemptionMode)
G_NOFIT, G_NO_CANDIDATES, G_PREEMPT, G_RECLAIM, G_FIT = 0, 1, 2, 3, 4
_TO_MODE = {G_NOFIT: NO_FIT, G_NO_CANDIDATES: PREEMPT, G_PREEMPT: PREEMPT, G_RECLAIM: PREEMPT, G_FIT: FIT}
_WORST = (G_NOFIT, 1 << 30)


@dataclass(slots=True)
class FlavorChoice:
    flavor: str
    mode: int
    borrow: int = 0
    tried: int = -1


@dataclass(slots=True)
class PodSetAssignment:
    name: str
    count: int
    requests: dict[str, int]  # the PodSet's total requests (pods included when the ClusterQueue covers pods)
    flavors: dict[str, FlavorChoice] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    error: str | None = None
    topology: tuple[list[str], list[tuple[tuple[str, ...], int]]] | None = None  # TAS: levels, domains

    def mode(self) -> int:
        if self.error is not None:
            return NO_FIT
        if not self.reasons:
            return FIT
        if not self.flavors:
            return NO_FIT
        return min(c.mode for c in self.flavors.values())


@dataclass(slots=True)
class Assignment:
    pod_sets: list[PodSetAssignment] = field(default_factory=list)
    borrowing: int = 0
    usage: dict[FR, int] = field(default_factory=dict)
    last_tried: list[dict[str, int]] = field(default_factory=list)
    forced: int | None = None  # the representative mode TAS settled on

    def mode(self) -> int:
        if not self.pod_sets:
            return NO_FIT
        if self.forced is not None:
            return self.forced
        return min(ps.mode() for ps in self.pod_sets)

    def message(self) -> str:
        parts = []
        for ps in self.pod_sets:
            if ps.error is not None:
                return f"failed to assign flavors to pod set {ps.name}: {ps.error}"
            if not ps.reasons:
                continue
            parts.append(f"couldn't assign flavors to pod set {ps.name}: {', '.join(sorted(ps.reasons))}")
        return "; ".join(parts)

    def needs_preemption(self) -> set[FR]:
        return {(c.flavor, res) for ps in self.pod_sets for res, c in ps.flavors.items() if c.mode == PREEMPT}

    def pending_flavors(self) -> bool:
        return any(idx != -1 for tried in self.last_tried for idx in tried.values())


def _preferred(a: tuple[int, int], b: tuple[int, int], preference: str | None) -> bool:
    """isPreferred: is granular mode a (preemption mode, borrowing height) better than b."""
    if a[0] == G_NOFIT:
        return False
    if b[0] == G_NOFIT:
        return True
    if preference == "PreemptionOverBorrowing":
        if a[1] != b[1]:
            return a[1] < b[1]
        return a[0] > b[0]
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1]


def _try_next(mode: tuple[int, int], when_borrow: str, when_preempt: str) -> bool:
    if mode[0] in (G_NOFIT, G_NO_CANDIDATES):
        return True
    if mode[0] in (G_PREEMPT, G_RECLAIM) and when_preempt == "TryNextFlavor":
        return True
    return mode[1] != 0 and when_borrow == "TryNextFlavor"


def tolerated(taint: dict, tolerations: list) -> bool:
    for t in tolerations:
        if not isinstance(t, dict):
            continue
        if t.get("effect") and t.get("effect") != taint.get("effect"):
            continue
        op = t.get("operator") or "Equal"
        if not t.get("key") and op == "Exists":
            return True
        if t.get("key") != taint.get("key"):
            continue
        if op == "Exists" or t.get("value", "") == taint.get("value", ""):
            return True
    return False


def _selector_matches(spec: dict, keys: frozenset[str], labels: dict[str, str]) -> bool:
    """flavorSelector: the pod's nodeSelector and required node affinity, limited to the group's label keys."""
    for k, v in (spec.get("nodeSelector") or {}).items():
        if k in keys and labels.get(k) != v:
            return False
    required = (((spec.get("affinity") or {}).get("nodeAffinity") or {})
                .get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = []
    for term in required.get("nodeSelectorTerms") or ():
        exprs = [e for e in (term or {}).get("matchExpressions") or () if e.get("key") in keys]
        if not exprs:
            return True  # an emptied term matches every flavor
        terms.append(exprs)
    if not terms:
        return True
    return any(all(match_expression(e, labels) for e in exprs) for exprs in terms)


def match_expression(e: dict, labels: dict[str, str]) -> bool:
    key, op, values = e.get("key"), e.get("operator"), e.get("values") or []
    present = key in labels
    if op == "In":
        return present and labels[key] in values
    if op == "NotIn":
        return not present or labels[key] not in values
    if op == "Exists":
        return present
    if op == "DoesNotExist":
        return not present
    if op in ("Gt", "Lt") and present and values:
        try:
            a, b = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return a > b if op == "Gt" else a < b
    return False


class FlavorAssigner:
    """One workload against one ClusterQueue; `simulate` is the preemption oracle (fr, quantity) -> (mode, borrow)."""

    def __init__(self, run, wl: Workload, cq: Node) -> None:
        self.run = run
        self.wl = wl
        self.cq = cq
        self.spec = cq.cq

    def assign(self, counts: list[int] | None = None) -> Assignment:
        a = Assignment()
        pods_covered = self.spec and any("pods" in rg.covered for rg in self.spec.resource_groups)
        for i, ps in enumerate(self.wl.pod_sets):
            count = ps.count if counts is None else counts[i]
            total = {r: v * count for r, v in ps.requests.items()}
            if pods_covered:
                total["pods"] = count
            psa = PodSetAssignment(ps.name, count, total)
            failed = self._assign_pod_set(i, ps, psa, a)
            a.pod_sets.append(psa)
            tried = {}
            for res, choice in psa.flavors.items():
                a.borrowing = max(a.borrowing, choice.borrow)
                fr = (choice.flavor, res)
                a.usage[fr] = a.usage.get(fr, 0) + total.get(res, 0)
                tried[res] = choice.tried
            a.last_tried.append(tried)
            if failed:
                return a
        if self.run.tas and a.mode() != NO_FIT:
            self._topology(a)
        return a

    # -- topology-aware scheduling (flavorassigner.go assignFlavors, tas_flavorassigner.go) --------------------
    def _tas_requested(self, ps) -> bool:
        return ps.topology is not None or ps.tas_unsupported is not None or self.run.tas_only(self.cq.name)

    def _topology(self, a: Assignment) -> None:
        # Kueue caches the representative mode before the TAS step; a PodSet error found now changes the message,
        # not that mode (flavorassigner.go: RepresentativeMode, representativeMode)
        a.forced = a.mode()
        reqs = []
        for ps, psa in zip(self.wl.pod_sets, a.pod_sets):
            if not self._tas_requested(ps):
                continue
            flavors = sorted({c.flavor for c in psa.flavors.values() if c.flavor in self.run.tas})
            if not flavors:
                psa.error = "no TAS flavor assigned"
            elif len(flavors) > 1:
                psa.error = f"more than one TAS flavor assigned: {', '.join(flavors)}"
            else:
                reqs.append((ps, psa, flavors[0]))
        if not reqs:
            return
        if a.mode() == FIT:
            failed = self._place(reqs, simulate_empty=False)
            if failed is not None:
                psa, reason = failed
                psa.reasons.append(reason)
                for c in psa.flavors.values():
                    c.mode = PREEMPT
                a.forced = PREEMPT
        if a.mode() == PREEMPT:
            failed = self._place(reqs, simulate_empty=True)
            if failed is not None:
                for c in failed[0].flavors.values():
                    c.mode = NO_FIT
                a.forced = NO_FIT
            else:
                for _, psa, _ in reqs:
                    for c in psa.flavors.values():
                        c.mode = PREEMPT
                a.forced = PREEMPT

    def _place(self, reqs, simulate_empty: bool):
        """FindTopologyAssignmentsForWorkload: each flavor's PodSets in order, later ones seeing the earlier ones'
        pods; (the PodSet assignment, the reason) of the first that does not fit, else None (and, unless the
        cluster is simulated empty, each PodSet assignment gets its domains)."""
        placed = []
        for flavor in sorted({f for _, _, f in reqs}):
            topo = self.run.tas[flavor]
            assumed: dict[str, dict[str, int]] = {}
            for ps, psa, f in reqs:
                if f != flavor:
                    continue
                kind, level = ps.topology or ("unconstrained", None)
                domains, detail = topo.find(ps.requests, psa.count, kind, level or topo.levels[-1],
                                            ps.template.get("spec") or {}, simulate_empty, assumed)
                if domains is None:
                    return psa, detail
                placed.append((psa, (detail, domains)))
                for values, count in domains:
                    leaf = values[-1] if topo.by_hostname else ",".join(values)
                    used = assumed.setdefault(leaf, {})
                    for r, v in ps.requests.items():
                        used[r] = used.get(r, 0) + v * count
                    used["pods"] = used.get("pods", 0) + count
        if not simulate_empty:
            for psa, topology in placed:
                psa.topology = topology
        return None

    def _group_of(self, res: str):
        for rg in self.spec.resource_groups:
            if res in rg.covered:
                return rg
        return None

    def _assign_pod_set(self, index: int, ps, psa: PodSetAssignment, a: Assignment) -> bool:
        """Fills psa; True when the PodSet got no flavor for some resource (the assignment stops there)."""
        for res in sorted(psa.requests):
            if psa.requests[res] == 0 and self._group_of(res) is None:
                continue
            if res in psa.flavors:
                continue
            rg = self._group_of(res)
            if rg is None:
                psa.flavors = {}
                psa.reasons = [f"resource {res} unavailable in ClusterQueue"]
                return True
            flavors, reasons, fit = self._find_flavor(index, ps, psa.requests, rg, res, a.usage)
            if not flavors:
                psa.flavors = {}
                psa.reasons = reasons
                return True
            psa.flavors.update(flavors)
            if not fit:
                psa.reasons += reasons
        return False

    def _find_flavor(self, index, ps, requests, rg, res, assumed):
        group_requests = sorted((r, v) for r, v in requests.items() if r in rg.covered)
        reasons: list[str] = []
        best: dict[str, FlavorChoice] | None = None
        best_mode = _WORST
        start = 0
        if self.wl.last_tried is not None and index < len(self.wl.last_tried):
            start = self.wl.last_tried[index].get(res, -1) + 1
        attempted = -1
        fung = self.spec.fungibility
        spec = ps.template.get("spec") or {}
        checks = self.run.flavor_checks
        for idx in range(start, len(rg.flavors)):
            attempted = idx
            fname = rg.flavors[idx]
            key = (id(ps), id(rg), fname, self.cq.name)
            problem = checks.get(key, False)
            if problem is False:  # the answer depends on static inputs only: asked once per run
                problem = checks[key] = self._check_flavor(fname, spec, rg, ps)
            if problem:
                reasons.append(problem)
                continue
            choices: dict[str, FlavorChoice] = {}
            mode = (G_FIT, 0)
            for r, request in group_requests:
                fr = (fname, r)
                gmode, borrow, why = self._fits_quota(fr, assumed.get(fr, 0), request)
                reasons += why
                candidate = (gmode, borrow)
                if _preferred(mode, candidate, fung.preference):
                    mode = candidate
                if mode[0] == G_NOFIT:
                    break
                choices[r] = FlavorChoice(fname, _TO_MODE[gmode], borrow)
            if not _try_next(mode, fung.when_can_borrow, fung.when_can_preempt):
                best, best_mode = choices, mode
                break
            if _preferred(mode, best_mode, fung.preference):
                best, best_mode = choices, mode
        for choice in (best or {}).values():
            choice.tried = -1 if attempted == len(rg.flavors) - 1 else attempted
        return best or {}, reasons, best_mode[0] == G_FIT

    def _check_flavor(self, fname: str, spec: dict, rg, ps) -> str | None:
        flavor = self.run.inputs.flavors.get(fname)
        if flavor is None:
            return f"flavor {fname} not found"
        problem = self._check_tas(ps, flavor, rg)
        if problem:
            return problem
        tolerations = list(spec.get("tolerations") or []) + list(flavor.tolerations)
        for taint in flavor.node_taints:
            if isinstance(taint, dict) and taint.get("effect") in ("NoSchedule", "NoExecute") \
                    and not tolerated(taint, tolerations):
                # Kueue formats the corev1.Taint value with %s: Go's struct notation, TimeAdded unset
                shown = f"{{{taint.get('key', '')} {taint.get('value', '')} {taint.get('effect', '')} <nil>}}"
                return f"untolerated taint {shown} in flavor {fname}"
        if not _selector_matches(spec, rg.label_keys, flavor.node_labels):
            return f"flavor {fname} doesn't match node affinity"
        return None

    def _check_tas(self, ps, flavor, rg) -> str | None:
        """checkPodSetAndFlavorMatchForTAS."""
        name = json.dumps(flavor.name)
        if self._tas_requested(ps):
            if ps.topology is None and ps.tas_unsupported is None:
                return None  # implied by a TAS-only ClusterQueue
            if not flavor.topology_name:
                if not any(r in rg.covered for r in ps.requests):
                    return None
                return f"Flavor {name} does not support TopologyAwareScheduling"
            topo = self.run.tas.get(flavor.name)
            if topo is None:
                return f"Flavor {name} information missing in TAS cache"
            if ps.topology is not None and ps.topology[1] is not None and ps.topology[1] not in topo.levels:
                return f"Flavor {name} does not contain the requested level"
            return None
        if flavor.topology_name:
            return f"Flavor {name} supports only TopologyAwareScheduling"
        return None

    def _fits_quota(self, fr: FR, assumed: int, request: int) -> tuple[int, int, list[str]]:
        cq = self.cq
        avail = cq_available(cq, fr)
        cap = potential_available(cq, fr)
        val = assumed + request
        res = fr[1]
        if val > cap:
            return G_NOFIT, 0, [f"insufficient quota for {res} in flavor {fr[0]}, previously considered podsets "
                                f"requests ({quantity_string(res, assumed)}) + current podset request "
                                f"({quantity_string(res, request)}) > maximum capacity ({quantity_string(res, cap)})"]
        borrow, may_reclaim = lowest_subtree_that_fits(cq, fr, val)
        if val <= avail:
            return G_FIT, borrow, []
        why = [f"insufficient unused quota for {res} in flavor {fr[0]}, {quantity_string(res, val - avail)} more needed"]
        p = self.spec.preemption
        # canPreemptWhileBorrowing: borrowWithinCohort, or fair sharing with reclaimWithinCohort
        while_borrowing = p.borrow_within_cohort != "Never" or (
            self.run.fair is not None and p.reclaim_within_cohort != "Never")
        if val <= cq.quota(fr).nominal or may_reclaim or while_borrowing:
            mode, borrow = self.run.simulate_preemption(self.wl, cq, fr, val, borrow)
            return mode, borrow, why
        return G_NOFIT, borrow, why

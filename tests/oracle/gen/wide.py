"""Wide cases (issue 30 point 6): several themes mixed in one case, where the single-theme cases never meet.

A wide case has groups of several kinds (gang and basic PodGroups, topology-aware ones) next to standalone pods,
running pods and groups at priorities on both sides of the arriving ones, preemptors that arrive after the groups,
and, in some cases, a group whose pods carry a priority other than the group's (upstream's validatePodGroup
refuses such a group in 1.37). In 1.37 cases with devices (DRADeviceTaintRules is GA there), a DeviceTaintRule
with effect NoSchedule or None is created between the pods: the pods before it got their devices, the ones after
it must avoid the tainted ones. Drawn from a random source of its own (`seed/release/wide`), so the single-theme
cases stay as they were.
"""

from __future__ import annotations

import random

from . import core, dra, groups
from .case import Case

WIDE_SEED_BASE = 100_000  # wide cases are labelled seed=100000+n, apart from the single-theme seeds


def _groups(w: core.World) -> None:
    """Groups of several kinds, each at a priority drawn on either side, some with members at another."""
    for g in range(w.rng.randint(1, 3)):
        name = f"w{g}"
        size = w.rng.randint(2, 4)
        gang = w.pick((size, size - 1, None))
        priority = w.pick(("low", "mid", "high", None))
        topology = w.pick((core.ZONE, None, None)) if w.nodes else None
        w.manifests.append(groups.pod_group(w, name, gang=gang, topology=topology, priority=priority))
        member_priority = w.pick(("low", "mid", "high")) if w.chance(0.2) else priority
        w.manifests.extend(groups.members(w, name, size, priority=member_priority, uniform=w.chance(0.6)))


def _standalone(w: core.World, count: int) -> None:
    for _ in range(count):
        w.manifests.append(core.pending_pod(w, selectors=w.chance(0.5), taints=True, priorities=True))


def taint_rule(w: core.World, effect: str) -> dict:
    selector = {"driver": dra.GPU}
    if w.chance(0.5) and w.nodes:
        selector["pool"] = w.pick(w.node_names)  # a node's own pool (dra.slices names pools after nodes)
    if w.chance(0.3):
        selector["device"] = f"gpu-{w.rng.randint(0, 1)}"
    return {"apiVersion": dra.API, "kind": "DeviceTaintRule", "metadata": {"name": w.new_name("dtr")},
            "spec": {"deviceSelector": selector,
                     "taint": {"key": "example.com/maintenance", "value": "planned", "effect": effect}}}


def _insert_taint_rules(w: core.World) -> None:
    """One or two DeviceTaintRules between the pods of the manifests (never first: something ran before)."""
    pods = [i for i, d in enumerate(w.manifests) if d.get("kind") == "Pod"]
    if len(pods) < 2:
        return
    for _ in range(w.rng.randint(1, 2)):
        at = w.pick(pods[1:])
        w.manifests.insert(at, taint_rule(w, w.pick(("NoSchedule", "NoSchedule", "None"))))
        pods = [i for i, d in enumerate(w.manifests) if d.get("kind") == "Pod"]


def generate_wide(n: int, release: str, arrival: str) -> Case:
    seed = WIDE_SEED_BASE + n
    rng = random.Random(f"{seed}/{release}/wide")
    w = core.World(rng, release)
    core.priority_classes(w)
    devices = release != "1.36" and w.chance(0.4)
    if devices:
        dra.classes(w)
    core.make_nodes(w, w.rng.randint(3, 8), racks=w.rng.randint(2, 3), taints=w.chance(0.3), small=w.chance(0.5))
    if devices:
        dra.slices(w)
    core.running_pods(w, w.rng.randint(1, 8), priorities=True)
    if w.chance(0.5):
        groups.running_groups(w, w.rng.randint(1, 2))
    if w.chance(0.5):
        _standalone(w, w.rng.randint(1, 3))
    _groups(w)
    if devices:
        dra.workload(w, w.rng.randint(2, 6), w.rng.randint(0, 1))
    if w.chance(0.7):  # preemptors after the groups
        groups.preempting_groups(w, 1) if w.chance(0.5) else _standalone(w, w.rng.randint(1, 3))
    _standalone(w, w.rng.randint(0, 3))
    if devices:
        _insert_taint_rules(w)
    theme = "wide-dra" if devices else "wide"
    return Case(seed, release, arrival, theme, w.cluster, w.manifests)

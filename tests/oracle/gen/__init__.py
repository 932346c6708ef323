"""A seeded generator of small scheduler-level cases for the differential tests (tests/oracle).

`generate(seed, release, arrival)` returns a `Case`: 3-12 nodes and a few to a few dozen pods around one theme,
so a divergence stays readable. The themes cover the plugins and features the engine models:

* fit: resources (extended ones too), taints and tolerations, nodeSelector, required and preferred node
  affinity (matchFields on metadata.name included), unschedulable nodes, balanced allocation (pods without
  requests included);
* affinity: required and preferred pod affinity and anti-affinity, running pods' anti-affinity (symmetry);
* spread: topology spread, hard and soft, minDomains, nodeAffinityPolicy, nodeTaintsPolicy;
* preempt: priorities, `preemptionPolicy: Never`, default preemption with PodDisruptionBudgets;
* gang: gang and basic PodGroups, below-quorum groups, topology-aware groups;
* wap: workload-aware preemption of running groups with each disruption mode;
* composite (1.37): CompositePodGroup trees with their Workload;
* dra: claims, templates, PodGroup claims, counts, CEL selectors, firstAvailable, allocationMode All,
  adminAccess, partitionable counters, device taints, network-attached devices, extended resources backed by
  a DeviceClass;
* mixed: the pod-level features together;
* wide (gen/wide.py, its own test and seeds): several themes in one case, DeviceTaintRules between pods (1.37);

and, in half of the cases of every theme, image locality (gen/images.py), and in a quarter long dotted names: cloud
node names, pending pods named past 63 characters (gen/names.py); each drawn from a random source of its own so the
rest of every case stays as it was.

The same (seed, release, arrival) always gives the same case. Names are short and ordered (n0.., p-1..), but for
the cases gen/names.py lengthens.
"""

from __future__ import annotations

import random

from . import core, dra, groups, images, names
from .case import ARRIVALS, GATES, RELEASES, Case, dump
from .wide import generate_wide

THEMES = ("fit", "affinity", "spread", "preempt", "gang", "wap", "composite", "dra", "mixed")
__all__ = ["ARRIVALS", "GATES", "RELEASES", "THEMES", "Case", "dump", "generate", "generate_wide", "themes_for"]


def themes_for(release: str) -> tuple[str, ...]:
    return THEMES if release != "1.36" else tuple(t for t in THEMES if t != "composite")


def _pods(w: core.World, count: int, **features) -> None:
    for _ in range(count):
        w.manifests.append(core.pending_pod(w, **features))


def _fit(w):
    core.make_nodes(w, w.rng.randint(3, 8), taints=True, unschedulable=True, extended=True)
    core.running_pods(w, w.rng.randint(0, 6))
    _pods(w, w.rng.randint(4, 20), extended=True, taints=True, selectors=True)


def _affinity(w):
    core.make_nodes(w, w.rng.randint(3, 8))
    core.running_pods(w, w.rng.randint(2, 8), anti_affinity=True)
    _pods(w, w.rng.randint(4, 16), affinity=True)


def _spread(w):
    core.make_nodes(w, w.rng.randint(3, 9), taints=True)
    core.running_pods(w, w.rng.randint(0, 6))
    _pods(w, w.rng.randint(4, 20), spreading=True, selectors=w.chance(0.5), taints=True)


def _preempt(w):
    core.priority_classes(w)
    count = w.rng.randint(3, 6)
    core.make_nodes(w, count, small=True)
    core.running_pods(w, w.rng.randint(2, 4) * count, priorities=True)
    if w.chance(0.6):
        core.pdbs(w)
    _pods(w, w.rng.randint(3, 10), priorities=True, selectors=w.chance(0.3))


def _gang(w):
    core.priority_classes(w)
    core.make_nodes(w, w.rng.randint(4, 12), racks=w.rng.randint(2, 3), taints=w.chance(0.3))
    core.running_pods(w, w.rng.randint(0, 6))
    groups.gangs(w, w.rng.randint(1, 4), topology=True, priorities=True)
    if w.chance(0.5):
        _pods(w, w.rng.randint(1, 4))


def _wap(w):
    core.priority_classes(w)
    core.make_nodes(w, w.rng.randint(3, 6), small=True)
    groups.running_groups(w, w.rng.randint(1, 3))
    core.running_pods(w, w.rng.randint(0, 6), priorities=True)
    groups.preempting_groups(w, w.rng.randint(1, 2))
    if w.chance(0.5):
        _pods(w, w.rng.randint(1, 3), priorities=True)


def _composite(w):
    core.make_nodes(w, w.rng.randint(4, 12), racks=w.rng.randint(2, 4))
    core.running_pods(w, w.rng.randint(0, 4))
    for i in range(w.rng.randint(1, 2)):
        groups.composite_tree(w, i)


def _dra(w):
    dra.classes(w)
    core.make_nodes(w, w.rng.randint(3, 8))
    dra.slices(w)
    dra.workload(w, w.rng.randint(3, 12), w.rng.randint(0, 2))


def _mixed(w):
    core.priority_classes(w)
    core.make_nodes(w, w.rng.randint(3, 10), taints=True, unschedulable=True, extended=True)
    core.running_pods(w, w.rng.randint(0, 10), priorities=True, anti_affinity=True)
    _pods(w, w.rng.randint(4, 24), extended=True, taints=True, selectors=True, affinity=True, spreading=True,
          priorities=True)


_BUILD = {"fit": _fit, "affinity": _affinity, "spread": _spread, "preempt": _preempt, "gang": _gang,
          "wap": _wap, "composite": _composite, "dra": _dra, "mixed": _mixed}


def generate(seed: int, release: str, arrival: str | None = None, theme: str | None = None) -> Case:
    rng = random.Random(f"{seed}/{release}")
    theme = theme or rng.choice(themes_for(release))
    arrival = arrival or rng.choice(ARRIVALS)
    world = core.World(rng, release)
    _BUILD[theme](world)
    images.decorate(world.nodes, world.manifests, random.Random(f"{seed}/{release}/images"))
    names.lengthen(world.cluster, world.manifests, random.Random(f"{seed}/{release}/names"))
    return Case(seed, release, arrival, theme, world.cluster, world.manifests)

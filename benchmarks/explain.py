"""How long `wasplan explain` takes on the 5,000-node benchmark cluster, verification re-runs included;
prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/explain.py              # every scenario
    PYTHONPATH=src python benchmarks/explain.py short-5000   # one scenario

The cluster is benchmarks/plan.py's 5,000 nodes (32 cpu, 128Gi each, three zones). Existing pods (bound in the
snapshot) leave most nodes with 4 free cores; ten nodes are empty. The target is a gang of 32 pods x 16 cores
with minCount 32: 20 fit on the empty nodes, 12 are short. Scenarios:

* short-5000      the gang as described: evidence, smaller minCount, nodes to add (bisection), evictions
* taint-5000      the same, and the empty nodes carry a taint the gang does not tolerate
* pending-5000    no TARGET: every pending group is explained (the gang plus 20 small plain pods that fit)
* zone-5000       the gang must stay within one of the three zones: per-domain trials, evidence inside the best
                  zone, nodes added to it, relaxing the key (no coarser label exists here)

Each scenario runs twice: with the default verification budget (a count of re-runs: what `wasplan explain` does)
and without one (`--verify-budget 0`). Each line gives the base plan's time, the explanation's time (evidence +
suggestions + verification), how many verification runs it made, how many the budget skipped, and their share;
CPU seconds beside wall seconds (the steadier figure on a shared machine), and the sum of the two CPU figures.
The exact check runs in every explanation, as `wasplan explain` runs it (its share is printed as `exact`). It
is also timed on its own, in CPU seconds, for the scenarios above and five more:

* missed-5000     ten empty nodes, a gang of ten 16-core pods then five 32-core pods: it fits exactly (pairs of
                  16-core pods share a node), LeastAllocated spreads the first ten over all ten nodes
* tree-5000       a CompositePodGroup needing all three of its gangs of eight 16-core pods: 20 fit on the empty
                  nodes, so two gangs at most
* varied-5000     every node carries 4-9 load pods of 2-5 cores (seeded), so free room differs from node to
                  node; a gang of two shapes (10 and 6 cores) that needs more than the cluster holds
* moves-600       600 nodes each running three 6-core pods of the gang's priority (1,800 movable pods): no node
                  has 16 free cores; moving one pod off a node makes room, so the gang of 40 needs 40 moves
* shapes4-5000    nodes with random load (cpu in 0.1 cores, memory to the MiB: nearly every node's free room is
                  its own), a gang of 6,000 pods each of 1, 2, 3 and 5 cores: many pods per node in many
                  combinations (the most per-node patterns)
* dra-5000        the cluster of short-5000 with 8 GPUs per node published through DRA (one ResourceSlice per
                  node); on all but the ten empty nodes an allocated ResourceClaim holds 6 of them; the gang's 32
                  pods each claim 4 GPUs from a ResourceClaimTemplate: 20 fit (two per empty node), the device
                  column proves 12 short
* dra-missed-5000 kubernetes/kubernetes issue 138765 on 5,000 nodes: each node publishes one partitionable GPU,
                  usable as "whole" or as two "halves" (a shared counter); on all but the ten empty nodes an
                  allocated claim holds "whole". A gang of 20 pods, each claim "whole, else half"
                  (firstAvailable): the first ten take the ten wholes and the rest find nothing; two halves per
                  node hold all 20, which the check finds (and the reordered firstAvailable list verifies)

    PYTHONPATH=src python benchmarks/explain.py exact      # only the exact check, every scenario
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan import GIB, nodes  # noqa: E402  (benchmarks/plan.py's generators)

import random  # noqa: E402
from fractions import Fraction  # noqa: E402

from wasplan.api import hub  # noqa: E402
from wasplan.cluster import devices as dra  # noqa: E402
from wasplan.cluster.model import (Group, NodeSelectorTerm, Pod, PodClaim, PlanInputs, PriorityClass,  # noqa: E402
                                   Requirement, Taint)
from wasplan.engine.profile.options import EngineOptions  # noqa: E402
from wasplan.engine.simulator import Simulator  # noqa: E402
from wasplan.explain.run import explain_units  # noqa: E402
from wasplan.explain import evidence  # noqa: E402
from wasplan.explain.evidence import Context  # noqa: E402
from wasplan.explain.exact.check import ExactOptions, check  # noqa: E402
from wasplan.explain.rerun import Budget, Verifier  # noqa: E402
from wasplan.explain.target import Unit, pending  # noqa: E402
from wasplan.pipeline.requests import DEFAULT_VERIFY_BUDGET  # noqa: E402

EMPTY = 10


def cluster(taint_empty: bool) -> list:
    out: list = [PriorityClass("low", 10), PriorityClass("high", 1000)]
    ns = nodes(5000)
    for i, node in enumerate(ns):
        if i < EMPTY and taint_empty:
            node.taints = (Taint("reserved", "infra", "NoSchedule"),)
    out.extend(ns)
    for i, node in enumerate(ns[EMPTY:]):
        for j in range(7):
            req = {"cpu": 4000, "memory": 8 * GIB}
            out.append(Pod("load", f"load-{i:05d}-{j}", dict(req), dict(req), node_name=node.name,
                           priority_class_name="low" if j == 0 else "high", phase="Running"))
    return out


def gang(size: int = 32, key: str | None = None) -> list:
    policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=size)
    pg = hub.PodGroup(metadata={"name": "big", "namespace": "train"}, policy=policy, priority_class_name="high",
                      topology_keys=(key,) if key else ())
    out: list = [Group("train", "big", pg)]
    for i in range(size):
        req = {"cpu": 16000, "memory": 32 * GIB}
        out.append(Pod("train", f"big-{i:03d}", dict(req), dict(req), pod_group="big", priority_class_name="high"))
    return out


def mixed_gang(shapes: list[tuple[int, int]]) -> list:
    """A gang of `count` pods of `cpu` millicores per (count, cpu), created in that order."""
    total = sum(n for n, _ in shapes)
    policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=total)
    pg = hub.PodGroup(metadata={"name": "big", "namespace": "train"}, policy=policy, priority_class_name="high")
    out: list = [Group("train", "big", pg)]
    for k, (n, cpu) in enumerate(shapes):
        for i in range(n):
            req = {"cpu": cpu, "memory": cpu // 1000 * 2 * GIB}
            out.append(Pod("train", f"big-{k}-{i:03d}", dict(req), dict(req), pod_group="big",
                           priority_class_name="high"))
    return out


def tree(shards: int, size: int) -> list:
    """A CompositePodGroup needing all `shards` gangs of `size` x 16-core pods (1.37, gate on by default)."""
    ref = hub.WorkloadRef(workload_name="pipeline", template_name="stage")
    gang_of = lambda **kw: hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, **kw)  # noqa: E731
    out: list = [Group("train", "stage", hub.CompositePodGroup(
        metadata={"name": "stage", "namespace": "train"}, workload_ref=ref, policy=gang_of(min_group_count=shards),
        priority_class_name="high"))]
    for k in range(shards):
        pg = hub.PodGroup(metadata={"name": f"shard-{k}", "namespace": "train"}, policy=gang_of(min_count=size),
                          workload_ref=ref, parent_composite="stage", priority_class_name="high")
        out.append(Group("train", f"shard-{k}", pg))
        for i in range(size):
            req = {"cpu": 16000, "memory": 32 * GIB}
            out.append(Pod("train", f"shard-{k}-{i:02d}", dict(req), dict(req), pod_group=f"shard-{k}",
                           priority_class_name="high"))
    return out


def loaded(count: int, loads, seed: int = 0) -> list:
    """`count` nodes, each running the high-priority pods `loads(rng)` asks for (a list of request dicts)."""
    rng = random.Random(seed)
    out: list = [PriorityClass("low", 10), PriorityClass("high", 1000)]
    ns = nodes(count)
    out.extend(ns)
    for i, node in enumerate(ns):
        for j, req in enumerate(loads(rng)):
            out.append(Pod("load", f"load-{i:05d}-{j}", dict(req), dict(req), node_name=node.name,
                           priority_class_name="high", phase="Running"))
    return out


def crowded(count: int) -> list:
    """`count` nodes, each running three 6-core pods of the gangs' priority: 14 cores free, none fits 16."""
    return loaded(count, lambda rng: [{"cpu": 6000, "memory": 12 * GIB}] * 3)


def _varied(rng) -> list[dict]:
    cpus = [rng.choice((2000, 3000, 4000, 5000)) for _ in range(rng.randint(4, 9))]
    return [{"cpu": cpu, "memory": cpu // 1000 * 3 * GIB} for cpu in cpus]


def varied_cluster() -> list:
    """Every node carries 4-9 load pods of 2-5 cores: free room differs from node to node."""
    return loaded(5000, _varied, seed=17)


def _random(rng) -> list[dict]:
    return [{"memory": rng.randrange(1, 12) * GIB + rng.randrange(1000) * 2**20, "cpu": rng.randrange(1000, 5000, 100)}
            for _ in range(rng.randint(4, 9))]


def random_cluster() -> list:
    """Every node carries 4-9 load pods of random cpu (1-5 cores in steps of 0.1) and memory (to the MiB): nearly
    every node's free room differs from every other's."""
    return loaded(5000, _random, seed=5)


GPU_CLASS = dra.DeviceClass("gpu.example.com", ('device.driver == "gpu.example.com"',))
GPUS_PER_NODE, GPUS_HELD = 8, 6


def dra_cluster() -> list:
    """short-5000's cluster with 8 GPUs per node (one ResourceSlice each); on every node but the ten empty ones a
    ResourceClaim allocated in the snapshot holds 6 of them."""
    out = cluster(False)
    out.append(GPU_CLASS)
    for i, node in enumerate(n for n in out if type(n).__name__ == "Node"):
        gpus = tuple(dra.Device(f"gpu-{k}") for k in range(GPUS_PER_NODE))
        out.append(dra.ResourceSlice(f"{node.name}-gpus", GPU_CLASS.name, node.name, 1, 1,
                                     dra.NodeSelection(node_name=node.name), devices=gpus))
        if i < EMPTY:
            continue
        out.append(_held("load", f"held-{i:05d}", node.name, tuple(f"gpu-{k}" for k in range(GPUS_HELD))))
    return out


def _held(namespace: str, name: str, node: str, devices: tuple[str, ...]) -> dra.ResourceClaim:
    """A claim the snapshot holds allocated on `node`."""
    where = (NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In", (node,)),)),)
    results = tuple(dra.DeviceResult("gpu", GPU_CLASS.name, node, d) for d in devices)
    spec = dra.ClaimSpec((dra.DeviceRequest("gpu", dra.RequestSpec("gpu", GPU_CLASS.name, count=len(devices))),))
    return dra.ResourceClaim(namespace, name, spec, dra.Allocation(results, node_selector=where))


def partition_cluster() -> list:
    """short-5000's cluster, each node with one GPU as "whole" or two "halves" (a shared 2-unit counter, slices as
    in fixtures/explain/dra-missed); "whole" held on every node but the ten empty ones."""
    out = cluster(False)
    out.append(GPU_CLASS)
    counters = (dra.CounterSet("gpu-0", (("memory", Fraction(2)),)),)
    for i, node in enumerate(n for n in out if type(n).__name__ == "Node"):
        where = dra.NodeSelection(node_name=node.name)
        out.append(dra.ResourceSlice(f"{node.name}-counters", GPU_CLASS.name, node.name, 1, 2, where,
                                     shared_counters=counters))
        devices = tuple(dra.Device(name, {"gpu.example.com/size": dra.Attribute("string", size)},
                                   consumes_counters=(dra.CounterSet("gpu-0", (("memory", Fraction(use)),)),))
                        for name, size, use in (("whole", "whole", 2), ("half-0", "half", 1), ("half-1", "half", 1)))
        out.append(dra.ResourceSlice(f"{node.name}-gpus", GPU_CLASS.name, node.name, 1, 2, where, devices=devices))
        if i >= EMPTY:
            out.append(_held("load", f"held-{i:05d}", node.name, ("whole",)))
    return out


def _size(value: str) -> dra.RequestSpec:
    return dra.RequestSpec(value, GPU_CLASS.name, (f'device.attributes["gpu.example.com"].size == "{value}"',))


def dra_gang(size: int, request: dra.DeviceRequest) -> list:
    """A gang of `size` 1-core pods, each with its own claim from a template with `request`."""
    out: list = [dra.ResourceClaimTemplate("train", "gpus", dra.ClaimSpec((request,)))]
    out += gang(size)[:1]
    for i in range(size):
        req = {"cpu": 1000, "memory": GIB}
        out.append(Pod("train", f"big-{i:03d}", dict(req), dict(req), pod_group="big", priority_class_name="high",
                       resource_claims=(PodClaim("gpu", template_name="gpus"),)))
    return out


def small_pods(count: int) -> list:
    return [Pod("web", f"web-{i}", {"cpu": 500, "memory": GIB}, {"cpu": 500, "memory": GIB}) for i in range(count)]


SCENARIOS = {
    "short-5000": lambda: (cluster(False), gang(), [Unit("PodGroup", "train/big")]),
    "taint-5000": lambda: (cluster(True), gang(), [Unit("PodGroup", "train/big")]),
    "pending-5000": lambda: (cluster(False), [*gang(), *small_pods(20)], None),
    "zone-5000": lambda: (cluster(False), gang(key="zone"), [Unit("PodGroup", "train/big")]),
}


EXACT = {**SCENARIOS,
         "missed-5000": lambda: (cluster(False), mixed_gang([(10, 16000), (5, 32000)]),
                                 [Unit("PodGroup", "train/big")]),
         "varied-5000": lambda: (varied_cluster(), mixed_gang([(2700, 10000), (3000, 6000)]),
                                 [Unit("PodGroup", "train/big")]),
         "tree-5000": lambda: (cluster(False), tree(3, 8), [Unit("PodGroup", "train/shard-0")]),
         "moves-600": lambda: (crowded(600), gang(40), [Unit("PodGroup", "train/big")]),
         "shapes4-5000": lambda: (random_cluster(), mixed_gang([(6000, c) for c in (1000, 2000, 3000, 5000)]),
                                  [Unit("PodGroup", "train/big")]),
         "dra-5000": lambda: (dra_cluster(), dra_gang(32, dra.DeviceRequest(
             "gpu", dra.RequestSpec("gpu", GPU_CLASS.name, count=4))), [Unit("PodGroup", "train/big")]),
         "dra-missed-5000": lambda: (partition_cluster(), dra_gang(20, dra.DeviceRequest(
             "gpu", None, (_size("whole"), _size("half")))), [Unit("PodGroup", "train/big")])}


def _moves(answer) -> str:
    if answer is None:
        return "-"
    return f"{answer.status}:{len(answer.moves)}{'(verified)' if answer.verified else ''}"


def run_exact(name: str) -> None:
    """The exact check alone (every question it asks), in CPU seconds, on the plan's final state."""
    existing, arrivals, units = EXACT[name]()
    inputs, options = PlanInputs(existing, arrivals), EngineOptions()
    sim = Simulator(inputs, options)
    plan, _ = sim.run()
    ctx = Context(inputs, sim, plan, Verifier(inputs, options, sim.state, Budget()))
    for unit in units if units is not None else pending(plan)[:1]:
        subj = evidence.subject(ctx, unit)
        evidence.run_trial(ctx, subj)
        verdict, _ = evidence.verdict(ctx, subj)
        start = time.process_time()
        found, changes = check(ctx, subj, verdict, ExactOptions())
        took = time.process_time() - start
        answer, m = found.now, found.model
        if answer is None:  # the plan places it: nothing to solve
            print(f"exact {name:14s} verdict={found.verdict} (the plan places it) cpu={took:5.2f}s", flush=True)
            continue
        whole = f"tree={found.tree.status}:{found.tree.placed}/{found.tree.needed} " if found.tree else ""
        print(f"exact {name:14s} nodes={plan.nodes} pods={len(plan.pods)} classes={m.classes}+{m.pooled} "
              f"patterns={m.patterns} shapes={m.shapes} verdict={found.verdict} placed={answer.placed}/"
              f"{answer.needed} bound={answer.bound} "
              f"withEviction={found.with_eviction.status if found.with_eviction else '-'} {whole}"
              f"moves={_moves(found.with_moves)} "
              f"changes={','.join(c.kind for c in changes) or '-'} cpu={took:5.2f}s "
              f"(re-plans {ctx.verifier.runs}: {ctx.verifier.seconds:5.2f}s wall)", flush=True)


def run(name: str, runs: int | None) -> None:
    existing, arrivals, units = SCENARIOS[name]()
    inputs, options = PlanInputs(existing, arrivals), EngineOptions()
    start, cpu_start = time.perf_counter(), time.process_time()
    sim = Simulator(inputs, options)
    plan, _ = sim.run()
    base, base_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    ctx = Context(inputs, sim, plan, Verifier(inputs, options, sim.state, Budget(runs)))
    start, cpu_start = time.perf_counter(), time.process_time()
    targets = units if units is not None else pending(plan)
    explanation = explain_units(ctx, targets, exact=ExactOptions())
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    kinds = [s.kind for t in explanation.targets for s in t.suggestions]
    print(f"{name:14s} budget={runs or 0:d} runs nodes={plan.nodes} pods={len(plan.pods)} "
          f"basePlan={base:5.2f}s (cpu {base_cpu:5.2f}s) explain={took:5.2f}s (cpu {took_cpu:5.2f}s) "
          f"total cpu={base_cpu + took_cpu:5.2f}s verificationRuns={ctx.verifier.runs} "
          f"skipped={ctx.verifier.skipped} verification={ctx.verifier.seconds:5.2f}s "
          f"exact={explanation.timings['exactSeconds']:5.2f}s "
          f"suggestions={','.join(kinds)}", flush=True)


def main(argv: list[str]) -> None:
    if argv == ["exact"]:
        for name in EXACT:
            run_exact(name)
        return
    wanted = argv or list(SCENARIOS)
    unknown = [w for w in wanted if w not in SCENARIOS]
    if unknown:
        print(__doc__)
        raise SystemExit(2)
    for name in wanted:
        run(name, DEFAULT_VERIFY_BUDGET)  # what `wasplan explain` does by default
        run(name, None)  # --verify-budget 0: every suggestion verified
        run_exact(name)


if __name__ == "__main__":
    main(sys.argv[1:])

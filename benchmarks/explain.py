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
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan import GIB, nodes  # noqa: E402  (benchmarks/plan.py's generators)

from wasplan.api import hub  # noqa: E402
from wasplan.cluster.model import Group, Pod, PlanInputs, PriorityClass, Taint  # noqa: E402
from wasplan.engine.options import EngineOptions  # noqa: E402
from wasplan.engine.simulator import Simulator  # noqa: E402
from wasplan.explain import explain_units  # noqa: E402
from wasplan.explain.evidence import Context  # noqa: E402
from wasplan.explain.rerun import Budget, Verifier  # noqa: E402
from wasplan.explain.target import Unit, pending  # noqa: E402
from wasplan.pipeline.explain import DEFAULT_VERIFY_BUDGET  # noqa: E402

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


def small_pods(count: int) -> list:
    return [Pod("web", f"web-{i}", {"cpu": 500, "memory": GIB}, {"cpu": 500, "memory": GIB}) for i in range(count)]


SCENARIOS = {
    "short-5000": lambda: (cluster(False), gang(), [Unit("PodGroup", "train/big")]),
    "taint-5000": lambda: (cluster(True), gang(), [Unit("PodGroup", "train/big")]),
    "pending-5000": lambda: (cluster(False), [*gang(), *small_pods(20)], None),
    "zone-5000": lambda: (cluster(False), gang(key="zone"), [Unit("PodGroup", "train/big")]),
}


def run(name: str, runs: int | None) -> None:
    existing, arrivals, units = SCENARIOS[name]()
    inputs, options = PlanInputs(existing, arrivals), EngineOptions()
    start, cpu_start = time.perf_counter(), time.process_time()
    sim = Simulator(inputs, options)
    plan, _ = sim.run()
    base, base_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    ctx = Context(inputs, sim, plan, Verifier(inputs, options, sim.state, Budget(runs)))
    start, cpu_start = time.perf_counter(), time.process_time()
    explanation = explain_units(ctx, units if units is not None else pending(plan))
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    kinds = [s.kind for t in explanation.targets for s in t.suggestions]
    print(f"{name:14s} budget={runs or 0:d} runs nodes={plan.nodes} pods={len(plan.pods)} "
          f"basePlan={base:5.2f}s (cpu {base_cpu:5.2f}s) explain={took:5.2f}s (cpu {took_cpu:5.2f}s) "
          f"total cpu={base_cpu + took_cpu:5.2f}s verificationRuns={ctx.verifier.runs} "
          f"skipped={ctx.verifier.skipped} verification={ctx.verifier.seconds:5.2f}s "
          f"suggestions={','.join(kinds)}", flush=True)


def main(argv: list[str]) -> None:
    wanted = argv or list(SCENARIOS)
    unknown = [w for w in wanted if w not in SCENARIOS]
    if unknown:
        print(__doc__)
        raise SystemExit(2)
    for name in wanted:
        run(name, DEFAULT_VERIFY_BUDGET)  # what `wasplan explain` does by default
        run(name, None)  # --verify-budget 0: every suggestion verified


if __name__ == "__main__":
    main(sys.argv[1:])

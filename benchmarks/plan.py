"""Throughput of the offline scheduler on generated clusters; prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/plan.py            # every scenario, each in its own process
    PYTHONPATH=src python benchmarks/plan.py plain-5000  # one scenario

Scenarios: 5,000 nodes x 50,000 plain pods; scheduler_perf's gang shapes (5,000 nodes x 1,000 and 3,000 gangs of
3 pods; 5,000 nodes x 9 gangs of 1,000); node scaling at 1,000 / 5,000 / 15,000 nodes with 10,000 pods; and the
memory case 5,000 nodes + 100,000 pods. Each prints pods/s, wall and CPU time (the CPU figure is steadier on a shared machine) and the
process's peak RSS.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from wasplan.api import hub
from wasplan.cluster.model import Group, Node, PlanInputs, Pod
from wasplan.engine.options import EngineOptions
from wasplan.engine.simulator import simulate

GIB = 2**30


def nodes(count: int) -> list[Node]:
    return [Node(f"node-{i:05d}", {"kubernetes.io/hostname": f"node-{i:05d}", "zone": f"zone-{i % 3}"},
                 {"cpu": 32000, "memory": 128 * GIB, "pods": 110, "ephemeral-storage": 500 * GIB})
            for i in range(count)]


def plain_pods(count: int, prefix: str = "p") -> list[Pod]:
    sizes = [(500, GIB), (1000, 2 * GIB), (250, GIB // 2), (2000, 4 * GIB)]
    out = []
    for i in range(count):
        cpu, mem = sizes[i % len(sizes)]
        req = {"cpu": cpu, "memory": mem}
        out.append(Pod("bench", f"{prefix}-{i:06d}", req, dict(req), labels={"app": prefix}))
    return out


def gangs(groups: int, size: int) -> list:
    out: list = []
    for g in range(groups):
        name = f"gang-{g:05d}"
        policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=size)
        out.append(Group("bench", name, hub.PodGroup(metadata={"name": name, "namespace": "bench"}, policy=policy)))
        for i in range(size):
            req = {"cpu": 1000, "memory": 2 * GIB}
            out.append(Pod("bench", f"{name}-{i:04d}", req, dict(req), pod_group=name))
    return out


SCENARIOS = {
    "plain-5000x50000": lambda: (nodes(5000), plain_pods(50_000)),
    "gangs-5000x1000x3": lambda: (nodes(5000), gangs(1000, 3)),
    "gangs-5000x3000x3": lambda: (nodes(5000), gangs(3000, 3)),
    "gangs-5000x9x1000": lambda: (nodes(5000), gangs(9, 1000)),
    "scale-1000": lambda: (nodes(1000), plain_pods(10_000)),
    "scale-5000": lambda: (nodes(5000), plain_pods(10_000)),
    "scale-15000": lambda: (nodes(15000), plain_pods(10_000)),
    "memory-5000x100000": lambda: (nodes(5000), plain_pods(100_000)),
}


def run_one(name: str) -> None:
    cluster, arrivals = SCENARIOS[name]()
    pod_count = sum(1 for a in arrivals if isinstance(a, Pod))
    start, cpu_start = time.perf_counter(), time.process_time()
    plan, _ = simulate(PlanInputs(list(cluster), arrivals), EngineOptions())
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    bound = plan.count("Bound")
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{name:22s} pods={pod_count:7d} bound={bound:7d} time={elapsed:7.2f}s "
          f"cpu={cpu:7.2f}s pods/s={pod_count / elapsed:9.0f} us/pod={elapsed / pod_count * 1e6:7.1f} "
          f"peakRSS={peak_mib:7.0f}MiB",
          flush=True)


def main(argv: list[str]) -> None:
    wanted = argv or list(SCENARIOS)
    if len(wanted) == 1:
        run_one(wanted[0])
        return
    for name in wanted:
        subprocess.run([sys.executable, __file__, name], check=False)


if __name__ == "__main__":
    main(sys.argv[1:])

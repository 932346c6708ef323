"""Plans that leave many pods pending; prints CPU seconds, asserts nothing.

    PYTHONPATH=src python benchmarks/pending.py                  # every case, memoisation on
    PYTHONPATH=src python benchmarks/pending.py --reference      # also with EngineOptions(memo=False) where it
                                                                 # ends in minutes, and compares the two plans
    PYTHONPATH=src python benchmarks/pending.py job-3000 explain-3000   # some cases

Each case is a 1.37 Indexed Job of N pods x 100m CPU (1.37 gives a Job a basic PodGroup) on a Cluster of nodes
that take 110 pods each, so the pod count decides how many stay pending:

* job-800       800 pods on 5 nodes (550 bound, 250 pending)
* job-3000      3,000 pods on 19 nodes (2,090 bound, 910 pending): the repro of the quadratic plan
* job-10000     10,000 pods (WAS610's expansion cap) on 61 nodes (6,710 bound, 3,290 pending)
* explain-3000  `wasplan explain job/big` on job-3000 (the plan, then the group's evidence and exact check), as a
                process

Pods arrive one at a time, and upstream re-attempts every queued member of the group at each arrival
(podGroupSchedulingDefaultAlgorithm in pkg/scheduler/schedule_one_podgroup.go), so a pending member is tried once
per later arrival; the engine's memo (framework.py, cycles.py, groupcycle.py) answers the repeats from the
unchanged state.
The figures are CPU seconds of the simulation alone (reading and expanding excluded) or, for explain, of the
whole process. `--reference` runs the cases under 5,000 pods a second time with the memo off and says whether
both plans are equal.
"""

from __future__ import annotations

import dataclasses
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import read_text
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.simulator import simulate

PODS_PER_NODE = 110
CASES = {"job-800": (800, 5), "job-3000": (3000, 19), "job-10000": (10000, 61)}
EXPLAIN = {"explain-3000": (3000, 19)}
REFERENCE_LIMIT = 5000  # the memo-off run is quadratic: hours at 10,000 pods


def cluster(nodes: int) -> str:
    return ("apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: pending}\nspec:\n  nodePools:\n"
            f"  - name: n\n    count: {nodes}\n"
            f"    allocatable: {{cpu: \"16\", memory: 64Gi, pods: \"{PODS_PER_NODE}\"}}\n")


def job(pods: int) -> str:
    return ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: big}\nspec:\n"
            f"  parallelism: {pods}\n  completions: {pods}\n  completionMode: Indexed\n  template:\n    spec:\n"
            "      restartPolicy: Never\n"
            "      containers: [{name: m, image: x, resources: {requests: {cpu: \"100m\"}}}]\n")


def simulate_case(pods: int, nodes: int, memo: bool):
    gates = default_gates(get_release("1.37"))
    inputs, _ = build_inputs(read_text("cluster.yaml", cluster(nodes)), read_text("job.yaml", job(pods)), gates)
    options = dataclasses.replace(EngineOptions(gates=gates), memo=memo)
    start = time.process_time()
    plan, _ = simulate(inputs, options)
    return plan, time.process_time() - start


def run_plan(name: str, reference: bool) -> None:
    pods, nodes = CASES[name]
    plan, cpu = simulate_case(pods, nodes, memo=True)
    summary = plan.summary()
    line = f"{name:13} {pods:6} pods / {nodes:3} nodes: {summary['bound']:6} bound, {summary['pending']:5} pending | " \
           f"simulate {cpu:7.2f} s CPU"
    if reference and pods < REFERENCE_LIMIT:
        off, off_cpu = simulate_case(pods, nodes, memo=False)
        line += f" | memo off {off_cpu:7.2f} s CPU | plans {'equal' if off == plan else 'DIFFER'}"
    print(line, flush=True)


def run_explain(name: str) -> None:
    pods, nodes = EXPLAIN[name]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "cluster.yaml").write_text(cluster(nodes))
        (Path(tmp) / "job.yaml").write_text(job(pods))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        args = ["explain", "job/big", "--k8s-version", "1.37", "--cluster", str(Path(tmp) / "cluster.yaml"),
                str(Path(tmp) / "job.yaml")]
        done = subprocess.run([sys.executable, "-m", "wasplan", *args],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                              env={**os.environ, "COLUMNS": "100"})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{name:13} {pods:6} pods / {nodes:3} nodes: `explain job/big` exit {done.returncode} | "
          f"{cpu:7.2f} s CPU (process)", flush=True)


def main(argv: list[str]) -> None:
    reference = "--reference" in argv
    names = [a for a in argv if not a.startswith("--")] or [*CASES, *EXPLAIN]
    for name in names:
        if name in CASES:
            run_plan(name, reference)
        elif name in EXPLAIN:
            run_explain(name)
        else:
            raise SystemExit(f"unknown case {name!r}; cases: {', '.join([*CASES, *EXPLAIN])}")


if __name__ == "__main__":
    main(sys.argv[1:])

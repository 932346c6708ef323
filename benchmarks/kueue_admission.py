"""Issue 32's size for the Kueue stage: 2,000 queued Jobs over 20 ClusterQueues in a three-level cohort tree
(a root cohort, four team cohorts, five ClusterQueues each) with two flavors each, on 1,000 nodes, some of the
ClusterQueues preempting by priority. Times `KueueInputs.from_objects` and `admit` in-process (the stage alone,
no YAML reading), and with `--oracle` writes the same objects to a file and times the Kueue oracle on it.

    PYTHONPATH=src python benchmarks/kueue_admission.py             # 2,000 Jobs, 20 ClusterQueues, 1,000 nodes
    PYTHONPATH=src python benchmarks/kueue_admission.py --jobs 200  # smaller
    PYTHONPATH=src python benchmarks/kueue_admission.py --oracle oracle/bin/oracle-kueue

Prints figures, asserts nothing. The objects are drawn from a seeded random source, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from collections import Counter

from wasplan.kueue import KueueInputs, admit


def objects(jobs: int, queues: int, nodes: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    for f in ("on-demand", "spot"):
        out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": f},
                    "spec": {"nodeLabels": {"pool": f}}})
    out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": "org"}})
    teams = max(1, queues // 5)
    for t in range(teams):
        out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": f"team-{t}"},
                    "spec": {"parentName": "org"}})
    for p in (100, 1000):
        out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass",
                    "metadata": {"name": f"p{p}"}, "value": p})
    for q in range(queues):
        quota = lambda: [{"name": "cpu", "nominalQuota": rng.choice([20, 40, 80]), "borrowingLimit": 40},
                         {"name": "memory", "nominalQuota": f"{rng.choice([64, 128, 256])}Gi"}]
        out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": f"cq-{q}"},
                    "spec": {"cohortName": f"team-{q % teams}", "namespaceSelector": {},
                             "preemption": {"withinClusterQueue": "LowerPriority",
                                            "reclaimWithinCohort": "LowerPriority" if q % 2 else "Never"},
                             "resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
                                 {"name": "on-demand", "resources": quota()},
                                 {"name": "spot", "resources": quota()}]}]}})
        out.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
                    "metadata": {"name": "q", "namespace": f"ns-{q}"}, "spec": {"clusterQueue": f"cq-{q}"}})
    for n in range(nodes):
        out.append({"apiVersion": "v1", "kind": "Node",
                    "metadata": {"name": f"node-{n}", "labels": {"pool": "spot" if n % 3 else "on-demand"}},
                    "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"}}})
    for j in range(jobs):
        q = rng.randrange(queues)
        labels = {"kueue.x-k8s.io/queue-name": "q"}
        if rng.random() < 0.2:
            labels["kueue.x-k8s.io/priority-class"] = rng.choice(["p100", "p1000"])
        n = rng.choice([1, 2, 4])
        out.append({"apiVersion": "batch/v1", "kind": "Job",
                    "metadata": {"name": f"job-{j}", "namespace": f"ns-{q}", "labels": labels},
                    "spec": {"parallelism": n, "completions": n, "suspend": True, "template": {"spec": {
                        "restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox", "resources": {
                            "requests": {"cpu": str(rng.choice([1, 2, 4])), "memory": f"{rng.choice([2, 4, 8])}Gi"}}}]}}}})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--queues", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--oracle", help="path of oracle-kueue, to time it on the same objects")
    args = parser.parse_args()
    objs = objects(args.jobs, args.queues, args.nodes)
    start = time.perf_counter()
    inputs = KueueInputs.from_objects(objs)
    parsed = time.perf_counter()
    result = admit(inputs)
    done = time.perf_counter()
    statuses = Counter(w.status.value for w in result.workloads)
    print(f"{args.jobs} Jobs, {args.queues} ClusterQueues, {args.nodes} nodes: inputs {parsed - start:.2f} s, "
          f"admission {done - parsed:.2f} s ({result.cycles} cycles), {dict(sorted(statuses.items()))}")
    if args.oracle:
        import yaml
        with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
            yaml.safe_dump_all(objs, f)
            f.flush()
            start = time.perf_counter()
            subprocess.run([args.oracle, "plan", f.name], check=False, capture_output=True)
            print(f"oracle-kueue on the same objects: {time.perf_counter() - start:.2f} s (whole process)")


if __name__ == "__main__":
    main()

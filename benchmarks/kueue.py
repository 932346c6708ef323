"""wasplan's Kueue admission beside Kueue v0.17.0's own (the Kueue oracle, `oracle/bin/oracle-kueue`) on the same
files, both as whole processes (start to exit); prints wall and CPU seconds of each and the ratio (CPU is the
steadier figure on a shared machine). Asserts nothing. Issue 32's goal: `wasplan plan` within 3 s and at least
10 times faster than the oracle.

    PYTHONPATH=src python benchmarks/kueue.py                  # the full shape
    PYTHONPATH=src python benchmarks/kueue.py --scale 0.1      # a tenth of the Jobs and nodes
    PYTHONPATH=src python benchmarks/kueue.py --write DIR      # write the files only (then plan them by hand)
    PYTHONPATH=src python benchmarks/kueue.py --runs 5         # wasplan's median of 5 runs (default 3)
    WASPLAN_ORACLE_KUEUE=/path/to/oracle-kueue python benchmarks/kueue.py

The shape (generated, seeded): 1,000 nodes of 32 CPUs and 128Gi (cluster.yaml); two ResourceFlavors
(on-demand, spot); a three-level cohort tree (Cohort objects: `root`, two `org-*` under it, four `dept-*` under
those, the dept cohorts holding quota of their own) with 20 ClusterQueues, five a dept, each with quotas in both
flavors, borrowing and lending limits on some, preemption within the queue and reclaim within the cohort;
a LocalQueue per ClusterQueue in a namespace of its own; two WorkloadPriorityClasses; and 2,000 queued Jobs of
1 to 4 pods, 1 to 4 CPUs each, some with a priority class, each with a creation timestamp of its own
(manifests.yaml). About a third of the demand fits the quotas: the rest stays pending, with Kueue's reasons.
wasplan runs `plan manifests.yaml --cluster cluster.yaml -o json` (the Kueue stage, then kube-scheduler for the
admitted pods); the oracle runs `plan` on the same two files (admission only). Without the oracle binary only
wasplan is measured, and a line says so.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
from pathlib import Path

from bytecode import compile_src  # benchmarks/bytecode.py: measured from bytecode, as an installed copy runs
from oracle_compare import node, timed  # benchmarks/oracle_compare.py

ROOT = Path(__file__).resolve().parent.parent
KUEUE = "apiVersion: kueue.x-k8s.io/v1beta2\n"
NODES, JOBS, QUEUES = 1000, 2000, 20


def flavors() -> list[str]:
    return [KUEUE + "kind: ResourceFlavor\nmetadata: {name: on-demand}\nspec: {nodeLabels: {pool: on-demand}}\n",
            KUEUE + "kind: ResourceFlavor\nmetadata: {name: spot}\nspec: {nodeLabels: {pool: spot}}\n"]


def quota_group(rng: random.Random, cpu: int, *, limits: bool) -> str:
    def res(name: str, nominal: str) -> str:
        extra = ""
        if limits and rng.random() < 0.3:
            extra += f", borrowingLimit: {rng.randint(10, 60)}" if name == "cpu" else ""
        if limits and rng.random() < 0.3:
            extra += f", lendingLimit: {rng.randint(10, 60)}" if name == "cpu" else ""
        return f"      - {{name: {name}, nominalQuota: {nominal}{extra}}}\n"
    out = "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n"
    for flavor, share in (("on-demand", 2), ("spot", 1)):
        out += f"    - name: {flavor}\n      resources:\n" + res("cpu", str(cpu * share)) + \
            res("memory", f"{cpu * share * 4}Gi")
    return out


def cohort_tree(rng: random.Random) -> tuple[list[str], list[str]]:
    """The Cohort objects and the leaf (dept) cohorts' names."""
    docs = [KUEUE + "kind: Cohort\nmetadata: {name: root}\nspec: {}\n"]
    depts = []
    for org in range(2):
        docs.append(KUEUE + f"kind: Cohort\nmetadata: {{name: org-{org}}}\nspec: {{parentName: root}}\n")
        for d in range(2):
            name = f"dept-{org}-{d}"
            depts.append(name)
            docs.append(KUEUE + f"kind: Cohort\nmetadata: {{name: {name}}}\nspec:\n  parentName: org-{org}\n"
                        + quota_group(rng, 20, limits=False))
    return docs, depts


def queues(rng: random.Random, count: int, depts: list[str]) -> list[str]:
    docs = []
    for i in range(count):
        docs.append(KUEUE + f"kind: ClusterQueue\nmetadata: {{name: cq-{i}}}\nspec:\n"
                    f"  cohortName: {depts[i % len(depts)]}\n  namespaceSelector: {{}}\n"
                    "  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}\n"
                    + quota_group(rng, rng.choice((40, 60, 80)), limits=True))
        docs.append(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: team-{i}}}\n")
        docs.append(KUEUE + f"kind: LocalQueue\nmetadata: {{name: lq, namespace: team-{i}}}\n"
                    f"spec: {{clusterQueue: cq-{i}}}\n")
    return docs


def jobs(rng: random.Random, count: int, queue_count: int) -> list[str]:
    docs = []
    for i in range(count):
        pods, cpu = rng.randint(1, 4), rng.randint(1, 4)
        labels = f"kueue.x-k8s.io/queue-name: lq"
        if rng.random() < 0.3:
            labels += f", kueue.x-k8s.io/priority-class: {rng.choice(('low', 'high'))}"
        hours, rest = divmod(i, 3600)
        stamp = f"2025-12-{1 + hours:02d}T{rest // 60 // 60:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}Z"
        docs.append(f"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-{i}\n"
                    f"  namespace: team-{rng.randrange(queue_count)}\n  labels: {{{labels}}}\n"
                    f"  creationTimestamp: '{stamp}'\n"
                    f"spec:\n  parallelism: {pods}\n  completions: {pods}\n  suspend: true\n  template:\n"
                    "    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n"
                    f"        image: busybox\n        resources: {{requests: {{cpu: '{cpu}', memory: {cpu * 2}Gi}}}}\n")
    return docs


def shape(scale: float) -> tuple[list[str], list[str]]:
    rng = random.Random(32)
    cluster = [node(f"node-{i}", 32, "128Gi", {"pool": "on-demand" if i % 3 else "spot"})
               for i in range(max(1, int(NODES * scale)))]
    cluster += flavors()
    cluster += [KUEUE + f"kind: WorkloadPriorityClass\nmetadata: {{name: {n}}}\nvalue: {v}\n"
                for n, v in (("low", 10), ("high", 1000))]
    tree, depts = cohort_tree(rng)
    cluster += tree + queues(rng, QUEUES, depts)
    return cluster, jobs(rng, max(1, int(JOBS * scale)), QUEUES)


def write(root: Path, scale: float) -> tuple[Path, Path]:
    cluster_docs, manifest_docs = shape(scale)
    root.mkdir(parents=True, exist_ok=True)
    cluster, manifests = root / "cluster.yaml", root / "manifests.yaml"
    cluster.write_text("---\n".join(cluster_docs))
    manifests.write_text("---\n".join(manifest_docs))
    return manifests, cluster


def report(name: str, wall: float, cpu: float, problem: str) -> None:
    print(f"{name:8} wall {wall:7.2f} s  CPU {cpu:7.2f} s" + (f"  ({problem})" if problem else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--write", type=Path)
    parser.add_argument("--runs", type=int, default=3, help="wasplan runs; the median (by CPU) is reported")
    args = parser.parse_args()
    if args.write:
        print(*write(args.write, args.scale))
        return
    oracle = Path(os.environ.get("WASPLAN_ORACLE_KUEUE") or ROOT / "oracle" / "bin" / "oracle-kueue")
    print(f"Kueue shape x{args.scale}: {int(JOBS * args.scale)} Jobs, {QUEUES} ClusterQueues, "
          f"{int(NODES * args.scale)} nodes; {platform.python_implementation()} {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        manifests, cluster = write(Path(tmp), args.scale)
        compile_src()
        runs = sorted((timed([sys.executable, "-m", "wasplan", "plan", str(manifests), "--cluster", str(cluster),
                              "-o", "json"], args.timeout) for _ in range(max(args.runs, 1))), key=lambda r: r[1])
        ours = runs[len(runs) // 2]
        report("wasplan", *ours)
        if len(runs) > 1:
            print(f"         (median of {len(runs)} runs by CPU: {', '.join(f'{r[1]:.2f}' for r in runs)} s)")
        if not oracle.is_file():
            print(f"no Kueue oracle at {oracle}: build it with oracle/build kueue (needs Go)")
            return
        theirs = timed([str(oracle), "plan", str(manifests), "--cluster", str(cluster)], args.timeout)
        report("oracle", *theirs)
        if ours[1] and theirs[1] and not (ours[2] or theirs[2]):
            print(f"ratio    wall {theirs[0] / ours[0]:.1f}x  CPU {theirs[1] / ours[1]:.1f}x (oracle / wasplan)")


if __name__ == "__main__":
    main()

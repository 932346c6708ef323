"""Throughput of `wasplan migrate` next to the floor: ruamel.yaml alone loading and dumping the same files.

Generates a corpus (default 2,400 documents in 120 files: 1.36 Workloads, PodGroups and Indexed Jobs that
need edits, mixed with Services, ConfigMaps and Deployments that do not, plus a few whole files of unrelated
kinds; `--only-scheduling` for the worst case where every document changes) and prints documents/s for both
and their ratio. The target is migrate <= 1.5x the floor.

    PYTHONPATH=src python benchmarks/migrate.py [--files 120] [--docs-per-file 20]
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

from ruamel.yaml import YAML

from wasplan.migrate.plan import Options
from wasplan.migrate.targets import Target
from wasplan.pipeline.migrate import migrate

WORKLOAD = """# training workload {i}
apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata:
  name: train-{i}
  namespace: ml
spec:
  podGroupTemplates:
    - name: workers   # the gang
      schedulingPolicy:
        gang:
          minCount: {n}
      disruptionMode: PodGroup
      priorityClassName: training
"""
PODGROUP = """apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata:
  name: train-{i}-workers
  namespace: ml
spec:
  podGroupTemplateRef:
    workload:
      workloadName: train-{i}
      podGroupTemplateName: workers
  schedulingPolicy:
    gang:
      minCount: {n}
  disruptionMode: PodGroup
  priorityClassName: training
"""
JOB = """apiVersion: batch/v1
kind: Job
metadata:
  name: train-{i}
spec:
  completionMode: Indexed
  parallelism: {n}
  completions: {n}
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: worker
          image: trainer:{i}
          resources:
            limits: {{nvidia.com/gpu: 8}}
"""
SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: svc-{i}
  labels: {{app: svc-{i}}}
spec:
  selector:
    app: svc-{i}
  ports:
  - port: 80
    targetPort: 8080   # http
"""
CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg-{i}
data:
  settings.ini: |
    [main]
    threads = {n}
    name = cfg-{i}
"""
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-{i}
spec:
  replicas: {n}
  selector:
    matchLabels: {{app: web-{i}}}
  template:
    metadata:
      labels: {{app: web-{i}}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
"""
MIXED = [WORKLOAD, PODGROUP, JOB, SERVICE, CONFIGMAP, DEPLOYMENT, SERVICE, CONFIGMAP]
UNRELATED = [SERVICE, CONFIGMAP, DEPLOYMENT]
SCHEDULING = [WORKLOAD, PODGROUP, JOB]


def generate(root: Path, files: int, per_file: int, only_scheduling: bool = False) -> int:
    count = 0
    for f in range(files):
        kinds = SCHEDULING if only_scheduling else UNRELATED if f % 5 == 4 else MIXED
        docs = [kinds[d % len(kinds)].format(i=f * per_file + d, n=2 + d % 7) for d in range(per_file)]
        (root / f"m{f:04d}.yaml").write_text("---\n".join(docs))
        count += len(docs)
    return count


def ruamel_floor(paths: list[Path]) -> float:
    y = YAML()
    start = time.perf_counter()
    for p in paths:
        docs = list(y.load_all(p.read_text()))
        y.dump_all(docs, io.StringIO())
    return time.perf_counter() - start


def wasplan_time(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    result = migrate([str(root)], Target.parse("1.37", None), Options())
    elapsed = time.perf_counter() - start
    assert not result.tool_error and not any(f.refused for f in result.files)
    return elapsed, len(result.changed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=120)
    parser.add_argument("--docs-per-file", type=int, default=20)
    parser.add_argument("--only-scheduling", action="store_true",
                        help="worst case: every document needs an edit (no unrelated kinds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = generate(root, args.files, args.docs_per_file, args.only_scheduling)
        paths = sorted(root.glob("*.yaml"))
        floor = ruamel_floor(paths)
        ours, changed = wasplan_time(root)
    print(f"corpus: {docs} documents in {len(paths)} files ({changed} files changed)")
    print(f"ruamel.yaml load+dump (floor): {floor:7.2f} s  {docs / floor:8.0f} documents/s")
    print(f"wasplan migrate --to-k8s 1.37: {ours:7.2f} s  {docs / ours:8.0f} documents/s")
    print(f"ratio migrate/floor: {ours / floor:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()

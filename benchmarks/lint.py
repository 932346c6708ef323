"""Lint throughput: `wasplan lint` over growing corpora, to show that the cost stays linear in the documents.

Usage: python benchmarks/lint.py [--documents 5000,10000,20000] [--release 1.37] [--cluster]
Half of each corpus is the validate benchmark's training runs (Workload, PodGroup, Pods), half DRA runs: a
ResourceClaimTemplate, a PodGroup with a group claim and four Pods whose containers use a group claim and a
per-pod claim (one run in ten misspells its template; `--typo-every`). Each misspelt name costs a did-you-mean
over at most 500 names of its namespace (`validate.index.MAX_GUESS_CANDIDATES`), the rest is linear. `--cluster` also passes a Cluster snapshot of 500 GPU nodes
with DRA devices, so the device checks run too. Prints the CPU seconds (the machine is shared) of the lint step
alone (reading the files and the snapshot is not timed), per corpus and per document; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_corpus  # noqa: E402

from wasplan.api.releases import get_release, parse_gates  # noqa: E402
from wasplan.documents.reader import read_paths  # noqa: E402
from wasplan.pipeline.lint_devices import read_snapshot  # noqa: E402
from wasplan.pipeline.validate import lint_documents  # noqa: E402

_CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
"""

_RUN = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: gpus-{i}, namespace: team-{team}}}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 4
          selectors:
          - cel: {{expression: 'device.attributes["gpu.example.com"].model == "h100"'}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: dra-{i}, namespace: team-{team}}}
spec:
  schedulingPolicy: {{gang: {{minCount: 4}}}}
  resourceClaims:
  - {{name: fabric, resourceClaimTemplateName: gpus-{i}}}
"""

_POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: dra-{i}-{k}, namespace: team-{team}}}
spec:
  schedulingGroup: {{podGroupName: dra-{i}}}
  resourceClaims:
  - {{name: fabric, resourceClaimTemplateName: gpus-{i}}}
  - {{name: gpus, resourceClaimTemplateName: {template}}}
  containers:
  - name: worker
    image: trainer:1
    resources:
      claims: [{{name: fabric}}, {{name: gpus, request: gpus}}]
"""

_CLUSTER = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: bench}
spec:
  nodePools:
  - name: gpu
    count: 500
    labels: {topology.kubernetes.io/rack: "rack-{index // 8}"}
    allocatable: {cpu: 96, memory: 768Gi}
    devices:
    - driver: gpu.example.com
      count: 8
      attributes: {model: h100, productName: NVIDIA H100 80GB HBM3, pcieRoot: "pci-{index // 4}"}
      capacity: {memory: 80Gi}
"""


def write_dra(root: Path, documents: int, typo_every: int = 10) -> int:
    (root / "classes.yaml").write_text(_CLASS)
    written, i = 1, 0
    while written < documents:
        team = i % 7
        template = f"gpu-{i}" if typo_every and i % typo_every == 0 else f"gpus-{i}"
        parts = [_RUN.format(i=i, team=team)] + [_POD.format(i=i, team=team, k=k, template=template)
                                                  for k in range(4)]
        (root / f"dra-{i:05d}.yaml").write_text("---\n".join(parts))
        written += 6
        i += 1
    return written


def lint_seconds(root: Path, release: str, cluster: Path | None, gate_spec: str) -> tuple[float, int, int]:
    """(CPU seconds of the lint step alone, documents, lint findings): reading and the snapshot are not timed."""
    gates = parse_gates(get_release(release), gate_spec)
    read = read_paths([str(root)])
    snapshot = read_snapshot([str(cluster)], gates)[0] if cluster else None
    start = time.process_time()
    findings = lint_documents(read.documents, gates, snapshot=snapshot)
    return time.process_time() - start, len(read.documents), len(findings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", default="5000,10000,20000")
    parser.add_argument("--release", default="1.37")
    parser.add_argument("--cluster", action="store_true")
    parser.add_argument("--feature-gates", default="DRAWorkloadResourceClaims=true",
                        help="gates as on the command line (default: PodGroup claims on, so their checks run)")
    parser.add_argument("--typo-every", type=int, default=10, help="misspell the template of every Nth run (0: never)")
    args = parser.parse_args()
    for total in (int(n) for n in args.documents.split(",")):
        root = Path(tempfile.mkdtemp(prefix="wasplan-lint-bench-"))
        write_corpus(root / "runs", total // 2, args.release)
        (root / "dra").mkdir()
        write_dra(root / "dra", total - total // 2, args.typo_every)
        cluster = None
        if args.cluster:
            cluster = root.parent / f"{root.name}-cluster.yaml"
            cluster.write_text(_CLUSTER)
        seconds, docs, findings = lint_seconds(root, args.release, cluster, args.feature_gates)
        print(f"{docs:>6} documents{' + snapshot' if cluster else ''}: lint {seconds:6.3f} CPU s "
              f"({1000 * seconds / docs:5.3f} ms per document)  {findings} findings")


if __name__ == "__main__":
    main()

"""Generates realistic manifest corpora for the benchmarks: gang-scheduled training runs as Workload,
PodGroup and Pod documents, one file per run, for a chosen Kubernetes release."""

from __future__ import annotations

from pathlib import Path

_WORKLOAD = {
    "1.37": """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: run-{i}
  namespace: team-{team}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang:
        minCount: {n}
    disruptionMode:
      all: {{}}
  - name: driver
    schedulingPolicy:
      basic: {{}}
""",
    "1.36": """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata:
  name: run-{i}
  namespace: team-{team}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang:
        minCount: {n}
    disruptionMode: PodGroup
  - name: driver
    schedulingPolicy:
      basic: {{}}
""",
}

_PODGROUP = {
    "1.37": """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: run-{i}-workers
  namespace: team-{team}
spec:
  workloadRef:
    workloadName: run-{i}
    templateName: workers
  schedulingPolicy:
    gang:
      minCount: {n}
  schedulingConstraints:
    topology:
    - key: topology.kubernetes.io/rack
""",
    "1.36": """\
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata:
  name: run-{i}-workers
  namespace: team-{team}
spec:
  podGroupTemplateRef:
    workload:
      workloadName: run-{i}
      podGroupTemplateName: workers
  schedulingPolicy:
    gang:
      minCount: {n}
  schedulingConstraints:
    topology:
    - key: topology.kubernetes.io/rack
""",
}

_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: run-{i}-worker-{k}
  namespace: team-{team}
  labels:
    app: trainer
    run: run-{i}
spec:
  schedulingGroup:
    podGroupName: run-{i}-workers
  priorityClassName: training
  tolerations:
  - key: nvidia.com/gpu
    operator: Exists
    effect: NoSchedule
  containers:
  - name: trainer
    image: registry.example.com/trainer:2.1
    resources:
      requests:
        cpu: "8"
        memory: 64Gi
        nvidia.com/gpu: "8"
      limits:
        nvidia.com/gpu: "8"
"""


def write_corpus(root: Path, documents: int, release: str = "1.37", pods_per_run: int = 4) -> int:
    """Writes at least `documents` documents under `root`; returns how many were written."""
    root.mkdir(parents=True, exist_ok=True)
    written, i = 0, 0
    while written < documents:
        team = i % 7
        parts = [_WORKLOAD[release].format(i=i, team=team, n=pods_per_run),
                 _PODGROUP[release].format(i=i, team=team, n=pods_per_run)]
        parts += [_POD.format(i=i, team=team, k=k) for k in range(pods_per_run)]
        (root / f"run-{i:05d}.yaml").write_text("---\n".join(parts))
        written += len(parts)
        i += 1
    return written

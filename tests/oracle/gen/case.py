"""One generated case: the cluster's objects and the manifests to plan, for one release and arrival mode.

A case is plain Kubernetes objects (dicts) in two lists, written as two multi-document YAML files:
`cluster.yaml` (what already exists: Nodes, running Pods, PriorityClasses, PodDisruptionBudgets, DeviceClasses,
ResourceSlices) and `manifests.yaml` (what is created, in order: Pods, PodGroups, Workloads, CompositePodGroups,
ResourceClaims, ResourceClaimTemplates). Both `wasplan plan` and the oracle read exactly these files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

RELEASES = ("1.36", "1.37", "1.38")  # 1.38 cases are shaped as 1.37's (same APIs)
ARRIVALS = ("sequential", "batch")

# Every gate the generated objects may use, spelled out so both tools run with the same set.
GATES = {
    "1.36": "GenericWorkload=true,GangScheduling=true,WorkloadAwarePreemption=true,"
            "TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true",
    "1.37": "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true,"
            "PodGroupPreemptionPolicy=true,DRAWorkloadResourceClaims=true",
    # PodGroupPreemptionPolicy is gone in 1.38 (always on): naming it is an error
    "1.38": "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true,"
            "DRAWorkloadResourceClaims=true",
}


@dataclass
class Case:
    seed: int
    release: str
    arrival: str
    theme: str
    cluster: list[dict] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)

    @property
    def gates(self) -> str:
        return GATES[self.release]

    @property
    def label(self) -> str:
        return f"seed={self.seed} release={self.release} arrival={self.arrival} theme={self.theme}"

    def write(self, root: Path) -> tuple[Path, Path]:
        """Write `cluster.yaml` and `manifests.yaml` under `root`; returns (manifests, cluster)."""
        return write_case(root, self.cluster, self.manifests, self.label)


def write_case(root: Path, cluster_docs: list[dict], manifest_docs: list[dict], label: str) -> tuple[Path, Path]:
    """`cluster.yaml`, `manifests.yaml` and `case.txt` (the label) under `root`; returns (manifests, cluster)."""
    root.mkdir(parents=True, exist_ok=True)
    cluster, manifests = root / "cluster.yaml", root / "manifests.yaml"
    cluster.write_text(dump(cluster_docs))
    manifests.write_text(dump(manifest_docs))
    (root / "case.txt").write_text(label + "\n")
    return manifests, cluster


def dump(docs: list[dict]) -> str:
    return "---\n".join(yaml.safe_dump(d, sort_keys=False, default_flow_style=None, width=120) for d in docs)

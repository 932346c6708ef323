"""Measure snapshot building on a large kubectl-style cluster (not a test: prints figures, asserts nothing).

    PYTHONPATH=src python -m tests.cluster.bench_snapshot [--nodes 5000] [--pods 50000] [--yaml]

Generates `kubectl get nodes,pods,... -o json` output (Lists with managedFields, status, conditions, per-pod
names, uids, IPs and service-account volumes, as real ReplicaSet pods have), then times reading it and
`build_inputs` separately, so the parse layer's share is visible.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import yaml

from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import ReadResult, read_paths


def _node(i: int) -> dict:
    name = f"node-{i:05d}"
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "name": name, "uid": f"00000000-0000-4000-8000-{i:012d}", "resourceVersion": str(1000 + i),
            "creationTimestamp": f"2026-01-{1 + i % 28:02d}T00:{i % 60:02d}:00Z",
            "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                       "topology.kubernetes.io/zone": f"zone-{i % 3}", "topology.kubernetes.io/rack": f"rack-{i // 16}",
                       "node.kubernetes.io/instance-type": "p5.48xlarge" if i % 4 == 0 else "m7i.8xlarge"},
            "managedFields": [{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kubelet", "operation": "Update",
                               "time": "2026-01-01T00:00:00Z",
                               "fieldsV1": {"f:status": {"f:allocatable": {"f:cpu": {}, "f:memory": {}}}}}],
        },
        "spec": {"podCIDR": f"10.{i // 256}.{i % 256}.0/24",
                 **({"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]} if i % 4 == 0 else {})},
        "status": {
            "allocatable": {"cpu": "31500m", "memory": "126Gi", "pods": "110", "ephemeral-storage": "900Gi",
                            **({"nvidia.com/gpu": "8"} if i % 4 == 0 else {})},
            "capacity": {"cpu": "32", "memory": "128Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                            "lastHeartbeatTime": "2026-01-02T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z",
                            "message": "kubelet is posting ready status"}],
            "nodeInfo": {"kubeletVersion": "v1.37.0", "osImage": "Ubuntu 24.04.1 LTS", "architecture": "amd64"},
        },
    }


def _pod(i: int, nodes: int) -> dict:
    app = f"app-{i % 50}"
    name = f"{app}-7c65d6cfc9-{i:06d}"
    gpu = i % 50 < 5
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": name, "namespace": f"team-{i % 20}", "uid": f"10000000-0000-4000-8000-{i:012d}",
            "generateName": f"{app}-7c65d6cfc9-", "creationTimestamp": f"2026-02-{1 + i % 28:02d}T{i % 24:02d}:00:00Z",
            "labels": {"app": app, "pod-template-hash": "7c65d6cfc9"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{app}-7c65d6cfc9",
                                 "uid": "r", "controller": True, "blockOwnerDeletion": True}],
            "managedFields": [{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kube-controller-manager",
                               "operation": "Update", "time": "2026-02-01T00:00:00Z",
                               "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}}}],
        },
        "spec": {
            # GPU pods only on the GPU nodes (every fourth), so that no node is overcommitted (WAS609)
            "nodeName": f"node-{(i * 7) % nodes // 4 * 4 if gpu else (i * 7) % nodes:05d}",
            "containers": [{
                "name": "main", "image": f"registry.example.com/{app}:1.0", "imagePullPolicy": "IfNotPresent",
                "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "250m", "memory": "512Mi", **({"nvidia.com/gpu": "1"} if gpu else {})},
                              "limits": {"memory": "1Gi", **({"nvidia.com/gpu": "1"} if gpu else {})}},
                "volumeMounts": [{"name": f"kube-api-access-{i:05d}", "mountPath": "/var/run/secrets", "readOnly": True}],
            }],
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 300},
                            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 300}]
            + ([{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}] if gpu else []),
            "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                "weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": app}},
                                                   "topologyKey": "kubernetes.io/hostname"}}]}},
            "volumes": [{"name": f"kube-api-access-{i:05d}", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}],
            "schedulerName": "default-scheduler", "priority": 0, "restartPolicy": "Always",
        },
        "status": {"phase": "Running", "podIP": f"10.{i // 65536}.{(i // 256) % 256}.{i % 256}", "qosClass": "Burstable",
                   "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-02-01T00:00:10Z"}],
                   "containerStatuses": [{"name": "main", "ready": True, "restartCount": 0, "started": True,
                                          "image": f"registry.example.com/{app}:1.0",
                                          "state": {"running": {"startedAt": "2026-02-01T00:00:05Z"}}}]},
    }


def generate(nodes: int, pods: int) -> dict:
    items = [_node(i) for i in range(nodes)] + [_pod(i, nodes) for i in range(pods)]
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}


def _timed(label: str, fn):
    start = time.perf_counter()
    value = fn()
    print(f"{label:<34} {time.perf_counter() - start:7.2f} s")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=50000)
    parser.add_argument("--yaml", action="store_true", help="also measure the YAML form (slow to generate)")
    args = parser.parse_args()
    data = generate(args.nodes, args.pods)
    with tempfile.TemporaryDirectory() as tmp:
        forms = [("json", lambda p: p.write_text(json.dumps(data)))]
        if args.yaml:
            forms.append(("yaml", lambda p: p.write_text(yaml.dump(data, Dumper=yaml.CSafeDumper))))
        for suffix, write in forms:
            path = Path(tmp) / f"snapshot.{suffix}"
            write(path)
            print(f"{suffix}: {args.nodes} nodes + {args.pods} pods, {path.stat().st_size / 2**20:.0f} MiB")
            result = _timed(f"read ({suffix})", lambda: read_paths([str(path)]))
            plan, diags = _timed("build_inputs", lambda: build_inputs(result, ReadResult(), default_gates(get_release("1.37"))))
            print(f"records: {len(plan.existing)}, findings: {len(diags)}")


if __name__ == "__main__":
    main()

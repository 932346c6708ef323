"""wasplan beside upstream kube-scheduler (the oracle, `oracle/bin/oracle`) on the same inputs, both run as a
user runs them (a whole process, start to exit, `plan ... -o json`); prints pods/s of each and the ratio,
measured in one run (wall and CPU: CPU is the steadier figure on a shared machine), and wasplan's CPU per pod
(which should stay flat as a shape grows: compare `--scale 0.2` with the full size). Asserts nothing.

    PYTHONPATH=src python benchmarks/oracle_compare.py              # every shape
    PYTHONPATH=src python benchmarks/oracle_compare.py basic gangs  # some of them
    PYTHONPATH=src python benchmarks/oracle_compare.py --scale 0.2 basic   # a fifth of every count
    WASPLAN_ORACLE=/path/to/oracle python benchmarks/oracle_compare.py

Shapes (scheduler_perf's, as in benchmarks/plan.py, written as plain Kubernetes objects since the oracle reads
only what the scheduler sees):
* basic      SchedulingBasic: 5,000 nodes, 10,000 plain pods
* gangs      5,000 nodes, 1,000 gang PodGroups of 3 pods
* tas        5,000 nodes in racks of 16, 750 gangs of 4 pods kept to one rack (schedulingConstraints)
* preemption 1,000 nodes full of 4,000 low-priority 1-CPU pods, 1,000 high-priority 3-CPU preemptors
* dra        1,000 nodes publishing 8 devices each, 2,000 pods each claiming one through a template with a
             CEL selector
* bigdump    issue 33's production dump (benchmarks/bigdump.py: 3,000 GPU nodes, 21,000 running pods with
             everything `kubectl get -o json` writes, about 400 MB), read as JSON by both, and one gang of 16
             4-GPU pods (a PodGroup and its pods: the oracle reads no Jobs)
Both tools get the same release (1.37) and the same gates; the oracle runs with percentageOfNodesToScore 100
and parallelism 1 (its deterministic setting), which is slower than a production scheduler.
Each process gets --timeout seconds (default 1800: the full SchedulingBasic took 985 s of wall time on a
shared 2-CPU machine at load 12 to 21); one that runs out is reported as such. Without the oracle
binary it prints one line saying so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bigdump  # benchmarks/bigdump.py
from bytecode import compile_src  # benchmarks/bytecode.py
import dra  # benchmarks/dra.py

ROOT = Path(__file__).resolve().parent.parent
GATES = ("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true,"
         "PodGroupPreemptionPolicy=true,DRAWorkloadResourceClaims=true")


def node(name: str, cpu: int, memory: str, labels: dict[str, str] | None = None) -> str:
    extra = "".join(f", {k}: {v}" for k, v in (labels or {}).items())
    return (f"apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}{extra}}}}}\n"
            f"status: {{allocatable: {{cpu: '{cpu}', memory: {memory}, pods: '110'}}, "
            f"capacity: {{cpu: '{cpu}', memory: {memory}, pods: '110'}}}}\n")


def pod(name: str, cpu: str, memory: str, *, group: str | None = None, priority: str | None = None,
        node_name: str | None = None, claim: str | None = None) -> str:
    spec = []
    if group:
        spec.append(f"  schedulingGroup: {{podGroupName: {group}}}")
    if priority:
        spec.append(f"  priorityClassName: {priority}")
    if node_name:
        spec.append(f"  nodeName: {node_name}")
    if claim:
        spec.append(f"  resourceClaims: [{{name: dev, resourceClaimTemplateName: {claim}}}]")
    claims = ", claims: [{name: dev}]" if claim else ""
    spec.append(f"  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: '{cpu}', memory: {memory}}}"
                f"{claims}}}}}]")
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: bench}}\nspec:\n" + "\n".join(spec) + "\n"


def group(name: str, size: int, topology: str | None = None) -> str:
    constraint = f"\n  schedulingConstraints: {{topology: [{{key: {topology}}}]}}" if topology else ""
    return (f"apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {{name: {name}, namespace: bench}}\n"
            f"spec:\n  schedulingPolicy: {{gang: {{minCount: {size}}}}}{constraint}\n")


NAMESPACE = "apiVersion: v1\nkind: Namespace\nmetadata: {name: bench}\n"
PRIORITIES = ("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 0\n---\n"
              "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 100\n")
# benchmarks/dra.py's DeviceClass (cluster side) and ResourceClaimTemplate with a CEL selector (manifest side)
DRA_OBJECTS, TEMPLATE = (doc if doc.endswith("\n") else doc + "\n" for doc in dra.CLASS.split("---\n"))


def device_slice(name: str, count: int) -> str:
    devices = ", ".join(f"{{name: gpu-{i}, attributes: {{model: {{string: a100}}}}}}" for i in range(count))
    return (f"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: {name}-gpus}}\n"
            f"spec: {{driver: gpu.example.com, nodeName: {name}, pool: {{name: {name}, generation: 1, "
            f"resourceSliceCount: 1}}, devices: [{devices}]}}\n")


def shape(name: str, scale: float = 1.0) -> tuple[list[str], list[str], int]:
    """(cluster documents, manifest documents, pods to place); `scale` multiplies every count."""
    def n(count: int) -> int:
        return max(1, round(count * scale))
    if name == "basic":
        return ([NAMESPACE] + [node(f"node-{i:05d}", 32, "128Gi") for i in range(n(5000))],
                [pod(f"p-{i:06d}", "500m", "1Gi") for i in range(n(10_000))], n(10_000))
    if name == "gangs":
        docs = []
        for g in range(n(1000)):
            docs += [group(f"gang-{g:04d}", 3)] + [pod(f"gang-{g:04d}-{i}", "1", "2Gi", group=f"gang-{g:04d}")
                                                   for i in range(3)]
        return [NAMESPACE] + [node(f"node-{i:05d}", 32, "128Gi") for i in range(n(5000))], docs, 3 * n(1000)
    if name == "tas":
        nodes = [node(f"node-{i:05d}", 8, "32Gi", {"rack": f"rack-{i // 16:04d}"}) for i in range(n(5000))]
        docs = []
        for g in range(n(750)):
            docs += [group(f"tas-{g:04d}", 4, "rack")] + [pod(f"tas-{g:04d}-{i}", "2", "4Gi", group=f"tas-{g:04d}")
                                                         for i in range(4)]
        return [NAMESPACE] + nodes, docs, 4 * n(750)
    if name == "preemption":
        nodes = n(1000)
        cluster = [NAMESPACE, PRIORITIES] + [node(f"node-{i:05d}", 4, "32Gi") for i in range(nodes)]
        cluster += [pod(f"low-{i:05d}", "1", "1Gi", priority="low", node_name=f"node-{i % nodes:05d}")
                    for i in range(4 * nodes)]
        return cluster, [pod(f"high-{i:05d}", "3", "1Gi", priority="high") for i in range(nodes)], nodes
    if name == "dra":
        cluster = [NAMESPACE, DRA_OBJECTS]
        for i in range(n(1000)):
            cluster += [node(f"gpu-{i:04d}", 96, "768Gi"), device_slice(f"gpu-{i:04d}", 8)]
        return cluster, [TEMPLATE] + [pod(f"p-{i:05d}", "1", "1Gi", claim="one-gpu") for i in range(n(2000))], n(2000)
    if name == "bigdump":
        return [big_dump(n(bigdump.NODES), n(bigdump.PODS))], [group("gang-train", 16)] + [gpu_pod(i) for i in range(16)], 16
    raise KeyError(name)


def big_dump(nodes: int, pods: int) -> str:
    """benchmarks/bigdump.py's dump as kubectl's JSON, with the Namespaces its pods and the gang use."""
    data = bigdump.dump(nodes, pods)
    data["items"] += [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}
                      for ns in ("bench", "kube-system", "notebooks", "research", "serving")]
    return json.dumps(data, indent=4) + "\n"


def gpu_pod(i: int) -> str:
    """One member of the 16-pod gang: 4 GPUs, tolerating the GPU nodes' taint (as bigdump.py's Job asks)."""
    return (f"apiVersion: v1\nkind: Pod\nmetadata: {{name: gang-train-{i}, namespace: bench}}\nspec:\n"
            f"  schedulingGroup: {{podGroupName: gang-train}}\n"
            f"  tolerations: [{{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}}]\n"
            f"  containers: [{{name: main, image: trainer:1, resources: {{requests: {{cpu: '16', memory: 200Gi, "
            f"nvidia.com/gpu: '4'}}, limits: {{nvidia.com/gpu: '4'}}}}}}]\n")


SHAPES = ("basic", "gangs", "tas", "preemption", "dra", "bigdump")


def timed(cmd: list[str], timeout: float) -> tuple[float, float, str]:
    """Wall and CPU seconds of one child process; its stderr tail when it failed or ran out of time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, 0.0, f"did not finish within {timeout:.0f} s"
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    problem = "" if done.returncode in (0, 1) and done.stdout.strip() else f"exit {done.returncode}: {done.stderr[-400:]}"
    return wall, cpu, problem


def run(name: str, oracle: str, scale: float, timeout: float) -> None:
    cluster_docs, manifest_docs, pods = shape(name, scale)
    with tempfile.TemporaryDirectory() as tmp:
        json_dump = len(cluster_docs) == 1 and cluster_docs[0].startswith("{")
        cluster = Path(tmp) / ("cluster.json" if json_dump else "cluster.yaml")
        manifests = Path(tmp) / "manifests.yaml"
        cluster.write_text("---\n".join(cluster_docs))
        manifests.write_text("---\n".join(manifest_docs))
        common = [str(manifests), "--cluster", str(cluster), "--k8s-version", "1.37", "--feature-gates", GATES,
                  "--arrival", "batch", "-o", "json"]
        ours = timed([sys.executable, "-m", "wasplan", "plan", *common, "--fail-on", "never"], timeout)
        theirs = timed([oracle, "plan", *common], timeout)
    for who, (wall, cpu, problem) in (("wasplan", ours), ("oracle", theirs)):
        if problem:
            print(f"{name:11s} scale {scale:g} {who:8s} failed: {problem}", flush=True)
    if ours[2] or theirs[2]:
        return
    label = name if scale == 1 else f"{name}x{scale:g}"
    print(f"{label:11s} pods={pods:6d} wasplan {pods / ours[0]:8.0f} pods/s ({ours[0]:6.2f}s wall, {ours[1]:6.2f}s cpu, "
          f"{1000 * ours[1] / pods:6.2f} ms cpu/pod)  oracle {pods / theirs[0]:8.0f} pods/s ({theirs[0]:6.2f}s wall, "
          f"{theirs[1]:6.2f}s cpu)  speed wasplan/oracle {theirs[0] / ours[0]:5.2f}x wall, "
          f"{theirs[1] / max(ours[1], 1e-9):5.2f}x cpu", flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="wasplan beside the upstream oracle, pods/s of each")
    parser.add_argument("shapes", nargs="*", choices=[[], *SHAPES], metavar="SHAPE", help=", ".join(SHAPES))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count (nodes, pods, groups)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds each process may take")
    args = parser.parse_args(argv)
    compile_src()
    oracle = os.environ.get("WASPLAN_ORACLE") or str(ROOT / "oracle" / "bin" / "oracle")
    if not os.access(oracle, os.X_OK):
        print(f"skipped: no oracle binary at {oracle} (build it with oracle/build, or set WASPLAN_ORACLE)")
        return
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()} {os.cpu_count()} cpus, "
          f"load {os.getloadavg()[0]:.1f}, scale {args.scale:g}", flush=True)
    for name in args.shapes or SHAPES:
        run(name, oracle, args.scale, args.timeout)


if __name__ == "__main__":
    main(sys.argv[1:])

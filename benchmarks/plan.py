"""Throughput of the offline scheduler on generated clusters; prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/plan.py            # every scenario, each in its own process
    PYTHONPATH=src python benchmarks/plan.py plain-5000  # one scenario

Scenarios: 5,000 nodes x 50,000 plain pods; scheduler_perf's gang shapes (5,000 nodes x 1,000 and 3,000 gangs of
3 pods; 5,000 nodes x 9 gangs of 1,000); scheduler_perf TopologySpreading's shape (5,000 nodes x 5,000 pods
with a zone spread constraint); one-per-node anti-affinity (5,000 x 5,000); scheduler_perf's topology shapes
(5,000 nodes in racks of 16 with 750 / 2,250 gangs of 4 pods kept to a rack; 500 / 1,500 two-level
CompositePodGroups, a rack-constrained root over two gangs of 2); preemption (scheduler_perf PreemptionAsync:
5,000 nodes full of 20,000 low-priority pods, 5,000 high-priority preemptors; PreemptionPodGroupDisruptionMode:
1,000 nodes, 10,000 victims in 1,000 disruptionMode-all groups, 100 gang preemptors of 4 pods, or 100 plain
3970m preemptor pods as upstream); node scaling at 1,000 / 5,000 / 15,000 nodes with 10,000 pods; the same
5,000 x 10,000 with images (`images-5000x10000`: 40 images per node out of 200, each pod one of them, an init
container's image on every third, so ImageLocality scores every pod); and the memory case 5,000 nodes + 100,000
pods. `e2e-<nodes>x<pods>` runs the whole `wasplan plan` pipeline from YAML files; `e2e-images-<nodes>x<pods>`
the same with Node objects listing images and pods running them. Each prints pods/s, wall and CPU time (the CPU figure is steadier on a shared machine) and the
process's peak RSS.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wasplan.api import hub
from wasplan.cluster.model import (Affinity, Group, LabelSelector, Node, NodeImage, PlanInputs, Pod, PodAffinityTerm,
                                  PodImages, TopologySpreadConstraint)
from wasplan.engine.profile.options import EngineOptions
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


IMAGE_POOL = 200  # distinct application images in the cluster
IMAGES_PER_NODE = 40  # what each node lists (the kubelet reports up to 50 by default), each under two names


def _image(k: int) -> tuple[str, int]:
    return f"registry.example.com/team-{k % 17}/app-{k}:1.{k % 5}", (50 + 37 * k % 1500) * 2**20


def imaged_nodes(count: int) -> list[Node]:
    """`nodes(count)`, each listing IMAGES_PER_NODE images of the pool (a tag and a digest name each): popular
    images (low numbers) are on many nodes, the rest on a few."""
    out = nodes(count)
    for i, node in enumerate(out):
        picks = sorted({(i * 7 + j * j * 13) % (IMAGE_POOL if j % 2 else 20) for j in range(IMAGES_PER_NODE)})
        node.images = tuple(NodeImage((_image(k)[0], f"registry.example.com/app-{k}@sha256:{k:064x}"), _image(k)[1])
                            for k in picks)
    return out


def imaged_pods(count: int) -> list[Pod]:
    """`plain_pods(count)`, each running one image of the pool (an init container's image too, every third)."""
    out = plain_pods(count)
    for i, pod in enumerate(out):
        main = _image(i % IMAGE_POOL)[0]
        pod.images = PodImages((_image((i + 1) % 20)[0], main) if i % 3 == 0 else (main,))
    return out


def spread_pods(count: int) -> list[Pod]:
    """scheduler_perf TopologySpreading's shape: every pod spreads over zones, DoNotSchedule, maxSkew 1."""
    selector = LabelSelector((("app", "spread"),))
    constraint = TopologySpreadConstraint(1, "zone", "DoNotSchedule", selector)
    req = {"cpu": 100, "memory": GIB // 4}
    return [Pod("bench", f"s-{i:06d}", dict(req), dict(req), labels={"app": "spread"}, topology_spread=(constraint,))
            for i in range(count)]


def anti_affinity_pods(count: int) -> list[Pod]:
    """One pod per node: required anti-affinity to its own app on kubernetes.io/hostname."""
    term = PodAffinityTerm(LabelSelector((("app", "one-per-node"),)), "kubernetes.io/hostname")
    req = {"cpu": 100, "memory": GIB // 4}
    return [Pod("bench", f"a-{i:06d}", dict(req), dict(req), labels={"app": "one-per-node"},
                affinity=Affinity(anti_required=(term,))) for i in range(count)]


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


def rack_nodes(count: int, rack_size: int = 16) -> list[Node]:
    """scheduler_perf's topology shape: racks of 16 nodes, four racks to a zone; 8 CPU per node."""
    return [Node(f"node-{i:05d}", {"kubernetes.io/hostname": f"node-{i:05d}", "rack": f"rack-{i // rack_size:04d}",
                                   "zone": f"zone-{i // (rack_size * 4):03d}"},
                 {"cpu": 8000, "memory": 32 * GIB, "pods": 110})
            for i in range(count)]


def _pod_group(name: str, size: int, keys=(), parent=None) -> Group:
    policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=size)
    obj = hub.PodGroup(metadata={"name": name, "namespace": "bench"}, policy=policy, topology_keys=tuple(keys),
                       parent_composite=parent)
    return Group("bench", name, obj)


def _members(name: str, size: int) -> list[Pod]:
    req = {"cpu": 2000, "memory": 4 * GIB}
    return [Pod("bench", f"{name}-{i:02d}", dict(req), dict(req), pod_group=name) for i in range(size)]


def rack_gangs(groups: int, size: int = 4) -> list:
    """Gangs that must each fit in one rack (schedulingConstraints.topology: rack)."""
    out: list = []
    for g in range(groups):
        name = f"tas-{g:05d}"
        out += [_pod_group(name, size, ("rack",)), *_members(name, size)]
    return out


def composites(count: int) -> list:
    """Two-level trees: a rack-constrained root (minGroupCount 2) over two gangs of 2 pods."""
    out: list = []
    for c in range(count):
        root = f"cpg-{c:05d}"
        policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_group_count=2)
        out.append(Group("bench", root, hub.CompositePodGroup(
            metadata={"name": root, "namespace": "bench"}, policy=policy, topology_keys=("rack",),
            workload_ref=hub.WorkloadRef(workload_name=root, template_name="root"))))
        for part in ("a", "b"):
            name = f"{root}-{part}"
            out += [_pod_group(name, 2, parent=root), *_members(name, 2)]
    return out


def small_nodes(count: int) -> list[Node]:
    """scheduler_perf's default node: 4 CPUs, 32 GiB, 110 pods."""
    return [Node(f"node-{i:05d}", {"kubernetes.io/hostname": f"node-{i:05d}"},
                 {"cpu": 4000, "memory": 32 * GIB, "pods": 110}) for i in range(count)]


def preemption_basic(node_count: int, low: int, high: int) -> tuple[list, list]:
    """scheduler_perf PreemptionAsync's shape: every node full of 1-CPU low-priority pods; each 3-CPU
    high-priority preemptor must evict three of them."""
    cluster: list = small_nodes(node_count)
    for i in range(low):
        req = {"cpu": 1000, "memory": GIB}
        cluster.append(Pod("bench", f"low-{i:06d}", req, dict(req), priority=0, node_name=f"node-{i % node_count:05d}"))
    arrivals = []
    for i in range(high):
        req = {"cpu": 3000, "memory": GIB}
        arrivals.append(Pod("bench", f"high-{i:06d}", req, dict(req), priority=100))
    return cluster, arrivals


def preemption_groups(node_count: int, victims: int, group_size: int, preemptors: int, gang: int,
                      plain: bool = False) -> tuple[list, list]:
    """scheduler_perf PreemptionPodGroupDisruptionMode's shape: victims in disruptionMode-all PodGroups spread
    over consecutive nodes, filling them; preemptors are gangs of `gang` pods of 3970m (one per node), or with
    `plain` single 3970m pods, as upstream's config has them (DefaultPreemption evicting whole groups)."""
    cluster: list = small_nodes(node_count)
    share = 4000 // (victims // node_count)
    for g in range(victims // group_size):
        name = f"victims-{g:05d}"
        policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=group_size)
        cluster.append(Group("bench", name, hub.PodGroup(metadata={"name": name, "namespace": "bench"}, policy=policy,
                                                          priority=0, disruption_mode=hub.DisruptionMode.ALL)))
    for k in range(victims):
        req = {"cpu": share, "memory": GIB}
        cluster.append(Pod("bench", f"victim-{k:06d}", req, dict(req), priority=0,
                           pod_group=f"victims-{k // group_size:05d}",
                           node_name=f"node-{k % node_count:05d}"))
    arrivals: list = []
    if plain:
        req = {"cpu": 3970, "memory": GIB}
        return cluster, [Pod("bench", f"preemptor-{g:04d}", dict(req), dict(req), priority=100)
                         for g in range(preemptors)]
    for g in range(preemptors):
        name = f"preemptor-{g:04d}"
        policy = hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=gang)
        arrivals.append(Group("bench", name, hub.PodGroup(metadata={"name": name, "namespace": "bench"}, policy=policy,
                                                           priority=100)))
        for i in range(gang):
            req = {"cpu": 3970, "memory": GIB}
            arrivals.append(Pod("bench", f"{name}-{i}", req, dict(req), priority=100, pod_group=name))
    return cluster, arrivals


def _node_docs(node_count: int) -> str:
    """`imaged_nodes(node_count)` as `kubectl get nodes -o yaml` writes them (status.images included)."""
    docs = []
    for node in imaged_nodes(node_count):
        images = "".join(f"\n    - names: [{', '.join(i.names)}]\n      sizeBytes: {i.size}" for i in node.images)
        docs.append(f"""apiVersion: v1
kind: Node
metadata:
  name: {node.name}
  labels: {{kubernetes.io/hostname: {node.name}, zone: {node.labels['zone']}}}
status:
  allocatable: {{cpu: "32", memory: 128Gi, pods: "110", ephemeral-storage: 500Gi}}
  images:{images}
""")
    return "---\n".join(docs)


def write_inputs(root: Path, node_count: int, pod_count: int, images: bool = False) -> tuple[Path, Path]:
    """A compact Cluster kind with `node_count` nodes and one manifest file with `pod_count` plain pods; with
    `images`, Node objects listing images and pods running images of the same pool."""
    cluster = root / "cluster.yaml"
    if images:
        cluster.write_text(_node_docs(node_count))
    else:
        cluster.write_text(f"""apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {{name: bench}}
spec:
  nodePools:
  - name: pool
    count: {node_count}
    namePattern: "node-{{index}}"
    labels: {{zone: "zone-{{index % 3}}"}}
    allocatable: {{cpu: 32, memory: 128Gi, pods: 110}}
""")
    docs = [f"""apiVersion: v1
kind: Pod
metadata: {{name: p-{i:06d}, namespace: bench}}
spec:
  containers:
  - name: main
    image: {_image(i % IMAGE_POOL)[0] if images else "app:1"}
    resources: {{requests: {{cpu: 500m, memory: 1Gi}}}}
""" for i in range(pod_count)]
    manifests = root / "pods.yaml"
    manifests.write_text("---\n".join(docs))
    return cluster, manifests


def run_end_to_end(node_count: int, pod_count: int, images: bool = False) -> None:
    """The whole `wasplan plan` pipeline: read, validate, build records, simulate."""
    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest

    with tempfile.TemporaryDirectory() as tmp:
        cluster, manifests = write_inputs(Path(tmp), node_count, pod_count, images)
        start, cpu_start = time.perf_counter(), time.process_time()
        run = run_plan(PlanRequest([str(manifests)], [str(cluster)], default_gates(get_release("1.37"))))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    assert run.plan is not None, [d.message for d in run.diagnostics][:3]
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    name = f"e2e-{'images-' if images else ''}{node_count}x{pod_count}"
    print(f"{name:22s} pods={pod_count:7d} bound={run.plan.count('Bound'):7d} "
          f"time={elapsed:7.2f}s cpu={cpu:7.2f}s pods/s={pod_count / elapsed:9.0f} "
          f"us/pod={elapsed / pod_count * 1e6:7.1f} peakRSS={peak_mib:7.0f}MiB", flush=True)


SCENARIOS = {
    "plain-5000x50000": lambda: (nodes(5000), plain_pods(50_000)),
    "gangs-5000x1000x3": lambda: (nodes(5000), gangs(1000, 3)),
    "gangs-5000x3000x3": lambda: (nodes(5000), gangs(3000, 3)),
    "gangs-5000x9x1000": lambda: (nodes(5000), gangs(9, 1000)),
    "spread-5000x5000": lambda: (nodes(5000), spread_pods(5000)),
    "anti-affinity-5000x5000": lambda: (nodes(5000), anti_affinity_pods(5000)),
    "tas-5000x750x4": lambda: (rack_nodes(5000), rack_gangs(750)),
    "tas-5000x2250x4": lambda: (rack_nodes(5000), rack_gangs(2250)),
    "cpg-5000x500": lambda: (rack_nodes(5000), composites(500)),
    "cpg-5000x1500": lambda: (rack_nodes(5000), composites(1500)),
    "scale-1000": lambda: (nodes(1000), plain_pods(10_000)),
    "scale-5000": lambda: (nodes(5000), plain_pods(10_000)),
    "images-5000x10000": lambda: (imaged_nodes(5000), imaged_pods(10_000)),
    "scale-15000": lambda: (nodes(15000), plain_pods(10_000)),
    "memory-5000x100000": lambda: (nodes(5000), plain_pods(100_000)),
    "preemption-5000x20000x5000": lambda: preemption_basic(5000, 20_000, 5000),
    "preemption-groups-1000x10000x100": lambda: preemption_groups(1000, 10_000, 10, 100, 4),
    "preemption-disruption-1000x10000x100": lambda: preemption_groups(1000, 10_000, 10, 100, 0, plain=True),
}


def run_one(name: str) -> None:
    if name.startswith("e2e-"):
        images = name.startswith("e2e-images-")
        nodes_part, pods_part = name.removeprefix("e2e-").removeprefix("images-").split("x")
        run_end_to_end(int(nodes_part), int(pods_part), images)
        return
    cluster, arrivals = SCENARIOS[name]()
    pod_count = sum(1 for a in arrivals if isinstance(a, Pod))
    start, cpu_start = time.perf_counter(), time.process_time()
    plan, _ = simulate(PlanInputs(list(cluster), arrivals), EngineOptions())
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    bound = plan.count("Bound")
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if plan.preemptions:
        print(f"{name:22s} preemptions={len(plan.preemptions)} victims={plan.count('Preempted')}", flush=True)
    print(f"{name:22s} pods={pod_count:7d} bound={bound:7d} time={elapsed:7.2f}s "
          f"cpu={cpu:7.2f}s pods/s={pod_count / elapsed:9.0f} us/pod={elapsed / pod_count * 1e6:7.1f} "
          f"peakRSS={peak_mib:7.0f}MiB",
          flush=True)


def main(argv: list[str]) -> None:
    wanted = argv or [*SCENARIOS, "e2e-5000x10000", "e2e-images-5000x10000"]
    unknown = [w for w in wanted if w not in SCENARIOS and not w.startswith("e2e-")]
    if unknown:
        print(__doc__)
        print("scenarios: " + ", ".join([*SCENARIOS, "e2e-<nodes>x<pods>", "e2e-images-<nodes>x<pods>"]))
        raise SystemExit(0 if unknown == ["--help"] else 2)
    if len(wanted) == 1:
        run_one(wanted[0])
        return
    for name in wanted:
        subprocess.run([sys.executable, __file__, name], check=False)


if __name__ == "__main__":
    main(sys.argv[1:])

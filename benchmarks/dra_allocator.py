"""Throughput of the DRA library alone (no engine): scheduler_perf's DRA shape scaled to this machine.

    PYTHONPATH=src python benchmarks/dra_allocator.py

5,000 nodes with 8 devices each (one ResourceSlice per node, as a kubelet plugin publishes them) and 10,000 claims
of one device each through a class selector and a request CEL selector. Per claim: the vectorised pre-check over
all nodes, the search on the first feasible node (standing in for the engine's scoring), and Reserve into the
ledger. Three device layouts: the Cluster kind's one record per device shape; distinct records with equal
content (CEL results are cached by content, so both evaluate each selector once per shape); and every device with
its own `uuid` attribute, as real drivers publish (one evaluation per device and selector). A third run filters every node with the search (no pre-check), on 20 claims, to show what the pre-check saves. Prints CPU seconds (`time.process_time`); asserts nothing.
"""

from __future__ import annotations

import time

from wasplan.cluster.devices import (
    Attribute, Capacity, ClaimSpec, Device, DeviceClass, DeviceRequest, NodeSelection, RequestSpec, ResourceClaim,
    ResourceSlice,
)
from wasplan.cluster.model import Node
from wasplan.engine.dra import Allocator, Precheck

DRIVER = "gpu.example.com"
GI = 2**30


def devices(n: int, uuid: str | None = None) -> tuple[Device, ...]:
    out = []
    for i in range(n):
        attrs = {"model": Attribute("string", "a100" if i % 2 else "h100"), "index": Attribute("int", i)}
        if uuid is not None:
            attrs["uuid"] = Attribute("string", f"{uuid}-{i}")
        out.append(Device(f"gpu-{i}", attrs, {"memory": Capacity(80 * GI)}))
    return tuple(out)


def cluster(nodes: int, per_node: int, layout: str) -> tuple[list[Node], list[ResourceSlice]]:
    shape = devices(per_node)
    ns = [Node(f"node-{i:05d}", {"kubernetes.io/hostname": f"node-{i:05d}"}, {}) for i in range(nodes)]
    per_slice = {"shared": lambda n: shape, "distinct": lambda n: devices(per_node),
                 "unique": lambda n: devices(per_node, uuid=n.name)}[layout]
    slices = [ResourceSlice(f"{n.name}-{DRIVER}", DRIVER, n.name, 1, 1, NodeSelection(node_name=n.name),
                            devices=per_slice(n)) for n in ns]
    return ns, slices


def claims(count: int) -> list[ResourceClaim]:
    spec = ClaimSpec((DeviceRequest("gpu", exactly=RequestSpec(
        "gpu", "gpu", ('device.attributes["gpu.example.com"].model == "a100"',))),))
    return [ResourceClaim("default", f"pod-{i}-gpu", spec) for i in range(count)]


GPU_CLASS = DeviceClass("gpu", (f'device.driver == "{DRIVER}"',))


LAYOUTS = {"shared": "one device record shared by every node (Cluster kind)",
           "distinct": "distinct records with equal content",
           "unique": "every device with its own uuid attribute (a real snapshot)"}


def with_precheck(nodes: int, per_node: int, count: int, layout: str) -> None:
    start = time.process_time()
    ns, slices = cluster(nodes, per_node, layout)
    allocator = Allocator(slices, [GPU_CLASS])
    pre = Precheck(allocator, ns)
    built = time.process_time()
    placed = 0
    for claim in claims(count):
        result = pre.check([claim])
        feasible = result.feasible.nonzero()[0]
        if not len(feasible):
            continue
        found = allocator.allocate(ns[int(feasible[0])], [claim])
        allocator.ledger.add(found.allocations[0].results)
        placed += 1
    end = time.process_time()
    print(f"{nodes:,} nodes x {per_node} devices, {count:,} claims, {LAYOUTS[layout]}: setup {built - start:.2f} s, "
          f"allocate {end - built:.2f} s CPU, {placed:,} placed, {allocator.cel.evaluations:,} CEL evaluations")


def search_only(nodes: int, per_node: int, count: int) -> None:
    """What Filter costs without the pre-check: the search on every node, then Reserve on the first fit."""
    ns, slices = cluster(nodes, per_node, "shared")
    allocator = Allocator(slices, [GPU_CLASS])
    start = time.process_time()
    for claim in claims(count):
        fits = [found for n in ns if (found := allocator.allocate(n, [claim])) is not None]
        if fits:
            allocator.ledger.add(fits[0].allocations[0].results)
    print(f"{nodes:,} nodes x {per_node} devices, {count:,} claims, search on every node (no pre-check): "
          f"{time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    for layout in LAYOUTS:
        with_precheck(5000, 8, 10_000, layout)
    search_only(5000, 8, 20)

"""Container images for generated cases: `status.images` on nodes, images, init containers and image volumes on
pending pods, for ImageLocality (upstream pkg/scheduler/framework/plugins/imagelocality).

`decorate(case_world, rng)` runs after a theme has built its case, with a random source of its own
(`Random(f"{seed}/{release}/images")`), so every other draw of every case is what it was before images existed,
and half of the cases (by that source) get no images at all: those are byte for byte the cases of before.

The pool mixes what the plugin's arithmetic distinguishes: sizes below the 23 MiB floor, inside the range and
above the 1000 MiB-per-container ceiling; references without a tag (the plugin appends `:latest`, and nodes list
the `:latest` name); a node name with a `docker.io/library/` prefix that the pod's short name must not match;
images listed under a second name (a digest) on the node. Every node lists an image with the same size, so the
size upstream's cache keeps does not depend on the order nodes reach it. An init container requests exactly what
the pod's one container requests, so the larger of the two (the effective and the non-zero requests) is unchanged.
"""

from __future__ import annotations

import copy
import random

MIB = 1024 * 1024
# (the reference a pod writes, the names a node lists it under, its size)
POOL = (
    ("example.com/web:1", ("example.com/web:1",), 300 * MIB),
    ("example.com/db:1", ("example.com/db:1", "example.com/db@sha256:d1"), 900 * MIB),
    ("example.com/cache:1", ("example.com/cache:1",), 60 * MIB),
    ("example.com/trainer", ("example.com/trainer:latest",), 2500 * MIB),
    ("example.com/tiny:3", ("example.com/tiny:3",), 5 * MIB),
    ("nginx:1.27", ("docker.io/library/nginx:1.27",), 180 * MIB),
    ("registry:5000/tools:2", ("registry:5000/tools:2",), 700 * MIB),
)


def _node_images(rng: random.Random) -> list[dict]:
    chosen = rng.sample(POOL, rng.randint(1, len(POOL)))
    return [{"names": list(names), "sizeBytes": size} for _, names, size in chosen]


def _decorate_pod(spec: dict, rng: random.Random) -> None:
    main = spec["containers"][0]
    if rng.random() < 0.8:
        main["image"] = rng.choice(POOL)[0]
    if rng.random() < 0.25:
        init = {"name": "init", "image": rng.choice(POOL)[0]}
        if "resources" in main:
            init["resources"] = copy.deepcopy(main["resources"])
        spec["initContainers"] = [init]
    if rng.random() < 0.2:
        spec["volumes"] = [{"name": "data", "image": {"reference": rng.choice(POOL)[0]}}]
        main["volumeMounts"] = [{"name": "data", "mountPath": "/data"}]


def decorate(nodes: list[dict], manifests: list[dict], rng: random.Random) -> None:
    """Images on some nodes and on the pending pods, or (half of the time) nothing at all."""
    if rng.random() < 0.5:
        return
    for node in nodes:
        if rng.random() < 0.7:
            node["status"]["images"] = _node_images(rng)
    for doc in manifests:
        if doc.get("kind") == "Pod" and not doc["spec"].get("nodeName"):
            _decorate_pod(doc["spec"], rng)

"""ImageLocality (engine/plugins/image_locality.py) on real manifests: Nodes with `status.images` as
`kubectl get nodes -o yaml` writes them, Pods with containers, init containers and image volumes. The expected
scores are upstream's (imagelocality/image_locality.go); each one below was also produced by `oracle evaluate`
(the upstream plugin itself) on the same files when the test was written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.cli.helpers import run
from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.model import Pod
from wasplan.engine.profile import registry
from wasplan.engine.plugins.image_locality import normalized
from wasplan.engine.simulator import Simulator
from wasplan.pipeline.plan import prepare_plan
from wasplan.pipeline.requests import PlanRequest

MIB = 1024 * 1024


def node(name: str, images: list[tuple[list[str], int]] = (), cpu: str = "8") -> str:
    listed = "".join(f"\n    - names: {json.dumps(names)}\n      sizeBytes: {size}" for names, size in images)
    listed = "\n  images:" + listed if images else ""
    return f"""\
apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{kubernetes.io/hostname: {name}}}
status:
  allocatable: {{cpu: "{cpu}", memory: 32Gi, pods: "110"}}{listed}
"""


def pod(name: str, image: str, *, init: str | None = None, volume: str | None = None, group: str | None = None,
        cpu: str = "1") -> str:
    init_part = f"\n  initContainers:\n  - name: init\n    image: {init}" if init else ""
    volume_part = (f"\n  volumes:\n  - name: data\n    image: {{reference: \"{volume}\"}}" if volume else "")
    mount = "\n    volumeMounts: [{name: data, mountPath: /data}]" if volume else ""
    group_part = f"\n  schedulingGroup: {{podGroupName: {group}}}" if group else ""
    return f"""\
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:{group_part}{init_part}
  containers:
  - name: main
    image: {image}
    resources:
      requests: {{cpu: "{cpu}", memory: 1Gi}}{mount}{volume_part}
"""


def write(tmp_path: Path, nodes: list[str], pods: list[str]) -> tuple[str, str]:
    (tmp_path / "cluster.yaml").write_text("---\n".join(nodes))
    (tmp_path / "pods.yaml").write_text("---\n".join(pods))
    return str(tmp_path / "pods.yaml"), str(tmp_path / "cluster.yaml")


def verdict(tmp_path: Path, nodes: list[str], one_pod: str, version: str = "1.37"):
    """(the node names, the engine's static verdict for the one pod) on the cluster of `nodes`."""
    manifests, cluster = write(tmp_path, nodes, [one_pod])
    prepared = prepare_plan(PlanRequest([manifests], [cluster], default_gates(get_release(version))))
    sim = Simulator(prepared.inputs, prepared.options)
    (p,) = [r for r in sim.arrivals if isinstance(r, Pod)]
    return sim.state.node_names, sim.evaluators[p.scheduler_name].static_verdict(p)


def scores(tmp_path: Path, nodes: list[str], one_pod: str, version: str = "1.37") -> dict[str, int]:
    """ImageLocality's score per node for the one pod, as the engine's static verdict (and so the total score
    that the per-plugin comparison reads) holds it."""
    names, sv = verdict(tmp_path, nodes, one_pod, version)
    got = sv.raw.get("ImageLocality", np.zeros(len(names), dtype=np.int64))
    return dict(zip(names, got.tolist()))


def plan(tmp_path: Path, nodes: list[str], pods: list[str], *extra: str) -> dict:
    manifests, cluster = write(tmp_path, nodes, pods)
    result = run("plan", manifests, "--cluster", cluster, "-o", "json", *extra)
    assert result.exit_code == 0, result.stdout
    return json.loads(result.stdout)


TRAINER = "registry.example.com/trainer:2.1"


def test_the_pod_goes_to_the_only_node_holding_its_image(tmp_path):
    # three equal nodes; without images the name tie-break would take a
    bare = [node("a"), node("b"), node("c")]
    assert [p["node"] for p in plan(tmp_path, bare, [pod("t", TRAINER)])["pods"]] == ["a"]
    nodes = [node("a"), node("b", [(["registry.example.com/trainer:2.0"], 800_000_000)]),
             node("c", [([TRAINER, "registry.example.com/trainer@sha256:aa"], 800_000_000)])]
    assert [p["node"] for p in plan(tmp_path, nodes, [pod("t", TRAINER)])["pods"]] == ["c"]


def test_score_is_size_times_spread_clamped_and_scaled(tmp_path):
    # 800000000 bytes on one of three nodes: 266666666 after the spread, (266666666 - 23 MiB) * 100 / 977 MiB = 23
    nodes = [node("a"), node("b"), node("c", [([TRAINER], 800_000_000)])]
    assert scores(tmp_path, nodes, pod("t", TRAINER)) == {"a": 0, "b": 0, "c": 23}
    # on every node: no spread discount, 75 everywhere
    nodes = [node(n, [([TRAINER], 800_000_000)]) for n in "abc"]
    assert scores(tmp_path, nodes, pod("t", TRAINER)) == {"a": 75, "b": 75, "c": 75}
    # 3 GiB at half spread is above the 1000 MiB ceiling of one container; 20 MiB is below the 23 MiB floor
    nodes = [node("a", [([TRAINER], 3 * 1024 * MIB)]), node("b")]
    assert scores(tmp_path, nodes, pod("t", TRAINER)) == {"a": 100, "b": 0}
    nodes = [node("a", [([TRAINER], 20 * MIB)]), node("b", [([TRAINER], 20 * MIB)])]
    assert scores(tmp_path, nodes, pod("t", TRAINER)) == {"a": 0, "b": 0}


def test_a_score_equal_on_every_node_leaves_the_ranking_to_the_other_plugins(tmp_path):
    _, sv = verdict(tmp_path, [node(n, [([TRAINER], 800_000_000)]) for n in "abc"], pod("t", TRAINER))
    assert sv.raw["ImageLocality"].tolist() == [75, 75, 75] and not sv.scored
    _, sv = verdict(tmp_path, [node("a"), node("b", [([TRAINER], 800_000_000)])], pod("t", TRAINER))
    assert sv.raw["ImageLocality"].tolist() == [0, 36] and sv.scored


def test_names_are_normalised_as_upstream_does_and_no_further():
    assert normalized("example.com/trainer") == "example.com/trainer:latest"
    assert normalized("registry:5000/tools") == "registry:5000/tools:latest"  # the port is not a tag
    assert normalized("registry:5000/tools:2") == "registry:5000/tools:2"
    assert normalized("nginx@sha256:abc") == "nginx@sha256:abc"
    assert normalized("nginx") == "nginx:latest"


def test_untagged_references_match_latest_and_short_names_do_not_match_docker_io(tmp_path):
    nodes = [node("a", [(["example.com/trainer:latest"], 1000 * MIB)]),
             node("b", [(["docker.io/library/nginx:1.27"], 1000 * MIB)])]
    assert scores(tmp_path, nodes, pod("t", "example.com/trainer")) == {"a": 48, "b": 0}
    assert scores(tmp_path, nodes, pod("web", "nginx:1.27")) == {"a": 0, "b": 0}


def test_init_containers_add_their_image_and_raise_the_ceiling(tmp_path):
    nodes = [node("a", [([TRAINER], 1000 * MIB)]), node("b", [(["example.com/setup:1"], 1000 * MIB)])]
    # two containers: the ceiling is 2000 MiB; each node holds one of the two images at half spread (500 MiB)
    got = scores(tmp_path, nodes, pod("t", TRAINER, init="example.com/setup:1"))
    assert got == {"a": 24, "b": 24}  # (500 - 23) * 100 / (2000 - 23)


@pytest.mark.parametrize(("version", "expected"), [("1.36", {"a": 100, "b": 100}), ("1.37", {"a": 49, "b": 74})])
def test_image_volumes_add_their_size_and_from_1_37_their_count(tmp_path, version, expected):
    model = "example.com/model:7"
    nodes = [node("a", [([model], 1000 * MIB)]),
             node("b", [([TRAINER], 1000 * MIB), ([model], 1000 * MIB), (["example.com/shared:1"], 100 * MIB)])]
    # a: the model at full spread (1000 MiB); b: the model and the trainer at half spread (1500 MiB). 1.36
    # clamps both at the one-container ceiling; 1.37 counts the volume: (x - 23) * 100 / (2000 - 23)
    assert scores(tmp_path, nodes, pod("v", TRAINER, volume=model), version) == expected


def test_the_size_is_the_first_listed_nodes(tmp_path):
    # two nodes list one name with different sizes: the scheduler's cache keeps the size of the node it added
    # first (the one created first), and counts both nodes
    image = "example.com/size:1"
    big, small = node("a", [([image], 1000 * MIB)]), node("b", [([image], 100 * MIB)])
    assert scores(tmp_path, [big, small], pod("s", image)) == {"a": 100, "b": 100}
    assert scores(tmp_path, [small, big], pod("s", image)) == {"a": 7, "b": 7}


def test_no_images_on_any_node_scores_nothing(tmp_path):
    nodes = [node("a"), node("b")]
    assert scores(tmp_path, nodes, pod("t", TRAINER, init="x:1", volume="y:1")) == {"a": 0, "b": 0}


def test_the_images_are_part_of_the_shape_key(tmp_path):
    manifests, cluster = write(tmp_path, [node("a")], [pod("x", "img:1"), pod("y", "img:2"), pod("z", "img:1")])
    prepared = prepare_plan(PlanRequest([manifests], [cluster], default_gates(get_release("1.37"))))
    x, y, z = [r for r in prepared.inputs.arrivals if isinstance(r, Pod)]
    assert registry.shape_key(x) == registry.shape_key(z) != registry.shape_key(y)


def test_gang_batching_does_not_take_a_member_with_an_image_for_one_without(tmp_path):
    # eight members of one gang (batching needs six): the first four run an image no node has, the last four one
    # that the b nodes hold. Batched as one signature, the last four would follow the first four's resource-only
    # ranking onto the a nodes; with the images in the signature they go to the b nodes. (The first four's nodes
    # are ties upstream breaks at random: the oracle puts them on other nodes of the same tied sets.)
    image = "example.com/trainer:3"
    nodes = [node(f"a-{i}") for i in range(3)] + [node(f"b-{i}", [([image], 900 * MIB)]) for i in range(3)]
    group = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train, namespace: default}
spec:
  schedulingPolicy:
    gang: {minCount: 8}
"""
    members = [pod(f"m-{i}", "example.com/other:1" if i < 4 else image, group="train", cpu="2") for i in range(8)]
    doc = plan(tmp_path, nodes, [group, *members])
    placed = {p["name"]: p["node"] for p in doc["pods"]}
    assert placed == {"m-0": "a-0", "m-1": "a-1", "m-2": "a-2", "m-3": "b-0",
                      "m-4": "b-1", "m-5": "b-2", "m-6": "b-0", "m-7": "b-1"}


def test_a_jobs_pods_take_the_image_of_its_template(tmp_path):
    job = f"""\
apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: default}}
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: {TRAINER}
        resources:
          requests: {{cpu: "1", memory: 1Gi}}
"""
    nodes = [node("a"), node("b"), node("c", [([TRAINER], 900 * MIB)])]
    doc = plan(tmp_path, nodes, [job])
    assert sorted(p["node"] for p in doc["pods"]) == ["c", "c"]

"""The image part of the node and pod readers: `status.images` as the kubelet reports it, and the image of every
init container, container and image volume of a pod (ImageLocality's inputs, engine/plugins/image_locality.py)."""

from wasplan.cluster.model import NO_IMAGES, NodeImage, PodImages
from .helpers import record


def test_node_images_keep_every_name_and_the_size():
    node, diags = record("""\
apiVersion: v1
kind: Node
metadata: {name: gpu-1}
status:
  allocatable: {cpu: "8"}
  images:
  - names: [registry.example.com/trainer@sha256:0f1e, registry.example.com/trainer:2.1]
    sizeBytes: 7318044892
  - names: [registry.k8s.io/pause:3.10]
    sizeBytes: 320368
  - names: [example.com/no-size:1]
""")
    assert diags == []
    assert node.images == (
        NodeImage(("registry.example.com/trainer@sha256:0f1e", "registry.example.com/trainer:2.1"), 7318044892),
        NodeImage(("registry.k8s.io/pause:3.10",), 320368), NodeImage(("example.com/no-size:1",), 0))


def test_a_node_without_images_has_none():
    node, diags = record("apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: '8'}}\n")
    assert diags == [] and node.images == ()


def test_malformed_image_entries_are_reported_and_left_out():
    node, diags = record("""\
apiVersion: v1
kind: Node
metadata: {name: a}
status:
  images:
  - names: [example.com/x:1]
    sizeBytes: -5
  - names: [example.com/y:1, 7]
    sizeBytes: 10
  - names: [example.com/z:1]
    sizeBytes: 1000
""")
    assert node.images == (NodeImage(("example.com/z:1",), 1000),)
    assert [(d.code, d.location.field, d.location.line, d.message) for d in diags] == [
        ("WAS602", "status.images[0].sizeBytes", 7,
         "status.images[].sizeBytes must be a non-negative integer, got -5"),
        ("WAS602", "status.images[1].names", 8, "status.images[] must have names: a list of strings")]


def test_a_pods_images_are_its_init_containers_containers_and_image_volumes_as_written():
    pod, diags = record("""\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - {name: fetch, image: example.com/fetch:1}
  - {name: proxy, image: example.com/proxy, restartPolicy: Always}
  containers:
  - {name: main, image: example.com/trainer:2.1}
  - {name: side, image: example.com/trainer:2.1}
  volumes:
  - {name: scratch, emptyDir: {}}
  - name: model
    image: {reference: "example.com/model:7", pullPolicy: IfNotPresent}
""")
    assert diags == []
    assert pod.images == PodImages(("example.com/fetch:1", "example.com/proxy", "example.com/trainer:2.1",
                                    "example.com/trainer:2.1"), ("example.com/model:7",))


def test_a_non_string_image_is_reported():
    pod, diags = record("""\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: main, image: 7}
""")
    assert pod.images == PodImages(("",))
    assert [(d.code, d.location.field) for d in diags] == [("WAS602", "spec.containers[0].image")]
    pod, _ = record("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n")
    assert pod.images is NO_IMAGES

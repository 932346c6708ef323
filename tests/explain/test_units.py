"""Pieces of explain that are plain functions of records: coarser topology keys, change locations."""

from __future__ import annotations

from wasplan.cluster.model import Node
from wasplan.explain.manifest import field_path
from wasplan.explain.suggest_topology import coarser_keys


def node(name: str, **labels: str) -> Node:
    return Node(name, {"kubernetes.io/hostname": name, **{k.replace("_", "/"): v for k, v in labels.items()}},
                {"cpu": 1000})


def test_coarser_keys_contain_the_best_domain_finest_first():
    nodes = [node(f"n{i}", rack=f"r{i // 2}", block=f"b{i // 4}", zone=f"z{i // 8}", product=f"p{i // 8}",
                  odd=str(i % 2)) for i in range(16)]
    assert coarser_keys(nodes, "rack", "r1") == [("block", 4), ("zone", 2)]  # not product, not odd
    assert coarser_keys(nodes, "zone", "z0") == []


def test_a_key_missing_in_the_best_domain_is_no_candidate():
    nodes = [node("a", rack="r0", zone="z0"), node("b", rack="r0"), node("c", rack="r1", zone="z0")]
    assert coarser_keys(nodes, "rack", "r0") == []
    assert coarser_keys(nodes, "rack", "r1") == [("zone", 1)]


def test_field_paths_read_like_kubectl_explain():
    assert field_path(("spec", "tolerations", 0)) == "spec.tolerations[0]"
    assert field_path(("spec", "nodeSelector", "gpu-type")) == "spec.nodeSelector.gpu-type"

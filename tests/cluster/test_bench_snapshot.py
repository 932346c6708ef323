"""The benchmark's generated snapshot, small: it must build cleanly, and identical shapes must be parsed once."""

import json

from wasplan.cluster.model import Node, Pod
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import ReadResult, read_text

from .bench_snapshot import generate
from .helpers import gates


def test_generated_snapshot_builds_and_shares_parsed_shapes():
    result = read_text("big.json", json.dumps(generate(40, 400)))
    plan, diags = build_inputs(result, ReadResult(), gates())
    assert diags == []
    pods = [r for r in plan.existing if isinstance(r, Pod)]
    assert len(pods) == 400 and sum(isinstance(r, Node) for r in plan.existing) == 40
    same_app = [p for p in pods if p.labels["app"] == "app-3"]
    assert len(same_app) == 8
    # parsed once per distinct shape: the records share the frozen sub-records
    assert len({id(p.affinity) for p in same_app}) == 1
    assert len({id(p.tolerations) for p in same_app}) == 1
    # but never share mutable dicts
    assert len({id(p.requests) for p in same_app}) == 8
    gpu = next(p for p in pods if p.labels["app"] == "app-0")
    assert gpu.requests == {"cpu": 250, "memory": 512 * 2**20, "nvidia.com/gpu": 1, "pods": 1}

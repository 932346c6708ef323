"""`wasplan explain -o json` carries the device evidence (docs/explain.md, `shapes[].devices`), byte-identical
across processes with different PYTHONHASHSEED values."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import run

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "explain" / "dra-devices"
ARGS = ["explain", "pod/trainer", str(CASE / "selector.yaml"), "--cluster", str(CASE / "cluster.yaml"), "--no-exact"]


def test_json_device_evidence_fields():
    result = run(*ARGS, "-o", "json")
    devices = json.loads(result.stdout)["targets"][0]["shapes"][0]["devices"]
    assert set(devices) == {"pods", "eligibleNodes", "requests", "constraints", "domains", "order", "notes"}
    assert (devices["pods"], devices["eligibleNodes"], devices["constraints"], devices["domains"],
            devices["order"], devices["notes"]) == (["default/trainer"], 2, [], [], None, [])
    request = devices["requests"][0]
    assert set(request) == {"claim", "entry", "origin", "request", "deviceClass", "count", "needed", "stages",
                            "allocated", "free", "mostOnOneNode", "eliminatedBy"}
    assert request["claim"].startswith("default/trainer-gpu-")
    assert (request["deviceClass"], request["count"], request["needed"], request["allocated"], request["free"],
            request["mostOnOneNode"]) == ("gpu.nvidia.com", 1, 1, 0, 0, {"node": None, "devices": 0})


def test_explanation_is_the_same_for_every_hash_seed():
    outputs = set()
    for seed in ("0", "1", "4242"):
        for fmt in ("text", "json"):
            env = dict(os.environ, PYTHONHASHSEED=seed, COLUMNS="80")
            done = subprocess.run([sys.executable, "-m", "wasplan", *ARGS, "-o", fmt], env=env, capture_output=True,
                                  text=True, check=False)
            assert done.returncode == 1, done.stderr
            outputs.add((fmt, done.stdout))
    assert len(outputs) == 2

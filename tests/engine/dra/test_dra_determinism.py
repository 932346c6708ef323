"""The allocator's results do not depend on the hash seed: the same inputs give byte-identical results in
processes with different PYTHONHASHSEED values (pools, slices and devices are ordered, never iterated from sets)."""

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r'''
import sys
sys.path.insert(0, sys.argv[1])
from drahelp import *
slices = [resource_slice(f"s{n}-{k}", f"node-{n}", f"pool-{n}-{k}", DRIVER_A,
                         *(device(f"d{j}", {"memory": f"{j + 1}Gi"}, {"numa": {"int": j % 2}}) for j in range(4)))
          for n in range(3) for k in range(2)]
slices.append(resource_slice("net", "all", "net", DRIVER_B, device("n0"), device("n1")))
classes = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
claims = [claim("c0", exact("a", CLASS_A, 3, 'device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0'),
                constraints=[{"distinctAttribute": "driver-a/numa", "requests": ["a"]}]),
          claim("c1", first_available("b", sub("x", CLASS_B, 3), sub("y", CLASS_B, 2)), exact("c", CLASS_A, 2))]
for n in range(3):
    result = allocate(claims, classes, slices, node(f"node-{n}", "r"))
    print(result)
'''


def test_results_are_identical_across_hash_seeds():
    here = Path(__file__).resolve().parent
    outputs = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", SCRIPT, str(here)], env=env, capture_output=True, text=True,
                             check=True)
        outputs.add(run.stdout)
    assert len(outputs) == 1
    assert "device='d1'" in outputs.pop()

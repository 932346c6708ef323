"""A composite tree whose pods name several schedulers, or one without a profile: one shared check decides
(engine/cycle/groupcycle.py `scheduler_name_problem`), and its message does not depend on PYTHONHASHSEED."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import FIXTURES

TREE = (FIXTURES / "explain" / "composite" / "gang.yaml").read_text()
CLUSTER = str(FIXTURES / "explain" / "composite" / "cluster.yaml")


def _tree(tmp_path, names: dict[str, str]):
    text = TREE
    for pod, scheduler in names.items():
        text = text.replace(f"  name: {pod}\n  namespace: ml\nspec:\n",
                            f"  name: {pod}\n  namespace: ml\nspec:\n  schedulerName: {scheduler}\n")
    path = tmp_path / "tree.yaml"
    path.write_text(text)
    return str(path)


def _plan(path: str, seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    done = subprocess.run([sys.executable, "-m", "wasplan", "plan", path, "--cluster", CLUSTER, "-o", "json"],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_mixed_scheduler_names_give_the_same_message_under_every_hash_seed(tmp_path):
    path = _tree(tmp_path, {"shard-0-1": "sched-b", "shard-1-0": "sched-c", "shard-1-1": "sched-d"})
    outputs = {_plan(path, seed) for seed in ("0", "1", "2", "3")}
    assert len(outputs) == 1
    pods = json.loads(outputs.pop())["pods"]
    assert {p["message"] for p in pods} == {
        "all pods in a single pod group should have the same .spec.schedulerName set, got: 'sched-b' and "
        "'default-scheduler'"}


def test_a_tree_for_a_scheduler_without_profile_says_profile_not_found(tmp_path):
    path = _tree(tmp_path, {pod: "gpu-scheduler" for pod in ("shard-0-0", "shard-0-1", "shard-1-0", "shard-1-1")})
    pods = json.loads(_plan(path, "0"))["pods"]
    assert {p["message"] for p in pods} == {"profile not found for scheduler name 'gpu-scheduler'"}

"""Kueue's own admission code as the judge: the scenarios under fixtures/kueue-scenarios/ run through the Kueue
oracle (oracle/kueue017, Kueue v0.17.0's scheduler, flavor assigner, preemptor, cache and queue manager on a fake
client; docs/oracle.md, "The Kueue oracle") and must give exactly the facts in fixtures/kueue-scenarios/expected.yaml:
per workload its name as Kueue names it, status, ClusterQueue, flavors per PodSet, Kueue's reason and message,
borrowing and preemptor, and per ClusterQueue its usage. Those facts are the agreed expectations for wasplan's own
Kueue admission model.

The binary is `$WASPLAN_ORACLE_KUEUE` when set, else `<repo>/oracle/bin/oracle-kueue` (built by `oracle/build
kueue`); without it every test here is skipped and the session says so in one line.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from .kueuecompare import facts, key


ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "fixtures" / "kueue-scenarios"
EXPECTED = yaml.safe_load((SCENARIOS / "expected.yaml").read_text())
TIMEOUT_S = 60


def kueue_oracle_path() -> Path:
    env = os.environ.get("WASPLAN_ORACLE_KUEUE")
    return Path(env) if env else ROOT / "oracle" / "bin" / "oracle-kueue"


def session_skips(config) -> list[str]:
    """The list tests/oracle/conftest.py prints its one closing line from (pytest imports it as a plugin)."""
    here = Path(__file__).with_name("conftest.py")
    for plugin in config.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", None) or "/") == here:
            return plugin._skipped
    return []


@pytest.fixture(scope="module")
def kueue_oracle(request) -> Path:
    path = kueue_oracle_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        reason = f"no Kueue oracle binary at {path}; build it with oracle/build kueue (needs Go)"
        skips = session_skips(request.config)
        if reason not in skips:
            skips.append(reason)
        pytest.skip(f"Kueue oracle tests skipped: {reason}")
    return path


def run_plan(binary: Path, paths: list[str], clusters: list[str], *extra: str) -> subprocess.CompletedProcess:
    args = [str(binary), "plan", *[str(ROOT / p) for p in paths]]
    for c in clusters:
        args += ["--cluster", str(ROOT / c)]
    return subprocess.run([*args, *extra], capture_output=True, text=True, timeout=TIMEOUT_S)


def plan(binary: Path, scenario: dict) -> dict:
    proc = run_plan(binary, scenario["files"], scenario.get("clusters", []), *scenario.get("args", []))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_matches_kueue(kueue_oracle, name):
    scenario = EXPECTED[name]
    out = plan(kueue_oracle, scenario)
    assert out["oracle"]["settled"]
    got = {key(w): facts(w) for w in out["kueue"]["workloads"]}
    assert sorted(got) == sorted(scenario["workloads"])
    for wl, want in scenario["workloads"].items():
        assert {f: got[wl].get(f) for f in want} == want, wl
    queues = {cq["name"]: cq for cq in out["kueue"]["clusterQueues"]}
    for cq, want in scenario.get("clusterQueues", {}).items():
        assert {f: queues[cq][f] for f in want} == want, cq
    for event in scenario.get("events", []):
        assert event in out["oracle"]["events"]


def test_output_is_deterministic(kueue_oracle):
    """Byte for byte, run after run (preemption and TAS included)."""
    scenario = EXPECTED["preemption-within-cq"]
    first = run_plan(kueue_oracle, scenario["files"], [])
    again = run_plan(kueue_oracle, scenario["files"], [])
    assert first.returncode == 0 and first.stdout == again.stdout


def test_admission_checks_can_stay_pending(kueue_oracle, tmp_path):
    """--admission-checks pending: quota is reserved but the workload is not Admitted until its check is Ready."""
    check = tmp_path / "check.yaml"
    check.write_text(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata:\n  name: prov\n"
        "spec:\n  controllerName: kueue.x-k8s.io/provisioning-request\n"
        "status:\n  conditions:\n  - type: Active\n    status: \"True\"\n    reason: Active\n    message: ok\n"
        "    lastTransitionTime: \"2025-12-31T00:00:00Z\"\n")
    setup = yaml.safe_load_all((ROOT / "fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml").read_text())
    docs = list(setup)
    docs[1]["spec"]["admissionChecksStrategy"] = {"admissionChecks": [{"name": "prov"}]}
    queue = tmp_path / "setup.yaml"
    queue.write_text(yaml.safe_dump_all(docs))
    results = {}
    for policy in ("ready", "pending"):
        proc = run_plan(kueue_oracle, ["fixtures/kueue/sample-job.yaml"], [], "--cluster", str(check),
                        "--cluster", str(queue), "--admission-checks", policy)
        assert proc.returncode == 0, proc.stderr
        [wl] = json.loads(proc.stdout)["kueue"]["workloads"]
        results[policy] = (wl["status"], wl["clusterQueue"])
    assert results == {"ready": ("Admitted", "cluster-queue"), "pending": ("QuotaReserved", "cluster-queue")}


def test_bad_input_names_the_file(kueue_oracle, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: x\n---\n: [\n")
    proc = run_plan(kueue_oracle, [str(bad)], [])
    assert proc.returncode == 2
    assert proc.stderr.startswith("oracle-kueue: ") and f"{bad}: document 2" in proc.stderr
    assert proc.stdout == ""


def test_two_objects_of_one_name_are_an_input_error(kueue_oracle, tmp_path):
    dup = tmp_path / "nodes.yaml"
    dup.write_text("apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: a\n")
    proc = run_plan(kueue_oracle, [str(dup)], [])
    assert (proc.returncode, proc.stderr) == (2, 'oracle-kueue: the input cannot be loaded: nodes "a" already exists\n')


def test_kueue_samples_of_every_integration_become_workloads(kueue_oracle):
    """Kueue's published samples: the pod group is one Workload named after it (its PodSet the pods' role hash),
    each pod of the Deployment whose template carries the queue label a single-pod Workload; the Job, read after
    them, waits for quota."""
    proc = run_plan(kueue_oracle, ["fixtures/kueue"], ["fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml"])
    assert (proc.returncode, proc.stderr) == (0, "")
    got = [(w["name"], w["owner"]["kind"], w["owner"]["name"], w["status"], [(p["name"], p["count"]) for p in w["podSets"]])
           for w in json.loads(proc.stdout)["kueue"]["workloads"]]
    assert got == [
        ("job-sample-job-588b9-82251", "Job", "sample-job-588b9", "Pending", [("main", 3)]),
        ("pod-nginx-deployment-7f86767c64-0-c17ba", "Pod", "nginx-deployment-7f86767c64-0", "Admitted", [("main", 1)]),
        ("pod-nginx-deployment-7f86767c64-1-7c5e2", "Pod", "nginx-deployment-7f86767c64-1", "Pending", [("main", 1)]),
        ("pod-nginx-deployment-7f86767c64-2-c7639", "Pod", "nginx-deployment-7f86767c64-2", "Pending", [("main", 1)]),
        ("sample-group", "Pod", "sample-pod-948c7", "Admitted", [("41800529", 2)]),
    ]


def test_kinds_the_oracle_builds_nothing_for_are_named(kueue_oracle, tmp_path):
    """A queue label on a kind none of the oracle's integrations builds (a ReplicaSet's own label) is named."""
    rs = tmp_path / "rs.yaml"
    rs.write_text("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: r, labels: {kueue.x-k8s.io/queue-name: q}}\n"
                  "spec: {template: {spec: {containers: [{name: c, image: i}]}}}\n")
    proc = run_plan(kueue_oracle, [str(rs)], ["fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["kueue"]["workloads"] == []
    assert proc.stderr.splitlines() == [
        "oracle-kueue: not modelled: 1 apps/v1 ReplicaSet with kueue.x-k8s.io/queue-name (an integration of Kueue the "
        "oracle builds no Workloads for)"]




def test_a_snapshot_job_whose_workload_the_snapshot_holds_gets_no_second_workload(kueue_oracle, tmp_path):
    """Kueue's job reconciler keeps the Workload it finds by owner (ensureOneWorkload): with Job `batch` and its
    Workload both in the snapshot, the oracle gives the block it gives for the Workload alone, and so does wasplan
    (tests/cli/test_plan_kueue_evict.py holds wasplan to it without Go)."""
    from tests.cli.helpers import run
    from tests.cli.test_plan_kueue_evict import BATCH_JOB, EVICT, SNAPSHOT

    blocks = {}
    for name, text in (("alone", SNAPSHOT), ("with-job", SNAPSHOT + BATCH_JOB)):
        snapshot = tmp_path / f"{name}.yaml"
        snapshot.write_text(text)
        files = [str(EVICT / "urgent.yaml"), str(EVICT / "setup.yaml")]
        proc = run_plan(kueue_oracle, files, [str(snapshot)])
        assert proc.returncode == 0, proc.stderr
        ours = json.loads(run("plan", *files, "--cluster", str(snapshot), "-o", "json").stdout)["kueue"]
        blocks[name] = ({key(w): facts(w) for w in json.loads(proc.stdout)["kueue"]["workloads"]},
                        {key(w): facts(w) for w in ours["workloads"]})
    assert blocks["with-job"][0] == blocks["alone"][0] == blocks["with-job"][1]
    assert sorted(w["status"] for w in blocks["with-job"][0].values()) == ["Admitted", "Preempted"]

"""Kueue's Configuration (config.kueue.x-k8s.io) through the real CLI: `validate` checks it as strictly as Kueue
decodes it (unknown fields, types) and as Kueue's configuration validation does (WAS248), with file, line and
field; `lint` says when two are given (WAS450) or when weights meet a Configuration with fair sharing off
(WAS451); `plan` reads it (fair sharing) and names what it sets that the model does not follow (WAS698)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import run

ROOT = Path(__file__).resolve().parents[2]
FAIR = ROOT / "fixtures" / "kueue-scenarios" / "fair"
NODES = ROOT / "fixtures" / "kueue-scenarios" / "setup" / "nodes.yaml"
V1BETA2 = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_validate_refuses_unknown_fields_and_strategies_kueue_refuses(tmp_path):
    path = write(tmp_path, "kueue-config.yaml", V1BETA2 + (
        "fairSharing:\n"
        "  enable: true\n"
        "  preemptionStrategies: [LessThanInitialShare, LessThanOrEqualToFinalShare]\n"
        "waitForPodsReady:\n"
        "  timeout: 5 minutes\n"))
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:4:3: error WAS101 unknown field \"fairSharing.enable\"" in result.output
    assert (f"{path}:5:3: error WAS248 fairSharing.preemptionStrategies: Unsupported value: "
            "['LessThanInitialShare', 'LessThanOrEqualToFinalShare']") in result.output
    assert f"{path}:7:3: error WAS248 waitForPodsReady.timeout: '5 minutes' is not a duration" in result.output


def test_validate_accepts_the_configurations_kueue_starts_with(tmp_path):
    v1beta1 = ("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing:\n  enable: true\n"
               "waitForPodsReady:\n  enable: true\n")
    v1beta2 = V1BETA2 + ("fairSharing:\n  preemptionStrategies: [LessThanOrEqualToFinalShare]\n"
                         "admissionFairSharing:\n  usageHalfLifeTime: 168h\n  usageSamplingInterval: 5m\n")
    for name, text in (("v1beta1.yaml", v1beta1), ("v1beta2.yaml", v1beta2)):
        result = run("validate", str(write(tmp_path, name, text)))
        assert result.exit_code == 0, result.output


def test_validate_names_a_version_kueue_cannot_read(tmp_path):
    path = write(tmp_path, "old.yaml", "apiVersion: config.kueue.x-k8s.io/v1alpha1\nkind: Configuration\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert (f"{path}:1:1: error WAS249 Kueue v0.17.0 reads no Configuration config.kueue.x-k8s.io/v1alpha1; it "
            "reads config.kueue.x-k8s.io/v1beta1 and config.kueue.x-k8s.io/v1beta2") in result.output


def test_lint_names_a_second_configuration_and_weights_kueue_ignores(tmp_path):
    cq = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: team-a}\nspec:\n"
          "  cohortName: all\n  fairSharing: {weight: 2}\n  namespaceSelector: {}\n  resourceGroups: []\n")
    path = write(tmp_path, "setup.yaml", V1BETA2 + "---\n" + V1BETA2 + "---\n" + cq)
    result = run("lint", str(path))
    assert (f"{path}:5:1: warning WAS450 a second Kueue Configuration among the inputs; Kueue reads one file, and "
            f"the plan reads the first ({path}:1)") in result.output
    assert (f"{path}:12:17: warning WAS451 ClusterQueue team-a sets a fair-sharing weight, but the Kueue "
            "Configuration among the inputs does not enable fair sharing: Kueue ignores the weight") in result.output


def test_plan_reads_the_configuration_from_the_cluster_files_too(tmp_path):
    scenario = (FAIR / "drs-ordering.yaml").read_text()
    docs = scenario.split("\n---\n")
    config, rest = docs[0], "\n---\n".join(docs[1:])
    manifests, cluster = write(tmp_path, "setup.yaml", rest), write(tmp_path, "config.yaml", config + "\n")
    both = run("plan", str(manifests), "--cluster", str(cluster), "--cluster", str(NODES), "-o", "json")
    alone = run("plan", str(FAIR / "drs-ordering.yaml"), "--cluster", str(NODES), "-o", "json")
    assert both.exit_code == alone.exit_code == 1  # a-job waits for admission: the plan is incomplete
    assert json.loads(both.stdout)["kueue"] == json.loads(alone.stdout)["kueue"]
    statuses = {w["name"]: w["status"] for w in json.loads(both.stdout)["kueue"]["workloads"]}
    assert statuses["job-b-job-ec3b6"] == "Admitted" and statuses["job-a-job-2adf5"] == "Pending"


def test_plan_warns_about_what_the_configuration_sets_and_the_model_does_not_follow(tmp_path):
    scenario = (FAIR / "drs-ordering.yaml").read_text().replace(
        "fairSharing:\n", "waitForPodsReady:\n  timeout: 5m\nfairSharing:\n", 1)
    path = write(tmp_path, "drs.yaml", scenario)
    result = run("plan", str(path), "--cluster", str(NODES), "--fail-on", "pending")
    assert result.exit_code == 1
    assert ("warning WAS698 not modelled in Kueue's admission: Kueue's Configuration sets waitForPodsReady "
            "(admission waits for, and evicts on, pods becoming ready); Kueue's decisions may differ from the "
            "plan's") in result.output

"""--scheduler-config is read like every input: regular files only, within the reader's limits, plain data
only; a malformed configuration is one error line with exit 2, never an internal error."""

from __future__ import annotations

import os

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
PLAN = ("plan", str(FIXTURES / "examples" / "training"), "--cluster", str(FIXTURES / "examples" / "cluster.yaml"))


@pytest.mark.parametrize("body, message", [
    ("profiles: [1, 2]\n", "is not a valid KubeSchedulerConfiguration: AttributeError"),
    ("profiles: !!python/object:x {}\n", ":3: tag !!python/object:x is not plain data"),
    ("profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: lots}\n",
     "is not a valid KubeSchedulerConfiguration: ValueError"),
])
def test_malformed_scheduler_config(tmp_path, body, message):
    path = tmp_path / "sched.yaml"
    path.write_text(HEAD + body)
    result = run(*PLAN, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert message in result.stderr and "internal error" not in result.stderr


def test_scheduler_config_that_is_a_fifo_is_not_read(tmp_path):
    fifo = tmp_path / "sched.yaml"
    os.mkfifo(fifo)
    result = run(*PLAN, "--scheduler-config", str(fifo))
    assert result.exit_code == 2
    assert f"cannot read scheduler config: {fifo} is a FIFO (named pipe); not read" in result.stderr


def test_explain_target_too_long_for_a_path_is_not_a_path():
    result = run("explain", "podgroup/" + "x" * 5000, str(FIXTURES / "explain" / "taint" / "gang.yaml"),
                 "--cluster", str(FIXTURES / "explain" / "taint" / "cluster.yaml"))
    assert result.exit_code == 2
    assert "WAS801 no PodGroup named" in result.stderr


def test_requested_to_capacity_ratio_shape_is_validated(tmp_path):
    """Found by the fuzz suite: two points with the same utilization divided by zero while scoring."""
    path = tmp_path / "sched.yaml"
    path.write_text(HEAD + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
                    "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
                    "          - {utilization: 50, score: 0}\n          - {utilization: 50, score: 10}\n")
    result = run(*PLAN, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert "utilization values must be sorted in increasing order" in result.stderr


def test_plugin_and_resource_names_must_be_strings(tmp_path):
    """Found by the fuzz suite: a list as a resource name reached the scorer (unhashable type: 'list')."""
    path = tmp_path / "sched.yaml"
    path.write_text(HEAD + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
                    "        type: LeastAllocated\n        resources:\n        - name: [cpu]\n          weight: 1\n")
    result = run(*PLAN, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert result.stderr == "wasplan: error: every entry needs a string name, got {'name': ['cpu'], 'weight': 1}\n"


SCHED_FIXTURES = FIXTURES / "scheduler-config"


@pytest.mark.parametrize("command", [PLAN, ("explain", "pod/pretrain-70b-0") + PLAN[1:]])
def test_misspelt_plugin_names_are_refused_with_a_suggestion(command):
    """Issue 30: `ImageLocalty` and `NodeResourcesBalancedAlocation` were accepted; kube-scheduler refuses the
    first at start-up (framework.go updatePluginList) and ignores the second, leaving the plugin enabled."""
    path = SCHED_FIXTURES / "misspelt-plugins.yaml"
    result = run(*command, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"wasplan: error: {path}:10:13: WAS905 unknown scheduler plugin 'ImageLocalty' in plugins.score (did you "
        "mean ImageLocality?): kube-scheduler does not start: \"initializing profiles: creating profile for "
        "scheduler name default-scheduler: ScorePlugin \\\"ImageLocalty\\\" does not exist\" (1 more unknown "
        "plugin name)\n")


def test_a_misspelt_disabled_plugin_is_refused(tmp_path):
    path = tmp_path / "sched.yaml"
    path.write_text(HEAD + "profiles:\n- plugins:\n    score:\n      disabled:\n"
                    "      - name: NodeResourcesBalancedAlocation\n")
    result = run(*PLAN, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert (f"{path}:7:9: WAS905 unknown scheduler plugin 'NodeResourcesBalancedAlocation' in plugins.score "
            "(did you mean NodeResourcesBalancedAllocation?): kube-scheduler ignores the entry, so the plugin meant "
            "stays enabled\n") in result.stderr


def test_scheduler_plugins_coscheduling_is_named_as_not_modelled():
    """scheduler-plugins' own configuration: Coscheduling is out of tree (and a few edits from GangScheduling,
    which must not be suggested)."""
    path = SCHED_FIXTURES / "coscheduling.yaml"
    result = run(*PLAN, "--scheduler-config", str(path))
    assert result.exit_code == 2
    assert (f"{path}:13:13: WAS906 scheduler plugin 'Coscheduling' in plugins.multiPoint is not in kube-scheduler "
            "1.37's in-tree registry: kubernetes-sigs/scheduler-plugins' out-of-tree plugin, which wasplan does not "
            "model; kube-scheduler does not start: \"initializing profiles: creating profile for scheduler name "
            "scheduler-plugins-scheduler: PreFilterPlugin \\\"Coscheduling\\\" does not exist\"") in result.stderr
    assert "did you mean" not in result.stderr


@pytest.mark.parametrize("release, exit_code", [("1.36", 2), ("1.37", 0)])
def test_the_registry_is_the_release_s_own(tmp_path, release, exit_code):
    """DeferredPodScheduling joined the in-tree registry in 1.37 (registry.go of v1.37.2, not of v1.36.3)."""
    path = tmp_path / "sched.yaml"
    path.write_text(HEAD + "profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: DeferredPodScheduling\n")
    result = run(*PLAN, "--k8s-version", release, "--scheduler-config", str(path))
    assert result.exit_code == exit_code, result.stderr
    assert ("WAS906 scheduler plugin 'DeferredPodScheduling'" in result.stderr) == (release == "1.36")

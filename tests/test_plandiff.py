"""Plan diffs on real plan pairs: the fixtures' base and head (a gang that grows past the cluster), preemption
switched on against a baseline without it, and claims that change devices; plus the CLI's --baseline contract
(text, PlanDiff JSON, GitHub annotations, --fail-on regression, and a baseline that is not a Plan: exit 2)."""

from __future__ import annotations

import copy
import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.plandiff import diff_plans

DIFF = FIXTURES / "plan-diff"
PREEMPTION = FIXTURES / "scenarios" / "preemption"


def _plan(path, cluster, preemption: bool = True) -> dict:
    request = PlanRequest([str(path)], [str(cluster)], default_gates(get_release("1.37")), preemption=preemption)
    return run_plan(request).plan.to_dict()


def _rows(diff) -> list[tuple[str, str, str, str]]:
    return [(c.kind, c.key, c.change, c.effect) for c in diff.changes]


BASE = _plan(DIFF / "base", DIFF / "cluster.yaml")
HEAD = _plan(DIFF / "head", DIFF / "cluster.yaml")


def test_a_gang_that_outgrows_the_cluster_is_a_regression_of_the_group_and_its_pods():
    diff = diff_plans(BASE, HEAD)
    assert _rows(diff) == [
        ("PodGroup", "ml/train-job", "Unschedulable", "regression"),
        ("Pod", "ml/train-0", "Unplaced", "regression"),
        ("Pod", "ml/train-1", "Unplaced", "regression"),
        ("Pod", "ml/train-2", "Unplaced", "regression"),
        ("Pod", "ml/train-3", "Unplaced", "regression"),
        ("Pod", "ml/train-4", "AddedUnplaced", "regression"),
    ]
    assert diff.changes[1].before == {"status": "Bound", "node": "gpu-0"}
    assert diff.changes[1].after == {"status": "Pending", "node": None}
    assert diff.summary() == {"changes": 6, "regressions": 6, "improvements": 0, "neutral": 0}


def test_the_reverse_change_is_an_improvement_and_the_vanished_pod_is_neutral():
    diff = diff_plans(HEAD, BASE)
    assert not diff.regressed
    assert _rows(diff)[0] == ("PodGroup", "ml/train-job", "Schedulable", "improvement")
    assert _rows(diff)[-1] == ("Pod", "ml/train-4", "Removed", "neutral")


def test_a_plan_compared_with_itself_has_no_changes():
    assert diff_plans(BASE, copy.deepcopy(BASE)).changes == ()


def test_a_new_eviction_is_one_regression_and_the_preemptor_placed_an_improvement():
    """The evicted pod counts once, as its Preemption: not again as a pod that lost its node (issue 30)."""
    without = _plan(PREEMPTION / "serving.yaml", PREEMPTION / "cluster.yaml", preemption=False)
    with_preemption = _plan(PREEMPTION / "serving.yaml", PREEMPTION / "cluster.yaml")
    diff = diff_plans(without, with_preemption)
    assert _rows(diff) == [
        ("Pod", "default/web", "Placed", "improvement"),
        ("Preemption", "default/batch-a", "Added", "regression"),
    ]
    assert diff.summary() == {"changes": 2, "regressions": 1, "improvements": 1, "neutral": 0}
    back = diff_plans(with_preemption, without)
    assert _rows(back) == [
        ("Pod", "default/web", "Unplaced", "regression"),
        ("Preemption", "default/batch-a", "Removed", "improvement"),
    ]
    assert back.of("improvement")[-1].message == "no longer evicted from node-a by Pod default/web"


def test_cli_text_counts_an_evicted_pod_once(tmp_path):
    """A baseline without the preemptor, a head that evicts for it: "1 worse", one line for the eviction."""
    base = tmp_path / "base.json"
    empty = tmp_path / "nothing.yaml"
    empty.write_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: placeholder\n")
    base.write_text(run("plan", str(empty), "--cluster", str(PREEMPTION / "cluster.yaml"), "-o", "json").stdout)
    result = run("plan", str(PREEMPTION / "serving.yaml"), "--cluster", str(PREEMPTION / "cluster.yaml"),
                 "--baseline", str(base), env={"COLUMNS": "120"})
    assert result.stdout.splitlines() == [
        "Plan diff against the baseline (Kubernetes 1.37): 1 worse, 0 better, 1 changed",
        "Worse (1)",
        "  Preemption default/batch-a: newly evicted from node-a by Pod default/web",
        "Changed (1)",
        "  Pod default/web: new, Bound on node-a",
    ]


def test_a_pod_on_another_node_moved_and_a_group_in_another_domain_moved():
    head = copy.deepcopy(BASE)
    head["pods"][0]["node"] = "gpu-3"
    head["podGroups"][0]["placement"] = {"topologyKey": "topology.kubernetes.io/rack", "domain": "rack-1"}
    changes = {(c.kind, c.change): c.message for c in diff_plans(BASE, head).changes}
    assert changes == {("Pod", "Moved"): "moved from gpu-0 to gpu-3",
                       ("PodGroup", "Moved"): "moved from no domain to topology.kubernetes.io/rack=rack-1"}


def _claim(status: str, device: str | None) -> dict:
    devices = [{"request": "gpu", "driver": "gpu.example.com", "pool": "gpu-0", "device": device,
                "adminAccess": False}] if device else []
    return {"namespace": "ml", "name": "train-0-gpu", "owner": None, "status": status, "node": "gpu-0",
            "devices": devices, "reservedFor": [], "message": ""}


def test_claims_are_compared_when_either_side_has_them():
    base, head = copy.deepcopy(BASE), copy.deepcopy(BASE)
    base["resourceClaims"] = [_claim("Allocated", "gpu-a")]
    head["resourceClaims"] = [_claim("Allocated", "gpu-b")]
    (changed,) = diff_plans(base, head).changes
    assert (changed.kind, changed.change, changed.effect) == ("ResourceClaim", "DevicesChanged", "neutral")
    assert changed.message == "devices gpu.example.com/gpu-0/gpu-a -> gpu.example.com/gpu-0/gpu-b"
    head["resourceClaims"] = [_claim("Pending", None)]
    assert _rows(diff_plans(base, head)) == [("ResourceClaim", "ml/train-0-gpu", "Unallocated", "regression")]
    del base["resourceClaims"]
    assert _rows(diff_plans(base, head)) == [("ResourceClaim", "ml/train-0-gpu", "AddedPending", "regression")]


def _baseline(tmp_path, plan: dict, name: str = "base.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(plan, indent=2))
    return str(path)


LOG = {"COLUMNS": ""}  # not a terminal, no COLUMNS: findings stay on their one compiler-style line


def _plan_cli(*args: str, env: dict | None = None):
    return run("plan", str(DIFF / "head"), "--cluster", str(DIFF / "cluster.yaml"), *args,
               env=env or {"COLUMNS": "80"})


def test_cli_text_folds_the_pods_and_fail_on_regression_exits_1(tmp_path):
    result = _plan_cli("--baseline", _baseline(tmp_path, BASE), "--fail-on", "regression")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "Plan diff against the baseline (Kubernetes 1.37): 6 worse, 0 better, 0 changed",
        "Worse (6)",
        "  PodGroup ml/train-job: was Scheduled, now Unschedulable: pod group is",
        "      unschedulable, 0/1 placements are available, first placement status:",
        "      minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, deallocation",
        "      and deletion of ResourceClaims completed, pod group preemption: No",
        "      preemption victims found for incoming preemptor",
        "  4 pods lost their node, now Pending: ml/train-[0-3]",
        "  Pod ml/train-4: new, Pending",
    ]


def test_cli_fail_on_regression_exits_0_when_only_better(tmp_path):
    result = run("plan", str(DIFF / "base"), "--cluster", str(DIFF / "cluster.yaml"),
                 "--baseline", _baseline(tmp_path, HEAD), "--fail-on", "regression")
    assert result.exit_code == 0


def test_cli_json_is_one_plandiff_document(tmp_path):
    result = _plan_cli("--baseline", _baseline(tmp_path, BASE), "-o", "json", "--fail-on", "never")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert (doc["apiVersion"], doc["kind"], doc["k8sVersion"], doc["baselineK8sVersion"]) == \
        ("wasplan.io/v1alpha1", "PlanDiff", "1.37", "1.37")
    assert doc["summary"] == {"changes": 6, "regressions": 6, "improvements": 0, "neutral": 0}
    assert doc["changes"][1] == {"kind": "Pod", "namespace": "ml", "name": "train-0", "change": "Unplaced",
                                 "effect": "regression", "before": {"status": "Bound", "node": "gpu-0"},
                                 "after": {"status": "Pending", "node": None},
                                 "message": "was on gpu-0, now Pending"}


def test_cli_github_annotations_fold_pods_and_fail_the_job_as_errors(tmp_path):
    result = _plan_cli("--baseline", _baseline(tmp_path, BASE), "-o", "github", "--fail-on", "regression")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        "::error title=plan regression::4 pods lost their node, now Pending: ml/train-[0-3]",
        "::error title=plan regression::Pod ml/train-4: new, Pending",
        "::notice title=plan diff::6 worse, 0 better, 0 changed",
    ]


def test_a_baseline_that_is_not_a_plan_is_a_positioned_finding_exit_2(tmp_path):
    report = {"apiVersion": "wasplan.io/v1alpha1", "kind": "ValidationReport", "summary": {}}
    result = _plan_cli("--baseline", _baseline(tmp_path, report), env=LOG)
    assert result.exit_code == 2
    assert f"{tmp_path / 'base.json'}:3:3: error WAS680 the baseline is wasplan.io/v1alpha1 ValidationReport, " \
           "not a wasplan.io/v1alpha1 Plan" in result.stderr


def test_a_malformed_section_points_at_its_entry_and_two_documents_are_refused(tmp_path):
    broken = copy.deepcopy(BASE)
    broken["pods"][2] = {"name": "x"}
    result = _plan_cli("--baseline", _baseline(tmp_path, broken))
    assert result.exit_code == 2
    assert "error WAS681 pods[2] must be a string status" in result.stderr
    two = tmp_path / "two.yaml"
    two.write_text("apiVersion: wasplan.io/v1alpha1\nkind: Plan\n---\napiVersion: v1\nkind: Pod\n")
    result = _plan_cli("--baseline", str(two), env=LOG)
    assert result.exit_code == 2
    assert f"{two}:4:1: error WAS680 the baseline holds 2 documents; a Plan is one document" in result.stderr


def test_a_baseline_of_another_release_is_a_warning_and_still_diffed(tmp_path):
    older = copy.deepcopy(HEAD)
    older["k8sVersion"] = "1.36"
    result = _plan_cli("--baseline", _baseline(tmp_path, older), "--fail-on", "regression", env=LOG)
    assert result.exit_code == 0
    assert "warning WAS682 the baseline was planned for Kubernetes 1.36, this plan for 1.37" in result.stderr
    assert result.stdout.splitlines()[:2] == [
        "Plan diff against the baseline (Kubernetes 1.36 -> 1.37): 0 worse, 0 better, 0",
        "    changed"]


def test_regression_needs_a_baseline_and_a_diff_is_not_junit(tmp_path):
    assert _plan_cli("--fail-on", "regression").exit_code == 2
    assert _plan_cli("--baseline", _baseline(tmp_path, BASE), "-o", "junit").exit_code == 2


def test_a_yaml_plan_works_as_baseline_and_yaml_output_is_the_same_document(tmp_path):
    import yaml

    base = tmp_path / "base.yaml"
    base.write_text(yaml.safe_dump(BASE, sort_keys=False))
    as_yaml = yaml.safe_load(_plan_cli("--baseline", str(base), "-o", "yaml", "--fail-on", "never").stdout)
    as_json = json.loads(_plan_cli("--baseline", _baseline(tmp_path, BASE), "-o", "json", "--fail-on", "never").stdout)
    assert as_yaml == as_json and as_yaml["kind"] == "PlanDiff"


def test_a_bad_baseline_with_json_output_is_one_failure_document(tmp_path):
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}}
    result = _plan_cli("--baseline", _baseline(tmp_path, pod), "-o", "json", env=LOG)
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert (doc["kind"], doc["exitCode"]) == ("Failure", 2)
    assert [(d["code"], d["line"], d["field"]) for d in doc["diagnostics"]] == [("WAS680", 2, "apiVersion")]


def test_a_real_dra_plan_diffs_its_claims_devices():
    dra = FIXTURES / "examples" / "dra"
    head = _plan(dra / "workloads", dra / "cluster.yaml")
    base = copy.deepcopy(head)
    claim = next(c for c in base["resourceClaims"] if c["devices"])
    claim["devices"][0]["device"] = "other-device"
    (changed,) = diff_plans(base, head).changes
    assert (changed.kind, changed.key, changed.change, changed.effect) == \
        ("ResourceClaim", f"{claim['namespace']}/{claim['name']}", "DevicesChanged", "neutral")


# --to-k8s: the same inputs planned under --k8s-version (the baseline) and the target release (the head). A
# PodDisruptionBudget with `selector: {}` covers every pod of its namespace from 1.38 on (preemption/util.go,
# #141785), so the upgrade moves the preemptor to the node whose victim no budget covers.
UPGRADE = FIXTURES / "scenarios" / "pdb-empty-selector"


def _upgrade_cli(tmp_path, *args: str):
    return run("plan", str(UPGRADE / "urgent.yaml"), "--cluster", str(UPGRADE / "cluster.yaml"),
               "--k8s-version", "1.37", "--to-k8s", "1.38", *args, env={"COLUMNS": "100"})


def test_to_k8s_shows_what_the_upgrade_changes_and_fails_on_its_regression(tmp_path):
    result = _upgrade_cli(tmp_path, "--fail-on", "regression")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "Plan diff against the baseline (Kubernetes 1.37 -> 1.38): 1 worse, 1 better, 1 changed",
        "Worse (1)",
        "  Preemption other/free: newly evicted from n1 by Pod default/urgent",
        "Better (1)",
        "  Preemption default/guarded: no longer evicted from n0 by Pod default/urgent",
        "Changed (1)",
        "  Pod default/urgent: moved from n0 to n1",
    ]


def test_to_k8s_json_names_both_releases_and_the_head_plan_decides_the_exit_code(tmp_path):
    result = _upgrade_cli(tmp_path, "-o", "json")
    document = json.loads(result.stdout)
    assert (document["kind"], document["baselineK8sVersion"], document["k8sVersion"]) == ("PlanDiff", "1.37", "1.38")
    assert document["summary"] == {"changes": 3, "regressions": 1, "improvements": 1, "neutral": 1}
    assert result.exit_code == 0  # --fail-on pending: the 1.38 plan binds urgent


def test_to_k8s_goes_with_neither_a_baseline_nor_junit_nor_a_gate_the_target_removed(tmp_path):
    assert _upgrade_cli(tmp_path, "--baseline", _baseline(tmp_path, BASE)).exit_code == 2
    assert _upgrade_cli(tmp_path, "-o", "junit").exit_code == 2
    refused = _upgrade_cli(tmp_path, "--feature-gates", "PodGroupPreemptionPolicy=true")
    assert refused.exit_code == 2 and "unrecognized feature gate: PodGroupPreemptionPolicy" in refused.stderr

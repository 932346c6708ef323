"""What a new user meets first: usage mistakes, the rule catalogue by name, config typos, the schema of the
release. Each test runs the real CLI on real input and checks the exact words and exit code."""

from __future__ import annotations

import contextlib
import io
import json

from tests.cli.helpers import run
from wasplan.cli.app import app
from wasplan.cli.boundary import guarded


def cli(*args: str) -> tuple[int, str, str]:
    """The console script's path: the exception boundary around the app, as `wasplan ...` runs it."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = guarded(app, list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_bad_option_is_one_line_naming_the_command_and_its_help():
    code, out, err = cli("config", "--bogus")
    assert (code, out) == (2, "")
    assert err == "wasplan config: error: No such option: --bogus (see `wasplan config -h`)\n"
    code, _, err = cli("plan")
    assert code == 2
    assert err == "wasplan plan: error: Missing argument 'PATH...' (see `wasplan plan -h`)\n"
    code, _, err = cli("plna")
    assert err == "wasplan: error: No such command 'plna'. Did you mean 'plan'? (see `wasplan -h`)\n"


def test_a_bad_option_with_json_output_is_still_one_failure_document():
    code, out, err = cli("config", "-o", "json", "--bogus")
    assert code == 2
    assert json.loads(out)["message"] == "No such option: --bogus"
    assert len(err.splitlines()) == 1


def test_rules_takes_the_name_it_prints():
    listing = run("rules").output
    assert "WAS009  no-input" in listing
    by_name, by_code = run("rules", "no-input"), run("rules", "WAS009")
    assert by_name.exit_code == 0
    assert by_name.output == by_code.output
    assert by_name.output.startswith("WAS009 no-input (error)\n")
    assert run("rules", "No-Input").output == by_code.output


def test_rules_suggests_the_nearest_name_or_code():
    result = run("rules", "no-inptu")
    assert result.exit_code == 2
    assert "no diagnostic code or rule name matches 'no-inptu'; did you mean no-input?" in result.output
    assert "did you mean WAS009?" in run("rules", "WAS99").output


def test_rules_usage_shows_its_argument_once_bracketed():
    assert run("rules", "-h").output.startswith("Usage: wasplan rules [OPTIONS] [CODE]\n")


def test_a_mistyped_config_key_gets_a_did_you_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".wasplan.yaml").write_text('k8s-verison: "1.36"\n', encoding="utf-8")
    result = run("config")
    assert result.exit_code == 2
    assert result.output.startswith("wasplan: .wasplan.yaml:1:1: error WAS902 unknown key 'k8s-verison'; did you "
                                    "mean 'k8s-version'? (known keys: k8s-version, feature-gates, ")
    (tmp_path / ".wasplan.yaml").write_text("colour: true\n", encoding="utf-8")
    assert "unknown key 'colour'; known keys: k8s-version," in run("config").output


def _schema_id(output: str) -> str:
    return next(k for k in json.loads(output)["$defs"] if k.endswith("PodGroupSpec"))


def test_schema_of_a_kind_in_several_versions_is_the_release_s_version(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("schema", "PodGroup")
    assert result.exit_code == 0, result.output
    assert _schema_id(result.output) == "io.k8s.api.scheduling.v1beta1.PodGroupSpec"
    assert _schema_id(run("schema", "PodGroup", "--k8s-version", "1.36").output) == \
        "io.k8s.api.scheduling.v1alpha2.PodGroupSpec"
    forced = run("schema", "PodGroup", "--api-version", "scheduling.k8s.io/v1alpha3").output
    assert _schema_id(forced) == "io.k8s.api.scheduling.v1alpha3.PodGroupSpec"
    (tmp_path / ".wasplan.yaml").write_text('k8s-version: "1.36"\n', encoding="utf-8")
    assert _schema_id(run("schema", "PodGroup").output) == "io.k8s.api.scheduling.v1alpha2.PodGroupSpec"


def test_schema_refuses_a_kind_the_release_does_not_serve(tmp_path, monkeypatch):
    """CompositePodGroup is new in 1.37: asked for 1.36 it is exit 2, naming what 1.36 serves instead."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("schema", "CompositePodGroup", "--k8s-version", "1.36")
    assert (code, out) == (2, "")
    assert err == ("wasplan: error: Kubernetes 1.36 does not serve CompositePodGroup in scheduling.k8s.io/v1alpha3 or "
                   "scheduling.k8s.io/v1beta1; its scheduling kinds are PodGroup, Workload\n")
    code, out, err = cli("schema", "Workload", "--api-version", "scheduling.k8s.io/v1alpha1", "--k8s-version", "1.37")
    assert code == 2
    assert err == ("wasplan: error: Kubernetes 1.37 does not serve Workload in scheduling.k8s.io/v1alpha1 (it serves "
                   "Workload as scheduling.k8s.io/v1beta1, scheduling.k8s.io/v1alpha3); its scheduling kinds are "
                   "CompositePodGroup, PodGroup, Workload\n")
    code, out, _ = cli("schema", "CompositePodGroup", "--k8s-version", "1.37")
    assert code == 0 and "io.k8s.api.scheduling.v1alpha3.CompositePodGroupSpec" in json.loads(out)["$defs"]
    code, out, _ = cli("schema", "Cluster", "--k8s-version", "1.36")  # wasplan's own kind: every release
    assert code == 0 and json.loads(out)["$id"].endswith("wasplan.io/v1alpha1/Cluster.json")


def test_schema_list_for_a_release_holds_only_what_it_serves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("schema", "--k8s-version", "1.36")
    listed = [line.split("\t") for line in out.splitlines()]
    assert code == 0
    assert ["scheduling.k8s.io/v1alpha3", "CompositePodGroup"] not in listed
    assert ["scheduling.k8s.io/v1alpha2", "PodGroup"] in listed and ["wasplan.io/v1alpha1", "Cluster"] in listed
    assert len(cli("schema")[1].splitlines()) > len(listed)


# --- plan and explain ---------------------------------------------------------------------------------------------

from tests.conftest import FIXTURES  # noqa: E402

NEW = FIXTURES / "new-user"
CLUSTER = str(NEW / "cluster.yaml")
NARROW = {"COLUMNS": "80"}


def test_pending_pods_of_a_deployment_and_a_leaderworkerset_collapse_with_counts():
    result = run("plan", str(NEW / "web.yaml"), str(NEW / "llm.yaml"), "--cluster", CLUSTER, env=NARROW)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "Plan for Kubernetes 1.37: 1 node, 9 pods — 0 bound, 0 already bound, 9 pending,"
    assert lines[2] == "Pending pods (9)"
    assert lines[3] == "  leaderworkerset ml/llm: 6 pods Pending: 0/1 nodes are available: 1 node(s)"
    assert lines[6] == "  deployment ml/web: 3 pods Pending: 0/1 nodes are available: 1 node(s) didn't"
    assert len(lines) == 9
    assert len(run("plan", str(NEW / "web.yaml"), "--cluster", CLUSTER, "-v").stdout.splitlines()) > 5


def test_counts_of_one_read_as_one():
    plan = run("plan", str(NEW / "lone-pod.yaml"), "--cluster", CLUSTER, env={"COLUMNS": "200"}).stdout
    assert plan.splitlines()[0] == ("Plan for Kubernetes 1.37: 1 node, 1 pod — 0 bound, 0 already bound, 1 pending, "
                                    "0 preempted")
    text = run("explain", str(NEW / "lone-pod.yaml"), "--cluster", CLUSTER, env={"COLUMNS": "200"}).stdout
    assert "  exact check: does not fit: no assignment places more than 0 of the 1 pod still needed\n" in text
    # plain words, never "1 node in 0 classes, 1 pod shape"
    assert "  Exact check (1 node, which cannot hold one of these pods; 1 kind of pod):\n" in text
    assert "  pods ml/p (no resource requests)\n" in text  # not an empty "()"
    assert "    NodeAffinity rejects 1 node: nodeSelector zone=b (no node has it; nodes have a)\n" in text
    assert "    0 nodes pass the filters for these pods, room aside\n" in text
    assert "  1. remove nodeSelector zone=b (opens 1 node)\n" in text
    assert "     why: no node has zone=b (nodes have a); without the term 1 more node qualifies\n" in text
    assert f"     {NEW / 'lone-pod.yaml'}:6 Pod/ml/p spec.nodeSelector.zone: remove\n" in text  # no "remove None"


def test_explain_fixes_for_generated_pods_point_at_their_template():
    result = run("explain", str(NEW / "web.yaml"), str(NEW / "llm.yaml"), "--cluster", CLUSTER, "-o", "json")
    changes = {t["name"]: t["suggestions"][0]["changes"][0] for t in json.loads(result.stdout)["targets"]}
    assert changes["llm-0-1"] == {
        "action": "remove", "file": str(NEW / "llm.yaml"), "line": 11, "object": "LeaderWorkerSet/ml/llm",
        "fieldPath": "spec.leaderWorkerTemplate.workerTemplate.spec.nodeSelector.zone",
        "path": ["spec", "leaderWorkerTemplate", "workerTemplate", "spec", "nodeSelector", "zone"], "value": None}
    web = next(v for k, v in changes.items() if k.startswith("web-"))
    assert (web["file"], web["line"], web["object"], web["fieldPath"]) == (
        str(NEW / "web.yaml"), 11, "Deployment/ml/web", "spec.template.spec.nodeSelector.zone")
    assert "<generated>" not in result.stdout


def test_identical_explain_blocks_collapse_past_the_suggestion_limit():
    """Six LWS pods and three Deployment pods: more targets than the five that get suggestions, but two looks.
    Each look is one block, and every block has its verified fix."""
    text = run("explain", str(NEW / "web.yaml"), str(NEW / "llm.yaml"), "--cluster", CLUSTER, env=NARROW).stdout
    heads = [line for line in text.splitlines() if line.startswith(("6 Pods", "3 Pods"))]
    assert heads == ["6 Pods ml/llm-0, ml/llm-0-1, ml/llm-0-2, +3 more: does not fit: 0/1 nodes are",
                     "3 Pods ml/web-797dcb5479-[0-2]: does not fit: 0/1 nodes are available: 1 node(s)"]
    assert text.count("What would make it fit") == 2
    assert "suggestions are computed for the first pending targets only" not in text
    assert "No single verified change was found" not in text


def test_a_plan_stopped_by_invalid_input_ends_saying_nothing_was_planned():
    code, out, err = cli("plan", str(FIXTURES / "manifests" / "broken-from-a-blog.yaml"), "--cluster", CLUSTER)
    assert (code, out) == (2, "")
    assert err.endswith("\nwasplan: the inputs are invalid (9 errors); nothing was planned\n")
    code, _, err = cli("explain", str(FIXTURES / "manifests" / "broken-from-a-blog.yaml"), "--cluster", CLUSTER)
    assert err.endswith("\nwasplan: the inputs are invalid (9 errors); nothing was planned or explained\n")


def test_the_composite_tree_wraps_with_a_hanging_indent_and_no_trailing_spaces():
    root = FIXTURES / "explain" / "composite"
    text = run("plan", str(root / "gang.yaml"), "--cluster", str(root / "cluster.yaml"), env=NARROW).stdout
    start = text.index("CompositePodGroups\n")
    assert text[start:].splitlines()[:7] == [
        "CompositePodGroups",
        "└── ml/pipeline-stage (gang 2) Unschedulable: pod group is unschedulable, 0/1",
        "        placements are available, first placement status: minCount (2) cannot be",
        "        satisfied: 1 scheduled, 0 remaining",
        "    ├── pipeline-shard-0 Reverted: pod group is unschedulable, 0/1 placements",
        "    │       are available, first placement status: minCount (2) cannot be",
        "    │       satisfied: 1 scheduled, 0 remaining",
    ]
    assert not [line for line in text.splitlines() if line != line.rstrip()]
    assert max(len(line) for line in text.splitlines()) <= 80


def test_plan_json_says_what_produced_it_and_where_unplanned_objects_are():
    import wasplan

    paths = [str(NEW / "web.yaml"), str(NEW / "pytorch.yaml")]
    result = run("plan", *paths, "--cluster", CLUSTER, "-o", "json", "--arrival", "batch",
                 "--feature-gates", "CompositePodGroup=false")
    plan = json.loads(result.stdout)
    produced = plan["producedBy"]
    assert {k: v for k, v in produced.items() if k != "featureGates"} == {
        "tool": "wasplan", "version": wasplan.__version__, "k8sVersion": "1.37", "upstreamVersion": "v1.37.2",
        "prerelease": False, "arrival": "batch",
        "preemption": True, "nodes": 1,
        "inputs": {"manifests": paths, "cluster": [CLUSTER], "schedulerConfig": None}}
    assert produced["featureGates"]["CompositePodGroup"] is False
    assert produced["featureGates"]["DRAWorkloadResourceClaims"] is False  # upstream's default, not "all on"
    assert produced["featureGates"]["GenericWorkload"] is True
    assert list(produced["featureGates"]) == sorted(produced["featureGates"])
    assert plan["unplanned"] == [{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "namespace": "ml",
                                  "name": "bert", "file": paths[1], "line": 3}]
    text = run("plan", *paths, "--cluster", CLUSTER, env={"COLUMNS": "200"}).stdout
    assert f"  {paths[1]}:3: PyTorchJob ml/bert (kubeflow.org/v1)\n" in text


def test_plan_json_of_stdin_names_it_as_the_command_line_does():
    source = (NEW / "pytorch.yaml").read_text()
    plan = json.loads(run("plan", "-", "--cluster", CLUSTER, "-o", "json", stdin=source).stdout)
    assert plan["producedBy"]["inputs"]["manifests"] == ["-"]
    assert (plan["unplanned"][0]["file"], plan["unplanned"][0]["line"]) == ("-", 3)


# --- empty input, stdin ---------------------------------------------------------------------------------------------


def test_an_empty_file_says_it_is_empty(tmp_path):
    empty, comments = tmp_path / "empty.yaml", tmp_path / "comments.yaml"
    empty.write_text("")
    comments.write_text("# to do\n---\n")
    result = run("validate", str(empty))
    assert result.exit_code == 2
    assert result.output.startswith(f"{empty}: error WAS009 {empty} is empty: no manifests to check\n")
    assert f"error WAS009 {comments} holds only comments: no manifests to check" in run("lint", str(comments)).output
    both = run("validate", str(empty), str(comments)).output
    assert f"error WAS009 {empty}, {comments} hold only comments: no manifests to check" in both
    migrate = run("migrate", str(empty), "--to-k8s", "1.37", "--check")
    assert migrate.exit_code == 2
    assert f"error WAS009 {empty} is empty: no manifests to check" in migrate.output


def test_empty_stdin_says_nothing_was_piped():
    expected = "<stdin>: error WAS009 standard input is empty (was nothing piped into `-`?): no manifests to check\n"
    for command in (["validate", "-"], ["lint", "-"], ["migrate", "-", "--to-k8s", "1.37"],
                    ["plan", "-", "--cluster", CLUSTER]):
        result = run(*command, stdin="")
        assert result.exit_code == 2, command
        assert result.output.startswith(expected) or expected in result.stderr, command


def test_a_file_without_new_objects_still_replays_the_snapshot_in_plan(tmp_path):
    nothing = tmp_path / "nothing.yaml"
    nothing.write_text("# nothing new\n")
    assert run("plan", str(nothing), "--cluster", CLUSTER).exit_code == 0


OLD_PODGROUP = """apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: workers, namespace: ml}
spec:
  schedulingPolicy:
    gang: {minCount: 2}
"""


def test_the_migrate_hint_for_stdin_input_is_a_command_that_runs():
    result = run("validate", "-", stdin=OLD_PODGROUP)
    assert result.exit_code == 1
    assert "    hint: run `... | wasplan migrate --to-k8s 1.37 -`\n" in result.output
    assert "<stdin>`" not in result.output
    migrated = run("migrate", "--to-k8s", "1.37", "-", stdin=OLD_PODGROUP)  # the hint's command, fed the same input
    assert migrated.exit_code == 0, migrated.output
    assert migrated.stdout.startswith("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n")

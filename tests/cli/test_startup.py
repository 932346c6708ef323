"""Start-up: `--version` answers before Typer is imported, `--help` lists the commands without importing their
modules, and a command imports only its own module (checked in a fresh process through sys.modules)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import FIXTURES

_PROBE = """
import io, json, sys, contextlib
modules = json.loads(sys.argv[2]) if len(sys.argv) > 2 else None
sys.argv = ["wasplan", *json.loads(sys.argv[1])]
from wasplan.cli.app import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main()
    except SystemExit:
        pass
heavy = ("numpy", "pydantic", "typer", "rich", "ruamel.yaml", "jsonschema", "kubernetes_validate",
         "typer._adapters", "wasplan.engine", "wasplan.engine.simulator", "wasplan.cli.plan_cmd",
         "wasplan.cli.validate_cmd", "wasplan.cli.explain_cmd", "wasplan.cli.migrate_cmd")
heavy = modules or heavy
print(json.dumps({"out": out.getvalue(), "loaded": [m for m in heavy if m in sys.modules]}))
"""


def _probe(*args: str, modules: tuple[str, ...] | None = None) -> dict:
    extra = [json.dumps(list(modules))] if modules is not None else []
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(list(args)), *extra], capture_output=True,
                          text=True, check=True, env={"COLUMNS": "80", "PATH": ""})
    return json.loads(done.stdout)


def test_version_imports_neither_numpy_nor_the_engine_nor_typer():
    probe = _probe("--version")
    assert probe["out"] == "wasplan 0.1.0\n"
    assert probe["loaded"] == []


def test_help_lists_every_command_without_importing_one():
    probe = _probe("--help")
    assert "  explain   Why a gang won't fit, and the smallest change (verified by" in probe["out"]
    assert probe["loaded"] == ["typer"]


def test_validate_imports_neither_the_engine_nor_pydantic_nor_python_jsonschema():
    probe = _probe("validate", str(FIXTURES / "manifests" / "training-1.37.yaml"))
    assert probe["out"].startswith("OK: 7 documents")
    assert probe["loaded"] == ["typer", "rich", "wasplan.cli.validate_cmd"]


CEL = ("wasplan.cel.compiler", "wasplan.cel.checker", "wasplan.cel.evaluator")


def test_plan_without_device_selectors_loads_no_cel_runtime():
    probe = _probe("plan", str(FIXTURES / "examples" / "training"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json", modules=CEL)
    assert json.loads(probe["out"])["summary"]
    assert probe["loaded"] == []


def test_plan_with_device_selectors_checks_and_compiles_them():
    probe = _probe("plan", str(FIXTURES / "examples" / "dra"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json", modules=CEL)
    assert json.loads(probe["out"])["summary"]
    assert probe["loaded"] == list(CEL)


# What a plan loads only when its inputs hold DRA objects or pods with claims (cluster/dra_gate.py,
# engine/profile/draworld.py, validate/rules): the records, their parsers, the ResourceClaim controller, the
# allocator, the plugin's stateful object, the plan's claim section, and the DRA objects' server-side rules with
# CEL's checker.
DRA = ("wasplan.cluster.devices", "wasplan.cluster.parse_dra", "wasplan.cluster.cluster_devices",
       "wasplan.cluster.claims", "wasplan.engine.dra", "wasplan.engine.plugins.dynamic_resources.plugin",
       "wasplan.engine.result.claimoutcome", "wasplan.validate.rules.dra", "wasplan.cel.info",
       "wasplan.cluster.reservations", "wasplan.cluster.dra_refs")


def test_plan_without_dra_objects_loads_no_dra_module():
    probe = _probe("plan", str(FIXTURES / "examples" / "training"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json", modules=DRA)
    plan = json.loads(probe["out"])
    assert plan["summary"]["bound"] == 7 and plan["resourceClaims"] == []
    assert probe["loaded"] == []


def test_plan_with_dra_objects_loads_the_dra_engine_and_reports_claims():
    probe = _probe("plan", str(FIXTURES / "examples" / "dra"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json", modules=DRA)
    assert json.loads(probe["out"])["resourceClaims"]
    assert probe["loaded"] == list(DRA)


def test_writing_the_snapshot_of_a_plan_without_dra_loads_no_dra_writer(tmp_path):
    snapshot = tmp_path / "after.yaml"
    probe = _probe("plan", str(FIXTURES / "examples" / "training"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json", "--emit-snapshot", str(snapshot),
                   modules=(*DRA, "wasplan.cluster.dra_objects"))
    assert "kind: Node" in snapshot.read_text() or '"kind": "Node"' in snapshot.read_text()
    assert probe["loaded"] == []


def test_plan_without_kueue_objects_loads_neither_the_kueue_model_nor_its_rules_nor_suppression():
    probe = _probe("plan", str(FIXTURES / "examples" / "training"), "--cluster",
                   str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json",
                   modules=("wasplan.kueue", "wasplan.validate.rules.kueue", "wasplan.validate.rules.kueue_config",
                            "wasplan.suppress"))
    assert "kueue" not in json.loads(probe["out"])
    assert probe["loaded"] == []


def test_a_pod_naming_a_missing_claim_without_any_dra_object_is_still_reported(tmp_path):
    """No DRA record in the inputs, but a pod names a claim: the reference checks load and report it (WAS661)
    and the pod waits for the claim, as before the DRA modules became lazy."""
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n"
        "  containers: [{name: c, image: x, resources: {claims: [{name: gpu}]}}]\n"
        "  resourceClaims:\n  - {name: gpu, resourceClaimName: missing}\n")
    (tmp_path / "nodes.yaml").write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n")
    args = (str(tmp_path / "pod.yaml"), "--cluster", str(tmp_path / "nodes.yaml"))
    done = subprocess.run([sys.executable, "-m", "wasplan", "plan", *args], capture_output=True, text=True,
                          env={"COLUMNS": "300", "PATH": ""})
    assert "pod.yaml:7:17: warning WAS661 ResourceClaim default/missing is not in the inputs" in done.stderr
    probe = _probe("plan", *args, "-o", "json", modules=("wasplan.cluster.dra_refs",))
    assert probe["loaded"] == ["wasplan.cluster.dra_refs"]
    pods = json.loads(probe["out"])["pods"]
    assert [(p["name"], p["status"], p["message"]) for p in pods] == [
        ("p", "Gated", 'resourceclaim.resource.k8s.io "missing" not found')]


_BLAS_PROBE = """
import contextlib, io, os, sys
sys.argv = ["wasplan", "validate", sys.argv[1]]
from wasplan.cli.app import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main()
    except SystemExit:
        pass
print(os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_a_command_starts_numpy_without_a_blas_thread_pool_unless_the_user_asks_for_one():
    def threads(env: dict) -> str:
        done = subprocess.run([sys.executable, "-c", _BLAS_PROBE, str(FIXTURES / "manifests" / "training-1.37.yaml")],
                              capture_output=True, text=True, check=True, env={"PATH": "", **env})
        return done.stdout.strip()

    assert threads({}) == "1"
    assert threads({"OPENBLAS_NUM_THREADS": "4"}) == "4"

"""The pre-commit hooks of .pre-commit-hooks.yaml, run for real through `pre-commit try-repo` on a small git
repository.

The hooks use `language: python`, so pre-commit builds a virtualenv and pip-installs this repository into it,
exactly as it does for a user. A clean CI machine may have no network, so the test makes that install offline:
pip gets `--no-index --no-deps --no-build-isolation` (through PIP_* variables) and the hook's interpreter sees
the test environment's packages (typer, numpy, hatchling, ...) through PYTHONPATH — minus wasplan itself, so
the `wasplan` the hook runs is the one pip just built from this checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="try-repo needs this checkout to be a git repository")


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory) -> dict[str, str]:
    """Environment for pre-commit: its own cache, and an offline pip that finds build and runtime deps."""
    shared = tmp_path_factory.mktemp("site")
    site = Path(sysconfig.get_paths()["purelib"])
    for entry in site.iterdir():
        if not entry.name.startswith(("wasplan", "__editable__", "_wasplan")) and not entry.name.endswith(".pth"):
            (shared / entry.name).symlink_to(entry)
    return {**os.environ, "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
            "PYTHONPATH": str(shared), "PIP_NO_INDEX": "1", "PIP_NO_DEPS": "1",
            "PIP_NO_BUILD_ISOLATION": "0",  # pip reads "0" as "--no-build-isolation" for this negative option
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def _repo(path: Path, files: dict[str, str], env: dict) -> Path:
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text)
    for cmd in (["git", "init", "-q"], ["git", "add", "."], ["git", "-c", "commit.gpgsign=false", "commit", "-qm", "files"]):
        subprocess.run(cmd, cwd=path, env=env, check=True)
    return path


def _try(hook: str, repo: Path, env: dict) -> subprocess.CompletedProcess:
    exe = shutil.which("pre-commit", path=os.path.dirname(sys.executable)) or "pre-commit"
    return subprocess.run([exe, "try-repo", str(ROOT), hook, "--all-files", "--color", "never"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


GOOD = (FIXTURES / "examples" / "training" / "finetune.yaml").read_text()
VALUES = "replicas: 2\nimage: {repository: ghcr.io/example/finetune}\n"
OLD = ("apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata:\n  name: old\nspec:\n  podGroups:\n"
       "  - name: workers\n    policy:\n      gang: {minCount: 2}\n")


def test_validate_hook_passes_on_manifests_and_skips_helm_values(tmp_path, hook_env):
    repo = _repo(tmp_path, {"k8s/finetune.yaml": GOOD, "chart/values.yaml": VALUES}, hook_env)
    done = _try("wasplan-validate", repo, hook_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "wasplan validate" in done.stdout and "Passed" in done.stdout


def test_validate_hook_fails_with_the_finding(tmp_path, hook_env):
    broken = GOOD.replace("      gang:\n        minCount: 2\n    schedulingConstraints", "      gang:\n        minCount: 0\n"
                          "    schedulingConstraints", 1)
    repo = _repo(tmp_path, {"k8s/finetune.yaml": broken}, hook_env)
    done = _try("wasplan-validate", repo, hook_env)
    assert done.returncode == 1
    assert "Failed" in done.stdout
    assert "k8s/finetune.yaml:16:9: error WAS105" in done.stdout


def test_lint_hook_sees_every_file_at_once(tmp_path, hook_env):
    pod = GOOD.split("---\n")[3]  # trainer-0 alone would be WAS404/WAS405 without its PodGroup's file
    repo = _repo(tmp_path, {"k8s/groups.yaml": "---\n".join(GOOD.split("---\n")[:3]), "k8s/pods.yaml": pod,
                            ".wasplan.yaml": "strict: true\nignore: [WAS405]\n"}, hook_env)
    done = _try("wasplan-lint", repo, hook_env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_migrate_check_hook_fails_on_an_unserved_version(tmp_path, hook_env):
    repo = _repo(tmp_path, {"k8s/old.yaml": OLD, "k8s/finetune.yaml": GOOD}, hook_env)
    done = _try("wasplan-migrate-check", repo, hook_env)
    assert done.returncode == 1
    assert "k8s/old.yaml" in done.stdout and "Failed" in done.stdout

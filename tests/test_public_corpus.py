"""wasplan's verdicts on the public corpus (fixtures/public), pinned so that a change of verdict shows without Go.

For every case of fixtures/public/cases.yaml and every release, `wasplan plan MANIFESTS --cluster SNAPSHOT -o json`
gives an exit code and, per pod the manifests create, a status; an invalid case gives its error codes. These are
held in fixtures/public/verdicts.yaml, each checked against the oracle by tests/oracle/test_public_corpus.py (or
listed there with its cause). A case whose verdict changes fails here: if the change is meant (a fix merged), run
`WASPLAN_RECORD_VERDICTS=1 pytest tests/test_public_corpus.py` and review the diff of verdicts.yaml.

Beyond the pins, what a user relies on is asserted directly: an object whose pods the plan cannot make (a Kubeflow
TrainJob, an MPIJob, a Volcano Job) is named under `unplanned` and the plan exits 1, never "Every pod is placed".
"""

from __future__ import annotations

import os

import pytest
import yaml

from tests.corpus_cases import CASES, PUBLIC, SOURCES, plan_json

RELEASES = ("1.36", "1.37", "1.38")
VERDICTS = PUBLIC / "verdicts.yaml"
RECORD = os.environ.get("WASPLAN_RECORD_VERDICTS") == "1"


def verdict(code: int, doc: dict) -> dict:
    """What is pinned of one plan: the exit code; the status of each pod other than those already running; the
    objects left unplanned; for an invalid input, its error codes."""
    out: dict = {"exit": code}
    pods = {f"{p['namespace']}/{p['name']}": p["status"] for p in doc.get("pods") or () if p["status"] != "AlreadyBound"}
    if pods:
        out["pods"] = pods
    unplanned = [f"{u['kind']} {u['namespace']}/{u['name']}" for u in doc.get("unplanned") or ()]
    if unplanned:
        out["unplanned"] = unplanned
    errors = sorted({d["code"] for d in doc.get("diagnostics") or () if d.get("severity") == "error"})
    if errors:
        out["errors"] = errors
    return out


def _pinned() -> dict:
    return yaml.safe_load(VERDICTS.read_text()) if VERDICTS.exists() else {}


_recorded: dict = {}


@pytest.fixture(scope="module")
def pinned():
    yield _pinned()
    if RECORD and _recorded:
        merged = {**_pinned(), **{k: {**_pinned().get(k, {}), **v} for k, v in _recorded.items()}}
        ordered = {c.label: merged[c.label] for c in CASES if c.label in merged}
        header = ("# wasplan's verdicts on the public corpus, per case (manifests@snapshot) and release: exit code, the\n"
                  "# status of each pod the manifests create, objects left unplanned, error codes. Pinned by\n"
                  "# tests/test_public_corpus.py; rewritten with WASPLAN_RECORD_VERDICTS=1.\n")
        VERDICTS.write_text(header + yaml.safe_dump(ordered, sort_keys=False, width=120))


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_verdict_is_pinned(case, release, pinned):
    got = verdict(*plan_json(case, release))
    if RECORD:
        _recorded.setdefault(case.label, {})[release] = got
        return
    assert case.label in pinned, f"{case.label} has no pinned verdict: record them (module docstring)"
    assert got == pinned[case.label][release]


def test_every_case_and_every_file_is_accounted_for():
    """Each case names manifests and a snapshot that exist; every published file is in a case and in README.md."""
    readme = (PUBLIC / "README.md").read_text()
    covered = set()
    for case in CASES:
        assert case.path.exists(), case.manifests
        assert case.cluster_path.is_file(), case.cluster
        covered |= set(case.files)
    for source in SOURCES:
        for path in sorted((PUBLIC / source).rglob("*.y*ml")):
            assert path in covered, f"{path} is in no case of cases.yaml"
            assert f"`{path.relative_to(PUBLIC / source)}`" in readme, f"{path} has no row in README.md"


UNMODELLED = {"trainer/01-multi-node.yaml": "TrainJob default/multi-node-example",
              "kueue/sample-mpijob.yaml": "MPIJob default/pi",
              "volcano/job.yaml": "Job default/test-job"}


@pytest.mark.parametrize("manifests", sorted(UNMODELLED))
def test_objects_the_plan_cannot_expand_are_named_and_fail_the_plan(manifests):
    case = next(c for c in CASES if c.manifests == manifests)
    code, doc = plan_json(case, "1.37")
    assert code == 1
    assert UNMODELLED[manifests] in [f"{u['kind']} {u['namespace']}/{u['name']}" for u in doc["unplanned"]]


# NVIDIA's quickstart in resource.k8s.io/v1beta1: each pod binds to gpu-node-0 with the devices the oracle allocates
# (`oracle plan ... --k8s-version 1.36/1.37`), the v1beta1 templates read as the API server converts them
V1BETA1_NVIDIA = {
    "nvidia-dra-driver-gpu/gpu-test7.yaml": {"gpu-test7/gpu-pod": ["gpu-0", "gpu-1"]},
    "nvidia-dra-driver-gpu/gpu-test8.yaml": {"gpu-test8/gpu-pod": ["gpu-0", "gpu-1"]},
    "nvidia-dra-driver-gpu/v1beta1-gpu-test1.yaml": {"gpu-test1/pod1": ["gpu-0"], "gpu-test1/pod2": ["gpu-1"]},
}


@pytest.mark.parametrize("release", ["1.36", "1.37"])  # 1.38 no longer serves resource.k8s.io/v1beta1
@pytest.mark.parametrize("manifests", sorted(V1BETA1_NVIDIA))
def test_nvidia_v1beta1_quickstart_is_planned_like_upstream(manifests, release):
    case = next(c for c in CASES if c.manifests == manifests)
    code, doc = plan_json(case, release)
    assert code == 0 and not [d for d in doc.get("diagnostics") or () if d["severity"] == "error"]
    placed = {f"{p['namespace']}/{p['name']}": (p["status"], p["node"]) for p in doc["pods"]
              if p["status"] != "AlreadyBound"}
    assert placed == {pod: ("Bound", "gpu-node-0") for pod in V1BETA1_NVIDIA[manifests]}
    devices: dict = {}
    for claim in doc["resourceClaims"]:
        owner = f"{claim['namespace']}/{claim['owner']['name']}"
        devices.setdefault(owner, []).extend((d["request"], d["driver"], d["device"]) for d in claim["devices"])
    assert devices == {pod: [("gpu", "gpu.nvidia.com", gpu) for gpu in gpus]
                       for pod, gpus in V1BETA1_NVIDIA[manifests].items()}


@pytest.mark.parametrize("manifests", sorted(V1BETA1_NVIDIA))
def test_nvidia_v1beta1_quickstart_is_refused_by_1_38(manifests):
    """resource.k8s.io/v1beta1's kinds are APILifecycleRemoved in 1.38: v1.38.0-beta.0's API server (and the
    oracle, which asks the same evaluator) does not serve them, so the plan stops at validation."""
    case = next(c for c in CASES if c.manifests == manifests)
    code, doc = plan_json(case, "1.38")
    errors = {d["code"] for d in doc.get("diagnostics") or () if d["severity"] == "error"}
    assert (code, errors) == (2, {"WAS109"})

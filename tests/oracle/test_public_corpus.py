"""The public corpus (fixtures/public: manifests as Kubernetes, NVIDIA, the DRA example driver, JobSet, LWS,
Kueue, Kubeflow, scheduler-plugins and Volcano publish them) planned by wasplan and by the oracle, for 1.36 and
1.37, and compared as the generated cases are (compare.py: statuses, nodes up to upstream's ties, group
conditions, victims, claims).

The oracle is the scheduler and the API server's admission, so it is given what the scheduler would see:
the objects it reads (test_fixtures.ORACLE_KINDS) as published, and in place of each workload controller's
object (Job, JobSet, LeaderWorkerSet, Deployment, ReplicaSet, StatefulSet) the objects wasplan's model of that
controller creates (cluster/controllers/, the same records the plan starts from, written out as the emitted
snapshot writes them), in input order. Objects neither reads (Services, ConfigMaps, a Kubeflow TrainJob, an
MPIJob, a Volcano Job) are left out; wasplan names the pod-running ones under `unplanned`
(tests/test_public_corpus.py holds that). The Job controller model itself is judged by test_expand_oracle.py.
A case that Kueue manages is planned with `--assume-admitted` (tests/corpus_cases.py says why).

A case wasplan refuses (exit 2) agrees when the oracle refuses it too. The cases that disagree today are listed in
public_corpus_divergences.txt, each with its cause; a listed case that agrees fails the test (drop its line).
"""

from __future__ import annotations

import dataclasses
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

import compare
from gen import GATES, RELEASES
from tests.corpus_cases import CASES, Case, plan_json
from tests.oracle.test_fixtures import ORACLE_KINDS

KNOWN_FILE = Path(__file__).with_name("public_corpus_divergences.txt")


AT_RANDOM = "at random: "  # a cause so marked: upstream settles the case in goroutine order, so it may agree in a run


def known() -> dict[tuple[str, str], str]:
    """{(case label, release): cause} from public_corpus_divergences.txt (`LABEL RELEASE: cause`)."""
    out = {}
    for line in KNOWN_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            head, cause = line.split(": ", 1)
            label, release = head.split()
            out[(label, release)] = cause
    return out


KNOWN = known()


# the API groups of ORACLE_KINDS: a scheduler-plugins or Volcano PodGroup is another kind of the same name
ORACLE_GROUPS = {"", "scheduling.k8s.io", "resource.k8s.io", "policy"}
SCHEDULERS = {"default-scheduler"}  # the profiles of the default configuration (no --scheduler-config here)


@dataclasses.dataclass
class SchedulerInput:
    """What the oracle is given of a case, and the pods wasplan plans that the scheduler cannot be shown up front."""

    objects: list[dict] = dataclasses.field(default_factory=list)
    left_out: set[str] = dataclasses.field(default_factory=set)  # kinds neither tool's scheduler reads
    not_shown: set[str] = dataclasses.field(default_factory=set)  # ns/name of pods compared on neither side

    def without_unshown(self, ours: dict, theirs: dict) -> tuple[dict, dict]:
        """Both plans without the pods not shown to the oracle, nor the PodGroups that wasplan fills only with such
        pods (the oracle sees those groups wait for pods that never come; wasplan creates them later)."""
        later = {f"{g['namespace']}/{g['name']}" for g in ours.get("podGroups") or ()
                 if g.get("pods") and set(g["pods"]) <= self.not_shown}

        def keep(plan: dict) -> dict:
            pods = [p for p in plan.get("pods") or () if f"{p['namespace']}/{p['name']}" not in self.not_shown]
            groups = [g for g in plan.get("podGroups") or () if f"{g['namespace']}/{g['name']}" not in later]
            return {**plan, "pods": pods, "podGroups": groups}

        return keep(ours), keep(theirs)


def _group(obj: dict) -> str:
    api_version = obj.get("apiVersion")
    return api_version.split("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def _pod_shown(obj: dict, start_after, out: SchedulerInput) -> bool:
    """A pod the scheduler sees from the start. Not so: one its controller creates only once other pods are
    placed (wasplan's `start_after`: JobSet dependsOn, exclusive placement's followers), which cannot be written
    up front; one addressed to a scheduler the cluster does not run, which kube-scheduler's informer never lists
    (pkg/scheduler/eventhandlers.go responsibleForPod; the oracle would wait for it until its watchdog fires)."""
    spec = obj.get("spec") or {}
    if start_after is None and spec.get("schedulerName", "default-scheduler") in SCHEDULERS:
        return True
    meta = obj.get("metadata") or {}
    out.not_shown.add(f"{meta.get('namespace') or 'default'}/{meta.get('name')}")
    return False


def scheduler_objects(case: Case, release: str, gates: str, assume_admitted: bool) -> SchedulerInput:
    """The case's objects as the scheduler would receive them, in input order."""
    from wasplan.cluster.controllers import expander
    from wasplan.cluster.controllers.context import Expansion
    from wasplan.cluster.generated_names import give_generated_name, needs_name
    from wasplan.cluster.issues import Ctx
    from wasplan.cluster.kueue import admission_of, as_admitted
    from wasplan.cluster.model import Group, Pod, PriorityClass
    from wasplan.cluster.snapshot import records_of
    from wasplan.cluster.snapshot_objects import group_object, pod_object, priority_class_object
    from wasplan.documents import read_paths

    gate_set = compare.gate_set(release, gates)
    docs = read_paths([str(case.path)]).documents
    exp = Expansion(gate_set)
    exp.learn_priorities(doc.obj for doc in docs)
    out = SchedulerInput()
    for doc in docs:
        kind = doc.obj.get("kind")
        if kind in ORACLE_KINDS and _group(doc.obj) in ORACLE_GROUPS:
            if needs_name(doc):  # named as wasplan names it (a generateName alone), so both plans say the same
                give_generated_name(doc, exp.namer, Ctx(doc, []))
            if kind != "Pod" or _pod_shown(doc.obj, None, out):
                out.objects.append(doc.obj)
        elif expander(doc.obj) is not None:
            if assume_admitted and admission_of(doc.obj, doc.namespace or "default"):
                doc = dataclasses.replace(doc, obj=as_admitted(doc.obj))
            for record in records_of(doc, gate_set, [], exp):
                if isinstance(record, Pod):
                    obj = pod_object(record)
                    if _pod_shown(obj, record.start_after, out):
                        out.objects.append(obj)
                elif isinstance(record, Group):
                    out.objects.append(group_object(record, gate_set.release))
                elif isinstance(record, PriorityClass):
                    out.objects.append(priority_class_object(record))
        else:
            left_out = f"{kind} ({doc.api_version})" if kind in ORACLE_KINDS else str(kind)
            out.left_out.add(left_out)
    return out


def oracle_plan(binary: Path, manifests: Path, case: Case, release: str, gates: str) -> tuple[int, dict | str]:
    """(exit code, the plan) from `oracle plan`; for exit 2, its message instead of a plan."""
    cmd = [str(binary), "plan", str(manifests), "--cluster", str(case.cluster_path), "--k8s-version", release,
           "--feature-gates", gates, "--arrival", "sequential", "-o", "json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode in (0, 1) and done.stdout.strip():
        return done.returncode, yaml.safe_load(done.stdout)
    if done.returncode == 2:
        return 2, done.stderr.strip()[-2000:]
    raise AssertionError(f"oracle failed (exit {done.returncode}): {' '.join(cmd)}\n{done.stderr[-3000:]}")


@dataclasses.dataclass
class Run:
    """One case in one release: wasplan's exit code and plan, the oracle's input, then the oracle's answer."""

    case: Case
    release: str
    root: Path
    code: int = 0
    ours: dict = dataclasses.field(default_factory=dict)
    shown: SchedulerInput = dataclasses.field(default_factory=SchedulerInput)
    their_code: int = 0
    theirs: dict | str = ""

    @property
    def manifests(self) -> Path:
        return self.root / "manifests.yaml"

    def prepare(self) -> "Run":
        """wasplan's side and the oracle's input (in process: never from several threads at once)."""
        gates = GATES[self.release]
        self.code, self.ours = plan_json(self.case, self.release, gates=gates, assume_admitted=self.case.kueue)
        self.shown = scheduler_objects(self.case, self.release, gates, self.case.kueue)
        objects = self.shown.objects
        self.manifests.write_text(yaml.safe_dump_all(objects, sort_keys=False) if objects else "")
        return self

    def ask_oracle(self, binary: Path) -> "Run":
        self.their_code, self.theirs = oracle_plan(binary, self.manifests, self.case, self.release,
                                                   GATES[self.release])
        return self

    def differences(self) -> tuple[list[str], str]:
        """(differences, a description for a failure)."""
        where = f"{self.case.label} ({self.release}); oracle input {self.manifests}" + \
            (f", left out: {', '.join(sorted(self.shown.left_out))}" if self.shown.left_out else "")
        if 2 in (self.code, self.their_code):
            return ([] if self.code == self.their_code else [self._refusal()]), where
        ours, theirs = self.shown.without_unshown(self.ours, self.theirs)
        result = compare.compare(ours, theirs)
        if result.agree:
            return [], where
        return result.differences, compare.describe(where, self.root, result, ours, theirs)

    def _refusal(self) -> str:
        errors = sorted({d["code"] for d in self.ours.get("diagnostics") or () if d.get("severity") == "error"})
        mine = f"wasplan refuses it ({', '.join(errors)})" if self.code == 2 else f"wasplan plans it (exit {self.code})"
        upstream = (f"the oracle refuses it: {self.theirs}" if self.their_code == 2
                    else f"the oracle plans it (exit {self.their_code})")
        return f"{mine}; {upstream}"


WORKERS = 6  # an oracle run mostly waits (informers settling), so several overlap well even on two cores


@pytest.fixture(scope="session")
def outcomes(oracle_bin, tmp_path_factory) -> dict[tuple[str, str], tuple[list[str], str]]:
    """Every case in both releases: wasplan's side one after another in this process, then the oracle runs several
    at once (each its own process with its own fake API server, docs/oracle.md)."""
    runs = [Run(case, release, tmp_path_factory.mktemp("public")).prepare() for case in CASES for release in RELEASES]
    with ThreadPoolExecutor(WORKERS) as pool:
        done = list(pool.map(lambda run: run.ask_oracle(oracle_bin), runs))
    return {(run.case.label, run.release): run.differences() for run in done}


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_public_case_agrees_with_upstream(outcomes, case, release):
    differences, description = outcomes[(case.label, release)]
    cause = KNOWN.get((case.label, release))
    if cause is not None:
        if not differences and cause.startswith(AT_RANDOM):
            return  # wasplan's plan is the one upstream reached in this run
        assert differences, f"{case.label} {release} now agrees with upstream: drop it from {KNOWN_FILE.name} ({cause})"
        pytest.xfail(cause)
    assert not differences, description + "\n" + "\n".join(f"  - {d}" for d in differences)


def test_every_known_divergence_names_a_case():
    labels = {(c.label, r) for c in CASES for r in RELEASES}
    assert set(KNOWN) <= labels, sorted(set(KNOWN) - labels)

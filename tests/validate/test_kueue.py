"""Kueue's kinds through `wasplan validate` and `wasplan lint`: Kueue v0.17.0's CRD schemas, its CRD CEL rules
and webhooks (WAS240-WAS244), its references by name (WAS440-WAS446) and a queue label on a kind Kueue does not
integrate (WAS447), with file, line and field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]
KQ = "apiVersion: kueue.x-k8s.io/v1beta2\n"
JOB = ("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\n  namespace: {ns}\n  labels:\n    {label}\n"
       "spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{{name: c, image: i}}]\n")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kueue.yaml"
    path.write_text(text)
    return path


def _findings(output: str) -> list[str]:
    return [line for line in output.splitlines() if " WAS" in line and not line.startswith(" ")]


# generated scenarios holding objects Kueue's API server refuses (the oracle's fake client takes them in)
REFUSED = ("first-cycle-retry.yaml", "negative-reservation.yaml", "skipped-retries-all-flavors.yaml")


def test_kueue_samples_and_scenarios_validate_as_kueue_objects_not_unknown_kinds():
    scenarios = [str(p) for p in sorted((FIXTURES / "kueue-scenarios").rglob("*.yaml"))
                 if p.name not in REFUSED and p.name != "expected.yaml"]
    result = run("validate", str(FIXTURES / "kueue"), *scenarios)
    assert result.exit_code == 0, result.output
    assert "WAS010" not in result.output
    assert " valid, 0 invalid; 0 errors, 0 warnings" in result.output


def test_what_kueues_api_server_refuses_in_the_generated_scenarios():
    result = run("validate", *(str(FIXTURES / "kueue-scenarios" / name) for name in REFUSED), env={"COLUMNS": "300"})
    found = sorted({line.split(": error ")[1][:6] + " " + line.split("/")[-1].split(":")[0]
                    for line in _findings(result.output)})
    assert found == ["WAS104 first-cycle-retry.yaml", "WAS104 skipped-retries-all-flavors.yaml",
                     "WAS241 skipped-retries-all-flavors.yaml", "WAS242 negative-reservation.yaml",
                     "WAS242 skipped-retries-all-flavors.yaml"]
    assert ("error WAS104 \"spec.preemption.reclaimWithinCohort\" is 'LowerOrNewerEqualPriority'; allowed values: "
            "Never, LowerPriority, Any") in result.output


def test_cluster_queue_schema_findings_name_line_and_field(tmp_path):
    path = _write(tmp_path, KQ + "kind: ClusterQueue\nmetadata:\n  name: team-a\nspec:\n  queueingStrategy: Fifo\n"
                  "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
                  "    - name: default\n      resources:\n      - name: cpu\n        nominalQuota: 4x\n"
                  "        borrowingLimt: 2\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert _findings(result.output) == [
        f"{path}:6:3: error WAS104 \"spec.queueingStrategy\" is 'Fifo'; allowed values: StrictFIFO, BestEffortFIFO",
        f"{path}:14:9: error WAS107 \"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota\" is '4x'; it must "
        "be a string matching the pattern ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
        "([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
        f"{path}:15:9: error WAS101 unknown field \"spec.resourceGroups[0].flavors[0].resources[0].borrowingLimt\": "
        "kueue.x-k8s.io/v1beta2 ClusterQueue has no such field",
    ]
    assert 'did you mean "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit"?' in result.output


def test_webhook_and_cel_rules_of_a_cluster_queue(tmp_path):
    path = _write(tmp_path, KQ + "kind: ClusterQueue\nmetadata: {name: lone}\nspec:\n  namespaceSelector: {}\n"
                  "  flavorFungibility: {preference: BorrowingOverPreemption}\n"
                  "  preemption: {reclaimWithinCohort: Never, borrowWithinCohort: {policy: LowerPriority}}\n"
                  "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n    - name: a\n"
                  "      resources:\n      - {name: memory, nominalQuota: -1}\n"
                  "      - {name: cpu, nominalQuota: 4, borrowingLimit: 2}\n"
                  "  - coveredResources: [cpu]\n    flavors:\n    - name: a\n      resources: [{name: cpu, nominalQuota: 1}]\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert _findings(result.output) == [
        f'{path}:6:23: error WAS241 preference "BorrowingOverPreemption" can only be set when both whenCanBorrow and '
        "whenCanPreempt are TryNextFlavor",
        f"{path}:7:3: error WAS241 reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never: a ClusterQueue "
        "that never reclaims cannot preempt to borrow",
        f'{path}:13:10: error WAS242 resource "memory" must match the name in coveredResources ("cpu", the same '
        "position)",
        f"{path}:13:24: error WAS242 nominalQuota -1 must be greater than or equal to 0",
        f'{path}:14:10: error WAS242 resource "cpu" must match the name in coveredResources ("memory", the same '
        "position)",
        f"{path}:14:38: error WAS242 borrowingLimit must be nil when cohort is empty: without a cohort there is "
        "nothing to borrow from or lend to",
        f'{path}:15:24: error WAS242 resource "cpu" is covered twice: each resource belongs to one resourceGroup',
        f'{path}:17:7: error WAS242 flavor "a" is also in resourceGroups[0]: a flavor belongs to one resourceGroup',
    ]


def test_lending_limit_above_nominal_in_a_cohort(tmp_path):
    path = _write(tmp_path, KQ + "kind: ClusterQueue\nmetadata: {name: a}\nspec:\n  cohortName: all\n"
                  "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
                  "    - name: f\n      resources: [{name: cpu, nominalQuota: 4, lendingLimit: 5}]\n")
    result = run("validate", str(path))
    assert _findings(result.output) == [
        f"{path}:11:48: error WAS242 lendingLimit 5 must be less than or equal to the nominalQuota (4)"]


def test_resource_flavor_tolerations_taints_and_topology(tmp_path):
    path = _write(tmp_path, KQ + "kind: ResourceFlavor\nmetadata: {name: spot}\nspec:\n  topologyName: default\n"
                  "  nodeTaints:\n  - {key: spot, value: 'yes', effect: NoSchedule}\n"
                  "  - {key: spot, value: 'no', effect: NoSchedule}\n"
                  "  tolerations:\n  - {key: spot, operator: Exists, value: x}\n"
                  "  - {key: spot, effect: NoSchedule, tolerationSeconds: 5}\n")
    result = run("validate", str(path))
    assert _findings(result.output) == [
        f"{path}:5:3: error WAS241 at least one nodeLabel is required when topology is set",
        f"{path}:8:5: error WAS243 taint spot:NoSchedule repeats: taints must be unique by key and effect pair",
        f"{path}:10:35: error WAS241 a value must be empty when 'operator' is 'Exists'",
        f"{path}:11:17: error WAS241 effect must be 'NoExecute' when 'tolerationSeconds' is set",
    ]


def test_topology_levels(tmp_path):
    path = _write(tmp_path, KQ + "kind: Topology\nmetadata: {name: t}\nspec:\n  levels:\n"
                  "  - nodeLabel: kubernetes.io/hostname\n  - nodeLabel: rack\n  - nodeLabel: rack\n")
    result = run("validate", str(path))
    assert [line.split(" WAS")[1] for line in _findings(result.output)] == [
        "241 the kubernetes.io/hostname label can only be used at the lowest level of topology",
        '241 level "rack" must be unique',
    ]


def test_workload_webhook_rules(tmp_path):
    container = "template: {spec: {containers: [{name: c, image: i, resources: {requests: {pods: 1}}}]}}"
    path = _write(tmp_path, KQ + "kind: Workload\nmetadata: {name: w, namespace: a}\nspec:\n  queueName: q\n"
                  "  priorityClassRef: {group: kueue.x-k8s.io, kind: PriorityClass, name: high}\n  podSets:\n"
                  f"  - {{name: a, count: 2, minCount: 3, {container}}}\n"
                  "  - {name: b, count: 2, minCount: 1, template: {spec: {containers: [{name: c, image: i}]}}}\n")
    result = run("validate", str(path))
    codes = [line.split(" error ")[1] for line in _findings(result.output)]
    assert codes == [
        "WAS241 priority should not be nil when priorityClassRef is set",
        "WAS241 only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group",
        "WAS244 at most one podSet can use minCount; 2 do",
        "WAS241 minCount 3 should be positive and less or equal to count (2)",
        'WAS244 "pods" in resources.requests: the key is reserved for internal kueue use',
    ]


def test_a_version_kueue_does_not_serve(tmp_path):
    path = _write(tmp_path, "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: ClusterQueue\nmetadata: {name: x}\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert _findings(result.output) == [
        f"{path}:1:1: error WAS240 Kueue v0.17.0 does not serve kueue.x-k8s.io/v1alpha1; it serves ClusterQueue as "
        "kueue.x-k8s.io/v1beta1 and kueue.x-k8s.io/v1beta2"]
    assert "hint: write apiVersion: kueue.x-k8s.io/v1beta2" in result.output


def test_v1beta1_reads_its_own_field_names(tmp_path):
    path = _write(tmp_path, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n"
                  "  cohort: all\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n"
                  "    flavors:\n    - name: f\n      resources: [{name: cpu, nominalQuota: 4, borrowingLimit: 2}]\n")
    assert run("validate", str(path)).exit_code == 0


def test_lint_references(tmp_path):
    label_queue = "kueue.x-k8s.io/queue-name: queue"
    text = (KQ + "kind: ResourceFlavor\nmetadata: {name: on-demand}\nspec:\n  nodeLabels: {pool: a}\n"
            "  topologyName: defualt\n---\n"
            + KQ + "kind: Topology\nmetadata: {name: default}\nspec:\n  levels: [{nodeLabel: kubernetes.io/hostname}]\n"
            "---\n" + KQ + "kind: ClusterQueue\nmetadata: {name: team-a}\nspec:\n  namespaceSelector: {}\n"
            "  admissionChecksStrategy: {admissionChecks: [{name: provv}]}\n"
            "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
            "    - {name: on-demmand, resources: [{name: cpu, nominalQuota: 8}]}\n---\n"
            + KQ + "kind: AdmissionCheck\nmetadata: {name: prov}\nspec: {controllerName: x.io/c}\n---\n"
            + KQ + "kind: LocalQueue\nmetadata: {name: queue, namespace: team-a}\nspec: {clusterQueue: team-b}\n---\n"
            + KQ + "kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n"
            + JOB.format(name="train", ns="team-b", label=label_queue) + "---\n"
            + JOB.format(name="urgent", ns="team-a", label="kueue.x-k8s.io/priority-class: hihg") + "---\n"
            + KQ + "kind: Cohort\nmetadata: {name: x}\nspec: {parentName: y}\n---\n"
            + KQ + "kind: Cohort\nmetadata: {name: y}\nspec: {parentName: x}\n")
    path = _write(tmp_path, text)
    result = run("lint", str(path))
    assert result.exit_code == 1  # the cohort cycle is an error, the rest warnings
    assert _findings(result.output) == [
        f'{path}:6:3: warning WAS443 ResourceFlavor "on-demand" names Topology "defualt" at spec.topologyName, which '
        "the inputs do not hold (they hold default)",
        f'{path}:19:48: warning WAS444 ClusterQueue "team-a" names AdmissionCheck "provv" at '
        "spec.admissionChecksStrategy.admissionChecks[0].name, which the inputs do not hold (they hold prov)",
        f'{path}:23:8: warning WAS441 ClusterQueue "team-a" names ResourceFlavor "on-demmand" at '
        "spec.resourceGroups[0].flavors[0].name, which the inputs do not hold (they hold on-demand)",
        f'{path}:33:8: warning WAS440 LocalQueue "queue" names ClusterQueue "team-b" at spec.clusterQueue, which the '
        "inputs do not hold (they hold team-a)",
        f'{path}:46:5: warning WAS445 Job "train" is sent to LocalQueue "queue" in namespace team-b, which the inputs '
        "do not hold (namespace team-b has no LocalQueue; a LocalQueue queue is in namespace team-a, but LocalQueues "
        "serve their own namespace): Kueue leaves it pending and its pods never start",
        f'{path}:59:5: warning WAS446 Job "urgent" names WorkloadPriorityClass "hihg" at '
        "metadata.labels.kueue.x-k8s.io/priority-class, which the inputs do not hold (they hold high)",
        f"{path}:69:8: error WAS442 Cohort parentName chain loops (x -> y -> x): Kueue keeps every ClusterQueue in "
        "these cohorts inactive",
    ]


def test_lint_is_silent_about_queues_that_may_live_in_the_cluster(tmp_path):
    path = _write(tmp_path, JOB.format(name="train", ns="team-a", label="kueue.x-k8s.io/queue-name: queue"))
    result = run("lint", str(path))
    assert result.exit_code == 0 and "WAS44" not in result.output


def test_schema_command_serves_kueue_kinds():
    result = run("schema", "ClusterQueue")
    assert result.exit_code == 0
    assert '"$id": "https://wasplan.io/schemas/kueue.x-k8s.io/v1beta2/ClusterQueue.json"' in result.output


CRDS = [ROOT / "oracle" / "kueue017" / "crds", Path("/work/main/oracle/kueue017/crds"),
        Path.home() / "go/pkg/mod/sigs.k8s.io/kueue@v0.17.0/config/components/crd/bases"]


def test_kueue_schemas_regenerate_byte_identical(tmp_path):
    crds = next((p for p in CRDS if p.is_dir()), None)
    if crds is None:
        pytest.skip("Kueue v0.17.0's CRDs are not on this machine (oracle/build copies them)")
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_kueue_schemas.py"), "--crds", str(crds),
                    "--out", str(tmp_path)], check=True, capture_output=True)
    generated = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*.json")}
    committed = {p.relative_to(ROOT / "schemas").as_posix(): p.read_bytes()
                 for p in (ROOT / "schemas" / "kueue.x-k8s.io").rglob("*.json")}
    assert generated.keys() == committed.keys() and len(generated) == 16
    assert [n for n in generated if generated[n] != committed[n]] == []


def test_a_queue_label_on_a_kind_kueue_has_no_integration_for(tmp_path):
    """WAS447: a ReplicaSet's and a CronJob's own queue-name label, which Kueue reads on neither; the kinds it
    integrates (a Deployment, a LeaderWorkerSet, a plain Pod, a Job) are not findings."""
    text = (
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\n  labels: {kueue.x-k8s.io/queue-name: q}\n"
        "spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: i}]}\n---\n"
        "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\n  labels: {kueue.x-k8s.io/queue-name: q}\n"
        "spec:\n  schedule: '0 0 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, "
        "containers: [{name: c, image: i}]}}}}\n---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  labels: {kueue.x-k8s.io/queue-name: q}\n"
        "spec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n"
        "    spec: {containers: [{name: c, image: i}]}\n---\n"
        "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: llm\n"
        "  labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n  leaderWorkerTemplate:\n"
        "    workerTemplate: {spec: {containers: [{name: c, image: i}]}}\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\n  labels: {kueue.x-k8s.io/queue-name: q}\n"
        "spec: {containers: [{name: c, image: i}]}\n---\n"
        + JOB.format(name="train", ns="default", label="kueue.x-k8s.io/queue-name: q"))
    path = _write(tmp_path, text)
    result = run("lint", str(path))
    assert _findings(result.output) == [
        f'{path}:5:12: warning WAS447 ReplicaSet "web" carries kueue.x-k8s.io/queue-name: q, but Kueue v0.17.0 has no '
        "integration for ReplicaSet (apps/v1): Kueue does not read the label there, so it queues nothing through it",
        f'{path}:16:12: warning WAS447 CronJob "nightly" carries kueue.x-k8s.io/queue-name: q, but Kueue v0.17.0 has no '
        "integration for CronJob (batch/v1): Kueue does not read the label there, so it queues nothing through it"]
    assert "hint: put the label on its spec.jobTemplate.metadata.labels (the labels its Jobs get)" in result.output

"""`migrate --check --to-k8s 1.38` as an upgrade check for a repository: versions to move (v1alpha3
CompositePodGroups to v1beta1), documents 1.38 refuses although they need no migration (WAS114), and feature
gates 1.38 removed wherever the repository sets them (WAS514: kind's Cluster, kubeadm, a kube-scheduler static
pod), each at its file, line and field; exit 1 while anything is left to do (docs/migrate.md)."""

from __future__ import annotations

from tests.validate.test_rules_138 import PODGROUP_BASIC_ALL as BASIC_ALL

from .harness import invoke

KIND = """\
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  GenericWorkload: true
  PodGroupPreemptionPolicy: true
"""
SCHEDULER = """\
apiVersion: v1
kind: Pod
metadata: {name: kube-scheduler, namespace: kube-system}
spec:
  containers:
  - name: kube-scheduler
    image: registry.k8s.io/kube-scheduler:v1.37.2
    command:
    - kube-scheduler
    - --feature-gates
    - GenericWorkload=true,DynamicResourceAllocation=true
"""
KUBEADM = """\
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
scheduler:
  extraArgs:
    feature-gates: PodGroupPreemptionPolicy=true,GenericWorkload=true
"""
COMPOSITE = """\
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: stage, namespace: default}
spec:
  workloadRef: {workloadName: pipeline, templateName: stage}
  schedulingPolicy:
    gang: {minGroupCount: 2}
"""
GATE = "Kubernetes 1.38 removed it (its feature is always on), and its components refuse to start with it"


def _repo(tmp_path):
    for name, text in (("kind.yaml", KIND), ("kube-scheduler.yaml", SCHEDULER), ("kubeadm.yaml", KUBEADM),
                       ("composite.yaml", COMPOSITE), ("podgroup.yaml", BASIC_ALL)):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_upgrade_check_lists_everything_to_change_with_positions(tmp_path):
    repo = _repo(tmp_path)
    result = invoke(str(repo), "--check", "--to-k8s", "1.38")
    assert result.exit_code == 1
    err = result.stderr
    assert (f"{repo}/kind.yaml:5:3: error WAS514 unrecognized feature gate: PodGroupPreemptionPolicy: {GATE} "
            "[featureGates.PodGroupPreemptionPolicy]") in err
    assert (f"{repo}/kube-scheduler.yaml:11:7: error WAS514 unrecognized feature gate: DynamicResourceAllocation: "
            f"{GATE} [spec.containers[0].command[2]]") in err
    assert (f"{repo}/kubeadm.yaml:5:5: error WAS514 unrecognized feature gate: PodGroupPreemptionPolicy: {GATE} "
            "[scheduler.extraArgs.feature-gates]") in err
    assert "GenericWorkload" not in err.replace("GenericWorkload=true", "")
    assert f"{repo}/podgroup.yaml:6:3: error WAS114 Kubernetes 1.38 rejects this document" in err
    assert f"{repo}/composite.yaml:1: apiVersion: set scheduling.k8s.io/v1alpha3 -> scheduling.k8s.io/v1beta1" in err
    assert err.endswith("1 file would be migrated, 0 left unchanged, 1 with documents that Kubernetes 1.38 rejects, "
                        "3 setting feature gates Kubernetes 1.38 removed.\n")


def test_the_same_repository_is_fine_for_1_37_but_its_composite_pod_group(tmp_path):
    result = invoke(str(_repo(tmp_path)), "--check", "--to-k8s", "1.37")
    assert "WAS514" not in result.stderr and "WAS114" not in result.stderr
    assert result.exit_code == 0, result.stderr


def test_a_gate_setting_does_not_stop_the_migration_of_its_file(tmp_path):
    path = tmp_path / "bundle.yaml"
    path.write_text(KIND + "---\n" + COMPOSITE)
    result = invoke(str(path), "--to-k8s", "1.38")
    assert result.exit_code == 1
    assert "apiVersion: scheduling.k8s.io/v1beta1\nkind: CompositePodGroup" in result.stdout
    assert "error WAS514" in result.stderr

"""The exact check with DRA device requests (explain/exact/devices.py): device and counter columns, firstAvailable
variants, claims the group shares, and what the program leaves to the engine's allocator (then Unknown, never a
fit). Before devices were part of the program, every case here that does not fit answered "FitsButMissed" with
a witness the engine's allocator never accepted."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import yaml

from tests.cli.helpers import run
from tests.cli.test_determinism import _run as run_with_hash_seed
from tests.engine.drascenes import ALLOCATED_ON_WORKER, CLUSTER, DEVICE_CLASS, pod, slice_for

from .apply import apply_changes, plan_places

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "explain"

SEL = 'device.attributes["gpu.example.com"].pcieRoot == '


def gpus(node: str, roots: str) -> str:
    """A node-local slice with one GPU per letter of `roots`, its pcieRoot attribute."""
    text = slice_for(node, *(f"gpu-{i}" for i in range(len(roots))))
    for i, root in enumerate(roots):
        attribute = f"\n    attributes: {{pcieRoot: {{string: {root}}}}}"
        text = text.replace(f"  - name: gpu-{i}\n", f"  - name: gpu-{i}{attribute}\n")
    return text


def template(requests: str, constraint: bool = False) -> str:
    match = "\n      constraints:\n      - matchAttribute: gpu.example.com/pcieRoot" if constraint else ""
    return f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: gpus, namespace: default}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
{requests}{match}
"""


def exactly(count: int) -> str:
    return f"        exactly: {{deviceClassName: gpu.example.com, count: {count}}}"


def gang(n: int, cpu: str = "1", entry: str = "- {name: gpu, resourceClaimTemplateName: gpus}",
         group_claims: str = "") -> str:
    out = f"""\
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: team, namespace: default}}
spec:
  schedulingPolicy: {{gang: {{minCount: {n}}}}}{group_claims}
"""
    return out + "".join(pod(f"m-{i}", entry, "team", cpu) for i in range(n))


def explain(root: Path, *args: str, manifest: str = "gang.yaml") -> tuple[int, dict]:
    result = run("explain", *args, str(root / manifest), "--cluster", str(root / "cluster.yaml"), "-o", "json")
    doc = json.loads(result.stdout)
    assert len(doc["targets"]) == 1
    return result.exit_code, doc["targets"][0]


def write(tmp_path: Path, cluster: str, manifests: str) -> Path:
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "gang.yaml").write_text(manifests)
    return tmp_path


def bounds(answer: dict) -> dict:
    return {(b["kind"], b["subject"]): (b["available"], b["needed"], b["stranded"], b["short"])
            for b in answer["proof"]["bounds"]}


def test_first_fit_device_choice_misses_a_gang_that_fits_and_reordering_firstavailable_finds_it(tmp_path):
    """kubernetes/kubernetes issue 138765: one accelerator as "whole" or two "halves" (a shared counter), each
    member's claim prefers "whole"; the first member takes it and the second finds no half. Two halves hold both."""
    case = FIXTURES / "dra-missed"
    code, t = explain(case)
    assert code == 1 and t["gang"]["placeable"] == 1
    exact = t["exact"]
    assert (exact["verdict"], exact["summary"]) == (
        "FitsButMissed", "exact check: fits, but kube-scheduler's order does not find it: an assignment exists")
    answer = exact["answer"]
    assert answer["witness"] == [{"node": "worker", "pods": ["default/m-0", "default/m-1"]}]
    assert [(c["pod"], c["request"], c["subrequest"], c["template"]) for c in answer["subrequests"]] == [
        ("default/m-0", "gpu", "half", "default/whole-or-half"),
        ("default/m-1", "gpu", "half", "default/whole-or-half")]
    assert exact["model"]["shapes"] == 2  # one pod shape, one variant per subrequest
    first = t["suggestions"][0]
    assert (first["kind"], first["verified"]) == ("firstAvailable", True)
    assert [s["kind"] for s in t["suggestions"]].count("firstAvailable") == 1  # the device evidence finds it too
    (change,) = first["changes"]
    assert (change["object"], change["fieldPath"], change["line"]) == (
        "ResourceClaimTemplate/default/whole-or-half", "spec.spec.devices.requests[0].firstAvailable", 12)
    assert [sub["name"] for sub in change["value"]] == ["half", "whole"]
    work = tmp_path / "work"
    shutil.copytree(case, work)
    assert not plan_places(work, ["gang.yaml"], "cluster.yaml", "default/team")
    apply_changes(first["changes"], case, work)
    assert plan_places(work, ["gang.yaml"], "cluster.yaml", "default/team")


def test_the_dra_answer_is_byte_identical_under_different_hash_seeds():
    case = FIXTURES / "dra-missed"
    args = ("explain", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"), "-o", "json")
    first = run_with_hash_seed("3", *args)
    assert b'"subrequest": "half"' in first
    assert run_with_hash_seed("11", *args) == first


def test_the_text_names_each_pods_subrequest():
    case = FIXTURES / "dra-missed"
    result = run("explain", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"), env={"COLUMNS": "200"})
    lines = result.stdout.splitlines()
    at = lines.index("    an assignment, accepted pod by pod by the engine's filters:")
    assert lines[at + 1] == "      worker: default/m-0, default/m-1"
    assert lines[at + 2].startswith("      default/m-0: request gpu of claim default/m-0-gpu-")
    assert lines[at + 2].endswith(" uses subrequest half")


def test_a_shared_counter_too_small_for_the_pods_is_a_counter_bound(tmp_path):
    """Three pods, each any one device of the partitionable GPU (fixtures/explain/dra-missed: "whole" uses all 8Gi
    of the shared counter, each half 4Gi): three devices are free, but each takes at least 4Gi of 8Gi."""
    root = tmp_path / "case"
    shutil.copytree(FIXTURES / "dra-missed", root)
    (root / "gang.yaml").write_text(template(exactly(1)) + gang(3))
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and t["gang"]["placeable"] == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["answer"]["bound"] == 2
    got = bounds(exact["answer"])
    assert got[("devices", "gpu.example.com devices")] == (3, 3, 0, False)
    assert got[("counter", "gpu.example.com counter gpu-0-counters/memory")] == (8 * 2**30, 12 * 2**30, 0, True)


def test_a_network_attached_device_counts_once_for_the_whole_gang(tmp_path):
    """One fabric device reachable from both nodes (a Cluster kind device pool): each node sees it free, but the
    two pods' own claims cannot both have it."""
    cluster = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: fabric}
spec:
  nodePools:
  - {name: worker, count: 2, namePattern: "worker-{index}", allocatable: {cpu: "8", memory: 32Gi}}
  devicePools:
  - {name: fabric, driver: gpu.example.com, count: 1, allNodes: true}
"""
    root = write(tmp_path, cluster + DEVICE_CLASS, template(exactly(1)) + gang(2))
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert bounds(exact["answer"])[("devices", "gpu.example.com devices")] == (1, 2, 0, True)


def test_too_few_free_devices_is_a_device_bound(tmp_path):
    root = write(tmp_path, CLUSTER + gpus("worker", "aaa") + gpus("worker-2", "aaa"), template(exactly(2)) + gang(4))
    code, t = explain(root)
    assert code == 1 and t["gang"]["placeable"] == 2
    exact = t["exact"]
    assert (exact["verdict"], exact["summary"]) == (
        "DoesNotFit", "exact check: does not fit: no assignment places more than 2 of the 4 pods still needed")
    assert bounds(exact["answer"])[("devices", "gpu.example.com devices")] == (6, 8, 0, True)
    assert bounds(exact["answer"])[("pods", "default/m-0")] == (2, 4, 0, True)
    result = run("explain", str(root / "gang.yaml"), "--cluster", str(root / "cluster.yaml"), env={"COLUMNS": "200"})
    assert ("    short gpu.example.com devices: 6 free on nodes that can take a pod, 8 needed"
            in result.stdout.splitlines())


def test_a_gang_whose_devices_fit_is_found(tmp_path):
    root = write(tmp_path, CLUSTER + gpus("worker", "aaaa") + gpus("worker-2", "aaaa"), template(exactly(2)) + gang(4))
    code, t = explain(root, "podgroup/team")
    assert code == 0
    assert (t["exact"]["verdict"], t["exact"]["summary"]) == (
        "FitsAndFound", "exact check: fits, and the scheduler finds it")


def test_firstavailable_short_in_every_subrequest_bounds_the_cheapest(tmp_path):
    """Each pod takes 2 "a" devices or 1 "b" device: worker has one of each, so one pod fits, not two."""
    choice = f"""\
        firstAvailable:
        - {{name: pair, deviceClassName: gpu.example.com, count: 2, selectors: [{{cel: {{expression: '{SEL}"a"'}}}}]}}
        - {{name: one, deviceClassName: gpu.example.com, selectors: [{{cel: {{expression: '{SEL}"b"'}}}}]}}"""
    root = write(tmp_path, CLUSTER + gpus("worker", "ab"), template(choice) + gang(2))
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["model"]["shapes"] == 2
    got = bounds(exact["answer"])
    assert got[("pods", "default/m-0")] == (1, 2, 0, True)
    assert got[("devices", f"gpu.example.com devices with {SEL}\"b\"")] == (1, 0, 0, False)  # "pair" needs none


def test_a_claim_the_gang_shares_keeps_every_member_on_the_devices_node(tmp_path):
    """A PodGroup-level claim (DRAWorkloadResourceClaims) for one node-local device: allocated once, for the whole
    group, so every member must run where the device is; worker holds one 5-CPU pod, not two."""
    group_claim = "\n  resourceClaims:\n  - {name: fabric, resourceClaimTemplateName: gpus}"
    root = write(tmp_path, CLUSTER + gpus("worker", "a"),
                 template(exactly(1)) + gang(2, "5", "- {name: fabric, resourceClaimTemplateName: gpus}", group_claim))
    code, t = explain(root, "--feature-gates", "DRAWorkloadResourceClaims=true")
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["summary"] == ("exact check: does not fit: no assignment places more than 1 of the 2 pods "
                                "still needed")
    assert exact["answer"]["proof"]["allowedNodes"] == 1


def test_a_node_local_claim_the_gang_shares_keeps_it_on_one_node_though_every_node_has_a_device(tmp_path):
    """Both nodes have a device the shared claim could take, but the first member's allocation pins the claim
    (and so every member) to its node; one 5-CPU pod per node means one member at most."""
    group_claim = "\n  resourceClaims:\n  - {name: fabric, resourceClaimTemplateName: gpus}"
    root = write(tmp_path, CLUSTER + gpus("worker", "a") + gpus("worker-2", "a"),
                 template(exactly(1)) + gang(2, "5", "- {name: fabric, resourceClaimTemplateName: gpus}", group_claim))
    code, t = explain(root, "--feature-gates", "DRAWorkloadResourceClaims=true")
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["answer"]["bound"] == 1 and exact["answer"]["proof"]["allowedNodes"] == 2


def test_a_constraint_the_program_leaves_out_makes_it_unknown_with_the_reason(tmp_path):
    """Three pods, each 2 GPUs behind one PCIe root (matchAttribute), on 3 + 3 GPUs of two roots: six free
    devices for six, but the third pod gets one of each root. The program counts devices, not roots; the
    engine's allocator rejects its assignment, so the answer is Unknown and says why."""
    root = write(tmp_path, CLUSTER + gpus("worker", "aaabbb"), template(exactly(2), constraint=True) + gang(3))
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "Unknown"
    assert exact["summary"] == ("exact check: unknown: the engine rejects the solver's assignment; the program does "
                                "not model matchAttribute/distinctAttribute constraints, which the engine's "
                                "allocator decides")
    assert exact["answer"]["status"] == "unknown" and exact["answer"]["witness"] == []


def test_allocation_mode_all_is_left_to_the_allocator_and_named(tmp_path):
    """Each pod asks for every device of its node (allocationMode: All); two nodes, three pods: the program does
    not count "all" (it depends on the node), the allocator rejects the third pod, and the answer says so."""
    all_mode = "        exactly: {deviceClassName: gpu.example.com, allocationMode: All}"
    root = write(tmp_path, CLUSTER + gpus("worker", "aa") + gpus("worker-2", "aa"), template(all_mode) + gang(3))
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "Unknown"
    assert exact["summary"] == ("exact check: unknown: the engine rejects the solver's assignment; the program does "
                                "not model allocationMode: All, which the engine's allocator decides")


def test_a_tree_whose_devices_and_nodes_the_order_misses_gets_both_changes_verified(tmp_path):
    """fixtures/explain/exact-tree (three single-pod groups of 4, 4 and 8 cores on two 8-core nodes) with two GPUs
    per node and each pod's claim "two GPUs, else one": the scheduler gives the first 4-core pod two GPUs and
    spreads the second to the other node, so the 8-core pod finds neither cores nor GPUs. The tree's assignment
    (one GPU each for the small pods on one node) needs the reordered list and bin packing together."""
    tree = FIXTURES / "exact-tree"
    claim = "\\1  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: gpus}\n"
    manifests = re.sub(r"(  schedulingGroup:\n    podGroupName: stage-.\n)", claim, (tree / "gang.yaml").read_text())
    choice = """\
        firstAvailable:
        - {name: pair, deviceClassName: gpu.example.com, count: 2}
        - {name: one, deviceClassName: gpu.example.com}"""
    cluster = (tree / "cluster.yaml").read_text() + "    devices: [{driver: gpu.example.com, count: 2}]\n"
    (tmp_path / "case").mkdir()
    root = write(tmp_path / "case", cluster + DEVICE_CLASS, manifests + template(choice).replace("default", "batch"))
    code, t = explain(root, "podgroup/stage-a")
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "FitsButMissed"
    assert [c["subrequest"] for c in exact["tree"]["subrequests"]] == ["one", "one", "one"]
    (first,) = t["suggestions"][:1]
    assert (first["kind"], first["verified"], len(first["changes"])) == ("firstAvailable", True, 2)
    order, config = first["changes"]
    assert [sub["name"] for sub in order["value"]] == ["one", "pair"]
    sched = tmp_path / "sched.yaml"
    sched.write_text(yaml.safe_dump(config["value"], sort_keys=False))
    assert not plan_places(root, ["gang.yaml"], "cluster.yaml", "batch/stage-c", "--scheduler-config", str(sched))
    work = tmp_path / "work"
    shutil.copytree(root, work)
    apply_changes([order], root, work)
    assert not plan_places(work, ["gang.yaml"], "cluster.yaml", "batch/stage-c")  # each change alone falls short
    assert plan_places(work, ["gang.yaml"], "cluster.yaml", "batch/stage-c", "--scheduler-config", str(sched))


def test_unknown_names_both_the_rules_between_the_pods_and_the_dra_features(tmp_path):
    """A hard hostname spread the pods cannot meet (a nodeSelector holds them to one node; two shapes match it,
    so the program leaves it out) and a matchAttribute constraint: both are left to the replay, and the note
    names both. (The selector matches every pod but is not empty: an empty one counts no pod, as upstream's
    countPodsMatchSelector, and would let both pods onto worker.)"""
    spread = ("  schedulingGroup: {podGroupName: team}\n  nodeSelector: {kubernetes.io/hostname: worker}\n"
              "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, "
              "whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Ignore, "
              "labelSelector: {matchExpressions: [{key: example.com/none, operator: DoesNotExist}]}}\n")
    pods = gang(2).replace("  schedulingGroup: {podGroupName: team}\n", spread).replace('cpu: "1"', 'cpu: "2"', 1)
    manifests = template(exactly(1), constraint=True) + pods
    root = write(tmp_path, CLUSTER + gpus("worker", "aa"), manifests)
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "Unknown"
    assert exact["answer"]["note"] == (
        "the solver's assignment breaks a rule between the group's own pods that the program does not model (spread "
        "skew or pod affinity among them); the engine rejects it, or matchAttribute/distinctAttribute constraints, "
        "which the engine's allocator decides")


def test_a_pod_waiting_for_its_resource_claim_fits_nowhere():
    """fixtures/explain/dra-devices/typo.yaml names a ResourceClaimTemplate that does not exist: DynamicResources'
    PreEnqueue keeps the pod out of every cycle, so no assignment places it (before, the program saw no claim and
    answered "fits, but the scheduler's order misses it")."""
    case = FIXTURES / "dra-devices"
    code, t = explain(case, manifest="typo.yaml")
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["answer"]["proof"]["allowedNodes"] == 0


def test_pods_whose_allocated_claims_pin_the_same_node_are_one_shape(tmp_path):
    """Each pod's own claim is already allocated on worker (its devices reachable there only): both pods must run
    on worker, which holds one 5-CPU pod; the program sees one shape of two pods, not two shapes."""
    claims = "".join(ALLOCATED_ON_WORKER.format(reserved="").replace("name: shared", f"name: gpu-{i}")
                     .replace("device: gpu-0", f"device: gpu-{i}") for i in range(2))
    entry = "- {name: gpu, resourceClaimTemplateName: gpus}"
    pods = gang(2, "5").replace(entry, "- {name: gpu, resourceClaimName: gpu-0}", 1).replace(
        entry, "- {name: gpu, resourceClaimName: gpu-1}")
    root = write(tmp_path, CLUSTER + gpus("worker", "aa") + gpus("worker-2", "aa"), claims + pods)
    code, t = explain(root)
    exact = t["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["model"]["shapes"] == 1 and exact["answer"]["bound"] == 1
    assert exact["answer"]["proof"]["allowedNodes"] == 1

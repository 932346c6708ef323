"""The exact check of `wasplan explain` (explain/exact): each verdict on real manifests, the bounds behind "does not
fit", the witness, the eviction question, and the verified change that lets the real engine find an assignment
the greedy order misses (applied to files and planned again with the real CLI)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from tests.cli.helpers import run

from .apply import apply_changes, plan_places

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "explain"


def explain(case: str, *args: str, manifest: str = "gang.yaml", root: Path | None = None) -> tuple[int, dict]:
    base = root or FIXTURES / case
    result = run("explain", *args, str(base / manifest), "--cluster", str(base / "cluster.yaml"), "-o", "json")
    return result.exit_code, json.loads(result.stdout)


def target(doc: dict) -> dict:
    assert len(doc["targets"]) == 1
    return doc["targets"][0]


def bounds(answer: dict) -> dict:
    return {(b["kind"], b["subject"]): (b["available"], b["needed"], b["stranded"], b["short"])
            for b in answer["proof"]["bounds"]}


def test_fits_but_least_allocated_spreading_misses_it_and_most_allocated_finds_it(tmp_path):
    code, doc = explain("exact-missed")
    assert code == 1
    t = target(doc)
    assert t["verdict"] == "DoesNotFit" and t["gang"]["placeable"] == 2
    exact = t["exact"]
    assert exact["verdict"] == "FitsButMissed"
    assert exact["summary"] == "exact check: fits, but kube-scheduler's order does not find it: an assignment exists"
    answer = exact["answer"]
    assert (answer["status"], answer["needed"], answer["placed"], answer["bound"]) == ("fits", 3, 3, 3)
    assert answer["witness"] == [{"node": "cpu-0", "pods": ["batch/small-0", "batch/small-1"]},
                                 {"node": "cpu-1", "pods": ["batch/big"]}]
    assert exact["model"] == {"nodes": 2, "classes": 1, "pooledClasses": 0, "shapes": 2, "patterns": 2}
    first = t["suggestions"][0]
    assert first["kind"] == "scoringStrategy" and first["verified"]
    change = first["changes"][0]
    assert (change["action"], change["file"], change["path"]) == ("add", "kube-scheduler-config.yaml", [])
    plugin = change["value"]["profiles"][0]["pluginConfig"][0]
    assert plugin == {"name": "NodeResourcesFit", "args": {"scoringStrategy": {
        "type": "MostAllocated", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}}}
    # the independent check: the real `wasplan plan` places the gang with the written configuration only
    config = tmp_path / "kube-scheduler-config.yaml"
    config.write_text(yaml.safe_dump(change["value"], sort_keys=False))
    case = FIXTURES / "exact-missed"
    assert not plan_places(case, ["gang.yaml"], "cluster.yaml", "batch/mixed")
    assert plan_places(case, ["gang.yaml"], "cluster.yaml", "batch/mixed", "--scheduler-config", str(config))


def test_scoring_change_edits_an_existing_scheduler_config(tmp_path):
    config = tmp_path / "sched.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                      "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n"
                      "    args:\n      scoringStrategy:\n        type: LeastAllocated\n")
    _, doc = explain("exact-missed", "--scheduler-config", str(config))
    change = target(doc)["suggestions"][0]["changes"][0]
    assert (change["action"], change["file"], change["line"]) == ("set", str(config), 8)
    assert change["path"] == ["profiles", 0, "pluginConfig", 0, "args", "scoringStrategy"]
    assert change["value"]["type"] == "MostAllocated"


def test_fragments_too_small_for_one_pod_prove_it_does_not_fit():
    code, doc = explain("fragmented")
    assert code == 1
    exact = target(doc)["exact"]
    assert exact["verdict"] == "DoesNotFit"
    assert exact["summary"] == ("exact check: does not fit: no assignment places more than 0 of the 2 pods "
                                "still needed; moving 2 running pods makes it fit")
    answer = exact["answer"]
    assert (answer["status"], answer["bound"], answer["witness"]) == ("noFit", 0, [])
    assert bounds(answer)[("pods", "ml/wide-0")] == (0, 2, 0, True)
    assert bounds(answer)[("resource", "nvidia.com/gpu")] == (0, 16, 16, True)
    assert exact["withEviction"] is None  # the half-node pods have the gang's priority: none is removable
    moved = exact["withMoves"]  # but two of them can share a node with the other two
    assert (moved["status"], moved["verified"]) == ("fits", True)
    assert moved["moves"] == [{"pod": "other/half-0", "from": "gpu-0", "to": "gpu-2"},
                              {"pod": "other/half-1", "from": "gpu-1", "to": "gpu-3"}]
    # one templated Cluster entry writes all four pods: no single edit moves two of them, so no `move` suggestion
    assert "move" not in [s["kind"] for s in target(doc)["suggestions"]]


def test_topology_domain_bounds_name_the_best_domain():
    code, doc = explain("topology", "podgroup/rackbound")
    assert code == 1
    exact = target(doc)["exact"]
    assert exact["verdict"] == "DoesNotFit"
    assert exact["summary"].endswith("no assignment places more than 2 of the 3 pods still needed in any one "
                                     "topology.kubernetes.io/rack domain")
    proof = exact["answer"]["proof"]
    assert (proof["domain"], proof["otherDomains"]) == ("rack-0", 1)
    assert bounds(exact["answer"])[("pods", "ml/rackbound-0")] == (2, 3, 0, True)
    assert bounds(exact["answer"])[("resource", "nvidia.com/gpu")] == (16, 24, 0, True)


def test_a_group_placed_by_preempting_is_found():
    code, doc = explain("preemption", "podgroup/urgent")
    assert code == 0
    exact = target(doc)["exact"]
    assert exact == {"verdict": "FitsAndFound", "budgetSeconds": 5.0, "answer": None, "withEviction": None,
                     "model": None, "tree": None, "ownSummary": "", "withMoves": None,
                     "summary": "exact check: fits once the plan's preemptions make room, and the scheduler finds it"}


def test_lower_priority_pods_removable_is_asked_separately():
    code, doc = explain("preemption", "--no-preemption")
    assert code == 1
    exact = target(doc)["exact"]
    assert exact["verdict"] == "DoesNotFit" and exact["answer"]["bound"] == 0
    assert exact["summary"].endswith("2 pods still needed; with lower-priority pods removed it would fit")
    later = exact["withEviction"]
    assert (later["status"], later["placed"]) == ("fits", 2)
    assert later["witness"] == [{"node": "gpu-0", "pods": ["ml/urgent-0"]}, {"node": "gpu-1", "pods": ["ml/urgent-1"]}]
    assert later["evicts"] == ["batch/batch-0", "batch/batch-1", "batch/batch-2", "batch/batch-3"]
    assert exact["withMoves"]["status"] == "noFit"  # every GPU is taken: moving pods frees none


def test_moving_two_running_pods_is_a_verified_edit_of_the_cluster_file(tmp_path):
    code, doc = explain("exact-moves")
    assert code == 1
    t = target(doc)
    move = t["suggestions"][0]
    assert move["kind"] == "move"
    assert move["title"] == "move 2 running pods: other/half-0 gpu-0 -> gpu-2, other/half-1 gpu-1 -> gpu-3"
    assert [(c["object"], c["fieldPath"], c["value"], c["line"]) for c in move["changes"]] == [
        ("Cluster pod other/half-0", "spec.pods[0].node", "gpu-2", 12),
        ("Cluster pod other/half-1", "spec.pods[1].node", "gpu-3", 13)]
    case = FIXTURES / "exact-moves"
    work = tmp_path / "work"
    shutil.copytree(case, work)
    assert not plan_places(work, ["gang.yaml"], "cluster.yaml", "ml/wide")
    apply_changes(move["changes"], case, work)
    assert plan_places(work, ["gang.yaml"], "cluster.yaml", "ml/wide")


def test_a_group_the_plan_places_is_found():
    code, doc = explain("pods", "pod/small", manifest="fits.yaml")
    assert code == 0
    exact = target(doc)["exact"]
    assert (exact["verdict"], exact["summary"]) == ("FitsAndFound", "exact check: fits, and the scheduler finds it")


def test_no_exact_skips_the_check():
    _, doc = explain("exact-missed", "--no-exact")
    t = target(doc)
    assert t["exact"] is None and "scoringStrategy" not in [s["kind"] for s in t["suggestions"]]


def test_text_puts_the_exact_line_under_the_verdict_and_shows_the_witness():
    case = FIXTURES / "exact-missed"
    result = run("explain", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"),
                 env={"COLUMNS": "120"})  # the text wraps to the width; 120 keeps each asserted line whole
    lines = result.stdout.splitlines()
    assert lines[0] == "PodGroup batch/mixed: does not fit: can place 2 of 3: 1 short"
    assert lines[1] == "  exact check: fits, but kube-scheduler's order does not find it: an assignment exists"
    at = lines.index("  Exact check (2 nodes, solved as 1 group of interchangeable nodes and 2 kinds of pod):")
    assert lines[at + 2:at + 4] == ["      cpu-0: batch/small-0, batch/small-1", "      cpu-1: batch/big"]


CLUSTER = """apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: small}
spec:
  nodePools:
  - name: node
    count: 2
    allocatable: {cpu: 16, memory: 64Gi}
"""


def _gang(extra_spec: str, ports: str = "", labels: str = "{app: ring}", count: int = 3) -> str:
    docs = ["apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: ring, namespace: ns}\n"
            f"spec:\n  schedulingPolicy:\n    gang:\n      minCount: {count}\n"]
    for i in range(count):
        docs.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: ring-{i}, namespace: ns, labels: {labels}}}\n"
                    f"spec:\n  schedulingGroup: {{podGroupName: ring}}\n{extra_spec}"
                    f"  containers:\n  - name: main\n    image: ghcr.io/example/ring:1\n{ports}"
                    "    resources: {requests: {cpu: '1', memory: 1Gi}}\n")
    return "---\n".join(docs)


def _inline(tmp_path: Path, spec: str, ports: str = "") -> tuple[int, dict]:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "gang.yaml").write_text(_gang(spec, ports))
    return explain("", root=tmp_path)


def test_a_host_port_allows_one_pod_per_node(tmp_path):
    code, doc = _inline(tmp_path, "", "    ports: [{containerPort: 7000, hostPort: 7000}]\n")
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (2, 3)
    assert bounds(exact["answer"])[("pods", "ns/ring-0")] == (2, 3, 0, True)


def test_hostname_anti_affinity_among_the_gang_allows_one_pod_per_node(tmp_path):
    anti = ("  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
            "      - labelSelector: {matchLabels: {app: ring}}\n        topologyKey: kubernetes.io/hostname\n")
    code, doc = _inline(tmp_path, anti)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit" and exact["answer"]["bound"] == 2


def test_zone_anti_affinity_among_the_gang_allows_one_pod_per_zone(tmp_path):
    """Four nodes in two zones, three pods that must not share a zone: the program keeps them in different
    domains of the key, so two is the most (before, it found three on three nodes and the replay said Unknown)."""
    zones = "count: 4\n    labels: {zone: 'z-{index // 2}'}"
    (tmp_path / "cluster.yaml").write_text(CLUSTER.replace("count: 2", zones))
    anti = ("  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
            "      - labelSelector: {matchLabels: {app: ring}}\n        topologyKey: zone\n")
    (tmp_path / "gang.yaml").write_text(_gang(anti))
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (2, 3)


def test_pod_affinity_among_the_gang_keeps_it_in_one_zone(tmp_path):
    """Four nodes in two zones, three 10-core pods (one per node) that must run in a zone with a pod like them:
    the first goes anywhere, the others follow it into its zone, which holds two."""
    zones = "count: 4\n    labels: {zone: 'z-{index // 2}'}"
    (tmp_path / "cluster.yaml").write_text(CLUSTER.replace("count: 2", zones))
    affine = ("  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
              "      - labelSelector: {matchLabels: {app: ring}}\n        topologyKey: zone\n")
    (tmp_path / "gang.yaml").write_text(_gang(affine).replace("cpu: '1'", "cpu: '10'"))
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (2, 3)


SPREAD = ("  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: kubernetes.io/hostname\n"
          "    whenUnsatisfiable: DoNotSchedule\n    labelSelector: {matchLabels: {app: ring}}\n"
          "    nodeAffinityPolicy: Ignore\n  nodeSelector: {kubernetes.io/hostname: node-0}\n")


def test_hard_spread_among_the_gang_is_a_rule_of_the_program(tmp_path):
    """Hard spread on the hostname key, the pods held to one node by a selector that spread ignores: both nodes
    count, the empty one keeps the minimum at 0, so node-0 takes one pod (maxSkew 1), not three."""
    code, doc = _inline(tmp_path, SPREAD)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (1, 3)


def test_zone_spread_among_the_gang_bounds_the_bigger_zone(tmp_path):
    """Three nodes in zone z-0, one in z-1, one 10-core pod per node, maxSkew 1 across the zones: z-1 takes one,
    z-0 two, and a third in z-0 would make the skew 2: three of four, whatever the order."""
    zones = "count: 4\n    labels: {zone: 'z-{index // 3}'}"  # z-0: three nodes, z-1: one
    (tmp_path / "cluster.yaml").write_text(CLUSTER.replace("count: 2", zones))
    spread = ("  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
              "labelSelector: {matchLabels: {app: ring}}}\n")
    (tmp_path / "gang.yaml").write_text(_gang(spread, count=4).replace("cpu: '1'", "cpu: '10'"))
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (3, 4)


def test_a_rule_among_the_gang_the_program_leaves_out_makes_it_unknown_not_fits(tmp_path):
    """The same spread, but one pod asks for more CPU (another shape that also matches the selector): their
    counts depend on each other's nodes, so the program leaves spread out and finds all three pods on one node;
    the engine's replay rejects the second, so the answer is honest."""
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "gang.yaml").write_text(_gang(SPREAD).replace("cpu: '1'", "cpu: '2'", 1))
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "Unknown"
    assert exact["answer"]["status"] == "unknown" and "spread skew" in exact["answer"]["note"]
    assert exact["summary"].startswith("exact check: unknown: the solver's assignment breaks a rule")


def test_pins_each_pod_when_the_configured_bin_packing_misses_too(tmp_path):
    """Nodes of 8 and 12 cores, pods of 4, 8 and 8 cores: MostAllocated (already configured) puts the first pod on
    the 8-core node and strands 4 cores on each; the assignment (4+8 on the big node) is pinned per pod, and
    the pinned files plan with that configuration."""
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: two}\nspec:\n  nodePools:\n"
        "  - {name: a, count: 1, allocatable: {cpu: 8, memory: 32Gi}}\n"
        "  - {name: b, count: 1, allocatable: {cpu: 12, memory: 48Gi}}\n")
    docs = ["apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: trio, namespace: ns}\n"
            "spec:\n  schedulingPolicy:\n    gang:\n      minCount: 3\n"]
    for name, cpu in (("p-0", 4), ("p-1", 8), ("p-2", 8)):
        docs.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: ns}}\nspec:\n"
                    "  schedulingGroup: {podGroupName: trio}\n  containers:\n  - name: main\n    image: app:1\n"
                    f"    resources: {{requests: {{cpu: '{cpu}', memory: {4 * cpu}Gi}}}}\n")
    (tmp_path / "gang.yaml").write_text("---\n".join(docs))
    config = tmp_path / "sched.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                      "- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
                      "      scoringStrategy: {type: MostAllocated}\n")
    code, doc = explain("", "--scheduler-config", str(config), root=tmp_path)
    t = target(doc)
    assert code == 1 and t["exact"]["verdict"] == "FitsButMissed"
    assert t["exact"]["answer"]["witness"] == [{"node": "a-0", "pods": ["ns/p-1"]},
                                               {"node": "b-0", "pods": ["ns/p-0", "ns/p-2"]}]
    pin = t["suggestions"][0]
    assert pin["kind"] == "pinNodes" and "scoringStrategy" not in [s["kind"] for s in t["suggestions"]]
    assert [(c["object"], c["fieldPath"], c["value"]) for c in pin["changes"]] == [
        ("Pod/ns/p-0", "spec.nodeSelector.kubernetes.io/hostname", "b-0"),
        ("Pod/ns/p-1", "spec.nodeSelector.kubernetes.io/hostname", "a-0"),
        ("Pod/ns/p-2", "spec.nodeSelector.kubernetes.io/hostname", "b-0")]
    apply_changes(pin["changes"], tmp_path, tmp_path)
    assert plan_places(tmp_path, ["gang.yaml"], "cluster.yaml", "ns/trio", "--scheduler-config", str(config))


def test_a_composite_tree_is_asked_as_a_whole():
    code, doc = explain("composite", "podgroup/pipeline-shard-0")
    assert code == 1
    exact = target(doc)["exact"]
    assert exact["verdict"] == "DoesNotFit"
    assert exact["summary"] == ("exact check of its CompositePodGroup ml/pipeline-stage: does not fit: no assignment "
                                "schedules more than 1 of the 2 groups it needs")
    assert exact["answer"]["status"] == "fits"  # on its own the shard fits
    assert exact["ownSummary"] == "on its own, with the rest of the tree where the plan left it, it fits"
    tree = exact["tree"]
    assert (tree["root"], tree["status"], tree["needed"], tree["bound"]) == ("ml/pipeline-stage", "noFit", 2, 1)
    assert (tree["fewestPods"], tree["podsRoom"]) == (4, 3)


def test_a_tree_the_scheduler_order_misses_is_found_by_bin_packing(tmp_path):
    code, doc = explain("exact-tree", "podgroup/stage-c")
    assert code == 1
    t = target(doc)
    exact = t["exact"]
    assert exact["verdict"] == "FitsButMissed"
    tree = exact["tree"]
    assert tree["groups"] == ["batch/stage-a", "batch/stage-b", "batch/stage-c"]
    assert tree["witness"] == [{"node": "cpu-0", "pods": ["batch/stage-a-0", "batch/stage-b-0"]},
                               {"node": "cpu-1", "pods": ["batch/stage-c-0"]}]
    assert [s["kind"] for s in t["suggestions"]][0] == "scoringStrategy"
    config = tmp_path / "kube-scheduler-config.yaml"
    config.write_text(yaml.safe_dump(t["suggestions"][0]["changes"][0]["value"], sort_keys=False))
    case = FIXTURES / "exact-tree"
    assert not plan_places(case, ["gang.yaml"], "cluster.yaml", "batch/stage-c")
    assert plan_places(case, ["gang.yaml"], "cluster.yaml", "batch/stage-c", "--scheduler-config", str(config))


def test_a_node_with_too_many_pod_combinations_is_pooled_and_still_bounded(tmp_path):
    """Five shapes of ten pods (1, 2, 3, 5 and 7 cores) on one 64-core node: past the pattern limit the node's
    room is pooled per resource; the cheapest 30 pods take 60 cores and a 31st does not fit."""
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: one}\nspec:\n  nodePools:\n"
        "  - {name: big, count: 1, allocatable: {cpu: 64, memory: 256Gi}}\n")
    docs = ["apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: many, namespace: ns}\n"
            "spec:\n  schedulingPolicy:\n    gang:\n      minCount: 50\n"]
    for cpu in (1, 2, 3, 5, 7):
        for i in range(10):
            docs.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: c{cpu}-{i}, namespace: ns}}\nspec:\n"
                        "  schedulingGroup: {podGroupName: many}\n  containers:\n  - name: main\n    image: app:1\n"
                        f"    resources: {{requests: {{cpu: '{cpu}', memory: 1Gi}}}}\n")
    (tmp_path / "gang.yaml").write_text("---\n".join(docs))
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["model"]["pooledClasses"] == 1 and exact["model"]["classes"] == 0
    assert (exact["answer"]["bound"], exact["answer"]["needed"]) == (30, 50)
    assert bounds(exact["answer"])[("resource", "cpu")] == (64000, 180000, 0, True)


def test_hostname_anti_affinity_inside_one_rack(tmp_path):
    """Two racks of two nodes; three pods that avoid each other per node and must share a rack: two per rack."""
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: racks}\nspec:\n  nodePools:\n"
        "  - name: node\n    count: 4\n    labels: {rack: 'rack-{index // 2}'}\n"
        "    allocatable: {cpu: 16, memory: 64Gi}\n")
    anti = ("  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
            "      - labelSelector: {matchLabels: {app: ring}}\n        topologyKey: kubernetes.io/hostname\n")
    gang = _gang(anti).replace("      minCount: 3\n", "      minCount: 3\n  schedulingConstraints:\n"
                                                    "    topology:\n    - key: rack\n", 1)
    (tmp_path / "gang.yaml").write_text(gang)
    code, doc = explain("", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["summary"].endswith("more than 2 of the 3 pods still needed in any one rack domain")
    assert exact["answer"]["proof"]["domain"] == "rack-0"
    assert bounds(exact["answer"])[("pods", "ns/ring-0")] == (2, 3, 0, True)


def test_the_fewest_lower_priority_pods_to_evict(tmp_path):
    """Two 16-core nodes, each running three low-priority 4-core pods; a gang of two 8-core pods needs one
    eviction per node, not all six pods on the nodes it uses."""
    pods = "".join(f"  - {{name: low-{n}-{j}, namespace: batch, node: node-{n}, priorityClassName: low, "
                   "requests: {cpu: 4, memory: 4Gi}}\n" for n in range(2) for j in range(3))
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: busy}\nspec:\n"
        "  priorityClasses:\n  - {name: low, value: 10}\n  - {name: high, value: 1000}\n  nodePools:\n"
        "  - {name: node, count: 2, allocatable: {cpu: 16, memory: 64Gi}}\n  pods:\n" + pods)
    gang = _gang("  priorityClassName: high\n", count=2).replace(
        "      minCount: 2\n", "      minCount: 2\n  priorityClassName: high\n", 1)
    (tmp_path / "gang.yaml").write_text(gang.replace("cpu: '1', memory: 1Gi", "cpu: '8', memory: 8Gi"))
    code, doc = explain("", "--no-preemption", root=tmp_path)
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    later = exact["withEviction"]
    assert (later["status"], later["fewestEvictions"], later["verified"]) == ("fits", True, True)
    assert later["evicts"] == ["batch/low-0-2", "batch/low-1-2"]  # each node keeps the pods that sort first
    assert later["witness"] == [{"node": "node-0", "pods": ["ns/ring-0"]}, {"node": "node-1", "pods": ["ns/ring-1"]}]


def test_a_move_of_a_pod_document_sets_its_node_name(tmp_path):
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: pair}\nspec:\n  nodePools:\n"
        "  - {name: node, count: 2, allocatable: {cpu: 8, memory: 32Gi}}\n")
    (tmp_path / "running.yaml").write_text("---\n".join(
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: web-{n}, namespace: web}}\nspec:\n  nodeName: node-{n}\n"
        "  containers:\n  - name: main\n    image: web:1\n    resources: {requests: {cpu: '4', memory: 4Gi}}\n"
        for n in range(2)))
    (tmp_path / "gang.yaml").write_text(_gang("", count=1).replace("cpu: '1', memory: 1Gi", "cpu: '8', memory: 8Gi"))
    result = run("explain", "podgroup/ns/ring", str(tmp_path / "running.yaml"), str(tmp_path / "gang.yaml"),
                 "--cluster", str(tmp_path / "cluster.yaml"), "-o", "json")
    t = target(json.loads(result.stdout))
    move = t["suggestions"][0]
    assert move["kind"] == "move" and move["title"] == "move 1 running pod: web/web-0 node-0 -> node-1"
    assert [(c["file"], c["object"], c["fieldPath"], c["value"]) for c in move["changes"]] == [
        (str(tmp_path / "running.yaml"), "Pod/web/web-0", "spec.nodeName", "node-1")]
    apply_changes(move["changes"], tmp_path, tmp_path)
    assert plan_places(tmp_path, ["running.yaml", "gang.yaml"], "cluster.yaml", "ns/ring")


def test_a_member_bound_before_the_plan_pins_the_exact_check_to_its_domain():
    code, doc = explain("pinned", "podgroup/rackbound")
    exact = target(doc)["exact"]
    assert code == 1 and exact["verdict"] == "DoesNotFit"
    assert exact["summary"] == ("exact check: does not fit: no assignment places more than 1 of the 2 pods still "
                                "needed in topology.kubernetes.io/rack=rack-1, where its bound members run")
    proof = exact["answer"]["proof"]
    assert (proof["domain"], proof["otherDomains"], proof["allowedNodes"]) == ("rack-1", 0, 2)


def test_a_tree_that_must_stay_in_one_zone(tmp_path):
    """fixtures/scenarios/racks-and-trees with three of its six big nodes: the CompositePodGroup `job` must keep
    both its groups in one zone, and no zone has room for both once the training gang is placed."""
    scenario = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "racks-and-trees"
    shutil.copytree(scenario, tmp_path / "case")
    cluster = tmp_path / "case" / "cluster.yaml"
    cluster.write_text(cluster.read_text().replace("count: 6", "count: 3"))
    result = run("explain", "podgroup/job-a", str(tmp_path / "case" / "manifests"), "--cluster", str(cluster),
                 "-o", "json")
    exact = target(json.loads(result.stdout))["exact"]
    assert exact["verdict"] == "DoesNotFit"
    assert exact["summary"] == ("exact check of its CompositePodGroup default/job: does not fit: no assignment "
                                "schedules more than 1 of the 2 groups it needs")
    tree = exact["tree"]
    assert (tree["status"], tree["bound"], tree["fewestPods"], tree["podsRoom"]) == ("noFit", 1, 4, 4)


def test_the_solver_budget_is_an_option():
    _, doc = explain("exact-missed", "--exact-budget", "0.5")
    assert target(doc)["exact"]["budgetSeconds"] == 0.5
    case = FIXTURES / "exact-missed"
    bad = run("explain", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"), "--exact-budget", "0")
    assert bad.exit_code == 2

"""A new node runs the DaemonSets' pods too, and a smaller request is suggested where it fits (issue 30).

The fixture is a kind cluster as `kubectl get nodes,pods -A -o yaml` records it: three 4-CPU nodes, each with
kindnet (100m CPU, 50Mi) and kube-proxy pods owned by their DaemonSets. Before, explain verified "add 6 nodes like
kind-worker" for six 4-CPU workers on bare copies of the node; a real new node keeps 3.9 CPU for pods, so the
gang stayed 0/6, and no smaller request was ever offered.
"""

from __future__ import annotations

import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES

CASE = FIXTURES / "explain" / "daemonset-overhead"
CLUSTER = str(CASE / "cluster.yaml")


def _target(*args: str) -> dict:
    result = run("explain", *args, "--cluster", CLUSTER, "-o", "json")
    assert result.exit_code == 1, result.output
    (target,) = json.loads(result.stdout)["targets"]
    return target


def _plan_places(tmp_path, manifest: str, old: str, new: str) -> bool:
    path = tmp_path / "job.yaml"
    path.write_text((CASE / manifest).read_text().replace(old, new))
    return run("plan", str(path), "--cluster", CLUSTER).exit_code == 0


def test_no_node_is_suggested_that_its_daemonset_pods_leave_too_small(tmp_path):
    target = _target("podgroup/train-job", str(CASE / "gang.yaml"))
    assert [s["kind"] for s in target["suggestions"]] == ["requests"]
    (change,) = target["suggestions"][0]["changes"]
    assert (target["suggestions"][0]["title"], change["line"], change["fieldPath"], change["value"]) == (
        "request 1300m cpu per pod (not 4)", 23, "spec.template.spec.containers[0].resources.requests.cpu", "1300m")
    assert not _plan_places(tmp_path, "gang.yaml", 'cpu: "4"', 'cpu: "4"')
    assert _plan_places(tmp_path, "gang.yaml", 'cpu: "4"', "cpu: 1300m")
    assert not _plan_places(tmp_path, "gang.yaml", 'cpu: "4"', "cpu: 1310m")  # the largest that fits


def test_a_small_request_cut_comes_before_new_nodes(tmp_path):
    target = _target("podgroup/pair-job", str(CASE / "pair.yaml"))
    titles = [s["title"] for s in target["suggestions"]]
    assert titles == ["request 3900m cpu per pod (not 4)"]
    assert target["suggestions"][0]["why"] == ("2 nodes the pods may use have at most 3.9 cpu free; with 3900m "
                                               "(2.5% less) per pod the re-run places the target")
    assert _plan_places(tmp_path, "pair.yaml", 'cpu: "4"', "cpu: 3900m")


def test_daemonset_pods_are_never_moved_to_make_room():
    """Their controller runs one per node: the exact check's moves leave them where they are."""
    target = _target("podgroup/pair-job", str(CASE / "pair.yaml"))
    assert not any(s["kind"] == "moves" or "kindnet" in s["title"] for s in target["suggestions"])


def test_the_node_count_counts_the_daemonset_pods(tmp_path):
    """3-CPU workers: each kind worker holds one (3.9 free), so four more nodes are needed, each with its own
    kindnet and kube-proxy; the re-run that verified the count ran them."""
    path = tmp_path / "job.yaml"
    path.write_text((CASE / "gang.yaml").read_text().replace('cpu: "4"', 'cpu: "3"'))
    target = _target("podgroup/train-job", str(path))
    add = next(s for s in target["suggestions"] if s["kind"] == "addNodes")
    assert add["title"] == "add 4 nodes like kind-worker"
    assert add["why"] == ("a new node like kind-worker (cpu: 4, memory: 8Gi; its DaemonSet pods kindnet-9dq4m, "
                          "kube-proxy-h6c9z, run on every new node too, take cpu: 100m, memory: 50Mi) takes at least "
                          "one more pod; with 3 the engine still leaves the target pending")

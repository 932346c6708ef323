"""The quota tree's fast paths, no Go needed: `available` is memoised until the next usage change, the
hierarchical-reclaim walk finds its advantage level in one pass, and the preemption search skips a ClusterQueue
by its lowest admitted priority. Each is held to the plain computation it replaces (KDIR/pkg/cache/scheduler/
resource_node.go `available`, `fits_in_quota`'s walk in classical/hierarchical_preemption.go) over a seeded run
of usage changes, or to Kueue's verdict on a scenario where the shortcut must not fire."""

from __future__ import annotations

import copy
import random

from wasplan.kueue import KueueInputs, KueueStatus, admit
from wasplan.kueue.cycle import Admitted
from wasplan.kueue.model import Workload
from wasplan.kueue.quota import Tree, add_usage, available, first_advantage, fits_in_quota, remove_usage

from .helpers import load

K = "kueue.x-k8s.io/v1beta2"


def _resources(cpu: int, **limits: int) -> dict:
    return {"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": cpu,
                                                                                  **limits}]}]}


def _tree() -> Tree:
    """root > (org-a with quota and a lending limit > dept with a borrowing limit, org-b); four ClusterQueues with
    lending and borrowing limits, so local quotas and capped borrowing show in every level's arithmetic."""
    docs = [
        {"apiVersion": K, "kind": "ResourceFlavor", "metadata": {"name": "f"}},
        {"apiVersion": K, "kind": "Cohort", "metadata": {"name": "root"}},
        {"apiVersion": K, "kind": "Cohort", "metadata": {"name": "org-a"},
         "spec": {"parentName": "root", "resourceGroups": [_resources(6, lendingLimit=2)]}},
        {"apiVersion": K, "kind": "Cohort", "metadata": {"name": "dept"},
         "spec": {"parentName": "org-a", "resourceGroups": [_resources(0, borrowingLimit=5)]}},
        {"apiVersion": K, "kind": "Cohort", "metadata": {"name": "org-b"}, "spec": {"parentName": "root"}},
    ]
    for name, cohort, limits in (("cq-1", "dept", {"lendingLimit": 1}), ("cq-2", "dept", {"borrowingLimit": 3}),
                                 ("cq-3", "org-a", {}), ("cq-4", "org-b", {"lendingLimit": 4, "borrowingLimit": 2})):
        docs.append({"apiVersion": K, "kind": "ClusterQueue", "metadata": {"name": name},
                     "spec": {"cohortName": cohort, "resourceGroups": [_resources(8, **limits)]}})
    inputs = KueueInputs.from_objects(docs)
    return Tree(inputs.cluster_queues, inputs.cohorts)


def _reference_available(node, fr) -> int:
    """resource_node.go available, recomputed from the quotas and usage every time."""
    local = node.local_quota(fr)
    own = max(0, local - node.usage.get(fr, 0))
    if node.parent is None:
        return node.subtree.get(fr, 0) - node.usage.get(fr, 0)
    parent = _reference_available(node.parent, fr)
    limit = node.quota(fr).borrowing_limit
    if limit is not None:
        stored = node.subtree.get(fr, 0) - local
        used = max(0, node.usage.get(fr, 0) - local)
        parent = min(stored - used + limit, parent)
    return own + parent


def _reference_advantage(cq, usage) -> int:
    """The walk as collectCandidatesForHierarchicalReclaim writes it: fits_in_quota level by level."""
    advantage, remaining = fits_in_quota(cq, usage)
    for i, node in enumerate(cq.ancestors()):
        if advantage:
            return i
        if node.parent is not None:
            advantage, remaining = fits_in_quota(node, remaining)
    return len(cq.ancestors())


def _every_available(tree: Tree, fr) -> dict[str, int]:
    return {node.name: available(node, fr) for node in tree.nodes()}


def test_available_is_recomputed_after_every_usage_change_and_restore():
    tree = _tree()
    fr = ("f", "cpu")
    rng = random.Random(7)
    held: list[tuple[str, int]] = []
    checked = 0
    for _ in range(300):
        move = rng.random()
        if move < 0.55 or not held:
            cq, val = rng.choice(sorted(tree.cqs)), rng.randint(1, 7) * 1000  # cpu in millis
            add_usage(tree.cqs[cq], fr, val)
            held.append((cq, val))
        elif move < 0.9:
            cq, val = held.pop(rng.randrange(len(held)))
            remove_usage(tree.cqs[cq], fr, val)
        else:  # a cycle's snapshot: changes made on top of it are dropped by restore
            saved, before = tree.save(), _every_available(tree, fr)
            add_usage(tree.cqs["cq-2"], fr, 5000)
            assert _every_available(tree, fr) != before
            tree.restore(saved)
            assert _every_available(tree, fr) == before
        for node in tree.nodes():
            assert available(node, fr) == _reference_available(node, fr), node.name
            checked += 1
        for cq in tree.cqs.values():
            for val in (1000, 4000, 9000, 20000):
                assert first_advantage(cq, {fr: val}) == _reference_advantage(cq, {fr: val})
                assert first_advantage(cq, {fr: val, ("f", "memory"): 0}) == \
                    _reference_advantage(cq, {fr: val, ("f", "memory"): 0})
    assert checked == 300 * len(tree.nodes())


def test_the_tree_is_in_a_state_the_arithmetic_can_tell_apart():
    """The seeded run above is worth something only if the tree it walks borrows, lends and caps."""
    tree = _tree()
    fr = ("f", "cpu")
    # org-a's subtree: its 6 + dept's 9 (cq-1 lends 1 of 8, cq-2 all 8) + cq-3's 8 = 23, of which it lends 2
    assert tree.cohorts["org-a"].lq == {fr: 21000} and tree.cqs["cq-4"].lq == {fr: 4000}
    add_usage(tree.cqs["cq-2"], fr, 10000)  # 2 over its nominal, through dept (over its 9) into org-a's local
    assert available(tree.cqs["cq-2"], fr) == 1000  # its borrowing limit (3) caps what it may still borrow
    assert available(tree.cqs["cq-1"], fr) == 11000  # its local 7, and dept's 4 left under its borrowing limit
    assert [first_advantage(tree.cqs[cq], {fr: val}) for cq, val in (
        ("cq-1", 1000), ("cq-3", 9000), ("cq-2", 1000), ("cq-2", 20000))] == [0, 1, 2, 3]


def _workload(key: str, priority: int) -> Workload:
    namespace, name = key.split("/")
    return Workload(namespace, name, "", "q", priority, 0, [])


def test_admitted_keeps_its_lowest_priority_through_changes():
    held = Admitted()
    assert held.lowest() is None
    held["a/x"] = _workload("a/x", 5)
    held["a/y"] = _workload("a/y", -1)
    assert held.lowest() == -1
    held.pop("a/y")
    assert held.lowest() == 5
    held["a/z"] = _workload("a/z", 3)
    assert held.lowest() == 3
    del held["a/z"]
    assert held.lowest() == 5 and held.pop("a/missing", None) is None


NEWER_EQUAL = "fixtures/kueue-scenarios/preemption/newer-equal-and-never.yaml"


def _newer_equal(policy: str) -> dict[str, tuple]:
    """The scenario with `arrival` made older than `running-new` (same priority, 100): LowerOrNewerEqualPriority
    lets it preempt that newer workload, although the queue's lowest admitted priority equals its own."""
    docs = copy.deepcopy(load(NEWER_EQUAL))
    stamps = {"running-old": "2025-12-31T22:00:00Z", "running-new": "2025-12-31T23:30:00Z",
              "arrival": "2025-12-31T23:00:00Z"}
    for doc in docs:
        meta = doc.get("metadata") or {}
        if meta.get("name") in stamps:
            meta["creationTimestamp"] = stamps[meta["name"]]
        if doc.get("kind") == "ClusterQueue" and meta["name"] == "newer-equal":
            doc["spec"]["preemption"] = {"withinClusterQueue": policy}
    result = admit(KueueInputs.from_objects(docs))
    return {w.name: (w.status, w.reason, w.preempted_by) for w in result.workloads
            if w.cluster_queue == "newer-equal"}


def test_an_equal_priority_newer_workload_is_still_a_candidate():
    assert _newer_equal("LowerOrNewerEqualPriority") == {
        "job-arrival-31f85": (KueueStatus.ADMITTED, "Admitted", None),
        "running-new": (KueueStatus.PREEMPTED, "InClusterQueue", "default/job-arrival-31f85"),
        "running-old": (KueueStatus.ADMITTED, "Admitted", None)}
    assert _newer_equal("LowerPriority") == {
        "job-arrival-31f85": (KueueStatus.PENDING, "Pending", None),
        "running-new": (KueueStatus.ADMITTED, "Admitted", None),
        "running-old": (KueueStatus.ADMITTED, "Admitted", None)}

"""A CompositePodGroup tree with a pod held at PreEnqueue (1.37).

v1.37.2 queues a tree as one entity that holds every pod created under it (backend/queue/scheduling_queue.go
addPodGroupMember), and runPreEnqueuePlugins gates the whole entity when any of its pods is gated ("If any pod
is gated, the whole entity is gated"): with every pod created before the scheduler looks (batch arrival) no
pod of the tree is attempted. In sequential arrival the first child binds before the gated pod exists; the
second child's first pod is attempted alone and fails short of its minCount (test_composite_late_members.py),
then the gated pod joins the tree and holds it. Upstream writes no condition on the pods it never attempted;
wasplan names the pod that holds them.
"""

from __future__ import annotations

from test_composite_late_members import NODE, ROOT, SHORT, plan, pods, shard


def tree_with_a_gated_pod() -> str:
    return ROOT + shard("a", 2) + shard("b", 2).replace(
        "metadata: {name: b-1, namespace: default}\nspec:\n",
        "metadata: {name: b-1, namespace: default}\nspec:\n  schedulingGates: [{name: example.com/hold}]\n")


HELD = 'the composite pod group "stage" tree is gated by its pod default/b-1; none of it is scheduled'
GATED = "Scheduling is blocked due to non-empty scheduling gates"


def test_one_gated_pod_holds_the_whole_tree(tmp_path):
    p = plan(tmp_path, NODE, tree_with_a_gated_pod(), arrival="batch")
    assert pods(p) == {"a-0": ("Gated", None, HELD), "a-1": ("Gated", None, HELD), "b-0": ("Gated", None, HELD),
                       "b-1": ("Gated", None, GATED)}
    assert [(g.name, str(g.status)) for g in p.pod_groups] == [("a", "WaitingForPods"), ("b", "WaitingForPods")]


def test_gated_pod_created_after_its_sibling_child_bound_holds_only_what_is_left(tmp_path):
    p = plan(tmp_path, NODE, tree_with_a_gated_pod(), arrival="sequential")
    assert pods(p) == {"a-0": ("Bound", "n1", "Successfully assigned default/a-0 to n1"),
                       "a-1": ("Bound", "n1", "Successfully assigned default/a-1 to n1"),
                       "b-0": ("Pending", None, SHORT.format(n=1)), "b-1": ("Gated", None, GATED)}

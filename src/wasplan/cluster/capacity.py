"""Findings about the snapshot as a whole: a cluster without nodes, and nodes that their bound pods overcommit.

kube-scheduler never binds past a node's allocatable, but a snapshot can still show it (pods bound directly by
`spec.nodeName`, a kubelet whose allocatable shrank, or a hand-edited file). The plan then starts from a node
with negative free capacity, which is worth a warning naming the node and the resource rather than silence.
The charge per pod is what NodeResourcesFit charges (pkg/scheduler/framework/plugins/noderesources/fit.go):
its effective requests, plus one `pods` slot.
"""

from __future__ import annotations

from collections import defaultdict

from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import CPU, PODS, Node, Pod
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location


def _amount(resource: str, value: int) -> str:
    return f"{value}m" if resource == CPU else str(value)


def capacity_findings(records: list, snapshot_files: list[str], diags: list[Diagnostic]) -> None:
    nodes = [r for r in records if isinstance(r, Node)]
    if not nodes:
        where = snapshot_files[0] if snapshot_files else "<cluster>"
        diags.append(Diagnostic("WAS611", lookup("WAS611").severity,
                                "the cluster has no nodes: every pod stays pending", Location(where)))
        return
    used: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pod in records:
        if isinstance(pod, Pod) and pod.node_name:
            charge = used[pod.node_name]
            for resource, amount in pod.requests.items():
                charge[resource] += amount
            charge[PODS] += 1
    for node in nodes:
        for resource, amount in sorted(used.get(node.name, {}).items()):
            have = node.allocatable.get(resource, 0)
            if amount > have and (resource != PODS or PODS in node.allocatable):
                Ctx(node.source, diags).report(
                    "WAS609", f"node {node.name} is overcommitted: its bound pods request {_amount(resource, amount)} "
                              f"{resource}, allocatable is {_amount(resource, have)}", ("status", "allocatable"))

"""The pod's own terms behind a plugin's rejections, in the words of its manifest.

A FitError says "12 node(s) didn't match Pod's node affinity/selector"; a person fixing it wants to know which
of their terms did it: `nodeSelector gpu-type=a100 (no node has it; nodes have A100)`, the taint they do not
tolerate, the spread constraint's key. These helpers read the pod record and the node records only.
"""

from __future__ import annotations

from collections import Counter

from wasplan.cluster.model import Node, Pod, Taint
from wasplan.engine.plugins import taint_toleration
from wasplan.words import plural

BLOCKING = ("NoSchedule", "NoExecute")


def label_values(nodes: list[Node], key: str) -> Counter:
    return Counter(n.labels[key] for n in nodes if key in n.labels)


def selector_terms(pod: Pod, nodes: list[Node]) -> list[str]:
    out = []
    for key, value in sorted(pod.node_selector.items()):
        have = label_values(nodes, key)
        if have.get(value):
            out.append(f"nodeSelector {key}={value} ({plural(have[value], 'node')} {'has' if have[value] == 1 else 'have'} it)")
        elif have:
            others = ", ".join(v for v, _ in have.most_common(3))
            out.append(f"nodeSelector {key}={value} (no node has it; nodes have {others})")
        else:
            out.append(f"nodeSelector {key}={value} (no node has the label {key})")
    a = pod.affinity
    if a is not None and a.node_required is not None:
        for i, term in enumerate(a.node_required):
            exprs = "; ".join(_expression(r, nodes) for r in term.match_expressions)
            out.append(f"nodeAffinity required term {i}: {exprs or 'matchFields'}")
    return out


def _expression(r, nodes: list[Node]) -> str:
    text = f"{r.key} {r.operator} {','.join(r.values)}".strip()
    have = label_values(nodes, r.key)
    if r.operator == "In" and not any(have.get(v) for v in r.values):
        return text + (f" (no node has it; nodes have {', '.join(v for v, _ in have.most_common(3))})" if have
                       else f" (no node has the label {r.key})")
    return text


def untolerated(pod: Pod, node: Node) -> Taint | None:
    """The first taint that keeps `pod` off `node` (TaintToleration's filter), or None."""
    for taint in node.taints:
        if taint.effect in BLOCKING and not any(taint_toleration.tolerates(t, taint) for t in pod.tolerations):
            return taint
    return None


def blocking_taints(pod: Pod, nodes: list[Node]) -> Counter:
    """How many nodes each untolerated taint keeps the pod off (by the first such taint of each node)."""
    found = Counter()
    for node in nodes:
        taint = untolerated(pod, node)
        if taint is not None:
            found[taint] += 1
    return found


def taint_text(t: Taint) -> str:
    return f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"


def describe(plugin: str, pod: Pod, nodes: list[Node]) -> tuple[str, ...]:
    if plugin == "NodeAffinity":
        return tuple(selector_terms(pod, nodes))
    if plugin == "TaintToleration":
        found = blocking_taints(pod, nodes).most_common()
        return tuple(f"no toleration for {taint_text(t)} ({plural(n, 'node')})" for t, n in found)
    if plugin == "PodTopologySpread":
        return tuple(f"topologySpreadConstraint maxSkew {c.max_skew} on {c.topology_key} ({c.when_unsatisfiable})"
                     for c in pod.topology_spread if c.when_unsatisfiable == "DoNotSchedule")
    if plugin == "InterPodAffinity" and pod.affinity is not None:
        a = pod.affinity
        return (*(f"podAffinity required on {t.topology_key}" for t in a.pod_required),
                *(f"podAntiAffinity required on {t.topology_key}" for t in a.anti_required))
    if plugin == "NodeUnschedulable":
        return ("nodes are cordoned (spec.unschedulable) and the pod does not tolerate it",)
    if plugin == "NodeName":
        return (f"spec.nodeName is {pod.node_name}",)
    return ()

"""NodeAffinity filter, pre-filter and score (upstream pkg/scheduler/framework/plugins/nodeaffinity).

Filter: `nodeSelector` and the required node-affinity terms must match (`node(s) didn't match Pod's node
affinity/selector`). PreFilter: when every required term names nodes through `matchFields metadata.name In`,
only those nodes are considered; the others report `node(s) didn't satisfy plugin(s) [NodeAffinity]`.
Score: the sum of weights of matching preferred terms, normalised to 0-100 by the maximum.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from wasplan.cluster.model import Affinity, Node, Pod
from wasplan.engine.pluginapi.selectors import term_matches_node, terms_match_node
from wasplan.engine.pluginapi.status import REASONS, Code
from wasplan.words import plural

NAME = "NodeAffinity"
REASON = REASONS.intern("node(s) didn't match Pod's node affinity/selector", Code.UNRESOLVABLE)
ABSENT_REASON = REASONS.intern("node(s) didn't satisfy plugin(s) [NodeAffinity]", Code.UNRESOLVABLE)
CONFLICT_MESSAGE = "pod affinity terms conflict"
MAX_SCORE = 100  # fwk.MaxNodeScore


def required_matches(node_selector: dict[str, str], affinity: Affinity | None, node: Node) -> bool:
    labels = node.labels
    for key, value in node_selector.items():
        if labels.get(key) != value:
            return False
    if affinity is not None and affinity.node_required is not None:
        return terms_match_node(affinity.node_required, labels, node.name)
    return True


def prefilter_node_names(affinity: Affinity | None) -> set[str] | None:
    """The node names the required terms pin the pod to, or None when any term leaves all nodes open."""
    if affinity is None or not affinity.node_required:
        return None
    names: set[str] = set()
    for term in affinity.node_required:
        term_names: set[str] | None = None
        for req in term.match_fields:
            if req.key == "metadata.name" and req.operator == "In":
                values = set(req.values)
                term_names = values if term_names is None else term_names & values
        if term_names is None:
            return None
        names |= term_names
    return names


def preferred_score(affinity: Affinity | None, node: Node) -> int:
    if affinity is None:
        return 0
    return sum(p.weight for p in affinity.node_preferred if term_matches_node(p.term, node.labels, node.name))


def normalise(raw: np.ndarray | None, feasible: np.ndarray) -> np.ndarray | int:
    """NormalizeScore: the preferred weights scaled to MAX_SCORE by the feasible nodes' highest (0 when none
    matches)."""
    hi = int(raw[feasible].max(initial=0)) if raw is not None else 0
    return MAX_SCORE * raw // hi if hi > 0 else 0


def evaluate_static(nodes, pod: Pod, out) -> None:
    """The static verdict (static.py): the filter, whether it passes (PodTopologySpread's nodeAffinityPolicy reads
    it), the raw preferred score, and the PreFilter's verdict (a conflict, or the nodes it leaves out)."""
    state, a = nodes.state, pod.affinity
    if a is not None and a.node_preferred:
        raw = np.array([preferred_score(a, node) for node in state.nodes], dtype=np.int64)
        if raw.any():
            out.add_score(NAME, raw, ranks=True)
    if not pod.node_selector and (a is None or a.node_required is None):
        return
    out.affinity_ok[:] = [required_matches(pod.node_selector, a, node) for node in state.nodes]
    out.by_plugin[NAME][:] = np.where(out.affinity_ok, 0, REASON)
    names = prefilter_node_names(a)
    if names is not None and not names:
        out.prefilter_msg, out.prefilter_by = CONFLICT_MESSAGE, NAME
    elif names is not None:
        out.absent, out.absent_reason, out.prefilter_by = \
            np.array([node.name not in names for node in state.nodes], dtype=bool), ABSENT_REASON, NAME


# ---- explain's description of a rejection ---------------------------------------------------------------------
def label_values(nodes: list[Node], key: str) -> Counter:
    return Counter(n.labels[key] for n in nodes if key in n.labels)


def selector_terms(pod: Pod, nodes: list[Node]) -> list[str]:
    out = []
    for key, value in sorted(pod.node_selector.items()):
        have = label_values(nodes, key)
        if have.get(value):
            out.append(f"nodeSelector {key}={value} ({plural(have[value], 'node')} "
                       f"{'has' if have[value] == 1 else 'have'} it)")
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


def describe(pod: Pod, nodes: list[Node]) -> tuple[str, ...]:
    """The pod's selector and required terms, each with what the nodes have, for explain."""
    return tuple(selector_terms(pod, nodes))

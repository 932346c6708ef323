"""NodeAffinity filter, pre-filter and score (upstream pkg/scheduler/framework/plugins/nodeaffinity).

Filter: `nodeSelector` and the required node-affinity terms must match (`node(s) didn't match Pod's node
affinity/selector`). PreFilter: when every required term names nodes through `matchFields metadata.name In`,
only those nodes are considered; the others report `node(s) didn't satisfy plugin(s) [NodeAffinity]`.
Score: the sum of weights of matching preferred terms, normalised to 0-100 by the maximum.
"""

from __future__ import annotations

from wasplan.cluster.model import Affinity, Node
from wasplan.engine.selectors import term_matches_node, terms_match_node
from wasplan.engine.status import REASONS, Code

NAME = "NodeAffinity"
REASON = REASONS.intern("node(s) didn't match Pod's node affinity/selector", Code.UNRESOLVABLE)
ABSENT_REASON = REASONS.intern("node(s) didn't satisfy plugin(s) [NodeAffinity]", Code.UNRESOLVABLE)
CONFLICT_MESSAGE = "pod affinity terms conflict"


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

"""Label selector and node selector matching, shared by every plugin that compares labels.

Semantics follow k8s.io/apimachinery/pkg/labels (selector requirements) and
k8s.io/component-helpers/scheduling/corev1/nodeaffinity (node selector terms): a missing key never satisfies
In/Exists/Gt/Lt and always satisfies NotIn/DoesNotExist; Gt/Lt compare integers and fail on non-integers.
"""

from __future__ import annotations

from wasplan.cluster.model import LabelSelector, NodeSelectorTerm, Requirement


def _as_int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def requirement_matches(req: Requirement, labels: dict[str, str]) -> bool:
    op = req.operator
    present = req.key in labels
    if op == "In":
        return present and labels[req.key] in req.values
    if op == "NotIn":
        return not present or labels[req.key] not in req.values
    if op == "Exists":
        return present
    if op == "DoesNotExist":
        return not present
    if op in ("Gt", "Lt"):
        if not present or len(req.values) != 1:
            return False
        have, want = _as_int(labels[req.key]), _as_int(req.values[0])
        if have is None or want is None:
            return False
        return have > want if op == "Gt" else have < want
    return False


def selector_matches(selector: LabelSelector | None, labels: dict[str, str]) -> bool:
    """A nil selector matches nothing; an empty one matches everything (metav1.LabelSelectorAsSelector)."""
    if selector is None:
        return False
    for key, value in selector.match_labels:
        if labels.get(key) != value:
            return False
    return all(requirement_matches(r, labels) for r in selector.match_expressions)


def term_matches_node(term: NodeSelectorTerm, labels: dict[str, str], node_name: str) -> bool:
    """A term with no requirements matches no node (upstream treats an empty term as matching nothing)."""
    if not term.match_expressions and not term.match_fields:
        return False
    if not all(requirement_matches(r, labels) for r in term.match_expressions):
        return False
    fields = {"metadata.name": node_name}
    return all(requirement_matches(r, fields) for r in term.match_fields)


def terms_match_node(terms: tuple[NodeSelectorTerm, ...], labels: dict[str, str], node_name: str) -> bool:
    """Terms are ORed."""
    return any(term_matches_node(t, labels, node_name) for t in terms)


def with_label_keys(selector: LabelSelector | None, labels: dict[str, str],
                    match_keys: tuple[str, ...], mismatch_keys: tuple[str, ...] = ()) -> LabelSelector | None:
    """Merge matchLabelKeys (key In [value]) and mismatchLabelKeys (key NotIn [value]) for keys the pod has."""
    if selector is None or (not match_keys and not mismatch_keys):
        return selector
    extra = [Requirement(k, "In", (labels[k],)) for k in match_keys if k in labels]
    extra += [Requirement(k, "NotIn", (labels[k],)) for k in mismatch_keys if k in labels]
    return LabelSelector(selector.match_labels, selector.match_expressions + tuple(extra))

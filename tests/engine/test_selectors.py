"""Label and node selector matching.

Follows k8s.io/apimachinery/pkg/labels/selector_test.go (TestRequirementMatches: In/NotIn/Exists/DoesNotExist,
Gt/Lt on integers) and k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
(TestNodeSelectorMatch: terms ORed, empty term matches nothing, matchFields metadata.name).
"""

from builders import req, selector, term

from wasplan.engine.pluginapi.selectors import requirement_matches, selector_matches, term_matches_node, terms_match_node

LABELS = {"zone": "a", "gen": "5", "gpu": "true"}


def test_operators():
    assert requirement_matches(req("zone", "In", "a", "b"), LABELS)
    assert not requirement_matches(req("zone", "In", "b"), LABELS)
    assert requirement_matches(req("zone", "NotIn", "b"), LABELS)
    assert requirement_matches(req("missing", "NotIn", "b"), LABELS)
    assert requirement_matches(req("gpu", "Exists"), LABELS)
    assert not requirement_matches(req("missing", "Exists"), LABELS)
    assert requirement_matches(req("missing", "DoesNotExist"), LABELS)


def test_gt_lt_compare_integers_and_reject_non_integers():
    assert requirement_matches(req("gen", "Gt", "4"), LABELS)
    assert not requirement_matches(req("gen", "Gt", "5"), LABELS)
    assert requirement_matches(req("gen", "Lt", "6"), LABELS)
    assert not requirement_matches(req("zone", "Gt", "1"), LABELS)
    assert not requirement_matches(req("missing", "Lt", "1"), LABELS)


def test_nil_selector_matches_nothing_empty_matches_everything():
    assert not selector_matches(None, LABELS)
    assert selector_matches(selector(), LABELS)
    assert selector_matches(selector({"zone": "a"}, req("gen", "In", "5")), LABELS)
    assert not selector_matches(selector({"zone": "a"}, req("gen", "In", "4")), LABELS)


def test_node_selector_terms():
    assert not term_matches_node(term(), LABELS, "n1")
    assert term_matches_node(term(fields=[req("metadata.name", "In", "n1")]), LABELS, "n1")
    assert not term_matches_node(term(fields=[req("metadata.name", "In", "n2")]), LABELS, "n1")
    assert terms_match_node((term(req("zone", "In", "b")), term(req("zone", "In", "a"))), LABELS, "n1")

"""`plan -o markdown` read back by a CommonMark parser with GFM tables (markdown-it-py): the summary, the
PodGroups table cell by cell, pending reasons with counts and explain commands, preemptions, the baseline diff,
escaping that keeps any text literal, and the cut under a byte limit with the note saying what was left out."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from wasplan.report.plan_markdown import LIMIT, code, md, render_markdown

from tests.report.planviews import COMPETING, DIFF_BASE, DIFF_HEAD, EXAMPLE, PREEMPTION, view

PARSER = MarkdownIt("commonmark").enable("table")


def _text(inline) -> str:
    out = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline", "html_inline"):
            out.append(child.content)
        elif child.type == "softbreak":
            out.append(" ")
    return "".join(out)


def tables(text: str) -> list[list[list[str]]]:
    """Every table as rows of cell texts (header row first)."""
    out, rows, row = [], None, None
    for tok in PARSER.parse(text):
        if tok.type == "table_open":
            rows = []
        elif tok.type == "tr_open":
            row = []
        elif tok.type == "inline" and row is not None:
            row.append(_text(tok))
        elif tok.type == "tr_close":
            rows.append(row)
            row = None
        elif tok.type == "table_close":
            out.append(rows)
    return out


def blocks(text: str) -> list[tuple[str, str]]:
    """(the block's opening tag, its inline text) in document order: headings, paragraphs, list items."""
    out, tag = [], None
    for tok in PARSER.parse(text):
        if tok.type.endswith("_open") and tok.tag in ("h2", "h3", "p"):
            tag = tok.tag
        elif tok.type == "inline" and tag:
            out.append((tag, _text(tok)))
            tag = None
    return out


def codes(text: str) -> list[str]:
    return [c.content for tok in PARSER.parse(text) if tok.type == "inline" for c in tok.children or ()
            if c.type == "code_inline"]


def test_the_example_summary_and_its_podgroups_table():
    text = render_markdown(view(*EXAMPLE))
    assert blocks(text)[:3] == [
        ("h2", "wasplan plan: ✅ Fits"),
        ("p", "Kubernetes 1.37 · 19 nodes · 18 pods: 7 bound, 11 already bound, 0 pending, 0 preempted · "
              "PodGroups 3/3 scheduled"),
        ("p", "Every pod is placed.")]
    assert tables(text) == [[
        ["PodGroup", "policy", "minCount", "placed", "result", "placement", "nodes"],
        ["ml-research/finetune-13b-evaluator", "basic", "-", "1/1", "✅ Scheduled", "-", "gpu-r0-3"],
        ["ml-research/finetune-13b-trainers", "gang", "2", "2/2", "✅ Scheduled",
         "topology.kubernetes.io/rack=rack-0", "gpu-r0-1, gpu-r0-2"],
        ["ml-research/pretrain-70b-job", "gang", "4", "4/4", "✅ Scheduled", "topology.kubernetes.io/rack=rack-1",
         "gpu-r1-[0-3]"]]]
    assert len(text.encode()) < 2000


def test_pending_groups_with_reason_counts_and_the_explain_command():
    text = render_markdown(view(*COMPETING))
    assert ("h3", "Pending (3 pods)") in blocks(text)
    items = [t for tag, t in blocks(text) if tag == "p"]
    # the two members the cycle never reached keep the status as it was before the PodGroupPostFilter added to it
    message = ("pod group is unschedulable, 0/1 placements are available, first placement status: minCount (3) "
               "cannot be satisfied: 0 scheduled, 2 remaining")
    post_filter = ("deallocation and deletion of ResourceClaims completed, pod group preemption: No preemption "
                   "victims found for incoming preemptor")
    assert f"PodGroup default/b Unschedulable, 3 pods: {message}, {post_filter}" in items
    assert "1 pod Pending: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu." in items
    assert f"2 pods Pending: {message}" in items
    assert codes(text) == [f"wasplan explain podgroup/b -n default {COMPETING[0]} --cluster {COMPETING[1]}"]
    assert tables(text)[0][2] == ["default/b", "gang", "3", "0/3", "❌ Unschedulable", "-", "-"]


def test_preemptions_table():
    text = render_markdown(view(*PREEMPTION))
    assert tables(text) == [[["preemptor", "victim", "node", "priority", "victim's PodGroup"],
                             ["Pod default/web", "default/batch-a", "node-a", "0", "-"]]]


def test_the_baseline_diff_comes_first():
    text = render_markdown(view(*DIFF_HEAD, baseline=DIFF_BASE))
    got = blocks(text)
    assert got[3] == ("h3", "Against the baseline: 6 worse, 0 better, 0 changed")
    assert got[4:8] == [("p", "Worse (6)"),
                        ("p", "PodGroup ml/train-job: was Scheduled, now Unschedulable: pod group is unschedulable, 0/1 placements are "
                              "available, first placement status: minCount (5) cannot be satisfied: 4 scheduled, 0 "
                              "remaining, deallocation and deletion of ResourceClaims completed, pod group "
                              "preemption: No preemption victims found for incoming preemptor"),
                        ("p", "4 pods lost their node, now Pending: ml/train-[0-3]"),
                        ("p", "Pod ml/train-4: new, Pending")]


@pytest.mark.parametrize("raw", ["a | b", "*not bold* _nor this_", "<script>alert(1)</script>", "[x](http://e)",
                                 "`tick` ``two``", "&amp; & \\ back\\slash", "~~strike~~", "line\nbreak"])
def test_escaped_text_reads_back_exactly_in_a_table_cell_and_a_paragraph(raw):
    expected = raw.replace("\n", " ")
    assert tables(f"| h |\n| --- |\n| {md(raw)} |\n")[0][1] == [expected]
    assert blocks(f"- {md(raw)}\n") == [("p", expected)]
    assert codes(f"x {code(raw.replace(chr(10), ' '))} y") == [expected]


def test_a_summary_over_the_limit_is_cut_with_a_note_saying_what_is_left_out():
    v = view(*EXAMPLE)
    full = render_markdown(v)
    rows = full.splitlines()
    two_rows = "\n".join(rows[:rows.index(next(r for r in rows if r.startswith("| ml-research/finetune-13b-trainers")))
                          + 1]) + "\n"
    limit = len(two_rows.encode()) + 2048 + 1  # what the first two rows need, plus the reserve for notes
    cut = render_markdown(v, limit=limit)
    assert len(cut.encode()) <= limit
    assert [r[0] for r in tables(cut)[0]] == ["PodGroup", "ml-research/finetune-13b-evaluator",
                                              "ml-research/finetune-13b-trainers"]
    assert cut.rstrip().endswith("_1 more PodGroups left out to stay under GitHub's 1 MiB summary limit; the whole "
                                 "plan: `wasplan plan ... -o json` or `-o html`._")
    assert LIMIT == 1024 * 1024

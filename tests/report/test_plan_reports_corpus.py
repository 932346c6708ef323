"""Both visual formats on every fixture that comes with a cluster (the corpus of tests/engine/
test_memo_differential.py), in 1.36 and 1.37: the page has one tile per node and every PodGroup, pending entry
(with its reasons and counts) and victim of the plan; every selection names real tiles; the Markdown parses as
GFM with one table row per PodGroup and every pending entry."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from wasplan.api.releases import get_release, parse_gates
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.planview import Invocation, build_view
from wasplan.report.plan_html import render_html
from wasplan.report.plan_markdown import render_markdown

from tests.conftest import FIXTURES
from tests.engine.test_memo_differential import CORPUS
from tests.report.planviews import page_data, parse_html, tiles
from tests.report.test_plan_markdown import tables


def _check_html(page: str, plan, v) -> None:
    dom = parse_html(page)
    got = tiles(dom)
    assert len(got) == plan.nodes == len(v.nodes)
    assert dom.by_id("fact-pods").text == str(len(plan.pods))
    rows = dom.by_id("groups").find_all("tr")[1:]
    assert [r.find_all("button")[0].text.split(" ", 1)[-1] if v.groups[i].entity is not None
            else r.find_all("button")[0].text for i, r in enumerate(rows)] == [g.key for g in plan.pod_groups]
    entries = dom.by_id("pending").find_all("article")
    assert [e.find_all("button")[0].text for e in entries] == [p.label for p in v.pending]
    for entry, p in zip(entries, v.pending):
        assert [li.text for li in entry.find_all("li")] == [
            f"{r.pods} {'pod' if r.pods == 1 else 'pods'} {r.status}: {r.message}" for r in p.reasons]
    data = page_data(dom)
    assert [row[0] for row in data["nodes"]] == [n.name for n in v.nodes]
    victims = {(vv.namespace, vv.name, vv.node) for pre in plan.preemptions for vv in pre.victims}
    for ns, name, node in victims:
        row = data["nodes"][int(got[node].attrs["id"][1:])]
        assert any(x.startswith(f"{ns}/{name} ") for x in row[5]) and "victim" in got[node].classes
    ids = {t.attrs["id"] for t in got.values()}
    assert all(f"n{i}" in ids for _, _, nodes in data["sel"].values() for i in nodes)


def _check_markdown(text: str, plan, v) -> None:
    assert len(text.encode()) <= 1024 * 1024
    found = tables(text)
    if plan.pod_groups:
        assert [r[0] for r in found[-1][1:]] == [g.key for g in plan.pod_groups]
    for p in v.pending:
        assert f"- **{p.kind} {p.key}** " in text


@pytest.mark.parametrize("version", ["1.36", "1.37"])
@pytest.mark.parametrize(("cluster", "manifests"), CORPUS, ids=[str(m.relative_to(FIXTURES)) for _, m in CORPUS])
def test_both_formats_render_every_fixture(cluster, manifests, version):
    run = run_plan(PlanRequest([str(manifests)], [str(cluster)], parse_gates(get_release(version), None)))
    if run.invalid or run.plan is None:
        pytest.skip(f"not plannable in {version}")
    v = build_view(run.plan, run.final, None, Invocation((str(manifests),), (str(cluster),), version))
    _check_html(render_html(v), run.plan, v)
    text = render_markdown(v)
    MarkdownIt("commonmark").enable("table").parse(text)
    _check_markdown(text, run.plan, v)

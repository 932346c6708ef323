"""The HTML plan report in a real browser: each page is written by `wasplan plan -o html` from the fixtures,
opened from disk in headless Chromium, and the DOM its script leaves behind is checked: every group, reason,
count and victim, the highlight that a selection (from the URL, as a shared link gives it) puts on exactly its
nodes, search, and the diff against a baseline."""

from __future__ import annotations

import pytest
from cli.helpers import run

from tests.report.browser import DevTools, dump_dom, needs_browser
from tests.report.planviews import COMPETING, DIFF_BASE, DIFF_HEAD, EXAMPLE, PREEMPTION, parse_html, tiles

pytestmark = needs_browser


def _page(tmp_path, manifests, cluster, *extra, name="plan.html"):
    page = tmp_path / name
    result = run("plan", str(manifests), "--cluster", str(cluster), "--report", str(page), "-o", "json", *extra)
    assert result.exit_code in (0, 1), result.output
    return page


def _open(page, fragment=""):
    dom = parse_html(dump_dom(page, fragment))
    assert dom.find_all("html")[0].attrs.get("data-ready") == "true"  # the script ran to its end
    return dom


def _lit(dom) -> set[str]:
    return {name for name, t in tiles(dom).items() if "hl" in t.classes}


@pytest.fixture(scope="module")
def example_page(tmp_path_factory):
    return _page(tmp_path_factory.mktemp("example"), *EXAMPLE)


def test_the_example_renders_every_group_and_node(example_page):
    dom = _open(example_page)
    assert len(tiles(dom)) == 19
    assert dom.by_id("fact-nodes").text == "19"
    assert dom.by_id("fact-groups").text == "3/3"
    assert dom.by_id("verdict").text == "Fits"
    rows = [[c.text.strip() for c in tr.find_all("td")] for tr in dom.by_id("groups").find_all("tr")[1:]]
    assert [r.find_all("button")[0].text.strip() for r in dom.by_id("groups").find_all("tr")[1:]] == [
        "1 ml-research/finetune-13b-evaluator", "2 ml-research/finetune-13b-trainers", "3 ml-research/pretrain-70b-job"]
    assert rows == [["basic", "-", "1/1", "Scheduled", "-", "gpu-r0-3"],
                    ["gang", "2", "2/2", "Scheduled", "topology.kubernetes.io/rack=rack-0", "gpu-r0-1, gpu-r0-2"],
                    ["gang", "4", "4/4", "Scheduled", "topology.kubernetes.io/rack=rack-1",
                     "gpu-r1-0, gpu-r1-1, gpu-r1-2, gpu-r1-3"]]
    assert _lit(dom) == set() and "selecting" not in dom.by_id("map").classes
    assert dom.by_id("sel-status").text == "Nothing selected."


def test_tiles_carry_numbers_marks_and_fullness(example_page):
    t = tiles(_open(example_page))
    assert t["gpu-r1-0"].find_all("span")[0].text == "3"  # PodGroup 3 of the legend took it
    assert "e2" in t["gpu-r1-0"].classes
    assert t["gpu-inf-0"].find_all("b")[0].text == "T" and "taint" in t["gpu-inf-0"].classes
    assert t["gpu-inf-0"].attrs["title"].split("\n")[2:5] == ["nvidia.com/gpu 8/8 (100%)", "cpu 48/63.5 cores (76%)",
                                                             "memory 400/500 GiB (80%)"]
    assert t["gpu-inf-0"].find_all("i")[0].attrs["style"] == "height:100%"
    assert [n for n, x in t.items() if x.attrs["tabindex"] == "0"] == ["gpu-r0-0"]  # one tab stop: the map's first


@pytest.mark.parametrize(("fragment", "label", "nodes"), [
    ("#select=pg:ml-research/pretrain-70b-job", "PodGroup ml-research/pretrain-70b-job",
     {"gpu-r1-0", "gpu-r1-1", "gpu-r1-2", "gpu-r1-3"}),
    ("#select=job:ml-research/pretrain-70b", "Job ml-research/pretrain-70b",
     {"gpu-r1-0", "gpu-r1-1", "gpu-r1-2", "gpu-r1-3"}),
    ("#select=ns:serving", "Namespace serving", {"gpu-inf-0", "gpu-inf-1", "gpu-inf-2", "gpu-inf-3"}),
    ("#select=pg:ml-research/finetune-13b-trainers", "PodGroup ml-research/finetune-13b-trainers",
     {"gpu-r0-1", "gpu-r0-2"}),
])
def test_a_selection_from_the_url_highlights_exactly_its_nodes(example_page, fragment, label, nodes):
    dom = _open(example_page, fragment)
    assert _lit(dom) == nodes
    assert "selecting" in dom.by_id("map").classes
    assert dom.by_id("sel-status").text == f"{label}: {len(nodes)} nodes highlighted"
    key = fragment.removeprefix("#select=")
    assert {b.attrs["data-sel"] for b in dom.find_all("button", aria_pressed="true")} == {key}


def test_an_unknown_selection_says_so_and_highlights_nothing(example_page):
    dom = _open(example_page, "#select=pg:ml-research/nope")
    assert _lit(dom) == set()
    assert dom.by_id("sel-status").text == "Nothing is called pg:ml-research/nope."


def test_search_marks_matching_nodes_and_filters_the_lists(example_page):
    dom = _open(example_page, "#search=gpu-r1")
    found = {n for n, t in tiles(dom).items() if "found" in t.classes}
    assert found == {"gpu-r1-0", "gpu-r1-1", "gpu-r1-2", "gpu-r1-3"}
    assert dom.by_id("sel-status").text == "\u201cgpu-r1\u201d: 4 nodes, 0 selections"
    dom = _open(example_page, "#search=finetune")
    shown = [li.text.strip() for li in dom.by_id("select").find_all("li") if "nomatch" not in li.classes]
    assert shown == ["ml-research/finetune-13b-evaluator 1 node", "ml-research/finetune-13b-trainers 2 nodes"]


def test_pending_groups_show_reasons_counts_and_the_explain_command(tmp_path):
    dom = _open(_page(tmp_path, *COMPETING))
    assert dom.by_id("verdict").text == "Does not fit" and dom.by_id("fact-pending").text == "3"
    entries = dom.by_id("pending").find_all("article")
    assert len(entries) == 1
    (entry,) = entries
    assert entry.find_all("button")[0].text == "PodGroup default/b"
    assert entry.find_all("span", cls="st")[0].text == "Unschedulable"
    assert entry.find_all("small", cls="count")[0].text == "3 pods"
    reasons = [li.text for li in entry.find_all("li")]
    assert reasons == [
        "1 pod Pending: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
        "2 pods Pending: pod group is unschedulable, 0/1 placements are available, first placement status: minCount "
        "(3) cannot be satisfied: 0 scheduled, 2 remaining"]
    assert entry.find_all("code")[0].text == (f"wasplan explain podgroup/b -n default {COMPETING[0]} "
                                              f"--cluster {COMPETING[1]}")
    dom = _open(tmp_path / "plan.html", "#select=pg:default/a")
    assert _lit(dom) == {"gpu-0", "gpu-1", "gpu-2"}


def test_preemption_victims_are_marked_on_their_nodes(tmp_path):
    dom = _open(_page(tmp_path, *PREEMPTION))
    t = tiles(dom)
    assert "victim" in t["node-a"].classes and t["node-a"].find_all("b")[0].text == "✕"
    assert "✕ victim: default/batch-a (priority 0) evicted by Pod default/web" in t["node-a"].attrs["title"]
    assert "victim" not in t["node-b"].classes
    rows = [[c.text.strip() for c in tr.find_all("td")] for tr in dom.by_id("preemptions").find_all("tr", cls="victim")]
    assert rows == [["Pod default/web", "✕ default/batch-a", "node-a", "0", "-"]]
    assert dom.by_id("fact-preempted").text == "1"
    assert _lit(_open(tmp_path / "plan.html", "#select=pod:default/web")) == {"node-a"}


def test_the_baseline_diff_is_listed_and_marked_on_the_map(tmp_path):
    base = tmp_path / "base.json"
    result = run("plan", str(DIFF_BASE[0]), "--cluster", str(DIFF_BASE[1]), "-o", "json", "--fail-on", "never")
    base.write_text(result.stdout)
    page = _page(tmp_path, *DIFF_HEAD, "--baseline", str(base))
    dom = _open(page)
    assert dom.by_id("fact-diff").text == "6 worse, 0 better, 0 changed"
    assert [h.text for h in dom.by_id("diff").find_all("h3")] == ["Worse (6)"]
    assert [li.text for li in dom.by_id("diff").find_all("li")] == [
        "PodGroup ml/train-job: was Scheduled, now Unschedulable: pod group is unschedulable, 0/1 placements are "
        "available, first placement status: minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, "
        "deallocation and deletion of ResourceClaims completed, pod group preemption: No preemption victims found "
        "for incoming preemptor",
        "4 pods lost their node, now Pending: ml/train-[0-3]", "Pod ml/train-4: new, Pending"]
    t = tiles(dom)
    assert {n for n, x in t.items() if "fx-regression" in x.classes} == {"gpu-0", "gpu-1", "gpu-2", "gpu-3"}
    assert t["gpu-0"].attrs["title"].endswith("Δ Pod ml/train-0: was on gpu-0, now Pending")


@pytest.fixture
def devtools(tmp_path):
    browser = DevTools(tmp_path / "profile")
    yield browser
    browser.close()


def test_the_page_is_usable_with_the_keyboard(example_page, devtools):
    devtools.open(example_page)
    active = "document.activeElement.id || document.activeElement.tagName"
    for _ in range(4):  # skip link, search, clear, then the map's one tab stop
        devtools.press("Tab")
    assert devtools.js(active) == devtools.js("document.querySelector('.t[tabindex=\"0\"]').id")
    first = devtools.js(active)
    devtools.press("ArrowRight")
    assert devtools.js("document.getElementById('detail').textContent.split('\\n')[0]") == "gpu-r0-1"
    assert devtools.js("[...document.querySelectorAll('.t[tabindex=\"0\"]')].map(t => t.id).join()") == \
        devtools.js(active) != first  # the tab stop moved with the focus
    devtools.press("End")
    assert devtools.js("document.getElementById('detail').textContent.split('\\n')[0]") == "cpu-2"
    devtools.press("/")
    assert devtools.js(active) == "search"
    devtools.press("Tab")
    devtools.press("Tab")  # past "clear" back into the map, then the first button of the side list
    devtools.press("Tab")
    assert devtools.js("document.activeElement.getAttribute('data-sel')") == "pg:ml-research/finetune-13b-evaluator"
    devtools.press("Enter")
    assert devtools.js("document.getElementById('map').getAttribute('data-selected')") == \
        "pg:ml-research/finetune-13b-evaluator"
    assert devtools.js("[...document.querySelectorAll('.t.hl')].length") == 1
    devtools.press("Escape")
    assert devtools.js("document.getElementById('map').classList.contains('selecting')") is False
    assert devtools.js("document.getElementById('sel-status').textContent") == "Nothing selected."


def test_printing_hides_the_controls_and_keeps_the_map_and_tables(example_page, devtools):
    devtools.open(example_page, "#select=ns:serving")
    devtools.call("Emulation.setEmulatedMedia", media="print")
    shown = "(id) => getComputedStyle(document.querySelector(id)).display"
    assert [devtools.js(f"({shown})('{sel}')") for sel in (".toolbar", "#select", "#detail")] == ["none"] * 3
    assert devtools.js(f"({shown})('#map')") == "block" and devtools.js(f"({shown})('#groups table')") == "table"
    faded = "[...document.querySelectorAll('.t')].filter(t => getComputedStyle(t).opacity !== '1').length"
    assert devtools.js(faded) == 0  # a selection does not fade nodes out of the printout

"""Plans of the repository's fixtures as the visual reports see them (PlanView), and a small DOM reader for
the pages headless Chromium renders (tests/report/browser.py)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from wasplan.api.releases import get_release, parse_gates
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.plandiff import diff_plans
from wasplan.planview import Invocation, PlanView, build_view

from tests.conftest import FIXTURES

EXAMPLE = (FIXTURES / "examples" / "training", FIXTURES / "examples" / "cluster.yaml")
COMPETING = (FIXTURES / "scenarios" / "competing-gangs" / "manifests",
             FIXTURES / "scenarios" / "competing-gangs" / "cluster.yaml")
PREEMPTION = (FIXTURES / "scenarios" / "preemption" / "serving.yaml",
              FIXTURES / "scenarios" / "preemption" / "cluster.yaml")
DIFF_BASE = (FIXTURES / "plan-diff" / "base", FIXTURES / "plan-diff" / "cluster.yaml")
DIFF_HEAD = (FIXTURES / "plan-diff" / "head", FIXTURES / "plan-diff" / "cluster.yaml")
DRA = (FIXTURES / "examples" / "dra" / "workloads", FIXTURES / "examples" / "dra" / "cluster.yaml")


def planned(manifests: Path, cluster: Path, version: str = "1.37"):
    run = run_plan(PlanRequest([str(manifests)], [str(cluster)], parse_gates(get_release(version), None)))
    assert not run.invalid, run.diagnostics
    return run


def view(manifests: Path, cluster: Path, version: str = "1.37", baseline: tuple[Path, Path] | None = None) -> PlanView:
    run = planned(manifests, cluster, version)
    diff = None
    if baseline is not None:
        base = json.loads(json.dumps(planned(*baseline, version).plan.to_dict()))
        diff = diff_plans(base, run.plan.to_dict())
    return build_view(run.plan, run.final, diff, Invocation((str(manifests),), (str(cluster),)))


class Element:
    def __init__(self, tag: str, attrs: dict, parent: "Element | None"):
        self.tag, self.attrs, self.parent, self.children, self.parts = tag, attrs, parent, [], []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        out = []
        for part in self.parts:
            out.append(part.text if isinstance(part, Element) else part)
        return "".join(out)

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs) -> list["Element"]:
        return [e for e in self.iter() if (tag is None or e.tag == tag) and (cls is None or cls in e.classes)
                and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def by_id(self, ident: str) -> "Element":
        found = self.find_all(id=ident)
        assert len(found) == 1, ident
        return found[0]


_VOID = {"meta", "link", "input", "br", "img", "hr", "source", "wbr"}


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self.at = self.root

    def handle_starttag(self, tag, attrs):
        el = Element(tag, {k: (v if v is not None else "") for k, v in attrs}, self.at)
        self.at.children.append(el)
        self.at.parts.append(el)
        if tag not in _VOID:
            self.at = el

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.parts.append(data)


def parse_html(text: str) -> Element:
    b = _Builder()
    b.feed(text)
    b.close()
    return b.root


def page_data(dom: Element) -> dict:
    return json.loads(dom.by_id("plan-data").text)


def tiles(dom: Element) -> dict[str, Element]:
    """The map's node tiles by node name (tile `n{i}` is node i of the page's data)."""
    names = [row[0] for row in page_data(dom)["nodes"]]
    return {names[int(t.attrs["id"][1:])]: t for t in dom.find_all("li", cls="t")}

"""The plan as one self-contained HTML page (`plan -o html`, `--report plan.html`): a header with the verdict, the
topology map (one tile per node, grouped by the plan's topology keys, coloured and numbered by the PodGroup or
workload that took it, its bar showing how full it is), selection and search, PodGroups, pending pods with
their reasons and `wasplan explain` commands, preemptions, the ties (a preemption kube-scheduler draws between
choices that evict different pods, each choice with its victims), the recreated replacements of evicted pods, the
ResourceClaims per node (which claim holds which device, for whom) and the pending claims, and the diff against
`--baseline`.

Renders a PlanView (wasplan/planview/) and computes nothing. Jinja2 renders the page with autoescaping on, so
every name and message from the inputs is escaped by default (a pod called `<script>` stays text); the styles,
the script and the data the script reads are inlined, nothing is fetched, and the file opens from disk. The
page works without its script (everything is in the markup, printable); the script adds selection (also from
the URL: `#select=pg:NS/NAME`, `job:`, `jobset:`, `ns:`, ...), search (`#search=TEXT`) and arrow-key movement
over the map. Node tiles are built in Python rather than by a template macro: at 15,000 nodes a macro call per
tile costs more than the rest of the page. Same view, same bytes.
"""

from __future__ import annotations

import functools
from pathlib import Path

import orjson

from markupsafe import Markup

from wasplan.api.releases import get_release
from wasplan import __version__
from wasplan.planview import RUNNING, Meter, NodeView, PlanView
from wasplan.plandiff import IMPROVEMENT, NEUTRAL, REGRESSION
from wasplan.report.fit import folded, folded_paths
from wasplan.report.plan_markdown import counted
from wasplan.report.plandiff import entries

PALETTE = 12  # colours in plan.css (.e0 ... .e11); entity numbers tell the rest apart
DENSE_ABOVE = 1500  # nodes: small tiles without numbers
ROOMY_BELOW = 300  # nodes: large tiles
_GIB = 2**30
_PLURAL = {"PodGroup": "PodGroups", "CompositePodGroup": "CompositePodGroups", "Namespace": "Namespaces",
           "Pod": "Pods"}
_DIFF_TITLES = ((REGRESSION, "Worse"), (IMPROVEMENT, "Better"), (NEUTRAL, "Changed"))


def entity_class(key: str, index: int | None) -> str:
    if index is None:
        return ""
    return "er" if key == RUNNING else f"e{index % PALETTE}"


def entity_number(key: str, index: int) -> str:
    return "" if key == RUNNING else str(index + 1)


def _num(x: float) -> str:
    """At most one decimal: 60, 15.5, 0.2."""
    return f"{x:.1f}".removesuffix(".0")


def amount(m: Meter) -> str:
    """`12/32 cores`, `400/512 GiB`, `8/8` for counts."""
    if m.kind == "cpu":
        return f"{_num(m.used / 1000)}/{_num(m.total / 1000)} cores"
    if m.kind == "memory":
        return f"{_num(m.used / _GIB)}/{_num(m.total / _GIB)} GiB"
    unit = " devices" if m.kind == "device" else ""
    return f"{m.used}/{m.total}{unit}"


def short_key(key: str) -> str:
    """`topology.kubernetes.io/zone` reads as `zone` in headings; the full key is in the map's title."""
    return key.rsplit("/", 1)[-1]


def _tile(n: NodeView, view: PlanView, first: bool) -> str:
    key = view.entities[n.entity].key if n.entity is not None else ""
    classes = ["t"]
    if n.entity is not None:
        classes.append(entity_class(key, n.entity))
    marks = ""
    for flag, css, mark in ((n.unschedulable, "cordon", "⊘"), (bool(n.taints), "taint", "T"),
                            (bool(n.victims), "victim", "✕"), (bool(n.changes), f"fx-{n.change_effect}", "Δ")):
        if flag:
            classes.append(css)
            marks += mark
    label = entity_number(key, n.entity) if n.entity is not None else ""
    focus = ' tabindex="0"' if first else ""  # the map's one tab stop; the script gives the others -1
    return (f'<li id="n{n.index}" class="{" ".join(classes)}"{focus}>'
            f'<i style="height:{round(n.fullness * 100)}%"></i>'
            + (f"<span>{label}</span>" if label else "") + (f"<b>{marks}</b>" if marks else "") + "</li>")


def _tiles(view: PlanView) -> dict[int, Markup]:
    first = view.areas[0].blocks[0].nodes[0].index if view.nodes else -1
    return {n.index: Markup(_tile(n, view, n.index == first)) for n in view.nodes}


def _node_rows(view: PlanView) -> dict:
    """Each node's details, compact: the script writes them into the tile's title (tooltip, focus panel). Per
    node `[name, [resource, amount, percent, ...], [entity, pods, ...], [taint, ...], cordoned, victims,
    changes]`, indexes into the shared `res`, `ent` and `taints` lists, trailing empty fields left out."""
    resources: dict[str, int] = {}
    taints: dict[str, int] = {}
    entity = {e.label: e.index for e in view.entities}
    rows = []
    for n in view.nodes:
        meters: list = []
        for m in n.meters:
            meters += [resources.setdefault(m.resource, len(resources)), amount(m), round(m.share * 100)]
        pods = [x for label, count in n.pods for x in (entity[label], count)]
        row = [n.name, meters, pods, [taints.setdefault(t, len(taints)) for t in n.taints], int(n.unschedulable),
               list(n.victims), list(n.changes)]
        while len(row) > 1 and not row[-1]:
            row.pop()
        rows.append(row)
    return {"res": list(resources), "ent": [e.label for e in view.entities], "taints": list(taints), "nodes": rows}


def _data(view: PlanView) -> Markup:
    """What the script needs: node details and every selection's nodes. `<`, `>` and `&` are escaped so no
    name can close the script element."""
    doc = {**_node_rows(view), "sel": {s.key: [s.kind, s.label, list(s.nodes)] for s in view.selections}}
    return Markup(orjson.dumps(doc).decode().replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def block_path(path: tuple[tuple[str, str], ...]) -> str:
    return " · ".join(f"{short_key(k)}={v}" for k, v in path if v)


def _selection_lists(view: PlanView) -> list[tuple[str, list]]:
    out: dict[str, list] = {}
    for s in view.selections:
        out.setdefault(s.kind, []).append(s)
    return list(out.items())


def _diff_sections(view: PlanView) -> list[tuple[str, str, int, list[str]]]:
    """(effect, title, changes, entries): pods that changed alike fold into one entry."""
    if view.diff is None:
        return []
    return [(effect, title, len(view.diff.of(effect)), entries(view.diff.of(effect)))
            for effect, title in _DIFF_TITLES if view.diff.of(effect)]



_ASSETS = Path(__file__).resolve().parent / "html"  # shipped in the wheel beside this module (tests/test_wheel.py)


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


@functools.cache
def _environment():
    import jinja2

    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: _asset(name)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(path=block_path, ecls=lambda key, index: entity_class(key, index), enum=entity_number, short=short_key,
                       plural=lambda kind: _PLURAL.get(kind, kind + "s"), counted=counted, folded=folded,
                       folded_devices=folded_paths)
    return env


def render_html(view: PlanView) -> str:
    return _environment().get_template("plan.html.j2").render(
        v=view, tiles=_tiles(view), s=view.summary, version=__version__, dense_above=DENSE_ABOVE, roomy_below=ROOMY_BELOW, selections=_selection_lists(view),
        diff_sections=_diff_sections(view), data=_data(view), css=Markup(_asset("plan.css")),
        js=Markup(_asset("plan.js")), prerelease=get_release(view.plan.k8s_version).prerelease_note)

"""The human explanation: per target the verdict first, then the evidence (gang arithmetic, the node breakdown
per pod shape, what the closest nodes lack, free against needed resources, the plugins that eliminated nodes,
the per-domain fit), then the verified suggestions with a one-line why and the edit to make. Renders only."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from wasplan.explain.units import amount
from wasplan.report import explain_exact_text
from wasplan.explain.model import FITS, Explanation, ShapeEvidence, Suggestion, TargetExplanation

_STYLE = {FITS: "green", "DoesNotFit": "red"}


def _shape(console: Console, s: ShapeEvidence) -> None:
    req = ", ".join(f"{k} {amount(k, v)}" for k, v in s.requests if k != "pods")
    console.print(f"  [bold]pods[/bold] {escape(', '.join(s.pods[:4]))}{' ...' if len(s.pods) > 4 else ''} "
                  f"[dim]({escape(req)})[/dim]")
    if s.message:
        console.print(f"    {escape(s.message)}")
    for c in s.closest:
        lacks = "; ".join(f"needs {amount(x.resource, x.needs)} {x.resource}, {amount(x.resource, x.free)} free: "
                          f"short {amount(x.resource, x.short)}" for x in c.lacks)
        console.print(f"    {escape(c.node)}: {escape(lacks)}")
    for r in s.resources:
        if not r.missing:
            continue
        line = (f"    {r.resource}: needs {amount(r.resource, r.needed)}, free {amount(r.resource, r.free_total)} "
                f"in the cluster, {amount(r.resource, r.free_eligible)} on nodes it may use")
        if r.stranded:
            line += f", {amount(r.resource, r.stranded)} of it stranded on nodes too full for one pod"
        console.print(escape(line))
    for e in s.eliminations[:3]:
        why = "; ".join(e.constraints) or ", ".join(f"{n} {t}" for t, n in e.reasons)
        console.print(f"    [dim]{escape(e.plugin)} rejects {e.nodes} node(s): {escape(why)}[/dim]")


def _value(value) -> str:
    """A change's value as it would be written in YAML flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _suggestion(console: Console, i: int, s: Suggestion) -> None:
    opens = f" (opens {s.opens_nodes} node(s))" if s.opens_nodes else ""
    console.print(f"  {i}. [bold]{escape(s.title)}[/bold]{escape(opens)}")
    console.print(f"     why: {escape(s.why)}")
    for c in s.changes:
        where = f"{c.file}:{c.line}" if c.line else c.file
        field = f" {c.field_path}" if c.field_path else ""
        console.print(f"     [dim]{escape(where)}[/dim] {escape(c.obj)}{escape(field)}: {c.action} "
                      f"{escape(_value(c.value))}")


def _target(console: Console, t: TargetExplanation) -> None:
    style = _STYLE.get(t.verdict, "yellow")
    name = f"{t.kind} {escape(t.namespace)}/{escape(t.name)}"
    console.print(f"[bold]{name}[/bold]: [{style}]{escape(t.summary)}[/{style}]")
    if t.exact is not None:
        explain_exact_text.line(console, t.exact)
    g = t.gang
    if g is not None and g.policy != "none":
        console.print(f"  {g.policy}: minCount {g.min_count}, {g.pods_exist} pods exist, {g.pods_bound} bound, "
                      f"{g.placeable} placeable now" + (f": {g.short} short" if g.short else ""))
    for v in t.victims:
        console.print(f"  victim {escape(v['namespace'])}/{escape(v['name'])} on {escape(v['node'])} "
                      f"(priority {v['priority']})")
    for s in t.shapes:
        _shape(console, s)
    if t.topology is not None and t.topology.blocker:
        console.print(f"  topology: {escape(t.topology.blocker)}")
    elif t.topology is not None:
        doms = ", ".join(f"{d.domain}: {d.placeable}" for d in t.topology.domains)
        console.print(f"  per {escape(t.topology.key)} domain, pods placeable: {escape(doms)}")
        best = t.topology.domains[0] if t.topology.domains else None
        if best is not None and best.message:
            console.print(f"    best domain {escape(best.domain)} lacks: {escape(best.message)}")
    if t.exact is not None:
        explain_exact_text.section(console, t.exact)
    for note in t.notes:
        console.print(f"  [dim]note: {escape(note)}[/dim]")
    if t.suggestions:
        console.print("  [bold]What would make it fit[/bold] (each verified by re-running the plan):")
        for i, s in enumerate(t.suggestions, 1):
            _suggestion(console, i, s)
    elif t.verdict == "DoesNotFit":
        console.print("  [dim]No single verified change was found.[/dim]")


def render_explain_text(explanation: Explanation, console: Console) -> None:
    if not explanation.targets:
        console.print("[green]Nothing is pending: every PodGroup and pod fits.[/green]")
    for i, t in enumerate(explanation.targets):
        if i:
            console.print()
        _target(console, t)

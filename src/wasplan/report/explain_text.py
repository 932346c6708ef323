"""The human explanation: per target the verdict first, then the evidence (gang arithmetic, the node breakdown
per pod shape, what the closest nodes lack, free against needed resources, the plugins that eliminated nodes,
the per-domain fit), then the verified suggestions with a one-line why and the edit to make. Renders only.

Lines wrap between words at the console's width. Targets whose explanation is the same but for their name (a
Job's 100 lone pods that fail alike) print as one block naming them all (`pods ml/sweep-[0-99]`); pod lists are
folded the same way unless `verbose`."""

from __future__ import annotations

import io
from dataclasses import replace

from rich.console import Console
from rich.markup import escape

from wasplan.api.releases import get_release
from wasplan.explain.run import UNSUGGESTED
from wasplan.explain.model import FITS, Explanation, ShapeEvidence, Suggestion, TargetExplanation
from wasplan.explain.units import amount
from wasplan.explain.verdicts import Verdict
from wasplan.report import explain_devices_text, explain_exact_text
from wasplan.report.fit import print_wrapped, summarize
from wasplan.words import plural

_STYLE = {FITS: "green", "DoesNotFit": "red"}


def _names(names, console: Console, verbose: bool) -> str:
    return ", ".join(names) if verbose else summarize(names, max(console.width - 30, 30))


def _shape(console: Console, s: ShapeEvidence, verbose: bool = False) -> None:
    req = ", ".join(f"{k} {amount(k, v)}" for k, v in s.requests if k != "pods") or "no resource requests"
    print_wrapped(console, f"  [bold]pods[/bold] {escape(_names(s.pods, console, verbose))} [dim]({escape(req)})[/dim]")
    if s.message:
        print_wrapped(console, f"    {escape(s.message)}")
    for c in s.closest:
        lacks = "; ".join(f"needs {amount(x.resource, x.needs)} {x.resource}, {amount(x.resource, x.free)} free: "
                          f"short {amount(x.resource, x.short)}" for x in c.lacks)
        print_wrapped(console, f"    {escape(c.node)}: {escape(lacks)}")
    for r in s.resources:
        if not r.missing:
            continue
        line = (f"    {r.resource}: needs {amount(r.resource, r.needed)}, free {amount(r.resource, r.free_total)} "
                f"in the cluster, {amount(r.resource, r.free_eligible)} on nodes it may use")
        if r.stranded:
            line += f", {amount(r.resource, r.stranded)} of it stranded on nodes too full for one pod"
        print_wrapped(console, escape(line))
    for e in s.eliminations[:3]:
        why = "; ".join(e.constraints) or ", ".join(f"{n} {t}" for t, n in e.reasons)
        print_wrapped(console, f"    [dim]{escape(e.plugin)} rejects {plural(e.nodes, 'node')}: {escape(why)}[/dim]")
    if s.devices is not None:
        explain_devices_text.render(console, s.devices)


def _value(value) -> str:
    """A change's value as it would be written in YAML flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _suggestion(console: Console, i: int, s: Suggestion) -> None:
    opens = f" (opens {plural(s.opens_nodes, 'node')})" if s.opens_nodes else ""
    print_wrapped(console, f"  {i}. [bold]{escape(s.title)}[/bold]{escape(opens)}")
    print_wrapped(console, f"     why: {escape(s.why)}")
    for c in s.changes:
        where = f"{c.file}:{c.line}" if c.line else c.file
        field = f" {c.field_path}" if c.field_path else ""
        if _is_manifest(c.value):
            print_wrapped(console, f"     [dim]{escape(where)}[/dim] {escape(c.obj)}{escape(field)}: {c.action} "
                                   f"(paste into {escape(c.file)} as a new document):")
            _manifest(console, c.value)
            continue
        value = f" {escape(_value(c.value))}" if c.value is not None else ""
        print_wrapped(console, f"     [dim]{escape(where)}[/dim] {escape(c.obj)}{escape(field)}: {c.action}{value}")


def _is_manifest(value) -> bool:
    """A whole new object (a Node, a List of them, a PriorityClass): printed as a YAML document to paste."""
    return isinstance(value, dict) and isinstance(value.get("apiVersion"), str) and isinstance(value.get("kind"), str)


def _manifest(console: Console, value: dict) -> None:
    """The object as block YAML under the change, never wrapped (a wrapped line would not paste back)."""
    import yaml

    text = "---\n" + yaml.safe_dump(value, sort_keys=False, default_flow_style=False, allow_unicode=True)
    for line in text.splitlines():
        console.print(f"       {line}", markup=False, highlight=False, no_wrap=True, overflow="ignore", crop=False,
                      soft_wrap=True)


def _target(console: Console, same: list[TargetExplanation], verbose: bool) -> None:
    """One block for `same`: one target, or several whose blocks are identical but for names (collapsed); the
    block then names them all, and each pod shape lists the pods of all of them."""
    t = same[0]
    names = [f"{x.namespace}/{x.name}" for x in same]
    style = _STYLE.get(t.verdict, "yellow")
    kind = t.kind if len(names) == 1 else f"{len(names)} {t.kind}s"
    print_wrapped(console, f"[bold]{kind} {escape(_names(names, console, verbose))}[/bold]: "
                           f"[{style}]{escape(t.summary)}[/{style}]")
    if t.exact is not None:
        explain_exact_text.line(console, t.exact)
    g = t.gang
    if g is not None and g.policy != "none":
        exist = f"{plural(g.pods_exist, 'pod')} {'exists' if g.pods_exist == 1 else 'exist'}"
        print_wrapped(console, f"  {g.policy}: minCount {g.min_count}, {exist}, {g.pods_bound} bound, "
                      f"{g.placeable} placeable now" + (f": {g.short} short" if g.short else ""))
    for v in t.victims:
        print_wrapped(console, f"  victim {escape(v['namespace'])}/{escape(v['name'])} on {escape(v['node'])} "
                      f"(priority {v['priority']})")
    for s in t.shapes:
        pods = [p for x in same for shape in x.shapes if shape.requests == s.requests for p in shape.pods]
        _shape(console, replace(s, pods=tuple(dict.fromkeys(pods))), verbose)
    if t.topology is not None and t.topology.blocker:
        print_wrapped(console, f"  topology: {escape(t.topology.blocker)}")
    elif t.topology is not None:
        doms = ", ".join(f"{d.domain}: {d.placeable}" for d in t.topology.domains)
        print_wrapped(console, f"  per {escape(t.topology.key)} domain, pods placeable: {escape(doms)}")
        best = t.topology.domains[0] if t.topology.domains else None
        if best is not None and best.message:
            print_wrapped(console, f"    best domain {escape(best.domain)} lacks: {escape(best.message)}")
    if t.exact is not None:
        explain_exact_text.section(console, t.exact)
    for note in t.notes:
        print_wrapped(console, f"  [dim]note: {escape(note)}[/dim]")
    if t.suggestions:
        print_wrapped(console, "  [bold]What would make it fit[/bold] (each verified by re-running the plan):")
        for i, s in enumerate(t.suggestions, 1):
            _suggestion(console, i, s)
    elif t.verdict == Verdict.DOES_NOT_FIT and UNSUGGESTED not in t.notes:  # none looked for is not none found
        print_wrapped(console, "  [dim]No single verified change was found.[/dim]")


def _signature(t: TargetExplanation, width: int) -> str:
    """The block of `t` with its name and its pods left out: equal signatures collapse into one block."""
    probe = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    blind = replace(t, namespace="", name="", shapes=tuple(replace(s, pods=()) for s in t.shapes))
    _target(probe, [blind], False)
    return probe.export_text()


def _collapsed(targets, width: int) -> list[list[TargetExplanation]]:
    blocks: dict[str, list[TargetExplanation]] = {}
    for t in targets:
        blocks.setdefault(_signature(t, width), []).append(t)
    return list(blocks.values())


def _not_looked_at(explanation: Explanation, console: Console) -> None:
    """The objects whose pods nobody planned (WAS622): named, so silence about them is never read as a fit."""
    n = len(explanation.unplanned)
    print_wrapped(console, f"[bold]Not looked at[/bold] ({n}): wasplan has no model of "
                           f"{'its' if n == 1 else 'their'} controller, so {'its' if n == 1 else 'their'} pods were "
                           "neither planned nor explained")
    for u in explanation.unplanned:
        at = f"{u.where}: " if u.where else ""
        print_wrapped(console, f"  {escape(at)}{escape(u.kind)} {escape(u.namespace)}/{escape(u.name)} "
                               f"({escape(u.api_version)})")


def render_explain_text(explanation: Explanation, console: Console, verbose: bool = False) -> None:
    if note := get_release(explanation.k8s_version).prerelease_note:
        print_wrapped(console, note)
    if not explanation.targets and not explanation.unplanned:
        print_wrapped(console, "[green]Nothing is pending: every PodGroup and pod fits.[/green]")
    elif not explanation.targets:
        print_wrapped(console, "Every PodGroup and pod the plan could look at fits; not everything was looked at:")
    blocks = [[t] for t in explanation.targets] if verbose else _collapsed(explanation.targets, console.width)
    for i, same in enumerate(blocks):
        if i:
            console.print()
        _target(console, same, verbose)
    if explanation.unplanned:
        if blocks:
            console.print()
        _not_looked_at(explanation, console)

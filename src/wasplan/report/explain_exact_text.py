"""The exact check in the human explanation: its one line under the target's verdict, and its own section (the
witness assignment, or the bounds behind "does not fit", and the answer with lower-priority pods removable).
Lines wrap between words at the console's width (report/fit.py). Renders only."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from wasplan.explain.exact.result import DOES_NOT_FIT, FOUND, MISSED, Answer, ExactCheck, Model, Status
from wasplan.explain.units import amount
from wasplan.words import plural
from wasplan.report.fit import print_wrapped

_STYLE = {DOES_NOT_FIT: "red", FOUND: "green", MISSED: "yellow"}
WITNESS_NODES = 8


def line(console: Console, check: ExactCheck) -> None:
    style = _STYLE.get(check.verdict, "yellow")
    print_wrapped(console, f"  [{style}]{escape(check.summary)}[/{style}]")


def _witness(console: Console, answer: Answer, indent: str) -> None:
    where = f" in {answer.domain}" if answer.domain else ""
    print_wrapped(console, f"{indent}an assignment{where}, accepted pod by pod by the engine's filters:")
    for w in answer.witness[:WITNESS_NODES]:
        print_wrapped(console, f"{indent}  {escape(w.node)}: {escape(', '.join(w.pods))}")
    if len(answer.witness) > WITNESS_NODES:
        print_wrapped(console, f"{indent}  ... and {plural(len(answer.witness) - WITNESS_NODES, 'more node')}")
    for c in answer.subrequests[:WITNESS_NODES]:
        print_wrapped(console, f"{indent}  {escape(c.pod)}: request {escape(c.request)} of claim {escape(c.claim)} "
                      f"uses subrequest {escape(c.subrequest)}")


def _bounds(console: Console, answer: Answer, indent: str) -> None:
    p = answer.proof
    if p is None:
        return
    if p.domain is not None:
        others = f"; the {plural(p.other_domains, 'other domain')} {'holds' if p.other_domains == 1 else 'hold'} no more" if p.other_domains else ""
        print_wrapped(console, f"{indent}best domain {escape(p.domain)}{others}:")
    print_wrapped(console, f"{indent}{plural(p.allowed_nodes, 'node')} {'passes' if p.allowed_nodes == 1 else 'pass'} the filters for "
                   "these pods, room aside")
    if not p.allowed_nodes:
        return
    for b in p.bounds:
        if b.kind == "pods":
            text = (f"pods like {b.subject}: the nodes hold at most {b.available} (each node's free room over one "
                    f"pod's request), {b.needed} needed")
        elif b.kind in ("devices", "counter"):
            text = f"{b.subject}: {b.available} free on nodes that can take a pod, {b.needed} needed"
            if b.stranded:
                text += f" ({b.stranded} more free on nodes too short for one pod)"
        else:
            text = (f"{b.subject}: {amount(b.subject, b.available)} free on nodes that can take a pod, "
                    f"{amount(b.subject, b.needed)} needed")
            if b.stranded:
                text += f" ({amount(b.subject, b.stranded)} more free on nodes too short for one pod)"
        mark = "[red]short[/red] " if b.short else ""
        print_wrapped(console, f"{indent}{mark}{escape(text)}")
    if not any(b.short for b in p.bounds) and answer.status == Status.NO_FIT:
        print_wrapped(console, f"{indent}no single bound falls short: the pods do not combine onto the nodes "
                      "(the solver tried every combination)")


def _tree(console: Console, check: ExactCheck) -> None:
    whole = check.tree
    print_wrapped(console, f"    {escape(check.own_summary)}")
    if whole.witness:
        print_wrapped(console, f"    the tree's assignment ({escape(', '.join(whole.groups))}), accepted pod by pod by the "
                      "engine's filters:")
        for w in whole.witness[:WITNESS_NODES]:
            print_wrapped(console, f"      {escape(w.node)}: {escape(', '.join(w.pods))}")
    elif whole.status == Status.NO_FIT:
        mark = "[red]short[/red] " if whole.pods_room < whole.fewest_pods else ""
        print_wrapped(console, f"    {mark}the cheapest {plural(whole.needed, 'group')} the tree needs ask for "
                      f"{plural(whole.fewest_pods, 'pod')}; the nodes hold at most {whole.pods_room} of the tree's pods")
        if not mark:
            print_wrapped(console, "    that bound is not short: the topology domains and how the pods combine on nodes "
                          "rule it out (the solver tried every arrangement)")
    if whole.note:
        print_wrapped(console, f"    {escape(whole.note)}")


def _verified(verified: bool | None) -> str:
    if verified is None:
        return "not re-planned: the verification budget was spent"
    return "verified by re-planning" if verified else "but the re-planned run still leaves it pending"


def _moves(console: Console, check: ExactCheck) -> None:
    moved = check.with_moves
    if moved is None:
        return
    if moved.status == Status.FITS:
        how = _verified(moved.verified)
        print_wrapped(console, f"    with {plural(len(moved.moves), 'running pod')} moved it fits ({how}):")
        for m in moved.moves[:WITNESS_NODES]:
            print_wrapped(console, f"      {escape(m.pod)}: {escape(m.source)} -> {escape(m.target)}")
    else:
        word = "it still does not fit" if moved.status == Status.NO_FIT else "unknown"
        print_wrapped(console, f"    with running pods of its priority or lower movable {word}"
                      + (f": {escape(moved.note)}" if moved.note else ""))


def model_words(m: Model) -> str:
    """What the solver looked at, in a person's words: nodes that can hold one of the pods are grouped when they
    are interchangeable for them (a class), pods when they ask for the same (a shape). No class means no node
    can hold even one pod, which is said as such rather than as "0 classes"."""
    kinds = plural(m.shapes, "kind of pod", "kinds of pod")
    groups = m.classes + m.pooled
    if not groups:
        which = "which cannot" if m.nodes == 1 else "none of which can"
        return f"{plural(m.nodes, 'node')}, {which} hold one of these pods; {kinds}"
    alike = "group of interchangeable nodes" if groups == 1 else "groups of interchangeable nodes"
    return f"{plural(m.nodes, 'node')}, solved as {groups} {alike} and {kinds}"


def section(console: Console, check: ExactCheck) -> None:
    if check.now is None:
        return
    if check.tree is not None:
        print_wrapped(console, "  [bold]Exact check[/bold]:")
        _tree(console, check)
        return
    size = f" [dim]({model_words(check.model)})[/dim]" if check.model else ""
    print_wrapped(console, f"  [bold]Exact check[/bold]{size}:")
    if check.now.witness:
        _witness(console, check.now, "    ")
    else:
        _bounds(console, check.now, "    ")
    if check.now.note:
        print_wrapped(console, f"    {escape(check.now.note)}")
    _moves(console, check)
    later = check.with_eviction
    if later is not None:
        if later.witness and later.fewest:
            how = _verified(later.verified)
            print_wrapped(console, f"    with lower-priority pods removable it fits, evicting {plural(len(later.evicts), 'pod')} at "
                          f"the fewest ({how}): {escape(', '.join(later.evicts[:WITNESS_NODES]))}"
                          + (" ..." if len(later.evicts) > WITNESS_NODES else ""))
            _witness(console, later, "      ")
        elif later.witness:
            print_wrapped(console, f"    with lower-priority pods removable it fits, evicting at most {len(later.evicts)} "
                          "pod(s) on the assignment's nodes")
            _witness(console, later, "      ")
        else:
            word = "it still does not fit" if later.status == Status.NO_FIT else "unknown within the budget"
            print_wrapped(console, f"    with lower-priority pods removable {word}: at most {later.bound} of {later.needed}")

"""The human summary of a plan: totals, one row per PodGroup, and every pod that stays pending with its reason.
Renders only what the Plan holds."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from wasplan.plan import Plan

_STYLE = {"Scheduled": "green", "Unschedulable": "red", "WaitingForPods": "yellow", "WaitingForPreemption": "yellow"}


def _group_table(plan: Plan) -> Table:
    by_key = {p.key: p for p in plan.pods}
    table = Table(title="PodGroups", show_lines=False)
    for col in ("group", "policy", "minCount", "placed/total", "result", "placement"):
        table.add_column(col, overflow="fold")
    table.add_column("nodes", overflow="fold", ratio=1)
    for g in plan.pod_groups:
        members = [by_key[k] for k in g.pods if k in by_key]
        placed = [m for m in members if m.status in ("Bound", "AlreadyBound")]
        nodes = sorted({m.node for m in placed if m.node})
        style = _STYLE.get(g.status, "")
        table.add_row(g.key, g.policy, str(g.min_count) if g.policy == "gang" else "-",
                      f"{len(placed)}/{len(members)}", f"[{style}]{g.status}[/{style}]" if style else g.status,
                      _where(g.placement), ", ".join(nodes))
    return table


def _preemptions(plan: Plan, console: Console) -> None:
    """Who preempted whom (issue 6): one line per preemptor, its victims with node and priority."""
    console.print(f"[bold]Preemptions[/bold] ({len(plan.preemptions)})")
    for p in plan.preemptions:
        victims = ", ".join(f"{v.namespace}/{v.name} on {v.node} (priority {v.priority})" for v in p.victims)
        console.print(f"  {p.preemptor_kind} {p.preemptor_namespace}/{p.preemptor_name} evicts {victims}",
                      markup=False, highlight=False)


def _where(placement) -> str:
    return f"{placement.topology_key}={placement.domain}" if placement else "-"


_CHILD_STYLE = {"Scheduled": "green", "AlreadyScheduled": "green", "Failed": "red", "Reverted": "yellow",
                "NotTried": "dim"}


def _tree(plan: Plan) -> Tree:
    """Each root CompositePodGroup with its children as the last cycle left them (and why one was reverted)."""
    by_key = {c.key: c for c in plan.composites}
    top = Tree("[bold]CompositePodGroups[/bold]")

    shown: set[str] = set()

    def add(branch: Tree, c) -> None:
        shown.add(c.key)
        style = _STYLE.get(c.status, "")
        policy = f"gang {c.min_group_count}" if c.policy == "gang" else "basic"
        where = f" {escape(_where(c.placement))}" if c.placement else ""
        label = f"{escape(c.key)} ({policy}) [{style}]{c.status}[/{style}]{where}"
        node = branch.add(label + (f": {escape(c.message)}" if c.message else ""))
        for child in c.children:
            key = f"{c.namespace}/{child.name}"
            if child.kind == "CompositePodGroup" and key in by_key and key not in shown:
                add(node, by_key[key])
                continue
            cs = _CHILD_STYLE.get(child.result, "")
            note = f": {escape(child.message)}" if child.message else ""
            node.add(f"{escape(child.name)} [{cs}]{child.result}[/{cs}]{note}")

    for c in plan.composites:
        if c.parent is None or c.parent not in by_key:
            add(top, c)
    for c in plan.composites:  # members of a parent cycle have no root to hang from
        if c.key not in shown:
            add(top, c)
    return top


def _claims(plan: Plan, console: Console) -> None:
    """Each ResourceClaim with its devices and consumers (the pod's or the PodGroup's), or why it is pending."""
    console.print(f"[bold]ResourceClaims[/bold] ({len(plan.claims)})")
    for c in plan.claims:
        users = ", ".join(f"{u.kind} {u.name}" for u in c.reserved_for) or "nobody"
        if c.status == "Pending":
            line = f"  {c.namespace}/{c.name} Pending" + (f": {c.message}" if c.message else "")
        else:
            devices = ", ".join(f"{d.driver}/{d.pool}/{d.device}" for d in c.devices) or "no devices"
            where = f" on {c.node}" if c.node else ""
            line = f"  {c.namespace}/{c.name} {c.status}{where}: {devices}; reserved for {users}"
        console.print(line, markup=False, highlight=False)


def render_text(plan: Plan, console: Console) -> None:
    s = plan.summary()
    console.print(f"[bold]Plan[/bold] for Kubernetes {plan.k8s_version}: {plan.nodes} nodes, {s['pods']} pods — "
                  f"{s['bound']} bound, {s['alreadyBound']} already bound, {s['pending']} pending, "
                  f"{s['preempted']} preempted")
    if plan.pod_groups:
        console.print(_group_table(plan))
    if plan.composites:
        console.print(_tree(plan))
    if plan.preemptions:
        _preemptions(plan, console)
    if plan.claims:
        _claims(plan, console)
    pending = [p for p in plan.pods if p.status in ("Pending", "Gated")]
    if pending:
        console.print(f"[bold]Pending pods[/bold] ({len(pending)})")
        for p in pending:
            console.print(f"  {p.key} [dim]{p.status}[/dim]: {p.message}", markup=True, highlight=False)
    if plan.unplanned:
        console.print(f"[bold]Not planned[/bold] ({len(plan.unplanned)}): no controller model, its pods are not in "
                      "the plan")
        for u in plan.unplanned:
            console.print(f"  {u.kind} {u.namespace}/{u.name} ({u.api_version})", markup=False, highlight=False)
    if plan.complete:
        console.print("[green]Every pod is placed.[/green]")

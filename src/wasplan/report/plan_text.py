"""The human summary of a plan: totals, one row per PodGroup, the composite tree, evictions, and the pods that
stay pending with their reason. Renders only what the Plan holds.

It fits the console's width: the group table drops its least important columns first when narrow (minCount,
then policy, then placement) and summarises node lists (`gpu-r1-[0-3]`, `+12 more`) instead of breaking names;
text wraps between words. A preemption that is a draw in kube-scheduler (equally scored choices that evict
different pods) gets a `tie:` line under Preemptions naming each choice and its victims. Pending pods of one workload (Job, Deployment, JobSet, LeaderWorkerSet, ...) or group
with the same reason print once with a count (`verbose` lists every pod); the JSON plan always has every pod.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from wasplan.api.releases import get_release
from wasplan.planview.kueue import KUEUE_STOPPED, QUEUE_HEADER, queue_rows, stopped_lines, waiting_lines
from wasplan.plan import (PLACED, UNPLACED, ClaimStatus, GroupPolicy, GroupStatus, Plan, PodOutcome, PodStatus,
                          TreeResult)
from wasplan.planview.ties import tie_sentence
from wasplan.report.fit import folded, folded_paths, summarize, wrap, wrap_lines
from wasplan.words import natural_key, plural

_STYLE = {GroupStatus.SCHEDULED: "green", GroupStatus.UNSCHEDULABLE: "red", GroupStatus.WAITING_FOR_PODS: "yellow",
          GroupStatus.WAITING_FOR_PREEMPTION: "yellow"}
# (header, drop order: higher goes first when the table is too wide); "nodes" takes the width that is left
_COLUMNS = (("group", 0), ("policy", 5), ("minCount", 6), ("placed", 1), ("result", 0), ("placement", 4),
            ("nodes", 2))
_KEPT_FIRST = 1.5  # placement's drop order in a topology-aware plan: after nodes, before placed
_MIN_NODES = 16


def _rows(plan: Plan) -> list[tuple[dict[str, str], list[str]]]:
    by_key = {p.key: p for p in plan.pods}
    rows = []
    for g in plan.pod_groups:
        members = [by_key[k] for k in g.pods if k in by_key]
        placed = [m for m in members if m.status in PLACED]
        cells = {"group": g.key, "policy": g.policy, "minCount": str(g.min_count) if g.policy == GroupPolicy.GANG else "-",
                 "placed": f"{len(placed)}/{len(members)}", "result": g.status, "placement": _where(g.placement),
                 "short": _where(g.placement, short=True)}
        rows.append((cells, sorted({m.node for m in placed if m.node}, key=natural_key)))
    return rows


def _fit(rows, width: int, placement: str, aware: bool) -> dict[str, int]:
    """Column widths that fit `width` with the placement cells of column `placement` (full or short): natural
    widths, dropping columns by their order until the rest fit; nodes keep at least `_MIN_NODES` or go."""
    natural = {h: max([len(h), *(len(c[placement if h == "placement" else h]) for c, _ in rows)])
               for h, _ in _COLUMNS if h != "nodes"}
    nodes = max([len("nodes"), *(len(", ".join(n)) for _, n in rows)])
    order = {h: (_KEPT_FIRST if aware and h == "placement" else p) for h, p in _COLUMNS}
    kept = [h for h, _ in _COLUMNS]

    def needed() -> int:
        fixed = sum(natural[h] for h in kept if h != "nodes") + 2 * (len(kept) - 1)
        return fixed + (min(nodes, _MIN_NODES) if "nodes" in kept else 0)

    for header in sorted(kept, key=lambda h: -order[h]):
        if needed() <= width or header in ("group", "result"):
            break
        kept.remove(header)
    widths = {h: natural[h] for h in kept if h != "nodes"}
    if "nodes" in kept:
        widths["nodes"] = max(min(nodes, width - needed() + min(nodes, _MIN_NODES)), len("nodes"))
    return {h: widths[h] for h, _ in _COLUMNS if h in widths}


def _layout(rows, width: int) -> tuple[dict[str, int], str]:
    """The columns that fit `width`, and which placement cells they show. A topology-aware plan (a group with
    a placement) keeps its placement column longer than the node names, shortened to the key's last segment
    (`rack=rack-0` for `topology.kubernetes.io/rack=rack-0`) before it would go."""
    aware = any(c["placement"] != "-" for c, _ in rows)
    widths = _fit(rows, width, "placement", aware)
    if aware and not {"placement", "nodes"} <= set(widths):
        short = _fit(rows, width, "short", aware)
        if len(short) > len(widths) or ("placement" in short and "placement" not in widths):
            return short, "short"
    return widths, "placement"


def _group_table(plan: Plan, console: Console) -> None:
    rows = _rows(plan)
    widths, placement = _layout(rows, console.width)
    console.print("[bold]PodGroups[/bold]")
    console.print(Text("  ".join(h.ljust(w) for h, w in widths.items()).rstrip(), style="bold"))
    for cells, nodes in rows:
        line = Text()
        for i, (h, w) in enumerate(widths.items()):
            value = (summarize(nodes, w) or "-") if h == "nodes" else cells[placement if h == "placement" else h]
            line.append("  " if i else "")
            line.append(value, style=_STYLE.get(value, "") if h == "result" else "")
            line.append("" if i == len(widths) - 1 else " " * (w - len(value)))
        console.print(line, no_wrap=True, overflow="ignore", crop=False)


def _print(console: Console, text: str, indent: str = "", hang: str = "    ") -> None:
    """Plain text (no markup) wrapped between words to the console's width."""
    for line in wrap(text, console.width, indent, indent + hang):
        console.print(line, markup=False, highlight=False, no_wrap=True, overflow="ignore", crop=False)


def _preemptions(plan: Plan, console: Console) -> None:
    """Who preempted whom (issue 6): one entry per preemptor, its victims with node and priority."""
    console.print(f"[bold]Preemptions[/bold] ({len(plan.preemptions)})")
    for p in plan.preemptions:
        _print(console, f"{p.preemptor_kind} {p.preemptor_namespace}/{p.preemptor_name} evicts "
                        f"{victim_list(p.victims)}", "  ")
    for r in plan.recreations:  # what becomes of the victims a controller recreates (engine/preemption/recreation.py)
        _print(console, r.message, "  ")
    for kind, key, alternatives, tied in plan.ties():  # a draw in kube-scheduler whose choices evict other pods
        _print(console, tie_sentence(kind, key, alternatives, tied), "  ")


def victim_list(victims) -> str:
    """`ml/train-[0-3] on node-0 (priority 0), ml/train-[4-7] on node-1 (priority 0)`: the victims of one node and
    priority folded, nodes in natural order."""
    by: dict[tuple[str, int], list[str]] = {}
    for v in victims:
        by.setdefault((v.node, v.priority), []).append(f"{v.namespace}/{v.name}")
    return ", ".join(f"{folded(names)} on {node} (priority {priority})"
                     for (node, priority), names in sorted(by.items(), key=lambda kv: (natural_key(kv[0][0]),
                                                                                       kv[0][1])))


def _where(placement, short: bool = False) -> str:
    """`topology.kubernetes.io/rack=rack-0`, or with `short` the key's last segment: `rack=rack-0`."""
    if not placement:
        return "-"
    key = placement.topology_key.rsplit("/", 1)[-1] if short else placement.topology_key
    return f"{key}={placement.domain}"


_CHILD_STYLE = {TreeResult.SCHEDULED: "green", TreeResult.ALREADY_SCHEDULED: "green", TreeResult.FAILED: "red",
                TreeResult.REVERTED: "yellow", TreeResult.NOT_TRIED: "dim"}


def _tree(plan: Plan) -> list[tuple[int, str]]:
    """Each root CompositePodGroup with its children as the last cycle left them (and why one was reverted), as
    (depth, markup) entries in drawing order."""
    by_key = {c.key: c for c in plan.composites}
    out: list[tuple[int, str]] = []
    shown: set[str] = set()

    def add(depth: int, c) -> None:
        shown.add(c.key)
        style = _STYLE.get(c.status, "")
        policy = f"gang {c.min_group_count}" if c.policy == GroupPolicy.GANG else "basic"
        where = f" {escape(_where(c.placement))}" if c.placement else ""
        label = f"{escape(c.key)} ({policy}) [{style}]{c.status}[/{style}]{where}"
        out.append((depth, label + (f": {escape(c.message)}" if c.message else "")))
        for child in c.children:
            key = f"{c.namespace}/{child.name}"
            if child.kind == "CompositePodGroup" and key in by_key and key not in shown:
                add(depth + 1, by_key[key])
                continue
            cs = _CHILD_STYLE.get(child.result, "")
            note = f": {escape(child.message)}" if child.message else ""
            out.append((depth + 1, f"{escape(child.name)} [{cs}]{child.result}[/{cs}]{note}"))

    for c in plan.composites:
        if c.parent is None or c.parent not in by_key:
            add(0, c)
    for c in plan.composites:  # members of a parent cycle have no root to hang from
        if c.key not in shown:
            add(0, c)
    return out


def _print_tree(console: Console, entries: list[tuple[int, str]]) -> None:
    """The entries under guide lines (`├── `, `└── `, `│   `); a long entry wraps between words with its
    continuation lines indented under its text and a little further, and no line ends in spaces."""
    console.print("[bold]CompositePodGroups[/bold]")
    open_levels: list[bool] = []  # per depth above: does a later sibling follow (draw `│`)?
    for i, (depth, markup) in enumerate(entries):
        later = [d for d, _ in entries[i + 1:]]
        last = not any(d == depth for d in _until_shallower(later, depth))
        del open_levels[depth:]
        guides = "".join("│   " if more else "    " for more in open_levels)
        first = guides + ("└── " if last else "├── ")
        rest = guides + ("    " if last else "│   ") + "    "
        for line in wrap_lines(Text.from_markup(markup), console.width, first, rest):
            console.print(line, no_wrap=True, overflow="ignore", crop=False, highlight=False)
        open_levels.append(not last)


def _until_shallower(depths: list[int], depth: int) -> list[int]:
    """The depths that follow an entry up to (not including) the first entry above its level."""
    out = []
    for d in depths:
        if d < depth:
            break
        out.append(d)
    return out


def _claims(plan: Plan, console: Console) -> None:
    """Each ResourceClaim with its devices and consumers (the pod's or the PodGroup's), or why it is pending."""
    console.print(f"[bold]ResourceClaims[/bold] ({len(plan.claims)})")
    for c in plan.claims:
        users = ", ".join(f"{u.kind} {u.name}" for u in c.reserved_for) or "nobody"
        if c.status == ClaimStatus.PENDING:
            line = f"{c.namespace}/{c.name} Pending" + (f": {c.message}" if c.message else "")
        else:
            devices = folded_paths(f"{d.driver}/{d.pool}/{d.device}" for d in c.devices) or "no devices"
            where = f" on {c.node}" if c.node else ""
            line = f"{c.namespace}/{c.name} {c.status}{where}: {devices}; reserved for {users}"
        _print(console, line, "  ")


def _owner(p: PodOutcome) -> str | None:
    """What a pending pod's repeats are grouped by: the workload that made it (a Job, Deployment, StatefulSet,
    JobSet, LeaderWorkerSet, ...), else its PodGroup; None for a lone pod."""
    if p.owner is not None:
        return f"{p.owner.kind.lower()} {p.namespace}/{p.owner.name}"
    return f"podgroup {p.pod_group}" if p.pod_group else None


def pending_lines(pods: list[PodOutcome], verbose: bool) -> list[tuple[str, str, str]]:
    """(who, status, message) per line: one per pod with `verbose`, else one per owner, status and message
    (`who` then counts the pods: `job ml/train: 100 pods`). In the order of the first pod of each line."""
    if verbose:
        return [(p.key, p.status, p.message) for p in pods]
    lines: dict[tuple, list[PodOutcome]] = {}
    for p in pods:
        owner = _owner(p)
        key = (owner, p.status, p.message) if owner else (p.key, p.status, p.message)
        lines.setdefault(key, []).append(p)
    out = []
    for (who, status, message), members in lines.items():
        out.append((f"{who}: {len(members)} pods" if len(members) > 1 else members[0].key, status, message))
    return out


def _pending(plan: Plan, console: Console, verbose: bool) -> None:
    pending = [p for p in plan.pods if p.status in UNPLACED]
    if not pending:
        return
    console.print(f"[bold]Pending pods[/bold] ({len(pending)})")
    for who, status, message in pending_lines(pending, verbose):
        _print(console, f"{who} {status}: {message}", "  ")
    held = plan.count(PodStatus.WAITING_FOR_ADMISSION)
    if held and plan.kueue is not None:
        _print(console, f"{held} pod{'s wait' if held != 1 else ' waits'} for Kueue's admission (see Not admitted "
                        "by Kueue).")
    elif held:
        _print(console, f"{held} pod{'s' if held != 1 else ''} wait for Kueue's admission, which the plan does not "
                        "model (its quotas and queues); --assume-admitted plans them as if admitted now.")


def _refused(plan: Plan, console: Console, verbose: bool) -> None:
    refused = [p for p in plan.pods if p.status == PodStatus.REFUSED]
    if not refused:
        return
    console.print(f"[bold]Refused by the API server[/bold] ({len(refused)}): never created, so never scheduled")
    lines: dict[str, list[PodOutcome]] = {}
    for p in refused:  # a controller's pods share one line (their messages differ only in the pod's name)
        lines.setdefault(p.key if verbose else (_owner(p) or p.key), []).append(p)
    for who, members in lines.items():
        count = f": {len(members)} pods" if len(members) > 1 else ""
        _print(console, f"{who}{count}: {members[0].message}", "  ")


def _evicted(plan: Plan, console: Console) -> None:
    evicted = [p for p in plan.pods if p.status == PodStatus.EVICTED and not p.reason.startswith(KUEUE_STOPPED)]
    if not evicted:
        return
    console.print(f"[bold]Evicted[/bold] ({len(evicted)}): deleted after a NoExecute DeviceTaintRule")
    for p in evicted:
        _print(console, f"{p.key} on {p.node}: {p.message}", "  ")


def _kueue(plan: Plan, console: Console) -> None:
    rows = [r.cells() for r in queue_rows(plan.kueue)]
    if rows:
        console.print("[bold]Kueue ClusterQueues[/bold]")
        widths = [max(len(r[i]) for r in (QUEUE_HEADER, *rows)) for i in range(len(QUEUE_HEADER))]
        for i, row in enumerate((QUEUE_HEADER, *rows)):
            line = "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
            console.print(Text(line, style="bold" if i == 0 else ""), no_wrap=True, overflow="ignore", crop=False)
    waiting = waiting_lines(plan.kueue)
    if waiting:
        console.print(f"[bold]Not admitted by Kueue[/bold] ({len(waiting)})")
        for line in waiting:
            _print(console, line, "  ")
    stopped = stopped_lines(plan.pods)
    if stopped:
        console.print(f"[bold]Stopped by Kueue[/bold] ({len(stopped)}): evicted, their Workload preempted or drained")
        for line in stopped:
            _print(console, line, "  ")
    for what in plan.kueue_not_modelled:
        _print(console, f"Kueue: not modelled: {what}.")


def render_text(plan: Plan, console: Console, verbose: bool = False) -> None:
    s = plan.summary()
    refused = (f", {s['evicted']} evicted" if s["evicted"] else "") + (f", {s['refused']} refused" if s["refused"] else "")
    head = (f"Plan for Kubernetes {plan.k8s_version}: {plural(plan.nodes, 'node')}, {plural(s['pods'], 'pod')} — "
            f"{s['bound']} bound, "
            f"{s['alreadyBound']} already bound, {s['pending']} pending, {s['preempted']} preempted{refused}")
    _print(console, head)
    if note := get_release(plan.k8s_version).prerelease_note:
        _print(console, note)
    if plan.pod_groups:
        _group_table(plan, console)
    if plan.composites:
        _print_tree(console, _tree(plan))
    if plan.preemptions:
        _preemptions(plan, console)
    if plan.claims:
        _claims(plan, console)
    if plan.kueue is not None:
        _kueue(plan, console)
    _pending(plan, console, verbose)
    _refused(plan, console, verbose)
    _evicted(plan, console)
    if plan.unplanned:
        console.print(f"[bold]Not planned[/bold] ({len(plan.unplanned)}): no controller model, its pods are not in "
                      "the plan")
        for u in plan.unplanned:
            at = f"{u.where}: " if u.where else ""
            version = f" ({u.api_version})" if u.api_version else ""
            _print(console, f"{at}{u.kind} {u.namespace}/{u.name}{version}", indent="  ")
    stay = sum(len(r.pods) - r.would_fit for r in plan.recreations)
    if plan.complete and stay:
        _print(console, f"Every pod of the input is placed; {plural(stay, 'recreated replacement')} "
                        "of evicted pods would not be (see Preemptions).")
    elif plan.complete:
        console.print("[green]Every pod is placed.[/green]")

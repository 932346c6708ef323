"""The plan as GitHub-flavoured Markdown (`plan -o markdown`, `--report summary.md`) for a workflow's step summary
(`$GITHUB_STEP_SUMMARY`) or a pull-request comment: the verdict and totals, the diff against `--baseline`, the
pending pods grouped with counts and the `wasplan explain` command for each, Kueue's ClusterQueues and the workloads
it does not admit, the preemptions, the ties (a
preemption kube-scheduler draws at random between choices that evict different pods), what is not planned, and the PodGroups table (policy, minCount, placed/total, result, placement, nodes folded into
`gpu-r1-[0-3]` and, past a few, into a `<details>` element).

Renders a PlanView and computes nothing. GitHub accepts at most 1 MiB per step summary
(docs.github.com, "Adding a job summary"), so the document is cut before that: sections come in order of use in
a review (the PodGroups table, largest on a big cluster, last), and a section that no longer fits ends with a
line saying how many of its entries were left out. Text from the inputs is escaped for Markdown and inline HTML,
so a message never turns into markup or breaks a table.
"""

from __future__ import annotations

import re

from wasplan.api.releases import get_release
from wasplan.planview import PlanView
from wasplan.planview.kueue import QUEUE_HEADER, queue_rows, stopped_lines, waiting_lines
from wasplan.plandiff import IMPROVEMENT, NEUTRAL, REGRESSION
from wasplan.plan import GroupPolicy, GroupStatus
from wasplan.report.fit import compress
from wasplan.words import natural_key
from wasplan.report.plandiff import entries

LIMIT = 1024 * 1024  # bytes: GitHub's step-summary limit
_RESERVE = 2048  # bytes kept for the notes saying what was left out
_INLINE_NODES = 6
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_MARK = {GroupStatus.SCHEDULED: "✅", GroupStatus.UNSCHEDULABLE: "❌"}
_DIFF_TITLES = ((REGRESSION, "Worse"), (IMPROVEMENT, "Better"), (NEUTRAL, "Changed"))


def md(text: object) -> str:
    """Plain text as Markdown that shows exactly that text, also inside a table cell."""
    raw = str(text).replace("&", "&amp;").replace("<", "&lt;").replace("\r", " ").replace("\n", " ")
    return _SPECIAL.sub(r"\\\1", raw)


def code(text: str) -> str:
    """An inline code span that holds `text` whatever backticks it contains."""
    run = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Doc:
    """Lines under a byte budget; a section that overflows counts what it left out."""

    def __init__(self, limit: int):
        self.lines: list[str] = []
        self.size = 0
        self.limit = limit - _RESERVE
        self.full = False

    def add(self, line: str) -> bool:
        cost = len(line.encode()) + 1
        if self.full or self.size + cost > self.limit:
            self.full = True
            return False
        self.lines.append(line)
        self.size += cost
        return True

    def items(self, lines: list[str], what: str) -> None:
        for i, line in enumerate(lines):
            if not self.add(line):
                self.note(f"_{len(lines) - i} more {what} left out to stay under GitHub's 1 MiB summary limit; "
                          "the whole plan: `wasplan plan ... -o json` or `-o html`._")
                return

    def section(self, title: str, *lines: str) -> None:
        """A level-3 heading and the lines that open the section (a table's header rows)."""
        for line in ("", f"### {title}", "", *lines):
            self.add(line)

    def note(self, line: str) -> None:
        """Notes bypass the budget (the reserve pays for them)."""
        self.lines += ["", line]

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


def _header(view: PlanView, doc: _Doc) -> None:
    s = view.summary
    verdict = "✅ Fits" if view.plan.complete else "❌ Does not fit"
    doc.add(f"## wasplan plan: {verdict}")
    doc.add("")
    doc.add(f"**Kubernetes {md(view.plan.k8s_version)}** · {view.plan.nodes} nodes · {s['pods']} pods: "
            f"{s['bound']} bound, {s['alreadyBound']} already bound, {s['pending']} pending, "
            f"{s['preempted']} preempted · PodGroups {s['podGroupsScheduled']}/{s['podGroups']} scheduled")
    if note := get_release(view.plan.k8s_version).prerelease_note:
        doc.add("")
        doc.add(f"_{md(note)}_")
    doc.add("")
    doc.add(md(view.verdict))


def _diff(view: PlanView, doc: _Doc) -> None:
    if view.diff is None:
        return
    d = view.diff.summary()
    doc.section(f"Against the baseline: {d['regressions']} worse, {d['improvements']} better, {d['neutral']} changed")
    if not view.diff.changes:
        doc.add("The plan is the same as the baseline's.")
    for effect, title in _DIFF_TITLES:
        changes = view.diff.of(effect)
        if changes:
            doc.add("")
            doc.add(f"**{title}** ({len(changes)})")
            doc.add("")
            doc.items([f"- {md(e)}" for e in entries(changes)], "changes")


def _pending(view: PlanView, doc: _Doc) -> None:
    if not view.pending:
        return
    doc.section(f"Pending ({counted(view.summary['pending'], 'pod')})")
    lines = []
    for p in view.pending:
        head = f"- **{md(p.label)}** {md(p.status)}, {counted(p.pods, 'pod')}"
        block = [head + (f": {md(p.message)}" if p.message else "")]
        block += [f"  - {counted(r.pods, 'pod')} {md(r.status)}: {md(r.message)}" for r in p.reasons]
        block.append(f"  - why: {code(p.explain)}")
        lines.append("\n".join(block))
    doc.items(lines, "pending entries")


def _preemptions(view: PlanView, doc: _Doc) -> None:
    if not view.preemptions:
        return
    doc.section(f"Preemptions ({len(view.preemptions)})", "| preemptor | victim | node | priority | victim's PodGroup |",
                "| --- | --- | --- | ---: | --- |")
    rows = []
    for p in view.preemptions:  # the victims of one node, priority and PodGroup on one row, folded
        same: dict[tuple, list[str]] = {}
        for name, node, prio, group in p.victims:
            same.setdefault((node, prio, group or "-"), []).append(name)
        rows += [f"| {md(p.preemptor)} | {folded(tuple(names), 'pods')} | {md(node)} | {prio} | {md(group)} |"
                 for (node, prio, group), names in sorted(same.items(), key=lambda kv: (natural_key(kv[0][0]),
                                                                                        kv[0][1], kv[0][2]))]
    doc.items(rows, "victims")


def _ties(view: PlanView, doc: _Doc) -> None:
    """Preemptions that are a draw in kube-scheduler: one line per tie, each choice with what it evicts."""
    ties = view.ties
    if not ties:
        return
    doc.section(f"Ties ({len(ties)})", "kube-scheduler draws between these equally scored choices at random; "
                "the plan carries out the one marked as its choice.", "")
    doc.items([f"- {md(t.sentence)}" for t in ties], "ties")


def _kueue(view: PlanView, doc: _Doc) -> None:
    """The ClusterQueues and the workloads Kueue does not admit (planview/kueue.py), when Kueue's admission ran."""
    if view.plan.kueue is None:
        return
    rows = queue_rows(view.plan.kueue)
    doc.section(f"Kueue ClusterQueues ({len({r.cluster_queue for r in rows})})",
                "| " + " | ".join(QUEUE_HEADER) + " |", "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    doc.items(["| " + " | ".join(md(c) for c in r.cells()) + " |" for r in rows], "rows")
    waiting = waiting_lines(view.plan.kueue)
    if waiting:
        doc.section(f"Not admitted by Kueue ({len(waiting)})", "Their pods wait for Kueue's admission.", "")
        doc.items([f"- {md(line)}" for line in waiting], "workloads")
    stopped = stopped_lines(view.plan.pods)
    if stopped:
        doc.section(f"Stopped by Kueue ({len(stopped)})", "Running pods whose Workload Kueue evicts: they leave their "
                    "nodes before the plan's pods are scheduled.", "")
        doc.items([f"- {md(line)}" for line in stopped], "pods")


def _unplanned(view: PlanView, doc: _Doc) -> None:
    if not view.plan.unplanned:
        return
    doc.section(f"Not planned ({len(view.plan.unplanned)})",
                "wasplan has no model of these controllers, so their pods are not in the plan.", "")
    doc.items([f"- {md(u.kind)} {md(u.namespace)}/{md(u.name)} ({md(u.api_version)})" for u in view.plan.unplanned],
              "workloads")


def folded(nodes: tuple[str, ...], what: str = "nodes") -> str:
    """`gpu-r1-[0-3], cpu-1` (nodes, or a node's victims) in natural order; past a few entries folded into
    <details> with the count as its summary."""
    if not nodes:
        return "-"
    parts = [md(name) for name, _ in compress(nodes)]
    if len(parts) <= _INLINE_NODES:
        return ", ".join(parts)
    return f"<details><summary>{len(nodes)} {what}</summary>{', '.join(parts)}</details>"


def _groups(view: PlanView, doc: _Doc) -> None:
    if not view.groups:
        return
    doc.section(f"PodGroups ({len(view.groups)})", "| PodGroup | policy | minCount | placed | result | placement | nodes |",
                "| --- | --- | ---: | ---: | --- | --- | --- |")
    rows = [f"| {md(g.key)} | {md(g.policy)} | {g.min_count if g.policy == GroupPolicy.GANG else '-'} | {g.placed}/{g.total} "
            f"| {_MARK.get(g.status, '⏳')} {md(g.status)} | {md(g.placement or '-')} | {folded(g.nodes)} |"
            for g in view.groups]
    doc.items(rows, "PodGroups")


def render_markdown(view: PlanView, limit: int = LIMIT) -> str:
    doc = _Doc(limit)
    for section in (_header, _diff, _pending, _kueue, _preemptions, _ties, _unplanned, _groups):
        section(view, doc)
    return doc.text()

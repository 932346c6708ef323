"""Renders a PlanDiff: text for a person (worse first, then better, then what only moved, each section grouped
by kind and folded where many pods changed the same way), the `PlanDiff` JSON document (docs/plan-diff.md), and
GitHub workflow commands so a pull request shows what it does to the plan. Renders only."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape

from wasplan.plandiff import IMPROVEMENT, NEUTRAL, REGRESSION, Change, ChangeKind, PlanDiff
from wasplan.report.fit import print_wrapped, summarize, wrap

_TITLES = ((REGRESSION, "Worse", "red"), (IMPROVEMENT, "Better", "green"), (NEUTRAL, "Changed", "yellow"))
_KIND_ORDER = ("PodGroup", "Pod", "Preemption", "ResourceClaim")


def render_diff_json(diff: PlanDiff) -> str:
    return json.dumps(diff.to_dict(), indent=2) + "\n"


# change -> wording of several pods folded into one entry (one pod keeps its own message)
_POD_FOLDS = {ChangeKind.UNPLACED: "lost their node, now {status}", ChangeKind.PLACED: "placed, were not before",
              ChangeKind.ADDED_UNPLACED: "new, {status}", ChangeKind.REMOVED: "no longer in the plan",
              ChangeKind.ADDED: "new, {status}"}


def entries(changes: list[Change], width: int = 10_000) -> list[str]:
    """One entry per change, except pods: pods with the same change and status fold into one entry naming
    them (`4 pods lost their node, now Pending: ml/train-[0-3]`), so a 100-pod Job is one line."""
    out: list[str] = []
    pods: dict[tuple[str, str], list[Change]] = {}
    for c in sorted(changes, key=lambda c: (_KIND_ORDER.index(c.kind), c.key)):
        if c.kind == "Pod" and c.change in _POD_FOLDS:
            status = (c.after or c.before or {}).get("status", "")
            pods.setdefault((c.change, status), []).append(c)
            continue
        out.append(f"{c.kind} {c.key}: {c.message}")
    for (change, status), same in pods.items():
        if len(same) == 1:
            out.append(f"Pod {same[0].key}: {same[0].message}")
        else:
            names = summarize([c.key for c in same], max(width - 40, 20))
            out.append(f"{len(same)} pods {_POD_FOLDS[change].format(status=status)}: {names}")
    return out


def render_diff_text(diff: PlanDiff, console: Console) -> None:
    s = diff.summary()
    versions = (f"Kubernetes {diff.k8s_version}" if diff.k8s_version == diff.baseline_k8s_version
                else f"Kubernetes {diff.baseline_k8s_version} -> {diff.k8s_version}")
    print_wrapped(console, f"[bold]Plan diff[/bold] against the baseline ({versions}): {s['regressions']} worse, "
                           f"{s['improvements']} better, {s['neutral']} changed")
    if not diff.changes:
        console.print("[green]The plan is the same as the baseline's.[/green]")
        return
    width = console.width
    for effect, title, style in _TITLES:
        changes = diff.of(effect)
        if changes:
            console.print(f"[bold {style}]{title}[/bold {style}] ({len(changes)})")
            for entry in entries(changes, width):
                for line in wrap(entry, width, "  ", "      "):
                    console.print(escape(line), no_wrap=True, overflow="ignore", crop=False)


def _escape(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def render_diff_github(diff: PlanDiff, fail_on_regression: bool) -> str:
    """`::error`/`::warning` per regression (error when it fails the job), `::notice` per improvement, and one
    notice counting the neutral changes."""
    level = "error" if fail_on_regression else "warning"
    out = []
    for entry in entries(diff.of(REGRESSION)):
        out.append(f"::{level} title=plan regression::{_escape(entry)}")
    for entry in entries(diff.of(IMPROVEMENT)):
        out.append(f"::notice title=plan improvement::{_escape(entry)}")
    s = diff.summary()
    out.append(f"::notice title=plan diff::{s['regressions']} worse, {s['improvements']} better, "
               f"{s['neutral']} changed")
    return "\n".join(out) + "\n"

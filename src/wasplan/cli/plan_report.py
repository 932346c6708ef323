"""The visual reports of `wasplan plan`: `-o html` / `-o markdown` on stdout, and `--report FILE` (repeatable) to
write them beside whatever `-o` prints, so one run gives JSON for machines and a page for people.

A report's format comes from its file name (`.html`/`.htm`: HTML, `.md`/`.markdown`: Markdown) or from an
explicit prefix (`html:FILE`, `markdown:FILE`, for names without such a suffix, e.g. `$GITHUB_STEP_SUMMARY`);
anything else is a usage error before planning. With `--baseline` both formats include the plan diff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from wasplan.cli.common import OutputFormat, fail, fail_with_diagnostics
from wasplan.plan import Arrival

if TYPE_CHECKING:  # the view and its renderers load only when a report is asked for
    from wasplan.planview import Invocation

VISUAL = (OutputFormat.html, OutputFormat.markdown)
_SUFFIXES = {".html": OutputFormat.html, ".htm": OutputFormat.html, ".md": OutputFormat.markdown,
             ".markdown": OutputFormat.markdown}
_PREFIXES = {"html:": OutputFormat.html, "markdown:": OutputFormat.markdown, "md:": OutputFormat.markdown}


def parse_reports(values: Sequence[str]) -> list[tuple[OutputFormat, str]]:
    """(format, path) per `--report`; exit 2 naming the value when its format cannot be told."""
    out = []
    for value in values:
        prefix = next((p for p in _PREFIXES if value.lower().startswith(p)), None)
        if prefix is not None and value[len(prefix):]:
            out.append((_PREFIXES[prefix], value[len(prefix):]))
            continue
        suffix = "." + value.rsplit(".", 1)[-1].lower() if "." in value else ""
        if suffix not in _SUFFIXES:
            fail(f"--report {value}: name an .html or .md file, or say the format: html:FILE or markdown:FILE")
        out.append((_SUFFIXES[suffix], value))
    return out


def invocation(paths: Sequence[str], clusters: Sequence[str], k8s_version: str | None, *, arrival: Arrival,
               preemption: bool, scheduler_config: str | None, feature_gates: str | None) -> Invocation:
    """The options `wasplan explain` needs to see the same plan."""
    from wasplan.planview import Invocation

    extra: list[str] = []
    if arrival != Arrival.SEQUENTIAL:
        extra += ["--arrival", arrival]
    if not preemption:
        extra.append("--no-preemption")
    if scheduler_config:
        extra += ["--scheduler-config", scheduler_config]
    if feature_gates:
        extra += ["--feature-gates", feature_gates]
    return Invocation(tuple(paths), tuple(clusters), k8s_version, tuple(extra))


class Renderer:
    """Renders each format at most once per run, from one PlanView built on first use; `how` holds
    invocation()'s arguments."""

    def __init__(self, run, diff, paths: Sequence[str], clusters: Sequence[str], k8s_version: str | None, **how):
        self.run, self.diff = run, diff
        self._how = (paths, clusters, k8s_version, how)
        self._view = None
        self._done: dict[OutputFormat, str] = {}

    def __call__(self, fmt: OutputFormat) -> str:
        if fmt not in self._done:
            if self._view is None:
                from wasplan.planview import build_view

                paths, clusters, k8s_version, how = self._how
                self._view = build_view(self.run.plan, self.run.final, self.diff,
                                        invocation(paths, clusters, k8s_version, **how))
            self._done[fmt] = render(fmt, self._view)
        return self._done[fmt]


def render(fmt: OutputFormat, view) -> str:
    if fmt is OutputFormat.html:
        from wasplan.report.plan_html import render_html

        return render_html(view)
    from wasplan.report.plan_markdown import render_markdown

    return render_markdown(view)


def write_reports(reports: list[tuple[OutputFormat, str]], renderer: Renderer) -> None:
    from wasplan.documents.atomic import write_output_file

    for fmt, path in reports:
        problem = write_output_file(path, renderer(fmt))
        if problem is not None:
            fail_with_diagnostics([problem], renderer.run.sources, message=f"cannot write the report {path}")

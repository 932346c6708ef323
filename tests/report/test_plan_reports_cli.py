"""`wasplan plan -o html|markdown` and `--report FILE`: the formats on stdout, reports written beside another
`-o` in the same run, the format from the name or a prefix, the exit codes (also with `--baseline`), and
byte-identical output for the same inputs."""

from __future__ import annotations

import shlex
import shutil

from cli.helpers import run

from tests.report.planviews import COMPETING, DIFF_BASE, DIFF_HEAD, EXAMPLE, parse_html, tiles
from tests.report.test_plan_markdown import codes


def _plan(*args: str):
    return run("plan", str(EXAMPLE[0]), "--cluster", str(EXAMPLE[1]), *args)


def test_html_on_stdout_is_one_self_contained_page():
    result = _plan("-o", "html")
    assert result.exit_code == 0
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>\n") and page.rstrip().endswith("</html>")
    dom = parse_html(page)
    assert not dom.find_all("link") and not [e for e in dom.iter() if "src" in e.attrs]  # nothing to fetch
    assert "http://" not in page and "https://" not in page
    assert len(tiles(dom)) == 19
    assert _plan("-o", "html").stdout == page  # same inputs, same bytes


def test_reports_beside_json_in_one_run(tmp_path):
    html, summary, other = tmp_path / "plan.html", tmp_path / "summary.md", tmp_path / "step_summary"
    result = _plan("-o", "json", "--report", str(html), "--report", str(summary), "--report", f"markdown:{other}")
    assert result.exit_code == 0
    assert result.stdout == _plan("-o", "json").stdout
    assert html.read_text() == _plan("-o", "html").stdout
    assert summary.read_text() == other.read_text() == _plan("-o", "markdown").stdout
    assert summary.read_text().startswith("## wasplan plan: ✅ Fits\n")


def test_html_prefix_and_htm_suffix(tmp_path):
    a, b = tmp_path / "report", tmp_path / "plan.htm"
    assert _plan("--report", f"html:{a}", "--report", str(b)).exit_code == 0
    assert a.read_text() == b.read_text() == _plan("-o", "html").stdout


def test_a_report_name_without_a_format_is_a_usage_error(tmp_path):
    result = _plan("--report", str(tmp_path / "plan.txt"))
    assert result.exit_code == 2
    assert result.stderr == (f"wasplan: error: --report {tmp_path / 'plan.txt'}: name an .html or .md file, or say "
                             "the format: html:FILE or markdown:FILE\n")
    assert not (tmp_path / "plan.txt").exists()


def test_an_unwritable_report_exits_2_naming_it(tmp_path):
    target = tmp_path / "missing" / "plan.html"
    result = _plan("--report", str(target))
    assert result.exit_code == 2
    assert f"error WAS011 cannot write {target}: No such file or directory" in result.stderr


def test_pending_plans_exit_1_in_both_formats():
    args = [str(COMPETING[0]), "--cluster", str(COMPETING[1])]
    for fmt in ("html", "markdown"):
        result = run("plan", *args, "-o", fmt)
        assert result.exit_code == 1
        assert run("plan", *args, "-o", fmt, "--fail-on", "never").exit_code == 0
    assert "## wasplan plan: ❌ Does not fit\n" in run("plan", *args, "-o", "markdown").stdout


def test_with_a_baseline_the_reports_carry_the_diff_and_the_exit_code_follows_regression(tmp_path):
    base = tmp_path / "base.json"
    base.write_text(run("plan", str(DIFF_BASE[0]), "--cluster", str(DIFF_BASE[1]), "-o", "json",
                        "--fail-on", "never").stdout)
    head = [str(DIFF_HEAD[0]), "--cluster", str(DIFF_HEAD[1]), "--baseline", str(base)]
    result = run("plan", *head, "-o", "markdown", "--fail-on", "regression", "--report", str(tmp_path / "p.html"))
    assert result.exit_code == 1
    assert "### Against the baseline: 6 worse, 0 better, 0 changed\n" in result.stdout
    assert "Against the baseline</h2>" in (tmp_path / "p.html").read_text()
    same = run("plan", *head, "-o", "json", "--fail-on", "regression", "--report", str(tmp_path / "s.md"))
    assert same.stdout.startswith('{\n  "apiVersion": "wasplan.io/v1alpha1",\n  "kind": "PlanDiff"')
    assert (tmp_path / "s.md").read_text() == result.stdout
    unchanged = tmp_path / "head.json"
    unchanged.write_text(run("plan", *head[:3], "-o", "json", "--fail-on", "never").stdout)
    again = run("plan", *head[:3], "--baseline", str(unchanged), "-o", "markdown", "--fail-on", "regression")
    assert again.exit_code == 0
    assert "The plan is the same as the baseline's.\n" in again.stdout


def test_junit_with_a_baseline_names_the_formats_it_takes():
    result = _plan("--baseline", "x.json", "-o", "junit")
    assert result.exit_code == 2
    assert "text, json, yaml, github, html or markdown, not junit" in result.stderr


def test_text_from_the_inputs_stays_text_in_both_formats(tmp_path):
    """A manifest path with markup in it reaches the explain command: escaped in the page, a code span in
    Markdown; nothing of it becomes an element."""
    odd = tmp_path / "<b>&\"x'" / "<" / "script>"
    shutil.copytree(COMPETING[0], odd)
    args = ["plan", str(odd), "--cluster", str(COMPETING[1]), "--fail-on", "never"]
    expected = shlex.join(["wasplan", "explain", "podgroup/b", "-n", "default", str(odd), "--cluster", str(COMPETING[1])])
    page = run(*args, "-o", "html").stdout
    dom = parse_html(page)
    assert [c.text for c in dom.by_id("pending").find_all("code")] == [expected]
    assert all("t" in b.parent.classes for b in dom.find_all("b"))  # only the tiles' marks
    assert page.count("</script>") == 2  # the data block's and the script's own
    text = run(*args, "-o", "markdown").stdout
    assert [c for c in codes(text) if c.startswith("wasplan explain")] == [expected]

"""JUnit XML, the test-report format GitLab (`artifacts:reports:junit`), Jenkins (junit step) and GitHub test
reporters read: `<testsuites>` of `<testsuite>`s of `<testcase classname name file time>`, a failing case
carrying `<failure message type>` with the findings as text, a skipped one `<skipped message>`.

The attribute set follows the Jenkins JUnit plugin's schema (junit-10.xsd: testsuite tests/failures/errors/
skipped/time, testcase classname/name/time) and GitLab's parser (lib/gitlab/ci/parsers/test/junit.rb: a case
is keyed by classname + name, `file` links the repository file, the text of `<failure>`/`<skipped>` is what the
merge request shows, so every finding's `path:line:col` header goes there). `time` is always "0" so output stays
byte-identical across runs. Validate and lint report one case per document; plan one per PodGroup and one per
pod outside a group, so "tests" in the CI UI are the objects the user wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping
from xml.etree import ElementTree as ET

from wasplan.diagnostics import Diagnostic, Severity
from wasplan.report.diagnostics_text import header


@dataclass
class Case:
    classname: str
    name: str
    file: str | None = None
    failure: tuple[str, str, str] | None = None  # (message, type, text)
    skipped: str | None = None
    out: list[str] = field(default_factory=list)


def _element(case: Case) -> ET.Element:
    attrs = {"classname": case.classname, "name": case.name}
    if case.file:
        attrs["file"] = case.file
    attrs["time"] = "0"
    el = ET.Element("testcase", attrs)
    if case.failure is not None:
        message, kind, text = case.failure
        ET.SubElement(el, "failure", {"message": message, "type": kind}).text = text
    elif case.skipped is not None:
        ET.SubElement(el, "skipped", {"message": case.skipped})
    if case.out:
        ET.SubElement(el, "system-out").text = "\n".join(case.out) + "\n"
    return el


def render_suites(title: str, suites: Mapping[str, list[Case]]) -> str:
    """`suites` maps a suite name (a file, or the command) to its cases, in the order given."""
    root = ET.Element("testsuites", {"name": title})
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for name, cases in suites.items():
        counts = {"tests": len(cases), "failures": sum(c.failure is not None for c in cases), "errors": 0,
                  "skipped": sum(c.skipped is not None and c.failure is None for c in cases)}
        suite = ET.SubElement(root, "testsuite", {"name": name, **{k: str(v) for k, v in counts.items()}, "time": "0"})
        suite.extend(_element(c) for c in cases)
        for key in totals:
            totals[key] += counts[key]
    root.attrib.update({k: str(v) for k, v in totals.items()})
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def findings_case(case: Case, diags: Iterable[Diagnostic], threshold: Severity) -> Case:
    """Failing findings become the failure (first one's message as the summary), the rest go to system-out."""
    diags = list(diags)
    failing = [d for d in diags if d.severity >= threshold]
    if failing:
        text = "\n".join(header(d) + (f"\n    hint: {d.hint}" if d.hint else "") for d in failing)
        case.failure = (f"{failing[0].code} {failing[0].message}", failing[0].code, text + "\n")
    case.out.extend(header(d) for d in diags if d.severity < threshold)
    return case


"""Statuses, verdicts and modes are enums, used by name: no module compares a status, verdict, policy or mode
with a string literal that one of those enums holds (`outcome.status == "WaitingForPods"` instead of
`GroupStatus.WAITING_FOR_PODS`), keys a table by one (`{"Failed": "red"}`), or lists one among the choices it
tests against, so a renamed value cannot leave a comparison silently false. The rule is read from the source
with `ast`.

The enums are every StrEnum of the plan model (`wasplan.plan`), explain's verdicts, validate's document
verdicts, the engine's pod statuses, the exact check's statuses and the plan diff's changes and effects. Their
CamelCase values (`Pending`, `DoesNotFit`, `AlreadyScheduled`) are wasplan's own words: refused as a literal in
any comparison, table key or tuple of choices. Their lowercase values (`batch`, `pending`, `gang`) are also
ordinary words (an API group, a JSON key): refused only against a name that holds such a value (`HOLDERS`).
Where a CamelCase value is a Kubernetes API word instead (a pod phase, a condition status), `API_WORDS` names
the place.
"""

from __future__ import annotations

import ast
import inspect
from enum import Enum, StrEnum
from pathlib import Path

from tests.conftest import ROOT
from wasplan import plan as plan_model
from wasplan import plandiff
from wasplan.engine.cache.world import SimStatus
from wasplan.explain.exact.result import Status
from wasplan.explain.verdicts import Verdict
from wasplan.plan import Arrival, FailOn
from wasplan.validate.checker import DocumentVerdict

SRC = ROOT / "src" / "wasplan"
PLAN_MODEL = tuple(e for _, e in inspect.getmembers(plan_model, inspect.isclass)
                   if issubclass(e, StrEnum) and e.__module__ == plan_model.__name__)
ENUMS: tuple[type[Enum], ...] = (*PLAN_MODEL, Verdict, DocumentVerdict, SimStatus, Status, plandiff.Effect,
                                 plandiff.ChangeKind)
VALUES = {member.value for enum in ENUMS for member in enum}
OWN_WORDS = {v for v in VALUES if v[:1].isupper()}  # CamelCase: wasplan's vocabulary wherever it stands
# attribute or variable names that hold one of the values
HOLDERS = {"status", "verdict", "arrival", "fail_on", "policy", "cluster_check", "change", "effect", "result"}
# (file, literal): a Kubernetes API word that happens to spell a value of an enum above
API_WORDS = {("cluster/snapshot.py", "Failed"),  # a pod's status.phase (Succeeded, Failed)
             ("kueue/cycle.py", "Failed"),  # a pod's status.phase, for the usage of pods outside Kueue (TAS)
             ("kueue/cycle.py", "Preempted"),  # Kueue's eviction reason (WorkloadEvictedByPreemption)
             ("validate/rules/status.py", "Unknown")}  # a condition's status (True, False, Unknown)


def _holder(node: ast.AST) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return name in HOLDERS


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _literals(e)]
    return []


def _comparisons(node: ast.Compare) -> list[str]:
    sides = [node.left, *node.comparators]
    words = VALUES if any(_holder(s) for s in sides) else OWN_WORDS
    return [lit for s in sides for lit in _literals(s) if lit in words]


def _choices(node: ast.AST) -> list[str]:
    """A collection of literals given a name or made a set: the choices some later test is made against."""
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else \
        node.args[0] if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id in ("frozenset", "set", "tuple") and node.args else None
    if not isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return []
    return [lit for lit in _literals(value) if lit in OWN_WORDS]


def offending(source: str) -> list[tuple[int, str]]:
    """(line, literal) for each literal an enum holds that stands in a comparison, a table key or a tuple of
    choices where the member should."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in ("StrEnum", "Enum")
                                                  for b in node.bases):
            continue  # an enum's own definition; its body is not walked for comparisons either
        if isinstance(node, ast.Compare):
            found += [(node.lineno, lit) for lit in _comparisons(node)]
        elif isinstance(node, ast.Dict):
            found += [(node.lineno, k.value) for k in node.keys
                      if isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value in OWN_WORDS]
        else:
            found += [(node.lineno, lit) for lit in _choices(node)]
    return sorted(set(found))


def offences(files: list[tuple[Path, str]]) -> list[str]:
    out = []
    for path, text in files:
        where = path.relative_to(SRC).as_posix()
        out += [f"src/wasplan/{where}:{line}: {lit!r}" for line, lit in offending(text)
                if (where, lit) not in API_WORDS]
    return out


def test_no_status_verdict_policy_or_mode_is_written_as_a_string_literal():
    found = offences([(p, p.read_text(encoding="utf-8")) for p in sorted(SRC.rglob("*.py"))])
    assert not found, found


def test_the_check_finds_a_literal_comparison_and_passes_the_enum():
    assert offending('if outcome.status == "WaitingForPods":\n    pass\n') == [(1, "WaitingForPods")]
    assert offending('ok = fail_on in ("pending", "preemption")\n') == [(1, "pending"), (1, "preemption")]
    assert offending("if outcome.status == GroupStatus.WAITING_FOR_PODS:\n    pass\n") == []
    assert offending('if doc.group == "batch":\n    pass\n') == []  # an API group, not an arrival mode
    assert offending('if subj.policy == "gang":\n    pass\n') == [(1, "gang")]


def test_the_check_finds_wasplans_own_words_whatever_holds_them():
    assert offending('if c.change in ("Added", "Removed"):\n    pass\n') == [(1, "Added"), (1, "Removed")]
    assert offending('if x[0] == "DoesNotFit":\n    pass\n') == [(1, "DoesNotFit")]
    assert offending('STYLE = {"Scheduled": "green", "other": "red"}\n') == [(1, "Scheduled")]
    assert offending('DONE = ("Bound", "AlreadyBound")\n') == [(1, "AlreadyBound"), (1, "Bound")]
    assert offending('done = frozenset(["Preempted"])\n') == [(1, "Preempted")]
    assert offending('STYLE = {TreeResult.SCHEDULED: "green"}\nDONE = (PodStatus.BOUND,)\n') == []
    assert offending('counts = {"pending": 1}\nlabel = "Pending"\n') == []  # a JSON key; a plain value


def test_the_probe_a_real_module_with_a_member_written_back_as_its_literal_fails():
    """The probe: explain_text.py and plandiff.py with one member each spelled as its value again."""
    probes = [(SRC / "report" / "explain_text.py", "Verdict.DOES_NOT_FIT", '"DoesNotFit"', "DoesNotFit"),
              (SRC / "plandiff.py", "c.change == ChangeKind.ADDED", 'c.change == "Added"', "Added"),
              (SRC / "explain" / "evidence.py", "subj.policy == GroupPolicy.GANG", 'subj.policy == "gang"', "gang")]
    for path, member, literal, word in probes:
        text = path.read_text(encoding="utf-8")
        assert member in text, (path, member)
        assert offences([(path, text)]) == []
        found = offences([(path, text.replace(member, literal, 1))])
        assert len(found) == 1 and found[0].endswith(f": {word!r}"), found


def test_api_words_are_still_where_they_are_said_to_be():
    for where, literal in API_WORDS:
        assert f'"{literal}"' in (SRC / where).read_text(encoding="utf-8"), where


def test_the_modes_serialise_as_their_plain_values():
    import json

    import yaml

    record = {"arrival": str(Arrival.BATCH), "failOn": str(FailOn.PREEMPTION)}
    assert json.dumps(record) == '{"arrival": "batch", "failOn": "preemption"}'
    assert yaml.safe_load(yaml.safe_dump(record)) == {"arrival": "batch", "failOn": "preemption"}

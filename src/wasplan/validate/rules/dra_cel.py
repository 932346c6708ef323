"""CEL device selectors checked where they are written: WAS230-WAS235 at the line and column inside the YAML.

kube-apiserver compiles every selector of a DeviceClass, ResourceClaim and ResourceClaimTemplate on create
(k/k `pkg/apis/resource/validation/validation.go` `validateSelector` / `validateCELExpression`); the static
analysis is `wasplan.cel.checker`. A finding's offset inside the expression is mapped to the document: a plain
or quoted scalar on one line adds it to the scalar's column, a literal block scalar (`|`) maps expression line
N to the N-th line of the block and its column past the block's indentation. Elsewhere (folded `>`, quoted
scalars with escapes or line breaks) the finding points at the scalar and names the column in the message.
"""

from __future__ import annotations

from typing import Any

from wasplan.api import dra_rules
from wasplan.api.releases import GateSet
from wasplan.cel.info import MAX_LENGTH as CEL_MAX_LENGTH, CelFinding, line_column
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, FieldPath, Location
from wasplan.documents import Document
from wasplan.validate.walk import items

CODES = {"syntax": "WAS230", "undeclared": "WAS231", "field": "WAS231", "function": "WAS232", "type": "WAS233",
         "result": "WAS233", "cost": "WAS234"}


def check_selectors(doc: Document, raw: Any, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for i, selector in enumerate(items(raw)):
        problem = dra_rules.selector_cel(selector)
        if problem is None:
            expression = selector["cel"]["expression"]
            out.extend(check_expression(doc, expression, base + (i, "cel", "expression"), gates))
        elif isinstance(selector, dict) and not isinstance(selector.get("cel"), dict):  # else the schema's finding
            out.append(Diagnostic("WAS227", lookup("WAS227").severity, problem.message,
                                  doc.location(base + (i,) + problem.path), problem.hint))
    return out


def check_expression(doc: Document, expression: str, path: FieldPath, gates: GateSet) -> list[Diagnostic]:
    size = len(expression.encode())
    if size > CEL_MAX_LENGTH:
        return [Diagnostic("WAS235", lookup("WAS235").severity, f"CEL expression is {size:,} bytes long, more "
                           f"than the limit of {CEL_MAX_LENGTH:,}", doc.location(path),
                           "split the condition into several selectors (all must match)")]
    from wasplan.cel.checker import analyse  # loaded with the first expression, not by every validate

    findings, _ = analyse(expression, gates.on.dra_consumable_capacity, gates.on.dra_list_type_attributes)
    return [_diagnostic(doc, expression, path, f) for f in findings]


def _diagnostic(doc: Document, expression: str, path: FieldPath, finding: CelFinding) -> Diagnostic:
    line_in, col_in = line_column(expression, finding.offset)
    multi_line = "\n" in expression.rstrip("\n")
    where = f" (expression line {line_in}, column {col_in})" if multi_line else f" (column {col_in})"
    position = _position(doc, path, expression, finding.offset)
    location = doc.location(path)
    if position is not None:
        location = Location(location.file, location.doc, location.path, *position)
    else:
        location = _at_value(doc, path, location)
    code = CODES[finding.kind]
    message = f"CEL {finding.message}" + ("" if finding.kind in ("cost", "result") else where)
    return Diagnostic(code, lookup(code).severity, message, location, finding.hint)


def _at_value(doc: Document, path: FieldPath, location: Location) -> Location:
    node = doc.value_node(path)
    if node is None:
        return location
    return Location(location.file, location.doc, location.path, node.start_mark.line + 1,
                    node.start_mark.column + 1)


def _position(doc: Document, path: FieldPath, expression: str, offset: int) -> tuple[int, int] | None:
    """1-based (line, column) in the file of character `offset` of the expression, or None if not mappable."""
    node = doc.value_node(path)
    if node is None or getattr(node, "id", "") != "scalar":
        return None
    line, col = node.start_mark.line, node.start_mark.column
    style = node.style
    if style == "|":
        return _in_block(doc, line, expression, offset)
    if style == ">":
        return _in_folded(doc, line, expression, offset)
    if "\n" in expression or node.end_mark.line != line:
        return None
    if not style:  # plain ('' from libyaml, None from the pure-Python loader)
        return line + 1, col + 1 + offset
    source = _line(doc, line)
    if source is not None and source[col + 1:col + 1 + len(expression)] == expression:
        return line + 1, col + 2 + offset  # quoted without escapes: one column for the opening quote
    return None


def _in_block(doc: Document, line: int, expression: str, offset: int) -> tuple[int, int] | None:
    """A literal block: content starts on the line after the `|` header, indented like its first non-blank line."""
    lines = (_line(doc, line + 1 + k) for k in range(expression.count("\n") + 1))
    first = next((text for text in lines if text is None or text.strip()), None)
    if first is None:
        return None
    indent = len(first) - len(first.lstrip(" "))
    line_in = expression.count("\n", 0, offset)
    col_in = offset - (expression.rfind("\n", 0, offset) + 1)
    return line + 2 + line_in, indent + 1 + col_in


def _in_folded(doc: Document, line: int, expression: str, offset: int) -> tuple[int, int] | None:
    """A folded block whose lines share one indentation reads as its lines joined by single spaces; map the offset
    to the line holding it. Any other shape (more-indented lines, blank lines) points at the first line."""
    lines: list[str] = []
    while len(" ".join(lines)) < len(expression.rstrip("\n")):
        text = _line(doc, line + 1 + len(lines))
        if text is None or not text.strip():
            break
        lines.append(text.strip())
    first = _line(doc, line + 1)
    if first is None or not lines:
        return None
    indent = len(first) - len(first.lstrip(" "))
    if " ".join(lines) != expression.rstrip("\n"):
        return line + 2, indent + 1
    start = 0
    for i, text in enumerate(lines):
        if offset <= start + len(text) or i == len(lines) - 1:
            return line + 2 + i, indent + 1 + offset - start
        start += len(text) + 1
    return None


def _line(doc: Document, index: int) -> str | None:
    """Line `index` (0-based) of the document's file, when its text is known."""
    if doc.text is None:
        return None
    lines = doc.text.split("\n", index + 1)
    return lines[index] if index < len(lines) else None

"""What the static CEL checker (`wasplan.cel.checker`) computes per node and reports per expression.

`Info` is a node's type, worst-case cost and maximum size (elements of a list or map, characters of a string;
None when unknown, which cel-go's estimator treats as unbounded). `CelFinding` is one problem with its offset
inside the expression. Cost arithmetic saturates at `UNBOUNDED` like cel-go's uint64 estimates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wasplan.cel import types as t

UNBOUNDED = 2**64 - 1
MAX_LENGTH = 10 * 1024  # CELSelectorExpressionMaxLength, bytes


@dataclass(frozen=True, slots=True)
class CelFinding:
    kind: str  # syntax | undeclared | function | field | type | result | cost
    message: str
    offset: int
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Info:
    type: t.Type
    cost: int
    size: int | None = None
    attribute: bool = False  # an attribute value typed `any` (DRAListTypeAttributes off): dyn for calls, but a
    #                          type of its own in list literals and `format` (compile.go declares AnyType)


class Failed(Exception):
    """Raised at the first type error: after it, the types of the enclosing nodes are unknown."""

    def __init__(self, finding: CelFinding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def add(*costs: int) -> int:
    return min(sum(costs), UNBOUNDED)


def times(n: int | None, cost: int) -> int:
    return UNBOUNDED if n is None else min(n * cost, UNBOUNDED)


def tenth(size: int | None) -> int:
    """cel-go's 0.1 cost per character of a string scan."""
    return UNBOUNDED if size is None else math.ceil(size * 0.1)


def line_column(expression: str, offset: int) -> tuple[int, int]:
    """1-based line and column inside the expression of character `offset`."""
    return expression.count("\n", 0, offset) + 1, offset - (expression.rfind("\n", 0, offset) + 1) + 1

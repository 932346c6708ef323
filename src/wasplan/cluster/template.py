"""The tiny template language of the `Cluster` kind: `gpu-{pool}-{index:02}`, `rack-{index // 4}`.

Synthetic clusters repeat one node shape many times with names and labels that follow the node's position
(rack = index // 4, zone = index % 2). A general expression evaluator (`eval`, Jinja) would be both unsafe and
more than anyone needs, so this is a closed grammar, parsed once per template and evaluated per index:

    template    := (text | "{{" | "}}" | "{" placeholder "}")*
    placeholder := expr [":" digits]          digits = minimum width; a leading 0 pads with zeros
    expr        := term (("+" | "-") term)*
    term        := atom (("*" | "//" | "%") atom)*
    atom        := integer | name | "(" expr ")"

Names are integers (`index` 0-based, `index1` 1-based, `count`) or strings (`pool`, `node` for pods); a string
name must stand alone in its placeholder. Integer division and modulo follow Python (floor) semantics; dividing
by zero is an error reported with the offending template.

Limits keep every template cheap and the evaluation non-recursive in depth: at most 200 tokens per
placeholder, parentheses at most 32 deep, integer literals of at most 18 digits, every value within int64, and a
width of at most 253 (the longest name Kubernetes accepts, a DNS subdomain), so `{index:99999999999999999999}`
is a finding instead of a string wider than memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

Env = Mapping[str, int | str]
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(//|[-+*%()]))")
MAX_TOKENS, MAX_PARENS, MAX_DIGITS, MAX_WIDTH = 200, 32, 18, 253
INT64_MAX = 2**63 - 1


class TemplateError(ValueError):
    """A template that does not parse or cannot be evaluated; the message names the template."""


@dataclass(frozen=True, slots=True)
class _Placeholder:
    evaluate: Callable[[Env], int | str]
    width: int
    zero_pad: bool


def _tokens(expr: str, template: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    expr = expr.rstrip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise TemplateError(f"unexpected {expr[pos:].strip()[:1]!r} in {{{expr}}} of template {template!r}")
        kind = "int" if m.group(1) else "name" if m.group(2) else "op"
        out.append((kind, m.group(m.lastindex)))
        pos = m.end()
        if len(out) > MAX_TOKENS:
            raise TemplateError(f"expression longer than {MAX_TOKENS} tokens in template {template[:80]!r}")
    return out


class _Parser:
    """Recursive descent over the token list, producing a closure per node."""

    def __init__(self, tokens: list[tuple[str, str]], template: str, names: frozenset[str]):
        self.tokens, self.pos, self.template, self.names = tokens, 0, template, names
        self.depth = 0  # open parentheses

    def fail(self, what: str) -> TemplateError:
        return TemplateError(f"{what} in template {self.template[:80]!r}")

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise self.fail("expression ends too early")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expr(self) -> Callable[[Env], int]:
        left = self.term()
        while self.peek() in ("+", "-"):
            op, right = self.take()[1], self.term()
            left = (lambda a, b: lambda env: a(env) + b(env))(left, right) if op == "+" else \
                (lambda a, b: lambda env: a(env) - b(env))(left, right)
        return left

    def term(self) -> Callable[[Env], int]:
        left = self.atom()
        while self.peek() in ("*", "//", "%"):
            op, right = self.take()[1], self.atom()
            left = _binary(op, left, right, self.template)
        return left

    def atom(self) -> Callable[[Env], int]:
        kind, text = self.take()
        if kind == "int":
            if len(text) > MAX_DIGITS:
                raise self.fail(f"number {text[:20]}... longer than {MAX_DIGITS} digits")
            value = int(text)
            return lambda env: value
        if kind == "name":
            if text not in self.names:
                raise self.fail(f"unknown name {text!r} (known: {', '.join(sorted(self.names))})")
            return lambda env: _integer(env, text, self.template)
        if text == "(":
            self.depth += 1
            if self.depth > MAX_PARENS:
                raise self.fail(f"parentheses nested deeper than {MAX_PARENS}")
            inner = self.expr()
            self.depth -= 1
            if self.take()[1] != ")":
                raise self.fail("missing ')'")
            return inner
        raise self.fail(f"unexpected {text!r}")


def _integer(env: Env, name: str, template: str) -> int:
    value = env[name]
    if not isinstance(value, int):
        raise TemplateError(f"{name!r} is text and cannot take part in arithmetic in template {template!r}")
    return value


def _binary(op: str, a: Callable[[Env], int], b: Callable[[Env], int], template: str) -> Callable[[Env], int]:
    if op == "*":
        return lambda env: a(env) * b(env)

    def divide(env: Env) -> int:
        divisor = b(env)
        if divisor == 0:
            raise TemplateError(f"division by zero in template {template!r}")
        return a(env) // divisor if op == "//" else a(env) % divisor

    return divide


def _placeholder(body: str, template: str, names: frozenset[str]) -> _Placeholder:
    expr, _, spec = body.partition(":")
    if spec and not (spec.isascii() and spec.isdigit()):
        raise TemplateError(f"format {spec!r} in template {template[:80]!r} must be digits, e.g. {{index:03}}")
    if spec and (len(spec.lstrip("0")) > 3 or int(spec) > MAX_WIDTH):
        raise TemplateError(f"width {spec[:24]} in template {template[:80]!r} is wider than {MAX_WIDTH}, the longest "
                            "name Kubernetes accepts")
    tokens = _tokens(expr, template)
    if not tokens:
        raise TemplateError(f"empty placeholder {{}} in template {template!r}")
    if len(tokens) == 1 and tokens[0][0] == "name" and tokens[0][1] in names:
        name = tokens[0][1]
        evaluate: Callable[[Env], int | str] = lambda env: env[name]
    else:
        parser = _Parser(tokens, template, names)
        evaluate = parser.expr()
        if parser.pos != len(tokens):
            raise TemplateError(f"unexpected {tokens[parser.pos][1]!r} in template {template!r}")
    return _Placeholder(evaluate, int(spec) if spec else 0, spec.startswith("0"))


@dataclass(frozen=True, slots=True)
class Template:
    """A compiled template; `render(env)` fills it for one index."""

    text: str
    parts: tuple[str | _Placeholder, ...]

    @property
    def constant(self) -> bool:
        return all(isinstance(p, str) for p in self.parts)

    def render(self, env: Env) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value = part.evaluate(env)
            if isinstance(value, int) and abs(value) > INT64_MAX:
                raise TemplateError(f"value beyond int64 in template {self.text[:80]!r}")
            text = str(value)
            if part.width:
                text = text.rjust(part.width, "0" if part.zero_pad and isinstance(value, int) else " ")
            out.append(text)
        return "".join(out)


def compile_template(text: str, names: frozenset[str] | set[str]) -> Template:
    """Parse `text` once; raises TemplateError for unbalanced braces, unknown names or bad expressions."""
    names = frozenset(names)
    parts: list[str | _Placeholder] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "{}" and text[i:i + 2] in ("{{", "}}"):
            literal.append(ch)
            i += 2
            continue
        if ch == "}":
            raise TemplateError(f"unmatched '}}' in template {text!r} (write '}}}}' for a literal brace)")
        if ch == "{":
            end = text.find("}", i)
            if end < 0:
                raise TemplateError(f"unclosed '{{' in template {text!r}")
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_placeholder(text[i + 1:end], text, names))
            i = end + 1
            continue
        literal.append(ch)
        i += 1
    if literal:
        parts.append("".join(literal))
    return Template(text, tuple(parts))


def compile_reported(text: str, names: frozenset[str], ctx, path: tuple) -> Template | None:
    """`compile_template`, or None after a WAS605 finding at `path` (ctx: `wasplan.cluster.issues.Ctx`)."""
    try:
        return compile_template(text, names)
    except TemplateError as exc:
        ctx.report("WAS605", str(exc), path)
        return None


def render_reported(template: Template, env: Env, ctx, path: tuple) -> str | None:
    """`template.render(env)`, or None after a WAS605 finding naming the index."""
    try:
        return template.render(env)
    except TemplateError as exc:
        ctx.report("WAS605", f"{exc} (index {env.get('index')})", path)
        return None

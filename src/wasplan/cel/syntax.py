"""A CEL parser for static checks: expression text to a small AST whose every node knows its offset.

Why our own: the checker and the evaluator (`wasplan.cel`) share one AST, and no CEL package for Python exposes
one with the checks the API server makes. Measured
here (CPU, 2 shared cores): `cel-python` 0.5's lark parser costs 61 ms to import and 202 us per selector and has no
type checker or cost estimator; `cel-expr-python` 0.1.3 (cel-cpp, a 14 MB native module needing a protobuf
descriptor pool) type-checks but exposes neither the AST nor a cost estimate. This parser plus `checker` cost about
3 ms to import and 64 us per distinct selector (parse, types and cost; `benchmarks/dra_validate.py`), and the
grammar is small (cel-spec `doc/langdef.md`, "Syntax"). It covers
the whole grammar a selector can use: literals (ints, uints, doubles, strings with quotes, triple quotes, raw
and byte prefixes), `? :`, `|| && == != < <= > >= in + - * / % ! -`, member selection, indexing, calls, list
and map literals, optional selection `.?x` / `[?k]`, and the macros (`has`, `all`, `exists`, `exists_one`,
`map`, `filter`, two-variable forms, `cel.bind`) as calls that the checker treats specially.

Errors are `CelSyntaxError(message, offset)`; the offset counts characters from the start of the expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class CelSyntaxError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(slots=True)
class Node:
    """kind: lit | ident | select | index | call | list | map | struct. `name` holds the identifier, field or
    function name (operators are `_==_`, `!_`, `-_`, `_?_:_`, ...); `value` a literal's value; `type` its type."""

    kind: str
    offset: int
    name: str = ""
    args: list["Node"] = field(default_factory=list)
    target: "Node | None" = None
    value: object = None
    type: str = ""
    optional: bool = False


_TOKEN = re.compile(r"""
    (?P<space>\s+|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[uU]?)
  | (?P<str>[rR]?[bB]?[rR]?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'))
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\|\||&&|==|!=|<=|>=|\.\?|\[\?|[-+*/%!<>?:.,\[\](){}])
""", re.X)
_RESERVED = frozenset({"as", "break", "const", "continue", "else", "for", "function", "if", "import", "let",
                       "loop", "package", "namespace", "return", "var", "void", "while"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?", "a": "\a",
            "b": "\b", "f": "\f", "v": "\v"}
_BINARY = [("||",), ("&&",), ("==", "!=", "<", "<=", ">", ">=", "in"), ("+", "-"), ("*", "/", "%")]


@dataclass(slots=True)
class Token:
    kind: str  # num | str | ident | op | end
    text: str
    offset: int


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            quote = text[pos] in "\"'"
            raise CelSyntaxError("unterminated string literal" if quote else f"unexpected character {text[pos]!r}", pos)
        if m.lastgroup != "space":
            out.append(Token(m.lastgroup or "op", m.group(), pos))
        pos = m.end()
    out.append(Token("end", "", len(text)))
    return out


def _string_value(token: Token) -> tuple[str, object]:
    text = token.text
    prefix = ""
    while text[0] in "rRbB":
        prefix += text[0].lower()
        text = text[1:]
    quote = 3 if text[:3] in ('"""', "'''") else 1
    body = text[quote:-quote]
    if "r" not in prefix:
        body = re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)", _unescape(token), body)
    return ("bytes", body.encode("utf-8", "surrogatepass")) if "b" in prefix else ("string", body)


def _unescape(token: Token):
    def repl(m: re.Match) -> str:
        seq = m.group(1)
        if seq in _ESCAPES:
            return _ESCAPES[seq]
        if len(seq) > 1:
            code = int(seq[1:], 16) if seq[0] in "xuU" else int(seq, 8)
            if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                return chr(code)
        raise CelSyntaxError(f"invalid escape sequence \\{seq}", token.offset)
    return repl


def _number(token: Token) -> Node:
    """An int, uint or double literal; out-of-range values are syntax errors as in cel-go's parser."""
    text, hexa = token.text, token.text[:2].lower() == "0x"
    is_double = not hexa and any(c in text for c in ".eE")
    if text[-1] in "uU":
        value = int(text[:-1], 16 if hexa else 10) if not is_double else -1
        if not 0 <= value < 2**64:
            raise CelSyntaxError(f"invalid uint literal {text}", token.offset)
        return Node("lit", token.offset, value=value, type="uint")
    if is_double:
        number = float(text)
        if number in (float("inf"), float("-inf")):
            raise CelSyntaxError(f"invalid double literal {text}", token.offset)
        return Node("lit", token.offset, value=number, type="double")
    value = int(text, 16 if hexa else 10)
    if value > 2**63:  # 2**63 itself is allowed only negated; the unary minus folds it
        raise CelSyntaxError(f"invalid int literal {text}", token.offset)
    return Node("lit", token.offset, value=value, type="int")


class Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def accept(self, text: str) -> Token | None:
        if self.tok.kind in ("op", "ident") and self.tok.text == text:
            return self.take()
        return None

    def expect(self, text: str) -> Token:
        token = self.accept(text)
        if token is None:
            raise CelSyntaxError(f"expected '{text}' but found {_describe(self.tok)}", self.tok.offset)
        return token

    def parse(self) -> Node:
        node = self.expr()
        if self.tok.kind != "end":
            raise CelSyntaxError(f"unexpected {_describe(self.tok)} after a complete expression", self.tok.offset)
        return node

    def expr(self) -> Node:
        self.depth += 1
        if self.depth > 100:
            raise CelSyntaxError("expression nested too deeply (more than 100 levels)", self.tok.offset)
        cond = self.binary(0)
        if self.accept("?"):
            then = self.binary(0)
            self.expect(":")
            cond = Node("call", cond.offset, "_?_:_", [cond, then, self.expr()])
        self.depth -= 1
        return cond

    def binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.tok.kind in ("op", "ident") and self.tok.text in _BINARY[level]:
            if self.tok.text == "in" and self.tok.kind != "ident":
                break
            op = self.take()
            right = self.binary(level + 1)
            name = "@in" if op.text == "in" else f"_{op.text}_"
            left = Node("call", op.offset, name, [left, right])
        return left

    def unary(self) -> Node:
        token = self.tok
        if self.accept("!"):
            return Node("call", token.offset, "!_", [self.unary()])
        if self.accept("-"):
            operand = self.unary()
            if operand.kind == "lit" and operand.type in ("int", "double") and operand.offset == token.offset + 1:
                operand.value = -operand.value  # type: ignore[operator]
                operand.offset = token.offset
                return operand
            return Node("call", token.offset, "-_", [operand])
        return self.member(self.primary())

    def member(self, node: Node) -> Node:
        while True:
            token = self.tok
            if token.text in (".", ".?") and token.kind == "op":
                self.take()
                name = self.identifier()
                if token.text == "." and self.accept("("):
                    node = Node("call", name.offset, name.text, self.arguments(")"), target=node)
                else:
                    node = Node("select", name.offset, name.text, target=node, optional=token.text == ".?")
            elif token.text in ("[", "[?") and token.kind == "op":
                self.take()
                index = self.expr()
                self.expect("]")
                node = Node("index", token.offset, args=[index], target=node, optional=token.text == "[?")
            else:
                return node

    def identifier(self) -> Token:
        if self.tok.kind != "ident" or self.tok.text in _RESERVED:
            raise CelSyntaxError(f"expected an identifier but found {_describe(self.tok)}", self.tok.offset)
        return self.take()

    def arguments(self, close: str) -> list[Node]:
        args: list[Node] = []
        if self.accept(close):
            return args
        while True:
            args.append(self.expr())
            if self.accept(close):
                return args
            self.expect(",")
            if self.accept(close):  # a trailing comma is allowed
                return args

    def primary(self) -> Node:
        token = self.tok
        if token.kind == "num":
            self.take()
            return _number(token)
        if token.kind == "str":
            self.take()
            kind, value = _string_value(token)
            return Node("lit", token.offset, value=value, type=kind)
        if token.kind == "ident":
            return self.ident_or_call()
        if self.accept("("):
            inner = self.expr()
            self.expect(")")
            return inner
        if self.accept("["):
            return Node("list", token.offset, args=self.arguments("]"))
        if self.accept("{"):
            return self.map_literal(token)
        if token.kind == "op" and token.text == ".":  # a leading dot: root-scoped identifier
            self.take()
            return self.ident_or_call()
        if token.kind == "end":
            raise CelSyntaxError("unexpected end of expression", token.offset)
        raise CelSyntaxError(f"unexpected {_describe(token)}", token.offset)

    def ident_or_call(self) -> Node:
        token = self.identifier() if self.tok.text not in ("true", "false", "null", "in") else self.take()
        if token.text in ("true", "false"):
            return Node("lit", token.offset, value=token.text == "true", type="bool")
        if token.text == "null":
            return Node("lit", token.offset, value=None, type="null")
        if token.text == "in":
            raise CelSyntaxError("unexpected 'in'", token.offset)
        if self.accept("("):
            return Node("call", token.offset, token.text, self.arguments(")"))
        return Node("ident", token.offset, token.text)

    def map_literal(self, token: Token) -> Node:
        entries: list[Node] = []
        if self.accept("}"):
            return Node("map", token.offset, args=entries)
        while True:
            key = self.expr()
            self.expect(":")
            entries.extend((key, self.expr()))
            if self.accept("}"):
                return Node("map", token.offset, args=entries)
            self.expect(",")
            if self.accept("}"):
                return Node("map", token.offset, args=entries)


def _describe(token: Token) -> str:
    return "the end of the expression" if token.kind == "end" else f"'{token.text}'"


def parse(text: str) -> Node:
    """The AST of `text`; raises `CelSyntaxError` with the offset of the first problem."""
    return Parser(text).parse()


def dotted(node: Node | None) -> str | None:
    """`a.b.c` for identifiers joined by plain selections, else None."""
    if node is None:
        return None
    if node.kind == "ident":
        return node.name
    if node.kind == "select" and not node.optional:
        inner = dotted(node.target)
        return f"{inner}.{node.name}" if inner is not None else None
    return None


def namespaced(node: Node, bound: frozenset[str]) -> str | None:
    """The function a call names through a namespace (`sets.contains`), when the namespace is no variable."""
    prefix = dotted(node.target)
    if prefix is None or prefix.split(".")[0] in bound or prefix.split(".")[0] == "device":
        return None
    return f"{prefix}.{node.name}"

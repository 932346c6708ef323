"""Evaluate a checked CEL AST (`wasplan.cel.syntax`): each node becomes a Python closure once, at compile time.

Why closures over the same AST the checker walks: one parser and one function table (`wasplan.cel.library`,
declared in `wasplan.cel.types`) serve `validate`, `lint`, `plan` and `explain`, so no two environments can
disagree about what an expression means. A closure tree costs one Python call per node per evaluation (about
2 us for a driver comparison, `benchmarks/cel_runtimes.py`), and the allocator evaluates each (selector, distinct
device) pair once (`engine/dra/celcache.py`).

Semantics follow cel-go's interpreter (`interpreter/interpretable.go`, v0.26): `&&` and `||` are commutative
about errors (`false && error` is false, `error && false` is false, `true && error` is the error); the
quantifier macros `all` / `exists` absorb errors the same way per element; `exists_one`, `map`, `filter` and
the two-variable macros (`ext.TwoVarComprehensions`) propagate them; `has(m.f)` tests presence (a map with a
default, `device.attributes`, answers true for any key, as upstream's `Find` does); `.?f` and `[?k]` yield
optionals; `cel.bind(x, init, body)` binds eagerly (`ext.Bindings`). Namespaced functions (`sets.contains`,
`lists.range`, `optional.of`, `strings.quote`, `ip.isCanonical`) resolve when the namespace is not a variable.
"""

from __future__ import annotations

from typing import Any, Callable

from wasplan.cel.library import IMPLEMENTATIONS
from wasplan.cel.syntax import Node, dotted, namespaced
from wasplan.cel.values import (
    NONE, CelEvalError, CelType, DefaultMap, Optional, UInt, arithmetic, compare, contains, equal, key_text,
    map_find, negate, no_overload, type_name)

Eval = Callable[[dict], Any]
TYPE_IDENTS = frozenset({"int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type"})
_QUANTIFIERS = frozenset({"all", "exists", "exists_one", "existsOne"})
_MACROS = _QUANTIFIERS | {"map", "filter", "transformList", "transformMap", "transformMapEntry", "sortBy"}
_ORDER = {"_<_": lambda c: c == -1, "_<=_": lambda c: c in (-1, 0), "_>_": lambda c: c == 1,
          "_>=_": lambda c: c in (0, 1)}
_ARITH = {"_+_": "+", "_-_": "-", "_*_": "*", "_/_": "/", "_%_": "%"}


class Builder:
    """Turns AST nodes into closures; `bound` holds the comprehension and bind variables in scope."""

    def build(self, node: Node, bound: frozenset[str] = frozenset()) -> Eval:
        return getattr(self, "_" + node.kind)(node, bound)

    def _lit(self, node: Node, bound) -> Eval:
        value: Any = UInt(node.value) if node.type == "uint" else node.value
        return lambda env: value

    def _ident(self, node: Node, bound) -> Eval:
        name = node.name
        if name not in bound and name in TYPE_IDENTS:
            value = CelType(name)
            return lambda env: value

        def ident(env: dict) -> Any:
            try:
                return env[name]
            except KeyError:
                raise CelEvalError(f"no such attribute: {name}") from None
        return ident

    def _select(self, node: Node, bound) -> Eval:
        target, name = self.build(node.target, bound), node.name  # type: ignore[arg-type]
        if node.optional:
            return lambda env: _optional_lookup(target(env), name)

        def select(env: dict) -> Any:
            value = target(env)
            if type(value) is dict:
                try:
                    return value[name]
                except KeyError:
                    raise CelEvalError(f"no such key: {name}") from None
            return _lookup(value, name, True)
        return select

    def _index(self, node: Node, bound) -> Eval:
        target, key = self.build(node.target, bound), self.build(node.args[0], bound)  # type: ignore[arg-type]
        if node.optional:
            return lambda env: _optional_lookup(target(env), key(env))
        return lambda env: _lookup(target(env), key(env), False)

    def _list(self, node: Node, bound) -> Eval:
        items = [self.build(a, bound) for a in node.args]
        return lambda env: [item(env) for item in items]

    def _map(self, node: Node, bound) -> Eval:
        pairs = [(self.build(k, bound), self.build(v, bound)) for k, v in zip(node.args[0::2], node.args[1::2])]

        def literal(env: dict) -> dict:
            out: dict = {}
            for key, value in pairs:
                k = key(env)
                if k is None or type(k) not in (str, int, UInt, bool):
                    raise CelEvalError(f"unsupported key type: {type_name(k)}")
                if map_find(out, k)[0]:
                    raise CelEvalError(f"Failed with repeated key: {key_text(k)}")
                out[k] = value(env)
            return out
        return literal

    def _call(self, node: Node, bound) -> Eval:
        name = node.name
        if name == "_&&_" or name == "_||_":
            return _logic(name, *(self.build(a, bound) for a in node.args))
        if name == "_?_:_":
            return _conditional(*(self.build(a, bound) for a in node.args))
        if node.target is None and name == "has":
            return self.has(node, bound)
        if node.target is not None and name == "bind" and dotted(node.target) == "cel" and "cel" not in bound:
            return self.bind(node, bound)
        if node.target is not None and name in _MACROS and node.args and node.args[0].kind == "ident":
            return self.comprehension(node, bound)
        if node.target is None and name[0] in "_@!-":
            return _operator(name, [self.build(a, bound) for a in node.args])
        full = namespaced(node, bound) if node.target is not None else None
        if full is not None and full in IMPLEMENTATIONS:
            return _apply(full, IMPLEMENTATIONS[full], [self.build(a, bound) for a in node.args])
        args = ([self.build(node.target, bound)] if node.target is not None else []) + \
            [self.build(a, bound) for a in node.args]
        if name not in IMPLEMENTATIONS:
            raise CelEvalError(f"undeclared reference to '{name}'")
        return _apply(name, IMPLEMENTATIONS[name], args)

    def has(self, node: Node, bound) -> Eval:
        arg = node.args[0]
        target, name = self.build(arg.target, bound), arg.name  # type: ignore[arg-type]

        def has(env: dict) -> bool:
            value = target(env)
            if isinstance(value, DefaultMap):
                return True
            if isinstance(value, dict):
                return name in value
            if type(value) is Optional:
                return value.present and isinstance(value.value, dict) and name in value.value
            raise CelEvalError(f"invalid type for field selection: {type_name(value)}")
        return has

    def bind(self, node: Node, bound) -> Eval:
        var = node.args[0].name
        init = self.build(node.args[1], bound)
        body = self.build(node.args[2], bound | {var})
        return lambda env: body({**env, var: init(env)})

    def comprehension(self, node: Node, bound) -> Eval:
        name = node.name
        names = [a.name for a in node.args[:-1] if a.kind == "ident"]
        two = name in ("transformList", "transformMap", "transformMapEntry") or \
            (name in _QUANTIFIERS and len(node.args) == 3)
        variables = names[:2] if two else names[:1]
        inner = bound | frozenset(variables)
        bodies = [self.build(a, inner) for a in node.args[len(variables):]]
        rng = self.build(node.target, bound)  # type: ignore[arg-type]
        loop = _LOOPS["sortBy" if name == "sortBy" else name if name != "existsOne" else "exists_one"]
        return lambda env: loop(_pairs(rng(env), two), variables, bodies, env)


def _lookup(value: Any, key: Any, field: bool) -> Any:
    if isinstance(value, dict):
        found, out = map_find(value, key)
        if not found:
            raise CelEvalError(f"no such key: {key_text(key)}")
        return out
    if isinstance(value, (list, tuple)) and not field:
        kind = type(key)
        if kind is float and key.is_integer():
            key = int(key)
        elif kind not in (int, UInt):
            raise no_overload("_[_]", value, key)
        if not 0 <= key < len(value):
            raise CelEvalError(f"index out of range: {key_text(key)}")
        return value[key]
    if type(value) is Optional:
        return _optional_lookup(value, key)
    if field:
        raise CelEvalError(f"type '{type_name(value)}' does not support field selection")
    raise no_overload("_[_]", value, key)


def _optional_lookup(value: Any, key: Any) -> Optional:
    if type(value) is Optional:
        if not value.present:
            return NONE
        value = value.value
    if isinstance(value, dict):
        found, out = map_find(value, key)
        return Optional(out, True) if found else NONE
    if isinstance(value, (list, tuple)):
        if type(key) not in (int, UInt) or not 0 <= key < len(value):
            return NONE
        return Optional(value[key], True)
    raise CelEvalError(f"type '{type_name(value)}' does not support field selection")


def _apply(name: str, fn: Callable[..., Any], args: list[Eval]) -> Eval:
    if len(args) == 1:
        (a,) = args
        return lambda env: _call(name, fn, a(env))
    if len(args) == 2:
        a, b = args
        return lambda env: _call(name, fn, a(env), b(env))
    return lambda env: _call(name, fn, *(arg(env) for arg in args))


def _call(name: str, fn: Callable[..., Any], *values: Any) -> Any:
    try:
        return fn(*values)
    except TypeError:  # wrong number of arguments for this overload
        raise no_overload(name, *values) from None


def _logic(name: str, left: Eval, right: Eval) -> Eval:
    decisive = name == "_||_"  # the value that decides: true for ||, false for &&

    def logic(env: dict) -> bool:
        error: CelEvalError | None = None
        try:
            a = left(env)
            if a is decisive:
                return decisive
            if a is not (not decisive):
                error = no_overload(name, a)
        except CelEvalError as exc:
            error = exc
        b = right(env)
        if b is decisive:
            return decisive
        if error is not None:
            raise error
        if b is not (not decisive):
            raise no_overload(name, b)
        return not decisive
    return logic


def _conditional(cond: Eval, then: Eval, other: Eval) -> Eval:
    def conditional(env: dict) -> Any:
        c = cond(env)
        if c is True:
            return then(env)
        if c is False:
            return other(env)
        raise no_overload("_?_:_", c)
    return conditional


def _operator(name: str, args: list[Eval]) -> Eval:
    if name == "!_":
        (a,) = args
        return lambda env: _not(a(env))
    if name == "-_":
        (a,) = args
        return lambda env: negate(a(env))
    a, b = args
    if name == "_==_":
        return lambda env: equal(a(env), b(env))
    if name == "_!=_":
        return lambda env: not equal(a(env), b(env))
    if name in _ORDER:
        test = _ORDER[name]
        return lambda env: test(compare(a(env), b(env), name))
    if name == "@in":
        return lambda env: contains(b(env), a(env))
    if name in _ARITH:
        op = _ARITH[name]
        return lambda env: arithmetic(op, a(env), b(env))
    raise CelEvalError(f"undeclared reference to '{name}'")


def _not(value: Any) -> bool:
    if type(value) is not bool:
        raise no_overload("!_", value)
    return not value


def _pairs(value: Any, two: bool) -> list[tuple]:
    if isinstance(value, (list, tuple)):
        return list(enumerate(value)) if two else [(v,) for v in value]
    if isinstance(value, dict):
        return list(value.items()) if two else [(k,) for k in value]
    raise CelEvalError(f"expression of type '{type_name(value)}' cannot be range of a comprehension")


def _bind(env: dict, variables: list[str], item: tuple) -> dict:
    scope = dict(env)
    for var, value in zip(variables, item):
        scope[var] = value
    return scope


def _quantifier(want: bool) -> Callable:
    """`all` (want False: stop at the first false) and `exists` (want True); errors count only when no element
    decides."""
    def loop(items: list[tuple], variables: list[str], bodies: list[Eval], env: dict) -> bool:
        error: CelEvalError | None = None
        for item in items:
            try:
                hit = bodies[0](_bind(env, variables, item))
            except CelEvalError as exc:
                error = error or exc
                continue
            if hit is want:
                return want
            if type(hit) is not bool:
                error = error or no_overload("_&&_" if not want else "_||_", hit)
        if error is not None:
            raise error
        return not want
    return loop


def _exists_one(items, variables, bodies, env) -> bool:
    count = 0
    for item in items:
        hit = bodies[0](_bind(env, variables, item))
        if type(hit) is not bool:
            raise no_overload("_?_:_", hit)
        count += hit
    return count == 1


def _keep(bodies: list[Eval], scope: dict) -> bool:
    if len(bodies) == 1:
        return True
    hit = bodies[0](scope)
    if type(hit) is not bool:
        raise no_overload("_?_:_", hit)
    return hit


def _map(items, variables, bodies, env) -> list:
    out = []
    for item in items:
        scope = _bind(env, variables, item)
        if _keep(bodies, scope):
            out.append(bodies[-1](scope))
    return out


def _filter(items, variables, bodies, env) -> list:
    out = []
    for item in items:
        hit = bodies[0](_bind(env, variables, item))
        if type(hit) is not bool:
            raise no_overload("_?_:_", hit)
        if hit:
            out.append(item[0])
    return out


def _transform_map(items, variables, bodies, env) -> dict:
    out = {}
    for item in items:
        scope = _bind(env, variables, item)
        if _keep(bodies, scope):
            out[item[0]] = bodies[-1](scope)
    return out


def _transform_map_entry(items, variables, bodies, env) -> dict:
    out: dict = {}
    for item in items:
        scope = _bind(env, variables, item)
        if not _keep(bodies, scope):
            continue
        entry = bodies[-1](scope)
        if not isinstance(entry, dict):
            raise no_overload("cel.@mapInsert", out, entry)
        for k, v in entry.items():
            if map_find(out, k)[0]:
                raise CelEvalError(f"insert failed: key {key_text(k)} already exists")
            out[k] = v
    return out


def _sort_by(items, variables, bodies, env) -> list:
    keys = [bodies[-1](_bind(env, variables, item)) for item in items]
    return IMPLEMENTATIONS["@sortByAssociatedKeys"]([item[0] for item in items], keys)


_LOOPS: dict[str, Callable] = {
    "all": _quantifier(False), "exists": _quantifier(True), "exists_one": _exists_one, "map": _map,
    "filter": _filter, "transformList": _map, "transformMap": _transform_map,
    "transformMapEntry": _transform_map_entry, "sortBy": _sort_by,
}

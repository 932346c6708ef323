"""Type and cost rules of CEL calls for the static checker: operators, macros, `has`, `cel.bind`, functions.

Operator overloads are cel-go's standard declarations (`common/stdlib`): `==`/`!=` need operands of one type
(no implicit int/double equality), ordering works on any two numbers and on like strings, bytes and bools,
arithmetic needs one numeric type, `in` looks an element up in a list or a key in a map. Messages are cel-go's
("found no matching overload for '_==_' applied to '(string, int)'", "undeclared reference to 'x'").
"""

from __future__ import annotations

import math

from wasplan.cel import types as t
from wasplan.cel.info import UNBOUNDED, Info, add, tenth, times
from wasplan.cel.syntax import Node, namespaced
from wasplan.suggest import did_you_mean

_LOGIC = ("_&&_", "_||_")
_EQUALITY = ("_==_", "_!=_")
_ORDER = ("_<_", "_<=_", "_>_", "_>=_")
_ARITH = ("_+_", "_-_", "_*_", "_/_", "_%_")
_ORDERED = (t.STRING, t.BYTES, t.BOOL, "google.protobuf.Timestamp", "google.protobuf.Duration")
# functions whose cost grows with the receiver's length (0.1 per character) or element count (1 per element)
_SCANS = frozenset({"startsWith", "endsWith", "replace",
                    "lowerAscii", "upperAscii", "trim", "indexOf", "lastIndexOf", "reverse", "format"})
# cel-go expands each macro into a comprehension; per macro: (cost outside the loop: accumulator init and result,
# cost per element besides the body: loop condition and step), from cel-go's parser/macro.go expansions costed by
# checker/cost.go (`all`: condition @not_strictly_false(accu) 2, step accu && p 1, result 1).
_LOOP_COSTS = {"all": (1, 3), "exists": (1, 4), "exists_one": (2, 2), "existsOne": (2, 2), "map": (11, 13),
               "filter": (11, 14), "transformList": (11, 13), "transformMap": (31, 34), "transformMapEntry": (31, 34),
               "sortBy": (11, 13)}
_QUANTIFIERS = frozenset({"all", "exists", "exists_one", "existsOne"})
_ONE_VAR = frozenset({"all", "exists", "exists_one", "map", "filter", "sortBy"})  # existsOne takes two variables
_TWO_VAR = _QUANTIFIERS | {"transformList", "transformMap", "transformMapEntry"}
_TRANSFORMS = frozenset({"transformList", "transformMap", "transformMapEntry"})
_BIND_RANGE = 10  # cel.bind is a comprehension over an empty list literal
_LIST_WALKS = frozenset({"sum", "min", "max", "isSorted", "join", "distinct", "sort", "flatten", "includes"})


class CallRules:
    """Mixed into `wasplan.cel.checker.Checker`: `check`, `fail` and `field` come from there."""

    def _call(self, node: Node, scope) -> Info:
        name = node.name
        if name == "_?_:_":
            return self.conditional(node, scope)
        if node.target is None and name == "has":
            return self.has(node, scope)
        if node.target is not None and node.target.kind == "ident" and node.target.name == "cel" \
                and name == "bind" and "cel" not in scope:
            return self.bind(node, scope)
        if node.target is not None and name in t.MACROS and node.args and node.args[0].kind == "ident":
            return self.comprehension(node, scope)
        if name.startswith(("_", "@", "!", "-")) and node.target is None:
            return self.operator(node, [self.check(a, scope) for a in node.args])
        full = namespaced(node, frozenset(scope)) if node.target is not None else None
        if full is not None and full in t.GLOBALS:  # sets.contains(...), lists.range(...), optional.of(...)
            return self.function(Node("call", node.offset, full, node.args), scope)
        return self.function(node, scope)

    def conditional(self, node: Node, scope) -> Info:
        cond, then, other = (self.check(a, scope) for a in node.args)
        self.need_bool(node.args[0], cond, "_?_:_")
        joined = t.join(then.type, other.type)
        if joined is None:
            raise self.fail("type", f"found no matching overload for '_?_:_' applied to "
                            f"'(bool, {t.name(then.type)}, {t.name(other.type)})'", node)
        size = None if then.size is None or other.size is None else max(then.size, other.size)
        return Info(joined, add(cond.cost, max(then.cost, other.cost)), size)

    def need_bool(self, at: Node, info: Info, op: str) -> None:
        if info.type not in (t.BOOL, t.DYN):
            raise self.fail("type", f"found no matching overload for '{op}' applied to '({t.name(info.type)})'"
                            if op == "!_" else f"expected type 'bool' but found '{t.name(info.type)}'", at)

    def has(self, node: Node, scope) -> Info:
        arg = node.args[0] if len(node.args) == 1 else None
        if arg is None or arg.kind != "select" or arg.optional:
            raise self.fail("type", "invalid argument to has() macro", node,
                            'has() takes a field selection, e.g. has(device.attributes["gpu.example.com"].model)')
        target = self.check(arg.target, scope)  # type: ignore[arg-type]
        self.field(arg, target)
        return Info(t.BOOL, add(target.cost, 1))

    def bind(self, node: Node, scope) -> Info:
        if len(node.args) != 3 or node.args[0].kind != "ident":
            raise self.fail("type", "cel.bind() takes a variable name, its value and an expression", node)
        value = self.check(node.args[1], scope)
        body = self.check(node.args[2], {**scope, node.args[0].name: Info(value.type, 0, value.size)})
        return Info(body.type, add(_BIND_RANGE, value.cost, body.cost), body.size)

    def comprehension(self, node: Node, scope) -> Info:
        rng = self.check(node.target, scope)  # type: ignore[arg-type]
        names = [a.name for a in node.args[:-1] if a.kind == "ident"]
        two = len(names) >= 2 and node.args[1].kind == "ident" and (
            len(node.args) == 3 and node.name in _TWO_VAR or len(node.args) == 4 and node.name in _TRANSFORMS)
        one = (node.name in _ONE_VAR and len(node.args) == 2) or (node.name == "map" and len(node.args) == 3)
        if node.name == "existsOne" and not two:  # cel-go declares it for two variables only
            raise self.fail("function", "undeclared reference to 'existsOne' (in container '')", node)
        if not (two or one):
            raise self.fail("type", f"wrong number of arguments to the {node.name}() macro", node)
        loop = dict(scope)
        for var, var_type in zip(names if two else names[:1], self.iteration_types(node, rng, two)):
            loop[var] = var_type
        bodies = [self.check(a, loop) for a in node.args[(2 if two else 1):]]
        fixed, per_item = _LOOP_COSTS[node.name]
        cost = add(rng.cost, fixed, times(rng.size, add(per_item, *(b.cost for b in bodies))))
        n = rng.size
        if node.name in _QUANTIFIERS or node.name == "filter" or len(bodies) == 2:
            self.need_bool(node.args[-1] if node.name in _QUANTIFIERS else node.args[-len(bodies)], bodies[0],
                           node.name)
        if node.name in _QUANTIFIERS:
            return Info(t.BOOL, cost)
        if node.name in ("filter", "sortBy"):
            return Info(rng.type if t.kind(rng.type) == "list" else t.list_of(t.DYN), cost, n)
        if node.name == "transformMap":
            key = rng.type[1] if t.kind(rng.type) == "map" else t.DYN  # type: ignore[index]
            return Info(t.map_of(key, bodies[-1].type), cost, n)
        if node.name == "transformMapEntry":
            return Info(bodies[-1].type if t.kind(bodies[-1].type) == "map" else t.map_of(t.DYN, t.DYN), cost, n)
        return Info(t.list_of(bodies[-1].type), cost, n)

    def iteration_types(self, node: Node, rng: Info, two: bool) -> list[Info]:
        kind = t.kind(rng.type)
        if kind == "list":
            elem = Info(rng.type[1], 0, _element_size(rng.type[1]))  # type: ignore[index]
            return [Info(t.INT, 0), elem] if two else [elem]
        if kind == "map":
            key = Info(rng.type[1], 0, t.DOMAIN_SIZE)  # type: ignore[index]
            return [key, Info(rng.type[2], 0, _element_size(rng.type[2]))] if two else [key]  # type: ignore[index]
        if rng.type == t.DYN:
            return [Info(t.DYN, 0, t.ATTRIBUTE_VALUE_SIZE)] * (2 if two else 1)
        raise self.fail("type", f"expression of type '{t.name(rng.type)}' cannot be range of a comprehension "
                        "(must be list, map, or dynamic)", node.target)  # type: ignore[arg-type]

    def operator(self, node: Node, args: list[Info]) -> Info:
        name, types = node.name, [a.type for a in args]
        cost = add(1, *(a.cost for a in args))
        if name == "!_":
            self.need_bool(node, args[0], name)
            return Info(t.BOOL, cost)
        if name == "-_" and types[0] in (t.INT, t.DOUBLE, t.DYN):
            return Info(types[0], cost)
        if name in _LOGIC and all(x in (t.BOOL, t.DYN) for x in types):
            return Info(t.BOOL, add(*(a.cost for a in args)))
        if name in _EQUALITY and t.join(types[0], types[1]) is not None:
            if t.STRING not in types and t.BYTES not in types:
                return Info(t.BOOL, cost)
            sizes = [a.size for a in args if a.size is not None]  # strings compare at 0.1 per character
            return Info(t.BOOL, add(cost - 1, tenth(min(sizes) if sizes else None)))
        if name in _ORDER and _orderable(types[0], types[1]):
            return Info(t.BOOL, cost)
        if name == "@in" and _contains(types[1], types[0]):  # a list is searched (1 per element), a map hashed
            return Info(t.BOOL, add(cost - 1, times(args[1].size, 1)) if t.kind(types[1]) != "map" else cost)
        if name in _ARITH:
            result = _arithmetic(name, types[0], types[1])
            if result is not None:
                size = None if args[0].size is None or args[1].size is None else args[0].size + args[1].size
                return Info(result, cost, size if result in (t.STRING, t.BYTES) or t.kind(result) == "list" else None)
        shown = ", ".join(t.name(x) for x in types)
        raise self.fail("type", f"found no matching overload for '{name}' applied to '({shown})'", node,
                        _operator_hint(node, types))

    def list_items(self, node: Node, scope) -> list[Info]:
        return [self.check(a, scope) for a in node.args]

    def function(self, node: Node, scope) -> Info:
        receiver = self.check(node.target, scope) if node.target is not None else None
        args = [self.check(a, scope) for a in node.args]
        if receiver is None and node.name in t.GLOBALS:
            result = _match_global(node.name, [a.type for a in args])
        elif receiver is not None and node.name in t.MEMBERS and node.name not in self.hidden_functions:
            result = _match_member(node.name, receiver.type, [a.type for a in args])
        elif receiver is not None and node.name in t.GLOBALS:  # `q.sign()`: declared, but not as a method
            result = None
        else:
            raise self.fail("function", f"undeclared reference to '{node.name}' (in container '')", node,
                            _function_hint(node.name, receiver is None))
        if result is not None and not _element_types_fit(node.name, receiver, args):
            result = None
        if node.name == "format" and node.args and node.args[0].kind == "list" and any(
                item.attribute for item in self.list_items(node.args[0], scope)):
            raise self.fail("type", "error during formatting: string clause can only be used on strings, bools, bytes, "
                            "ints, doubles, maps, lists, types, durations, and timestamps, was given "
                            "google.protobuf.Any", node, "convert the attribute first, e.g. string(...) or int(...)")
        if result is None:
            shown = ", ".join(t.name(a.type) for a in args)
            applied = f"{t.name(receiver.type)}.({shown})" if receiver is not None else f"({shown})"
            raise self.fail("type", f"found no matching overload for '{node.name}' applied to '{applied}'", node)
        inputs = add(receiver.cost if receiver else 0, *(a.cost for a in args))
        size = receiver.size if receiver is not None else (args[0].size if args else None)
        keeps = node.name in ("lowerAscii", "upperAscii", "trim", "reverse", "slice", "distinct", "sort", "split")
        result_size = size if keeps else _element_size(result) if result == t.DYN else None
        return Info(result, add(inputs, _call_cost(node.name, size, args)), result_size)


_COMPARABLE = frozenset({t.INT, t.UINT, t.DOUBLE, t.BOOL, t.STRING, t.BYTES, t.DYN, "google.protobuf.Timestamp",
                         "google.protobuf.Duration"})
_SUMMABLE = frozenset({t.INT, t.UINT, t.DOUBLE, t.DYN, "google.protobuf.Duration"})


def _element_types_fit(name: str, receiver: Info | None, args: list[Info]) -> bool:
    """The element constraints of the list overloads: `isSorted`, `sort`, `min`, `max` are declared for lists of
    comparable types, `sum` for summable ones (k8s `library/lists.go`, cel-go `ext/lists.go`), and the
    `sets.*` functions take two lists of one element type (`ext/sets.go`)."""
    if name.startswith("sets.") and len(args) == 2:
        kinds = [a.type[1] if t.kind(a.type) == "list" else t.DYN for a in args]  # type: ignore[index]
        return t.join(kinds[0], kinds[1]) is not None
    if receiver is None or t.kind(receiver.type) != "list":
        return True
    elem = receiver.type[1]  # type: ignore[index]
    if name in ("isSorted", "sort", "min", "max"):
        return elem in _COMPARABLE
    if name == "sum":
        return elem in _SUMMABLE
    return True


def _call_cost(name: str, size: int | None, args: list[Info]) -> int:
    """The call's own cost, as cel-go's checker/cost.go and k8s.io/apiserver pkg/cel/library/cost.go estimate it:
    regular expressions cost 0.1 per character of the string times 0.25 per character of the pattern, `split`
    0.2 per character, scans 0.1 per character, list walks 1 per element, everything else 1."""
    if name in ("matches", "find", "findAll") and args:
        pattern = args[-1].size if len(args) == 1 or name == "matches" else args[0].size
        return times(tenth(size) if size is not None else None,
                     math.ceil(0.25 * pattern) if pattern is not None else UNBOUNDED)
    if name == "split":
        return UNBOUNDED if size is None else math.ceil(0.2 * size)
    if name == "contains" and args:
        return UNBOUNDED if size is None or args[0].size is None else math.ceil(0.1 * size * args[0].size)
    if name in _SCANS:
        return add(1, tenth(size), *(tenth(a.size) for a in args if a.type == t.STRING))
    if name in _LIST_WALKS:
        return add(1, times(size, 1))
    return 1


def _function_hint(name: str, global_call: bool) -> str | None:
    if global_call and name in t.MEMBERS:
        return f"{name} is a method: call it on its receiver, e.g. x.{name}(...)"
    guess = did_you_mean(name, t.KNOWN_FUNCTIONS)
    return f"did you mean {guess}()?" if guess else None


def _element_size(elem: t.Type) -> int | None:
    if t.kind(elem) == "map":
        return t.MAP_SIZE
    return t.ATTRIBUTE_VALUE_SIZE if elem in (t.DYN, t.QUANTITY) else None


def _orderable(a: t.Type, b: t.Type) -> bool:
    if t.DYN in (a, b):
        return True
    return (a in t.NUMERIC and b in t.NUMERIC) or (a == b and a in _ORDERED)


def _contains(container: t.Type, elem: t.Type) -> bool:
    kind = t.kind(container)
    if kind == "list":
        return t.join(container[1], elem) is not None  # type: ignore[index]
    if kind == "map":
        return t.join(container[1], elem) is not None  # type: ignore[index]
    return container == t.DYN


def _arithmetic(name: str, a: t.Type, b: t.Type) -> t.Type | None:
    if a == t.DYN or b == t.DYN:
        return b if a == t.DYN else a
    if a == b and a in t.NUMERIC and (name != "_%_" or a != t.DOUBLE):
        return a
    if name == "_+_" and a == b and a in (t.STRING, t.BYTES):
        return a
    if name == "_+_" and t.kind(a) == "list" and t.kind(b) == "list":
        return t.join(a, b) or t.list_of(t.DYN)
    return None


def _match_global(name: str, args: list[t.Type]) -> t.Type | None:
    for params, result in t.GLOBALS[name]:
        if len(params) == len(args) and all(t.assignable(p, a) for p, a in zip(params, args)):
            return (result[0], args[0]) if isinstance(result, tuple) and result[1:] == ("A",) else result
    return None


def _match_member(name: str, receiver: t.Type, args: list[t.Type]) -> t.Type | None:
    for kind, params, result in t.MEMBERS[name]:
        if receiver != t.DYN and t.kind(receiver) != kind:
            continue
        elem = receiver[1] if isinstance(receiver, tuple) else t.DYN
        wanted = [elem if p == "T" else receiver if p == "R" else p for p in params]
        if len(wanted) == len(args) and all(t.assignable(p, a) for p, a in zip(wanted, args)):
            if isinstance(result, tuple) and result[1:] == ("T",):
                return (result[0], elem)
            return {"T": elem, "R": receiver}.get(result, result) if isinstance(result, str) else result
    return None


def _operator_hint(node: Node, types: list[t.Type]) -> str | None:
    for arg in node.args:
        key = arg.args[0] if arg.kind == "index" else None
        if key is not None and key.kind == "lit" and isinstance(key.value, str) and "/" in key.value:
            domain, _, ident = key.value.partition("/")
            section = arg.target.name if arg.target is not None and arg.target.kind == "select" else "attributes"
            return (f'the domain and the name are separate keys: write device.{section}["{domain}"].{ident}')
        inner = arg.target if arg.kind == "select" else None
        if inner is not None and inner.kind == "select" and inner.name in ("attributes", "capacity") \
                and inner.target is not None and inner.target.kind == "ident" and inner.target.name == "device":
            return (f'{inner.name} are keyed by domain: write device.{inner.name}["<domain>"].{arg.name} '
                    f'(e.g. device.{inner.name}["gpu.example.com"].{arg.name})')
    if t.STRING in types and any(x in t.NUMERIC for x in types):
        return "a string compares only with a string: quote the number, or convert with int()/string()"
    if t.QUANTITY in types:
        return "compare quantities with q.compareTo(quantity(\"...\")), isGreaterThan() or isLessThan()"
    if t.SEMVER in types:
        return "compare versions with v.compareTo(semver(\"...\")), isGreaterThan() or isLessThan()"
    return None

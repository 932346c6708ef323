"""Static checks of a DRA selector: undeclared names, unknown functions, type errors, result type, worst-case cost.

What kube-apiserver does when a DeviceClass or ResourceClaim(Template) is created (k/k
`pkg/apis/resource/validation/validation.go` `validateCELExpression`, calling
`staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go` `CompileCELExpression`): compile in the
environment with the variable `device`, reject an output type other than bool or dyn ("must evaluate to bool or
the unknown type"), and reject a worst-case estimated cost above `CELSelectorExpressionMaxCost` (1,000,000;
"too complex, exceeds cost limit").

One walk over the AST (`wasplan.cel.syntax`) infers each node's type, its worst-case cost and the maximum size
of the value (elements of a list or map, characters of a string). The cost model is cel-go's `checker/cost.go` with
the Kubernetes library estimates (`k8s.io/apiserver/pkg/cel/library/cost.go`): 1 per variable, selection, index,
comparison and plain call, 0 per literal and for `&&`/`||`, 10 per list and 30 per map literal, string equality
0.1 per character of the shorter side, `in` 1 per list element, regular expressions 0.1 per string character
times 0.25 per pattern character, `split` 0.2 per character; a macro costs its range, its accumulator and result,
and per element its loop condition, step and body; `cel.bind` is a comprehension over an empty list. Sizes come
from upstream's declared bounds (`wasplan.cel.types`); a value of unknown size is unbounded, so iterating it is
over any limit, as it is for cel-go. tests/cel/test_cel_checker.py checks the estimates against every `expectCost`
of upstream's `cel/compile_test.go` that applies with DRAListTypeAttributes off.
"""

from __future__ import annotations

from functools import lru_cache

from wasplan.cel import types as t
from wasplan.cel.calls import CallRules
from wasplan.cel.info import UNBOUNDED, CelFinding, Failed, Info, add
from wasplan.cel.syntax import CelSyntaxError, Node, dotted, parse
from wasplan.suggest import did_you_mean

MAX_COST = 1_000_000  # resource.CELSelectorExpressionMaxCost


@lru_cache(maxsize=4096)
def analyse(expression: str, consumable_capacity: bool = True,
            list_attributes: bool = False) -> tuple[tuple[CelFinding, ...], int | None]:
    """The findings (a syntax or type error stops the walk; a non-bool result and the cost are both reported) and
    the estimated cost (None after a syntax or type error). Memoised: templates repeat their selectors.

    The environment depends on two gates as upstream's compiler does for new expressions (`compile.go` Features):
    `device.allowMultipleAllocations` exists with DRAConsumableCapacity, `includes()` with DRAListTypeAttributes."""
    try:
        ast = parse(expression)
    except CelSyntaxError as exc:
        return (CelFinding("syntax", f"syntax error: {exc.message}", exc.offset, _syntax_hint(expression, exc)),), None
    try:
        info = Checker(consumable_capacity, list_attributes).check(ast, {})
    except Failed as exc:
        return (exc.finding,), None
    findings = []
    if info.type not in (t.BOOL, t.DYN):
        findings.append(CelFinding("result", f"must evaluate to bool or the unknown type, not {t.name(info.type)}",
                                   0, _result_hint(ast)))
    if info.cost > MAX_COST:
        shown = "unbounded" if info.cost >= UNBOUNDED else f"{info.cost:,}"
        findings.append(CelFinding("cost", f"too complex, exceeds cost limit: estimated worst-case cost {shown} is "
                                   f"above {MAX_COST:,}", 0,
                                   "avoid nested comprehensions (all/exists/map/filter) over attributes and lists; "
                                   "read the attributes you need by name"))
    return tuple(findings), info.cost


def _syntax_hint(expression: str, exc: CelSyntaxError) -> str | None:
    at = expression[exc.offset:exc.offset + 2]
    before = expression[:exc.offset].rstrip()
    single = at.startswith("=") and not at.startswith("==")
    if single or before.endswith("=") and not before.endswith(("==", "!=", "<=", ">=")):
        return "compare with `==`; a single `=` is not a CEL operator"
    if exc.message.startswith("unexpected character") and expression[exc.offset] == "`":
        return "CEL strings are quoted with \" or '"
    if exc.offset >= len(expression.rstrip()):
        return "the expression ends too early: complete the last operand"
    return None


def _result_hint(ast: Node) -> str | None:
    if ast.kind in ("select", "index"):
        return "compare the value, e.g. `... == \"value\"`, or test presence with has(...)"
    return None


class Checker(CallRules):
    def __init__(self, consumable_capacity: bool = True, list_attributes: bool = False) -> None:
        self.device_fields = {k: v for k, v in t.DEVICE_FIELDS.items()
                              if consumable_capacity or k != "allowMultipleAllocations"}
        self.hidden_functions = frozenset() if list_attributes else frozenset({"includes"})
        self.any_attributes = not list_attributes

    def check(self, node: Node, scope: dict[str, Info]) -> Info:
        return getattr(self, "_" + node.kind)(node, scope)

    def fail(self, kind: str, message: str, node: Node, hint: str | None = None) -> Failed:
        return Failed(CelFinding(kind, message, node.offset, hint))

    def _lit(self, node: Node, scope) -> Info:
        if node.type == "int" and node.value == 2**63:  # only -9223372036854775808 is in range
            raise self.fail("syntax", f"syntax error: invalid int literal {node.value}", node)
        kind = {"null": t.NULL}.get(node.type, node.type)
        size = len(node.value) if isinstance(node.value, (str, bytes)) else None  # type: ignore[arg-type]
        return Info(kind, 0, size)

    def _ident(self, node: Node, scope) -> Info:
        if node.name in scope:
            return Info(scope[node.name].type, 1, scope[node.name].size)
        if node.name == "device":
            return Info(t.DEVICE, 1)
        if node.name in ("int", "uint", "double", "string", "bool", "bytes", "list", "map", "null_type", "type"):
            return Info(t.TYPE, 1)
        raise self.fail("undeclared", f"undeclared reference to '{node.name}' (in container '')", node,
                        _bare_name_hint(node.name))

    def _select(self, node: Node, scope) -> Info:
        if node.target is not None and node.target.kind == "ident" and node.target.name == "cel" and "cel" not in scope:
            raise self.fail("undeclared", f"undeclared reference to 'cel.{node.name}' (in container '')", node)
        target = self.check(node.target, scope)  # type: ignore[arg-type]
        info = self.field(node, target)
        if node.optional:
            return Info(("optional", info.type), info.cost, info.size)
        return info

    def field(self, node: Node, target: Info) -> Info:
        kind = t.kind(target.type)
        if target.type == t.DEVICE:
            found = self.device_fields.get(node.name)
            if found is None:
                guess = did_you_mean(node.name, self.device_fields)
                hint = f"did you mean device.{guess}?" if guess else _device_field_hint(node.name)
                raise self.fail("field", f"undefined field '{node.name}'", node, hint)
            return Info(found[0], target.cost + 1, found[1])
        if kind == "map" and target.type[1] in (t.STRING, t.DYN):  # type: ignore[index]
            value = target.type[2]  # type: ignore[index]
            return Info(value, target.cost + 1, _value_size(target.type), self.is_attribute(target))
        if kind == "optional":
            inner = self.field(node, Info(target.type[1], target.cost, target.size))  # type: ignore[index]
            return inner
        if target.type == t.DYN:
            return Info(t.DYN, target.cost + 1, t.ATTRIBUTE_VALUE_SIZE if target.size else None)
        raise self.fail("type", f"type '{t.name(target.type)}' does not support field selection", node)

    def _index(self, node: Node, scope) -> Info:
        target = self.check(node.target, scope)  # type: ignore[arg-type]
        key_path = dotted(node.args[0])
        if key_path is not None and key_path.split(".")[0] not in scope and key_path.split(".")[0] != "device":
            first = node.args[0]
            while first.target is not None:
                first = first.target
            raise self.fail("undeclared", f"undeclared reference to '{first.name}' (in container '')", first,
                            f'quote the key: ["{key_path}"]')
        key = self.check(node.args[0], scope)
        kind, cost = t.kind(target.type), add(target.cost, key.cost, 1)
        if kind == "optional":
            target = Info(target.type[1], target.cost, target.size)  # type: ignore[index]
            kind = t.kind(target.type)
        if kind == "list" and key.type in (t.INT, t.UINT, t.DYN):
            result = Info(target.type[1], cost, _value_size(target.type))  # type: ignore[index]
        elif kind == "map" and t.assignable(target.type[1], key.type):  # type: ignore[index]
            value = target.type[2]  # type: ignore[index]
            result = Info(value, cost, _value_size(target.type), self.is_attribute(target))
        elif target.type == t.DYN:
            result = Info(t.DYN, cost, t.ATTRIBUTE_VALUE_SIZE if target.size else None)
        else:
            raise self.fail("type", f"found no matching overload for '_[_]' applied to "
                            f"'({t.name(target.type)}, {t.name(key.type)})'", node)
        return Info(("optional", result.type), cost, result.size) if node.optional else result

    def _list(self, node: Node, scope) -> Info:
        items = [self.check(a, scope) for a in node.args]
        elem = self.homogeneous(node.args, items)
        return Info(t.list_of(elem), add(10, *(i.cost for i in items)), len(items))

    def _map(self, node: Node, scope) -> Info:
        infos = [self.check(a, scope) for a in node.args]
        key = self.homogeneous(node.args[0::2], infos[0::2])
        value = self.homogeneous(node.args[1::2], infos[1::2])
        return Info(t.map_of(key, value), add(30, *(i.cost for i in infos)), len(infos) // 2)

    def is_attribute(self, container: Info) -> bool:
        """Whether a value read from `container` is a device attribute typed `any`."""
        return self.any_attributes and container.type == t.ATTRIBUTES_INNER and container.size == t.MAP_SIZE

    def homogeneous(self, nodes: list[Node], items: list[Info]) -> t.Type:
        """The element type of a list literal (or the key / value type of a map literal): the Kubernetes base
        environment enables HomogeneousAggregateLiterals, so elements of two types are a compile error
        (`expected type 'int' but found 'double'`) unless one of them is dyn."""
        elem: t.Type = items[0].type if items else t.DYN
        first_any = bool(items) and items[0].attribute
        for at, item in zip(nodes[1:], items[1:]):
            joined = t.join(elem, item.type)
            mixed_any = item.attribute != first_any
            if joined is None or mixed_any or (t.NULL in (elem, item.type) and elem != item.type):
                want = "any" if first_any else t.name(elem)
                raise self.fail("type", f"expected type '{want}' but found "
                                f"'{'any' if item.attribute else t.name(item.type)}'", at)
            elem = joined
        return elem






def _value_size(container: t.Type) -> int | None:
    """Maximum size of a value read out of the device maps: inner maps hold 32 entries, attributes 64 elements."""
    value = container[-1] if isinstance(container, tuple) else None
    if t.kind(value) == "map":  # type: ignore[arg-type]
        return t.MAP_SIZE
    if value in (t.DYN, t.QUANTITY):
        return t.ATTRIBUTE_VALUE_SIZE
    return None


def _bare_name_hint(name: str) -> str | None:
    if name in ("driver", "attributes", "capacity", "allowMultipleAllocations"):
        return f"the device is a variable: write device.{name}"
    return (f'attributes are read through the device and their domain: write device.attributes["<driver '
            f'domain>"].{name} (e.g. device.attributes["gpu.example.com"].{name})')


def _device_field_hint(field: str) -> str:
    return (f'device has driver, attributes, capacity and allowMultipleAllocations; an attribute is read as '
            f'device.attributes["<domain>"].{field}')


"""The static CEL checker (`wasplan.cel.checker`): what kube-apiserver's compile of a DRA selector rejects.

Expected messages are cel-go's and k/k `staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go`'s wording;
the environment is the one compile.go declares (device: driver, attributes, capacity; quantity and semver
libraries; cel.bind).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.cel.checker import MAX_COST, analyse
from wasplan.cel.syntax import CelSyntaxError, parse

GPU = 'device.attributes["gpu.example.com"]'


@pytest.mark.parametrize("expression", [
    'device.driver == "gpu.example.com"',
    f'{GPU}.model == "a100"',
    f'{GPU}.cores > 100 && {GPU}.mig',
    f'has({GPU}.model) && !has({GPU}.missing)',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0',
    'device.capacity["gpu.example.com"].memory == quantity("81920Mi")',
    'quantity("2").sub(1).isInteger() && quantity("500m").asApproximateFloat() == 0.5',
    f'{GPU}.driverVersion.isLessThan(semver("1.2.3"))',
    'semver("v1.2", true).major() == 1 && isSemver("1.0", true)',
    f'["a100", "h100"].exists(m, m == {GPU}.model)',
    f'{GPU}.model.startsWith("a1") && device.driver.matches("^gpu[.]")',
    f'cel.bind(gpu, {GPU}, gpu.model == "a100" && gpu.cores >= 64)',
    f'{GPU}.?model.orValue("") == "a100"',
    'device.allowMultipleAllocations',
    f'{GPU}.model',  # dyn: upstream accepts the unknown type and checks the value at run time
    "device.attributes.exists(domain, domain.endsWith('.example.com'))",
    '1 < 2.5 && 2u >= 1',
    "r'a\\d' == 'a\\\\d' && b'x' == bytes('x') && '''multi''' == \"multi\"",
])
def test_selectors_the_api_server_accepts(expression):
    findings, cost = analyse(expression)
    assert findings == () and cost is not None and cost < MAX_COST


@pytest.mark.parametrize("expression,kind,message,offset,hint", [
    (f'{GPU}.model == 3 &&', "syntax", "syntax error: unexpected end of expression", 50,
     "the expression ends too early: complete the last operand"),
    ('device.driver = "x"', "syntax", "syntax error: unexpected character '='", 14,
     "compare with `==`; a single `=` is not a CEL operator"),
    ('device.driver == "x', "syntax", "syntax error: unterminated string literal", 17, None),
    ('model == "a100"', "undeclared", "undeclared reference to 'model' (in container '')", 0,
     'attributes are read through the device and their domain: write device.attributes["<driver domain>"].model '
     '(e.g. device.attributes["gpu.example.com"].model)'),
    ("device.attributes[gpu.example.com].model == 'a'", "undeclared",
     "undeclared reference to 'gpu' (in container '')", 18, 'quote the key: ["gpu.example.com"]'),
    ('device.drivr == "x"', "field", "undefined field 'drivr'", 7, "did you mean device.driver?"),
    (f'{GPU}.model.strtsWith("a")', "function", "undeclared reference to 'strtsWith' (in container '')", 43,
     "did you mean startsWith()?"),
    ('lowerAscii(device.driver) == "a"', "function", "undeclared reference to 'lowerAscii' (in container '')", 0,
     "lowerAscii is a method: call it on its receiver, e.g. x.lowerAscii(...)"),
    ("device.driver == 3", "type", "found no matching overload for '_==_' applied to '(string, int)'", 14,
     "a string compares only with a string: quote the number, or convert with int()/string()"),
    ('device.attributes.model == "a100"', "type",
     "found no matching overload for '_==_' applied to '(map(string, dyn), string)'", 24,
     'attributes are keyed by domain: write device.attributes["<domain>"].model '
     '(e.g. device.attributes["gpu.example.com"].model)'),
    ('device.attributes["gpu.example.com/model"] == "a100"', "type",
     "found no matching overload for '_==_' applied to '(map(string, dyn), string)'", 43,
     'the domain and the name are separate keys: write device.attributes["gpu.example.com"].model'),
    ('device.capacity["gpu.example.com"].memory > quantity("1Gi")', "type",
     "found no matching overload for '_>_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'", 42,
     'compare quantities with q.compareTo(quantity("...")), isGreaterThan() or isLessThan()'),
    ("device.driver.size() + 1", "result", "must evaluate to bool or the unknown type, not int", 0, None),
    ("device.driver", "result", "must evaluate to bool or the unknown type, not string", 0,
     'compare the value, e.g. `... == "value"`, or test presence with has(...)'),
    ('device.driver.startsWith(1)', "type", "found no matching overload for 'startsWith' applied to 'string.(int)'",
     14, None),
    ("device.exists(k, k == 'driver')", "type", "expression of type 'kubernetes.DRADevice' cannot be range of a "
     "comprehension (must be list, map, or dynamic)", 0, None),
])
def test_what_the_api_server_rejects(expression, kind, message, offset, hint):
    findings, _ = analyse(expression)
    assert [(f.kind, f.message, f.offset, f.hint) for f in findings] == [(kind, message, offset, hint)]


def test_nested_comprehensions_over_attributes_are_over_the_cost_limit():
    # 32 domains x 32 domains x 32 domains x 32 ids (compile.go's map bounds); each level costs its range, 1, and
    # per element 3 plus the inner level: 6.6 million
    nested = ("device.attributes.all(a, device.attributes.all(b, device.attributes.all(c, "
              "device.attributes[c].all(k, k.size() > 1))))")
    findings, cost = analyse(nested)
    assert [f.kind for f in findings] == ["cost"] and cost == 6_559_939
    assert findings[0].message == ("too complex, exceeds cost limit: estimated worst-case cost 6,559,939 is above "
                                   "1,000,000")
    _, one_level = analyse("device.attributes.all(a, device.attributes[a].all(k, k.size() > 1))")
    assert one_level is not None and one_level < 10_000


def test_iterating_a_list_of_unknown_size_is_unbounded():
    findings, cost = analyse('device.driver.split(".").all(p, p.split("-").all(q, q.size() < 10))')
    assert findings[0].message.startswith("too complex, exceeds cost limit: estimated worst-case cost unbounded")


def test_parser_keeps_offsets_and_precedence():
    node = parse('a || b && !c.d[0] in [1, 2] ? x.f(1,) : -2')
    assert (node.name, node.args[0].name, node.args[0].args[1].name) == ("_?_:_", "_||_", "_&&_")
    assert node.args[2].value == -2 and node.args[2].offset == 40
    with pytest.raises(CelSyntaxError) as err:
        parse("a ++ b")
    assert (err.value.message, err.value.offset) == ("unexpected '+'", 3)


_PIECES = st.sampled_from(["device", ".", "attributes", "capacity", "driver", "[", "]", "(", ")", "{", "}", ",", ":",
                           "?", "!", "-", "+", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||", " in ", "'a'", '"b"',
                           "1", "2u", "3.5", "0x1F", "true", "null", "has(", "all(x, ", ".exists(y, ", "cel.bind(",
                           ".?", "[?", "size()", "quantity(", "semver(", "x", "y", "\\", "'", "\n", " "])


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.lists(_PIECES, max_size=30).map("".join), st.text(max_size=60)))
def test_any_text_gives_findings_or_a_cost_never_an_exception(expression):
    findings, cost = analyse(expression)
    assert findings or cost is not None
    assert all(0 <= f.offset <= len(expression) for f in findings)


_D, _C = 'device.attributes["dra.example.com"]', 'device.capacity["dra.example.com"]'
_TEN = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"


@pytest.mark.parametrize("expression,cost", [
    # k/k staging/src/k8s.io/dynamic-resource-allocation/cel/compile_test.go (commit 052bb7dc), `expectCost`, with
    # DRAListTypeAttributes off (an attribute value holds at most 64 elements)
    (f'{_D}.noSuchAttr.isGreaterThan(quantity("0"))', 6),
    ('"no-such-domain" in device.attributes', 3),
    ('device.driver == ""', 2),
    ('device.driver == "dra.example.com"', 4),
    (f"{_D}.name", 4),
    (f'{_D}["name"]', 4),
    (f"cel.bind(dra, {_D}, dra.name)", 15),
    (f"{_D}.name > 0", 5),
    (f'{_D}.name == "fish"', 5),
    (f"{_D}.name.exists(x, x > 0)", 5 + (3 + 3) * 64),
    (f'{_D}.names.all(x, x != "")', 5 + (2 + 2) * 64),
    (f'{_D}.names.all(x, x.isGreaterThan(semver("0.0.1")))', 5 + (2 + 4) * 64),
    (f"{_D}.names.size() == 2", 6),
    (f"1 in {_D}.names", 4 + 64),
    (f'{_D}.name.isGreaterThan(semver("0.0.1"))', 6),
    (f'{_D}.name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)', 7),
    (f'{_C}.name.isGreaterThan(quantity("1Ki"))', 6),
    (f'"name" in {_C} && {_C}.name.isGreaterThan(quantity("1Ki"))', 10),
    (f'!("name" in {_C}) || {_C}.name.isGreaterThan(quantity("1Ki"))', 11),
    (f"{_D}.a && {_D}.b && {_D}.c", 12),
    ('device.attributes.exists_one(x, x == "dra.example.com")', 164),
    (f'{_D}.exists_one(x, x == "services")', 133),
    (f'{_D}.services.split("example").size() >= 2', 19),
    (f'{_D}.services.matches("[^a]?sym")', 18),
    ("device.allowMultipleAllocations == true", 3),
    (f"{_TEN}.all(x, {_TEN}.all(y, {_TEN}.all(z, {_TEN}.all(z2, {_TEN}.all(z3, {_TEN}.all(z4, {_TEN}.all(z5, "
     "int('1'.find('[0-9]*')) < 100)))))))", 85555551),
])
def test_cost_estimates_match_upstreams(expression, cost):
    assert analyse(expression)[1] == cost

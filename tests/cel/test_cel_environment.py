"""The Kubernetes CEL environment for DRA selectors (`wasplan.cel`): variables, Kubernetes quantity and semver
functions, runtime errors, compile errors with their position, and what is declined with a position."""

from fractions import Fraction

import pytest

from wasplan.cel import CelError, CelRuntimeError, compile, device_value
from wasplan.cluster.devices import Attribute, Capacity

GI = 2**30
DEVICE = device_value(
    "gpu.example.com",
    {"model": Attribute("string", "a100"), "cores": Attribute("int", 108), "mig": Attribute("bool", True),
     "driverVersion": Attribute("version", "1.2.3-rc.1"), "numa.example.com/node": Attribute("int", 1)},
    {"memory": Capacity(Fraction(80 * GI)), "numa.example.com/bandwidth": Capacity(Fraction(1, 2))},
    allow_multiple_allocations=True)


def run(expression: str):
    compiled = compile(expression)
    assert not isinstance(compiled, CelError), compiled
    return compiled.evaluate(DEVICE)


@pytest.mark.parametrize("expression", [
    'device.driver == "gpu.example.com"',
    'device.attributes["gpu.example.com"].model == "a100"',
    'device.attributes["gpu.example.com"].cores > 100 && device.attributes["gpu.example.com"].mig',
    'device.attributes["numa.example.com"].node == 1',
    'device.allowMultipleAllocations',
    'has(device.attributes["gpu.example.com"].model)',
    '!has(device.attributes["gpu.example.com"].missing)',
    '!has(device.attributes["unknown.example.com"].x)',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) == 0',
    'device.capacity["gpu.example.com"].memory == quantity("81920Mi")',
    'device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("40Gi"))',
    'device.capacity["numa.example.com"].bandwidth.isLessThan(quantity("1"))',
    'quantity("1.5").add(quantity("500m")) == quantity("2")',
    'quantity("2").sub(1).isInteger() && quantity("2").sub(1).asInteger() == 1',
    'sign(quantity("500m")) == 1 && quantity("500m").asApproximateFloat() == 0.5',
    'isQuantity("10Gi") && !isQuantity("10 Gi")',
    'device.attributes["gpu.example.com"].driverVersion.isLessThan(semver("1.2.3"))',
    'device.attributes["gpu.example.com"].driverVersion.compareTo(semver("1.2.3-rc.0")) == 1',
    'semver("v1.2", true).major() == 1 && semver("1.2.0").minor() == 2 && semver("1.2.7").patch() == 7',
    'isSemver("1.0.0") && !isSemver("1.0") && isSemver("1.0", true)',
    '["a100", "h100"].exists(m, m == device.attributes["gpu.example.com"].model)',
    'device.attributes["gpu.example.com"].model.startsWith("a1") && device.driver.matches("^gpu[.]")',
])
def test_expressions_that_hold(expression):
    assert run(expression) is True


@pytest.mark.parametrize("expression,message", [
    ('device.attributes["gpu.example.com"].missing == 1', "no such key: missing"),
    ('device.attributes["gpu.example.com"].model', "CEL result of type string could not be converted to bool"),
    ('sign(quantity("10 Gi")) == 1',
     "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ('semver("1.0") == semver("1.0.0")', "could not parse '1.0' as a semantic version"),
])
def test_runtime_errors(expression, message):
    with pytest.raises(CelRuntimeError) as err:
        run(expression)
    assert str(err.value) == message


@pytest.mark.parametrize("expression,message,line,column", [
    ("device.driver ==", "syntax error: unexpected end of expression", 1, 17),
    ('noSuchVar == "x"', "undeclared reference to 'noSuchVar'", 1, 1),
    ('device.driver == "a" &&\n  lowerAscii(device.driver) == "a"', "undeclared reference to 'lowerAscii'", 2, 3),
    ('timestamp("2026-01-01T00:00:00Z").getFullYear() == 2026', "CEL function 'timestamp' is not modelled by wasplan",
     1, 1),
    ("", "expression is empty", 1, 1),
])
def test_compile_errors_carry_the_position_inside_the_expression(expression, message, line, column):
    err = compile(expression)
    assert isinstance(err, CelError)
    assert err.message.startswith(message) and (err.line, err.column) == (line, column)


def test_comprehension_variables_are_not_undeclared_references():
    assert run('device.attributes["gpu.example.com"].all(k, k != "")') is True


def test_expressions_are_compiled_once():
    assert compile('device.driver == "x"') is compile('device.driver == "x"')


def test_an_overlong_expression_is_rejected():
    err = compile("true || " * 1400 + "true")
    assert isinstance(err, CelError) and err.message == "expression is 11204 bytes long, more than the limit of 10240"


def test_without_consumable_capacity_there_is_no_allow_multiple_allocations():
    value = device_value("d", {}, {}, True, consumable_capacity=False)
    compiled = compile("device.allowMultipleAllocations")
    with pytest.raises(CelRuntimeError, match="^no such key: allowMultipleAllocations$"):
        compiled.evaluate(value)


@pytest.mark.parametrize("expression,reads", [
    ('device.attributes["gpu.example.com"].model == "a100"', (("attributes", "gpu.example.com", "model"),)),
    ("device.driver == 'x'", ()),
    ('has(device.attributes["d"].x) && device.capacity["d"]["memory"].isGreaterThan(quantity("1"))',
     (("attributes", "d", "x"), ("capacity", "d", "memory"))),
    ('device.attributes["d"].all(k, k != "")', None),
    ("device.attributes.size() > 0", None),
    ('"attributes" == device.driver', None),
])
def test_what_an_expression_reads(expression, reads):
    assert compile(expression).reads == reads


def test_projection_keeps_types_apart():
    compiled = compile('device.attributes["d"].flag == true')
    as_bool = device_value("d", {"flag": Attribute("bool", True)}, {}, None)
    as_int = device_value("d", {"flag": Attribute("int", 1)}, {}, None)
    with_uuid = device_value("d", {"flag": Attribute("bool", True), "uuid": Attribute("string", "u-1")}, {}, None)
    assert compiled.projection(as_bool) != compiled.projection(as_int)
    assert compiled.projection(as_bool) == compiled.projection(with_uuid)
    assert compiled.evaluate(as_bool) is True

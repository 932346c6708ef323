"""Every function of the DRA CEL environment evaluated with exact values (`wasplan.cel.library`), the two tables
held together (what the checker declares is what the runtime implements), and the values upstream's environment
gave for the same expressions (`oracle cel`, oracle/core/cel.go, Kubernetes 1.36.3; tests/oracle/test_cel_oracle.py
repeats the comparison on a generated corpus)."""

from __future__ import annotations

import pytest

from wasplan.cel import CelError, CelRuntimeError, compile, device_value
from wasplan.cel import types as t
from wasplan.cel.library import IMPLEMENTATIONS, UNMODELLED
from wasplan.cel.values import CIDR, IP, URL, Optional, Quantity, Semver, UInt
from wasplan.cluster.devices import Attribute

DEVICE = device_value("gpu.nvidia.com", {"productName": Attribute("string", "NVIDIA A100-SXM4-40GB")}, {}, None)


def value(expression: str):
    """The value of a device-independent expression (wrapped so the compiler's bool-result rule holds)."""
    compiled = compile(f"dyn({expression}) == dyn({expression})")
    assert not isinstance(compiled, CelError), compiled
    from wasplan.cel.evaluator import Builder
    from wasplan.cel.syntax import parse
    return Builder().build(parse(expression))({"device": DEVICE})


@pytest.mark.parametrize("expression,expected", [
    # ext.Strings version 2
    ('"NVIDIA A100".lowerAscii()', "nvidia a100"), ('"straße Ä".upperAscii()', "STRAßE Ä"),
    ('"hello".charAt(1)', "e"), ('"hello".charAt(5)', ""), ('"日本語".charAt(2)', "語"),
    ('"hello".indexOf("l")', 2), ('"hello".indexOf("l", 3)', 3), ('"hello".indexOf("")', 0),
    ('"hello".indexOf("x")', -1), ('"hello".indexOf("o", 9)', -1), ('"hello".lastIndexOf("l")', 3),
    ('"hello".lastIndexOf("")', 5), ('"hello".lastIndexOf("l", 2)', 2), ('"a,b,,c".split(",")', ["a", "b", "", "c"]),
    ('"a,b,,c".split(",", 2)', ["a", "b,,c"]), ('"abc".split("")', ["a", "b", "c"]), ('"a,b".split(",", 0)', []),
    ('"hello".substring(1)', "ello"), ('"hello".substring(1, 3)', "el"), ('"  x\\t\\n".trim()', "x"),
    ('"aaa".replace("a", "b", 2)', "bba"), ('"ab".replace("", "-")', "-a-b-"), ('["a", "b"].join()', "ab"),
    ('["a", "b"].join("-")', "a-b"), ('"abc".reverse()', "cba"), ('strings.quote("a\\"b\\n")', '"a\\"b\\n"'),
    ('"%s and %s".format(["x", "y"])', "x and y"), ('"%d".format([3])', "3"),
    ('"%.2f|%e".format([3.14159, 1234.5])', "3.14|1.234500e+03"),
    ('"%x %X %o %b".format([255, 255, 8, 5])', "ff FF 10 101"), ('"%s".format([[1, 2]])', "[1, 2]"),
    ('"%s".format([{"b": "x"}])', '{"b": "x"}'),
    # regex
    ('"NVIDIA A100".matches("^nvidia")', False), ('"abc123def45".find("[0-9]+")', "123"),
    ('"abc123def45".findAll("[0-9]+")', ["123", "45"]), ('"a1b2c3".findAll("[0-9]", 2)', ["1", "2"]),
    # lists: Kubernetes lists, ext.Lists version 3, ext.Sets, optional first/last
    ("[1, 2, 3].isSorted()", True), ("[3, 1].isSorted()", False), ("[1, 2, 3].sum()", 6), ("[1.5, 2.0].sum()", 3.5),
    ("[3, 1, 2].min()", 1), ('["b", "a"].max()', "b"), ("[1, 2, 1].indexOf(1)", 0), ("[1, 2, 1].lastIndexOf(1)", 2),
    ("[1, 2, 3, 4].slice(1, 3)", [2, 3]), ("[[1], [2, 3]].flatten()", [1, 2, 3]),
    ("[[[1]], [[2]]].flatten(2)", [1, 2]), ("[3, 1, 2].sort()", [1, 2, 3]), ("[1, 2, 3].reverse()", [3, 2, 1]),
    ("[1, 1, 2, 1].distinct()", [1, 2]), ("lists.range(3)", [0, 1, 2]),
    ('["bb", "a"].sortBy(x, x.size())', ["a", "bb"]),
    ("sets.contains([1, 2, 3], [2, 3])", True), ("sets.contains([1], [1, 2])", False),
    ("sets.equivalent([1, 2, 1], [2, 1])", True), ("sets.intersects([1, 2], [3, 2])", True),
    ("[1, 2].first().value()", 1), ("[].last().hasValue()", False),
    # macros
    ("[1, 2, 3].map(x, x * 2)", [2, 4, 6]), ("[1, 2, 3].map(x, x > 1, x)", [2, 3]),
    ("[1, 2, 3].filter(x, x != 2)", [1, 3]),
    ("[1, 2].exists_one(x, x == 1)", True), ("[5, 6].all(i, v, v > i)", True), ("[5, 6].existsOne(i, v, i == 1)", True),
    ("[5, 6].transformList(i, v, i + v)", [5, 7]), ('{"a": 1}.transformMap(k, v, v * 2)', {"a": 2}),
    ('{"a": 1}.transformMapEntry(k, v, {v: k})', {1: "a"}), ("cel.bind(x, 2, x * x)", 4),
    ("[0, 1].exists(x, 1 / x > 0)", True), ("false && 1 / 0 == 1", False), ("1 / 0 == 1 || true", True),
    # optional types
    ('{"a": 1}.?a.orValue(0)', 1), ('{"a": 1}.?b.orValue(0)', 0), ('{"a": 1}[?"b"].hasValue()', False),
    ("optional.none().or(optional.of(3)).value()", 3), ('optional.ofNonZeroValue("").hasValue()', False),
    ("optional.unwrap([optional.of(1), optional.none()])", [1]),
    # conversions and numbers
    ('int("12")', 12), ("int(-1.9)", -1), ('uint("7")', UInt(7)), ('double("1e3")', 1000.0), ("string(1e21)", "1e+21"),
    ("string(123456789.0)", "123456789"), ("string(0.00001)", "1e-05"), ('bool("t")', True), ("7 / -2", -3),
    ("-7 % 3", -1), ("dyn(1) == 1.0", True), ("dyn(1u) == 1", True), ("[dyn(1)] == [1.0]", True), ("1 < 1.5", True),
    ("2u > 1.5", True),
    # Kubernetes quantity, semver, IP, CIDR, URL
    ('quantity("1.5Gi").add(quantity("512Mi")) == quantity("2Gi")', True), ("sign(quantity(\"-2\"))", -1),
    ('quantity("1.0").isInteger()', False), ('quantity("1Ki").asInteger()', 1024),
    ('quantity("9223372036854775807").isInteger()', False), ('quantity("500m").asApproximateFloat()', 0.5),
    ('semver("1.2.3-rc.1").compareTo(semver("1.2.3"))', -1), ('semver("v1.2", true).minor()', 2),
    ('semver("1.2.3+a") == semver("1.2.3+b")', True), ('isSemver("01.2.3")', False),
    ('ip("10.0.0.1").family()', 4), ('ip("::1").isLoopback()', True), ('ip("169.254.1.1").isLinkLocalUnicast()', True),
    ('ip("224.0.0.1").isLinkLocalMulticast()', True), ('ip("10.0.0.1").isGlobalUnicast()', True),
    ('ip.isCanonical("2001:db8::0:1")', False), ('isIP("1.2.3.04")', False),
    ('string(ip("2001:DB8::1"))', "2001:db8::1"),
    ('cidr("10.0.0.0/8").containsIP("10.1.2.3")', True), ('cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16")', True),
    ('cidr("10.1.2.3/8").masked() == cidr("10.0.0.0/8")', True), ('cidr("10.1.2.3/8").ip() == ip("10.1.2.3")', True),
    ('cidr("10.0.0.0/8").prefixLength()', 8), ('isCIDR("10.0.0.0/33")', False),
    ('url("https://user@example.com:8080/a%20b?x=1&x=2").getHost()', "example.com:8080"),
    ('url("https://example.com:8080/").getHostname()', "example.com"), ('url("http://[::1]:80/").getHostname()', "::1"),
    ('url("https://example.com:8080/").getPort()', "8080"), ('url("https://h/a%20b").getEscapedPath()', "/a%20b"),
    ('url("https://h/?x=1&x=2&y=").getQuery()', {"x": ["1", "2"], "y": [""]}), ('isURL("not a url")', False),
    ('isURL("/just/a/path")', True),
])
def test_extension_functions(expression, expected):
    got = value(expression)
    assert got == expected and type(got) is type(expected), (got, expected)


@pytest.mark.parametrize("expression,message", [
    ('"hello".charAt(6)', "index out of range: 6"),
    ('"hello".substring(3, 1)', "invalid substring range. start: 3, end: 1"),
    ("[1, 2].slice(1, 5)", "cannot slice(1, 5), list is length 2"), ("[].max()", "max(list) called on empty list"),
    ("9223372036854775807 + 1", "integer overflow"), ("5 / 0", "division by zero"),
    ("uint(-1)", "range error converting int to uint"),
    ("optional.none().value()", "optional.none() dereference"),
    ('quantity("1.5").asInteger()', "cannot convert value to integer"),
    ('ip("1.2.3.04")', 'IP Address "1.2.3.04" parse error during conversion from string'),
    ('"a".matches("(?=a)")', "error parsing regexp: invalid or unsupported Perl syntax in '(?=a)'"),
])
def test_runtime_errors(expression, message):
    compiled = compile(f"dyn({expression}) == dyn({expression})")
    assert not isinstance(compiled, CelError), compiled
    with pytest.raises(CelRuntimeError) as err:
        compiled.evaluate(DEVICE)
    assert str(err.value) == message


@pytest.mark.parametrize("expression,message", [
    ("[1, 2.0].size() == 2", "expected type 'int' but found 'double'"),
    ('[device.attributes["gpu.nvidia.com"].productName, "x"].size() == 2', "expected type 'any' but found 'string'"),
    ('quantity("1").sign() == 1', "found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'"),
    ("[[1], [2]].isSorted()", "found no matching overload for 'isSorted' applied to 'list(list(int)).()'"),
    ('sets.contains([1], ["a"])',
     "found no matching overload for 'sets.contains' applied to '(list(int), list(string))'"),
    ("[1, 2].existsOne(x, x == 1)", "undeclared reference to 'existsOne' (in container '')"),
])
def test_what_upstream_refuses_to_compile(expression, message):
    """Each refused by upstream's compiler too (oracle cel, 1.36.3): the Kubernetes base environment's
    homogeneous aggregate literals, attributes typed `any`, `sign` declared as a global function only, list
    functions declared for comparable elements, sets over one element type, `existsOne` only with two variables."""
    err = compile(expression)
    assert isinstance(err, CelError) and err.message == message and not err.unmodelled


def test_every_declared_function_is_implemented_or_named_unmodelled():
    declared = set(t.GLOBALS) | set(t.MEMBERS)
    assert declared - set(IMPLEMENTATIONS) - UNMODELLED == {"duration", "timestamp"} - UNMODELLED
    assert UNMODELLED <= declared and not (UNMODELLED & set(IMPLEMENTATIONS))
    assert set(IMPLEMENTATIONS) - declared == {"@sortByAssociatedKeys"}


def test_runtime_values_carry_their_kubernetes_types():
    assert type(value('quantity("1")')) is Quantity and type(value('semver("1.0.0")')) is Semver
    assert type(value('ip("::1")')) is IP and type(value('cidr("::/0")')) is CIDR and type(value('url("/")')) is URL
    assert type(value("optional.of(1)")) is Optional

"""A seeded corpus of DRA CEL selectors and devices for the differential test against upstream's environment
(`oracle cel`, tests/oracle/test_cel_oracle.py).

Two kinds of expression:

* value checks: a device-independent term `T` (every function of the environment, with edge-case arguments:
  empty strings, non-ASCII text, negative and out-of-range indexes, overflow, wrong types) becomes
  `T == L && type(T) == type(L)` where `L` is wasplan's value for `T` written as a CEL literal, so upstream
  answers true exactly when it computes the same value of the same type. A term wasplan cannot evaluate (a
  runtime error) is sent as `T == T`: upstream must fail too. A term that does not compile in wasplan is sent
  as it is: upstream must refuse it too.
* device predicates: boolean selectors reading the generated devices (attributes of every kind, capacities,
  unknown domains and missing names, presence tests, optional chaining, macros over the device's maps), whose
  verdict per device (match, no match, runtime error) must be upstream's.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

from wasplan.cel.values import CIDR, IP, URL, CelType, Optional, Quantity, Semver, UInt

DRIVER = "gpu.example.com"
STRINGS = ['""', '"a"', '"Hello World"', '"  padded\\t "', '"a,b,,c"', '"ÄÖü straße"', '"日本語テキスト"',
           '"NVIDIA A100-SXM4-40GB"', '"x.y.z"', '"%d%%"', '"aaa"', '"\\u00e9t\\u00e9"']
INTS = ["0", "1", "2", "3", "5", "-1", "-2", "12", "100", "9223372036854775807", "-9223372036854775808"]
LISTS = ["[]", "[1, 2, 3]", "[3, 1, 2]", "[1.5, 2.0, -0.5]", '["b", "a", "c"]', "[1, [2, [3, [4]]]]",
         "[true, false]", "[1u, 2u]", "[1, 1, 2, 1]", '["a", "a"]', "[[1], [1], [2]]", "[1, 2.0]"]
REGEXES = ['"^a"', '"[0-9]+"', '"(?i)hello"', '"\\\\d{2}"', '"a|b"', '"^$"', '"[[:alpha:]]+"', '"(a"', '"x*"',
           '"(?=a)"', '"\\\\w+"', '"\\\\s"']
QUANTITIES = ['"1"', '"1.5Gi"', '"500m"', '"80Gi"', '"1e3"', '"-2"', '"0.1"', '"1Ki"', '"10 Gi"', '"abc"',
              '"9223372036854775807"', '"1e20"', '"1.0"', '"999999999999999999"', '"1Ki"', '"0"']
SEMVERS = ['"1.2.3"', '"1.2.3-rc.1"', '"1.2.3-rc.1+build.5"', '"v1.2"', '"1.0"', '"01.2.3"', '"2.0.0-alpha"',
           '"2.0.0-alpha.1"', '"1.2.3+meta"', '"x"']
IPS = ['"10.0.0.1"', '"::1"', '"127.0.0.1"', '"0.0.0.0"', '"169.254.1.1"', '"fe80::1"', '"224.0.0.1"',
       '"ff02::1"', '"2001:db8::0:1"', '"1.2.3.04"', '"::ffff:1.2.3.4"', '"fe80::1%eth0"', '"255.255.255.255"',
       '"8.8.8.8"', '"2001:DB8::1"']
CIDRS = ['"10.0.0.0/8"', '"10.1.2.3/8"', '"192.168.0.0/16"', '"2001:db8::/32"', '"10.0.0.0/33"', '"10.0.0.0"',
         '"0.0.0.0/0"', '"::/0"', '"10.0.0.0/08"']
SEPARATORS = ['","', '""', '" "']
IP_MEMBERS = ["family", "isLoopback", "isUnspecified", "isGlobalUnicast", "isLinkLocalMulticast", "isLinkLocalUnicast"]
URL_MEMBERS = ["getScheme", "getHost", "getHostname", "getPort", "getEscapedPath", "getQuery"]
URLS = ['"https://user@example.com:8080/a%20b/c?x=1&y=2&x=3"', '"http://[::1]:80/"', '"/just/a/path"',
        '"not a url"', '"example.com"', '"https://example.com"', '"ftp://h/p?q"', '"https://example.com/a b"']


def _pick(rng: random.Random, pool: list[str]) -> str:
    return rng.choice(pool)


def value_terms(rng: random.Random, rounds: int) -> list[str]:
    """Device-independent terms over every function and macro, `rounds` random instances per template."""
    s, i, lst = (lambda: _pick(rng, STRINGS)), (lambda: _pick(rng, INTS[:8])), (lambda: _pick(rng, LISTS))
    templates = [
        lambda: f"{s()}.charAt({i()})", lambda: f"{s()}.indexOf({s()})", lambda: f"{s()}.indexOf({s()}, {i()})",
        lambda: f"{s()}.lastIndexOf({s()})", lambda: f"{s()}.lastIndexOf({s()}, {i()})",
        lambda: f"{s()}.lowerAscii()", lambda: f"{s()}.upperAscii()", lambda: f"{s()}.replace({s()}, {s()})",
        lambda: f"{s()}.replace({s()}, {s()}, {i()})", lambda: f"{s()}.split({rng.choice(SEPARATORS)})",
        lambda: f'{s()}.split(",", {i()})', lambda: f"{s()}.substring({i()})",
        lambda: f"{s()}.substring({i()}, {i()})", lambda: f"{s()}.trim()", lambda: f"{s()}.reverse()",
        lambda: f"{s()}.size()", lambda: f"size({s()})", lambda: f"{s()}.contains({s()})",
        lambda: f"{s()}.startsWith({s()})", lambda: f"{s()}.endsWith({s()})",
        lambda: f"strings.quote({s()})", lambda: f'["a", {s()}].join()', lambda: f'["a", {s()}].join({s()})',
        lambda: f"{s()}.matches({_pick(rng, REGEXES)})", lambda: f"{s()}.find({_pick(rng, REGEXES)})",
        lambda: f"{s()}.findAll({_pick(rng, REGEXES)})", lambda: f"{s()}.findAll({_pick(rng, REGEXES)}, {i()})",
        lambda: rng.choice(['"%s and %d".format(["x", 3])', '"%.2f|%e".format([3.14159, 1234.5])',
                            '"%x %X %o %b".format([255, 255, 8, 5])', '"%s".format([[1, "a"]])',
                            '"%d".format(["x"])', '"%s %s".format([1])', '"%s".format([{"b": 1, "a": 2}])',
                            '"%s".format([1.5])', '"%s".format([true, null])', '"%x".format(["hi"])',
                            '"%.3f".format([2])', '"%s".format([b"ab"])', '"%s".format([3u])']),
        lambda: f"{lst()}.isSorted()", lambda: f"{lst()}.sum()", lambda: f"{lst()}.min()", lambda: f"{lst()}.max()",
        lambda: f"{lst()}.indexOf(1)", lambda: f"{lst()}.lastIndexOf(1)", lambda: f"{lst()}.slice({i()}, {i()})",
        lambda: f"{lst()}.flatten()", lambda: f"{lst()}.flatten({i()})", lambda: f"{lst()}.sort()",
        lambda: f"{lst()}.reverse()", lambda: f"{lst()}.distinct()", lambda: f"lists.range({i()})",
        lambda: f"{lst()}.first()", lambda: f"{lst()}.last()", lambda: f"{lst()}.size()",
        lambda: f"{lst()}.sortBy(x, -x)" if rng.random() < 0.5 else '["bb", "a", "ccc"].sortBy(x, x.size())',
        lambda: f"sets.contains({lst()}, {lst()})", lambda: f"sets.equivalent({lst()}, {lst()})",
        lambda: f"sets.intersects({lst()}, {lst()})",
        lambda: f"{lst()}.all(x, x == 1)", lambda: f"{lst()}.exists(x, x == 1)",
        lambda: f"{lst()}.exists_one(x, x == 1)", lambda: f"{lst()}.existsOne(x, x == 1)",
        lambda: f"{lst()}.map(x, [x])", lambda: f"{lst()}.map(x, x != 2, x)", lambda: f"{lst()}.filter(x, x != 1)",
        lambda: f"{lst()}.all(i, v, i >= 0)", lambda: f"{lst()}.transformList(i, v, i)",
        lambda: f"{lst()}.transformList(i, v, i > 0, [v])", lambda: '{"a": 1, "b": 2}.transformMap(k, v, v * 2)',
        lambda: '{"a": 1, "b": 2}.transformMapEntry(k, v, {v: k})', lambda: '{"a": 1}.exists(k, v, v == 1)',
        lambda: f"cel.bind(x, {s()}, x + x)", lambda: f"cel.bind(x, {lst()}, x.size() + 1)",
        lambda: rng.choice(["[0, 1].exists(x, 1 / x > 0)", "[1, 0].all(x, 1 / x > 0)", "[0, 1].all(x, 1 / x > 0)",
                            "false && 1 / 0 == 1", "1 / 0 == 1 || true", "1 / 0 == 1 && false",
                            "true && 1 / 0 == 1", "[1, 0].exists_one(x, 1 / x > 0)", "[1, 2].map(x, 1 / (x - 1))",
                            "1 / 0 == 1 || 2 / 0 == 1"]),
        lambda: rng.choice(['int("12")', 'int(" 1")', 'int("+3")', "int(1.9)", "int(-1.9)", "int(1e19)", "uint(-1)",
                            'uint("18446744073709551615")', 'double("1e3")', 'double("inf")', 'double(" 1")',
                            "string(1.0)", "string(1e21)", "string(1e20)", "string(0.000001)", "string(0.0001)",
                            "string(123456789.0)", "string(-0.0)", 'bool("t")', 'bool("yes")', 'bytes("é")',
                            'string(b"\\xff")', "type(1u) == uint", "type([]) == list", "string(3u)", "int(3u)",
                            "double(9223372036854775807)", "string(2.5e-7)", "dyn(1) == 1.0", "string(true)",
                            "int(-9223372036854775808.0)", "uint(1.5)", 'int("0x10")', "string(1.0/3.0)"]),
        lambda: rng.choice(["9223372036854775807 + 1", "-9223372036854775808 / -1", "7 / -2", "-7 % 3", "7 % -3",
                            "1.0 / 0.0", "-1.0 / 0.0", "1u - 2u", "2u * 9223372036854775808u", "5 / 0", "5 % 0",
                            "1 < 1.5", "1u == 1", "1 == 1.0", "[1] == [1.0]", '{1: "a"}[1u]', '{1: "a"}[2]',
                            "1 < 1u", "2.0 > 1u", '"a" < "b"', 'b"a" < b"b"', "false < true",
                            '[1, "a"] == [1, "a"]',
                            '{"a": 1} == {"a": 1.0}', "null == null", "-(-9223372036854775807 - 1)", "3.0 % 2.0",
                            "[1, 2] + [3]", '"a" + "b"', "1 in [1.0]", '"a" in {"a": 1}', "2 in {1: 2}",
                            "0.1 + 0.2", "1e308 * 10.0", "[1,2][2]", "[1,2][-1]", "[1,2][1.0]", '{"a": 1}.b']),
        lambda: f"quantity({_pick(rng, QUANTITIES)})", lambda: f"isQuantity({_pick(rng, QUANTITIES)})",
        lambda: f"quantity({_pick(rng, QUANTITIES[:8])}).add(quantity({_pick(rng, QUANTITIES[:8])}))",
        lambda: f"quantity({_pick(rng, QUANTITIES[:8])}).sub({i()})",
        lambda: f"quantity({_pick(rng, QUANTITIES[:8])}).compareTo(quantity({_pick(rng, QUANTITIES[:8])}))",
        lambda: f"quantity({_pick(rng, QUANTITIES[:8])}).isGreaterThan(quantity({_pick(rng, QUANTITIES[:8])}))",
        lambda: f"quantity({_pick(rng, QUANTITIES)}).isInteger()",
        lambda: f"quantity({_pick(rng, QUANTITIES)}).asInteger()",
        lambda: f"quantity({_pick(rng, QUANTITIES[:8])}).asApproximateFloat()",
        lambda: f"sign(quantity({_pick(rng, QUANTITIES[:8])}))", lambda: 'quantity("1").sign()',
        lambda: f"semver({_pick(rng, SEMVERS)})", lambda: f"semver({_pick(rng, SEMVERS)}, true)",
        lambda: f"isSemver({_pick(rng, SEMVERS)})", lambda: f"isSemver({_pick(rng, SEMVERS)}, true)",
        lambda: f"semver({_pick(rng, SEMVERS[:3])}).compareTo(semver({_pick(rng, SEMVERS[:3])}))",
        lambda: f"semver({_pick(rng, SEMVERS[:3])}) == semver({_pick(rng, SEMVERS[:3])})",
        lambda: f"semver({_pick(rng, SEMVERS)}, true).{rng.choice(['major', 'minor', 'patch'])}()",
        lambda: f"semver({_pick(rng, SEMVERS[:3])}).isLessThan(semver({_pick(rng, SEMVERS[6:8])}))",
        lambda: f"ip({_pick(rng, IPS)})", lambda: f"isIP({_pick(rng, IPS)})",
        lambda: f"ip.isCanonical({_pick(rng, IPS)})",
        lambda: f"ip({_pick(rng, IPS)}).{rng.choice(IP_MEMBERS)}()",
        lambda: f"string(ip({_pick(rng, IPS)}))", lambda: f"cidr({_pick(rng, CIDRS)})",
        lambda: f"isCIDR({_pick(rng, CIDRS)})", lambda: f"cidr({_pick(rng, CIDRS)}).containsIP({_pick(rng, IPS)})",
        lambda: f"cidr({_pick(rng, CIDRS)}).containsIP(ip({_pick(rng, IPS)}))",
        lambda: f"cidr({_pick(rng, CIDRS)}).containsCIDR({_pick(rng, CIDRS)})",
        lambda: f"cidr({_pick(rng, CIDRS)}).{rng.choice(['prefixLength', 'masked', 'ip'])}()",
        lambda: f"string(cidr({_pick(rng, CIDRS)}).masked())", lambda: f"url({_pick(rng, URLS)})",
        lambda: f"isURL({_pick(rng, URLS)})",
        lambda: f"url({_pick(rng, URLS)}).{rng.choice(URL_MEMBERS)}()",
        lambda: rng.choice(["optional.of(1).value()", "optional.none().orValue(2)",
                            "optional.ofNonZeroValue(0).hasValue()",
                            'optional.ofNonZeroValue("").hasValue()', 'optional.ofNonZeroValue("a").value()',
                            '{"a": 1}.?a.value()', '{"a": 1}[?"b"].hasValue()', "[1, 2][?5].orValue(0)",
                            "optional.none().or(optional.of(3)).value()", "optional.none().value()",
                            '{"a": {"b": 1}}.?a.b.orValue(0)', '{"a": {"b": 1}}.?a.?c.orValue(7)',
                            "optional.unwrap([optional.of(1), optional.none()])", "[1][?0].value()",
                            "optional.of(1) == optional.of(1)", "optional.none() == optional.none()"]),
        lambda: rng.choice(['"a".charAt("b")', '1 + "a"', '"a".lowerAscii(1)', "sets.contains(1, [1])", "quantity(1)",
                            '"a" == 1', "[1].sum() + \"x\"", "lists.range(\"3\")", "unknownFn(1)", "x.y",
                            '"abc".split()', 'semver("1.0.0").major(1)', 'ip("1.2.3.4").family(1)',
                            '{"a": 1}.transformMap(k, k)', "[1, 2].map(x)", "cel.bind(1, 2, 3)", "has(1)",
                            '"a".substring()', "[1, \"a\"]", '{1: 1, "a": 2}', "1 ? 2 : 3", "!1", "-\"a\"",
                            "device.nope", "device.exists(k, true)", "1 in 1", "[1].flatten(\"a\")",
                            'duration("1s")',
                            'timestamp("2026-01-01T00:00:00Z") < timestamp("2027-01-01T00:00:00Z")']),
    ]
    return [template() for template in templates for _ in range(rounds)]


def predicates(rng: random.Random, rounds: int) -> list[str]:
    """Boolean selectors over the generated devices."""
    a, c = f'device.attributes["{DRIVER}"]', f'device.capacity["{DRIVER}"]'
    templates = [
        lambda: f'{a}.model.lowerAscii().matches("{rng.choice(["^nvidia a100.*$", "^a1", "h100", "^$"])}")',
        lambda: f'{a}.model.upperAscii().contains("A100")',
        lambda: f'{a}.model.split("-").size() > {rng.randint(0, 3)}',
        lambda: f'{a}.model.indexOf("{rng.choice(["A", "-", "x"])}") >= {rng.randint(-1, 3)}',
        lambda: f'{a}.model.substring({rng.randint(0, 8)}).startsWith("{rng.choice(["A", "1", ""])}")',
        lambda: f"{a}.cores {rng.choice(['>', '<', '==', '>='])} {rng.choice(['64', '108', '64.5', '100u'])}",
        lambda: f"{a}.mig", lambda: f"has({a}.mig)", lambda: f"has({a}.{rng.choice(['model', 'absent'])})",
        lambda: f'has(device.attributes["{rng.choice(["other.io", "numa.example.com"])}"].x)',
        lambda: f'"{rng.choice(["other.io", "numa.example.com", DRIVER])}" in device.attributes',
        lambda: f'device.attributes["numa.example.com"].node == {rng.randint(0, 2)}',
        lambda: f'device.attributes["{rng.choice(["other.io", "numa.example.com"])}"].{rng.choice(["x", "node"])} == 1',
        lambda: f"{a}.driverVersion.isGreaterThan(semver(\"{rng.choice(['1.0.0', '2.0.0-rc.1', '2.0.0'])}\"))",
        lambda: f"{a}.driverVersion.major() == {rng.randint(1, 3)}",
        lambda: f'{c}.memory.compareTo(quantity("{rng.choice(["40Gi", "80Gi", "1Ti", "81920Mi"])}")) '
                f'{rng.choice([">=", "==", "<"])} 0',
        lambda: f'{c}.memory.isGreaterThan(quantity("48Gi"))', lambda: f"{c}.memory.asInteger() > 1000",
        lambda: f"{c}.{rng.choice(['memory', 'absent'])}.isInteger()",
        lambda: f'{a}.?model.orValue("") == "{rng.choice(["A100", "a100"])}"',
        lambda: f"{a}.?absent.orValue({rng.randint(0, 2)}) == 1",
        lambda: f'device.attributes["other.io"].?x.hasValue()',
        lambda: 'device.attributes.exists(d, d.startsWith("numa"))',
        lambda: f"device.attributes.size() == {rng.randint(1, 2)}",
        lambda: f"{a}.all(k, k.size() > 2)", lambda: f"{a}.exists(k, v, k == \"cores\" && v == 108)",
        lambda: f"device.allowMultipleAllocations", lambda: f'device.driver.split(".").size() == 3',
        lambda: f'cel.bind(m, {a}.model, m.lowerAscii() == m || m.size() > 3)',
        lambda: f'isIP({a}.ip) && ip({a}.ip).family() == 4', lambda: f'cidr("10.0.0.0/8").containsIP({a}.ip)',
        lambda: f'{a}.ip.startsWith("10.")', lambda: f'url({a}.endpoint).getPort() == "8443"',
        lambda: f'"%s-%d".format([{a}.model, {a}.cores]).size() > 5',
        lambda: f"sets.contains([{a}.model], [\"A100\"])", lambda: f"[{a}.cores, 1].max() > 100",
        lambda: f"{a}.model.size() > 3 && {a}.absent == 1", lambda: f"{a}.absent == 1 || {a}.model.size() > 3",
        lambda: f"{a}.model", lambda: f"{a}.cores + 9223372036854775807 > 0",
    ]
    return [template() for template in templates for _ in range(rounds)]


def devices(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Devices in the oracle's input shape (resource.k8s.io/v1 DeviceAttribute / DeviceCapacity)."""
    out = []
    for k in range(n):
        attributes: dict[str, Any] = {
            "model": {"string": rng.choice(["NVIDIA A100-SXM4-40GB", "A100", "h100", "ÄÖü", ""])},
            "cores": {"int": rng.choice([64, 108, 132, -1])},
            "driverVersion": {"version": rng.choice(["1.2.3", "2.0.0-rc.1", "2.0.0", "3.1.0+build"])},
            "ip": {"string": rng.choice(["10.1.2.3", "192.168.0.1", "::1", "not-an-ip"])},
            "endpoint": {"string": rng.choice(["https://h.example.com:8443/x", "http://h/", "bad url"])},
        }
        if rng.random() < 0.6:
            attributes["mig"] = {"bool": rng.random() < 0.5}
        if rng.random() < 0.6:
            attributes["numa.example.com/node"] = {"int": rng.randint(0, 2)}
        capacity = {"memory": {"value": rng.choice(["40Gi", "80Gi", "81920Mi", "1Ti", "1500m"])}}
        out.append({"driver": DRIVER if k % 5 else "nic.example.com", "allowMultipleAllocations": rng.random() < 0.5,
                    "attributes": attributes, "capacity": capacity})
    return out


def literal(value: Any) -> str | None:
    """`value` written as a CEL expression that evaluates to it (None when CEL has no such literal)."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is UInt:
        return f"{int(value)}u"
    if kind is int:
        return str(value) if value != -(2**63) else "-9223372036854775808"
    if kind is float:
        if math.isnan(value):
            return None
        if math.isinf(value):
            return 'double("inf")' if value > 0 else 'double("-inf")'
        text = repr(value)
        return text if any(ch in text for ch in ".e") else text + ".0"
    if kind is str:
        return json.dumps(value, ensure_ascii=False)
    if kind is bytes:
        return 'b"' + "".join(f"\\x{b:02x}" for b in value) + '"'
    if isinstance(value, (list, tuple)):
        items = [literal(v) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    if isinstance(value, dict):
        pairs = [(literal(k), literal(v)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return _special(value)


def _special(value: Any) -> str | None:
    kind = type(value)
    if kind is Quantity:
        return f'quantity("{_decimal(value.amount)}")' if _decimal(value.amount) else None
    if kind is Semver:
        return f'semver("{value.text}")'
    if kind in (IP, CIDR, URL):
        return f'{ {IP: "ip", CIDR: "cidr", URL: "url"}[kind]}("{value.text}")'
    if kind is Optional:
        inner = literal(value.value) if value.present else "x"
        return None if inner is None else (f"optional.of({inner})" if value.present else "optional.none()")
    if kind is CelType and value.name in ("int", "uint", "double", "bool", "string", "bytes", "list", "map",
                                           "null_type", "type"):
        return value.name
    return None


def _decimal(amount: Fraction) -> str | None:
    """The exact decimal text of a quantity's amount, or None when it has no finite decimal expansion."""
    den = amount.denominator
    scale = 0
    while den % 10 == 0 or den % 2 == 0 or den % 5 == 0:
        if den % 10 == 0:
            den //= 10
        elif den % 2 == 0:
            den //= 2
        else:
            den //= 5
        scale += 1
    if den != 1:
        return None
    digits = amount * 10**scale
    assert digits.denominator == 1
    sign = "-" if digits < 0 else ""
    text = str(abs(digits.numerator)).rjust(scale + 1, "0")
    return sign + (text[:-scale] + "." + text[-scale:] if scale else text)

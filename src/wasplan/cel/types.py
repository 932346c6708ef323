"""CEL types and the function declarations of the Kubernetes DRA selector environment, for the static checker.

Types are strings (`int`, `string`, `dyn`, `kubernetes.Quantity`, ...) or tuples `("list", T)`,
`("map", K, V)`, `("optional", T)`. The declarations follow cel-go's standard library and the Kubernetes
libraries a stored selector may call (k8s.io/apiserver `pkg/cel/library`: lists, regex, quantity, semver,
URLs, IP/CIDR, format; cel-go `ext` strings and `cel.bind`), as `k8s.io/dynamic-resource-allocation`
`cel/compile.go` composes them. A parameter `*` accepts any type; `T` is the receiver list's element type.

Sizes (`DEVICE_SIZES`) are upstream's bounds for the cost estimator (`compile.go`: attribute values at most
64 elements, domains 63 characters, ids 32, driver names 63, at most 32 attributes and capacities per device).
"""

from __future__ import annotations

from typing import Union

Type = Union[str, tuple]

DYN, BOOL, INT, UINT, DOUBLE = "dyn", "bool", "int", "uint", "double"
STRING, BYTES, NULL = "string", "bytes", "null_type"
QUANTITY, SEMVER, DEVICE, TYPE = "kubernetes.Quantity", "kubernetes.Semver", "kubernetes.DRADevice", "type"
NUMERIC = (INT, UINT, DOUBLE)

ATTRIBUTE_VALUE_SIZE, DOMAIN_SIZE, ID_SIZE, DRIVER_SIZE, MAP_SIZE = 64, 63, 32, 63, 32


def list_of(elem: Type) -> tuple:
    return ("list", elem)


def map_of(key: Type, value: Type) -> tuple:
    return ("map", key, value)


def kind(t: Type) -> str:
    return t[0] if isinstance(t, tuple) else t


def name(t: Type) -> str:
    """cel-go's spelling of a type in messages: `map(string, dyn)`, `list(int)`."""
    if isinstance(t, tuple):
        return f"{t[0]}({', '.join(name(p) for p in t[1:])})"
    return t


ATTRIBUTES_INNER = ("map", STRING, DYN)  # one domain's attributes: id -> value
# device.<field> -> (type, maximum size of the value)
DEVICE_FIELDS: dict[str, tuple[Type, int | None]] = {
    "driver": (STRING, DRIVER_SIZE),
    "attributes": (map_of(STRING, map_of(STRING, DYN)), MAP_SIZE),
    "capacity": (map_of(STRING, map_of(STRING, QUANTITY)), MAP_SIZE),
    "allowMultipleAllocations": (BOOL, None),
}

_S, _I, _B, _ANY = STRING, INT, BOOL, "*"
# Global functions: name -> [(params, result)].
GLOBALS: dict[str, list[tuple[tuple, Type]]] = {
    "size": [((STRING,), INT), ((BYTES,), INT), (("list",), INT), (("map",), INT)],
    "int": [((_ANY,), INT)], "uint": [((_ANY,), UINT)], "double": [((_ANY,), DOUBLE)],
    "string": [((_ANY,), STRING)], "bytes": [((_ANY,), BYTES)], "bool": [((_ANY,), BOOL)],
    "dyn": [((_ANY,), DYN)], "type": [((_ANY,), TYPE)],
    "duration": [((_S,), "google.protobuf.Duration")], "timestamp": [((_S,), "google.protobuf.Timestamp")],
    "matches": [((_S, _S), BOOL)],
    "quantity": [((_S,), QUANTITY)], "isQuantity": [((_S,), BOOL)],
    "semver": [((_S,), SEMVER), ((_S, _B), SEMVER)], "isSemver": [((_S,), BOOL), ((_S, _B), BOOL)],
    "url": [((_S,), "kubernetes.URL")], "isURL": [((_S,), BOOL)],
    "ip": [((_S,), "net.IP")], "isIP": [((_S,), BOOL)], "cidr": [((_S,), "net.CIDR")], "isCIDR": [((_S,), BOOL)],
    "ip.isCanonical": [((_S,), BOOL)], "sign": [((QUANTITY,), INT)],
    "sets.contains": [(("list", "list"), BOOL)], "sets.equivalent": [(("list", "list"), BOOL)],
    "sets.intersects": [(("list", "list"), BOOL)], "lists.range": [((_I,), list_of(INT))],
    "strings.quote": [((_S,), STRING)], "optional.unwrap": [(("list",), list_of(DYN))],
    "optional.of": [((_ANY,), ("optional", "A"))],
    "optional.ofNonZeroValue": [((_ANY,), ("optional", "A"))], "optional.none": [((), ("optional", DYN))],
    "format.named": [((_S,), ("optional", "kubernetes.NamedFormat"))],
}

# Member functions: name -> [(receiver kind, params, result)]; result "T" = the receiver's element type,
# "R" = the receiver's own type.
MEMBERS: dict[str, list[tuple[str, tuple, Type]]] = {
    "size": [(STRING, (), INT), (BYTES, (), INT), ("list", (), INT), ("map", (), INT)],
    "contains": [(STRING, (_S,), BOOL)], "startsWith": [(STRING, (_S,), BOOL)], "endsWith": [(STRING, (_S,), BOOL)],
    "matches": [(STRING, (_S,), BOOL)], "find": [(STRING, (_S,), STRING)],
    "findAll": [(STRING, (_S,), list_of(STRING)), (STRING, (_S, _I), list_of(STRING))],
    "lowerAscii": [(STRING, (), STRING)], "upperAscii": [(STRING, (), STRING)], "trim": [(STRING, (), STRING)],
    "replace": [(STRING, (_S, _S), STRING), (STRING, (_S, _S, _I), STRING)],
    "split": [(STRING, (_S,), list_of(STRING)), (STRING, (_S, _I), list_of(STRING))],
    "substring": [(STRING, (_I,), STRING), (STRING, (_I, _I), STRING)], "charAt": [(STRING, (_I,), STRING)],
    "indexOf": [(STRING, (_S,), INT), (STRING, (_S, _I), INT), ("list", ("T",), INT)],
    "lastIndexOf": [(STRING, (_S,), INT), (STRING, (_S, _I), INT), ("list", ("T",), INT)],
    "format": [(STRING, ("list",), STRING)], "reverse": [(STRING, (), STRING), ("list", (), "R")],
    "join": [("list", (), STRING), ("list", (_S,), STRING)],
    "isSorted": [("list", (), BOOL)], "sum": [("list", (), "T")], "min": [("list", (), "T")],
    "max": [("list", (), "T")], "slice": [("list", (_I, _I), "R")], "distinct": [("list", (), "R")],
    "flatten": [("list", (), list_of(DYN)), ("list", (_I,), list_of(DYN))], "sort": [("list", (), "R")],
    "includes": [("list", ("T",), BOOL)],
    "isInteger": [(QUANTITY, (), BOOL)], "asInteger": [(QUANTITY, (), INT)],
    "asApproximateFloat": [(QUANTITY, (), DOUBLE)],
    "add": [(QUANTITY, (QUANTITY,), QUANTITY), (QUANTITY, (_I,), QUANTITY)],
    "sub": [(QUANTITY, (QUANTITY,), QUANTITY), (QUANTITY, (_I,), QUANTITY)],
    "compareTo": [(QUANTITY, (QUANTITY,), INT), (SEMVER, (SEMVER,), INT)],
    "isGreaterThan": [(QUANTITY, (QUANTITY,), BOOL), (SEMVER, (SEMVER,), BOOL)],
    "isLessThan": [(QUANTITY, (QUANTITY,), BOOL), (SEMVER, (SEMVER,), BOOL)],
    "major": [(SEMVER, (), INT)], "minor": [(SEMVER, (), INT)], "patch": [(SEMVER, (), INT)],
    "orValue": [("optional", ("T",), "T")], "hasValue": [("optional", (), BOOL)], "value": [("optional", (), "T")],
    "or": [("optional", ("R",), "R")], "first": [("list", (), ("optional", "T"))],
    "last": [("list", (), ("optional", "T"))], "unwrapOpt": [("list", (), list_of(DYN))],
    "validate": [("kubernetes.NamedFormat", (_S,), ("optional", list_of(STRING)))],
    "getScheme": [("kubernetes.URL", (), STRING)], "getHost": [("kubernetes.URL", (), STRING)],
    "getHostname": [("kubernetes.URL", (), STRING)], "getPort": [("kubernetes.URL", (), STRING)],
    "getEscapedPath": [("kubernetes.URL", (), STRING)], "getQuery": [("kubernetes.URL", (), DYN)],
    "family": [("net.IP", (), INT)], "isLoopback": [("net.IP", (), BOOL)], "isUnspecified": [("net.IP", (), BOOL)],
    "isGlobalUnicast": [("net.IP", (), BOOL)], "isLinkLocalMulticast": [("net.IP", (), BOOL)],
    "isLinkLocalUnicast": [("net.IP", (), BOOL)], "ip": [("net.CIDR", (), "net.IP")],
    "containsIP": [("net.CIDR", (_ANY,), BOOL)], "containsCIDR": [("net.CIDR", (_ANY,), BOOL)],
    "prefixLength": [("net.CIDR", (), INT)], "masked": [("net.CIDR", (), "net.CIDR")],
}

MACROS = frozenset({"all", "exists", "exists_one", "existsOne", "map", "filter", "transformList", "transformMap",
                    "transformMapEntry", "sortBy"})
KNOWN_FUNCTIONS = frozenset(GLOBALS) | frozenset(MEMBERS) | MACROS | {"has", "bind"}


def assignable(param: Type, arg: Type) -> bool:
    """Whether an argument of type `arg` may be passed where `param` is declared (dyn fits everywhere)."""
    if param == "*" or arg == DYN or param == DYN:
        return True
    if isinstance(param, str) and param in ("list", "map"):
        return kind(arg) == param
    if isinstance(param, tuple) and isinstance(arg, tuple) and param[0] == arg[0] and len(param) == len(arg):
        return all(assignable(p, a) for p, a in zip(param[1:], arg[1:]))
    return param == arg or (arg == NULL and kind(param) in ("optional",))


def join(a: Type, b: Type) -> Type | None:
    """The common type of two branches or list elements; None when they cannot meet."""
    if a == b:
        return a
    if a == DYN or b == DYN:
        return DYN
    if a == NULL or b == NULL:
        return b if a == NULL else a
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] and len(a) == len(b):
        parts = [join(x, y) for x, y in zip(a[1:], b[1:])]
        return None if None in parts else (a[0], *parts)
    return None

# Timestamp and duration accessors (cel-go stdlib): declared so `validate` types them as the API server does; the
# planner does not evaluate them (`wasplan.cel.library.UNMODELLED`).
_TIMESTAMP, _DURATION = "google.protobuf.Timestamp", "google.protobuf.Duration"
for _name in ("getFullYear", "getMonth", "getDayOfYear", "getDayOfMonth", "getDate", "getDayOfWeek", "getHours",
              "getMinutes", "getSeconds", "getMilliseconds"):
    MEMBERS[_name] = [(_TIMESTAMP, (), INT), (_TIMESTAMP, (_S,), INT)]
    if _name in ("getHours", "getMinutes", "getSeconds", "getMilliseconds"):
        MEMBERS[_name].append((_DURATION, (), INT))
KNOWN_FUNCTIONS = KNOWN_FUNCTIONS | frozenset(MEMBERS)

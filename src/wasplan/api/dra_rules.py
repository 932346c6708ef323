"""Server-side rules of `resource.k8s.io` objects that both `wasplan validate` and the plan's DRA reader apply.

One implementation per rule: each function takes plain (possibly malformed) values and returns `Problem`s with
a message and a field path relative to what it was given; `wasplan.validate.rules.dra*` reports them as
WAS22x, `wasplan.cluster.parse_claim` / `parse_slice` as the plan's WAS64x. Nothing here knows YAML or
diagnostics. Followed: k/k `pkg/apis/resource/validation/validation.go` (master `009801d9`, 1.37 development):
`validateDeviceRequest`, `validateDeviceAllocationMode`, `validateDeviceConstraint`, `validateRequestNameRef`,
`validateQualifiedName` / `validateFullyQualifiedName`, `validateResourcePool`, the node-selection union of
`validateResourceSliceSpec`, `validateDeviceAttribute`; limits from `k8s.io/api` `resource/v1/types.go`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wasplan.api.names import is_dns_label, is_dns_subdomain
from wasplan.api.semver import is_semver

EXACT_COUNT, ALL = "ExactCount", "All"
SCALAR_ATTRIBUTES = ("int", "bool", "string", "version")
LIST_ATTRIBUTES = ("ints", "bools", "strings", "versions")  # DRAListTypeAttributes (alpha)
ATTRIBUTE_VALUE_MAX = 64  # DeviceAttributeMaxValueLength
ID_MAX, DOMAIN_MAX = 32, 63  # DeviceMaxIDLength, DeviceMaxDomainLength
SUBREQUESTS_MAX = 8  # FirstAvailableDeviceRequestMaxSize (also the base of the scheduler's firstAvailable score)

_C_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Problem:
    message: str
    path: tuple = ()
    hint: str | None = None


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def selector_cel(selector: Any) -> Problem | None:
    """`validateSelector`: a device selector needs `cel` with a string `expression`; the hint names the usual slip
    (`expression` indented beside `cel:`)."""
    cel = selector.get("cel") if isinstance(selector, dict) else None
    if isinstance(cel, dict) and isinstance(cel.get("expression"), str):
        return None
    misplaced = isinstance(selector, dict) and "expression" in selector
    return Problem("device selector has no cel expression (the API server requires selectors[].cel)",
                   ("cel",) if isinstance(selector, dict) and "cel" in selector else (),
                   "`expression` belongs under `cel:`: indent it one level deeper" if misplaced
                   else "write `- cel: {expression: '...'}`")


def too_many(entries: list, limit: int, what: str) -> Problem | None:
    """`validateSlice`/`validateSet`: a list longer than its limit (reported instead of its items)."""
    if len(entries) <= limit:
        return None
    return Problem(f"{len(entries)} {what}, more than the limit of {limit}")


def request_union(raw: dict, name: Any) -> Problem | None:
    """A request sets exactly one of `exactly` and a non-empty `firstAvailable`."""
    exactly, first = raw.get("exactly"), raw.get("firstAvailable")
    if (exactly is None) == (first is None) or (first is not None and not first):
        return Problem(f"request {name!r} must set exactly one of exactly, firstAvailable (non-empty)")
    return None


def allocation(raw: dict, name: Any) -> list[Problem]:
    """`allocationMode` is ExactCount (the default, `count` > 0; 0 is not specified, which the API server's
    defaulting turns into 1: pkg/apis/resource/v1 SetDefaults_ExactDeviceRequest) or All (no `count`)."""
    mode, count = raw.get("allocationMode") or EXACT_COUNT, raw.get("count")
    if mode not in (EXACT_COUNT, ALL):
        return [Problem(f"request {name!r}: allocationMode {mode!r} must be ExactCount or All", ("allocationMode",))]
    if mode == ALL and count not in (None, 0):  # the API's int64 zero value is "not specified"
        return [Problem(f"request {name!r}: count must not be specified when allocationMode is All (All takes "
                        "every matching device)", ("count",))]
    if mode == EXACT_COUNT and is_int(count) and count < 0:
        return [Problem(f"request {name!r}: count must be greater than zero, got {count}", ("count",))]
    return []


def duplicates(names: list) -> list[tuple[int, str, int]]:
    """(index, name, index of its first use) for each string name that repeats an earlier one."""
    seen: dict[str, int] = {}
    out = []
    for i, name in enumerate(names):
        if isinstance(name, str) and name in seen:
            out.append((i, name, seen[name]))
        elif isinstance(name, str):
            seen[name] = i
    return out


def request_names(requests: Any) -> set[str]:
    """The names a constraint or config may refer to: every request, and `request/subrequest`."""
    names: set[str] = set()
    for request in requests if isinstance(requests, list) else ():
        if not isinstance(request, dict) or not isinstance(request.get("name"), str):
            continue
        names.add(request["name"])
        subs = request.get("firstAvailable")
        for sub in subs if isinstance(subs, list) else ():
            if isinstance(sub, dict) and isinstance(sub.get("name"), str):
                names.add(f"{request['name']}/{sub['name']}")
    return names


def constraint(raw: dict, known: set[str]) -> list[Problem]:
    """Exactly one of matchAttribute / distinctAttribute, a fully qualified name, and only requests the claim has."""
    match, distinct = raw.get("matchAttribute"), raw.get("distinctAttribute")
    if (match is None) == (distinct is None):
        return [Problem("a constraint must set exactly one of matchAttribute, distinctAttribute")]
    key = "matchAttribute" if match is not None else "distinctAttribute"
    attribute = raw[key]
    why = qualified_name(attribute, fully=True) if isinstance(attribute, str) else "it is not a string"
    if why:
        return [Problem(f"{key} must be a fully qualified attribute name (domain/name), got {attribute!r}: {why}",
                        (key,))]
    requests = raw.get("requests")
    for i, name in enumerate(requests if isinstance(requests, list) else ()):
        if isinstance(name, str) and name not in known:
            return [Problem(f"constraint names request {name!r}, which the claim does not have", ("requests", i))]
    return []


@lru_cache(maxsize=4096)
def qualified_name(name: str, fully: bool = False) -> str | None:
    """Why `name` is not a (fully) qualified attribute or capacity name: `[domain/]identifier`; None if it is."""
    domain, slash, ident = name.rpartition("/")
    if name.count("/") > 1:
        return "must not contain more than one slash"
    if fully and not slash:
        return "a fully qualified name must be a domain and a name separated by a slash"
    if slash and not domain:
        return "the domain must not be empty"
    if slash and (len(domain) > DOMAIN_MAX or not is_dns_subdomain(domain)):
        return f"the domain {domain!r} must be a DNS subdomain of at most {DOMAIN_MAX} characters"
    if not ident:
        return "the name must not be empty"
    if len(ident) > ID_MAX or not _C_IDENTIFIER.fullmatch(ident):
        return f"the name {ident!r} must be a C identifier (letters, digits, '_') of at most {ID_MAX} characters"
    return None


def driver_name(name: str) -> str | None:
    """`validateDriverName` (a CSI driver name): at most 63 characters, a DNS subdomain once lowercased."""
    if len(name) > 63 or not is_dns_subdomain(name.lower()):
        return (f"driver name {name!r} must be a DNS subdomain (lowercase letters, digits, '-' and '.') of at most "
                "63 characters, e.g. gpu.example.com")
    return None


def pool_name(name: str) -> str | None:
    """`validatePoolName`: at most 252 characters, '/'-separated DNS subdomains."""
    if len(name) > 252 or not all(is_dns_subdomain(part) for part in name.split("/")):
        return f"pool name {name!r} must be DNS subdomains separated by '/' (at most 252 characters)"
    return None


def request_reference(name: Any, known: set[str]) -> Problem | None:
    """A config's (or constraint's) `requests` entry names a request or `request/subrequest` of the claim."""
    if isinstance(name, str) and name not in known:
        return Problem(f"{name!r} is not a request of the claim (write a request name or request/subrequest)")
    return None


def node_selection(raw: dict, keys: tuple[str, ...], what: str) -> tuple[str | None, Problem | None]:
    """Exactly one of `keys` (a `false` boolean counts as unset); returns the chosen key or the problem."""
    chosen = [k for k in keys if raw.get(k) not in (None, False)]
    if len(chosen) == 1:
        return chosen[0], None
    return None, Problem(f"{what} must set exactly one of {', '.join(keys)}"
                         + (f", not {' and '.join(chosen)}" if chosen else ""))


def pool(spec: dict) -> list[Problem]:
    """`driver`, `pool.name`, `pool.generation` >= 0, `pool.resourceSliceCount` >= 1."""
    driver, raw = spec.get("driver"), spec.get("pool")
    raw = raw if isinstance(raw, dict) else {}
    if not isinstance(driver, str) or not driver:
        return [Problem("ResourceSlice has no spec.driver; it was left out", ("driver",))]
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        return [Problem("ResourceSlice has no spec.pool.name; it was left out", ("pool", "name"))]
    generation, count = raw.get("generation", 0), raw.get("resourceSliceCount")
    if not is_int(generation) or generation < 0:
        return [Problem(f"pool generation must be an integer >= 0, got {generation!r}", ("pool", "generation"))]
    if count is None:
        return [Problem("pool has no resourceSliceCount (an integer >= 1)", ("pool", "resourceSliceCount"))]
    if not is_int(count) or count < 1:
        return [Problem(f"pool resourceSliceCount must be an integer >= 1, got {count!r}",
                        ("pool", "resourceSliceCount"))]
    return []


_WORDS = {"int": (int, "an integer"), "bool": (bool, "true or false"), "string": (str, "a string"),
          "version": (str, "a string")}


_CLEAN = {
    "int": lambda v: is_int(v), "bool": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str) and len(v) <= ATTRIBUTE_VALUE_MAX,
    "version": lambda v: isinstance(v, str) and len(v) <= ATTRIBUTE_VALUE_MAX and is_semver(v),
}


def attribute(name: str, raw: Any, kinds: tuple[str, ...] = SCALAR_ATTRIBUTES) -> Problem | None:
    """One typed value of the right type; strings and versions at most 64 characters, versions semver."""
    if isinstance(raw, dict) and len(raw) == 1:  # the common, clean case without building lists
        (key, value), = raw.items()
        if key in kinds and key in _CLEAN and _CLEAN[key](value):
            return None
    present = [key for key in kinds if isinstance(raw, dict) and key in raw]
    if len(present) != 1:
        return Problem(f"attribute {name!r} must set exactly one of {', '.join(kinds)}")
    key = present[0]
    values = raw[key] if key in LIST_ATTRIBUTES else [raw[key]]
    if key in LIST_ATTRIBUTES and values == []:
        return Problem(f"attribute {name!r}: {key} must not be empty if specified", (key,))
    scalar = key.rstrip("s") if key in LIST_ATTRIBUTES else key
    expected, word = _WORDS[scalar]
    for value in values if isinstance(values, list) else [values]:
        if not isinstance(value, expected) or (scalar == "int" and isinstance(value, bool)):
            return Problem(f"attribute {name!r}: {key} must be {word}, got {value!r}", (key,))
        if scalar in ("string", "version") and len(value) > ATTRIBUTE_VALUE_MAX:
            return Problem(f"attribute {name!r}: {key} is {len(value)} characters long, more than "
                           f"{ATTRIBUTE_VALUE_MAX}", (key,))
        if scalar == "version" and not is_semver(value):
            return Problem(f"attribute {name!r}: {value!r} is not a semantic version (1.2.3)", (key,))
    return None

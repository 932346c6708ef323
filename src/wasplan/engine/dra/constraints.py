"""Claim constraints during the search: `matchAttribute` and `distinctAttribute`, undone on backtracking.

Follows `structured/internal/incubating/allocator_incubating.go` (`matchAttributeConstraint`, `lookupAttribute`)
and `constraint.go` (`distinctAttributeConstraint`), v0.36.0. A constraint applies to the devices of the requests
it names (`req` or `req/sub`; all requests when it names none). A device without the attribute is never allowed.
The attribute is looked up by its fully qualified name, or by the bare name when the domain is the driver's.

Upstream's quirk, kept: `distinctAttribute` remembers one value per *request name*, so a second device of the same
request replaces the first one's value, and removing any device of a request forgets that request's value.
"""

from __future__ import annotations

from wasplan.cluster.devices import Attribute, Constraint, Device


def lookup_attribute(device: Device, driver: str, name: str) -> Attribute | None:
    attr = device.attributes.get(name)
    if attr is not None:
        return attr
    domain, sep, ident = name.partition("/")
    if not sep or domain != driver:
        return None
    return device.attributes.get(ident)


def _same(a: Attribute, b: Attribute) -> bool:
    return a.kind == b.kind and a.value == b.value


class ConstraintState:
    def __init__(self, spec: Constraint) -> None:
        self.requests = frozenset(spec.requests)
        self.attribute = spec.match_attribute or spec.distinct_attribute or ""
        self.distinct = spec.distinct_attribute is not None
        self.first: Attribute | None = None
        self.values: dict[str, Attribute] = {}
        self.count = 0

    def applies(self, request: str, sub: str) -> bool:
        if not self.requests:
            return True
        return request in self.requests or (bool(sub) and f"{request}/{sub}" in self.requests)

    def add(self, request: str, sub: str, device: Device, driver: str) -> bool:
        if not self.applies(request, sub):
            return True
        attr = lookup_attribute(device, driver, self.attribute)
        if attr is None:
            return False
        if self.distinct:
            if self.count and any(_same(attr, v) for v in self.values.values()):
                return False
            self.values[request] = attr
        elif self.count == 0:
            self.first = attr
        elif self.first is None or not _same(attr, self.first):
            return False
        self.count += 1
        return True

    def remove(self, request: str, sub: str) -> None:
        if not self.applies(request, sub):
            return
        if self.distinct:
            self.values.pop(request, None)
        self.count -= 1

"""Resource quantities in pod specs (containers, init and ephemeral containers, overhead, pod-level resources)
and in DRA objects (`dra_slice`, `dra`: capacities, counters, request policies, capacity requests).

The upstream schema types a quantity as "string or integer", so `cpu: 10 Gi` passes it, but the API server
rejects the object when it decodes the quantity. The same parser the planner uses (api/quantity.py, which
follows apimachinery) decides here, so validate and plan never disagree about a value.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import CleanVerdicts, make
from wasplan.validate.walk import mapping

_CONTAINER_LISTS = ("containers", "initContainers", "ephemeralContainers")
_HINT = "write a quantity such as 500m, 2, 1.5Gi or 512Mi (no space between number and suffix)"


def _resource_maps(pod_spec: dict, base: FieldPath) -> Iterator[tuple[FieldPath, dict]]:
    for list_name in _CONTAINER_LISTS:
        containers = pod_spec.get(list_name)
        for i, container in enumerate(containers if isinstance(containers, list) else ()):
            resources = mapping(mapping(container).get("resources"))
            for part in ("requests", "limits"):
                yield base + (list_name, i, "resources", part), mapping(resources.get(part))
    yield base + ("overhead",), mapping(pod_spec.get("overhead"))
    pod_resources = mapping(pod_spec.get("resources"))
    for part in ("requests", "limits"):
        yield base + ("resources", part), mapping(pod_resources.get(part))


_CLEAN = CleanVerdicts()  # pod specs whose quantities all decode, by (path, repr of the spec)


def check_pod_quantities(doc: Document, pod_spec: dict, base: FieldPath) -> list[Diagnostic]:
    return _CLEAN.check((base, repr(pod_spec)), lambda: check_quantities(doc, (
        (path + (name,), str(name), raw) for path, amounts in _resource_maps(pod_spec, base)
        for name, raw in amounts.items())))


def check_quantities(doc: Document, values: Iterable[tuple[FieldPath, str, Any]]) -> list[Diagnostic]:
    """WAS107 for each (path, name, raw value) that the API server could not decode as a quantity."""
    out = []
    for path, name, raw in values:
        if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
            continue  # a wrong JSON type is the schema's finding
        try:
            parse_quantity(raw)
        except QuantityError as exc:
            out.append(make(doc, "WAS107", f'"{name}" quantity {raw!r} is malformed: {exc}', path, _HINT))
    return out

"""Feature-gated fields of `resource.k8s.io` objects, for `wasplan.validate.gates` (WAS301 when a gate is off).

The API server's strategies drop a DRA field whose gate is off on create (k/k `pkg/registry/resource/*/strategy.go`
`dropDisabledFields`); gates and defaults per release are dra.md §2 (`pkg/features/kube_features.go`). Scopes are
the places that carry gated fields: a slice's spec, each device, each device attribute, each exact request or
subrequest, each constraint, a DeviceClass spec.
"""

from __future__ import annotations

from typing import Iterator

from wasplan.api.dra_rules import SCALAR_ATTRIBUTES
from wasplan.diagnostics import FieldPath
from wasplan.documents import Document
from wasplan.validate.walk import items, mapping

SLICE, DEVICE, ATTRIBUTE, REQUEST, CONSTRAINT, CLASS = ("dra-slice", "dra-device", "dra-attribute", "dra-request",
                                                      "dra-constraint", "dra-class")
DRA_VERSIONS = ("v1", "v1beta2")
_SCALAR = frozenset(SCALAR_ATTRIBUTES)

# (releases, scope, fields, gate)
DRA_ROWS: list[tuple[tuple[str, ...], str, tuple[str, ...], str]] = [
    (("1.36", "1.37", "1.38"), SLICE, ("perDeviceNodeSelection", "sharedCounters"), "DRAPartitionableDevices"),
    (("1.37", "1.38"), SLICE, ("skipNodeOperations",), "DRAOptionalNodeOperations"),
    (("1.36", "1.37", "1.38"), DEVICE, ("consumesCounters", "nodeName", "nodeSelector", "allNodes"), "DRAPartitionableDevices"),
    (("1.36", "1.37", "1.38"), DEVICE, ("taints",), "DRADeviceTaints"),
    (("1.36", "1.37", "1.38"), DEVICE, ("allowMultipleAllocations",), "DRAConsumableCapacity"),
    (("1.36", "1.37", "1.38"), DEVICE, ("bindsToNode", "bindingConditions", "bindingFailureConditions"),
     "DRADeviceBindingConditions"),
    (("1.36",), DEVICE, ("nodeAllocatableResourceMappings",), "DRANodeAllocatableResources"),
    (("1.37", "1.38"), DEVICE, ("nodeAllocatableResources",), "DRANodeAllocatableResources"),
    (("1.36", "1.37", "1.38"), ATTRIBUTE, ("ints", "bools", "strings", "versions"), "DRAListTypeAttributes"),
    (("1.36", "1.37", "1.38"), REQUEST, ("tolerations",), "DRADeviceTaints"),
    (("1.36", "1.37", "1.38"), REQUEST, ("capacity",), "DRAConsumableCapacity"),
    (("1.37", "1.38"), REQUEST, ("derivedAttributes",), "DRADerivedAttributes"),
    (("1.36", "1.37", "1.38"), CONSTRAINT, ("distinctAttribute",), "DRAConsumableCapacity"),
    (("1.36", "1.37", "1.38"), CLASS, ("extendedResourceName",), "DRAExtendedResource"),
]


def dra_scopes(doc: Document) -> Iterator[tuple[str, FieldPath, dict]]:
    """(scope, path, mapping) of every place of a DRA object that `DRA_ROWS` can name, in document order."""
    spec = mapping(doc.obj.get("spec"))
    if doc.kind == "DeviceClass":
        yield CLASS, ("spec",), spec
    elif doc.kind == "ResourceSlice":
        yield SLICE, ("spec",), spec
        for i, device in enumerate(items(spec.get("devices"))):
            path = ("spec", "devices", i)
            yield DEVICE, path, mapping(device)
            for name, value in mapping(mapping(device).get("attributes")).items():
                if not _SCALAR.issuperset(mapping(value)):  # only a non-scalar key can be a gated one
                    yield ATTRIBUTE, path + ("attributes", name), mapping(value)
    elif doc.kind in ("ResourceClaim", "ResourceClaimTemplate"):
        base: FieldPath = ("spec", "spec") if doc.kind == "ResourceClaimTemplate" else ("spec",)
        claim = mapping(spec.get("spec")) if doc.kind == "ResourceClaimTemplate" else spec
        yield from _claim_scopes(mapping(claim.get("devices")), base + ("devices",))


def _claim_scopes(devices: dict, base: FieldPath) -> Iterator[tuple[str, FieldPath, dict]]:
    for i, request in enumerate(items(devices.get("requests"))):
        request = mapping(request)
        yield REQUEST, base + ("requests", i, "exactly"), mapping(request.get("exactly"))
        for j, sub in enumerate(items(request.get("firstAvailable"))):
            yield REQUEST, base + ("requests", i, "firstAvailable", j), mapping(sub)
    for i, constraint in enumerate(items(devices.get("constraints"))):
        yield CONSTRAINT, base + ("constraints", i), mapping(constraint)

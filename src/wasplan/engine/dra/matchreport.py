"""Which devices of a cluster one device request can ever match, stage by stage, and what values they have.

`wasplan lint --cluster` asks it why a request matches nothing or too few devices per node; `wasplan explain`
asks it for the devices behind a Pending pod. Selection is the allocator's own (`SelectorCache.result`: the same
CEL environment, cache and runtime-error rule as `search.py` and `precheck.py`, following
`structured/internal/incubating/allocator_incubating.go` `selectorsMatch`, k8s.io/dynamic-resource-allocation
v0.36.0): the class's selectors in order, then the request's. A device on which a selector raises a CEL runtime
error counts as not matching here (the allocator would stop the whole attempt; the stage records the error).

API
---
* `cluster_devices(slices) -> list[DeviceRef]` - every device of the slices once, in pool order (driver, pool,
  slice name, device order), the newest generation of each pool only.
* `match_request(spec, device_class, devices, cel) -> MatchReport` - `spec` is a `RequestSpec` (an `exactly`
  request or one `firstAvailable` subrequest), `device_class` its `DeviceClass`, `cel` a `SelectorCache`.
  `MatchReport.stages[i]` says how many devices reach and remain after each selector (`Stage.source` "class" or
  "request", `Stage.index` the selector's index in that list); `eliminating` is the stage after which none
  remain (None when some match); `values` lists, for the fields the eliminating selector reads
  (`Compiled.reads`, and `device.driver`), the values the devices that reached it actually have, closest to the
  expression's string literals first, with how many devices have each.
* `per_node(matched, allocator, nodes) -> list[int]` - matching devices each node can reach (node-local pools
  and network-attached pools whose slices select the node: `SliceIndex.pools`, usable pools only).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from wasplan.cel import CelError, compile as compile_cel
from wasplan.cluster.dra_objects import quantity_text
from wasplan.cluster.devices import Device, DeviceClass, DeviceID, RequestSpec, ResourceSlice
from wasplan.engine.dra.allocator import Allocator
from wasplan.engine.dra.celcache import SelectorCache
from wasplan.engine.dra.pools import NodeLike

_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
_DRIVER = re.compile(r"\bdevice\s*\.\s*driver\b")
MAX_VALUES = 5


@dataclass(frozen=True, slots=True, eq=False)
class DeviceRef:
    driver: str
    pool: str
    device: Device

    @property
    def device_id(self) -> DeviceID:
        return (self.driver, self.pool, self.device.name)


@dataclass(frozen=True, slots=True)
class Stage:
    source: str  # "class" or "request"
    index: int  # the selector's index in the class's or the request's list
    expression: str
    reached: int  # devices that matched every earlier selector
    remaining: int  # devices still matching after this selector
    errors: int = 0  # devices on which the selector raised a CEL runtime error
    error: str = ""  # the first such error's detail, or why the expression does not compile


@dataclass(frozen=True, slots=True)
class FieldValues:
    field: str  # as a selector writes it: device.attributes["gpu.example.com"].model
    values: tuple[tuple[str, int], ...]  # (value as CEL would print it, devices with it), closest first


@dataclass(frozen=True, slots=True)
class MatchReport:
    total: int  # devices in the cluster
    stages: tuple[Stage, ...]
    matched: tuple[DeviceRef, ...]
    eliminating: Stage | None
    values: tuple[FieldValues, ...]


def cluster_devices(slices: Iterable[ResourceSlice]) -> list[DeviceRef]:
    newest: dict[tuple[str, str], int] = {}
    ordered = sorted(slices, key=lambda s: (s.driver, s.pool, s.name))
    for s in ordered:
        newest[(s.driver, s.pool)] = max(newest.get((s.driver, s.pool), s.generation), s.generation)
    return [DeviceRef(s.driver, s.pool, d) for s in ordered if s.generation == newest[(s.driver, s.pool)]
            for d in s.devices]


def _selectors(device_class: DeviceClass, spec: RequestSpec) -> list[tuple[str, int, str]]:
    return ([("class", i, e) for i, e in enumerate(device_class.selectors)]
            + [("request", i, e) for i, e in enumerate(spec.selectors)])


def _run(source: str, index: int, expression: str, devices: list[DeviceRef],
         cel: SelectorCache) -> tuple[Stage, list[DeviceRef]]:
    compiled = compile_cel(expression)
    if isinstance(compiled, CelError):
        return Stage(source, index, expression, len(devices), 0, len(devices), compiled.message), []
    kept, errors, first = [], 0, ""
    for ref in devices:
        hit = cel.result(expression, ref.driver, ref.device)
        if hit is True:
            kept.append(ref)
        elif isinstance(hit, str):
            errors, first = errors + 1, first or hit
    return Stage(source, index, expression, len(devices), len(kept), errors, first), kept


def match_request(spec: RequestSpec, device_class: DeviceClass, devices: Sequence[DeviceRef],
                  cel: SelectorCache) -> MatchReport:
    current = list(devices)
    stages: list[Stage] = []
    eliminating, before = None, current
    for source, index, expression in _selectors(device_class, spec):
        stage, kept = _run(source, index, expression, current, cel)
        stages.append(stage)
        if not kept and eliminating is None and current:
            eliminating, before = stage, current
        current = kept
    values = _field_values(eliminating.expression, before) if eliminating is not None else ()
    return MatchReport(len(devices), tuple(stages), tuple(current), eliminating, values)


def _literals(expression: str) -> list[str]:
    return [a or b for a, b in _STRING.findall(expression)]


class _Quantity(str):
    """A capacity, printed as the quantity a slice writes (`80Gi`), not as a quoted string."""


def _text(value: object) -> str:
    if isinstance(value, _Quantity):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def _lookup(ref: DeviceRef, section: str, domain: str, name: str) -> object:
    table = ref.device.attributes if section == "attributes" else ref.device.capacity
    hit = table.get(f"{domain}/{name}")
    if hit is None and domain == ref.driver:
        hit = table.get(name)
    if hit is None:
        return None
    return hit.value if section == "attributes" else _Quantity(quantity_text(hit.value))


def _field_values(expression: str, devices: list[DeviceRef]) -> tuple[FieldValues, ...]:
    compiled = compile_cel(expression)
    reads = [] if isinstance(compiled, CelError) or compiled.reads is None else list(compiled.reads)
    fields: list[tuple[str, list[object]]] = []
    if _DRIVER.search(expression):
        fields.append(("device.driver", [ref.driver for ref in devices]))
    for section, domain, name in reads:
        found = [_lookup(ref, section, domain, name) for ref in devices]
        fields.append((f'device.{section}["{domain}"].{name}', [v for v in found if v is not None]))
    literals = _literals(expression)
    return tuple(FieldValues(field, _closest(values, literals)) for field, values in fields if values)


def _closest(values: list[object], literals: list[str]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for v in values:
        counts[_text(v)] = counts.get(_text(v), 0) + 1

    def score(text: str) -> float:
        bare = text.strip('"')
        return max((difflib.SequenceMatcher(None, bare, lit).ratio() for lit in literals), default=0.0)

    ranked = sorted(counts.items(), key=lambda item: (-score(item[0]), -item[1], item[0]))
    return tuple(ranked[:MAX_VALUES])


def per_node(matched: Sequence[DeviceRef], allocator: Allocator, nodes: Sequence[NodeLike]) -> list[int]:
    wanted = {ref.device_id for ref in matched}
    out = []
    for node in nodes:
        reach = 0
        for pool in allocator.index.pools(node):
            if pool.usable:
                reach += sum(1 for s in pool.slices for d in s.devices if (s.driver, s.pool, d.name) in wanted)
        out.append(reach)
    return out

"""Selector evaluation for a plan: each (expression, device) pair is evaluated at most once.

Messages are upstream's (`structured/internal/incubating/allocator_incubating.go` `selectorsMatch`): a compile
error is `<owner>: selector #<i>: CEL compile error: <detail>` and a runtime error `<owner>: selector #<i>: CEL
runtime error: <detail>`, where `<owner>` is `class <name>` or `claim <ns>/<name>`. 1.37 (master, `cel/errors.go`)
inserts ` on device <driver>/<pool>/<device>` after the selector index and appends a hint to `no such key`
errors. A runtime error aborts the whole allocation attempt (`AllocationError`), also when cached.
"""

from __future__ import annotations

from wasplan.cel import CelError, CelRuntimeError, compile as compile_cel, device_value
from wasplan.cluster.devices import Device
from wasplan.engine.dra.errors import AllocationError

HINT = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() "
        "for optional fields")


class SelectorCache:
    def __init__(self, consumable_capacity: bool = True, error_on_device: bool = False) -> None:
        self.consumable_capacity = consumable_capacity
        self.error_on_device = error_on_device
        self._results: dict[tuple[str, int], bool | str] = {}  # str = runtime error detail
        self._values: dict[int, tuple[Device, dict]] = {}
        self.evaluations = 0

    def _value(self, driver: str, device: Device) -> dict:
        hit = self._values.get(id(device))
        if hit is None:
            value = device_value(driver, device.attributes, device.capacity, device.allow_multiple_allocations,
                                 self.consumable_capacity)
            hit = (device, value)  # keep the device alive so its id stays unique
            self._values[id(device)] = hit
        return hit[1]

    def result(self, expression: str, driver: str, device: Device) -> bool | str:
        """True/False, or the runtime error's detail; raises AllocationError only for compile errors."""
        key = (expression, id(device))
        hit = self._results.get(key)
        if hit is None:
            compiled = compile_cel(expression)
            if isinstance(compiled, CelError):
                raise _CompileError(compiled.message)
            self.evaluations += 1
            try:
                hit = compiled.evaluate(self._value(driver, device))
            except CelRuntimeError as exc:
                hit = str(exc)
            self._results[key] = hit
        return hit

    def matches(self, owner: str, selectors: tuple[str, ...], device_id: tuple[str, str, str], device: Device) -> bool:
        """All selectors true (in order, stopping at the first false); errors as upstream words them."""
        for i, expression in enumerate(selectors):
            try:
                hit = self.result(expression, device_id[0], device)
            except _CompileError as exc:
                raise AllocationError(f"{owner}: selector #{i}: CEL compile error: {exc}") from None
            if isinstance(hit, str):
                raise AllocationError(self.runtime_message(owner, i, device_id, hit))
            if not hit:
                return False
        return True

    def runtime_message(self, owner: str, index: int, device_id: tuple[str, str, str], detail: str) -> str:
        if not self.error_on_device:
            return f"{owner}: selector #{index}: CEL runtime error: {detail}"
        hint = HINT if "no such key:" in detail else ""
        return f"{owner}: selector #{index} on device {'/'.join(device_id)}: CEL runtime error: {detail}{hint}"


class _CompileError(Exception):
    pass

"""Selector evaluation for a plan: each (expression, device) pair is evaluated at most once (devices with the
same driver, attributes and capacity count as one).

Messages are upstream's (`structured/internal/incubating/allocator_incubating.go` `selectorsMatch`): a compile
error is `<owner>: selector #<i>: CEL compile error: <detail>` and a runtime error `<owner>: selector #<i>: CEL
runtime error: <detail>`, where `<owner>` is `class <name>` or `claim <ns>/<name>`. 1.37 (master, `cel/errors.go`)
inserts ` on device <driver>/<pool>/<device>` after the selector index and appends a hint to `no such key`
errors. A runtime error aborts the whole allocation attempt (`AllocationError`), also when cached.
"""

from __future__ import annotations

from wasplan import cel  # the runtime loads on the first selector (wasplan/cel/__init__.py)
from wasplan.cluster.devices import Device
from wasplan.engine.dra.errors import AllocationError

HINT = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() "
        "for optional fields")


class SelectorCache:
    """Results per (expression, what the expression can see of the device): devices publishing the same driver,
    attributes and capacity share one evaluation, and so do devices that differ only in fields the expression does
    not read (`Compiled.projection`: a uuid attribute does not matter to `attributes["d"].model == "a100"`), so a
    snapshot of 5,000 8-GPU nodes costs a handful of evaluations per selector, not 40,000."""

    def __init__(self, consumable_capacity: bool = True, error_on_device: bool = False) -> None:
        self.consumable_capacity = consumable_capacity
        self.error_on_device = error_on_device
        self._results: dict[tuple[str, tuple], bool | str] = {}  # str = runtime error detail
        self._keys: dict[int, tuple[Device, tuple]] = {}  # id(device) -> (device kept alive, content key)
        self._values: dict[tuple, dict] = {}
        self.evaluations = 0

    def _content(self, driver: str, device: Device) -> tuple:
        hit = self._keys.get(id(device))
        if hit is None:
            key = (driver, tuple(device.attributes.items()), tuple(device.capacity.items()),
                   device.allow_multiple_allocations)
            hit = (device, key)
            self._keys[id(device)] = hit
        return hit[1]

    def _value(self, content: tuple, driver: str, device: Device) -> dict:
        value = self._values.get(content)
        if value is None:
            value = cel.device_value(driver, device.attributes, device.capacity, device.allow_multiple_allocations,
                                 self.consumable_capacity)
            self._values[content] = value
        return value

    def result(self, expression: str, driver: str, device: Device) -> bool | str:
        """True/False, or the runtime error's detail; raises _CompileError for an expression that does not compile."""
        compiled = cel.compile(expression)
        if isinstance(compiled, cel.CelError):
            raise _CompileError(compiled.message)
        content = self._content(driver, device)
        value = self._value(content, driver, device)
        seen = compiled.projection(value)
        key = (expression, content if seen is None else seen)
        hit = self._results.get(key)
        if hit is None:
            self.evaluations += 1
            try:
                hit = compiled.evaluate(value)
            except cel.CelRuntimeError as exc:
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
    """A selector that does not compile: upstream reports it as an Error status for the whole attempt, so it
    travels apart from runtime errors, which are answered per device."""

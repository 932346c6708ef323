"""The Kubernetes CEL environment for DRA device selectors (`compile`, `Compiled.evaluate`, `device_value`).

Why this runtime. Two maintained CEL libraries on PyPI were measured with `benchmarks/cel_runtimes.py` (2 shared cores,
CPU seconds; one selector - driver, a string attribute and an int attribute - compiled once and evaluated on
100,000 distinct devices, each with three attributes and a quantity capacity):

| | common-expression-language 0.10 (Rust) | cel-python 0.5 (pure Python) |
| --- | --- | --- |
| compile | 0.4 ms | 1.0 ms |
| 100,000 evaluations | 2.2 s (22 us each) | 36.5 s (365 us each) |
| attribute maps keyed by domain, `has()`, missing key = error | yes | yes |
| quantity / semver as custom functions with member calls | yes (tagged maps) | yes |
| optional chaining `.?x.orValue(y)` | no (parse error) | no (parse error) |
| `cel.bind`, ext strings (`lowerAscii`, ...) | no | no |
| static type check, cost accounting | no | no |
| compile errors with line and column | yes (in the message) | yes (attributes) |

The plan's hot path is thousands of devices times a few selectors, so the ~16x faster runtime wins; neither
covers more of the Kubernetes environment than the other. Only the library functions an expression calls are
passed per evaluation (passing all of them costs as much as the evaluation). Quantities and semvers are carried
as tagged maps (`wasplan.cel.values`) because the Rust runtime cannot hold Python objects.

Not covered (an expression using them is a compile error with its position, so the plan says so instead of
guessing): optional chaining, `cel.bind`, the extended string/list/set/URL/IP/CIDR/format libraries, and the
runtime cost limit of 1,000,000 (`CELSelectorExpressionMaxCost`): the runtime has no cost accounting; a selector
only reads one device's at most 32 attributes and capacities, so only expressions that build large lists
themselves could reach the limit, and `wasplan validate` (which estimates cost statically) is the place to
reject those.

Caching: `compile` memoises per expression text; the allocator's `SelectorCache` (wasplan.engine.dra) memoises
each (expression, device) result for a plan, keyed by what the expression can see of the device
(`Compiled.projection`: the driver plus the fields it reads through literal keys, or the whole device when it
reads the device otherwise), so devices that differ only in fields a selector ignores share one evaluation.

Static analysis (`wasplan validate`): `wasplan.cel.syntax` parses, `wasplan.cel.checker` type-checks and estimates
the cost. It does not need the runtime, so the runtime's names below are imported on first use (PEP 562): importing
`wasplan.cel.checker` loads neither the Rust runtime nor the cluster model.
"""

from typing import Any

__all__ = ["CelError", "CelRuntimeError", "Compiled", "compile", "device_value"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from wasplan.cel import compiler
        return getattr(compiler, name)
    raise AttributeError(f"module 'wasplan.cel' has no attribute {name!r}")

"""The Kubernetes CEL environment for DRA device selectors (`compile`, `Compiled.evaluate`, `device_value`).

Why this runtime. Two maintained CEL libraries on PyPI were measured (`benchmarks/cel.py` prints the figures;
2 shared cores, CPU seconds, one selector over 100,000 distinct devices, compile included):

| | common-expression-language 0.10 (Rust) | cel-python 0.5 (pure Python) |
| --- | --- | --- |
| 100,000 evaluations, `driver`/attribute/int comparison | ~1.1 s | ~33 s |
| same with a `quantity(...)` comparison | ~2.2 s | (custom types possible, not faster) |
| map keyed by domain, `has()`, macros (`all`, `exists`, ...) | yes | yes |
| custom functions, member-call syntax (`q.isGreaterThan(x)`) | yes (plain values only) | yes (Python objects) |
| optional chaining `.?x.orValue(y)` | no (parse error) | no (parse error) |
| `cel.bind`, ext strings (`lowerAscii`, ...) | no | no |
| static type check, cost accounting | no | no |
| compile errors with line and column | yes (in the message) | yes (attributes) |

The plan's hot path is thousands of devices times a few selectors, so the ~30x faster runtime wins; neither
covers more of the Kubernetes environment than the other. Quantities and semvers are carried as tagged maps
(`wasplan.cel.values`) because the Rust runtime cannot hold Python objects.

Not covered (an expression using them is a compile error with its position, so the plan says so instead of
guessing): optional chaining, `cel.bind`, the extended string/list/set/URL/IP/CIDR/format libraries, and the
runtime cost limit of 1,000,000 (`CELSelectorExpressionMaxCost`): the runtime has no cost accounting; a selector
only reads one device's at most 32 attributes and capacities, so only expressions that build large lists
themselves could reach the limit, and `wasplan validate` (which estimates cost statically) is the place to
reject those.

Caching: `compile` memoises per expression text; the allocator's `SelectorCache` (wasplan.engine.dra) memoises
each (expression, device) result for a plan.
"""

from wasplan.cel.compiler import CelError, CelRuntimeError, Compiled, compile, device_value

__all__ = ["CelError", "CelRuntimeError", "Compiled", "compile", "device_value"]

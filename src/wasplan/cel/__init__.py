"""The Kubernetes CEL environment for DRA device selectors (`compile`, `Compiled.evaluate`, `device_value`).

One environment for every command. `wasplan.cel.syntax` parses, `wasplan.cel.checker` type-checks and estimates
the cost (what `wasplan validate` reports, what the API server refuses), and `wasplan.cel.evaluator` turns the same
AST into Python closures that call `wasplan.cel.library`, the functions of upstream's environment
(`k8s.io/apiserver/pkg/cel/environment/base.go` `MustBaseEnvSet` plus `k8s.io/dynamic-resource-allocation/cel/
compile.go`); `wasplan.cel.types` declares their signatures, and a test holds the declarations and the
implementations to the same names. `validate`, `lint`, `plan` and `explain` all go through it, so no two of them
can disagree about what a selector means. docs/cel.md lists the libraries, what is not modelled and how the
environment is compared with upstream's (`oracle cel`, tests/oracle/test_cel_oracle.py).

Why our own runtime. The `common-expression-language` Rust package (the runtime until this version) and
`cel-python` both lack the Kubernetes extension libraries (optional types, `cel.bind`, ext strings, lists, sets)
and neither exposes an AST the checker could share. Measured with `benchmarks/cel_runtimes.py` (2 shared cores,
CPU, one selector evaluated on 100,000 distinct devices): this evaluator 0.33 s (3.3 us each), the Rust runtime
2.45 s (24.5 us: every call crosses the Python/Rust boundary with the whole device), cel-python 0.5 36.5 s.

Caching: `compile` memoises per expression text; the allocator's `SelectorCache` (wasplan.engine.dra) memoises
each (expression, device) result for a plan, keyed by what the expression can see of the device
(`Compiled.projection`: the driver plus the fields it reads through literal keys, or the whole device when it
reads the device otherwise), so devices that differ only in fields a selector ignores share one evaluation.

Importing `wasplan.cel.checker` loads neither the evaluator nor the cluster model: the runtime's names below are
imported on first use (PEP 562), so a module that only names them (the allocator's selector cache, the DRA field
parser) costs nothing to a command whose input has no selector: a `plan` without DRA never loads the runtime.
"""

from typing import Any

__all__ = ["CelError", "CelRuntimeError", "Compiled", "compile", "device_value"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from wasplan.cel import compiler
        value = globals()[name] = getattr(compiler, name)  # later lookups skip this function
        return value
    raise AttributeError(f"module 'wasplan.cel' has no attribute {name!r}")

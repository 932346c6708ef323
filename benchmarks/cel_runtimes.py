"""Which CEL runtime evaluates DRA device selectors: wasplan's own evaluator against the `common-expression-language`
Rust package it replaced, measured (coverage of the Kubernetes DRA environment and speed).

    PYTHONPATH=src python benchmarks/cel_runtimes.py                  # 100,000 device evaluations
    PYTHONPATH=src python benchmarks/cel_runtimes.py --devices 20000  # a quicker run

(Not `benchmarks/cel.py`: a script's folder comes first on sys.path, so that name would shadow the `cel` package.)

`common-expression-language` is not a dependency any more: `pip install common-expression-language` to include
it; it is skipped with a note otherwise. Coverage: one probe per feature of the DRA environment
(`src/wasplan/cel/library.py`). Speed: compile one selector and evaluate it on N distinct devices (CPU seconds,
`time.process_time`). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from wasplan.cel import CelError, CelRuntimeError, compile as compile_cel, device_value
from wasplan.cluster.devices import Attribute, Capacity

DRIVER = "gpu.example.com"
PROBES = [  # (feature, expression, expected result or "error"); plain-data probes only, so both runtimes can run them
    ("attribute map by domain", f'device.attributes["{DRIVER}"].model == "a100"', True),
    ("missing key is a runtime error", f'device.attributes["{DRIVER}"].missing == 1', "error"),
    ("has()", f'has(device.attributes["{DRIVER}"].missing)', False),
    ("optional chaining", f'device.attributes["{DRIVER}"].?missing.orValue(1) == 1', True),
    ("cel.bind", "cel.bind(x, 1, x + 1 == 2)", True),
    ("ext strings (lowerAscii, split)", '"A-B".lowerAscii().split("-") == ["a", "b"]', True),
    ("ext sets", "sets.contains([1, 2], [2])", True),
    ("ext lists (sort, lists.range)", "lists.range(3).sort() == [0, 1, 2]", True),
    ("two-variable macros", "[5, 6].all(i, v, v > i)", True),
    ("int overflow is an error", "9223372036854775807 + 1 == 0", "error"),
]
SELECTOR = (f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].model == "a100" '
            f'&& device.attributes["{DRIVER}"].cores >= 8')


def device(i: int) -> tuple[dict, dict]:
    """One device as wasplan's CEL value and as plain data for the Rust runtime."""
    attrs = {"model": Attribute("string", "a100" if i % 2 else "h100"), "cores": Attribute("int", i % 16)}
    ours = device_value(DRIVER, attrs, {"memory": Capacity(Fraction(80 * 2**30))}, None)
    plain = {"driver": DRIVER, "allowMultipleAllocations": False,
             "attributes": {DRIVER: {"model": attrs["model"].value, "cores": i % 16}}, "capacity": {DRIVER: {}}}
    return ours, plain


def ours_probe(expression: str, expected) -> bool:
    compiled = compile_cel(expression)
    if isinstance(compiled, CelError):
        return False
    try:
        return compiled.evaluate(device(1)[0]) == expected
    except CelRuntimeError:
        return expected == "error"


def rust_probe(rust, expression: str, expected) -> bool:
    try:
        result = rust.evaluate(expression, {"device": device(1)[1]})
    except (ValueError, RuntimeError, KeyError, TypeError, ArithmeticError) as exc:
        return expected == "error" and "parse" not in str(exc).lower() and "undeclared" not in str(exc).lower()
    return result == expected


def speed_ours(n: int) -> tuple[float, float]:
    devices = [device(i)[0] for i in range(n)]
    start = time.process_time()
    compiled = compile_cel(SELECTOR)
    compiled_at = time.process_time()
    assert not isinstance(compiled, CelError)
    for d in devices:
        compiled.evaluate(d)
    return compiled_at - start, time.process_time() - compiled_at


def speed_rust(rust, n: int) -> tuple[float, float]:
    devices = [device(i)[1] for i in range(n)]
    start = time.process_time()
    program = rust.compile(SELECTOR)
    compiled_at = time.process_time()
    for d in devices:
        program.execute({"device": d})
    return compiled_at - start, time.process_time() - compiled_at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=100_000)
    n = parser.parse_args().devices
    try:
        import cel as rust
    except ImportError:
        rust = None
    print(f"{'feature':40} {'wasplan.cel':>12} {'common-expression-language':>28}")
    for feature, expression, expected in PROBES:
        theirs = ("yes" if rust_probe(rust, expression, expected) else "no") if rust else "-"
        print(f"{feature:40} {'yes' if ours_probe(expression, expected) else 'no':>12} {theirs:>28}")
    compile_s, eval_s = speed_ours(n)
    print(f"\nwasplan.cel: compile {compile_s * 1000:.2f} ms, {n:,} evaluations {eval_s:.2f} s CPU "
          f"({eval_s / n * 1e6:.1f} us each)")
    if rust is None:
        print("common-expression-language: not installed (pip install common-expression-language)")
        return
    compile_s, eval_s = speed_rust(rust, n)
    print(f"common-expression-language: compile {compile_s * 1000:.2f} ms, {n:,} evaluations {eval_s:.2f} s CPU "
          f"({eval_s / n * 1e6:.1f} us each)")


if __name__ == "__main__":
    main()

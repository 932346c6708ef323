"""Which CEL library runs DRA device selectors: coverage of the Kubernetes DRA environment and speed, measured.

    PYTHONPATH=src python benchmarks/cel_runtimes.py                  # both libraries, 100,000 device evaluations
    PYTHONPATH=src python benchmarks/cel_runtimes.py --devices 20000  # a quicker run

(Not `benchmarks/cel.py`: a script's folder comes first on sys.path, so that name would shadow the `cel` runtime
package for every benchmark in this folder.)

Compares `common-expression-language` (the runtime `wasplan.cel` uses; a dependency) with `cel-python` (not a
dependency: `pip install cel-python` to include it; skipped with a note otherwise). Coverage: the features a DRA
selector uses (`../shared/reference/dra.md` §5): attribute maps keyed by domain, a missing key as a runtime error,
`has()`, optional chaining, the Kubernetes `quantity` and `semver` functions (custom functions and member calls),
`cel.bind`, the extended string library, and compile errors with a position. Speed: compile one selector and
evaluate it on N distinct devices (CPU seconds, `time.process_time`). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from wasplan.cel import CelError, CelRuntimeError, compile as compile_cel, device_value
from wasplan.cel import values
from wasplan.cluster.devices import Attribute, Capacity

DRIVER = "gpu.example.com"
PROBES = [  # (feature, expression, expected result or "error")
    ("attribute map by domain", f'device.attributes["{DRIVER}"].model == "a100"', True),
    ("missing key is a runtime error", f'device.attributes["{DRIVER}"].missing == 1', "error"),
    ("has()", f'has(device.attributes["{DRIVER}"].missing)', False),
    ("unknown domain reads as empty map", 'has(device.attributes["other.example.com"].x)', False),
    ("optional chaining", f'device.attributes["{DRIVER}"].?missing.orValue(1) == 1', True),
    ("quantity (custom function, member call)", f'device.capacity["{DRIVER}"].memory.compareTo(quantity("40Gi")) > 0', True),
    ("semver (custom function, member call)", f'device.attributes["{DRIVER}"].driverVersion.isGreaterThan(semver("1.2.0"))', True),
    ("cel.bind", "cel.bind(x, 1, x + 1 == 2)", True),
    ("ext strings (lowerAscii)", '"A".lowerAscii() == "a"', True),
]
SELECTOR = (f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].model == "a100" '
            f'&& device.attributes["{DRIVER}"].cores >= 8')


def device(i: int) -> tuple[dict, dict]:
    """The same device for both libraries: wasplan's CEL value, and a plain dict for cel-python."""
    attrs = {"model": Attribute("string", "a100" if i % 2 else "h100"), "cores": Attribute("int", i % 16),
             "driverVersion": Attribute("version", "1.2.3")}
    caps = {"memory": Capacity(Fraction(80 * 2**30))}
    ours = device_value(DRIVER, attrs, caps, None)
    plain = {"driver": DRIVER, "allowMultipleAllocations": False,
             "attributes": {DRIVER: {"model": attrs["model"].value, "cores": i % 16,
                                     "driverVersion": {values.SEMVER_TAG: "1.2.3"}}},
             "capacity": {DRIVER: {"memory": values.quantity_value(Fraction(80 * 2**30))}}}
    return ours, plain


def ours_probe(expression: str, expected) -> bool:
    compiled = compile_cel(expression)
    if isinstance(compiled, CelError):
        return False
    try:
        return compiled.evaluate(device(1)[0]) == expected
    except CelRuntimeError:
        return expected == "error"


def celpy_probe(celpy, expression: str, expected) -> bool:
    env = celpy.Environment()
    try:
        program = env.program(env.compile(expression), functions=values.FUNCTIONS)
        result = program.evaluate({"device": celpy.json_to_cel(device(1)[1])})
    except celpy.CELParseError:
        return False
    except celpy.CELEvalError:
        return expected == "error"
    if isinstance(result, celpy.CELEvalError):
        return expected == "error"
    return expected != "error" and bool(result) == expected


def position(kind: str, celpy) -> str:
    if kind == "ours":
        err = compile_cel("device.driver ==")
        return f"line {err.line}, column {err.column}" if isinstance(err, CelError) else "none"
    try:
        celpy.Environment().compile("device.driver ==")
    except celpy.CELParseError as exc:
        return f"line {exc.line}, column {exc.column}"
    return "none"


def speed_ours(n: int) -> tuple[float, float]:
    devices = [device(i)[0] for i in range(n)]
    start = time.process_time()
    compiled = compile_cel(SELECTOR)
    compiled_at = time.process_time()
    assert not isinstance(compiled, CelError)
    for d in devices:
        compiled.evaluate(d)
    return compiled_at - start, time.process_time() - compiled_at


def speed_celpy(celpy, n: int) -> tuple[float, float]:
    devices = [celpy.json_to_cel(device(i)[1]) for i in range(n)]
    start = time.process_time()
    env = celpy.Environment()
    program = env.program(env.compile(SELECTOR), functions=values.FUNCTIONS)
    compiled_at = time.process_time()
    for d in devices:
        program.evaluate({"device": d})
    return compiled_at - start, time.process_time() - compiled_at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=100_000)
    n = parser.parse_args().devices
    try:
        import celpy
    except ImportError:
        celpy = None
    print(f"{'feature':45} {'common-expression-language':>28} {'cel-python':>12}")
    for feature, expression, expected in PROBES:
        theirs = ("yes" if celpy_probe(celpy, expression, expected) else "no") if celpy else "n/a"
        print(f"{feature:45} {'yes' if ours_probe(expression, expected) else 'no':>28} {theirs:>12}")
    print(f"{'compile error position':45} {position('ours', celpy):>28} {position('celpy', celpy) if celpy else 'n/a':>12}")
    compile_s, eval_s = speed_ours(n)
    print(f"\ncommon-expression-language: compile {compile_s * 1000:.2f} ms, {n:,} evaluations {eval_s:.2f} s CPU "
          f"({eval_s / n * 1e6:.1f} us each)")
    if celpy is None:
        print("cel-python: not installed (pip install cel-python to compare)")
        return
    compile_s, eval_s = speed_celpy(celpy, n)
    print(f"cel-python:                 compile {compile_s * 1000:.2f} ms, {n:,} evaluations {eval_s:.2f} s CPU "
          f"({eval_s / n * 1e6:.1f} us each)")


if __name__ == "__main__":
    main()

"""What each config key accepts: one parser per key, turning a file's value into the Settings field's value.

A parser raises `ValueError` with a message for the user; the loader adds the file and line. Values arrive as
YAML or TOML give them (`k8s-version: 1.37` is a float in YAML, so numbers are accepted and formatted back).
"""

from __future__ import annotations

from typing import Any, Callable

from wasplan.api.releases import SUPPORTED_RELEASES
from wasplan.codes import CODES
from wasplan.plan import FailOn

FAIL_ON = tuple(FailOn)  # regression: only with plan --baseline


class UnknownCode(ValueError):
    """A code list names something that is no diagnostic code or prefix (WAS904 rather than WAS903)."""


def _text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"expected a string, got {_kind(value)}")
    return str(value)


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a mapping", type(None): "nothing"}.get(type(value), type(value).__name__)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if not isinstance(value, list):
        raise ValueError(f"expected a list of strings, got {_kind(value)}")
    return tuple(_text(v) for v in value)


def parse_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {_kind(value)}")
    return value


def parse_release(value: Any) -> str:
    text = _text(value).lstrip("v")
    if text not in SUPPORTED_RELEASES:
        raise ValueError(f"unsupported Kubernetes release {text!r}; supported: {', '.join(SUPPORTED_RELEASES)}")
    return text


def parse_gates(value: Any) -> str:
    """A mapping `{GenericWorkload: true}` (or the command line's `Name=true,...` string)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"expected a mapping of gate names to true/false, got {_kind(value)}")
    for name, on in value.items():
        if not isinstance(on, bool):
            raise ValueError(f"feature gate {name}: expected true or false, got {_kind(on)}")
    return ",".join(f"{name}={'true' if on else 'false'}" for name, on in value.items())


def parse_codes(value: Any) -> tuple[str, ...]:
    """Codes or prefixes (`WAS4`, `WAS40`); each must name at least one code of the table."""
    out = []
    for code in _strings(value):
        code = code.upper()
        if not code.startswith("WAS") or not any(known.startswith(code) for known in CODES):
            raise UnknownCode(f"{code!r} is no diagnostic code or code prefix (`wasplan rules` lists them)")
        out.append(code)
    return tuple(out)


def parse_per_file(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a mapping of glob patterns to codes, got {_kind(value)}")
    return tuple((_text(glob), parse_codes(codes)) for glob, codes in value.items())


def parse_fail_on(value: Any) -> FailOn:
    text = _text(value)
    if text not in FAIL_ON:
        raise ValueError(f"expected one of {', '.join(FAIL_ON)}, got {text!r}")
    return FailOn(text)


def from_environment(key: str, text: str) -> Any:
    """An environment variable's text as the value a file would give for `key` (booleans spelled true/false,
    1/0, yes/no; lists comma-separated; feature gates as on the command line)."""
    if PARSERS[key] is parse_bool:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"expected true or false, got {text!r}")
        return lowered in ("true", "1", "yes")
    return text


PARSERS: dict[str, Callable[[Any], Any]] = {
    "k8s-version": parse_release,
    "feature-gates": parse_gates,
    "exclude": _strings,
    "select": parse_codes,
    "ignore": parse_codes,
    "per-file-ignores": parse_per_file,
    "strict": parse_bool,
    "strict-inputs": parse_bool,
    "cluster": _strings,
    "fail-on": parse_fail_on,
}

"""JSON text in and out through orjson (compiled), with the standard library's exact bytes and behaviour.

Every `-o json` output and every JSON input goes through here. `dumps` returns what
`json.dumps(data, indent=2, ensure_ascii=..., default=...) + "\\n"` returns, byte for byte, about 30x faster
(a 10,000-pod plan: 0.27 s -> 10 ms). orjson and the json module agree on everything but a few corners, and
each corner falls back to the json module: integers beyond 64 bits, lone surrogates, objects that only
`default` can encode, and floats that the two spell differently (`1e-05` / `0.00001`, `2.5e-07` / `2.5e-7`),
found by scanning the output for number tokens in exponent or long-fraction form. orjson writes non-finite
floats as null where the json module writes the non-JSON `NaN`/`Infinity`; no output of wasplan holds one.
`loads` decodes with orjson and, on any error, repeats the decode with the json module, so the value, the
accepted syntax (NaN, lone surrogates) and the error message stay the json module's; a text with an integer
token of 19 digits or more (possibly beyond 64 bits, which orjson would read as a float) goes to the json module
directly. That token is looked for on the bytes with every digit turned into `0` (a C-speed search for nineteen
zeros, then a look at what precedes each run), since a regular expression over a 400 MB dump costs more than
decoding it, and hashes and IDs in such dumps hold long digit runs inside strings.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import orjson

_OPTIONS = (orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS)
# A number token (a dict value after ": ", or a list item on its own indented line, or the whole document)
# that the two encoders may spell differently: an exponent, or a fraction starting with four zeros.
_FLOAT_FORM = re.compile(rb"(?:^|: |\n *)-?(?:\d+(?:\.\d+)?e[-+]?\d+|0\.0000\d*)(?=,?\n|$)")
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_EXPONENT_ENDS_LINE = re.compile(rb"0e[-+]?0+,?(?:\n|$)")  # _FLOAT_FORM's exponent, digits read as 0
_NON_ASCII = re.compile(r"[^\x00-\x7e]")


class _Fallback(Exception):
    """orjson met something the json module encodes its own way."""


def _exact(value: Any) -> Any:
    """What the json module does with subclasses of the JSON types; anything else is `default`'s business."""
    for base in (str, int, float, dict, list):
        if isinstance(value, base):
            return base(value) if base is not str else str.__str__(value)
    raise _Fallback


def _escape(match: re.Match) -> str:
    code = ord(match.group(0))
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def _maybe_float_form(raw: bytes) -> bool:
    """A quick scan (a few ms on a 5 MB plan) for what every token `_FLOAT_FORM` matches contains: four zeros
    after a point, or, with every digit read as `0`, an exponent ending its line (a token is the last thing on
    its line, strings holding no raw newline). Only then is the exact, slower pattern searched (0.14 s on a
    5 MB plan whose names hold hex hashes such as `-4eef3`)."""
    return b"0.0000" in raw or _EXPONENT_ENDS_LINE.search(raw.translate(_DIGITS_AS_ZERO)) is not None


def dumps(data: Any, *, ensure_ascii: bool = True, default: Callable[[Any], Any] | None = None) -> str:
    """`json.dumps(data, indent=2, ensure_ascii=ensure_ascii, default=default) + "\\n"`, byte for byte."""
    try:
        raw = orjson.dumps(data, default=_exact, option=_OPTIONS)
    except (orjson.JSONEncodeError, _Fallback, TypeError):
        raw = None
    if raw is None or _maybe_float_form(raw) and _FLOAT_FORM.search(raw):
        return json.dumps(data, indent=2, ensure_ascii=ensure_ascii, default=default) + "\n"
    text = raw.decode()
    if ensure_ascii and (not text.isascii() or "\x7f" in text):
        return _NON_ASCII.sub(_escape, text)
    return text


def loads(text: str) -> Any:
    """`json.loads(text)`: the same value, or the same `json.JSONDecodeError`."""
    return loads_exact(text)[0]


def loads_exact(text: str) -> tuple[Any, bool]:
    """`loads`, and whether orjson decoded it: then the value holds finite floats, integers of at most 18 digits
    (within int64) and valid Unicode only, since orjson refuses the rest and the json module decodes it."""
    if _long_integer(text):
        return json.loads(text), False
    try:
        return orjson.loads(text), True
    except orjson.JSONDecodeError:
        return json.loads(text), False


_RUN = b"0" * 19
_BEFORE_NUMBER = frozenset(b":[,")
_SPACE = frozenset(b" \t\r\n")


def _after_key(raw: bytes, colon: int) -> bool:
    """Whether the `:` at `colon` follows a closing quote (a key's), not a digest's `sha256:` inside a string."""
    at = colon
    while at and raw[at - 1] in _SPACE:
        at -= 1
    return at > 0 and raw[at - 1] == 0x22


def _long_integer(text: str) -> bool:
    """Whether `text` may hold an integer token of 19 or more digits: a run of 19 digits whose first digit
    follows `:`, `[` or `,` (spaces and a minus sign between), or starts the text. A run inside a string that
    happens to follow such a character only sends the text to the slower exact decoder; a colon counts after a
    key's closing quote only (`"sha256:0123..."` is a string). The text is looked at in slices that overlap by
    more than any run's context, so a large input is never copied whole."""
    if len(text) < 19:
        return False
    for start in range(0, len(text), _SLICE):
        begin = max(0, start - _OVERLAP)
        if _long_integer_in(text[begin:start + _SLICE].encode("utf-8", "surrogatepass"), start - begin):
            return True
    return False


_SLICE = 8 * 1024 * 1024
_OVERLAP = 4096  # a run and what precedes it (spaces, a sign, a quote) fit in it, unless spaces run longer


def _long_integer_in(chunk: bytes, skip: int) -> bool:
    """`_long_integer` on one slice; runs that end before `skip` belong to the slice before."""
    raw = chunk.translate(_DIGITS_AS_ZERO)
    at = raw.find(_RUN)
    while at != -1:
        start = at
        while start and raw[start - 1] == 0x30:  # the run's first digit
            start -= 1
        if start and raw[start - 1] == 0x2D:  # a minus sign
            start -= 1
        while start and raw[start - 1] in _SPACE:
            start -= 1
        # at a slice's start, what precedes the run is unknown (or it starts the text): the exact decoder decides
        if at + len(_RUN) > skip and (start == 0 or raw[start - 1] in _BEFORE_NUMBER
                                      and (raw[start - 1] != 0x3A or _after_key(raw, start - 1))):
            return True
        at = raw.find(_RUN, at + len(_RUN))
    return False

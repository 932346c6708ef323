"""A compiled reader for the entries of a kubectl-style YAML List, used only where it cannot differ from libyaml.

Reading a List entry by entry (`documents/yamllist.py`) spends most of its time in libyaml's composer and
in building Python values from its nodes, about twelve times a `json.load` of the same content. yaml-rs (a
Rust reader, `yaml_rs.loads`) builds the values directly, close to `json.load`'s speed, and refuses
duplicate keys itself (`DuplicateKeyPolicy.Error`). It reads YAML 1.2 (a plain `yes` stays a string, `012`
is twelve, `1e3` a float), while wasplan reads YAML 1.1's plain-data types as the API server's go-yaml v2
does through sigs.k8s.io/yaml (go-yaml v2 resolve.go; PyYAML's resolver in `documents/loader.py`), with
strings for keys. So an entry goes to yaml-rs only when a scan of its text finds no plain scalar whose two
readings could differ; every other entry keeps the libyaml path, which stays the reference, and so do the
positions of findings (an entry's node tree is composed again when a finding needs its marks).

The scan (`_RISKY`, two patterns) looks where a plain scalar can start in block style: after a line's indentation and any
`- ` sequence indicators, and after `: `. A token there is let through when it starts with a letter or a
quote and is not one of the words YAML 1.1 or some reader types (`yes`, `no`, `on`, `off`, `y`, `n`, the
case variants of `true`, `false`, `null`, and `inf`/`nan` with or without a dot or a sign), or when it is a
whole value both read alike (`true`, `false`, `null`, an integer of at most 18 digits, a plain decimal
fraction, `[]`, `{}`, and strings led by a digit that no reader can take for a number: one holding a character
no number, date or time has, such as `100m` or `1Gi`, a dotted quad or version, a UID). Anything else there
sends the entry to libyaml: a digit or sign or dot (octal `012`,
`1_000`, sexagesimal `1:30`, `1e3`, `.inf`, hex, numbers beyond int64), `~`, `<<` merges, `!` tags, `&`/`*`
(already refused for the whole file by the split), `?` complex keys, `=`, flow collections, any typed-looking
key (yaml-rs would give `1:` an int key, wasplan the string `"1"`), and reserved indicators. A false alarm
(such a form inside a quoted string or a block scalar) only costs speed. `_FLAT` sends to libyaml what
libyaml refuses and yaml-rs accepts: C0 and C1 control characters, tabs and carriage returns, YAML 1.1's
line breaks (NEL, LS, PS), surrogates and non-characters, and lines indented past 90 columns (deeper than
`limits.MAX_DEPTH` could only be reached that way). Any error yaml-rs raises sends the entry to libyaml too,
which reports it with its exact position and wording. So does a text that does not end with a line break
(yaml-rs gives a block scalar that ends the input a line break that is not there).

yaml-rs is optional at run time: without it (or with `WASPLAN_YAML_READER=libyaml`) every entry takes the
libyaml path, with the same values.
"""

from __future__ import annotations

import os
import re
from typing import Any

# value forms yaml-rs and wasplan's YAML 1.1 reading turn into the same value, when they are the whole value
_SAME = (r"(?:true|false|null|0|-?[1-9][0-9]{0,17}|-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}|\[\]|\{\}"
         # strings that start with a digit and no reader takes for a number: a character no number, date or
         # time has (`100m`, `1Gi`, `9d1f-...-node`), dotted quads and versions (`10.0.0.1`, `1.27.3`), UIDs
         r"|[0-9](?:[0-9a-fA-F_.+\-xXoO]|:(?![ \n]))*+[^0-9a-fA-F_.:+\-xXoO\s#][^\n#]*?"
         r"|[0-9]+(?:\.[0-9]+){2,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})")
_END = r"(?=[ ]*(?:\#|\n)|:(?:[ ]|\n))"  # where a plain scalar ends: the line, a comment, a key's colon
_WORDS = r"(?i:[-+]?\.?(?:yes|no|on|off|y|n|true|false|null|nan|inf|infinity))"
_FIRST = "(?=[0-9:~<=!?%@`&*\\[{+.\\-yYnNoOtTfFiI])"  # a cheap look at the first character before the rest
_TOKEN = (_FIRST + r"(?!" + _SAME + r"[ ]*(?:\#|\n))"
          + r"(?:[0-9:~<=!?%@`&*\[{+.]|-[0-9.]|" + _WORDS + _END + r")")
# two patterns, each starting with a literal, which the regex engine finds at C speed (one alternation is 5x slower)
_RISKY = (re.compile(r"\n *+(?:- +)*+" + _TOKEN), re.compile(r": +(?:- +)*+" + _TOKEN))
_FLAT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]|\n[ -]{90}")

_reader: Any = None  # the yaml_rs module once imported, False when it is not there or not wanted


def _loads():
    global _reader
    if _reader is None:
        _reader = False
        if os.environ.get("WASPLAN_YAML_READER", "") != "libyaml":
            try:
                import yaml_rs
            except ImportError:  # an optional speed-up: libyaml reads everything without it
                yaml_rs = None
            if yaml_rs is not None:
                policy = yaml_rs.DuplicateKeyPolicy.Error
                _reader = lambda text: yaml_rs.loads(text, parse_datetime=False, duplicate_key_policy=policy)  # noqa: E731
    return _reader


def available() -> bool:
    return bool(_loads())


def safe(text: str) -> bool:
    """True when nothing in `text` can be read differently by yaml-rs and by wasplan's libyaml path."""
    return not any(pattern.search(text) for pattern in _RISKY) and _FLAT.search(text) is None


def read(text: str) -> Any | None:
    """`text`'s value read by yaml-rs, or None when the libyaml path must read it (no reader, a form the two
    could read differently, or anything yaml-rs refuses). `text` starts a line (`items:\\n- ...`)."""
    loads = _loads()
    if not loads or not text.endswith("\n") or not safe(text if text.startswith("\n") else "\n" + text):
        return None
    try:
        return loads(text)
    except Exception:  # noqa: BLE001 - any refusal is libyaml's to report, with its position and wording
        return None

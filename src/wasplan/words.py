"""Counted nouns in messages: `1 node`, `2 nodes`. Every layer that words a count uses this one rule, so no
message says "1 pods" or "(1 nodes)"; upstream's own phrases (kube-scheduler's `3 node(s) didn't match ...`) are
quoted as upstream writes them and do not go through here.

And the one order for names a person reads in a list (nodes, victims, devices, domains): natural, so `worker-2`
comes before `worker-10` and `rack-2-node-1` before `rack-10-node-0`. JSON keeps the order docs/plan-json.md
documents; this is for what the text, HTML and Markdown views show."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple:
    """Sort key: the name's runs of digits compared as numbers, the text between them as text; the name itself
    last, so `n-01` and `n-1` still have one order."""
    parts = _DIGITS.split(name)  # text, digits, text, ...: the same type at each position for any two names
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts)), name


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 node`, `2 nodes`; `many` for a word whose plural is not `word + "s"` (`class` -> `classes`)."""
    return f"{n} {word if n == 1 else many or word + 's'}"

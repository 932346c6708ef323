"""Counted nouns in messages: `1 node`, `2 nodes`. Every layer that words a count uses this one rule, so no
message says "1 pods" or "(1 nodes)"; upstream's own phrases (kube-scheduler's `3 node(s) didn't match ...`) are
quoted as upstream writes them and do not go through here."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 node`, `2 nodes`; `many` for a word whose plural is not `word + "s"` (`class` -> `classes`)."""
    return f"{n} {word if n == 1 else many or word + 's'}"

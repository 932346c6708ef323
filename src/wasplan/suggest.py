"""The one "did you mean" of wasplan: for unknown fields, explain targets, template and label values, feature
gates and kinds alike, so every command suggests by the same rule.

The rule: a case-insensitive match wins outright (`MinCount` -> `minCount`); otherwise the closest names within
max(2, len/3) edits by Damerau-Levenshtein distance (optimal string alignment: swapping neighbours costs one
edit), never a name that replaces the whole word. Ties go to the alphabetically first name, so a suggestion
never depends on the order of the candidates (or on set iteration order). Names whose letter counts alone differ
by more than the bound are skipped before the distance is computed (`bag_distance`, a lower bound of it), which
halves the cost of a question over hundreds of similar names (lint's claim and template names) and changes no
answer.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def bag_distance(a: Counter, b: Counter) -> int:
    """A lower bound of the edit distance (each edit changes at most one letter on each side; a swap none), so
    names it rules out are never within the bound: a cheap filter before the quadratic distance."""
    return max(sum((a - b).values()), sum((b - a).values()))


def closest(word: str, known: Iterable[str], limit: int = 1) -> list[str]:
    """Up to `limit` names of `known` that `word` most likely misspells, best first (none for an exact match)."""
    candidates = sorted(set(known))
    lowered = word.lower()
    same_case = [name for name in candidates if name.lower() == lowered and name != word]
    if same_case:
        return same_case[:limit]
    bound = max(2, len(word) // 3)
    letters = Counter(lowered)
    scored = []
    for name in candidates:
        if name == word or abs(len(name) - len(word)) > bound:
            continue
        other = name.lower()
        if bag_distance(letters, Counter(other)) > bound:
            continue
        distance = edit_distance(lowered, other)
        if distance <= bound and distance < len(word):
            scored.append((distance, name))
    return [name for _, name in sorted(scored)[:limit]]


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """The single best suggestion, or None."""
    found = closest(word, known, 1)
    return found[0] if found else None


# did_you_mean over more names than this per question would make lint quadratic on huge inputs.
MAX_GUESS_CANDIDATES = 500


def guess(name: str, candidates: list[str]) -> str | None:
    """A spelling suggestion among `candidates`, skipped when there are too many to compare cheaply."""
    return did_you_mean(name, candidates) if len(candidates) <= MAX_GUESS_CANDIDATES else None

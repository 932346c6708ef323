"""Text that fits a width: wrapping that never breaks a word (a too-long token stands on its own line, whole),
and short forms of long lists (`gpu-r1-[0-3]`, `+12 more`). Every text view uses these, so an 80-column
terminal reads as well as a wide one, and a name is never cut in two.
"""

from __future__ import annotations

import re
import textwrap
from typing import Iterable, Sequence

from wasplan.words import natural_key

_WRAPPERS: dict[tuple[int, str, str], textwrap.TextWrapper] = {}


def wrap(text: str, width: int, indent: str = "", subsequent: str | None = None) -> list[str]:
    """`text` as lines of at most `width` columns, broken only at spaces; a longer token keeps its own line."""
    subsequent = indent if subsequent is None else subsequent
    key = (width, indent, subsequent)
    wrapper = _WRAPPERS.get(key)
    if wrapper is None:
        wrapper = _WRAPPERS[key] = textwrap.TextWrapper(
            width=max(width, len(subsequent) + 1), initial_indent=indent, subsequent_indent=subsequent,
            break_long_words=False, break_on_hyphens=False, replace_whitespace=False, drop_whitespace=True)
    lines = wrapper.wrap(text)
    return lines or [indent.rstrip()]


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def _follows(name: str, prefix: str, digits: str, offset: int) -> bool:
    m = _NUMBERED.match(name)
    if not m or m.group(1) != prefix or int(m.group(2)) != int(digits) + offset:
        return False
    padded = [d for d in (digits, m.group(2)) if len(d) > 1 and d.startswith("0")]
    return len(m.group(2)) == len(digits) or not padded


def _runs(names: Sequence[str]) -> list[tuple[str, int]]:
    """Consecutive numbered names with one prefix as (`prefix[a-b]`, count); others as (name, 1)."""
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(names):
        m = _NUMBERED.match(names[i])
        j = i + 1
        if m:
            while j < len(names) and _follows(names[j], m.group(1), m.group(2), j - i):
                j += 1
        if m and j - i >= 3:
            out.append((f"{m.group(1)}[{m.group(2)}-{_NUMBERED.match(names[j - 1]).group(2)}]", j - i))
        else:
            out.append((names[i], 1))
            j = i + 1
        i = j
    return out


def compress(names: Iterable[str]) -> list[tuple[str, int]]:
    """Names in natural order (words.natural_key), runs of three or more consecutive numbers folded: n-0, n-1,
    n-2, n-3 -> (n-[0-3], 4)."""
    return _runs(sorted(set(names), key=natural_key))


def folded(names: Iterable[str], sep: str = ", ") -> str:
    """Every name, in natural order, runs folded: `gpu-[0-7], nic-0`."""
    return sep.join(label for label, _ in compress(names))


def folded_paths(paths: Iterable[str]) -> str:
    """Slash paths folded on their last part per prefix, prefixes in natural order:
    `gpu.example.com/node-0/gpu-[0-3], rdma.example.com/fabric/rdma-0` (a claim's driver/pool/device)."""
    by: dict[str, list[str]] = {}
    for path in paths:
        prefix, _, name = path.rpartition("/")
        by.setdefault(prefix, []).append(name)
    return ", ".join(f"{prefix}/{label}" if prefix else label for prefix in sorted(by, key=natural_key)
                     for label, _ in compress(by[prefix]))


def summarize(names: Iterable[str], width: int, sep: str = ", ") -> str:
    """The folded names joined by `sep`, cut to fit `width` with `+N more` counting the names left out."""
    items = compress(names)
    for keep in range(len(items), 0, -1):
        rest = sum(n for _, n in items[keep:])
        text = sep.join(label for label, _ in items[:keep]) + (f"{sep}+{rest} more" if rest else "")
        if len(text) <= width or keep == 1:
            return text
    return ""


def wrap_text(text, width: int, indent: int = 0, hang: int = 4) -> list:
    """A rich Text as wrapped lines (styles kept), broken only at spaces like `wrap`; continuation lines are
    indented by `indent + hang`."""
    return wrap_lines(text, width, " " * indent, " " * (indent + hang))


def wrap_lines(text, width: int, first: str, rest: str) -> list:
    """A rich Text as wrapped lines (styles kept) behind the prefix `first`, continuation lines behind `rest`
    (tree guides, a hanging indent); broken only at spaces, never ending in a space."""
    from rich.text import Text

    plain = text.plain
    out, pos = [], 0
    for i, line in enumerate(wrap(plain, width, first, rest)):
        prefix = first if i == 0 else rest
        body = line[len(prefix):] if line.startswith(prefix) else line.lstrip(" ")
        start = plain.find(body, pos) if body else pos
        pos = start + len(body)
        out.append(Text(line[: len(line) - len(body)].rstrip() if not body else line[: len(line) - len(body)])
                   + text[start:pos])
    return out


def print_wrapped(console, markup, hang: int = 4) -> None:
    """Print rich markup (or a Text) wrapped between words to the console's width; continuation lines are
    indented by the line's own leading spaces plus `hang`, so a wrapped entry still reads as one."""
    from rich.text import Text

    text = Text.from_markup(markup) if isinstance(markup, str) else markup
    lead = len(text.plain) - len(text.plain.lstrip(" "))
    for line in wrap_text(text[lead:], console.width, lead, hang):
        console.print(line, no_wrap=True, overflow="ignore", crop=False, highlight=False)

"""Edits on a document tree that work the same on plain dicts and on ruamel's comment-keeping maps.

Every migration step is written once against these primitives and runs twice: on a plain copy to find out
cheaply whether (and what) anything changes, then on the round-trip tree of the documents that do. ruamel
stores a comment with the token *before* it, so a comment line above key B lives in the last value of key A;
renaming, removing or inserting keys therefore has to move those comment tokens, or comments would drift to
the wrong field or vanish. That bookkeeping lives here and nowhere else.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedBase, CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import ScalarString
from ruamel.yaml.tokens import CommentToken

KEEP = object()


def is_rt(node: Any) -> bool:
    """True for ruamel's round-trip containers (they carry comments), False for plain data."""
    return isinstance(node, CommentedBase)


def new_map(like: Any, pairs: dict | None = None) -> dict:
    """A mapping of the same family as `like` (round-trip or plain)."""
    out: dict = CommentedMap() if is_rt(like) else {}
    for k, v in (pairs or {}).items():
        out[k] = v
    return out


def _shift_eol(token: CommentToken | None, delta: int) -> None:
    if token is not None and delta and not token.value.startswith("\n"):
        token.column = max(token.column + delta, 0)


def set_scalar(m: dict, key: str, value: Any) -> None:
    """Replace a scalar, keeping its quoting style and the gap before its end-of-line comment."""
    old = m[key]
    if isinstance(old, ScalarString) and isinstance(value, str):
        value = type(old)(value)
    m[key] = value
    if is_rt(m) and key in m.ca.items:
        _shift_eol(m.ca.items[key][2], len(str(value)) - len(str(old)))


def replace_entry(m: dict, old: str, new: str, value: Any = KEEP) -> None:
    """Put `new: value` where `old: ...` was: same position, same comments (above, end-of-line, below)."""
    keys = list(m)
    pos = keys.index(old)
    old_value = m[old]
    if value is KEEP:
        value = old_value
    if not is_rt(m):
        items = [(new, value) if k == old else (k, m[k]) for k in keys]
        m.clear()
        m.update(items)
        return
    following = _take_following(m, old)
    key_col = m.lc.data[old][1] if old in (m.lc.data or {}) else 0
    comment = m.ca.items.pop(old, None)
    del m[old]
    m.insert(pos, new, value)
    if comment is not None:
        delta = len(new) - len(old) + _value_width_change(old_value, value)
        _shift_eol(comment[2], delta)
        m.ca.items[new] = comment
    if isinstance(old_value, (dict, list)) and not isinstance(value, (dict, list)):
        _adopt_inner_comments(m, new, old_value, key_col + len(f"{new}: {value}  "))
    _append_following(m, new, following)


def _value_width_change(old: Any, new: Any) -> int:
    """How far an end-of-line comment after the key moves when the value on the key's line changes."""
    def inline(v: Any) -> int | None:
        return None if isinstance(v, (dict, list)) else len(str(v)) + 1
    before, after = inline(old), inline(new)
    if before is None and after is None:
        return 0
    return (after or 0) - (before or 0)


def _is_flow(node: Any) -> bool:
    return isinstance(node, (CommentedMap, CommentedSeq)) and bool(node.fa.flow_style())


def _adopt_inner_comments(m: dict, key: str, old_value: Any, column: int) -> None:
    """A collection collapsed to a scalar: its end-of-line comments go onto the key's line, not lost."""
    heads = []
    stack = [old_value]
    while stack:
        node = stack.pop()
        if isinstance(node, (CommentedMap, CommentedSeq)):
            for entry in node.ca.items.values():
                for token in entry:
                    if isinstance(token, CommentToken):
                        head = token.value.partition("\n")[0].strip()
                        if head:
                            heads.append(head)
            stack.extend(node.values() if isinstance(node, CommentedMap) else node)
    if heads:
        set_eol(m, key, "  ".join(heads), column)


def set_eol(m: dict, key: str, text: str, column: int = 0) -> None:
    """Give `key`'s line the end-of-line comment `text`, after any it already has."""
    if not is_rt(m) or not text:
        return
    entry = m.ca.items.setdefault(key, [None, None, None, None])
    token = entry[2]
    if token is None:
        entry[2] = CommentToken(text + "\n", start_mark=CommentMark(column))
        return
    head, sep, rest = token.value.partition("\n")
    head = f"{head}  {text}" if head else text
    token.value = head + "\n" + rest


def carry_key_comment(src: dict, src_key: str, dst: dict, dst_key: str) -> None:
    """Keep the end-of-line comment of a key that disappears (`workload:`) on the line of `dst_key`."""
    if not is_rt(src):
        return
    entry = src.ca.items.get(src_key)
    token = entry[2] if entry else None
    head = token.value.partition("\n")[0].strip() if token is not None else ""
    if head:
        set_eol(dst, dst_key, head, token.column or 0)


def move_subtree(inner: Any, outer: Any) -> None:
    """`inner` takes the place of `outer` (one level up): re-indent the comments that move with it."""
    if not is_rt(inner):
        return
    _forget_key_comment(inner)
    if not _is_flow(inner) and inner:
        shift_comments(inner, outer.lc.col - inner.lc.col, inner.lc.col)


def _forget_key_comment(node: Any) -> None:
    """ruamel also keeps a copy of the end-of-line comment of the key a collection hangs under; once the
    collection hangs under another key that copy would be printed twice."""
    if node.ca.comment and node.ca.comment[0] is not None:
        node.ca.comment[0] = None


def nest_subtree(inner: Any, wrapper: Any, parent: Any, key: str) -> None:
    """`inner` moves one level down, under `wrapper`: same flow style, comments re-indented with it."""
    if not is_rt(inner) or not inner:
        return
    _forget_key_comment(inner)
    if _is_flow(inner):
        wrapper.fa.set_flow_style()
        return
    shift_comments(inner, inner.lc.col - parent.lc.col, inner.lc.col)


def _last_slot(container: Any, key: Any) -> tuple[Any, Any, int]:
    """Where ruamel keeps the comment that follows the (possibly nested) value of `container[key]`."""
    value = container[key]
    while isinstance(value, (CommentedMap, CommentedSeq)) and value and not value.fa.flow_style():
        container, key = value, (next(reversed(value)) if isinstance(value, CommentedMap) else len(value) - 1)
        value = container[key]
    return container, key, 2 if isinstance(container, CommentedMap) else 0


def _get_token(slot: tuple[Any, Any, int]) -> CommentToken | None:
    container, key, pos = slot
    entry = container.ca.items.get(key)
    return entry[pos] if entry and len(entry) > pos else None


def _split_token(token: CommentToken | None) -> tuple[str, str]:
    """(end-of-line part, following full-line comment lines) of a trailing comment token."""
    if token is None:
        return "", ""
    head, _, rest = token.value.partition("\n")
    return head, rest


def _take_following(container: Any, key: Any) -> str:
    """Detach the comment lines that follow `container[key]` (they belong to whatever comes next)."""
    slot = _last_slot(container, key)
    token = _get_token(slot)
    head, rest = _split_token(token)
    if rest and token is not None:
        token.value = head + "\n"
        if not head:
            slot[0].ca.items[slot[1]][slot[2]] = None
    return rest


def _append_following(container: Any, key: Any, lines: str) -> None:
    """Attach full-line comments so they are printed right after `container[key]`'s value."""
    if not lines:
        return
    slot = _last_slot(container, key)
    token = _get_token(slot)
    if token is None:
        entry = slot[0].ca.items.setdefault(slot[1], [None, None, None, None])
        entry[slot[2]] = CommentToken("\n" + lines, start_mark=CommentMark(0))
    else:
        token.value = (token.value if token.value.endswith("\n") else token.value + "\n") + lines


def pop_entry(m: dict, key: str) -> Any:
    """Remove `key`; full-line comments above it and after its value stay where they were (a comment is
    never lost just because the field it sat next to went away)."""
    if not is_rt(m):
        return m.pop(key)
    keys = list(m)
    pos = keys.index(key)
    following = _take_following(m, key)
    entry = m.ca.items.pop(key, None)
    above = entry[1] if entry and len(entry) > 1 and entry[1] else []
    following = "".join(" " * (tok.column or 0) + tok.value for tok in above if isinstance(tok, CommentToken)) + following
    value = m.pop(key)
    if following:
        if pos > 0:
            _append_following(m, keys[pos - 1], following)
        elif len(keys) > 1:
            _prepend_start(m, following)
    return value


def _prepend_start(m: CommentedMap, lines: str) -> None:
    """Comment lines printed before the first key of `m` (after those already there)."""
    token = CommentToken(lines, start_mark=CommentMark(0))
    if m.ca.comment is None:
        m.ca.comment = [None, [token]]
    else:
        while len(m.ca.comment) < 2:
            m.ca.comment.append(None)
        m.ca.comment[1] = list(m.ca.comment[1] or []) + [token]


def insert_entry(m: dict, key: str, value: Any, before: str | None = None) -> None:
    """Insert `key: value` before `before` (or last); comments above `before` stay above it."""
    keys = list(m)
    pos = keys.index(before) if before in m else len(keys)
    if not is_rt(m):
        items = list(m.items())
        items.insert(pos, (key, value))
        m.clear()
        m.update(items)
        return
    following = _take_following(m, keys[pos - 1]) if pos > 0 else ""
    m.insert(pos, key, value)
    _append_following(m, key, following)


def shift_comments(node: Any, delta: int, min_col: int) -> None:
    """Re-indent comments inside a subtree that moved `delta` columns (lines left of `min_col` stay put)."""
    if not delta or not isinstance(node, (CommentedMap, CommentedSeq)):
        return
    for entry in list(node.ca.items.values()):
        for token in entry:
            for t in token if isinstance(token, list) else [token]:
                if isinstance(t, CommentToken):
                    _shift_token(t, delta, min_col)
    for child in node.values() if isinstance(node, CommentedMap) else node:
        shift_comments(child, delta, min_col)


def _shift_token(token: CommentToken, delta: int, min_col: int) -> None:
    head, sep, rest = token.value.partition("\n")
    if head and token.column is not None:
        token.column = max(token.column + delta, 0)
    lines = []
    for line in rest.splitlines(keepends=True):
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent >= min_col:
            line = " " * max(indent + delta, 0) + line.lstrip(" ")
        lines.append(line)
    token.value = head + sep + "".join(lines)

"""Reading the few fields a controller acts on, tolerating malformed input: a wrong value is a positioned
WAS602 finding and the controller's default is used instead (validation reports the schema error too)."""

from __future__ import annotations

from wasplan.cluster.issues import Ctx
from wasplan.diagnostics import format_path


def mapping(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def count(spec: dict, key: str, ctx: Ctx, default: int | None) -> int | None:
    """A non-negative integer field (replicas, parallelism, size) of `spec`, which `ctx` points at, or `default`
    when absent or wrong."""
    value = spec.get(key)
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    ctx.report("WAS602", f"{format_path((*ctx.prefix, key))} must be a non-negative integer, got {value!r}", (key,))
    return default


def has_controller(meta: dict) -> bool:
    refs = meta.get("ownerReferences")
    return isinstance(refs, list) and any(isinstance(r, dict) and r.get("controller") is True for r in refs)

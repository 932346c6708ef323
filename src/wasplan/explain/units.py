"""Amounts in the units a manifest uses: the engine keeps cpu in millicores and memory in bytes."""

from __future__ import annotations

GIB = 2**30


def amount(resource: str, value: int) -> str:
    if resource == "cpu":
        return f"{value / 1000:g}"
    if resource in ("memory", "ephemeral-storage"):
        return f"{value / GIB:.1f}Gi".replace(".0Gi", "Gi")
    return str(value)


def resources(values: dict[str, int]) -> str:
    return ", ".join(f"{k}: {amount(k, v)}" for k, v in sorted(values.items()) if k != "pods")

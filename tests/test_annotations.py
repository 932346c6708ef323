"""Every dataclass's field annotations name types its module can resolve (one once named PlanInputs without
importing it, which `typing.get_type_hints` and tools built on it trip over)."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import typing

import wasplan


def test_dataclass_annotations_resolve():
    unresolved = []
    for info in pkgutil.walk_packages(wasplan.__path__, "wasplan."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__:
                try:
                    typing.get_type_hints(value)
                except NameError as exc:
                    unresolved.append(f"{module.__name__}.{value.__name__}: {exc}")
    assert unresolved == []

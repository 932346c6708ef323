"""The code of the methods dataclasses generate, compiled once and kept between runs as Python keeps bytecode.

CPython's dataclasses write each generated method (`__init__`, `__repr__`, `__eq__`; for a frozen class
`__setattr__`, `__delattr__` and `__hash__`) as source text and compile it when the class is created: a
`wasplan plan` process creates 130 classes and compiles 649 such texts, about 90 ms of CPU (CPython 3.11,
measured 2026-12-06). The texts are the same in every run, so the CLI entry (`install`) has each compiled once:
dataclasses looks up `exec` among its module's globals before the builtins (CPython 3.11 to 3.14), and `install`
puts `_exec` there, which compiles a text as `exec` itself would (file name `<string>`, the caller's
`__future__` flags and no others) unless its code is cached. With the cache a plan's imports take ~40 ms less
(the rest of class creation is dataclasses' own Python).

The cache is one marshal file where Python puts wasplan's bytecode (`wasplan/__pycache__/
dataclass_methods.<tag>.marshal`, or under PYTHONPYCACHEPREFIX), stamped with the interpreter's bytecode magic
number. Entries are keyed by the text and flags, each code marshalled on its own so that a process unmarshals
only what it uses: a class that changes has a new text and is compiled afresh, so an entry can go unused but is
never wrong. `save` writes the file again (atomically) when a run compiled something new, unless Python writes
no bytecode (PYTHONDONTWRITEBYTECODE); a missing, unreadable or foreign file, or a damaged entry, only means
compiling as before. Library callers never go through it: only `wasplan.cli.app.main` installs it. Jinja2's
bytecode cache does the same for compiled templates.
"""

from __future__ import annotations

import __future__
import builtins
import contextlib
import functools
import inspect
import marshal
import operator
import os
import sys
from importlib.util import MAGIC_NUMBER, cache_from_source
from pathlib import Path
from types import CodeType

_STAMP = (MAGIC_NUMBER, 2)  # the interpreter's bytecode magic number and this file's layout
MAX_ENTRIES = 20_000  # past this many (many versions' classes), the file keeps only the current run's new ones
# the `__future__` flags a code object passes on to exec(text) (CPython's PyCF_MASK: every feature's flag but
# nested_scopes', which is the code flag CO_NESTED)
_FUTURE_FLAGS = functools.reduce(operator.or_, (getattr(__future__, name).compiler_flag
                                                for name in __future__.all_feature_names)) & ~inspect.CO_NESTED

# (text, flags) -> the marshalled code: a process unmarshals only the code of the classes it creates
_codes: dict[tuple[str, int], bytes] = {}
_new: dict[tuple[str, int], bytes] = {}
compiled = 0  # texts this process compiled (the rest came from the file)


def cache_file() -> Path:
    """Where Python would put the bytecode of a module `wasplan/dataclass_methods.py`, as a .marshal file."""
    package = Path(__file__).resolve().parent.parent
    return Path(cache_from_source(str(package / "dataclass_methods.py"))).with_suffix(".marshal")


def install() -> None:
    """Read the cache and route dataclasses' compilation through it for the rest of the process."""
    import dataclasses

    _codes.update(_read(cache_file()))
    dataclasses.exec = _exec  # dataclasses calls `exec(text, globals, namespace)` for every method it writes


def _read(path: Path) -> dict:
    try:
        stamp, codes = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return codes if stamp == _STAMP and isinstance(codes, dict) else {}


def _exec(source, globals=None, locals=None, /, **kwargs):  # noqa: A002 - exec's own parameter names
    """`exec`, with a source text's code taken from the cache (or compiled and added to it)."""
    global compiled
    if isinstance(source, str):
        flags = sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS  # what exec(text) inherits from its caller
        key = (source, flags)
        code = _stored(key)
        if code is None:
            code = compile(source, "<string>", "exec", flags, dont_inherit=True)
            _codes[key] = _new[key] = marshal.dumps(code)
            compiled += 1
        source = code
    return builtins.exec(source, globals, locals, **kwargs)


def _stored(key: tuple[str, int]) -> CodeType | None:
    stored = _codes.get(key)
    if stored is None:
        return None
    try:
        code = marshal.loads(stored)
    except (EOFError, ValueError, TypeError):  # a damaged entry is compiled again
        return None
    return code if isinstance(code, CodeType) else None


def save(force: bool = False) -> None:
    """Write the cache when this run compiled texts it lacked (`force`: even where Python writes no bytecode)."""
    if not _new or sys.dont_write_bytecode and not force:
        return
    path = cache_file()
    codes = _codes if len(_codes) <= MAX_ENTRIES else _new
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):  # a read-only installation compiles in every run, as without the cache
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps((_STAMP, codes)))
        os.replace(temporary, path)
        _new.clear()
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def warm() -> int:
    """Import every wasplan module with the cache installed and write it, whatever PYTHONDONTWRITEBYTECODE says
    (benchmarks/bytecode.py: an installed copy after its first run); the number of texts compiled."""
    import importlib
    import pkgutil

    import wasplan

    install()
    for module in pkgutil.walk_packages(wasplan.__path__, "wasplan."):
        if module.name != "wasplan.__main__":
            importlib.import_module(module.name)
    save(force=True)
    return compiled

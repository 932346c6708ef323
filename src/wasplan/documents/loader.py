"""The YAML loader for the fast read path: libyaml's C parser with a memoising tag resolver.

Profiling showed PyYAML's implicit resolver (a Python regex scan per plain scalar) costing more than the C
parse itself. Most plain scalars start with a letter that no YAML 1.1 type can start with, so they are
strings at once; the rest repeat endlessly in manifests (`8`, `true`, `1Gi`), so their resolved tag is cached
per (value, implicit) and the regexes run once per distinct scalar.

Implicit resolution yields only the plain-data tags: a plain `2024-01-01` or `=` stays a string (as the API
server's YAML-to-JSON step keeps it), so that any other tag the builder meets was written explicitly and is a
finding there (`documents/construct.py`).
"""

from __future__ import annotations

import yaml
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

try:
    from yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef]
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)

_MAX_CACHED = 200_000
_cache: dict[tuple[str, tuple[bool, bool]], str] = {}
_STR_TAG = "tag:yaml.org,2002:str"
# First characters with which a plain scalar can resolve to something other than a string in YAML 1.1
# (bool, null, int, float, merge, value); anything else is a string without running a regex.
_MAYBE_TYPED = frozenset("0123456789+-.~<=yYnNtTfFoO")
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "merge"))


class FastLoader(_Parser, Resolver):
    """Composes nodes only; values are built by `documents.construct`, which needs no constructor here."""

    def __init__(self, stream: str):
        _Parser.__init__(self, stream)
        Resolver.__init__(self)

    def resolve(self, kind, value, implicit):  # noqa: D401 - PyYAML's hook name
        if kind is not ScalarNode or not implicit[0]:
            return Resolver.resolve(self, kind, value, implicit)
        if value and value[0] not in _MAYBE_TYPED:
            return _STR_TAG
        key = (value, implicit)
        tag = _cache.get(key)
        if tag is None:
            tag = Resolver.resolve(self, kind, value, implicit)
            if tag not in _PLAIN_TAGS:  # timestamp, value: text, as the API server reads them
                tag = _STR_TAG
            if len(_cache) < _MAX_CACHED and len(value) < 256:
                _cache[key] = tag
        return tag


def compose(text: str):
    """The first document's node tree (used to locate fields of JSON inputs lazily)."""
    return yaml.compose(text, Loader=FastLoader)

"""What a KubeSchedulerConfiguration's plugin entries share: the error a configuration wasplan cannot use raises,
and the list-of-names check every `{name: ...}` list goes through. A plugin that takes arguments parses its own
`pluginConfig[].args` (its `args` entry in registry.py); config.py applies what it returns to the profile.
"""

from __future__ import annotations

from typing import Any


class ConfigError(ValueError):
    """A KubeSchedulerConfiguration wasplan cannot use."""


def names(items: Any) -> list[dict]:
    """The entries of a plugin or resource list; each must have a string name (the API server's decoding
    rejects anything else, and a name is used as a key)."""
    if not items:
        return []
    if not isinstance(items, list):
        raise ConfigError(f"expected a list of {{name: ...}} entries, got {type(items).__name__}")
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ConfigError(f"every entry needs a string name, got {str(item)[:60]}")
    return items

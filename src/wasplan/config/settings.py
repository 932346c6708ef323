"""The effective settings of a run, as a plain frozen value the pipeline receives.

Every setting has one key, spelled like its long command-line option (`k8s-version`, `strict-inputs`), so a
config file reads like the command line it replaces (ruff's `[tool.ruff]` and kube-linter's `.kube-linter.yaml`
are the anchors). `sources` says where each value came from, for `wasplan config`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

from wasplan.api.releases import DEFAULT_RELEASE
from wasplan.documents.reader import ReadOptions
from wasplan.plan import FailOn

DEFAULT = "default"
COMMAND_LINE = "command line"


@dataclass(frozen=True)
class Settings:
    """The settings of a run, merged from configuration files, the environment and the command line."""

    k8s_version: str = DEFAULT_RELEASE
    feature_gates: str | None = None  # `Name=true,Other=false`, as --feature-gates takes it
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, codes), relative to `root`
    strict: bool = False
    strict_inputs: bool = False
    cluster: tuple[str, ...] = ()
    fail_on: FailOn = FailOn.PENDING
    root: str = "."  # the directory per-file-ignores globs are relative to (the config file's)
    config_file: str | None = None
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    def read_options(self) -> ReadOptions:
        return ReadOptions(exclude=self.exclude, strict_inputs=self.strict_inputs)

    def source(self, key: str) -> str:
        return self.sources.get(key, DEFAULT)


def key_of(field_name: str) -> str:
    return field_name.replace("_", "-")


def field_of(key: str) -> str:
    return key.replace("-", "_")


SETTING_KEYS: tuple[str, ...] = tuple(key_of(f.name) for f in fields(Settings)
                                      if f.name not in ("root", "config_file", "sources"))


def relative_to_cwd(path: str, base: str) -> str:
    """A path written in a config file is relative to that file's directory. Shown relative to the working
    directory when inside it, absolute otherwise (no `../../..` chains)."""
    joined = os.path.abspath(os.path.join(base, path))
    rel = os.path.relpath(joined)
    return joined if rel.startswith("..") else rel

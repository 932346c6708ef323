"""The rule table of validate/rules names each kind's rules as `module.function`, loaded with the kind's first
document: every name resolves to the function that module defines, and the groups the table dispatches on are
the ones the Kueue modules declare."""

from __future__ import annotations

import importlib

from wasplan.validate import rules
from wasplan.validate.rules import kueue, kueue_config


def test_every_rule_name_resolves_to_its_modules_function():
    for name in sorted(set(rules._RULES.values()) | {"kueue.check", "kueue_config.check"}):
        module, function = name.split(".")
        assert rules.rule(name) is getattr(importlib.import_module(f"wasplan.validate.rules.{module}"), function)


def test_the_kueue_groups_are_the_modules_own():
    assert (rules.KUEUE_GROUP, rules.KUEUE_CONFIG_GROUP) == (kueue.GROUP, kueue_config.GROUP)

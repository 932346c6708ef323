"""Semantic versions as the DRA API accepts them for a device's `version` attribute (SemVer 2.0.0):
MAJOR.MINOR.PATCH without leading zeros, an optional pre-release and build metadata. The API's rules
(dra_rules.py) and CEL's semver values (cel/values.py) use this one grammar.
"""

from __future__ import annotations

import re

SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")


def is_semver(text: str) -> bool:
    return SEMVER.match(text) is not None

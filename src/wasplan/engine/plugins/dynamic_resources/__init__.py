"""DynamicResources as the framework knows it: the plugin's name, its reasons and PostFilter texts, its Filter
error, and which pods it concerns. The plugin itself, the stateful object that keeps the plan's ResourceClaims and
drives the structured allocator, is `dynamic_resources/plugin.py` (its docstring gives the semantics and the
upstream files followed); it loads with the allocator only when a plan's inputs hold DRA objects or a pod with
claims (engine/profile/draworld.py `install`), so this module imports nothing of DRA's and every plan can name the
plugin in its registry and profiles without paying for it.

The reasons are interned here, not with the plugin, so their codes (engine/pluginapi/status.py) are the same
whether or not the plugin is ever loaded.
"""

from __future__ import annotations

from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "DynamicResources"
CANNOT_ALLOCATE = REASONS.intern("cannot allocate all claims", Code.UNRESOLVABLE)
NOT_AVAILABLE = REASONS.intern("resourceclaim not available on the node", Code.UNRESOLVABLE)
INVALID = REASONS.intern("invalid resource pools were encountered", Code.UNRESOLVABLE)  # engine.dra.INVALID_POOLS
DEALLOCATED = "deallocation of ResourceClaim completed"
STILL_NOT_SCHEDULABLE = "still not schedulable"
NO_NEW_CLAIMS = "no new claims to deallocate"  # PostFilter when PreFilter left no claims in the cycle state
EVERY_NODE_UP_TO = 100  # upstream's minFeasibleNodesToFind: below it, Filter runs on every node


class FilterError(Exception):
    """Filter returned Error: the scheduling attempt stops with this message."""


def filter_error_message(err: str) -> str:
    return f'running "{NAME}" filter plugin: {err}'


def post_filter_text(message: str, caps) -> str:
    """What a PostFilter verdict adds to the FitError in this release: 1.37 drops the two texts that mean
    "nothing was deallocated" (its status has no message)."""
    if caps.dra_post_filter_silent and message in (NO_NEW_CLAIMS, STILL_NOT_SCHEDULABLE):
        return ""
    return message


def has_claims(pod) -> bool:
    return bool(pod.resource_claims)

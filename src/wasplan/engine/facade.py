"""What the explain layer uses of the engine, in one place: explain imports the engine through this module only
(tests/test_layers.py holds it to that), so the surface it depends on is visible and small enough to review.

The simulation and its records (Simulator, the world's pod and group states, outcomes), the scheduler's
per-plugin verdicts (the registry, the recorder, Diagnosis, the reason table), the pod keys, topology placements
and the rules the plugins give the exact check, and what explain's device evidence reads of the DRA allocator.
"""

from __future__ import annotations

from wasplan.engine.cycle import recorder

from wasplan.engine.profile import registry
from wasplan.engine.result.claimoutcome import allocation_node
from wasplan.engine.profile.config import DEFAULT_SCHEDULER
from wasplan.engine.cycle.diagnosis import Diagnosis
from wasplan.engine.cycle.domains import PlacementError, pinned_domain
from wasplan.engine.dra import devicevalues, stages
from wasplan.engine.dra.devicevalues import Unpublished, ValueCount
from wasplan.engine.dra.errors import AllocationError, NodeUnschedulable
from wasplan.engine.dra.pools import node_matches
from wasplan.engine.dra.precheck import Precheck
from wasplan.engine.dra.take import available_counters
from wasplan.engine.pluginapi.exactrules import Group, SpreadRule
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.result.outcome import group_outcome, pod_outcome
from wasplan.engine.cycle.placement import bound_rows, tas_on, topology_key
from wasplan.engine.plugins import dynamic_resources, resources_fit
from wasplan.engine.plugins.node_affinity import label_values
from wasplan.engine.plugins.resources_fit import ScoringStrategy
from wasplan.engine.plugins.taint_toleration import blocking_taints, taint_text
from wasplan.engine.cycle.podkeys import shape_key
from wasplan.engine.simulator import Simulator
from wasplan.engine.pluginapi.status import REASONS
from wasplan.engine.cache.world import NOT_CREATED, GroupState, PodState, SimStatus

DRA = dynamic_resources.NAME

__all__ = [
    "DEFAULT_SCHEDULER", "DRA", "NOT_CREATED", "REASONS", "AllocationError", "Diagnosis", "EngineOptions", "Group",
    "GroupState", "NodeUnschedulable", "PlacementError", "PodState", "Precheck", "ScoringStrategy", "SimStatus", "Simulator",
    "SpreadRule", "Unpublished", "ValueCount", "allocation_node", "available_counters", "blocking_taints",
    "bound_rows", "devicevalues", "dynamic_resources", "group_outcome", "label_values", "node_matches",
    "pinned_domain", "pod_outcome", "recorder", "registry", "resources_fit", "shape_key", "stages", "tas_on",
    "taint_text", "topology_key",
]

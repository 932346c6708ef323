"""The version-free model of the workload-aware scheduling objects.

Every version (v1alpha1, v1alpha2, v1alpha3, v1beta1) converts to and from these types, so the engine, lint
and migrate's self-check reason about one shape only. Field meanings follow the 1.37 API
(staging/src/k8s.io/api/scheduling/v1alpha3/types.go); where 1.36 spells something differently
(`disruptionMode: PodGroup`, `podGroupTemplateRef.workload`) the converters translate.

The types are frozen, keyword-only dataclasses: equal when their fields are, hashable when their fields are
(a `metadata` dict makes a Workload or PodGroup unhashable), changed with `dataclasses.replace`. They check
nothing themselves: every object read from a document goes through `wasplan.api.convert.to_hub`, which holds
the field types to what the API server's decoding would give (api/fields.py), and the engine and controllers
build them only from values already of the right type. (Until issue 33 they were pydantic models; pydantic's
import and validation were 0.10-0.15 s of every process, for checks that belong at the one reading boundary.)
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

_model = dataclasses.dataclass(frozen=True, kw_only=True, slots=True)


class PolicyKind(str, enum.Enum):
    BASIC = "basic"
    GANG = "gang"


class DisruptionMode(str, enum.Enum):
    """1.37 `{single: {}}` / `{all: {}}`; 1.36 `Pod` / `PodGroup`."""

    SINGLE = "single"
    ALL = "all"


class PreemptionPolicy(str, enum.Enum):
    NEVER = "Never"
    PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"


@_model
class SchedulingPolicy:
    kind: PolicyKind
    # gang.minCount for PodGroups and their templates; gang.minGroupCount for composites
    min_count: int | None = None
    min_group_count: int | None = None


@_model
class ResourceClaim:
    name: str
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


@_model
class GroupSettings:
    """What a PodGroup, a CompositePodGroup and their templates have in common."""

    policy: SchedulingPolicy
    topology_keys: tuple[str, ...] = ()
    disruption_mode: DisruptionMode | None = None
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: PreemptionPolicy | None = None


@_model
class PodGroupTemplate(GroupSettings):
    name: str
    resource_claims: tuple[ResourceClaim, ...] = ()


@_model
class CompositePodGroupTemplate(GroupSettings):
    name: str
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_templates: tuple[CompositePodGroupTemplate, ...] = ()


@_model
class ControllerRef:
    api_group: str | None = None
    kind: str
    name: str


@_model
class WorkloadRef:
    workload_name: str
    template_name: str


@_model
class Workload:
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)
    controller_ref: ControllerRef | None = None
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_templates: tuple[CompositePodGroupTemplate, ...] = ()


@_model
class Condition:
    """`type` uses the 1.37 names (PodGroupInitiallyScheduled); 1.36's PodGroupScheduled converts to it."""

    type: str
    status: str
    reason: str | None = None
    message: str | None = None
    last_transition_time: str | None = None
    observed_generation: int | None = None


@_model
class ResourceClaimStatus:
    name: str
    resource_claim_name: str | None = None


@_model
class PodGroup(GroupSettings):
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)
    workload_ref: WorkloadRef | None = None
    parent_composite: str | None = None
    resource_claims: tuple[ResourceClaim, ...] = ()
    conditions: tuple[Condition, ...] | None = None
    resource_claim_statuses: tuple[ResourceClaimStatus, ...] | None = None


@_model
class CompositePodGroup(GroupSettings):
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)
    workload_ref: WorkloadRef
    parent_composite: str | None = None
    conditions: tuple[Condition, ...] | None = None


HubObject = Workload | PodGroup | CompositePodGroup

# Condition types whose name changed between releases: 1.36 name -> hub (1.37) name.
CONDITION_RENAMES_136 = {"PodGroupScheduled": "PodGroupInitiallyScheduled"}

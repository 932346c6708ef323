"""The version-free model of the workload-aware scheduling objects.

Every version (v1alpha1, v1alpha2, v1alpha3, v1beta1) converts to and from these types, so the engine, lint
and migrate's self-check reason about one shape only. Field meanings follow the 1.37 API; where 1.36 spells
something differently (`disruptionMode: PodGroup`, `podGroupTemplateRef.workload`) the converters translate.
"""

from __future__ import annotations

import enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


class SchedulingPolicy(_Frozen):
    kind: PolicyKind
    # gang.minCount for PodGroups and their templates; gang.minGroupCount for composites
    min_count: int | None = None
    min_group_count: int | None = None


class ResourceClaim(_Frozen):
    name: str
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


class GroupSettings(_Frozen):
    """What a PodGroup, a CompositePodGroup and their templates have in common."""

    policy: SchedulingPolicy
    topology_keys: tuple[str, ...] = ()
    disruption_mode: DisruptionMode | None = None
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: PreemptionPolicy | None = None


class PodGroupTemplate(GroupSettings):
    name: str
    resource_claims: tuple[ResourceClaim, ...] = ()


class CompositePodGroupTemplate(GroupSettings):
    name: str
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_templates: tuple["CompositePodGroupTemplate", ...] = ()


class ControllerRef(_Frozen):
    api_group: str | None = None
    kind: str
    name: str


class WorkloadRef(_Frozen):
    workload_name: str
    template_name: str


class Workload(_Frozen):
    metadata: dict[str, Any] = Field(default_factory=dict)
    controller_ref: ControllerRef | None = None
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_templates: tuple[CompositePodGroupTemplate, ...] = ()


class Condition(_Frozen):
    """`type` uses the 1.37 names (PodGroupInitiallyScheduled); 1.36's PodGroupScheduled converts to it."""

    type: str
    status: str
    reason: str | None = None
    message: str | None = None
    last_transition_time: str | None = None
    observed_generation: int | None = None


class ResourceClaimStatus(_Frozen):
    name: str
    resource_claim_name: str | None = None


class PodGroup(GroupSettings):
    metadata: dict[str, Any] = Field(default_factory=dict)
    workload_ref: WorkloadRef | None = None
    parent_composite: str | None = None
    resource_claims: tuple[ResourceClaim, ...] = ()
    conditions: tuple[Condition, ...] | None = None
    resource_claim_statuses: tuple[ResourceClaimStatus, ...] | None = None


class CompositePodGroup(GroupSettings):
    metadata: dict[str, Any] = Field(default_factory=dict)
    workload_ref: WorkloadRef
    parent_composite: str | None = None
    conditions: tuple[Condition, ...] | None = None


HubObject = Workload | PodGroup | CompositePodGroup

# Condition types whose name changed between releases: 1.36 name -> hub (1.37) name.
CONDITION_RENAMES_136 = {"PodGroupScheduled": "PodGroupInitiallyScheduled"}

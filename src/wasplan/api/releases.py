"""Which Kubernetes release serves which workload-aware scheduling API, and which feature gates it has.

Facts from ../shared/reference/api-reference.md §1-2 (upstream: staging/src/k8s.io/api/scheduling/*/types.go,
pkg/features/kube_features.go). wasplan's default gate profile turns on every gate the workload-aware
features need, because a team planning for these APIs runs with them enabled; `--feature-gates` says otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from wasplan.suggest import did_you_mean

SCHEDULING_GROUP = "scheduling.k8s.io"
SCHEDULING_KINDS = ("Workload", "PodGroup", "CompositePodGroup")
# every scheduling.k8s.io version of the workload kinds any release had: v1alpha1 (1.35), v1alpha2 (1.36),
# v1alpha3 and v1beta1 (1.37); a version outside this list never existed (api-reference.md §1)
SCHEDULING_VERSIONS = tuple(f"{SCHEDULING_GROUP}/{v}" for v in ("v1alpha1", "v1alpha2", "v1alpha3", "v1beta1"))
SUPPORTED_RELEASES = ("1.36", "1.37", "1.38")
DEFAULT_RELEASE = "1.37"  # 1.38 is modelled on a pre-release; moving the default is this one line
# the release that introduced each scheduling.k8s.io version: the one table validation and migration read
RELEASE_OF_VERSION = {"v1alpha1": "1.35", "v1alpha2": "1.36", "v1alpha3": "1.37", "v1beta1": "1.37"}


@dataclass(frozen=True)
class Gate:
    """A feature gate of a release: its stage, default and what it changes."""

    name: str
    stage: str  # Alpha | Beta | GA
    default: bool  # upstream default
    summary: str
    locked: bool = False  # GA and locked to its default: --feature-gates cannot switch it
    workload_aware: bool = False  # wasplan's default profile turns it on; every other gate keeps upstream's default


@dataclass(frozen=True)
class Capabilities:
    """What a release's scheduler, controllers and APIs do differently, by name, so code asks "does this release
    queue PodGroups as one entity?" instead of comparing version strings (engine-semantics.md §1.6-1.8,
    api-reference.md §1-2, §8)."""

    group_entity_cycle: bool  # a PodGroup is queued and scheduled as one entity (PlacementFeasible); else the
    #                           pod-led group cycle that GangScheduling's Permit decides (1.36)
    groups_need_gang_gate: bool  # PodGroup cycles also need the GangScheduling plugin gate (1.36)
    group_condition: str  # the condition type the scheduler writes on a PodGroup
    group_priority: bool  # groups carry their own priority under GenericWorkload: members must match it and
    #                       grouped victims are judged by it everywhere
    whole_group_victims: bool  # DefaultPreemption evicts disruptionMode `all` groups as units, groups first
    group_preemption_prefix: str  # how a group's failure message introduces workload-aware preemption's verdict
    #                               (1.37 DefaultPreemption.PodGroupPostFilter adds "pod group preemption: "; 1.36
    #                               passes the evaluator's status on as it is)
    constrained_group_preemption: bool  # workload-aware preemption also runs for a PodGroup with a topology
    #                                     constraint (1.37.2 has no refusal; 1.36.5 runWorkloadAwarePreemption refuses)
    composites: bool  # CompositePodGroup, composite templates and parent references exist
    job_scheduling_field: bool  # Job.spec.scheduling exists (1.36 gang-schedules indexed Jobs implicitly)
    nested_template_ref: bool  # a PodGroup names its template as podGroupTemplateRef.workload (1.36 v1alpha2)
    # the structured allocator's behaviours that changed in 1.37 (engine/dra/features.py):
    dra_cel_error_on_device: bool  # a selector's CEL runtime error names the device and fails the claim
    dra_counters_follow_node_selection: bool  # counters of devices reachable from many nodes follow node selection
    dra_claim_config_once: bool  # a claim's config is applied once, not per request
    dra_shared_devices_consume_counters: bool  # devices that allow multiple allocations consume counters
    dra_post_filter_silent: bool  # DynamicResources' PostFilter that deallocates nothing adds no text (1.37; 1.36
    #                               says `no new claims to deallocate` or `still not schedulable`)
    dra_cycle_allocation_pins: bool  # a PodGroup member reusing an allocation an earlier member made in the same
    #                                  cycle is held to its nodeSelector (1.37; 1.36.5 PreFilter skips it)
    child_jobs_get_no_workload: bool  # a Job with a controller owner (a JobSet's child) gets no Workload/PodGroup
    #                                   from the Job controller (job_scheduling_manager.go shouldManageWorkloadForJob)
    image_volumes_count: bool  # ImageLocality's thresholds scale with the image volumes too, not only the
    #                            containers (imagelocality/image_locality.go sumImageScores, v1.37.2)
    # the plugin names of kube-scheduler's in-tree registry (pkg/scheduler/framework/plugins/registry.go
    # NewInTreeRegistry, names from plugins/names/names.go): a profile naming any other plugin does not start
    in_tree_plugins: frozenset[str] = frozenset()
    spread_empty_selector_counts_none: bool = True  # PodTopologySpread counts no pod for `labelSelector: {}`
    #                                               (countPodsMatchSelector through 1.37; 1.38 counts all, #141340)
    group_validation_condition: bool = False  # a PodGroup whose pods fail validatePodGroup (schedulerName,
    #                                           priority) gets its scheduling condition False/SchedulerError (1.37
    #                                           schedule_one_podgroup.go updatePodGroupConditionWithError)
    group_admission_gate: str = "WorkloadAwarePreemption"  # the gate under which Priority admission resolves (and
    #                           refuses) a PodGroup's class (plugin/pkg/admission/priority admitPodGroup)
    # what 1.38's API server validates and admits differently (pkg/apis/scheduling/validation/validation.go,
    # pkg/apis/batch/validation/validation.go, plugin/pkg/admission/priority/admission.go of v1.38.0-beta.0):
    all_disruption_needs_gang: bool = False  # a group or template whose policy is not gang cannot use
    #                                         disruptionMode `all` (validation.go validateDisruptionMode, on create)
    gang_parent_needs_gang_children: bool = False  # a gang CompositePodGroupTemplate's children are gang, an `all`
    #                                              one's children `all` (validation.go validateWorkloadTemplates)
    uniform_preemption_policy: bool = False  # Workload templates share preemptionPolicy too, with the one message
    #                                         of validateWorkloadPriority
    job_scheduling_exclusive: bool = False  # Job spec.scheduling goes neither with template.spec.schedulingGroup
    #                                        nor with the delegation annotations (batch validation.go)
    group_priority_max: int | None = 1_000_000_000  # the schema's bound on a group's priority (None: unbounded)
    admission_fills_preemption_policy: bool = False  # Priority admission fills a group's preemptionPolicy from its
    #                                  class (a `Never` class is admitted with Never filled in); the API schema no
    #                                  longer defaults it (SetDefaults_PodGroup deleted in 1.38)
    # what 1.38's scheduler does differently (pkg/scheduler of v1.38.0-beta.0, release-1.38.md §4):
    group_fit_error: bool = False  # group statuses are podGroupFitErrors (types.go): the plugin's reason with no
    #                               `pod group is unschedulable, ` lead; GangScheduling's PlacementFeasible counts
    #                               unschedulable and not-evaluated members and holds every policy to a threshold
    #                               (basic: 1); the members that did not fail themselves read `parent pod group %q
    #                               is unschedulable` (schedule_one.go, algorithm_podgroup.go, gangscheduling.go)
    hierarchy_validation: bool = False  # validatePodGroupHierarchy runs before a group's cycle: pods share the
    #                                    first pod's schedulerName, the root's priority and the expected preemption
    #                                    policy; a failure is reason PodGroupError (schedule_one_podgroup.go)
    single_members_are_pod_victims: bool = False  # a disruptionMode-single group's pods are Pod victims, ranked
    #                                       like standalone pods (preemption/util.go MoreImportantVictim, #142955)
    wap_rank_nodes: bool = False  # workload-aware preemption places each member on the feasible nodes of the
    #                               lowest preemption cost (DefaultPreemption RankNodes/Reserve; ranknodes.py)
    composite_condition: str = ""  # the condition the scheduler writes on a CompositePodGroup ("" for none;
    #                                1.38 CompositePodGroupInitiallyScheduled, updateInitiallyScheduledCondition)
    placement_sampling: bool = False  # with TAS the scheduler stops after a share of feasible placements, shuffled
    #                                   (percentageOfPlacementsToScore, algorithm_podgroup.go); wasplan scores all
    empty_domain_excluded: bool = False  # nodes whose topology label value is "" are in no placement, and a bound
    #                                     member on one is an error (topologyaware/topology_placement.go)
    pdb_empty_selector_matches_all: bool = False  # a PodDisruptionBudget with `selector: {}` covers every pod of
    #                                              its namespace in preemption (preemption/util.go, #141785)
    owned_jobs_follow_scheduling: bool = False  # a Job with a controller owner that has spec.scheduling gets its
    #                                            Workload and PodGroup after all (job_scheduling_manager.go
    #                                            getManagementMode of v1.38.0-beta.0)
    job_delegation: bool = False  # a Job with the delegation annotations gets only a PodGroup, from the named
    #                              Workload's template (job_scheduling_manager.go getOrCreateDelegatedPodGroup),
    #                              and every Job's PodGroup takes its parent from the parent-compositepodgroup
    #                              annotation (createPodGroup)
    nominated_placement_first: bool = False  # a standalone PodGroup whose queued pods are nominated to nodes of
    #                                         exactly one placement takes that placement when it places a new
    #                                         member, without scoring the others (algorithm_podgroup.go, #139472)
    tree_preemption_verdict: bool = False  # every group of a failed CompositePodGroup tree carries what the root's
    #                                       PodGroupPostFilter said, appended once (schedule_one_podgroup.go
    #                                       applyPodGroupPostFilterResult; 1.37's shared statuses repeat it)


_IN_TREE_136 = frozenset({
    "DynamicResources", "ImageLocality", "TaintToleration", "NodeName", "NodePorts", "NodeAffinity",
    "NodeDeclaredFeatures", "PodTopologySpread", "NodeUnschedulable", "NodeResourcesFit",
    "NodeResourcesBalancedAllocation", "VolumeBinding", "VolumeRestrictions", "VolumeZone", "NodeVolumeLimits",
    "InterPodAffinity", "PrioritySort", "DefaultBinder", "DefaultPreemption", "SchedulingGates", "GangScheduling",
    "TopologyPlacementGenerator", "PodGroupPodsCount"})
_DRA_137 = ("dra_cel_error_on_device", "dra_counters_follow_node_selection", "dra_claim_config_once",
            "dra_shared_devices_consume_counters", "dra_post_filter_silent", "dra_cycle_allocation_pins")
_BEFORE_137 = Capabilities(group_entity_cycle=False, groups_need_gang_gate=True, group_condition="PodGroupScheduled",
                           group_priority=False, whole_group_victims=False, group_preemption_prefix="",
                           constrained_group_preemption=False, composites=False, job_scheduling_field=False,
                           nested_template_ref=False, child_jobs_get_no_workload=False, image_volumes_count=False,
                           in_tree_plugins=_IN_TREE_136, **dict.fromkeys(_DRA_137, False))
CAPABILITIES: dict[str, Capabilities] = {
    "1.35": _BEFORE_137,
    "1.36": replace(_BEFORE_137, nested_template_ref=True),
    "1.37": Capabilities(group_entity_cycle=True, groups_need_gang_gate=False,
                         group_condition="PodGroupInitiallyScheduled", group_priority=True, whole_group_victims=True,
                         group_preemption_prefix="pod group preemption: ", constrained_group_preemption=True,
                         composites=True,
                         job_scheduling_field=True, nested_template_ref=False, child_jobs_get_no_workload=True,
                         image_volumes_count=True, group_admission_gate="GenericWorkload",
                         in_tree_plugins=_IN_TREE_136 | {"DeferredPodScheduling"},
                         group_validation_condition=True,
                         **dict.fromkeys(_DRA_137, True)),
}
CAPABILITIES["1.38"] = replace(
    CAPABILITIES["1.37"], spread_empty_selector_counts_none=False, all_disruption_needs_gang=True,
    gang_parent_needs_gang_children=True, uniform_preemption_policy=True, job_scheduling_exclusive=True,
    group_priority_max=None, admission_fills_preemption_policy=True,
    group_fit_error=True, hierarchy_validation=True, empty_domain_excluded=True, single_members_are_pod_victims=True,
    wap_rank_nodes=True, placement_sampling=True, composite_condition="CompositePodGroupInitiallyScheduled",
    pdb_empty_selector_matches_all=True, tree_preemption_verdict=True,
    nominated_placement_first=True, owned_jobs_follow_scheduling=True, job_delegation=True)


def capabilities(release: str) -> Capabilities:
    """The capabilities of a release given as "1.36" (1.35 is known for reading its v1alpha1 documents)."""
    return CAPABILITIES[release]


@dataclass(frozen=True)
class Release:
    """A Kubernetes release wasplan models: the versions it serves and its feature gates."""

    version: str
    # group/version -> kinds served (besides the Lists, which follow their items)
    served: dict[str, tuple[str, ...]]
    gates: dict[str, Gate]
    # the version `migrate --to-k8s` targets for each kind
    preferred: dict[str, str] = field(default_factory=dict)
    # which upstream strict schema directory of kubernetes-validate describes this release
    upstream_schema_dir: str = ""
    # the upstream version wasplan models (plan JSON `kubernetesVersion`'s source) and whether it is a pre-release
    upstream_version: str = ""
    prerelease: bool = False
    # gates upstream removed because their feature is always on: naming one is an error, as kube components
    # refuse it (component-base featuregate SetFromMap `unrecognized feature gate`), and the feature is on
    removed_gates: frozenset[str] = frozenset()

    @property
    def caps(self) -> Capabilities:
        return CAPABILITIES[self.version]

    @property
    def prerelease_note(self) -> str:
        """The one line text output gives for a release modelled on a pre-release ("" otherwise)."""
        return f"{self.version} is modelled on {self.upstream_version}, a pre-release" if self.prerelease else ""

    def serves(self, api_version: str, kind: str) -> bool:
        base = kind[:-4] if kind.endswith("List") and kind != "List" else kind
        return base in self.served.get(api_version, ())

    def versions_of_group(self, group: str) -> list[str]:
        """The group's versions the release serves, in the order of `served`."""
        return [gv for gv in self.served if gv.rpartition("/")[0] == group]

    def versions_serving(self, kind: str) -> list[str]:
        base = kind[:-4] if kind.endswith("List") and kind != "List" else kind
        return [gv for gv, kinds in self.served.items() if base in kinds]


def _workload(name: str, stage: str, summary: str) -> Gate:
    """A gate of the workload-aware features: off upstream, on in wasplan's default profile."""
    return Gate(name, stage, False, summary, workload_aware=True)


def _gates(*rows: Gate) -> dict[str, Gate]:
    return {g.name: g for g in rows}


def _dra_gates(ga37: bool) -> tuple[Gate, ...]:
    """The Dynamic Resource Allocation gates the planner reads, with upstream's stage and default per release
    (dra.md §2, pkg/features/kube_features.go); `ga37`: the stages of 1.37. wasplan's profile keeps these at
    upstream's defaults."""
    return (
        Gate("DynamicResourceAllocation", "GA", True, "ResourceClaims and the DynamicResources plugin", locked=True),
        *_dra_gates_after_core(ga37))


def _dra_gates_after_core(ga37: bool) -> tuple[Gate, ...]:
    return (
        Gate("DRAPrioritizedList", "GA", True, "firstAvailable subrequests and their Score", locked=ga37),
        Gate("DRAAdminAccess", "GA", True, "adminAccess requests", locked=True),
        Gate("DRAPartitionableDevices", "Beta", True, "shared counters and per-device node selection"),
        Gate("DRADeviceTaints", "GA" if ga37 else "Beta", True, "device taints and tolerations"),
        Gate("DRADeviceTaintRules", "GA" if ga37 else "Beta", ga37, "DeviceTaintRule taints merged into the slices"),
        Gate("DRAConsumableCapacity", "Beta", True, "allowMultipleAllocations devices, capacity requests, "
             "distinctAttribute"),
        Gate("DRAExtendedResource", "GA" if ga37 else "Beta", True, "extended resources backed by a DeviceClass",
             locked=ga37),
        Gate("DRADeviceBindingConditions", "Beta", True, "devices with binding conditions"),
        Gate("DRAResourceClaimDeviceStatus", "GA" if ga37 else "Beta", True, "status.devices of claims (binding "
             "conditions need it)", locked=ga37),
        Gate("DRAWorkloadResourceClaims", "Beta" if ga37 else "Alpha", False,
             "resourceClaims on PodGroups and templates; one claim per PodGroup, reserved for the PodGroup"),
        Gate("DRAListTypeAttributes", "Alpha", False, "list-valued device attributes (ints, bools, strings, "
             "versions)"),
        Gate("DRANodeAllocatableResources", "Alpha", False, "devices that account for node CPU and memory"),
        *((Gate("DRADerivedAttributes", "Alpha", False, "derivedAttributes of requests"),
           Gate("DRAOptionalNodeOperations", "Alpha", False, "skipNodeOperations of slices")) if ga37 else ()),
    )


def _dra_gates_138() -> tuple[Gate, ...]:
    """1.38's DRA gates (pkg/features/kube_features.go of v1.38.0-beta.0): DynamicResourceAllocation is removed,
    partitionable devices, binding conditions and device taints are GA and locked, consumable capacity GA but
    not locked; DRAWorkloadResourceClaims stays a Beta gate, off."""
    locked_ga = {"DRAPartitionableDevices", "DRADeviceTaints", "DRADeviceTaintRules", "DRADeviceBindingConditions"}
    return tuple(replace(g, stage="GA", default=True, locked=True) if g.name in locked_ga
                 else replace(g, stage="GA") if g.name == "DRAConsumableCapacity" else g
                 for g in _dra_gates_after_core(ga37=True))


def _workload_gates_137(stage: str) -> tuple[Gate, ...]:
    """The workload-aware gates of 1.37 and later; `stage`: that of TopologyAwareWorkloadScheduling and
    CompositePodGroup (Alpha in 1.37, Beta in 1.38)."""
    return (
        _workload("GenericWorkload", "Beta",
                  "Workload/PodGroup APIs, gang scheduling, workload-aware preemption, disruptionMode and priorities"),
        _workload("TopologyAwareWorkloadScheduling", stage, "schedulingConstraints.topology"),
        _workload("WorkloadWithJob", "Alpha", "Job.spec.scheduling; the Job controller creates Workload and PodGroup"),
        _workload("CompositePodGroup", stage,
                  "CompositePodGroup, compositePodGroupTemplates, parentCompositePodGroupName"),
    )


def _pod_gates() -> tuple[Gate, ...]:
    """The core pod gates the planner reads, alike in both releases (pkg/features/kube_features.go)."""
    return (
        Gate("TaintTolerationComparisonOperators", "Alpha", False,
             "tolerations with operator Lt or Gt (the taint's value compared as an integer)"),
    )


RELEASES: dict[str, Release] = {
    "1.36": Release(
        version="1.36",
        served={f"{SCHEDULING_GROUP}/v1alpha2": ("Workload", "PodGroup")},
        gates=_gates(
            _workload("GenericWorkload", "Alpha", "Workload/PodGroup APIs and Pod.spec.schedulingGroup"),
            _workload("GangScheduling", "Alpha", "the GangScheduling scheduler plugin (all-or-nothing)"),
            _workload("WorkloadAwarePreemption", "Alpha",
                      "disruptionMode/priority/priorityClassName on groups; group preemption (needs GangScheduling)"),
            _workload("TopologyAwareWorkloadScheduling", "Alpha", "schedulingConstraints.topology"),
            _workload("WorkloadWithJob", "Alpha", "the Job controller creates Workload and PodGroup"),
            *_pod_gates(),
            *_dra_gates(ga37=False),
        ),
        preferred={"Workload": f"{SCHEDULING_GROUP}/v1alpha2", "PodGroup": f"{SCHEDULING_GROUP}/v1alpha2"},
        upstream_schema_dir="v1.36.0-local-strict",
        upstream_version="v1.36.5",
    ),
    "1.37": Release(
        version="1.37",
        served={
            f"{SCHEDULING_GROUP}/v1beta1": ("Workload", "PodGroup"),
            f"{SCHEDULING_GROUP}/v1alpha3": ("Workload", "PodGroup", "CompositePodGroup"),
        },
        gates=_gates(
            *_workload_gates_137("Alpha"),
            _workload("PodGroupPreemptionPolicy", "Alpha", "preemptionPolicy on groups and templates"),
            *_pod_gates(),
            *_dra_gates(ga37=True),
        ),
        preferred={
            "Workload": f"{SCHEDULING_GROUP}/v1beta1",
            "PodGroup": f"{SCHEDULING_GROUP}/v1beta1",
            "CompositePodGroup": f"{SCHEDULING_GROUP}/v1alpha3",
        },
        upstream_schema_dir="v1.37.0-local-strict",
        upstream_version="v1.37.2",
    ),
    "1.38": Release(
        version="1.38",
        served={
            f"{SCHEDULING_GROUP}/v1beta1": ("Workload", "PodGroup", "CompositePodGroup"),
            f"{SCHEDULING_GROUP}/v1alpha3": ("Workload", "PodGroup", "CompositePodGroup"),
        },
        gates=_gates(
            *_workload_gates_137("Beta"),
            *_pod_gates(),
            *_dra_gates_138(),
        ),
        preferred={
            "Workload": f"{SCHEDULING_GROUP}/v1beta1",
            "PodGroup": f"{SCHEDULING_GROUP}/v1beta1",
            "CompositePodGroup": f"{SCHEDULING_GROUP}/v1beta1",
        },
        upstream_schema_dir="v1.38.0-local-strict",  # wasplan's own (validate/upstream_schemas), from the openapi-spec
        upstream_version="v1.38.0-beta.0",
        prerelease=True,
        removed_gates=frozenset({"PodGroupPreemptionPolicy", "DynamicResourceAllocation"}),
    ),
}


class GateError(ValueError):
    """A `--feature-gates` value that names an unknown gate or is malformed."""


def get_release(version: str) -> Release:
    v = version.lstrip("v")
    parts = v.split(".")
    key = ".".join(parts[:2])
    if key not in RELEASES:
        raise KeyError(f"unsupported Kubernetes release {version!r}; supported: {', '.join(SUPPORTED_RELEASES)}")
    return RELEASES[key]


@dataclass(frozen=True, slots=True)
class Gates:
    """The feature gates in force, one boolean per gate any supported release has (a gate the release lacks is
    False), resolved once from the release and `--feature-gates`. The engine reads `gates.on.generic_workload`
    instead of asking for a gate by its name: a misspelt gate is an AttributeError, not a silent False. Each
    field is its gate's name in snake case (`_field_name`); the check below the class keeps the two in step.
    Gates are the user's switches; what a release does differently is `Capabilities`."""

    generic_workload: bool = False
    gang_scheduling: bool = False
    workload_aware_preemption: bool = False
    topology_aware_workload_scheduling: bool = False
    workload_with_job: bool = False
    composite_pod_group: bool = False
    pod_group_preemption_policy: bool = False
    taint_toleration_comparison_operators: bool = False
    dynamic_resource_allocation: bool = False
    dra_prioritized_list: bool = False
    dra_admin_access: bool = False
    dra_partitionable_devices: bool = False
    dra_device_taints: bool = False
    dra_device_taint_rules: bool = False
    dra_consumable_capacity: bool = False
    dra_extended_resource: bool = False
    dra_device_binding_conditions: bool = False
    dra_resource_claim_device_status: bool = False
    dra_workload_resource_claims: bool = False
    dra_list_type_attributes: bool = False
    dra_node_allocatable_resources: bool = False
    dra_derived_attributes: bool = False
    dra_optional_node_operations: bool = False

    @classmethod
    def of(cls, values: dict[str, bool]) -> "Gates":
        return cls(**{_field_name(name): on for name, on in values.items()})


def _field_name(gate: str) -> str:
    """`DRAResourceClaimDeviceStatus` -> `dra_resource_claim_device_status`: the Gates field of a gate."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", gate).lower()


def _check_gate_fields() -> None:
    """Every gate of every release is a field of Gates and every field a gate: checked at import, so a gate added
    to a release without its field (or a field misnamed) stops wasplan from starting instead of reading False."""
    named = {_field_name(name) for release in RELEASES.values() for name in release.gates}
    fields = set(Gates.__dataclass_fields__)
    if named != fields:
        raise ImportError(f"api/releases.py: Gates fields and release gates differ: "
                          f"{sorted(named ^ fields)}")


_check_gate_fields()


@dataclass(frozen=True)
class GateSet:
    """The feature gates in force for one run: a release plus what the user switched. `on` is the same as a
    typed record (Gates), built once here; the engine reads that."""

    release: Release
    values: dict[str, bool]
    on: Gates = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a gate the release removed with its feature always on reads as on, as `enabled` says
        always_on = {name: True for name in self.release.removed_gates}
        object.__setattr__(self, "on", Gates.of({**always_on, **self.values}))

    def enabled(self, name: str) -> bool:
        """A gate's value; a gate the release removed with its feature always on reads as on."""
        return self.values.get(name, name in self.release.removed_gates)

    def __getitem__(self, name: str) -> bool:
        return self.enabled(name)


def default_gates(release: Release) -> GateSet:
    """wasplan's profile: every workload-aware gate of the release on; the DRA gates at upstream's defaults
    (PodGroup-level claims, DRAWorkloadResourceClaims, stay off unless asked for)."""
    return GateSet(release, {name: g.workload_aware or g.default for name, g in release.gates.items()})


def parse_gates(release: Release, spec: str | None) -> GateSet:
    """`Name=true,Other=false` on top of the default profile, as kube components accept it."""
    values = dict(default_gates(release).values)
    if not spec:
        return GateSet(release, values)
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise GateError(f"feature gate {part!r} must be written Name=true or Name=false")
        name, raw = (s.strip() for s in part.split("=", 1))
        if name in release.removed_gates:
            raise GateError(f"unrecognized feature gate: {name} (removed in Kubernetes {release.version}, where "
                            "its feature is always on)")
        if name not in release.gates:
            known = ", ".join(sorted(release.gates))
            guess = did_you_mean(name, release.gates)
            also = f"; did you mean {guess}?" if guess else ""
            raise GateError(f"unknown feature gate {name!r} for Kubernetes {release.version}{also} (known: {known})")
        if raw.lower() not in ("true", "false"):
            raise GateError(f"feature gate {name} must be true or false, not {raw!r}")
        gate = release.gates[name]
        if gate.locked and (raw.lower() == "true") != gate.default:
            raise GateError(f"cannot set feature gate {name} to {raw.lower()}, feature is locked to "
                            f"{str(gate.default).lower()}")
        values[name] = raw.lower() == "true"
    return GateSet(release, values)

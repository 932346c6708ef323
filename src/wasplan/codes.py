"""The one table of diagnostic codes.

Codes are stable: tools and users filter on them (`--ignore WAS412`), so a code is never reused for a
different meaning. Ranges:

* WAS0xx reading input (files, YAML, document shape)
* WAS1xx schema and release (what the API server's schema and served versions accept)
* WAS2xx server-side rules the schema cannot express
* WAS3xx feature gates
* WAS4xx cross-object lint
* WAS5xx migrate
* WAS6xx cluster snapshots and plan input
* WAS7xx plan outcomes
* WAS8xx explain (the TARGET and explain's own inputs)
* WAS9xx configuration (`.wasplan.yaml`, `[tool.wasplan]`, `--config`) and the code lists of --select/--ignore

Every code also has a `RuleDoc` in `wasplan.codes_docs` (what it means, a failing and a passing example, how to
fix it); `wasplan rules` and docs/rules.md render those, and tests/test_rules_doc.py keeps them complete.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class Code:
    """A diagnostic code of the one table: its name, severity and summary."""

    code: str
    name: str
    severity: Severity
    summary: str


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_TABLE: list[Code] = [
    # --- WAS0xx: reading ------------------------------------------------------------------------
    Code("WAS001", "unreadable-file", E, "The file or directory could not be read."),
    Code("WAS002", "binary-file", E, "The file is binary (contains NUL bytes), not a manifest."),
    Code("WAS003", "not-utf8", E, "The file is not valid UTF-8."),
    Code("WAS004", "yaml-syntax", E, "The YAML (or JSON) could not be parsed."),
    Code("WAS005", "duplicate-key", E, "A mapping repeats a key; the API server would reject or silently merge it."),
    Code("WAS006", "not-a-mapping", E, "A document is not a mapping (object)."),
    Code("WAS007", "missing-type-meta", E, "A document has no apiVersion or kind."),
    Code("WAS008", "template-syntax", E, "The file contains template directives ({{ ... }}); render it first."),
    Code("WAS009", "no-input", E, "No manifest files were found in the given paths."),
    Code("WAS010", "unknown-kind", I, "No schema is known for this apiVersion/kind; it was not validated."),
    Code("WAS011", "unwritable-output", E,
         "An output (--emit-snapshot file, --in-place target, --export directory) could not be written."),
    Code("WAS012", "input-too-large", E,
         "An object is larger than the read limit, or a file holds more documents than the limit (docs/exit-codes.md: Limits)."),
    Code("WAS013", "nesting-too-deep", E, "A document nests mappings and lists deeper than the limit (docs/exit-codes.md: Limits)."),
    Code("WAS014", "too-many-aliases", E,
         "A document uses more YAML aliases, or expands to more nodes, than the limit (alias bombs)."),
    Code("WAS015", "unsupported-tag", E,
         "A YAML tag other than the core plain-data tags (str, int, float, bool, null, map, seq) is used."),
    Code("WAS016", "not-a-regular-file", E,
         "A named input is a FIFO, socket, device, dangling symlink or symlink loop; only regular files are read."),
    Code("WAS017", "special-file-skipped", I,
         "A directory walk passed over an entry that is not a regular file (FIFO, socket, device, dangling link)."),
    Code("WAS030", "not-kubernetes", I,
         "A YAML document with neither apiVersion nor kind (Helm values, compose, CI workflow) or a Helm Chart.yaml "
         "was skipped."),
    Code("WAS031", "template-skipped", I,
         "A file with template directives ({{ ... }}) was skipped; render it and validate the output."),
    Code("WAS032", "unused-suppression", I,
         "A `# wasplan: ignore` comment or wasplan.io/ignore annotation suppresses nothing."),
    Code("WAS033", "kustomize-patch-skipped", I,
         "A file that a kustomization lists as a patch was skipped; build the overlay and validate the output."),
    Code("WAS034", "kustomization-not-built", E,
         "plan/explain: a kustomization among the inputs needs `kubectl kustomize` to build it; nothing was planned."),
    # --- WAS1xx: schema and release -------------------------------------------------------------
    Code("WAS101", "unknown-field", E, "The field does not exist in this API version."),
    Code("WAS102", "required-field", E, "A required field is missing."),
    Code("WAS103", "wrong-type", E, "The value has the wrong JSON type."),
    Code("WAS104", "invalid-enum", E, "The value is not one of the allowed values."),
    Code("WAS105", "out-of-range", E, "The number is outside the allowed range."),
    Code("WAS106", "too-many-items", E, "The list has more items than the API allows."),
    Code("WAS107", "invalid-format", E, "The string does not have the required format (name, label key, ...)."),
    Code("WAS108", "union", E, "Exactly one member of a union must be set."),
    Code("WAS109", "version-not-served", E, "The chosen Kubernetes release does not serve this apiVersion."),
    Code("WAS110", "schema-violation", E, "The object violates its schema."),
    Code("WAS111", "empty-list", E, "The list must not be empty."),
    Code("WAS112", "integer-out-of-range", E,
         "An integer is outside the range of its Kubernetes field type (int32 or int64)."),
    Code("WAS113", "kind-not-served-at-version", E,
         "The API group is served at this version, but not this kind; the message names the versions that serve it "
         "(or, in a group no custom resource can extend, the closest kind)."),
    Code("WAS114", "rejected-by-target", E,
         "migrate: a document that needs no migration is invalid at the target release (so --check fails)."),
    Code("WAS115", "unknown-api-version", E,
         "No Kubernetes release has this scheduling.k8s.io version (e.g. v1beta2); the message names the nearest "
         "served one."),
    # --- WAS2xx: server-side rules --------------------------------------------------------------
    Code("WAS201", "duplicate-template-name", E,
         "A template name is used twice; names must be unique across the Workload's whole template tree."),
    Code("WAS202", "duplicate-list-key", E,
         "A list keyed by a field (resource claim name, condition type, claim status name) repeats a key."),
    Code("WAS203", "claim-status-without-claim", E,
         "A status.resourceClaimStatuses entry names no claim in spec.resourceClaims."),
    Code("WAS204", "template-tree-too-deep", E,
         "The template tree is deeper than 4 levels (counting the leaf PodGroupTemplate level)."),
    Code("WAS205", "empty-composite-template", E,
         "A CompositePodGroupTemplate has neither podGroupTemplates nor compositePodGroupTemplates."),
    Code("WAS206", "multiple-priority-configurations", E,
         "Templates of one Workload must all carry the same priorityClassName and priority (1.38: and preemptionPolicy)."),
    Code("WAS207", "disrupt-all-with-basic", W,
         "disruptionMode all (PodGroup) on a basic policy: the API accepts it, but the pods are not a gang."),
    Code("WAS208", "parent-without-workload-ref", E,
         "parentCompositePodGroupName is set without workloadRef; the 1.37 API server rejects it."),
    Code("WAS209", "job-min-count-above-parallelism", E,
         "Job spec.scheduling gang minCount is greater than spec.parallelism."),
    Code("WAS210", "job-disrupt-all-with-basic", E,
         "Job spec.scheduling asks for disruptionMode all with a basic policy, which the Job API rejects."),
    Code("WAS211", "job-scheduling-ignored", W,
         "Job spec.scheduling is ignored because the pod template already names a PodGroup (schedulingGroup)."),
    Code("WAS212", "invalid-condition", E,
         "A status condition has a status, reason, type or message the API server rejects."),
    Code("WAS213", "condition-type-of-other-release", W,
         "A status condition type belongs to another release (PodGroupScheduled was renamed in 1.37)."),
    Code("WAS260", "all-disruption-needs-gang", E,
         "disruptionMode all on a group or template whose policy is not gang; the 1.38 API server rejects it."),
    Code("WAS261", "child-of-gang-not-gang", E,
         "A child of a gang CompositePodGroupTemplate is not a gang; the 1.38 API server rejects the Workload."),
    Code("WAS262", "child-of-all-not-all", E,
         "A child of a CompositePodGroupTemplate with disruptionMode all does not use all; 1.38 rejects it."),
    Code("WAS263", "job-scheduling-with-group", E,
         "Job spec.scheduling together with a pod template schedulingGroup; the 1.38 Job API rejects it."),
    Code("WAS264", "job-scheduling-with-delegation", E,
         "Job spec.scheduling together with a scheduling.k8s.io delegation annotation; 1.38 rejects it."),
    Code("WAS265", "empty-delegation-annotation", E,
         "A Job has one delegation annotation (workload-name, group-template-name) without both set non-empty."),
    Code("WAS220", "dra-invalid-request", E,
         "A DRA device request is malformed: not exactly one of exactly/firstAvailable, allocationMode All with a "
         "count, count not above zero, a request name that is no DNS label or used twice, a bad device class name."),
    Code("WAS221", "dra-invalid-constraint", E,
         "A claim constraint sets neither or both of matchAttribute/distinctAttribute, names an attribute that is "
         "not fully qualified, or (like a config entry) names a request the claim does not have; or a config entry's "
         "driver name is invalid."),
    Code("WAS222", "dra-too-many", E,
         "A DRA list is longer than the API allows (requests, subrequests, selectors, constraints, config, devices "
         "per slice, attributes and capacities per device, counter sets, taints, tolerations)."),
    Code("WAS223", "dra-invalid-slice", E,
         "A ResourceSlice's driver or pool, node selection (exactly one of nodeName, nodeSelector, allNodes, "
         "perDeviceNodeSelection), device names or devices/sharedCounters split is invalid."),
    Code("WAS224", "dra-invalid-attribute", E,
         "A device attribute or capacity name is not a qualified name, or an attribute value is not exactly one "
         "typed value within its length limit (versions: semver)."),
    Code("WAS225", "dra-invalid-toleration", E,
         "A device taint or toleration key is not a label key, or an Exists toleration sets a value."),
    Code("WAS226", "dra-invalid-capacity-policy", E,
         "A device capacity's requestPolicy is inconsistent (needs allowMultipleAllocations, validValues sorted and "
         "holding the default, validRange min/max/step within the capacity and the default on a step)."),
    Code("WAS227", "dra-selector-without-cel", E,
         "A device selector has no `cel` (often `expression` indented at the level of `cel:`)."),
    Code("WAS230", "cel-syntax-error", E, "A CEL device selector does not parse (position inside the expression)."),
    Code("WAS231", "cel-undeclared-reference", E,
         "A CEL device selector names a variable or a device field that does not exist (e.g. a bare attribute name)."),
    Code("WAS232", "cel-unknown-function", E, "A CEL device selector calls a function the Kubernetes environment lacks."),
    Code("WAS233", "cel-type-error", E,
         "A CEL device selector applies an operator or function to values of the wrong type, or does not "
         "evaluate to bool."),
    Code("WAS234", "cel-cost-limit", E,
         "A CEL device selector's estimated worst-case cost is above the API server's limit of 1,000,000."),
    Code("WAS235", "cel-too-long", E, "A CEL device selector is longer than 10 KiB."),
    Code("WAS240", "kueue-version-not-served", E,
         "A kueue.x-k8s.io version Kueue v0.17.0 does not serve (it serves v1beta1 and v1beta2)."),
    Code("WAS241", "kueue-crd-rule", E, "A Kueue object breaks a CEL rule of Kueue v0.17.0's CRD."),
    Code("WAS242", "kueue-quota-invalid", E,
         "A ClusterQueue's or Cohort's resource groups, quotas, limits or fair-sharing weight break Kueue's "
         "validating webhook."),
    Code("WAS243", "kueue-flavor-invalid", E,
         "A ResourceFlavor's node labels, taints or tolerations break Kueue's validating webhook."),
    Code("WAS244", "kueue-workload-invalid", E, "A Kueue Workload breaks Kueue's validating webhook."),
    Code("WAS248", "kueue-config-invalid", E,
         "Kueue's Configuration breaks Kueue v0.17.0's configuration validation (fairSharing, admissionFairSharing, "
         "waitForPodsReady, resource transformations): Kueue would not start with it."),
    Code("WAS249", "kueue-config-version", E,
         "A config.kueue.x-k8s.io Configuration version Kueue v0.17.0 cannot read (it reads v1beta1 and v1beta2)."),
    # --- WAS3xx: feature gates ------------------------------------------------------------------
    Code("WAS301", "gated-field-dropped", W, "The field's feature gate is off: the API server silently drops it."),
    Code("WAS302", "gated-kind", E, "The kind's feature gate is off: the API server does not serve it."),
    # --- WAS4xx: cross-object lint --------------------------------------------------------------
    Code("WAS401", "workload-not-in-inputs", W,
         "A PodGroup references a Workload that is not among the inputs (it may exist in the cluster)."),
    Code("WAS402", "template-not-in-workload", W,
         "A PodGroup references a template that its Workload in the inputs does not have."),
    Code("WAS403", "policy-differs-from-template", E,
         "A PodGroup's scheduling policy differs from the policy of the template it references."),
    Code("WAS404", "pod-group-not-in-inputs", W,
         "A Pod's schedulingGroup names a PodGroup that is not among the inputs; the pod stays Pending until it exists."),
    Code("WAS405", "gang-quorum-unreachable", W,
         "A gang's minCount is greater than the number of its member pods in the inputs."),
    Code("WAS406", "mixed-scheduler-names", E,
         "Pods of one PodGroup name different schedulers; the scheduler rejects the group."),
    Code("WAS407", "pod-priority-differs-from-group", E,
         "A pod's priorityClassName differs from its PodGroup's (1.37 rejects the pod)."),
    Code("WAS408", "topology-key-on-no-node", E,
         "A topology key is carried by no node of the given cluster, so the group can never be placed."),
    Code("WAS409", "composite-parent-not-in-inputs", W,
         "A parentCompositePodGroupName names a CompositePodGroup that is not among the inputs."),
    Code("WAS410", "composite-parent-cycle", E,
         "CompositePodGroup parent references form a cycle; the scheduler marks the hierarchy invalid."),
    Code("WAS411", "composite-hierarchy-too-deep", E,
         "The CompositePodGroup hierarchy is deeper than 4 levels counting the PodGroup level."),
    Code("WAS412", "composite-in-1.36", E,
         "parentCompositePodGroupName / CompositePodGroup do not exist in Kubernetes 1.36."),
    Code("WAS413", "hierarchy-spans-workloads", E,
         "A group and its parent CompositePodGroup reference different Workloads; the scheduler marks it invalid."),
    Code("WAS420", "claim-template-not-found", W,
         "A resourceClaims entry names a ResourceClaimTemplate that the inputs do not hold, and a close name or the "
         "same name in another namespace is there (or the --cluster snapshot holds every template)."),
    Code("WAS421", "resource-claim-not-found", W,
         "A resourceClaims entry names a ResourceClaim that the inputs do not hold, and a close name or the same "
         "name in another namespace is there (or the --cluster snapshot holds every claim)."),
    Code("WAS422", "device-class-not-found", W,
         "A claim or template request names a DeviceClass that the inputs do not hold, and a close name is there "
         "(or the --cluster snapshot holds every DeviceClass)."),
    Code("WAS423", "container-claim-not-declared", E,
         "A container's resources.claims names a claim that the pod's spec.resourceClaims does not declare."),
    Code("WAS424", "container-claim-request-unknown", W,
         "A container's resources.claims[].request names no request of the claim or template it uses."),
    Code("WAS425", "group-claims-summary", I,
         "Which claims of a PodGroup's pods are shared group claims and which stay each pod's own "
         "(DRAWorkloadResourceClaims)."),
    Code("WAS426", "group-claim-near-miss", W,
         "A pod claim has the name or the source of a PodGroup claim but not both, so it silently stays per pod."),
    Code("WAS427", "group-claim-unused", W, "A PodGroup claim is used by none of the group's pods in the inputs."),
    Code("WAS428", "selector-matches-no-device", E,
         "A request's class and request selectors match no device of the --cluster snapshot (names the eliminating "
         "selector and the values devices have)."),
    Code("WAS429", "request-count-exceeds-devices", E,
         "A request asks for more devices than any node of the --cluster snapshot can reach among the matching ones."),
    Code("WAS430", "claims-differ-from-template", W,
         "A PodGroup's resourceClaims differ from those of the Workload template it references."),
    Code("WAS431", "admin-access-namespace-unlabeled", E,
         "A request sets adminAccess in a namespace without the label resource.kubernetes.io/admin-access: \"true\"; "
         "the API server rejects it."),
    Code("WAS432", "admin-access-namespace-unknown", I,
         "A request sets adminAccess in a namespace that neither the inputs nor the snapshot hold, so its "
         "admin-access label cannot be checked."),
    Code("WAS433", "priority-class-not-found", E,
         "A pod or pod template names a PriorityClass that neither the inputs nor the --cluster snapshot hold (or, "
         "without --cluster, a close name is there); the API server refuses the pods."),
    Code("WAS434", "coscheduling-not-modelled", W,
         "A scheduler-plugins Coscheduling PodGroup (scheduling.x-k8s.io): an out-of-tree gang wasplan does not model."),
    Code("WAS440", "kueue-cluster-queue-not-found", W,
         "A LocalQueue names a ClusterQueue the inputs do not hold (while they hold others, or a close name)."),
    Code("WAS441", "kueue-flavor-not-found", W,
         "A ClusterQueue or Cohort names a ResourceFlavor the inputs do not hold (while they hold others, or a "
         "close name)."),
    Code("WAS442", "kueue-cohort-cycle", E,
         "Cohorts' parentName chain loops: Kueue makes every ClusterQueue below the cycle inactive."),
    Code("WAS443", "kueue-topology-not-found", W,
         "A ResourceFlavor's topologyName names a Topology the inputs do not hold (while they hold others, or a "
         "close name)."),
    Code("WAS444", "kueue-admission-check-not-found", W,
         "A ClusterQueue names an AdmissionCheck the inputs do not hold (while they hold others, or a close name)."),
    Code("WAS445", "kueue-local-queue-not-found", W,
         "An object's kueue.x-k8s.io/queue-name (a Workload's spec.queueName) names no LocalQueue of its namespace "
         "in the inputs (while they hold LocalQueues)."),
    Code("WAS446", "kueue-priority-class-not-found", W,
         "A kueue.x-k8s.io/priority-class label or a Workload's priority class reference names a "
         "WorkloadPriorityClass the inputs do not hold (while they hold others, or a close name)."),
    Code("WAS447", "kueue-no-integration", W,
         "An object carries kueue.x-k8s.io/queue-name in its own labels, but Kueue v0.17.0 has no integration for "
         "its kind: Kueue ignores the label and the object's pods start without admission."),
    Code("WAS450", "kueue-config-twice", W,
         "More than one Kueue Configuration among the inputs: Kueue reads one file; the plan reads the first."),
    Code("WAS451", "kueue-fair-sharing-off", W,
         "A ClusterQueue or Cohort sets a fair-sharing weight while the inputs' Kueue Configuration leaves fair "
         "sharing off: Kueue ignores the weight."),
    # --- WAS5xx: migrate ------------------------------------------------------------------------
    Code("WAS501", "not-representable", E, "The object uses something the target version cannot hold; it is not migrated."),
    Code("WAS502", "lossy-dropped", W, "A field the target version cannot hold was dropped (--allow-lossy)."),
    Code("WAS503", "invalid-in-target", E, "The migrated object would be rejected by the target release; it is not migrated."),
    Code("WAS504", "self-check-failed", E, "Internal error: the edited manifest differs from the typed conversion. Please report it."),
    Code("WAS505", "invalid-source", E, "The document is invalid for its own version; it is not migrated."),
    Code("WAS510", "job-gang-explicit", I, "A Job that 1.36 gang-scheduled implicitly gets an explicit gang policy for 1.37."),
    Code("WAS511", "job-scheduling-changes", W, "Removing spec.scheduling for 1.36 drops what 1.36 cannot hold (--allow-lossy)."),
    Code("WAS512", "job-scheduling-removed", I, "spec.scheduling was removed for 1.36 without changing how the Job is scheduled."),
    Code("WAS513", "job-implicit-gang", W, "1.36 gang-schedules this Indexed Job implicitly where 1.37 schedules it pod by pod."),
    Code("WAS514", "removed-feature-gate", E,
         "A manifest sets a feature gate the target release removed; its components refuse to start with it."),
    # --- WAS6xx: cluster snapshots and plan input -----------------------------------------------
    Code("WAS601", "invalid-quantity", E, "A resource quantity is malformed (e.g. `1.5.5`, `10 Gi`, `1Gib`) or negative."),
    Code("WAS602", "unusable-field", E, "A field the planner reads has the wrong type or an impossible value; it was ignored."),
    Code("WAS603", "unnamed-object", E, "An object has no metadata.name, so the planner cannot refer to it; it was skipped."),
    Code("WAS604", "invalid-timestamp", W, "metadata.creationTimestamp is not RFC 3339; the object is ordered as if it had none."),
    Code("WAS605", "cluster-template", E, "A Cluster kind template (`{index // 4}`) or pool/pod entry cannot be expanded."),
    Code("WAS606", "duplicate-object", W, "Two inputs define the same object (kind, namespace, name); the later one was ignored."),
    Code("WAS607", "job-not-expanded", I, "A Job creates no pods in the plan (managed by another controller, suspended, or zero parallelism)."),
    Code("WAS608", "unparseable-group", E, "A Workload, PodGroup or CompositePodGroup could not be read into the planner's model."),
    Code("WAS609", "node-overcommitted", W,
         "The pods bound to a node in the snapshot request more of a resource than the node has allocatable."),
    Code("WAS610", "job-too-large", E,
         "A Job (or another workload) asks for more pods than the planner expands (docs/exit-codes.md: Limits); it is not planned."),
    Code("WAS611", "no-nodes", W, "The cluster snapshot has no nodes; every pod stays pending."),
    Code("WAS620", "generated-name", I, "An object has only metadata.generateName; it is planned under a deterministic name, and the real name will differ."),
    Code("WAS621", "workload-not-expanded", I, "A JobSet, LeaderWorkerSet, Deployment, ReplicaSet or StatefulSet creates no pods in the plan (suspended, paused, managed elsewhere, or zero replicas)."),
    Code("WAS622", "unplanned-workload", W, "An object runs pods through a controller wasplan does not model (e.g. a PyTorchJob); it is listed as not planned."),
    Code("WAS623", "child-job-scheduling-ignored", I, "A JobSet's Job template sets spec.scheduling, which the Job controller ignores for a Job with a controller owner (1.37)."),
    Code("WAS624", "kueue-admission", W, "Kueue manages the object (label kueue.x-k8s.io/queue-name): its pods wait for Kueue's admission, whose quotas are not modelled."),
    Code("WAS625", "kueue-assumed-admitted", I, "With --assume-admitted, an object Kueue manages is planned as if Kueue admitted it now."),
    Code("WAS626", "kueue-topology-not-modelled", W,
         "With --assume-admitted, a pod template carries a Kueue Topology Aware Scheduling annotation "
         "(kueue.x-k8s.io/podset-required-topology and friends); Kueue's domain assignment is not modelled, so "
         "the pods are planned without it."),
    Code("WAS630", "refused-by-admission", W,
         "The API server's Priority admission would refuse to create the pod or PodGroup (its priorityClassName "
         "names a PriorityClass that exists nowhere, or it writes a priority its class does not give); the plan "
         "lists the pods as Refused and never places them."),
    Code("WAS640", "resourceslice-pool", E,
         "A ResourceSlice has no driver, or its pool has no name or an impossible generation/resourceSliceCount; it was left out."),
    Code("WAS641", "resourceslice-node-selection", E,
         "A ResourceSlice (or a device under perDeviceNodeSelection) does not set exactly one of nodeName, nodeSelector, "
         "allNodes, perDeviceNodeSelection; it was left out."),
    Code("WAS642", "invalid-device", E,
         "A ResourceSlice device or counter set has no name; that entry was left out."),
    Code("WAS643", "invalid-device-quantity", E,
         "A device capacity, counter or capacity request is not a valid non-negative quantity; that entry was left out."),
    Code("WAS644", "invalid-device-request", E,
         "A ResourceClaim request names no device class, sets both or neither of exactly/firstAvailable, or has an "
         "impossible allocationMode/count; the claim cannot be allocated."),
    Code("WAS645", "invalid-device-constraint", E,
         "A claim constraint sets neither or both of matchAttribute/distinctAttribute, or names a request the claim "
         "does not have; the claim cannot be allocated."),
    Code("WAS646", "invalid-cel-selector", E,
         "A device selector has no CEL expression, or the expression does not compile (position inside the expression)."),
    Code("WAS647", "invalid-allocation", E,
         "A ResourceClaim's status.allocation or status.reservedFor cannot be read; the claim is treated as unallocated."),
    Code("WAS648", "unusable-dra-field", E,
         "A DRA object's field has the wrong type or an impossible value (taint effect, toleration operator, ...); it was ignored."),
    Code("WAS649", "invalid-device-attribute", E,
         "A device attribute does not have exactly one of int, bool, string, version, or its version is not semver; "
         "the attribute was left out."),
    Code("WAS650", "unsupported-dra-version", E,
         "A DRA object uses a resource.k8s.io version the planner does not read (write resource.k8s.io/v1); it was left out."),
    Code("WAS651", "cel-not-modelled", E,
         "A device selector calls a CEL function wasplan does not evaluate (timestamps, durations, named formats); "
         "the plan cannot tell which devices it selects."),
    Code("WAS660", "missing-claim-template", W,
         "A resourceClaims entry names a ResourceClaimTemplate the inputs do not hold: no claim is generated and "
         "the pod waits (`ResourceClaim not created yet`)."),
    Code("WAS661", "missing-resource-claim", W,
         "A resourceClaims entry names a ResourceClaim the inputs do not hold: the pod waits for it."),
    Code("WAS662", "missing-device-class", W,
         "A ResourceClaim or template request names a DeviceClass the inputs do not hold: pods using it stay pending "
         "(`device class ... does not exist`)."),
    Code("WAS663", "stale-claim-reservation", I, "A ResourceClaim's status.reservedFor names a pod that is not in the inputs; the entry is dropped (and the claim deallocated when no consumer is left), as the resourceclaim controller does."),
    Code("WAS690", "kueue-admitted", I,
         "Kueue admits the object's Workload: its pods reach kube-scheduler with their flavors' node selectors and "
         "tolerations."),
    Code("WAS691", "kueue-not-admitted", W,
         "Kueue does not admit the object's Workload (Pending, Inadmissible, Preempted, QuotaReserved): its pods "
         "wait, with Kueue's reason and message."),
    Code("WAS692", "kueue-not-modelled", W,
         "The inputs use something of Kueue that the admission model does not model; the plan names it and counts "
         "as incomplete."),
    Code("WAS693", "kueue-evicts-running", W,
         "Kueue evicts a Workload that holds quota in the snapshot and the plan cannot find its pods (no job "
         "named, a JobSet without its child Jobs or labels): they keep their nodes; the plan counts as incomplete."),
    Code("WAS694", "kueue-workload-not-built", W,
         "Kueue's job framework builds no Workload for the object (a priority class that does not exist, ...)."),
    Code("WAS695", "kueue-admitted-unschedulable", W,
         "Kueue admits the object, but kube-scheduler leaves some of its pods pending: quota is not capacity."),
    Code("WAS696", "kueue-topology-twice", W,
         "Kueue's topology-aware scheduling pins the pods to domains and their PodGroup's "
         "schedulingConstraints.topology constrains them as well; the two decide apart."),
    Code("WAS698", "kueue-config-not-modelled", W,
         "Kueue's Configuration sets something that changes admission and the model does not follow "
         "(waitForPodsReady, admissionFairSharing, resource exclusions or transformations, feature gates, an "
         "integration turned off); the plan names it and counts as incomplete."),
    # --- WAS7xx: plan outcomes ----------------------------------------------------------------
    Code("WAS710", "upstream-bug-device-out-of-reach", W,
         "The release's scheduler binds a pod to a node its allocated devices cannot reach (1.36: a PodGroup member "
         "reusing an allocation an earlier member made in the same cycle, kubernetes/kubernetes#140087, fixed in "
         "1.37 by #140089); the plan follows upstream, the pod cannot start there."),
    Code("WAS730", "placement-sampling", W,
         "The release's scheduler samples topology placements (1.38 percentageOfPlacementsToScore, adaptive by "
         "default) and would stop before trying every placement of this group, in random order; wasplan scores "
         "them all, as percentageOfPlacementsToScore: 100 does."),
    Code("WAS680", "baseline-not-a-plan", E,
         "The --baseline file is not one wasplan Plan document (another kind or apiVersion, or several documents)."),
    Code("WAS681", "baseline-malformed", E, "A section of the --baseline Plan that the diff reads has the wrong shape."),
    Code("WAS682", "baseline-other-release", W,
         "The --baseline Plan was made for another Kubernetes release; some differences may come from the release."),
    # --- WAS7xx: plan outcomes ------------------------------------------------------------------
    # --- WAS8xx: explain ------------------------------------------------------------------------
    Code("WAS801", "unknown-explain-target", E,
         "The explain TARGET is malformed or names no object of the inputs (the message suggests close names)."),
    Code("WAS802", "ambiguous-explain-target", E,
         "The explain TARGET's name exists in several namespaces; give the namespace with -n or KIND/NAMESPACE/NAME."),
    Code("WAS803", "invalid-node-shape", E, "The --node-shape file holds no Node object or Cluster node pool."),
    # --- WAS9xx: configuration ------------------------------------------------------------------
    Code("WAS901", "unreadable-config", E, "The configuration file could not be read or parsed."),
    Code("WAS902", "unknown-config-key", E, "The configuration file has a key wasplan does not know."),
    Code("WAS903", "invalid-config-value", E, "A configuration value has the wrong type or an impossible value."),
    Code("WAS904", "unknown-code", E, "--select, --ignore or a per-file-ignores entry names no diagnostic code."),
    Code("WAS905", "unknown-scheduler-plugin", E,
         "--scheduler-config names a plugin that is not in the release's registry but is close to one (a misspelling)."),
    Code("WAS906", "out-of-tree-scheduler-plugin", E,
         "--scheduler-config names an out-of-tree plugin (not in the release's in-tree registry); wasplan does not model it."),
    Code("WAS907", "removed-feature-gate-in-config", E,
         "The configuration's feature-gates names a gate the release removed; kube components refuse it."),
]


def _index(rows: list[Code]) -> dict[str, Code]:
    out: dict[str, Code] = {}
    for row in rows:
        if row.code in out:
            raise ValueError(f"duplicate diagnostic code {row.code}")
        out[row.code] = row
    return out


CODES: dict[str, Code] = _index(_TABLE)


def lookup(code: str) -> Code:
    return CODES[code]


# Where docs/rules.md is published; SARIF rules link each code's section (`#was101`) from here.
RULES_DOC_URL = "https://github.com/wasplan/wasplan/blob/main/docs/rules.md"


def rule_doc(code: str):
    """The long form of a code (wasplan.codes_docs.RuleDoc): description, examples, fix."""
    from wasplan.codes_docs import DOCS

    return DOCS[code]


def help_uri(code: str) -> str:
    return f"{RULES_DOC_URL}#{code.lower()}"

"""Which built-in API group versions each release has, and which kinds each of them holds.

`releases.py` says which workload-aware scheduling versions a release serves (wasplan models their gates); this
table covers every other built-in group, so a manifest written for a version the release no longer has
(`batch/v1beta1` CronJob, `policy/v1beta1` PodDisruptionBudget, `resource.k8s.io/v1alpha3` ResourceClaim,
`resource.k8s.io/v1alpha2`) is an error naming the version that serves the kind, not "no schema, not validated".

The group versions are those kube-apiserver installs storage for (`pkg/controlplane/instance.go` and
`pkg/controlplane/apiserver` `DefaultAPIResourceConfigSource` with the REST storage providers under
`pkg/registry/*/rest`), as the release's published OpenAPI document lists them: the table is the
`x-kubernetes-group-version-kind` of every top-level type in kubernetes-validate's `v1.36.0` / `v1.37.0`
strict schemas, made from `api/openapi-spec` of those releases (1.38: of v1.38.0-beta.0, read from the module
cache); tests/validate/test_served_versions.py checks it against that data, so it cannot drift. Like
`releases.py` for scheduling.k8s.io, a version counts as the release's even where `--runtime-config` must switch it on (alpha and new beta versions are off by default since
1.24, KEP-3136); it is what the release *can* serve, so a version missing here cannot be enabled at all.
"""

from __future__ import annotations

import re


def _table(rows: dict[str, str]) -> dict[str, frozenset[str]]:
    return {gv: frozenset(kinds.split()) for gv, kinds in rows.items()}


_BOTH = _table({
    "admissionregistration.k8s.io/v1": "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding "
                                       "MutatingWebhookConfiguration ValidatingAdmissionPolicy "
                                       "ValidatingAdmissionPolicyBinding ValidatingWebhookConfiguration",
    "admissionregistration.k8s.io/v1alpha1": "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding",
    "admissionregistration.k8s.io/v1beta1": "MutatingAdmissionPolicy MutatingAdmissionPolicyBinding",
    "apiextensions.k8s.io/v1": "CustomResourceDefinition",
    "apiregistration.k8s.io/v1": "APIService",
    "apps/v1": "ControllerRevision DaemonSet Deployment ReplicaSet StatefulSet",
    "authentication.k8s.io/v1": "SelfSubjectReview TokenRequest TokenReview",
    "authorization.k8s.io/v1": "LocalSubjectAccessReview SelfSubjectAccessReview SelfSubjectRulesReview "
                               "SubjectAccessReview",
    "autoscaling/v1": "HorizontalPodAutoscaler Scale",
    "autoscaling/v2": "HorizontalPodAutoscaler",
    "batch/v1": "CronJob Job",
    "certificates.k8s.io/v1beta1": "ClusterTrustBundle PodCertificateRequest",
    "coordination.k8s.io/v1": "Lease",
    "coordination.k8s.io/v1alpha2": "LeaseCandidate",
    "coordination.k8s.io/v1beta1": "LeaseCandidate",
    "discovery.k8s.io/v1": "EndpointSlice",
    "events.k8s.io/v1": "Event",
    "flowcontrol.apiserver.k8s.io/v1": "FlowSchema PriorityLevelConfiguration",
    "internal.apiserver.k8s.io/v1alpha1": "StorageVersion",
    "networking.k8s.io/v1": "IPAddress Ingress IngressClass NetworkPolicy ServiceCIDR",
    "node.k8s.io/v1": "RuntimeClass",
    "policy/v1": "Eviction PodDisruptionBudget",
    "rbac.authorization.k8s.io/v1": "ClusterRole ClusterRoleBinding Role RoleBinding",
    "resource.k8s.io/v1alpha3": "DeviceTaintRule ResourcePoolStatusRequest",
    "resource.k8s.io/v1beta1": "DeviceClass ResourceClaim ResourceClaimTemplate ResourceSlice",
    "resource.k8s.io/v1beta2": "DeviceClass DeviceTaintRule ResourceClaim ResourceClaimTemplate ResourceSlice",
    "scheduling.k8s.io/v1": "PriorityClass",
    "storage.k8s.io/v1": "CSIDriver CSINode CSIStorageCapacity StorageClass VolumeAttachment VolumeAttributesClass",
    "storagemigration.k8s.io/v1beta1": "StorageVersionMigration",
    "v1": "Binding ComponentStatus ConfigMap Endpoints Event LimitRange Namespace Node PersistentVolume "
          "PersistentVolumeClaim Pod PodTemplate ReplicationController ResourceQuota Secret Service "
          "ServiceAccount",
})
_ONLY_136 = _table({
    "certificates.k8s.io/v1": "CertificateSigningRequest",
    "certificates.k8s.io/v1alpha1": "ClusterTrustBundle",
    "networking.k8s.io/v1beta1": "IPAddress ServiceCIDR",
    "resource.k8s.io/v1": "DeviceClass ResourceClaim ResourceClaimTemplate ResourceSlice",
    "scheduling.k8s.io/v1alpha2": "PodGroup Workload",
    "storage.k8s.io/v1beta1": "VolumeAttributesClass",
})
_ONLY_137 = _table({
    "certificates.k8s.io/v1": "CertificateSigningRequest ClusterTrustBundle PodCertificateRequest",
    "lifecycle.k8s.io/v1alpha1": "Eviction EvictionRequest",
    "resource.k8s.io/v1": "DeviceClass DeviceTaintRule ResourceClaim ResourceClaimTemplate ResourceSlice",
    "scheduling.k8s.io/v1alpha3": "CompositePodGroup PodGroup Workload",
    "scheduling.k8s.io/v1beta1": "PodGroup Workload",
    "storagemigration.k8s.io/v1": "StorageVersionMigration",
})

# 1.38 (v1.38.0-beta.0 api/openapi-spec): resource.k8s.io/v1beta1 is no longer served, and scheduling.k8s.io/v1beta1
# also holds CompositePodGroup (pkg/registry/scheduling/rest/storage_scheduling.go)
_138 = {**{gv: kinds for gv, kinds in {**_BOTH, **_ONLY_137}.items() if gv != "resource.k8s.io/v1beta1"},
        **_table({"scheduling.k8s.io/v1beta1": "CompositePodGroup PodGroup Workload"})}
BUILTIN: dict[str, dict[str, frozenset[str]]] = {"1.36": {**_BOTH, **_ONLY_136}, "1.37": {**_BOTH, **_ONLY_137},
                                                 "1.38": _138}
# groups that once were built in and are gone from every release wasplan knows (extensions/v1beta1 ended in 1.22)
_RETIRED_GROUPS = frozenset({"extensions"})
BUILTIN_GROUPS = frozenset(gv.rpartition("/")[0] for rows in BUILTIN.values() for gv in rows) | _RETIRED_GROUPS
_VERSION = re.compile(r"v(\d+)(?:(alpha|beta)(\d+))?$")


def group_of(api_version: str) -> str:
    """`apps/v1` -> `apps`, `v1` -> `` (the core group)."""
    return api_version.rpartition("/")[0]


def is_builtin(api_version: str) -> bool:
    return group_of(api_version) in BUILTIN_GROUPS


def closed(group: str) -> bool:
    """Whether no one can add a kind to the group: a CustomResourceDefinition's group needs a dot
    (apiextensions-apiserver `pkg/apis/apiextensions/validation` ValidateCustomResourceDefinitionSpec), and the
    aggregation layer cannot take a group kube-apiserver serves itself, so the core group, `apps`, `batch`,
    `policy`, `autoscaling` hold exactly the kinds of this table."""
    return group in BUILTIN_GROUPS and "." not in group


# Files of the core group's version that are not objects of the API: a kubeconfig (client-go
# tools/clientcmd/api/v1 writes `apiVersion: v1`, `kind: Config`).
CLIENT_KINDS = frozenset({("v1", "Config")})


def kinds_of_group(release: str, group: str) -> set[str]:
    return {kind for gv, kinds in BUILTIN[release].items() if group_of(gv) == group for kind in kinds}


def version_key(api_version: str) -> tuple:
    """Kubernetes' version priority, first = preferred: GA before beta before alpha, higher numbers first
    (apimachinery `version.CompareKubeAwareVersionStrings`); anything else last, by name."""
    m = _VERSION.match(api_version.rpartition("/")[2])
    if m is None:
        return (3, 0, 0, api_version)
    stage = {None: 0, "beta": 1, "alpha": 2}[m.group(2)]
    return (stage, -int(m.group(1)), -int(m.group(3) or 0), api_version)


def serves(release: str, api_version: str, kind: str) -> bool:
    return kind in BUILTIN[release].get(api_version, ())


def versions_of_group(release: str, group: str) -> list[str]:
    """The group's versions in the release, preferred first."""
    return sorted((gv for gv in BUILTIN[release] if group_of(gv) == group), key=version_key)


def versions_serving(release: str, kind: str, group: str) -> list[str]:
    """The versions of `group` that hold `kind`, preferred first; when the group holds no such kind (a retired
    group, `extensions/v1beta1` Ingress, or a kind that moved), those of any group."""
    rows = BUILTIN[release]
    same = [gv for gv, kinds in rows.items() if kind in kinds and group_of(gv) == group]
    return sorted(same or [gv for gv, kinds in rows.items() if kind in kinds], key=version_key)

"""Kueue's Configuration (the file a Kueue install mounts as `controller_manager_config.yaml`), as far as the
admission model depends on it.

Given as its own document, `apiVersion: config.kueue.x-k8s.io/v1beta1` or `v1beta2`, `kind: Configuration`, among
the manifests or the `--cluster` files (docs/kueue.md says how to get it out of the `kueue-manager-config`
ConfigMap). Without one, Kueue's defaults hold: fair sharing off.

Upstream: KDIR/apis/config/v1beta2/configuration_types.go (`fairSharing`: present means enabled, with
`preemptionStrategies`), KDIR/apis/config/v1beta1/configuration_types.go and configuration_conversion.go (v1beta1's
`fairSharing.enable`, off unless true; an enabled v1beta1 fairSharing without strategies gets
[LessThanOrEqualToFinalShare, LessThanInitialShare]; `waitForPodsReady.enable` likewise), and
KDIR/apis/config/v1beta2/defaults.go. What the Configuration sets that changes admission and the model does not
follow is listed in `not_modelled` (the plan warns, WAS698).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CONFIG_GROUP = "config.kueue.x-k8s.io"
CONFIG_VERSIONS = ("v1beta1", "v1beta2")
# the integrations whose Workloads the model builds, by the kind of their objects
FRAMEWORKS = {"Job": "batch/job", "JobSet": "jobset.x-k8s.io/jobset"}


@dataclass(slots=True)
class KueueConfig:
    fair_sharing: bool = False
    strategies: tuple[str, ...] = ()
    frameworks: tuple[str, ...] | None = None  # integrations.frameworks when given
    not_modelled: list[str] = field(default_factory=list)

    def unmanaged(self, framework: str) -> bool:
        """Kueue manages no object of this integration (`integrations.frameworks` lacks it)."""
        return self.frameworks is not None and framework not in self.frameworks


def _map(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def is_configuration(obj: dict) -> bool:
    api_version = obj.get("apiVersion") if isinstance(obj.get("apiVersion"), str) else ""
    group, _, version = api_version.rpartition("/")
    return group == CONFIG_GROUP and version in CONFIG_VERSIONS and obj.get("kind") == "Configuration"


def parse_config(obj: dict) -> KueueConfig:
    v1beta1 = obj.get("apiVersion", "").endswith("/v1beta1")
    out = KueueConfig()
    fs = obj.get("fairSharing")
    if isinstance(fs, dict) and (not v1beta1 or fs.get("enable") is True):
        out.fair_sharing = True
        raw = fs.get("preemptionStrategies")
        out.strategies = tuple(str(s) for s in raw) if isinstance(raw, list) else ()
        if v1beta1 and not out.strategies:
            out.strategies = ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
    frameworks = _map(obj.get("integrations")).get("frameworks")
    if isinstance(frameworks, list) and frameworks:
        out.frameworks = tuple(str(f) for f in frameworks)
    out.not_modelled = _not_modelled(obj, v1beta1)
    return out


def _not_modelled(obj: dict, v1beta1: bool) -> list[str]:
    """What this Configuration sets that changes which workloads Kueue admits, or how, and is not modelled."""
    out = []
    wfpr = obj.get("waitForPodsReady")
    if isinstance(wfpr, dict) and (not v1beta1 or wfpr.get("enable") is True):
        out.append("waitForPodsReady (admission waits for, and evicts on, pods becoming ready)")
    if isinstance(obj.get("admissionFairSharing"), dict):
        out.append("admissionFairSharing (LocalQueues ordered by their consumed resources)")
    resources = _map(obj.get("resources"))
    for key in ("excludeResourcePrefixes", "transformations", "deviceClassMappings"):
        if resources.get(key):
            out.append(f"resources.{key} (the resources a Workload's quota counts)")
    if obj.get("manageJobsWithoutQueueName") is True:
        out.append("manageJobsWithoutQueueName (Jobs without kueue.x-k8s.io/queue-name are held by Kueue)")
    gates = obj.get("featureGates")
    if isinstance(gates, dict) and gates:
        out.append(f"featureGates {', '.join(f'{k}={v}' for k, v in sorted(gates.items()))} (the model follows "
                   f"v0.17.0's default gates)")
    return out

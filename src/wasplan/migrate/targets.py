"""Which apiVersion each document should end up in, for `--to-k8s RELEASE` or a forced `--to VERSION`.

1.37 serves Workload/PodGroup as both v1beta1 and v1alpha3 but CompositePodGroup only as v1alpha3; a
composite tree (the Workload that declares it, the CompositePodGroups, the PodGroups naming a parent) is kept
together in the version the release prefers for CompositePodGroup (`Release.preferred`) so one feature's objects
share one version, everything else goes to the beta. 1.38 also serves CompositePodGroup as v1beta1
(pkg/registry/scheduling/rest/storage_scheduling.go of v1.38.0-beta.0), so there the whole tree is v1beta1.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.api.convert import V1ALPHA1, V1ALPHA2, V1ALPHA3, V1BETA1
from wasplan.api.releases import DEFAULT_RELEASE, RELEASE_OF_VERSION, SCHEDULING_GROUP, Release, get_release

FORCEABLE = {"v1beta1": V1BETA1, "v1alpha3": V1ALPHA3, "v1alpha2": V1ALPHA2}
RELEASE_OF = {f"{SCHEDULING_GROUP}/{version}": release for version, release in RELEASE_OF_VERSION.items()}
OLD_VERSIONS = (V1ALPHA1, V1ALPHA2)


def _release(to_k8s: str) -> Release:
    try:
        return get_release(to_k8s)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None


def is_scheduling(api_version: object) -> bool:
    return isinstance(api_version, str) and api_version.startswith(SCHEDULING_GROUP + "/")


def base_kind(kind: str) -> str:
    return kind[:-4] if kind.endswith("List") and kind != "List" else kind


def uses_composites(kind: str, obj: dict) -> bool:
    """True for objects that belong to a CompositePodGroup tree (only v1alpha3 serves the whole tree)."""
    spec = obj.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    if kind == "CompositePodGroup":
        return True
    if kind == "Workload":
        return bool(spec.get("compositePodGroupTemplates"))
    if kind == "PodGroup":
        return spec.get("parentCompositePodGroupName") is not None
    return False


@dataclass(frozen=True)
class Target:
    release: str  # "1.36" | "1.37" | "1.38": decides Job handling and which schemas the output must pass
    forced: str | None = None  # full apiVersion given with --to

    @classmethod
    def parse(cls, to_k8s: str | None, to_version: str | None) -> "Target":
        """Raises ValueError with a user-facing message for unknown releases or versions."""
        if to_version is not None:
            short = to_version.rsplit("/", 1)[-1]
            if short not in FORCEABLE:
                raise ValueError(f"--to must be one of {', '.join(FORCEABLE)}, not {to_version!r}")
            forced = FORCEABLE[short]
            if to_k8s is None:
                return cls(RELEASE_OF[forced], forced)
            release = _release(to_k8s)
            if forced not in release.versions_of_group(SCHEDULING_GROUP):
                raise ValueError(f"--to {to_version}: Kubernetes {release.version} does not serve {forced} (it "
                                 f"serves {', '.join(release.versions_of_group(SCHEDULING_GROUP))})")
            return cls(release.version, forced)
        return cls(_release(to_k8s or DEFAULT_RELEASE).version)

    def version_for(self, kind: str, obj: dict) -> str:
        """Target apiVersion of one object (`kind` without List)."""
        if self.forced:
            return self.forced
        release = get_release(self.release)
        if not release.caps.composites:
            return V1ALPHA2
        return release.preferred["CompositePodGroup"] if uses_composites(kind, obj) else V1BETA1

    def version_for_list(self, kind: str, items: list) -> str:
        """A typed list has one apiVersion for all its items: v1alpha3 as soon as one item needs it."""
        versions = {self.version_for(base_kind(kind), i) for i in items if isinstance(i, dict)}
        if V1ALPHA3 in versions:
            return V1ALPHA3
        return versions.pop() if versions else self.version_for(base_kind(kind), {})

"""The case generator writes valid objects for the release, the same ones for the same seed, and, over a few
dozen seeds, every feature the differential tests are meant to cover. No Go needed."""

from __future__ import annotations

import pytest

import compare
import gen

SEEDS = range(24)


def _text(case: gen.Case) -> str:
    return gen.dump(case.cluster) + gen.case.dump(case.manifests)


def test_same_seed_same_case():
    one, two = gen.generate(7, "1.37", "batch"), gen.generate(7, "1.37", "batch")
    assert _text(one) == _text(two)
    assert _text(one) != _text(gen.generate(8, "1.37", "batch"))


@pytest.mark.parametrize("release", gen.RELEASES)
@pytest.mark.parametrize("theme", gen.THEMES)
def test_every_theme_is_valid_and_planned(release, theme, tmp_path):
    if theme not in gen.themes_for(release):
        pytest.skip(f"{theme} needs 1.37")
    for seed in range(3):
        case = gen.generate(seed, release, "sequential", theme)
        manifests, cluster = case.write(tmp_path / str(seed))
        assert compare.validation_errors([manifests, cluster], release, case.gates) == [], case.label
        plan = compare.run_wasplan(manifests, cluster, release, case.arrival, case.gates)
        pods = sum(1 for d in case.manifests + case.cluster if d["kind"] == "Pod")
        assert len(plan["pods"]) == pods, case.label


# field or kind written -> the feature it stands for
FEATURES = {
    "example.com/foo": "extended resources", "tolerations:": "tolerations", "nodeSelector: {disktype": "nodeSelector",
    "requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms": "required node affinity",
    "preference:": "preferred node affinity", "matchFields": "node affinity on metadata.name",
    "podAffinity:": "pod affinity", "podAntiAffinity:": "pod anti-affinity", "podAffinityTerm": "preferred pod terms",
    "nodeName: n": "running pods", "whenUnsatisfiable: DoNotSchedule": "hard spread",
    "whenUnsatisfiable: ScheduleAnyway": "soft spread", "minDomains": "minDomains",
    "nodeAffinityPolicy": "nodeAffinityPolicy", "nodeTaintsPolicy": "nodeTaintsPolicy",
    "unschedulable: true": "unschedulable nodes", "kind: PriorityClass": "priorities",
    "preemptionPolicy: Never": "non-preempting priority", "kind: PodDisruptionBudget": "PDBs",
    "minCount": "gang PodGroups", "basic: {}": "basic PodGroups", "schedulingConstraints": "topology-aware groups",
    "disruptionMode": "disruption modes", "kind: CompositePodGroup": "CompositePodGroups",
    "kind: ResourceClaimTemplate": "claim templates", "kind: ResourceClaim\n": "claims",
    "count:": "device counts",
    "cel:": "CEL selectors", "firstAvailable": "firstAvailable", "allocationMode: All": "allocationMode All",
    "adminAccess: true": "adminAccess", "sharedCounters": "partitionable counters",
    "example.com/unhealthy, value": "device taints", "nodeSelectorTerms:\n    - matchExpressions:\n      - key: "
    "topology.kubernetes.io/zone": "network-attached devices", "extendedResourceName": "DRA extended resources",
    "sizeBytes": "node images", ".compute.internal": "long dotted node names", "initContainers": "init container images", "reference: ": "image volumes",
}


@pytest.mark.parametrize("release", gen.RELEASES)
def test_seeds_cover_every_feature(release):
    cases = [gen.generate(seed, release, None, theme) for seed in SEEDS for theme in gen.themes_for(release)]
    texts = "".join(_text(case) for case in cases)
    assert any(d["kind"] == "PodGroup" and d["spec"].get("resourceClaims") for c in cases for d in c.manifests)
    assert {gen.generate(seed, release).arrival for seed in range(8)} == set(gen.ARRIVALS)
    assert any(d["kind"] == "Pod" and len(d["metadata"]["name"]) > 63 for c in cases for d in c.manifests)
    missing = sorted(feature for needle, feature in FEATURES.items() if needle not in texts
                     and not (feature == "CompositePodGroups" and release == "1.36"))
    assert missing == []
    if release == "1.36":
        assert "disruptionMode: PodGroup" in texts and "kind: CompositePodGroup" not in texts
    else:
        assert "all: {}" in texts and "single: {}" in texts


@pytest.mark.parametrize("release", gen.RELEASES)
def test_wide_cases_are_valid_planned_and_mix_the_themes(release, tmp_path):
    """Wide cases (gen/wide.py) are valid, plan, are the same for the same number, and over a dozen draws bring
    groups next to standalone pods, members at another priority than their group, and (1.37) DeviceTaintRules
    created between pods."""
    assert _text(gen.generate_wide(3, release, "batch")) == _text(gen.generate_wide(3, release, "batch"))
    seen = set()
    for n in range(12):
        case = gen.generate_wide(n, release, "sequential")
        manifests, cluster = case.write(tmp_path / str(n))
        assert compare.validation_errors([manifests, cluster], release, case.gates) == [], case.label
        plan = compare.run_wasplan(manifests, cluster, release, case.arrival, case.gates)
        assert len(plan["pods"]) == sum(1 for d in case.manifests + case.cluster if d["kind"] == "Pod"), case.label
        kinds = [d["kind"] for d in case.manifests]
        if "PodGroup" in kinds and any(d["kind"] == "Pod" and "schedulingGroup" not in d["spec"]
                                       for d in case.manifests):
            seen.add("groups with standalone pods")
        group_priority = {d["metadata"]["name"]: d["spec"].get("priorityClassName") for d in case.manifests
                          if d["kind"] == "PodGroup"}
        if any(d["kind"] == "Pod" and d["spec"].get("schedulingGroup", {}).get("podGroupName") in group_priority
               and d["spec"].get("priorityClassName") != group_priority[d["spec"]["schedulingGroup"]["podGroupName"]]
               for d in case.manifests):
            seen.add("members at another priority")
        if "DeviceTaintRule" in kinds:
            at = kinds.index("DeviceTaintRule")
            assert "Pod" in kinds[:at] and "Pod" in kinds[at:], case.label  # created between pods
            seen.add("taint rules")
    wanted = {"groups with standalone pods", "members at another priority"} | (
        {"taint rules"} if release == "1.37" else set())
    assert wanted <= seen

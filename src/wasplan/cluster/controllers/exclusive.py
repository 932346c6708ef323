"""Exclusive placement per topology domain, as JobSet's and LeaderWorkerSet's pod webhooks inject it.

The leader pod of a unit (a JobSet child Job, an LWS group or subgroup) gets a required pod affinity to its own
unit (`<unit key> In [<its value>]`) and a required anti-affinity to every other unit
(`<unit key> Exists`, `<unit key> NotIn [<its value>]`, plus JobSet's `jobset.sigs.k8s.io/priority In [p]`)
over the exclusive topology key (jobset pkg/webhooks/pod_webhook.go `setExclusiveAffinities`; lws
pkg/webhooks/pod_webhook.go `SetExclusiveAffinities`). Followers are created only once the leader is scheduled
and get a nodeSelector for the leader's domain (jobset `setNodeSelector`, lws pod_controller.go
`setNodeSelectorForWorkerPods`); the plan cannot know that domain before the leader is placed, so a follower
gets a required pod affinity to its unit over the same key instead, which admits exactly the leader's domain.
"""

from __future__ import annotations

from dataclasses import replace

from wasplan.cluster.model import Affinity, LabelSelector, Pod, PodAffinityTerm, Requirement

ALL_NAMESPACES = LabelSelector()


def _term(requirements: tuple[Requirement, ...], topology: str, all_namespaces: bool) -> PodAffinityTerm:
    return PodAffinityTerm(LabelSelector(match_expressions=requirements), topology,
                           namespace_selector=ALL_NAMESPACES if all_namespaces else None)


def _with_terms(pod: Pod, affinity: tuple[PodAffinityTerm, ...], anti: tuple[PodAffinityTerm, ...]) -> Pod:
    base = pod.affinity or Affinity()
    return replace(pod, affinity=replace(base, pod_required=base.pod_required + affinity,
                                         anti_required=base.anti_required + anti))


def leader(pod: Pod, key: str, topology: str, all_namespaces: bool = False,
           also: tuple[Requirement, ...] = ()) -> Pod:
    """The leader's affinity to its unit and anti-affinity to every other unit (`also` narrows the latter)."""
    value = pod.labels[key]
    same = _term((Requirement(key, "In", (value,)),), topology, all_namespaces)
    others = _term((Requirement(key, "Exists"), Requirement(key, "NotIn", (value,)), *also), topology,
                   all_namespaces)
    return _with_terms(pod, (same,), (others,))


def follower(pod: Pod, key: str, topology: str, all_namespaces: bool = False) -> Pod:
    """A follower placed in its leader's domain (the stand-in for the nodeSelector copied from the leader)."""
    return _with_terms(pod, (_term((Requirement(key, "In", (pod.labels[key],)),), topology, all_namespaces),), ())

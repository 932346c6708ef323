"""A smaller resource request that makes the target fit on the nodes it has.

When a node the pod may use lacks only a little of one resource (a 4-CPU pod on a 4-CPU node whose DaemonSet
pods take 100m), the smallest change is often the request, not new hardware. For each resource the failing pod
shape lacks on nodes it is otherwise allowed on, the candidate requests are what those nodes have free now,
divided among 1..k pods (k: the pods still needed), below the current request; the largest candidate that a
re-run places is the suggestion, found by bisection over the candidates (requests only shrink, so a smaller
request never places fewer pods on the same nodes). A request is edited only where the pod is written with one
container and no init containers or overhead, so the container's request is the pod's (the effective request
of upstream's resource.PodRequests); extended resources (GPUs) change their equal limit too, as the API server
requires requests == limits for them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wasplan.cluster.model import CPU, MEMORY, Pod
from wasplan.explain import manifest, probe, rerun, units
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Suggestion
from wasplan.words import plural

MAX_CANDIDATES = 32
MIB = 2**20


def _pod_spec(pod: Pod) -> dict | None:
    """The pod spec the user wrote for this pod: its controller's template, or its own document."""
    if pod.template is not None:
        doc, prefix = pod.template
        node = doc.obj
        for part in (*prefix, "spec"):
            node = node.get(part) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else None
    if pod.source is not None and pod.source.kind == "Pod":
        spec = pod.source.obj.get("spec")
        return spec if isinstance(spec, dict) else None
    return None


def _single_container(pod: Pod) -> dict | None:
    """The one container whose requests are the pod's, or None where more than one part adds to them."""
    spec = _pod_spec(pod)
    if spec is None or spec.get("initContainers") or spec.get("overhead") or spec.get("resources"):
        return None
    containers = spec.get("containers")
    if not isinstance(containers, list) or len(containers) != 1 or not isinstance(containers[0], dict):
        return None
    return containers[0]


def _rounded(resource: str, value: int) -> int:
    """A request a person would write: whole millicores of 10, whole MiB; other resources as counted."""
    if resource == CPU:
        return value - value % 10
    if resource in (MEMORY, "ephemeral-storage"):
        return value - value % MIB
    return value


def quantity(resource: str, value: int) -> str:
    """The manifest spelling of an amount the engine counts (millicores, bytes)."""
    if resource == CPU:
        return str(value // 1000) if value % 1000 == 0 else f"{value}m"
    if resource in (MEMORY, "ephemeral-storage"):
        for suffix, size in (("Gi", 2**30), ("Mi", MIB), ("Ki", 2**10)):
            if value % size == 0:
                return f"{value // size}{suffix}"
    return str(value)


def _candidates(free: np.ndarray, request: int, resource: str, needed: int) -> list[int]:
    """Requests below the current one that the free room of the eligible nodes suggests, largest first."""
    found = set()
    for room in free.tolist():
        for k in range(1, min(needed, 8) + 1):
            value = _rounded(resource, int(room) // k)
            if 0 < value < request:
                found.add(value)
    return sorted(found, reverse=True)[:MAX_CANDIDATES]


def _with_request(pod: Pod, resource: str, value: int) -> Pod:
    requests = {**pod.requests, resource: value}
    non_zero = {**pod.non_zero_requests, resource: value} if resource in pod.non_zero_requests else pod.non_zero_requests
    return dataclasses.replace(pod, requests=requests, non_zero_requests=non_zero)


def _largest_that_places(ctx: Context, subj: Subject, keys: set[str], resource: str,
                         candidates: list[int]) -> int | None:
    """Bisection over the candidates (largest first): the largest request whose re-run places the target."""
    places = lambda v: ctx.verifier.places(  # noqa: E731
        subj.unit, rerun.with_pods(ctx.inputs, keys, lambda p: _with_request(p, resource, v)))
    if not candidates or not places(candidates[-1]):
        return None
    lo, hi = -1, len(candidates) - 1  # candidates[hi] places; candidates[lo] (if any) is not known to
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if places(candidates[mid]):
            hi = mid
        else:
            lo = mid
    return candidates[hi]


def _changes(ctx: Context, members: list[Pod], container: dict, resource: str, value: int) -> tuple:
    text = quantity(resource, value)
    changes = manifest.pod_changes(ctx.documents, members, ("containers", 0, "resources", "requests", resource), text)
    limits = (container.get("resources") or {}).get("limits") or {}
    if resource not in (CPU, MEMORY) and resource in limits:  # extended resources: limits must equal requests
        changes += manifest.pod_changes(ctx.documents, members, ("containers", 0, "resources", "limits", resource),
                                        text)
    return changes


def _lacking(f: probe.Failure) -> list[str]:
    """The resources the pod lacks on some node it may otherwise use."""
    v = f.verdicts
    if v is None or not v.fit_lacking.size:
        return []
    ok = probe.eligible(f)
    return [c for j, c in enumerate(v.fit_columns) if c != "pods" and (v.fit_lacking[:, j] & ok).any()]


def requests(ctx: Context, subj: Subject) -> list[tuple[float, Suggestion]]:
    """Per lacking resource of the first failing pod shape, the largest smaller request that a re-run places,
    with the share of the request it cuts (0.025 for 4 CPU to 3900m)."""
    if not subj.pending or subj.trial is None or not subj.trial.failures:
        return []
    pod = next(iter(subj.trial.failures.values())).pod
    ev = ctx.evaluator(pod)
    container = _single_container(pod)
    if ev is None or container is None:
        return []
    members = [p for p in subj.pending if p.requests == pod.requests and p.template == pod.template] or [pod]
    keys = {p.key for p in members}
    now = probe.now(ev, pod, subj.mask)
    ok = probe.eligible(now)
    names = tuple(ctx.sim.state.resources)
    out = []
    for resource in _lacking(now):
        request = pod.requests.get(resource, 0)
        free = np.clip(now.free[ok, names.index(resource)], 0, None)
        value = _largest_that_places(ctx, subj, keys, resource, _candidates(free, request, resource, subj.needed))
        if value is None:
            continue
        cut = (request - value) * 100 / request
        why = (f"{plural(int(ok.sum()), 'node')} the pods may use {'has' if ok.sum() == 1 else 'have'} at most "
               f"{units.amount(resource, int(free.max()))} {resource} free; with {quantity(resource, value)} "
               f"({cut:.3g}% less) per pod the re-run places the target")
        out.append((cut / 100, Suggestion("requests", f"request {quantity(resource, value)} {resource} per pod "
                                          f"(not {quantity(resource, request)})",
                              why, _changes(ctx, members, container, resource, value))))
    return out

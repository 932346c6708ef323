"""A PodSet's per-pod requests as Kueue counts them against quota.

Upstream:
- KDIR/pkg/workload/resources.go `AdjustResources`: first the RuntimeClass's pod overhead for a template naming a
  RuntimeClass and carrying no overhead (`handlePodOverhead`), then the namespace's LimitRanges of type Container
  (their `default` merged into limits and `defaultRequest` into requests, keeping what the container sets:
  `handlePodLimitRange`), then each container's limits standing in for missing requests
  (`UseLimitsAsMissingRequestsInPod`);
- KDIR/pkg/workload/workload.go `totalRequestsFromPodSets`: the pod's requests as k8s.io/component-helpers
  `PodRequests` sums them (regular containers added, restartable init containers (sidecars) added and carried
  into each later init container, the largest init container step taken where it is larger, the overhead added),
  then multiplied by the PodSet's count.

- KDIR/pkg/workload/resources.go `ValidateLimitRange` with KDIR/pkg/util/limitrange (`Summarize`: the smallest
  `max` and the largest `min` per resource over a namespace's LimitRanges; `ValidatePodSpec`: each init and regular
  container's larger of request and limit against the Container `max`, its smaller against `min`, and the pod's
  requests against the Pod type's), on the template after AdjustResources (the queue manager adjusts the
  Workload it queues, KDIR/pkg/cache/queue/manager.go).

Amounts follow `model.resource_value`: cpu in millicores, the rest in whole units.
"""

from __future__ import annotations

import json

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.cluster.resources import aggregate, to_units

from .model import resource_value


def _amounts(raw: object) -> dict[str, int]:
    out: dict[str, int] = {}
    if not isinstance(raw, dict):
        return out
    for name, value in raw.items():
        try:
            out[str(name)] = resource_value(str(name), parse_quantity(value))
        except QuantityError:
            continue  # validate reports a malformed quantity; Kueue's API server would have refused it
    return out


def _map(value: object) -> dict:
    """A mapping field as the model reads it: anything else (a malformed snapshot object, which the cluster's
    parser reports with file and line) reads as empty."""
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _merge_keep_first(first: dict, second: dict) -> dict:
    out = dict(second)
    out.update(first)
    return out


def container_defaults(limit_ranges: list[dict]) -> tuple[dict, dict]:
    """The Container-type `default` (limits) and `defaultRequest` of a namespace's LimitRanges, first one winning
    (KDIR/pkg/util/limitrange Summarize)."""
    limits: dict = {}
    requests: dict = {}
    for lr in limit_ranges:
        for item in (lr.get("spec") or {}).get("limits") or ():
            if not isinstance(item, dict) or item.get("type") != "Container":
                continue
            limits = _merge_keep_first(limits, item.get("default") or {})
            requests = _merge_keep_first(requests, item.get("defaultRequest") or {})
    return limits, requests


def _adjusted(container: dict, defaults: tuple[dict, dict]) -> tuple[dict[str, int], dict[str, int]]:
    """A container's requests and limits after AdjustResources."""
    res = container.get("resources") if isinstance(container.get("resources"), dict) else {}
    limits = _merge_keep_first(res.get("limits") or {}, defaults[0])
    requests = _merge_keep_first(res.get("requests") or {}, defaults[1])
    for name, value in limits.items():
        requests.setdefault(name, value)
    return _amounts(requests), _amounts(limits)


def _exact(raw: object) -> dict:
    """A ResourceList as exact amounts (`Fraction`), malformed entries left to validate."""
    out: dict = {}
    if not isinstance(raw, dict):
        return out
    for name, value in raw.items():
        try:
            out[str(name)] = parse_quantity(value).amount
        except QuantityError:
            continue
    return out


def _exact_requests(container: dict, defaults: tuple[dict, dict]) -> dict:
    """A container's requests after AdjustResources, exact: limits stand in for missing requests."""
    res = container.get("resources") if isinstance(container.get("resources"), dict) else {}
    requests = _merge_keep_first(_map(res.get("requests")), defaults[1])
    for name, value in _merge_keep_first(_map(res.get("limits")), defaults[0]).items():
        requests.setdefault(name, value)
    return _exact(requests)


def pod_requests(spec: dict, limit_ranges: list[dict], runtime_overheads: dict[str, dict]) -> dict[str, int]:
    """One pod's requests after AdjustResources, combined as kube-scheduler combines them (sidecars and init
    containers: `cluster.resources.aggregate`, the one implementation of component-helpers' PodRequests), summed
    exactly and rounded once, as Kueue converts the summed Quantities (`resources.NewRequests`)."""
    defaults = container_defaults(limit_ranges)
    regular = [_exact_requests(c, defaults) for c in _list(spec.get("containers")) if isinstance(c, dict)]
    init = [(c.get("restartPolicy") == "Always", _exact_requests(c, defaults))
            for c in _list(spec.get("initContainers")) if isinstance(c, dict)]
    total = aggregate(regular, init)
    overhead = spec.get("overhead")
    if not overhead and isinstance(spec.get("runtimeClassName"), str):
        overhead = runtime_overheads.get(spec["runtimeClassName"])
    for name, amount in _exact(overhead or {}).items():
        total[name] = total.get(name, 0) + amount
    return to_units(total)


MAX_MESSAGE = "requests must not be above the limitRange max"
MIN_MESSAGE = "requests must not be below the limitRange min"


def _bounds(limit_ranges: list[dict], kind: str) -> tuple[dict[str, int], dict[str, int]] | None:
    """limitrange.Summarize for one type: the smallest max and the largest min per resource, or None when no
    LimitRange has an item of the type."""
    found, high, low = False, {}, {}
    for lr in limit_ranges:
        for item in (lr.get("spec") or {}).get("limits") or ():
            if not isinstance(item, dict) or item.get("type") != kind:
                continue
            found = True
            for k, v in _amounts(item.get("max")).items():
                high[k] = min(high.get(k, v), v)
            for k, v in _amounts(item.get("min")).items():
                low[k] = max(low.get(k, v), v)
    return (high, low) if found else None


def _greater(values: dict[str, int], than: dict[str, int]) -> list[str]:
    """Requests.GreaterKeys: the resources of both where `values` is larger (in name order here)."""
    return sorted(k for k, v in values.items() if k in than and v > than[k])


def _merged(a: dict[str, int], b: dict[str, int], pick) -> dict[str, int]:
    """MergeResourceListKeepMax / KeepMin: every resource of either, `pick` of the two where both set it."""
    return {k: pick(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k, 0)) for k in a.keys() | b.keys()}


def _checked(path: str, high: dict[str, int], low: dict[str, int], big: dict[str, int],
             small: dict[str, int]) -> list[tuple[str, tuple[str, ...], str]]:
    out = []
    if names := _greater(big, high):
        out.append((path, tuple(names), MAX_MESSAGE))
    if names := _greater(low, small):
        out.append((path, tuple(names), MIN_MESSAGE))
    return out


def limit_range_violations(spec: dict, limit_ranges: list[dict],
                           pod_total: dict[str, int]) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """ValidatePodSpec on a template: (path under the template's spec, resources, message) per violation, in
    Kueue's order (init containers, containers, the pod); `pod_total` is the pod's requests (`pod_requests`)."""
    out: list[tuple[str, tuple[str, ...], str]] = []
    container = _bounds(limit_ranges, "Container")
    if container is not None:
        defaults = container_defaults(limit_ranges)
        for field in ("initContainers", "containers"):
            for i, c in enumerate(spec.get(field) or ()):
                if not isinstance(c, dict):
                    continue
                req, lim = _adjusted(c, defaults)
                out += _checked(f".{field}[{i}]", *container, _merged(req, lim, max), _merged(req, lim, min))
    pod = _bounds(limit_ranges, "Pod")
    if pod is not None:
        out += _checked("", *pod, pod_total, pod_total)
    return tuple(out)


def limit_range_message(pod_sets) -> str:
    """The scheduler's refusal of a workload whose PodSets violate a LimitRange (scheduler.go `nominate`: "resources
    didn't satisfy LimitRange constraints: " and the field errors as one aggregate, bracketed when several), or
    "" when none does."""
    errors: list[str] = []
    for i, ps in enumerate(pod_sets):
        for path, names, detail in ps.limit_range:
            text = (f"spec.podSets[{i}].template.spec{path}: Invalid value: "
                    f"{json.dumps(list(names), separators=(',', ':'))}: {detail}")
            if text not in errors:
                errors.append(text)
    if not errors:
        return ""
    joined = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
    return f"resources didn't satisfy LimitRange constraints: {joined}"

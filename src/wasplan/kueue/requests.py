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

Amounts follow `model.resource_value`: cpu in millicores, the rest in whole units.
"""

from __future__ import annotations

from wasplan.api.quantity import QuantityError, parse_quantity

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


def _container_requests(container: dict, defaults: tuple[dict, dict]) -> dict[str, int]:
    res = container.get("resources") if isinstance(container.get("resources"), dict) else {}
    limits = _merge_keep_first(res.get("limits") or {}, defaults[0])
    requests = _merge_keep_first(res.get("requests") or {}, defaults[1])
    for name, value in limits.items():
        requests.setdefault(name, value)
    return _amounts(requests)


def _add(into: dict[str, int], other: dict[str, int]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


def pod_requests(spec: dict, limit_ranges: list[dict], runtime_overheads: dict[str, dict]) -> dict[str, int]:
    """One pod's requests after AdjustResources."""
    defaults = container_defaults(limit_ranges)
    total: dict[str, int] = {}
    for c in spec.get("containers") or ():
        if isinstance(c, dict):
            _add(total, _container_requests(c, defaults))
    sidecars: dict[str, int] = {}
    init_max: dict[str, int] = {}
    for c in spec.get("initContainers") or ():
        if not isinstance(c, dict):
            continue
        req = _container_requests(c, defaults)
        if c.get("restartPolicy") == "Always":
            _add(total, req)
            _add(sidecars, req)
            step = dict(sidecars)
        else:
            step = dict(req)
            _add(step, sidecars)
        for k, v in step.items():
            init_max[k] = max(init_max.get(k, 0), v)
    for k, v in init_max.items():
        total[k] = max(total.get(k, 0), v)
    overhead = spec.get("overhead")
    if not overhead and isinstance(spec.get("runtimeClassName"), str):
        overhead = runtime_overheads.get(spec["runtimeClassName"])
    _add(total, _amounts(overhead or {}))
    return total

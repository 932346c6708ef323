"""A pod's effective resource request, computed once so the engine only adds and compares integers.

What kube-scheduler charges a node for a pod is not the sum of its containers' requests; it follows
`k8s.io/component-helpers/resource` (helpers.go: `PodRequests`, `AggregateContainerRequests`) and the
scheduler's `calculateResource` / `getNonMissingContainerRequests` (pkg/scheduler/framework/types.go):

* regular containers are summed; restartable init containers (sidecars, `restartPolicy: Always`) are added to
  that sum, and every init container's usage at its start (itself plus the sidecars started before it) is
  max'ed in, because init containers run one at a time before the regular ones;
* pod-level `spec.resources.requests` (PodLevelResources) replace the container aggregate for the resources
  pod-level resources support (cpu, memory, hugepages-*);
* `spec.overhead` (RuntimeClass) is added on top;
* API defaulting (pkg/apis/core/v1/defaults.go `SetDefaults_Pod`) first fills a container's missing requests
  from its limits, for every resource and for init containers as for regular ones, and (`defaultPodRequests`)
  missing pod-level requests from the container aggregate (cpu, memory) or, failing that, pod-level limits.

This is the one place that reads container resources: the per-container requests it defaults are also what the
DRA-backed extended resources are taken from (`ContainerRequests`, `pod_resources`), so a container that writes
only `limits: {nvidia.com/gpu: 1}` asks DynamicResources for a GPU exactly as the API server stores it.

`non_zero_requests` is the same computation with a container that names no cpu / memory request counted as
100m / 200Mi (`schedutil.DefaultMilliCPURequest` / `DefaultMemoryRequest`), which scoring uses so that
request-less pods still spread. Sums stay exact (`Fraction`) and are rounded up once at the end, as upstream
adds `Quantity` values before calling `MilliValue()` / `Value()`.
"""

from __future__ import annotations

from fractions import Fraction

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import CPU, MEMORY, PODS, ContainerRequests, Resources

Exact = dict[str, Fraction]

DEFAULT_MILLI_CPU = 100
DEFAULT_MEMORY = 200 * 1024 * 1024
# Kubernetes quantities are int64 (`int64Amount`, k8s.io/apimachinery/pkg/api/resource/amount.go); wasplan keeps
# every amount at most 2^53 base units (9 PB of memory, 9e12 cores), so that sums over a whole cluster stay
# exact within the int64 arrays of the engine.
MAX_UNITS = 2**53
_NON_ZERO_DEFAULTS: Exact = {CPU: Fraction(DEFAULT_MILLI_CPU, 1000), MEMORY: Fraction(DEFAULT_MEMORY)}


def quantities(raw: object, ctx: Ctx, path: tuple) -> Exact:
    """A `ResourceList` (`{cpu: 500m, memory: 1Gi}`) as exact amounts; malformed or negative entries are reported
    (WAS601) and left out, so one typo costs one finding rather than the whole object."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        ctx.report("WAS602", f"{_dotted(path)} must be a map of resource name to quantity", path)
        return {}
    out: Exact = {}
    for name, value in raw.items():
        if type(value) is str:
            amount = _CHECKED.get((name, value))
            if amount is not None:  # seen before and within bounds: every node of a pool repeats its capacities
                out[str(name)] = amount
                continue
        try:
            amount = parse_quantity(value).amount
        except QuantityError as exc:
            ctx.report("WAS601", f"invalid quantity {value!r} for {name}: {exc}", path + (name,),
                       hint="write e.g. 500m, 2, 1.5Gi or 512Mi")
            continue
        if amount < 0:
            ctx.report("WAS601", f"negative quantity {value!r} for {name}: requests and capacities must be >= 0",
                       path + (name,))
            continue
        if amount * (1000 if name == CPU else 1) > MAX_UNITS:
            ctx.report("WAS601", f"quantity {str(value)[:40]!r} for {name} is too large: at most 2^53 "
                                 f"{'millicores' if name == CPU else 'units'}", path + (name,))
            continue
        out[str(name)] = amount
        if type(value) is str and len(_CHECKED) < _MAX_CHECKED:
            _CHECKED[(name, value)] = amount
    return out


# (resource name, quantity text) -> its amount, once parsed and found within bounds (Fraction comparisons cost
# more than the parse, which api/quantity.py caches already)
_CHECKED: dict[tuple[object, str], Fraction] = {}
_MAX_CHECKED = 65536


def _dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def to_units(exact: Exact) -> Resources:
    """Exact amounts to the record's integers: cpu in millicores, the rest in base units, rounded up."""
    out: Resources = {}
    for name, amount in exact.items():
        value = amount * 1000 if name == CPU else amount
        out[name] = -((-value.numerator) // value.denominator)  # ceil
    return out


def _add(into: Exact, other: Exact) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


def _max(into: Exact, other: Exact) -> None:
    for k, v in other.items():
        if k not in into or v > into[k]:
            into[k] = v


def container_requests(container: dict, ctx: Ctx) -> Exact:
    """One container's requests after API defaulting: a resource with a limit but no request requests its limit."""
    resources = container.get("resources")
    if resources is None:
        return {}
    if not isinstance(resources, dict):
        ctx.report("WAS602", "resources must be a map with requests and limits", ("resources",))
        return {}
    requests = quantities(resources.get("requests"), ctx, ("resources", "requests"))
    for name, amount in quantities(resources.get("limits"), ctx, ("resources", "limits")).items():
        requests.setdefault(name, amount)
    return requests


def _with_defaults(requests: Exact, non_missing: Exact | None) -> Exact:
    if not non_missing:
        return requests
    out = dict(requests)
    for k, v in non_missing.items():
        if k not in requests:
            out[k] = v
    return out


def aggregate(regular: list[Exact], init: list[tuple[bool, Exact]], non_missing: Exact | None = None) -> Exact:
    """Containers and init containers combined as the sidecar KEP (753) defines for scheduling."""
    total: Exact = {}
    for reqs in regular:
        _add(total, _with_defaults(reqs, non_missing))
    sidecars: Exact = {}
    init_peak: Exact = {}
    for restartable, reqs in init:
        reqs = _with_defaults(reqs, non_missing)
        if restartable:
            _add(total, reqs)
            _add(sidecars, reqs)
            usage = dict(sidecars)
        else:
            usage = dict(reqs)
            _add(usage, sidecars)
        _max(init_peak, usage)
    _max(total, init_peak)
    return total


def is_pod_level_resource(name: str) -> bool:
    return name in (CPU, MEMORY) or name.startswith("hugepages-")


def _pod_level_requests(spec: dict, container_total: Exact, ctx: Ctx) -> Exact:
    """Pod-level requests after defaulting, limited to the resources pod-level resources support."""
    raw = spec.get("resources")
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        ctx.report("WAS602", "spec.resources must be a map with requests and limits", ("resources",))
        return {}
    requests = quantities(raw.get("requests"), ctx, ("resources", "requests"))
    limits = quantities(raw.get("limits"), ctx, ("resources", "limits"))
    if limits:
        for name, amount in container_total.items():
            if name not in requests and name in (CPU, MEMORY):  # overcommittable ones only
                requests[name] = amount
        for name, amount in limits.items():
            requests.setdefault(name, amount)
    return {k: v for k, v in requests.items() if is_pod_level_resource(k)}


def _containers(spec: dict, key: str, ctx: Ctx) -> list[tuple[int, bool, Exact]]:
    """(position in the list, restartable sidecar, defaulted requests) of each container object."""
    raw = spec.get(key)
    if raw is None:
        return []
    if not isinstance(raw, list):
        ctx.report("WAS602", f"spec.{key} must be a list of containers", (key,))
        return []
    out = []
    for i, container in enumerate(raw):
        if not isinstance(container, dict):
            ctx.report("WAS602", f"spec.{key}[{i}] must be a container object", (key, i))
            continue
        restartable = key == "initContainers" and container.get("restartPolicy") == "Always"
        out.append((i, restartable, container_requests(container, ctx.at(key, i))))
    return out


def _extended(spec: dict, init: list[tuple[int, bool, Exact]],
              regular: list[tuple[int, bool, Exact]]) -> tuple[ContainerRequests, ...]:
    """Per container (init containers first, as upstream indexes them) its defaulted domain-qualified requests
    in whole units, for the claim DynamicResources builds when a DeviceClass backs an extended resource."""
    inits = spec.get("initContainers")
    offset = len(inits) if isinstance(inits, list) else 0
    out = []
    for base, listed, init_list in ((0, init, True), (offset, regular, False)):
        for i, restartable, reqs in listed:
            extended = tuple((name, amount.numerator) for name, amount in sorted(reqs.items())
                             if "/" in name and amount.denominator == 1 and amount > 0)
            if extended:
                out.append(ContainerRequests(base + i, init_list and not restartable, tuple(sorted(reqs)), extended))
    return tuple(out)


def _finish(exact: Exact, pod_level: Exact, overhead: Exact) -> Exact:
    out = dict(exact)
    out.update(pod_level)
    _add(out, overhead)
    return out


def pod_requests(spec: dict, ctx: Ctx) -> tuple[Resources, Resources]:
    """(requests, non_zero_requests) of a pod spec (`pod_resources` without the per-container part)."""
    return pod_resources(spec, ctx)[:2]


def pod_resources(spec: dict, ctx: Ctx) -> tuple[Resources, Resources, tuple[ContainerRequests, ...]]:
    """(requests, non_zero_requests, per-container extended requests) of a pod spec; `ctx` points at the spec
    (`spec` of a Pod, `spec.template.spec` of a Job). Zero amounts are left out (they need no capacity);
    `pods: 1` is always present."""
    listed = _containers(spec, "containers", ctx)
    inits = _containers(spec, "initContainers", ctx)
    regular = [reqs for _, _, reqs in listed]
    init = [(restartable, reqs) for _, restartable, reqs in inits]
    containers = aggregate(regular, init)
    pod_level = _pod_level_requests(spec, containers, ctx)
    overhead = quantities(spec.get("overhead"), ctx, ("overhead",))
    exact = _finish(containers, pod_level, overhead)
    if pod_level:
        non_missing = {k: v for k, v in _NON_ZERO_DEFAULTS.items() if k not in exact}
    else:
        non_missing = _NON_ZERO_DEFAULTS
    non_zero_exact = _finish(aggregate(regular, init, non_missing), pod_level, overhead) if non_missing else exact
    requests = {k: v for k, v in to_units(exact).items() if v}
    requests[PODS] = 1
    nz = to_units(non_zero_exact)
    non_zero = {CPU: nz.get(CPU, 0), MEMORY: nz.get(MEMORY, 0)}
    extended = _extended(spec, inits, listed) if any("/" in name for name in requests) else ()
    return requests, non_zero, extended

"""Effective pod requests: containers, init containers, sidecars, overhead, pod-level resources, defaults.

Expected values follow k8s.io/component-helpers/resource (PodRequests, AggregateContainerRequests), the
sidecar KEP-753 formula, and the scheduler's non-zero defaults (pkg/scheduler/framework/types.go).
"""

import pytest

from wasplan.cluster.issues import Ctx
from wasplan.cluster.resources import pod_requests

GI, MI = 2**30, 2**20


def reqs(spec: dict):
    ctx = Ctx(None)
    requests, non_zero = pod_requests(spec, ctx)
    assert not ctx.diags, ctx.diags
    return requests, non_zero


def c(requests=None, limits=None, **extra) -> dict:
    resources = {}
    if requests is not None:
        resources["requests"] = requests
    if limits is not None:
        resources["limits"] = limits
    return {"name": "c", "resources": resources, **extra}


def test_regular_containers_are_summed():
    r, nz = reqs({"containers": [c({"cpu": "500m", "memory": "1Gi"}), c({"cpu": 2, "nvidia.com/gpu": 4})]})
    assert r == {"cpu": 2500, "memory": GI, "nvidia.com/gpu": 4, "pods": 1}
    # the second container names no memory: scoring counts 200Mi for it
    assert nz == {"cpu": 2500, "memory": GI + 200 * MI}


def test_an_init_container_larger_than_the_containers_sets_the_request():
    r, _ = reqs({"initContainers": [c({"cpu": 3, "memory": "100Mi"})], "containers": [c({"cpu": 1, "memory": "1Gi"})]})
    assert r["cpu"] == 3000 and r["memory"] == GI


def test_sidecar_started_before_an_init_container_counts_during_it():
    # sidecar 1 cpu, then an init container of 3 cpu: while it runs, 4 cpu are in use; afterwards 2 + 1.
    spec = {"initContainers": [c({"cpu": 1}, restartPolicy="Always"), c({"cpu": 3})], "containers": [c({"cpu": 2})]}
    assert reqs(spec)[0]["cpu"] == 4000


def test_sidecar_started_after_an_init_container_only_adds_to_the_containers():
    spec = {"initContainers": [c({"cpu": 3}), c({"cpu": 1}, restartPolicy="Always")], "containers": [c({"cpu": 2})]}
    assert reqs(spec)[0]["cpu"] == 3000


def test_overhead_is_added():
    r, nz = reqs({"containers": [c({"cpu": 1, "memory": "1Gi"})], "overhead": {"cpu": "250m", "memory": "120Mi"}})
    assert (r["cpu"], r["memory"]) == (1250, GI + 120 * MI)
    assert nz == {"cpu": 1250, "memory": GI + 120 * MI}


def test_pod_level_requests_replace_cpu_and_memory_only():
    spec = {"resources": {"requests": {"cpu": 4, "memory": "8Gi"}},
            "containers": [c({"cpu": 1, "memory": "1Gi", "nvidia.com/gpu": 1}), c({"cpu": 1, "nvidia.com/gpu": 1})]}
    r, nz = reqs(spec)
    assert r == {"cpu": 4000, "memory": 8 * GI, "nvidia.com/gpu": 2, "pods": 1}
    assert nz == {"cpu": 4000, "memory": 8 * GI}


def test_pod_level_limits_default_requests_where_no_container_asks():
    # memory is requested by a container, so the pod-level request defaults to that aggregate;
    # cpu is requested by nobody, so it defaults to the pod-level limit.
    spec = {"resources": {"limits": {"cpu": 2, "memory": "4Gi"}}, "containers": [c({"memory": "1Gi"})]}
    r, _ = reqs(spec)
    assert (r["cpu"], r["memory"]) == (2000, GI)


def test_pod_level_memory_missing_everywhere_gets_the_scoring_default_per_container():
    spec = {"resources": {"requests": {"cpu": 1}}, "containers": [c(), c()]}
    r, nz = reqs(spec)
    assert r == {"cpu": 1000, "pods": 1}
    assert nz == {"cpu": 1000, "memory": 400 * MI}


def test_limits_only_container_requests_its_limits():
    r, _ = reqs({"containers": [c(limits={"cpu": 2, "memory": "2Gi", "nvidia.com/gpu": 8})]})
    assert r == {"cpu": 2000, "memory": 2 * GI, "nvidia.com/gpu": 8, "pods": 1}


def test_request_below_limit_is_kept():
    r, _ = reqs({"containers": [c({"cpu": 1}, {"cpu": 4})]})
    assert r["cpu"] == 1000


def test_explicit_zero_is_not_replaced_by_the_scoring_default():
    r, nz = reqs({"containers": [c({"cpu": 0, "memory": 0})]})
    assert r == {"pods": 1}
    assert nz == {"cpu": 0, "memory": 0}


def test_request_less_pod():
    assert reqs({"containers": [{"name": "c"}]}) == ({"pods": 1}, {"cpu": 100, "memory": 200 * MI})


def test_amounts_are_summed_exactly_then_rounded_once():
    r, _ = reqs({"containers": [c({"cpu": "0.1m", "memory": "0.4"}) for _ in range(3)]})
    assert r["cpu"] == 1  # 0.3m rounds up to 1m; rounding each container first would give 3m
    assert r["memory"] == 2  # 1.2 bytes round up to 2


@pytest.mark.parametrize("bad", ["1.5.5", "-1", "10 Gi"])
def test_bad_quantities_are_reported_and_left_out(bad):
    ctx = Ctx(None)
    requests, _ = pod_requests({"containers": [c({"cpu": bad, "memory": "1Gi"})]}, ctx)
    assert requests == {"memory": GI, "pods": 1}
    assert [d.code for d in ctx.diags] == ["WAS601"]
    assert ctx.diags[0].location.path == ("containers", 0, "resources", "requests", "cpu")


def containers_of(spec: dict):
    from wasplan.cluster.resources import pod_resources

    ctx = Ctx(None)
    out = pod_resources(spec, ctx)[2]
    assert not ctx.diags, ctx.diags
    return [(x.index, x.short_lived_init, x.names, x.extended) for x in out]


def test_limits_only_extended_resource_is_a_container_request():
    """SetDefaults_Pod copies limits into requests per container, so the DRA-backed extended request exists."""
    assert containers_of({"containers": [c(limits={"nvidia.com/gpu": 1})]}) == [
        (0, False, ("nvidia.com/gpu",), (("nvidia.com/gpu", 1),))]


def test_extended_requests_index_init_containers_first_with_defaults_from_limits():
    spec = {"initContainers": [c(limits={"example.com/gpu": 2}), c({"cpu": 1}),
                               c(limits={"example.com/nic": 1}, restartPolicy="Always")],
            "containers": [c({"cpu": 1}, {"example.com/gpu": 1, "memory": "1Gi"})]}
    assert containers_of(spec) == [
        (0, True, ("example.com/gpu",), (("example.com/gpu", 2),)),
        (2, False, ("example.com/nic",), (("example.com/nic", 1),)),
        (3, False, ("cpu", "example.com/gpu", "memory"), (("example.com/gpu", 1),)),
    ]


def test_request_below_the_limit_of_an_extended_resource_is_kept():
    assert containers_of({"containers": [c({"example.com/gpu": 1}, {"example.com/gpu": 2})]}) == [
        (0, False, ("example.com/gpu",), (("example.com/gpu", 1),))]

"""A pod wasplan synthesises for the emitted snapshot must be one the API server accepts (found when the
API server oracle's validate rules reached emitted snapshots): no `pods` among the container's requests, and
a limit equal to the request for every resource that cannot be overcommitted."""

from __future__ import annotations

from wasplan.cluster.model import Pod
from wasplan.cluster.snapshot_objects import pod_object


def test_synthesised_container_resources_are_valid_for_the_server():
    pod = Pod("ml", "w-0", requests={"cpu": 500, "memory": 1 << 30, "pods": 1, "nvidia.com/gpu": 2,
                                     "hugepages-2Mi": 2 << 20}, non_zero_requests={"cpu": 500, "memory": 1 << 30})
    resources = pod_object(pod)["spec"]["containers"][0]["resources"]
    assert "pods" not in resources["requests"]
    assert resources["limits"] == {"hugepages-2Mi": resources["requests"]["hugepages-2Mi"],
                                   "nvidia.com/gpu": resources["requests"]["nvidia.com/gpu"]}

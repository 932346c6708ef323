"""A claim asking for more devices than one allocation result may hold (32, AllocationResultsMaxSize), planned
end to end. k8s.io/dynamic-resource-allocation v0.36.5 and v0.37.2 (`structured/internal/{stable,incubating}/
allocator_*.go` `Allocate`) check the limit request by request, naming the request that passes it, where v0.36.3
checked the claim's total after all its requests ("number of requested devices N exceeds the claim limit"): the
plan's message changed for 1.36 between v1.36.3 and v1.36.5 and has been the same for both releases since."""

from __future__ import annotations

import pytest

from tests.engine.drascenes import CLUSTER, plan, pods, slice_for

CLAIM_AND_POD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: many, namespace: default}
spec:
  devices:
    requests:
    - name: first
      exactly: {deviceClassName: gpu.example.com, count: 20}
    - name: second
      exactly: {deviceClassName: gpu.example.com, count: 13}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  resourceClaims: [{name: gpus, resourceClaimName: many}]
  containers:
  - name: main
    image: app:1
    resources: {claims: [{name: gpus}]}
"""


@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_claim_over_the_limit_names_the_request_that_passes_it(tmp_path, version):
    cluster = CLUSTER + slice_for("worker", "gpu-0", "gpu-1") + slice_for("worker-2", "gpu-0")
    run = plan(tmp_path, cluster, CLAIM_AND_POD, version)
    status, node, message = pods(run)["trainer"]
    assert (status, node) == ("Pending", None)
    assert message == ('running "DynamicResources" filter plugin: claim default/many, request second: adding 13 '
                       "devices exceeds the claim limit of 32, with 20 already accounted for")

"""DRA with PodGroups: group-level claims (KEP-5729, DRAWorkloadResourceClaims), claims shared inside a gang,
rollback of a failed gang, topology placements and preemption.

Cases after k/k `test/integration/dra/workload_resource_claims.go`, `pod_group.go`, `pod_group_dra_allocation.go`,
`prioritizedlist.go` and `dynamicresources_test.go` (`podgroup-claim-reference`,
`podgroup-claim-reference-feature-disabled-reserves-for-pod`), replayed through `wasplan plan`.
"""

from __future__ import annotations

import pytest
from drascenes import (ALLOCATED_ON_WORKER, CLUSTER, DEVICE_CLASS, TEMPLATE, UNSERVED_BASIC_GROUP, claims, plan, pod,
                       pods, slice_for)
from wasplan.diagnostics import Severity

GROUP = """\
---
apiVersion: scheduling.k8s.io/{version}
kind: PodGroup
metadata: {{name: team, namespace: default}}
spec:
  schedulingPolicy: {{gang: {{minCount: {min_count}}}}}{claims}
"""
GROUP_CLAIM = "\n  resourceClaims:\n  - {name: shared, resourceClaimTemplateName: one-gpu}"


def group(min_count=2, claims_yaml=GROUP_CLAIM, version="v1beta1") -> str:
    return GROUP.format(version=version, min_count=min_count, claims=claims_yaml)


SHARED = "- {name: shared, resourceClaimTemplateName: one-gpu}"


def test_podgroup_claim_reference_one_claim_reserved_for_the_group(tmp_path):
    """[podgroup-claim-reference], IT workload_resource_claims: one claim for the PodGroup, reservedFor stays the
    PodGroup while members join, every member on the claim's node (1.37: the member that reuses the allocation
    made earlier in the cycle is held to its nodeSelector, v1.37.2 PreFilter)."""
    run = plan(tmp_path, CLUSTER + slice_for("worker-2", "gpu-0"),
               TEMPLATE + group() + pod("m-0", SHARED, "team") + pod("m-1", SHARED, "team"),
               "1.37", "DRAWorkloadResourceClaims=true")
    assert (pods(run)["m-0"][:2], pods(run)["m-1"][:2]) == (("Bound", "worker-2"), ("Bound", "worker-2"))
    assert not [d for d in run.diagnostics if d.code == "WAS710"]
    (claim,) = run.plan.claims
    assert claim.name.startswith("team-shared-") and len(claim.name) == len("team-shared-") + 5
    assert (claim.owner.kind, claim.owner.name, claim.owner.claim) == ("PodGroup", "team", "shared")
    assert claims(run)[claim.name] == ("Allocated", "worker-2", ("gpu-0",), (("PodGroup", "team"),))


def test_136_member_reusing_an_allocation_of_the_same_cycle_is_not_held_to_its_node(tmp_path):
    """v1.36.5 PreFilter reuses the allocation an earlier member made in the same PodGroup cycle ("reusing pending
    allocation") without setting the claim's availableOnNodes, so Filter does not hold the later member to the
    claim's node: the member that allocates lands by the device, the other where the scores send it (the empty
    node), while the claim stays on worker-2, reserved for the PodGroup. The oracle (v1.36.5) plans this case so;
    1.37.2 fixed it (the test above)."""
    run = plan(tmp_path, CLUSTER + slice_for("worker-2", "gpu-0"),
               TEMPLATE + group(version="v1alpha2") + pod("m-0", SHARED, "team") + pod("m-1", SHARED, "team"),
               "1.36", "DRAWorkloadResourceClaims=true")
    assert sorted(v[:2] for v in pods(run).values()) == [("Bound", "worker"), ("Bound", "worker-2")]
    (claim,) = run.plan.claims
    assert claims(run)[claim.name] == ("Allocated", "worker-2", ("gpu-0",), (("PodGroup", "team"),))
    # the plan follows upstream and names the bug (issue 30 point 4): the member on worker cannot start
    stranded = next(name for name, v in pods(run).items() if v[1] == "worker")
    (warning,) = [d for d in run.diagnostics if d.code == "WAS710"]
    assert (warning.severity, warning.message, warning.location.line) == (
        Severity.WARNING, f"pod default/{stranded} is bound to worker, where the devices allocated to ResourceClaim "
        f"default/{claim.name} are not available", 20 if stranded == "m-0" else 32)  # the pod's document
    assert "kubernetes/kubernetes#140087, fixed in 1.37 by #140089" in warning.hint


def test_136_a_member_of_a_later_cycle_is_held_to_the_claim(tmp_path):
    """Only the cycle's own pending allocation goes unchecked in 1.36: a member scheduled after the claim was
    allocated and the cycle finished (here: the claim given allocated on worker) must go where the claim is."""
    claim = ALLOCATED_ON_WORKER.format(reserved="")
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + claim,
               group(claims_yaml="", version="v1alpha2") + pod("m-0", "- {name: gpu, resourceClaimName: shared}",
                                                               "team")
               + pod("m-1", "- {name: gpu, resourceClaimName: shared}", "team"), "1.36")
    assert sorted(v[:2] for v in pods(run).values()) == [("Bound", "worker"), ("Bound", "worker")]


FABRIC = DEVICE_CLASS.replace("gpu.example.com", "rdma.example.com") + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: rdma.example.com
  allNodes: true
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  devices:
  - name: rdma-0
"""
FABRIC_TEMPLATE = TEMPLATE.replace("one-gpu", "fabric").replace("gpu.example.com", "rdma.example.com")
FABRIC_ENTRY = "\n  resourceClaims:\n  - {name: fabric, resourceClaimTemplateName: fabric}"
FABRIC_FIRST = "- {name: fabric, resourceClaimTemplateName: fabric}\n- {name: gpu, resourceClaimTemplateName: one-gpu}"


def _fabric_plan(tmp_path, version, api):
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + slice_for("worker-2", "gpu-0") + FABRIC,
               TEMPLATE + FABRIC_TEMPLATE + group(claims_yaml=FABRIC_ENTRY, version=api)
               + pod("m-0", FABRIC_FIRST, "team") + pod("m-1", FABRIC_FIRST, "team"),
               version, "DRAWorkloadResourceClaims=true")
    recorded = {c.owner.name: (c.node, [(d.pool, d.device) for d in c.devices]) for c in run.plan.claims}
    return {n: v[:2] for n, v in pods(run).items()}, recorded


def test_member_whose_shared_claim_comes_first_records_the_shared_devices(tmp_path):
    """Upstream's Filter keeps the allocator's results first and the cycle's pending allocations after them, while
    Reserve hands them out in claim order (v1.36.5 and v1.37.2 `Filter`: `append(allocationResult,
    pendingResult...)`, `Reserve`: `allocationResults[allocIndex]`): the second member lists the PodGroup's fabric
    claim, allocated by the first member in this cycle, before its own GPU claim, so its GPU claim records the
    fabric device and the GPU the allocator found for it on worker-2 stays unrecorded. The oracle (v1.37.2)
    plans this case so, run after run."""
    placed, recorded = _fabric_plan(tmp_path, "1.37", "v1beta1")
    assert placed == {"m-0": ("Bound", "worker"), "m-1": ("Bound", "worker-2")}
    assert recorded == {"m-0": ("worker", [("worker", "gpu-0")]), "m-1": (None, [("fabric", "rdma-0")]),
                        "team": (None, [("fabric", "rdma-0")])}


def test_136_pairs_results_and_pending_allocations_the_same_way(tmp_path):
    """v1.36.5 has the same pairing; the member that comes second in the cycle records the fabric device."""
    placed, recorded = _fabric_plan(tmp_path, "1.36", "v1alpha2")
    assert sorted(placed.values()) == [("Bound", "worker"), ("Bound", "worker-2")]
    first = next(name for name, (_, node) in placed.items() if recorded[name] == (node, [(node, "gpu-0")]))
    second = ({"m-0", "m-1"} - {first}).pop()
    assert recorded[second] == (None, [("fabric", "rdma-0")])
    assert recorded["team"] == (None, [("fabric", "rdma-0")])


def test_podgroup_claim_reference_feature_disabled_reserves_for_pod(tmp_path):
    """[podgroup-claim-reference-feature-disabled-reserves-for-pod]: with the gate off (its default) each pod gets
    its own claim from the template, reserved for the pod; the PodGroup's entry is dropped (WAS301)."""
    run = plan(tmp_path, CLUSTER + slice_for("worker-2", "gpu-0", "gpu-1"),
               TEMPLATE + group() + pod("m-0", SHARED, "team") + pod("m-1", SHARED, "team"))
    assert sorted((c.owner.name, c.reserved_for[0].kind, c.devices[0].device) for c in run.plan.claims) == [
        ("m-0", "Pod", "gpu-0"), ("m-1", "Pod", "gpu-1")]
    assert [d.code for d in run.diagnostics] == ["WAS301"]


def test_gang_sharing_an_ordinary_claim_lands_on_its_node(tmp_path):
    """IT pod_group.go `gang-2-pods-mincount-2`: members sharing one unallocated claim reuse the allocation the
    first member made in the same group cycle, so both land on the node of the device."""
    claim = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: common, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
"""
    shared = "- {name: gpu, resourceClaimName: common}"
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + claim,
               group(claims_yaml="") + pod("m-0", shared, "team") + pod("m-1", shared, "team"))
    assert {n: v[:2] for n, v in pods(run).items()} == {"m-0": ("Bound", "worker"), "m-1": ("Bound", "worker")}
    assert claims(run)["common"] == ("Allocated", "worker", ("gpu-0",), (("Pod", "m-0"), ("Pod", "m-1")))


def test_failed_gang_rolls_its_allocations_back(tmp_path):
    """A gang of 3 whose third member finds no device: nothing binds and no claim keeps a device (Unreserve),
    so a later single pod gets one."""
    own = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0", "gpu-1"),
               TEMPLATE + group(3, "") + "".join(pod(f"m-{i}", own, "team") for i in range(3)) + pod("solo", own))
    assert {n: v[0] for n, v in pods(run).items()} == {"m-0": "Pending", "m-1": "Pending", "m-2": "Pending",
                                                       "solo": "Bound"}
    assert pods(run)["m-2"][2].startswith("0/2 nodes are available: 2 cannot allocate all claims.")
    allocated = [(c.owner.name, c.devices[0].device) for c in run.plan.claims if c.status == "Allocated"]
    assert allocated == [("solo", "gpu-0")]


PARTITIONS = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: worker-counters}
spec:
  driver: gpu.example.com
  nodeName: worker
  pool: {name: worker, generation: 1, resourceSliceCount: 2}
  sharedCounters:
  - name: gpu-0-counters
    counters: {memory: {value: 8Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: worker-partitions}
spec:
  driver: gpu.example.com
  nodeName: worker
  pool: {name: worker, generation: 1, resourceSliceCount: 2}
  devices:
  - name: whole
    attributes: {size: {string: whole}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 8Gi}}}]
  - name: half-0
    attributes: {size: {string: half}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 4Gi}}}]
  - name: half-1
    attributes: {size: {string: half}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 4Gi}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: whole-or-half, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - name: whole
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].size == "whole"'}}]
        - name: half
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].size == "half"'}}]
"""


def test_greedy_gang_allocation_misses_a_fit(tmp_path):
    """IT pod_group_dra_allocation.go (upstream issue 138765): each member's devices are chosen greedily; the first
    takes "whole", the second finds no half left, the gang fails although two halves would have fitted."""
    own = "- {name: gpu, resourceClaimTemplateName: whole-or-half}"
    run = plan(tmp_path, CLUSTER + PARTITIONS, group(2, "") + pod("m-0", own, "team") + pod("m-1", own, "team"))
    assert pods(run)["m-1"] == ("Pending", None, "0/2 nodes are available: 2 cannot allocate all claims.")
    # v1.37.2 (checked with the oracle): the group's status carries errPodGroupUnschedulable, m-0 is told it behind
    # the same error, and workload-aware preemption's verdict is appended
    assert pods(run)["m-0"] == ("Pending", None, "pod group is unschedulable, pod group is unschedulable, 0/1 "
                                "placements are available, first placement status: minCount (2) cannot be "
                                "satisfied: 1 scheduled, 0 remaining, pod group preemption: No preemption victims "
                                "found for incoming preemptor")
    assert [c.status for c in run.plan.claims] == ["Pending", "Pending"]


FIRST_AVAILABLE = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: {name}, namespace: default}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - {{name: a, deviceClassName: gpu.example.com, selectors: [{{cel: {{expression: '{sel}"a"'}}}}]}}
        - {{name: b, deviceClassName: gpu.example.com, selectors: [{{cel: {{expression: '{sel}"b"'}}}}]}}
        - {{name: c, deviceClassName: gpu.example.com, selectors: [{{cel: {{expression: '{sel}"c"'}}}}]}}
"""
SEL = 'device.attributes["gpu.example.com"].model == '


def test_prioritized_list_scoring_multi_claim(tmp_path):
    """IT prioritizedlist.go `testPrioritizedListScoring/multi-claim`: per node the ranks of the subrequests
    used, (1,3)=14, (2,1)=15, (3,2)=13; the node scoring 15 wins."""
    nodes = "".join(f"""\
---
apiVersion: v1
kind: Node
metadata: {{name: node-{i}, labels: {{kubernetes.io/hostname: node-{i}}}}}
status: {{allocatable: {{cpu: "8", memory: 32Gi, pods: "110"}}}}
""" for i in (1, 2, 3))
    cluster = nodes + DEVICE_CLASS
    for node, models in (("node-1", "ac"), ("node-2", "ba"), ("node-3", "cb")):
        cluster += slice_for(node, *(f"dev-{m}" for m in models)).replace(
            "  - name: dev-a", "  - name: dev-a\n    attributes: {model: {string: a}}").replace(
            "  - name: dev-b", "  - name: dev-b\n    attributes: {model: {string: b}}").replace(
            "  - name: dev-c", "  - name: dev-c\n    attributes: {model: {string: c}}")
    templates = FIRST_AVAILABLE.format(name="first", sel=SEL) + FIRST_AVAILABLE.format(name="second", sel=SEL)
    entries = "- {name: one, resourceClaimTemplateName: first}\n- {name: two, resourceClaimTemplateName: second}"
    run = plan(tmp_path, cluster, templates + pod("p", entries))
    assert pods(run)["p"][:2] == ("Bound", "node-2")
    assert sorted((c.owner.claim, c.devices[0].request, c.devices[0].device) for c in run.plan.claims) == [
        ("one", "gpu/a", "dev-a"), ("two", "gpu/b", "dev-b")]


def test_preemption_never_frees_devices(tmp_path):
    """1.36/1.37 have no DRA-aware preemption (KEP-5690 is 1.38): a high-priority pod whose device is held by a
    low-priority pod stays pending; the node DRA rejected is no preemption candidate."""
    low = """\
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"""
    own = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
    urgent = pod("urgent", own).replace("  containers:", "  priorityClassName: high\n  containers:")
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + low, TEMPLATE + pod("holder", own) + urgent)
    assert pods(run)["holder"][:2] == ("Bound", "worker")
    assert pods(run)["urgent"] == ("Pending", None, "0/2 nodes are available: 2 cannot allocate all claims. "
                                   "preemption: 0/2 nodes are available: 2 Preemption is not "
                                   "helpful for scheduling.")
    assert run.plan.preemptions == ()


def test_topology_placement_sees_only_reachable_devices(tmp_path):
    """A gang kept to one rack goes to the rack whose nodes publish the devices its members claim."""
    cluster = CLUSTER.replace("labels: {kubernetes.io/hostname: worker}",
                              "labels: {kubernetes.io/hostname: worker, rack: r1}").replace(
        "labels: {kubernetes.io/hostname: worker-2}", "labels: {kubernetes.io/hostname: worker-2, rack: r2}")
    pg = group(2, "").replace("  schedulingPolicy:", "  schedulingConstraints:\n    topology: [{key: rack}]\n"
                                                     "  schedulingPolicy:")
    own = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
    run = plan(tmp_path, cluster + slice_for("worker-2", "gpu-0", "gpu-1"),
               TEMPLATE + pg + pod("m-0", own, "team") + pod("m-1", own, "team"))
    assert {n: v[:2] for n, v in pods(run).items()} == {"m-0": ("Bound", "worker-2"), "m-1": ("Bound", "worker-2")}
    (outcome,) = run.plan.pod_groups
    assert (outcome.placement.topology_key, outcome.placement.domain) == ("rack", "r2")


def test_evicted_pod_gives_its_generated_claim_back(tmp_path):
    """After a real eviction the ResourceClaim controller drops the victim from reservedFor, deallocates the
    claim nobody holds and deletes the claim generated for the victim (dra.md §7, RC controller.go)."""
    cluster = CLUSTER.replace('status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}',
                              'status: {allocatable: {cpu: "2", memory: 32Gi, pods: "110"}}', 1)
    high = """\
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: urgent, namespace: default}
spec:
  priorityClassName: high
  nodeSelector: {kubernetes.io/hostname: worker}
  containers:
  - name: main
    image: app:1
    resources: {requests: {cpu: "2"}}
"""
    own = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
    run = plan(tmp_path, cluster + slice_for("worker", "gpu-0"), TEMPLATE + pod("holder", own, cpu="2") + high)
    assert {n: v[:2] for n, v in pods(run).items()} == {"holder": ("Preempted", "worker"), "urgent": ("Bound", "worker")}
    assert run.plan.claims == ()


def test_running_pod_without_an_allocation_gets_its_devices_on_its_node(tmp_path):
    """A hand-written snapshot pod already on a node whose template claim has no status: the controller creates
    the claim and the devices are accounted on that node, so a new pod does not get them."""
    running = pod("runner", "- {name: gpu, resourceClaimTemplateName: one-gpu}").replace(
        "  containers:", "  nodeName: worker\n  containers:")
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + TEMPLATE + running,
               pod("late", "- {name: gpu, resourceClaimTemplateName: one-gpu}"))
    assert pods(run)["runner"][:2] == ("AlreadyBound", "worker")
    assert pods(run)["late"][0] == "Pending"
    assert sorted((c.owner.name, c.status, c.node) for c in run.plan.claims) == [
        ("late", "Pending", None), ("runner", "Allocated", "worker")]


@pytest.mark.parametrize("version, api, first, other, where", [
    ("1.36", "v1alpha2", "m-1", "m-0", "selector #0: "),  # 1.36 tries the member that completes the quorum first
    ("1.37", "v1beta1", "m-0", "m-1", "selector #0 on device gpu.example.com/worker/gpu-0: ")])
def test_a_members_filter_error_ends_the_group_cycle_as_a_scheduler_error(tmp_path, version, api, first, other, where):
    """podGroupSchedulingDefaultAlgorithm (v1.36.5 and v1.37.2): a member whose attempt ends in a Filter Error (here a CEL
    runtime error on a device without the attribute) stops the cycle; the group's status is that error wrapped as
    `failed to schedule other pod from a pod group: ...` (not a placements message), the erring member keeps its
    own error, the other member gets the group's, the condition reads SchedulerError and no preemption is tried.
    Minimised from generated cases seed 52 (1.37, batch) and 25 (1.36, batch), where the oracle plans them so."""
    template = TEMPLATE.replace("exactly: {deviceClassName: gpu.example.com}",
                                "exactly:\n          deviceClassName: gpu.example.com\n          selectors:\n"
                                "          - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"a100\"'}")
    cluster = CLUSTER + slice_for("worker", "gpu-0") + slice_for("worker-2", "gpu-0",
                                                                 extra="\n    attributes: {model: {string: a100}}")
    member = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
    run = plan(tmp_path, cluster, template + group(claims_yaml="", version=api) + pod("m-0", member, "team")
               + pod("m-1", member, "team"), version)
    status, node, own = pods(run)[first]
    assert (status, node) == ("Pending", None)
    assert own.startswith(f'running "DynamicResources" filter plugin: claim default/{first}-gpu-')
    assert f": {where}CEL runtime error: " in own
    wrapped = f"failed to schedule other pod from a pod group: {own}"
    assert pods(run)[other] == ("Pending", None, wrapped)
    (pg,) = run.plan.pod_groups
    assert (pg.condition.status, pg.condition.reason, pg.message) == ("False", "SchedulerError", wrapped)
    assert run.plan.preemptions == ()


def test_member_arriving_after_its_groups_failed_attempt_is_attempted_with_the_group(tmp_path):
    """Sequential arrival: m-1 and m-2 join the group after its attempt with m-0 alone failed. Upstream adds each
    to the queued group and requeues it after its backoff (backend/queue scheduling_queue.go addPodGroupMember,
    requeueEntityWithQueueingStrategy), so every member is attempted and carries the claim's failure; none is
    left never attempted (the oracle used to report m-1 and m-2 Gated)."""
    run = plan(tmp_path, CLUSTER, UNSERVED_BASIC_GROUP, "1.37", "DRAWorkloadResourceClaims=true")
    failure = "0/2 nodes are available: 2 cannot allocate all claims."
    assert pods(run) == {f"m-{i}": ("Pending", None, failure) for i in range(3)}


def test_upstream_gang_of_five_sharing_one_claim_reserves_it_for_all_five():
    """k/k test/integration/dra/pod_group.go gang-5-pods-mincount-2 (fixtures/dra-upstream/gang-shared-claim):
    every member binds to worker-0 and appends itself to the claim's reservedFor (bindClaim retries on a
    conflict, so no reservation is lost); the oracle, once its fake client refused stale updates, agrees."""
    from pathlib import Path

    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest

    case = Path(__file__).resolve().parents[2] / "fixtures" / "dra-upstream" / "gang-shared-claim"
    for arrival in ("sequential", "batch"):
        run = run_plan(PlanRequest([str(case / "gang.yaml")], [str(case / "cluster.yaml")],
                                   default_gates(get_release("1.37")), arrival=arrival))
        (claim,) = run.plan.claims
        assert [c.name for c in claim.reserved_for] == [f"pod-{i}" for i in range(5)]
        assert {(p.name, p.status, p.node) for p in run.plan.pods} == {(f"pod-{i}", "Bound", "worker-0")
                                                                       for i in range(5)}

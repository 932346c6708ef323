"""DRA objects from YAML to records (`parse_dra` through `parse_record`): every field the allocator reads, defaults,
and each kind of bad input as a finding with its exact code, line, column and field."""

from fractions import Fraction

from wasplan.cluster.devices import (
    Allocation, AllocationConfig, Attribute, Capacity, ClaimConfig, Consumer, Constraint, CounterSet, DeviceClass, DeviceRequest,
    DeviceResult, DeviceTaint, DeviceToleration, NodeSelection, OpaqueConfig, RequestPolicy, RequestSpec,
    ResourceClaim, ResourceClaimTemplate, ResourceSlice,
)
from wasplan.cluster.model import NodeSelectorTerm, Requirement
from .dra_samples import CLAIM, FULL_SLICE
from .helpers import record

GI = 2**30


def findings(diags):
    return [(d.code, d.location.line, d.location.col, d.location.field) for d in diags]


def test_device_class():
    cls, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: gpu, creationTimestamp: "2026-01-02T03:04:05Z"}
        spec:
          selectors:
          - cel: {expression: 'device.driver == "gpu.example.com"'}
          config:
          - opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}
          extendedResourceName: example.com/gpu
        """)
    assert diags == []
    assert isinstance(cls, DeviceClass)
    assert (cls.name, cls.selectors, cls.config, cls.extended_resource_name, cls.creation_timestamp) == (
        "gpu", ('device.driver == "gpu.example.com"',),
        (OpaqueConfig("gpu.example.com", {"sharing": "time-slicing"}),), "example.com/gpu", "2026-01-02T03:04:05Z")


def test_resource_slice_every_field():
    s, diags = record(FULL_SLICE)
    assert diags == []
    assert isinstance(s, ResourceSlice)
    assert (s.name, s.driver, s.pool, s.generation, s.slice_count, s.node, s.per_device_node_selection) == (
        "node-1-gpu", "gpu.example.com", "node-1", 3, 2, NodeSelection(node_name="node-1"), False)
    [d] = s.devices
    assert d.attributes == {"model": Attribute("string", "a100"), "cores": Attribute("int", 108),
                            "mig": Attribute("bool", True), "driverVersion": Attribute("version", "1.2.3")}
    assert d.capacity == {"memory": Capacity(Fraction(80 * GI), RequestPolicy(
        default=Fraction(10 * GI), range_min=Fraction(GI), range_max=Fraction(80 * GI), range_step=Fraction(GI)))}
    assert d.consumes_counters == (CounterSet("gpu-0-counters", (("memory", Fraction(80 * GI)),)),)
    assert d.taints == (DeviceTaint("maintenance", "true", "NoExecute"),)
    assert (d.binds_to_node, d.binding_conditions, d.binding_failure_conditions, d.allow_multiple_allocations) == (
        True, ("attached",), ("failed",), True)
    assert s.shared_counters == (CounterSet("gpu-0-counters", (("memory", Fraction(80 * GI)),)),)


def test_network_attached_and_per_device_slices():
    s, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: fabric}
        spec:
          driver: nic.example.com
          pool: {name: fabric, resourceSliceCount: 1}
          nodeSelector:
            nodeSelectorTerms:
            - matchExpressions: [{key: rack, operator: In, values: [r1]}]
          devices: [{name: port-0}]
        """)
    assert diags == []
    assert s.generation == 0
    assert s.node == NodeSelection(node_selector=(NodeSelectorTerm((Requirement("rack", "In", ("r1",)),)),))
    s, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: parts}
        spec:
          driver: gpu.example.com
          pool: {name: p, resourceSliceCount: 1}
          perDeviceNodeSelection: true
          devices:
          - {name: a, nodeName: node-1}
          - {name: b, allNodes: true}
        """)
    assert diags == []
    assert s.per_device_node_selection and [d.node for d in s.devices] == [
        NodeSelection(node_name="node-1"), NodeSelection(all_nodes=True)]


def test_resource_claim_with_status():
    claim, diags = record(CLAIM)
    assert diags == []
    assert isinstance(claim, ResourceClaim)
    assert (claim.key, claim.uid, claim.deletion_timestamp, claim.annotations) == (
        "ml/train-gpus", "1234", "2026-01-02T03:04:05Z", {"resource.kubernetes.io/pod-claim-name": "gpus"})
    assert [(o.kind, o.name, o.controller) for o in claim.owners] == [("Pod", "p", True)]
    gpus, nic = claim.spec.requests
    toleration = DeviceToleration("maintenance", "Exists", "", "NoSchedule")
    assert gpus == DeviceRequest("gpus", exactly=RequestSpec(
        "gpus", "gpu", ('device.attributes["gpu.example.com"].model == "a100"',), "ExactCount", 2, False,
        (DeviceToleration("maintenance", "Exists", "", "NoSchedule", 30),), (("memory", Fraction(10 * GI)),)))
    assert nic.first_available == (RequestSpec("fast", "nic", allocation_mode="All", count=0),
                                   RequestSpec("slow", "nic"))
    assert claim.spec.constraints == (Constraint(("gpus", "nic/fast"), "gpu.example.com/pcieRoot"),
                                      Constraint((), None, "gpu.example.com/numa"))
    assert claim.spec.config == (ClaimConfig(("gpus",), OpaqueConfig("gpu.example.com", {"a": 1})),)
    assert claim.allocation == Allocation(
        (DeviceResult("gpus", "gpu.example.com", "node-1", "gpu-0", admin_access=False, tolerations=(toleration,),
                      binding_conditions=("attached",), binding_failure_conditions=("failed",), share_id="s1",
                      consumed_capacity=(("memory", Fraction(10 * GI)),)),),
        (AllocationConfig("FromClass", ("gpus",), OpaqueConfig("gpu.example.com", {"b": 2})),),
        (NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In", ("node-1",)),)),))
    assert claim.reserved_for == (Consumer("podgroups", "g", "scheduling.k8s.io", "7"),)


def test_resource_claim_template():
    template, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: one-gpu}
        spec:
          metadata: {labels: {team: ml}}
          spec:
            devices:
              requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
        """)
    assert diags == []
    assert isinstance(template, ResourceClaimTemplate)
    assert (template.key, template.labels) == ("default/one-gpu", {"team": "ml"})
    assert template.spec.requests == (DeviceRequest("gpu", exactly=RequestSpec("gpu", "gpu")),)


def test_slice_findings():
    s, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: bad}
        spec:
          driver: gpu.example.com
          pool: {name: n1, resourceSliceCount: 1}
          nodeName: n1
          devices:
          - attributes:
              model: {string: a100}
          - name: gpu-1
            attributes:
              cores: {int: many}
              both: {int: 1, string: x}
              driverVersion: {version: "1.0"}
            capacity:
              memory: {value: 10 Gi}
              neg: {value: "-1"}
            taints: [{key: k, effect: PreferNoSchedule}]
        """, "slices/bad.yaml")
    assert [d.name for d in s.devices] == ["gpu-1"]
    assert s.devices[0].attributes == {} and s.devices[0].capacity == {} and s.devices[0].taints == ()
    assert findings(diags) == [
        ("WAS642", 9, 5, "spec.devices[0].name"),
        ("WAS649", 13, 15, "spec.devices[1].attributes.cores.int"),
        ("WAS649", 14, 7, "spec.devices[1].attributes.both"),
        ("WAS649", 15, 23, "spec.devices[1].attributes.driverVersion.version"),
        ("WAS643", 17, 16, "spec.devices[1].capacity.memory.value"),
        ("WAS643", 18, 13, "spec.devices[1].capacity.neg.value"),
        ("WAS648", 19, 23, "spec.devices[1].taints[0].effect"),
    ]
    assert all(d.location.file == "slices/bad.yaml" for d in diags)
    assert diags[3].message == "attribute 'driverVersion': '1.0' is not a semantic version (1.2.3)"


def test_slices_that_cannot_be_placed_are_left_out():
    cases = [
        ("pool: {name: p, resourceSliceCount: 1}\n  nodeName: n", "WAS640", "spec.driver",
         "ResourceSlice has no spec.driver; it was left out"),
        ("driver: d\n  nodeName: n", "WAS640", "spec.pool.name", "ResourceSlice has no spec.pool.name; it was left out"),
        ("driver: d\n  pool: {name: p, resourceSliceCount: 0}\n  nodeName: n", "WAS640", "spec.pool.resourceSliceCount",
         "pool resourceSliceCount must be an integer >= 1, got 0"),
        ("driver: d\n  pool: {name: p}\n  nodeName: n", "WAS640", "spec.pool.resourceSliceCount",
         "pool has no resourceSliceCount (an integer >= 1)"),
        ("driver: d\n  pool: {name: p, resourceSliceCount: 1}", "WAS641", "spec",
         "ResourceSlice spec must set exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection"),
        ("driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n\n  allNodes: true", "WAS641", "spec",
         "ResourceSlice spec must set exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection, "
         "not nodeName and allNodes"),
    ]
    for spec, code, field, message in cases:
        s, diags = record(f"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: x}}\nspec:\n  {spec}\n")
        assert s is None
        assert [(d.code, d.location.field, d.message) for d in diags] == [(code, field, message)]


def test_claim_findings():
    claim, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: nothing
            - name: both
              exactly: {deviceClassName: gpu}
              firstAvailable: [{name: a, deviceClassName: gpu}]
            - name: noclass
              exactly: {count: 1}
            - name: badmode
              exactly: {deviceClassName: gpu, allocationMode: Some}
            - name: ok
              exactly:
                deviceClassName: gpu
                count: -1
                selectors: [{cel: {expression: 'device.driver =='}}, {}]
                capacity: {requests: {memory: lots}}
            constraints:
            - {matchAttribute: gpu.example.com/model, distinctAttribute: gpu.example.com/model}
            - {matchAttribute: model}
            - {requests: [ok, ghost], matchAttribute: gpu.example.com/model}
        status:
          allocation:
            devices:
              results: [{request: ok, driver: d}]
        """, "claims/c.yaml")
    assert [r.name for r in claim.spec.requests] == ["ok"]
    assert claim.spec.requests[0].exactly.count == 1 and claim.spec.constraints == () and claim.allocation is None
    assert findings(diags) == [
        ("WAS644", 7, 7, "spec.devices.requests[0]"),
        ("WAS644", 8, 7, "spec.devices.requests[1]"),
        ("WAS644", 12, 7, "spec.devices.requests[2].exactly.deviceClassName"),
        ("WAS644", 14, 39, "spec.devices.requests[3].exactly.allocationMode"),
        ("WAS644", 18, 9, "spec.devices.requests[4].exactly.count"),
        ("WAS646", 19, 28, "spec.devices.requests[4].exactly.selectors[0].cel.expression"),
        ("WAS646", 19, 62, "spec.devices.requests[4].exactly.selectors[1].cel.expression"),
        ("WAS643", 20, 31, "spec.devices.requests[4].exactly.capacity.requests.memory"),
        ("WAS645", 22, 7, "spec.devices.constraints[0]"),
        ("WAS645", 23, 8, "spec.devices.constraints[1].matchAttribute"),
        ("WAS645", 24, 23, "spec.devices.constraints[2].requests[1]"),
        ("WAS647", 28, 17, "status.allocation.devices.results[0]"),
        ("WAS647", 26, 3, "status.allocation"),
    ]
    assert diags[5].message == "selector #0: CEL compile error at line 1, column 17: syntax error: unexpected end of expression"
def test_request_policy_findings_point_at_the_value():
    s, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: d
          pool: {name: p, resourceSliceCount: 1}
          allNodes: true
          devices:
          - name: nic
            capacity:
              bandwidth:
                value: 10G
                requestPolicy:
                  validValues: [1G, 2 G]
                  validRange: {min: 1G, step: x}
        """)
    assert findings(diags) == [("WAS643", 14, 29, "spec.devices[0].capacity.bandwidth.requestPolicy.validValues[1]"),
                               ("WAS643", 15, 33, "spec.devices[0].capacity.bandwidth.requestPolicy.validRange.step")]
    policy = s.devices[0].capacity["bandwidth"].policy
    assert (policy.valid_values, policy.range_min, policy.range_step) == ((Fraction(10**9),), Fraction(10**9), None)


def test_a_capacity_or_counter_left_without_value_is_zero_as_the_server_stores_it():
    """resource.Quantity decodes a missing `value` to zero and the API server accepts the slice (its oracle's
    validate, mutation corpus): the plan reads it as 0, not as a broken quantity."""
    s, diags = record("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: zero}
        spec:
          driver: gpu.example.com
          pool: {name: n1, resourceSliceCount: 1}
          nodeName: n1
          sharedCounters:
          - name: gpu-0-counters
            counters: {memory: {}}
          devices:
          - name: gpu-0
            capacity: {memory: {}, cores: {value: null}}
            consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {}}}]
        """, "slices/zero.yaml")
    assert diags == []
    assert {k: c.value for k, c in s.devices[0].capacity.items()} == {"memory": 0, "cores": 0}
    assert s.shared_counters[0].counters == (("memory", 0),)

"""Server-side rules of resource.k8s.io objects in `wasplan validate` (WAS220-WAS225), with exact positions.

Rules and limits: k/k `pkg/apis/resource/validation/validation.go` (master 009801d9) and `k8s.io/api`
`resource/v1/types.go`. The plan's DRA reader shares the rule functions (`wasplan.api.dra_rules`): the last test
shows both reporting one fault with one message.
"""

from __future__ import annotations

from pathlib import Path

from _manifests import docs, gates

from wasplan.cluster.issues import Ctx
from wasplan.cluster.parse_dra import parse_dra_record
from wasplan.validate.checker import check_document

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpus}
spec:
  spec:
    devices:
"""
SLICE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
"""


def findings(text: str, release: str = "1.37", spec: str | None = None):
    (doc,) = docs(text)
    result = check_document(doc, gates(release, spec))
    return [(d.code, d.location.line, d.location.col, d.location.field, d.message) for d in result.diagnostics]


def test_request_rules():
    found = findings(TEMPLATE + """\
      requests:
      - name: all-with-count
        exactly: {deviceClassName: gpu.example.com, allocationMode: All, count: 2}
      - name: zero
        exactly: {deviceClassName: gpu.example.com, count: -1}
      - name: neither
      - name: Bad_Name
        exactly: {deviceClassName: gpu.example.com}
      - name: zero
        firstAvailable:
        - {name: a, deviceClassName: gpu.example.com}
        - {name: a, deviceClassName: Gpu_Class}
""")
    assert found == [
        ("WAS220", 9, 74, "spec.spec.devices.requests[0].exactly.count",
         "request 'all-with-count': count must not be specified when allocationMode is All (All takes every "
         "matching device)"),
        ("WAS220", 11, 53, "spec.spec.devices.requests[1].exactly.count",
         "request 'zero': count must be greater than zero, got -1"),
        ("WAS220", 12, 9, "spec.spec.devices.requests[2]",
         "request 'neither' must set exactly one of exactly, firstAvailable (non-empty)"),
        ("WAS220", 13, 9, "spec.spec.devices.requests[3].name",
         "request name 'Bad_Name' is not a DNS label (lowercase letters, digits and '-', at most 63 characters, "
         "starting and ending with a letter or digit)"),
        ("WAS220", 15, 9, "spec.spec.devices.requests[4].name", "request name 'zero' is used twice (also at request #1)"),
        ("WAS220", 18, 12, "spec.spec.devices.requests[4].firstAvailable[1].name",
         "subrequest name 'a' is used twice (also at subrequest #0)"),
        ("WAS220", 18, 21, "spec.spec.devices.requests[4].firstAvailable[1].deviceClassName",
         "deviceClassName 'Gpu_Class' is not a valid DeviceClass name (DNS subdomain: lowercase letters, digits, "
         "'-' and '.')"),
    ]


def test_constraint_and_config_references():
    found = findings(TEMPLATE + """\
      requests:
      - name: gpu
        firstAvailable:
        - {name: big, deviceClassName: gpu.example.com}
      - name: nic
        exactly: {deviceClassName: nic.example.com}
      constraints:
      - {requests: [gpu/big, nic], matchAttribute: resource.kubernetes.io/pcieRoot}
      - {requests: [gpus], matchAttribute: resource.kubernetes.io/pcieRoot}
      - {matchAttribute: pcieRoot}
      - {matchAttribute: a.example.com/x, distinctAttribute: a.example.com/y}
      config:
      - requests: [gpu/small]
        opaque: {driver: gpu.example.com, parameters: {}}
""")
    assert found == [
        ("WAS221", 15, 21, "spec.spec.devices.constraints[1].requests[0]",
         "constraint names request 'gpus', which the claim does not have"),
        ("WAS221", 16, 10, "spec.spec.devices.constraints[2].matchAttribute",
         "matchAttribute must be a fully qualified attribute name (domain/name), got 'pcieRoot': a fully qualified "
         "name must be a domain and a name separated by a slash"),
        ("WAS221", 17, 9, "spec.spec.devices.constraints[3]",
         "a constraint must set exactly one of matchAttribute, distinctAttribute"),
        ("WAS221", 19, 20, "spec.spec.devices.config[0].requests[0]",
         "config requests: 'gpu/small' is not a request of the claim (write a request name or request/subrequest)"),
    ]


def test_limits():
    requests = "".join(f"      - {{name: r{i}, exactly: {{deviceClassName: c}}}}\n" for i in range(33))
    assert findings(TEMPLATE + "      requests:\n" + requests) == [
        ("WAS222", 7, 7, "spec.spec.devices.requests", "33 requests, more than the limit of 32")]
    subs = "".join(f"        - {{name: s{i}, deviceClassName: c}}\n" for i in range(9))
    assert findings(TEMPLATE + "      requests:\n      - name: r\n        firstAvailable:\n" + subs)[0][:4] == (
        "WAS222", 9, 9, "spec.spec.devices.requests[0].firstAvailable")


def test_slice_device_limit_is_64_when_devices_use_taints():
    plain = "".join(f"  - {{name: d{i}}}\n" for i in range(65))
    assert findings(SLICE + "  nodeName: node-1\n  devices:\n" + plain) == []
    tainted = plain.replace("{name: d0}", "{name: d0, taints: [{key: k, effect: NoSchedule}]}")
    assert findings(SLICE + "  nodeName: node-1\n  devices:\n" + tainted) == [
        ("WAS222", 8, 3, "spec.devices", "65 devices using taints, counters or list attributes, more than the "
         "limit of 64")]


def test_slice_rules():
    found = findings(SLICE + """\
  nodeName: node-1
  allNodes: true
  devices:
  - name: gpu-0
    nodeName: node-2
    attributes:
      model: {string: a100}
      bad/name/x: {int: 1}
      driverVersion: {version: '1.0'}
      both: {int: 1, string: x}
      serial: {string: %s}
    capacity:
      gpu.example.com/memory: {value: 80Gi}
  - name: gpu-0
""" % ("x" * 65))
    assert found == [
        ("WAS223", 4, 1, "spec", "ResourceSlice spec must set exactly one of nodeName, nodeSelector, allNodes, "
         "perDeviceNodeSelection, not nodeName and allNodes"),
        ("WAS223", 11, 5, "spec.devices[0].nodeName", "device 'gpu-0' sets nodeName, which only devices of a slice "
         "with perDeviceNodeSelection: true may set"),
        ("WAS224", 14, 7, "spec.devices[0].attributes.bad/name/x", "attribute name 'bad/name/x': must not contain "
         "more than one slash"),
        ("WAS224", 15, 23, "spec.devices[0].attributes.driverVersion.version",
         "attribute 'driverVersion': '1.0' is not a semantic version (1.2.3)"),
        ("WAS224", 16, 7, "spec.devices[0].attributes.both",
         "attribute 'both' must set exactly one of int, bool, string, version, ints, bools, strings, versions"),
        ("WAS224", 17, 16, "spec.devices[0].attributes.serial.string",
         "attribute 'serial': string is 65 characters long, more than 64"),
        ("WAS223", 20, 5, "spec.devices[1].name", "device name 'gpu-0' is used twice in this slice (also at "
         "devices[0])"),
    ]


def test_devices_and_shared_counters_do_not_share_a_slice():
    found = findings(SLICE + "  nodeName: node-1\n  devices: [{name: gpu-0}]\n"
                     "  sharedCounters: [{name: mem, counters: {memory: {value: 8Gi}}}]\n")
    assert [f[:4] for f in found] == [("WAS223", 9, 3, "spec.sharedCounters")]


def test_counter_sets_and_consumptions_name_at_least_one_counter():
    """An empty `counters` map passes the schema; the API server refuses it (validateCounterSet,
    validateDeviceCounterConsumption: Required value, as the oracle's create path says). Found by the mutation
    suite: removing the only counter of a consumption."""
    consumes = findings(SLICE + "  nodeName: node-1\n  devices:\n  - name: gpu-0\n"
                        "    consumesCounters: [{counterSet: mem, counters: {}}]\n")
    assert [(f[0], f[3], f[4]) for f in consumes] == [("WAS223", "spec.devices[0].consumesCounters[0].counters",
                                                       "counters must name at least one counter")]
    shared = findings(SLICE + "  nodeName: node-1\n  sharedCounters: [{name: mem, counters: {}}]\n")
    assert [(f[0], f[3]) for f in shared] == [("WAS223", "spec.sharedCounters[0].counters")]


def test_toleration_with_exists_and_a_value():
    found = findings(TEMPLATE + """\
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          tolerations:
          - {key: maintenance, operator: Exists, value: "true", effect: NoSchedule}
""")
    assert found == [("WAS225", 12, 50, "spec.spec.devices.requests[0].exactly.tolerations[0].value",
                      "a toleration with operator Exists must not set a value")]


def test_the_plan_reader_reports_the_same_rule_with_the_same_message():
    text = (TEMPLATE + "      requests:\n      - name: gpu\n"
            "        exactly: {deviceClassName: c, allocationMode: All, count: 2}\n")
    (doc,) = docs(text)
    ctx = Ctx(doc)
    parse_dra_record(doc.obj, ctx)
    (plan,) = ctx.diags
    (validated,) = check_document(doc, gates()).diagnostics
    assert (plan.code, validated.code) == ("WAS644", "WAS220")
    assert plan.message == validated.message and plan.location == validated.location


def test_upstream_examples_validate_clean():
    """kubernetes-sigs/dra-example-driver demo manifests (fixtures/dra-upstream, commits named in each file)."""
    for path in sorted((ROOT / "fixtures" / "dra-upstream").glob("*.yaml")):
        for doc in docs(path.read_text()):
            for release in ("1.36", "1.37"):
                assert check_document(doc, gates(release)).diagnostics == [], (path.name, release)


def test_the_dra_example_fixtures_validate_without_dra_findings():
    for path in sorted((ROOT / "fixtures" / "examples" / "dra").rglob("*.yaml")):
        for doc in docs(path.read_text()):
            codes = {d.code for d in check_document(doc, gates()).diagnostics}
            assert not {c for c in codes if c.startswith(("WAS22", "WAS23"))}, path


def test_capacity_request_policies():
    found = findings(SLICE + """\
  nodeName: node-1
  devices:
  - name: nic-0
    allowMultipleAllocations: true
    capacity:
      bandwidth:
        value: 100G
        requestPolicy:
          default: 1500M
          validRange: {min: 1G, max: 200G, step: 1G}
      queues:
        value: "8"
        requestPolicy: {default: "3", validValues: ["1", "4", "2", "16"]}
  - name: nic-1
    capacity:
      bandwidth: {value: 10G, requestPolicy: {default: 1G, validValues: [1G]}}
""")
    assert [(f[0], f[1], f[3], f[4]) for f in found] == [
        ("WAS226", 15, "spec.devices[0].capacity.bandwidth.requestPolicy.default",
         "capacity 'bandwidth': the default is not a whole number of steps (1G) from min"),
        ("WAS226", 16, "spec.devices[0].capacity.bandwidth.requestPolicy.validRange.max",
         "capacity 'bandwidth': max is larger than the capacity value 100G"),
        ("WAS226", 19, "spec.devices[0].capacity.queues.requestPolicy.default",
         "capacity 'queues': the default is not one of validValues"),
        ("WAS226", 19, "spec.devices[0].capacity.queues.requestPolicy.validValues[2]",
         "capacity 'queues': validValues must be sorted in ascending order"),
        ("WAS226", 19, "spec.devices[0].capacity.queues.requestPolicy.validValues[3]",
         "capacity 'queues': option 16 is larger than the capacity value 8"),
        ("WAS226", 22, "spec.devices[1].capacity.bandwidth.requestPolicy",
         "capacity 'bandwidth': a requestPolicy needs allowMultipleAllocations: true on the device"),
    ]


def test_driver_and_pool_names():
    found = findings(SLICE.replace("driver: gpu.example.com", "driver: GPU_Example").replace("name: node-1,",
                                                                                          "name: node-1/Rack_A,")
                     + "  nodeName: node-1\n")
    assert [(f[0], f[3], f[4]) for f in found] == [
        ("WAS223", "spec.driver", "driver name 'GPU_Example' must be a DNS subdomain (lowercase letters, digits, '-' "
         "and '.') of at most 63 characters, e.g. gpu.example.com"),
        ("WAS223", "spec.pool.name", "pool name 'node-1/Rack_A' must be DNS subdomains separated by '/' (at most "
         "252 characters)")]
    config = findings("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec:\n"
                      "  config:\n  - opaque: {driver: gpu_example, parameters: {}}\n")
    assert [(f[0], f[1], f[3]) for f in config] == [("WAS221", 6, "spec.config[0].opaque.driver")]


def test_quantities_the_api_server_cannot_decode():
    found = findings(SLICE + """\
  nodeName: node-1
  devices:
  - name: gpu-0
    capacity:
      memory: {value: 80 GiB}
    consumesCounters:
    - counterSet: gpu-0
      counters:
        memory: {value: lots}
""") + findings(TEMPLATE + """\
      requests:
      - name: nic
        exactly:
          deviceClassName: net.example.com
          capacity: {requests: {bandwidth: 10 G}}
""")
    assert [(f[0], f[1], f[2], f[3], f[4]) for f in found] == [
        ("WAS107", 11, 16, "spec.devices[0].capacity.memory.value",
         "\"memory\" quantity '80 GiB' is malformed: unexpected ' ' in the suffix ' GiB'"),
        ("WAS107", 15, 18, "spec.devices[0].consumesCounters[0].counters.memory.value",
         "\"memory\" quantity 'lots' is malformed: a quantity must start with a number"),
        ("WAS107", 11, 33, "spec.spec.devices.requests[0].exactly.capacity.requests.bandwidth",
         "\"bandwidth\" quantity '10 G' is malformed: unexpected ' ' in the suffix ' G'"),
    ]


def test_v1beta1_claims_carry_the_request_fields_on_the_request():
    found = findings("""\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: gpus}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.example.com
        allocationMode: All
        count: 2
        selectors:
        - cel: {expression: 'device.driver == 3'}
""")
    assert [(f[0], f[1], f[3]) for f in found] == [
        ("WAS220", 11, "spec.spec.devices.requests[0].count"),
        ("WAS233", 13, "spec.spec.devices.requests[0].selectors[0].cel.expression")]


def test_admin_access_in_a_subrequest_is_the_schemas_finding():
    found = findings(TEMPLATE + """\
      requests:
      - name: gpu
        firstAvailable:
        - {name: a, deviceClassName: gpu.example.com, adminAccess: true}
""")
    assert [(f[0], f[3]) for f in found] == [("WAS101", "spec.spec.devices.requests[0].firstAvailable[0].adminAccess")]


def test_a_counter_without_value_is_accepted_as_the_server_does():
    """Counter.value is a resource.Quantity the strict schema lists as required, but a missing one decodes to zero
    and the API server accepts the slice (1.37 and 1.38 oracles' validate, found by the mutation corpus)."""
    counters = SLICE + "  nodeName: node-1\n  sharedCounters:\n  - name: gpu-0-counters\n    counters:\n      memory: {}\n"
    devices = SLICE + """\
  nodeName: node-1
  devices:
  - name: half-0
    consumesCounters:
    - counterSet: gpu-0-counters
      counters:
        memory: {}
"""
    capacity = SLICE + "  nodeName: node-1\n  devices:\n  - name: gpu-0\n    capacity:\n      memory: {}\n"
    for release in ("1.36", "1.37", "1.38"):
        assert findings(counters, release) == [] and findings(devices, release) == []
        assert findings(capacity, release) == []
    # the slice's other required fields stay required
    assert [f[3] for f in findings(counters.replace("  driver: gpu.example.com\n", "")) if f[0] == "WAS102"] == [
        "spec.driver"]

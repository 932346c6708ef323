"""Feature-gated DRA fields and kinds (WAS301/WAS302) with each release's default gates (dra.md §2)."""

from __future__ import annotations

from _manifests import docs, gates

from wasplan.validate.checker import check_document

SLICE = """\
apiVersion: resource.k8s.io/{version}
kind: ResourceSlice
metadata: {{name: node-1-gpus}}
spec:
  driver: gpu.example.com
  pool: {{name: node-1, generation: 1, resourceSliceCount: 1}}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      model: {{string: a100}}
      cores: {{ints: [1, 2]}}
"""
RULE = """\
apiVersion: resource.k8s.io/{version}
kind: DeviceTaintRule
metadata: {{name: maintenance}}
spec:
  deviceSelector: {{driver: gpu.example.com}}
  taint: {{key: maintenance, effect: NoSchedule}}
"""


def found(text: str, release: str, spec: str | None = None):
    (doc,) = docs(text)
    return [(d.code, d.location.line, d.location.field, d.message)
            for d in check_document(doc, gates(release, spec)).diagnostics]


def test_list_attributes_are_dropped_unless_their_alpha_gate_is_on():
    for release in ("1.36", "1.37"):
        assert found(SLICE.format(version="v1"), release) == [
            ("WAS301", 12, "spec.devices[0].attributes.cores.ints",
             f"spec.devices[0].attributes.cores.ints needs feature gate DRAListTypeAttributes, which is off in "
             f"Kubernetes {release}: the API server silently drops it on create")]
        assert found(SLICE.format(version="v1"), release, "DRAListTypeAttributes=true") == []


def test_device_taint_rules_are_served_in_137_but_gated_off_in_136():
    assert found(RULE.format(version="v1beta2"), "1.36") == [
        ("WAS302", 2, "kind", "DeviceTaintRule needs feature gate DRADeviceTaintRules, which is off: the API server "
         "does not serve DeviceTaintRule objects")]
    assert found(RULE.format(version="v1beta2"), "1.36", "DRADeviceTaintRules=true") == []
    assert found(RULE.format(version="v1"), "1.37") == []


def test_beta_gates_on_by_default_can_be_switched_off():
    claim = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: nic}
spec:
  devices:
    requests:
    - name: nic
      exactly:
        deviceClassName: net.example.com
        capacity: {requests: {bandwidth: 10G}}
    - name: nic2
      exactly: {deviceClassName: net.example.com}
    constraints:
    - {distinctAttribute: net.example.com/port}
"""
    assert found(claim, "1.37") == []
    assert [f[:3] for f in found(claim, "1.37", "DRAConsumableCapacity=false")] == [
        ("WAS301", 10, "spec.devices.requests[0].exactly.capacity"),
        ("WAS301", 14, "spec.devices.constraints[0].distinctAttribute")]


def test_derived_attributes_exist_from_137_and_are_alpha():
    template = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpus}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          derivedAttributes: [{name: gpu.example.com/slot, expression: "device.attributes['gpu.example.com'].slot"}]
      constraints:
      - {matchAttribute: gpu.example.com/slot}
"""
    assert [f[:3] for f in found(template, "1.37")] == [
        ("WAS301", 11, "spec.spec.devices.requests[0].exactly.derivedAttributes")]
    assert [f[0] for f in found(template, "1.36")] == ["WAS101"]  # no such field in 1.36: the schema says so


def test_the_cel_environment_follows_the_gates():
    """compile.go's Features: allowMultipleAllocations with DRAConsumableCapacity, includes() with
    DRAListTypeAttributes (upstream compile_test.go `allow_multiple_allocations_disabled`,
    `includes-function-compilation-error`)."""
    cls = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: shared.example.com}
spec:
  selectors:
  - cel: {expression: 'device.allowMultipleAllocations == false'}
  - cel: {expression: 'device.attributes["dra.example.com"].attr.includes("fish")'}
"""
    assert [(f[0], f[3]) for f in found(cls, "1.37")] == [
        ("WAS232", "CEL undeclared reference to 'includes' (in container '') (column 43)")]
    assert [(f[0], f[3]) for f in found(cls, "1.37", "DRAConsumableCapacity=false,DRAListTypeAttributes=true")] == [
        ("WAS231", "CEL undefined field 'allowMultipleAllocations' (column 8)")]

"""`resource.k8s.io/v1beta1` DRA objects read as the API server converts them (`wasplan.cluster.dra_v1beta1`,
k8s.io/kubernetes pkg/apis/resource/v1beta1/conversion.go): each gives the record of its v1 twin, and a finding
points at the field where the v1beta1 document has it (no `exactly`, devices under `basic`)."""

from wasplan.cluster.dra_v1beta1 import document_path

from .dra_samples import CLAIM, FULL_SLICE
from .helpers import read, record


def findings(diags):
    return [(d.code, d.location.line, d.location.col, d.location.field) for d in diags]


def _beta(v1: str) -> str:
    return v1.replace("apiVersion: resource.k8s.io/v1\n", "apiVersion: resource.k8s.io/v1beta1\n", 1)


def _shift(lines: list[str], by: int) -> list[str]:
    return [" " * by + line if by > 0 else line[-by:] for line in lines]


# FULL_SLICE in v1beta1: everything of the device but its name under `basic`, and an unset `allNodes: false`
_head, _rest = _beta(FULL_SLICE).split("  - name: gpu-0\n")
_device, _tail = _rest.split("  sharedCounters:\n")
BETA_SLICE = (_head.replace("  nodeName: node-1\n", "  nodeName: node-1\n  allNodes: false\n") + "  - name: gpu-0\n"
              + "    basic:\n" + "".join(_shift(_device.splitlines(keepends=True), 2)) + "  sharedCounters:\n" + _tail)

# CLAIM in v1beta1: the `exactly` fields of request gpus sit on the request itself
_before, _after = _beta(CLAIM).split("      exactly:\n")
_exact, _others = _after.split("    - name: nic\n")
BETA_CLAIM = _before + "".join(_shift(_exact.splitlines(keepends=True), -2)) + "    - name: nic\n" + _others


def test_v1beta1_slice_reads_like_its_v1_twin():
    beta, diags = record(BETA_SLICE)
    v1, _ = record(FULL_SLICE)
    assert diags == []
    assert beta.devices[0].attributes and beta.devices[0].capacity["memory"].value == 80 * 2**30
    assert repr(beta) == repr(v1)  # every field but the source document (records compare by identity)


def test_v1beta1_claim_reads_like_its_v1_twin():
    assert "exactly" not in BETA_CLAIM and "      deviceClassName: gpu\n" in BETA_CLAIM
    assert "    basic:\n      attributes:\n        model: {string: a100}\n" in BETA_SLICE
    beta, diags = record(BETA_CLAIM)
    v1, _ = record(CLAIM)
    assert diags == []
    assert beta.spec.requests[0].exactly.count == 2 and [s.name for s in beta.spec.requests[1].first_available] == [
        "fast", "slow"]
    assert repr(beta) == repr(v1)  # every field but the source document (records compare by identity)


def test_v1beta1_template_with_class_only_gets_an_exact_request_of_one():
    tpl, diags = record("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceClaimTemplate
        metadata: {namespace: gpu-test7, name: single-gpu}
        spec:
          spec:
            devices:
              requests:
              - name: gpu
                deviceClassName: gpu.nvidia.com
        """)
    assert diags == []
    (request,) = tpl.spec.requests
    assert (request.name, request.exactly.device_class_name, request.exactly.allocation_mode,
            request.exactly.count) == ("gpu", "gpu.nvidia.com", "ExactCount", 1)


def test_v1beta1_findings_point_into_the_v1beta1_document():
    _, claim_diags = record("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: a
              deviceClassName: gpu
              count: many
            - name: b
              firstAvailable:
              - {name: s}
        """)
    assert findings(claim_diags) == [
        ("WAS648", 9, 7, "spec.devices.requests[0].count"),
        ("WAS644", 12, 9, "spec.devices.requests[1].firstAvailable[0].deviceClassName"),
    ]
    _, slice_diags = record("""\
        apiVersion: resource.k8s.io/v1beta1
        kind: ResourceSlice
        metadata: {name: s}
        spec:
          driver: gpu.example.com
          pool: {name: node-1, resourceSliceCount: 1}
          nodeName: node-1
          devices:
          - name: gpu-0
            basic:
              capacity:
                memory: {value: lots}
        """)
    assert findings(slice_diags) == [("WAS643", 12, 18, "spec.devices[0].basic.capacity.memory.value")]


def test_kinds_v1beta1_lacks_and_other_versions_are_still_refused():
    for api_version, kind in (("resource.k8s.io/v1beta1", "DeviceTaintRule"),
                              ("resource.k8s.io/v1alpha3", "ResourceClaim")):
        rec, diags = record(f"""\
            apiVersion: {api_version}
            kind: {kind}
            metadata: {{name: c}}
            spec: {{}}
            """)
        assert rec is None
        assert [(d.code, d.location.line, d.message) for d in diags] == [
            ("WAS650", 1, f"{kind} {api_version} is not read by the planner; write resource.k8s.io/v1")]


def test_a_v1_path_is_mapped_into_the_v1beta1_document_for_lint_and_explain():
    """lint's device findings and explain's patches name v1 paths; a v1beta1 document has no `exactly`."""
    beta = read(BETA_CLAIM).documents[0]
    v1 = read(CLAIM).documents[0]
    path = ("spec", "devices", "requests", 0, "exactly", "count")
    assert document_path(beta, path) == ("spec", "devices", "requests", 0, "count")
    assert document_path(v1, path) == path
    assert (beta.location(document_path(beta, path)).line, v1.location(path).line) == (17, 18)  # each at its `count`
    slice_doc = read(BETA_SLICE).documents[0]
    assert document_path(slice_doc, ("spec", "devices", 0, "capacity")) == ("spec", "devices", 0, "basic", "capacity")
    assert document_path(slice_doc, ("spec", "devices", 0, "name")) == ("spec", "devices", 0, "name")

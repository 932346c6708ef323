"""Lint of DRA references, PodGroup claims and (with a snapshot) devices: WAS420-WAS432."""

import textwrap
from pathlib import Path

from _manifests import codes, docs, gates, only

from wasplan.cluster.dra_refs import check_references
from wasplan.diagnostics import Severity
from wasplan.pipeline.validate import validate_paths
from wasplan.validate.lint import lint

ROOT = Path(__file__).resolve().parents[2]
LAB = str(ROOT / "fixtures" / "rules" / "dra-cluster.yaml")

TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: four-h100, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly: {deviceClassName: gpu.example.com, count: 4}
"""
CLASS = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"


def pod(claims: str, uses: str = "[{name: gpus}]", group: str | None = None, name: str = "w-0") -> str:
    joined = f"  schedulingGroup: {{podGroupName: {group}}}\n" if group else ""
    return (f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: ml}}\nspec:\n{joined}"
            f"  resourceClaims: {claims}\n  containers:\n  - name: main\n    image: x\n"
            f"    resources: {{claims: {uses}}}\n")


def run(*parts: str, release: str = "1.37", spec: str | None = None):
    return lint(docs("---\n".join(parts)), gates(release, spec))


def test_template_typo_is_reported_with_did_you_mean_and_line():
    diags = run(TEMPLATE, pod("[{name: gpus, resourceClaimTemplateName: four-h10}]"))
    d = only(diags, "WAS420")
    assert d.severity is Severity.WARNING
    assert d.message == ('pod "w-0" claim "gpus" names ResourceClaimTemplate "four-h10", which is not among the '
                         "inputs in namespace ml; the pod waits until it exists")
    assert d.hint == 'did you mean ResourceClaimTemplate "four-h100"?'
    assert (d.location.path, d.location.line) == (("spec", "resourceClaims", 0, "resourceClaimTemplateName"), 15)


def test_a_template_from_elsewhere_is_no_finding_but_another_namespace_is():
    assert run(pod("[{name: gpus, resourceClaimTemplateName: from-the-platform-repo}]")) == []
    other = TEMPLATE.replace("namespace: ml", "namespace: research")
    d = only(run(other, pod("[{name: gpus, resourceClaimTemplateName: four-h100}]")), "WAS420")
    assert d.hint == ('a ResourceClaimTemplate "four-h100" exists in namespace research; a pod can only use claims '
                      "and templates of its own namespace")


def test_claim_by_name_and_controller_templates():
    claim = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: shared-gpu, namespace: ml}\n"
             "spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com}}]}}\n")
    job = textwrap.dedent("""\
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train, namespace: ml}
        spec:
          parallelism: 2
          template:
            spec:
              restartPolicy: Never
              resourceClaims: [{name: gpus, resourceClaimName: shared-gpus}]
              containers: [{name: main, image: x, resources: {claims: [{name: gpus}]}}]
        """)
    d = only(run(claim, job), "WAS421")
    assert d.message == ('Job "train" pod template claim "gpus" names ResourceClaim "shared-gpus", which is not among '
                         "the inputs in namespace ml; the pod waits until it exists")
    assert d.location.path == ("spec", "template", "spec", "resourceClaims", 0, "resourceClaimName")
    assert d.hint == 'did you mean ResourceClaim "shared-gpu"?'


def test_container_claim_not_declared_and_unknown_request():
    diags = run(TEMPLATE, pod("[{name: gpus, resourceClaimTemplateName: four-h100}]",
                              "[{name: gpu}, {name: gpus, request: gpu}]"))
    assert codes(diags) == ["WAS423", "WAS424"]
    undeclared = only(diags, "WAS423")
    assert undeclared.severity is Severity.ERROR
    assert undeclared.message == ('container "main" uses claim "gpu", which spec.resourceClaims does not declare (it '
                                  'declares: "gpus"); the API server rejects the pod')
    assert undeclared.hint == 'did you mean "gpus"?'
    assert undeclared.location.path == ("spec", "containers", 0, "resources", "claims", 0, "name")
    request = only(diags, "WAS424")
    assert request.message == ('container claim "gpus" names request "gpu", which ResourceClaimTemplate "four-h100" '
                               'does not have (it has: "gpus"); the container would get no device from it')
    assert request.location.line == 19


def test_device_class_typo_and_plan_shares_the_resolution():
    text = CLASS + "---\n" + TEMPLATE.replace("deviceClassName: gpu.example.com", "deviceClassName: gpu.exmple.com")
    d = only(run(text), "WAS422")
    assert d.message == ('ResourceClaimTemplate "four-h100" requests devices of DeviceClass "gpu.exmple.com", which '
                         "is not among the inputs; pods using it stay Pending (device class gpu.exmple.com does not "
                         "exist)")
    assert d.hint == 'did you mean DeviceClass "gpu.example.com"?'
    assert d.location.line == 13
    from wasplan.cluster.parse_dra import parse_dra_record
    from wasplan.cluster.issues import Ctx

    records = [parse_dra_record(doc.obj, Ctx(doc, [])) for doc in docs(text)]
    [plan] = check_references([r for r in records if r is not None])
    assert (plan.code, plan.message, plan.hint, plan.location.line) == (
        "WAS662", "DeviceClass gpu.exmple.com is not in the inputs", d.hint, 13)


GROUP = """\
apiVersion: scheduling.k8s.io/{version}
kind: PodGroup
metadata: {{name: train, namespace: ml}}
spec:
  schedulingPolicy: {{basic: {{}}}}
  resourceClaims:
  - {{name: fabric, resourceClaimTemplateName: rack-fabric}}
  - {{name: scratch, resourceClaimTemplateName: scratch}}
"""
ON = "DRAWorkloadResourceClaims=true,GenericWorkload=true"


def group_run(version: str, release: str, *pods: str):
    return run(GROUP.format(version=version), *pods, release=release, spec=ON)


def test_group_claims_shared_per_pod_and_near_misses_in_both_releases():
    pods = [pod("[{name: fabric, resourceClaimTemplateName: rack-fabric}, {name: gpus, resourceClaimTemplateName: "
                "four-h100}]", "[{name: fabric}, {name: gpus}]", "train", "w-0"),
            pod("[{name: fabric, resourceClaimTemplateName: rack-fabrics}]", "[{name: fabric}]", "train", "w-1"),
            pod("[{name: shared, resourceClaimTemplateName: rack-fabric}]", "[{name: shared}]", "train", "w-2")]
    for version, release in (("v1alpha2", "1.36"), ("v1beta1", "1.37"), ("v1alpha3", "1.37")):
        diags = group_run(version, release, *pods)
        assert codes(diags) == ["WAS425", "WAS426", "WAS426", "WAS427"], (version, diags)
        summary = only(diags, "WAS425")
        assert summary.severity is Severity.INFO
        assert summary.message == ('PodGroup "train": claims shared by the group: "fabric" (1 pod); claims of '
                                   'each pod\'s own: "fabric" (1 pod), "gpus" (1 pod), "shared" (1 pod)')
        same_name, same_source = sorted((d for d in diags if d.code == "WAS426"), key=lambda d: d.location.line)
        assert same_name.message == (
            'pod "w-1" claim "fabric" names ResourceClaimTemplate "rack-fabrics", but entry "fabric" of PodGroup '
            '"train" names ResourceClaimTemplate "rack-fabric"; only an entry equal in name and source is shared, '
            "so every pod gets its own claim from the template")
        assert same_name.location.path == ("spec", "resourceClaims", 0, "resourceClaimTemplateName")
        assert same_source.message == (
            'pod "w-2" claim "shared" names ResourceClaimTemplate "rack-fabric" like entry "fabric" of PodGroup '
            '"train", but under another name; only an entry equal in name and source is shared, so every pod gets '
            "its own claim from the template")
        assert same_source.hint == 'name the pod\'s entry "fabric" to share the group\'s claim'
        unused = only(diags, "WAS427")
        assert unused.message == ('entry "scratch" (ResourceClaimTemplate "scratch") of PodGroup "train" is used by '
                                  "none of its 3 member pods in the inputs; a pod shares it only with an entry of "
                                  "the same name and source")
        assert unused.location.line == 8


def test_group_claims_need_the_gate():
    member = pod("[{name: fabric, resourceClaimTemplateName: rack-fabrics}]", "[{name: fabric}]", "train")
    assert [c for c in codes(run(GROUP.format(version="v1beta1"), member)) if c >= "WAS420"] == []


def test_group_and_workload_template_entries_are_resolved_too():
    workload = textwrap.dedent("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: train, namespace: ml}
        spec:
          podGroupTemplates:
          - name: workers
            schedulingPolicy: {basic: {}}
            resourceClaims: [{name: fabric, resourceClaimTemplateName: four-h10}]
        """)
    group = GROUP.format(version="v1beta1").replace("rack-fabric", "four-h1000")
    diags = run(TEMPLATE, workload, group)
    assert [(d.code, d.location.path) for d in diags if d.code == "WAS420"] == [
        ("WAS420", ("spec", "podGroupTemplates", 0, "resourceClaims", 0, "resourceClaimTemplateName")),
        ("WAS420", ("spec", "resourceClaims", 0, "resourceClaimTemplateName"))]
    assert [d.message for d in diags if d.code == "WAS420"][1] == (
        'PodGroup "train" group claim "fabric" names ResourceClaimTemplate "four-h1000", which is not among the '
        "inputs in namespace ml; its pods wait until it exists")


def test_job_generated_group_in_1_37_only():
    job = textwrap.dedent("""\
        apiVersion: batch/v1
        kind: Job
        metadata: {name: train, namespace: ml}
        spec:
          parallelism: 4
          scheduling:
            resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric}]
          template:
            spec:
              restartPolicy: Never
              resourceClaims: [{name: net, resourceClaimTemplateName: rack-fabric}]
              containers: [{name: main, image: x, resources: {claims: [{name: net}]}}]
        """)
    diags = run(job, spec=ON + ",WorkloadWithJob=true")
    assert codes(diags) == ["WAS425", "WAS426", "WAS427"]
    assert only(diags, "WAS425").message == ('the PodGroup "train-job" of Job "train": claims shared by the group: '
                                             'none; claims of each pod\'s own: "net" (4 pods)')
    assert only(diags, "WAS426").location.path == ("spec", "template", "spec", "resourceClaims", 0, "name")
    owned = job.replace("metadata: {name: train, namespace: ml}", "metadata:\n  name: train\n  namespace: ml\n"
                        "  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, uid: u, "
                        "controller: true}]")
    assert [c for c in codes(run(owned, spec=ON + ",WorkloadWithJob=true")) if c >= "WAS425"] == []
    old = run(job, release="1.36", spec="DRAWorkloadResourceClaims=true,GenericWorkload=true,WorkloadWithJob=true")
    assert [c for c in codes(old) if c >= "WAS420"] == []  # 1.36 Jobs have no spec.scheduling


def test_admin_access_namespace_label():
    admin = TEMPLATE.replace("count: 4}", "adminAccess: true}")
    unlabelled = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml, labels: {team: ml}}\n"
    d = only(run(unlabelled, admin), "WAS431")
    assert d.message == ('ResourceClaimTemplate "four-h100" asks for admin access, but namespace ml does not have '
                         'the label resource.kubernetes.io/admin-access: "true"; the API server rejects it')
    assert (d.location.line, d.severity) == (13, Severity.ERROR)
    unknown = only(run(admin), "WAS432")
    assert unknown.message.startswith('ResourceClaimTemplate "four-h100" asks for admin access, but namespace ml is '
                                      "not among the inputs or the cluster snapshot")
    labelled = unlabelled.replace("team: ml", 'resource.kubernetes.io/admin-access: "true"')
    assert run(labelled, admin) == []


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "m.yaml"
    path.write_text(text)
    return str(path)


H100 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: h100, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 8
          selectors:
          - cel: {expression: 'device.attributes["gpu.example.com"].productName == "NVIDIA H100"'}
"""


def lab(tmp_path: Path, text: str, release: str = "1.37"):
    report = validate_paths([write(tmp_path, text)], gates(release), lint=True, cluster_paths=[LAB])
    return report.lint_diagnostics


def test_selector_that_matches_no_device_names_the_values_devices_have(tmp_path):
    for release in ("1.36", "1.37"):
        d = only(lab(tmp_path, H100, release), "WAS428")
        assert d.message == (
            'request "gpus" matches no device in the cluster snapshot: selector #0 of the request '
            '`device.attributes["gpu.example.com"].productName == "NVIDIA H100"` leaves none of the 10 devices '
            'that reach it; the devices\' gpu.example.com/productName: "NVIDIA H100 80GB HBM3" (8 devices), '
            '"NVIDIA A100-SXM4-40GB" (2 devices)')
        assert d.hint == "use a value the devices have (closest first above)"
        assert d.location.path == ("spec", "spec", "devices", "requests", 0, "exactly", "selectors", 0, "cel",
                                   "expression")
        assert d.location.line == 13


def test_count_larger_than_any_node_and_class_selector_elimination(tmp_path):
    fixed = H100.replace('"NVIDIA H100"', '"NVIDIA H100 80GB HBM3"')
    d = only(lab(tmp_path, fixed), "WAS429")
    assert d.message == ('request "gpus" asks for 8 devices, but no node reaches more than 4 of the 8 matching '
                         "devices (e.g. node h100-0); the claim can never be allocated")
    assert (d.location.line, d.hint) == (11, "lower count to 4, or split the request across pods")
    assert lab(tmp_path, fixed.replace("count: 8", "count: 4")) == []
    nic = CLASS.replace("gpu.example.com}", "nic.example.com}") + (
        "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"nic.example.com\"'}\n---\n")
    d = only(lab(tmp_path, nic + fixed.replace("deviceClassName: gpu.example.com", "deviceClassName: nic.example.com")),
             "WAS428")
    assert d.message == ('request "gpus" matches no device in the cluster snapshot: DeviceClass "nic.example.com" '
                         'leaves none of the 10 devices that reach it')
    assert d.location.path[-1] == "deviceClassName"


def test_first_available_reports_only_when_no_subrequest_fits(tmp_path):
    text = textwrap.dedent("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: flexible, namespace: ml}
        spec:
          devices:
            requests:
            - name: gpu
              firstAvailable:
              - {name: big, deviceClassName: gpu.example.com, count: 16}
              - {name: small, deviceClassName: gpu.example.com, count: 2}
        """)
    assert lab(tmp_path, text) == []
    diags = lab(tmp_path, text.replace("count: 2}", "count: 6}"))
    assert [(d.code, d.location.path[-2:]) for d in diags] == [("WAS429", (0, "count")), ("WAS429", (1, "count"))]


def test_snapshot_makes_the_kind_complete(tmp_path):
    """With --cluster holding DeviceClasses, a class in neither inputs nor snapshot is missing, typo or not."""
    d = only(lab(tmp_path, H100.replace("deviceClassName: gpu.example.com", "deviceClassName: fpga.acme.io")),
             "WAS422")
    assert d.message.endswith("which is not among the inputs or the cluster snapshot; pods using it stay Pending "
                              "(device class fpga.acme.io does not exist)")
    assert d.hint is None


def test_podgroup_claims_differing_from_its_workload_template():
    cases = {"1.36": ("v1alpha2", "podGroupTemplateRef: {workload: {workloadName: train, podGroupTemplateName: workers}}"),
             "1.37": ("v1beta1", "workloadRef: {workloadName: train, templateName: workers}")}
    for release, (version, ref) in cases.items():
        workload = (f"apiVersion: scheduling.k8s.io/{version}\nkind: Workload\nmetadata: {{name: train, namespace: ml}}\n"
                    "spec:\n  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {basic: {}}\n"
                    "    resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric}]\n")
        group = (f"apiVersion: scheduling.k8s.io/{version}\nkind: PodGroup\nmetadata: {{name: train-0, namespace: ml}}\n"
                 f"spec:\n  {ref}\n  schedulingPolicy: {{basic: {{}}}}\n"
                 "  resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric-v2}]\n")
        d = only(run(workload, group, release=release, spec=ON), "WAS430")
        assert d.message == ('PodGroup "train-0" has resourceClaims [fabric=template:rack-fabric-v2], but template '
                             '"workers" of Workload "train" has [fabric=template:rack-fabric]; pods share only the '
                             "PodGroup's own entries")
        assert (d.location.line, d.severity) == (16, Severity.WARNING)
        assert "WAS430" not in codes(run(workload, group.replace("-v2", ""), release=release, spec=ON))
        assert "WAS430" not in codes(run(workload, group, release=release))  # gate off: WAS301 says it all


SLICE_ELSEWHERE = """\
apiVersion: v1
kind: Node
metadata: {name: cpu-0}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gone-gpu}
spec:
  driver: gpu.example.com
  pool: {name: gone, generation: 1, resourceSliceCount: 1}
  nodeName: gone
  devices: [{name: gpu-0}]
---
""" + CLASS


def test_devices_no_node_of_the_snapshot_reaches(tmp_path):
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text(SLICE_ELSEWHERE)
    manifest = write(tmp_path, TEMPLATE.replace("count: 4", "count: 1"))
    report = validate_paths([manifest], gates("1.37"), lint=True, cluster_paths=[str(snapshot)])
    d = only(report.lint_diagnostics, "WAS429")
    assert d.message == ('request "gpus" asks for 1 device, but none of the 1 node reaches any of the 1 matching '
                         "device (their slices name or select other nodes); the claim can never be allocated")
    assert d.location.path == ("spec", "spec", "devices", "requests", 0, "exactly", "count")
    snapshot.write_text(SLICE_ELSEWHERE.split("---\n", 1)[1])  # no nodes at all: nothing to say about reach
    no_nodes = validate_paths([manifest], gates("1.37"), lint=True, cluster_paths=[str(snapshot)])
    assert no_nodes.lint_diagnostics == []


def test_capacity_taints_and_runtime_errors_are_stages_too(tmp_path):
    big = TEMPLATE.replace("count: 4}", "count: 1, capacity: {requests: {memory: 100Gi}}}")
    d = only(lab(tmp_path, big), "WAS428")
    assert d.message == ('request "gpus" matches no device in the cluster snapshot: the capacity memory=100Gi '
                         "requested leaves none of the 10 devices that reach it; the devices' memory: \"80Gi\" "
                         '(8 devices), "40Gi" (2 devices)')
    assert d.location.path[-1] == "capacity"
    broken = H100.replace('device.attributes["gpu.example.com"].productName == "NVIDIA H100"',
                          'device.attributes["gpu.example.com"].serial == "x"')
    d = only(lab(tmp_path, broken), "WAS428")
    assert d.hint == ("the allocator stops on a CEL error: request selector #0 on device gpu.example.com/h100-0/gpu-0: "
                      "CEL runtime error: no such key: serial. consider using CEL optional chaining (.? followed by "
                      "orValue()) or guarding the check with has() for optional fields")  # 1.37's wording


def test_network_attached_pools_count_for_every_node_they_select(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(textwrap.dedent("""\
        apiVersion: wasplan.io/v1alpha1
        kind: Cluster
        metadata: {name: fabric}
        spec:
          nodePools:
          - {name: rack, count: 2, namePattern: "r0-{index}", labels: {rack: r0}, allocatable: {cpu: 8, memory: 8Gi}}
          - {name: other, count: 1, namePattern: "r1-{index}", labels: {rack: r1}, allocatable: {cpu: 8, memory: 8Gi}}
          devicePools:
          - {name: fabric-r0, driver: nic.example.com, count: 3, nodeSelector: {rack: r0}}
        ---
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata: {name: nic}
        """))
    claim = TEMPLATE.replace("gpu.example.com", "nic")
    report = validate_paths([write(tmp_path, claim)], gates("1.37"), lint=True, cluster_paths=[str(cluster)])
    d = only(report.lint_diagnostics, "WAS429")
    assert d.message == ('request "gpus" asks for 4 devices, but no node reaches more than 3 of the 3 matching '
                         "devices (e.g. node r0-0); the claim can never be allocated")
    fits = validate_paths([write(tmp_path, claim.replace("count: 4", "count: 3"))], gates("1.37"), lint=True,
                          cluster_paths=[str(cluster)])
    assert fits.lint_diagnostics == []


def test_container_request_checked_against_a_snapshot_template(tmp_path):
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text(textwrap.dedent("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: four-h100, namespace: ml}
        spec:
          spec:
            devices:
              requests:
              - name: gpus
                firstAvailable: [{name: h100, deviceClassName: gpu.example.com}]
        """))
    manifest = write(tmp_path, pod("[{name: gpus, resourceClaimTemplateName: four-h100}]",
                                   "[{name: gpus, request: gpus/h100}, {name: gpus, request: gpus/a100}]"))
    report = validate_paths([manifest], gates("1.37"), lint=True, cluster_paths=[str(snapshot)])
    d = only(report.lint_diagnostics, "WAS424")
    assert d.message == ('container claim "gpus" names request "gpus/a100", which ResourceClaimTemplate "four-h100" '
                         'does not have (it has: "gpus"); the container would get no device from it')
    assert d.hint == 'did you mean "gpus/h100"?'


def test_attribute_name_no_device_publishes_is_named_with_did_you_mean(tmp_path):
    """A selector reading `productname` (devices publish `productName`) or the domain `example.com` (devices
    publish `gpu.example.com`): a CEL `no such key` error on every device, named with the closest published name."""
    cases = [('device.attributes["gpu.example.com"].productname == "NVIDIA H100"', "productname",
              'selector reads attribute "productname", which no device publishes; did you mean "productName"?'),
             ('device.attributes["example.com"].productName == "NVIDIA H100"', "productName",
              'selector reads attribute "example.com/productName", which no device publishes; did you mean '
              '"gpu.example.com/productName"?')]
    for expression, key, said in cases:
        text = H100.replace('device.attributes["gpu.example.com"].productName == "NVIDIA H100"', expression)
        d = only(lab(tmp_path, text), "WAS428")
        assert d.message == ('request "gpus" matches no device in the cluster snapshot: selector #0 of the request '
                             f"`{expression}` leaves none of the 10 devices that reach it; {said}")
        assert d.hint == ("write the name the devices publish, named above; the allocator stops on a CEL error: "
                          f"request selector #0 on device gpu.example.com/h100-0/gpu-0: CEL runtime error: no such "
                          f"key: {key}. consider using CEL optional chaining (.? followed by orValue()) or guarding "
                          "the check with has() for optional fields")
        assert d.location.line == 13

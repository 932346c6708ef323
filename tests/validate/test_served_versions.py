"""Built-in group versions a release does not have are errors naming the versions that serve the kind (WAS109,
WAS113), not an info "no schema; not validated" with exit 0; a scheduling.k8s.io version that no release ever had
is WAS115 with the nearest served version, not a migrate hint that cannot work. The table (api/served.py) is
checked against upstream's OpenAPI data as kubernetes-validate ships it, so it cannot drift."""

from __future__ import annotations

import collections
import json

import pytest

from tests.cli.helpers import run
from wasplan.api import served
from wasplan.validate.core_schemas import definitions

_NOT_KINDS = {"DeleteOptions", "WatchEvent", "Status", "APIGroup", "APIGroupList", "APIResourceList", "APIVersions"}


@pytest.mark.parametrize("release", ["1.36", "1.37", "1.38"])
def test_table_is_the_releases_openapi_group_versions(release):
    found: dict[str, set[str]] = collections.defaultdict(set)
    for schema in definitions(release, raw=True)["$defs"].values():
        for gvk in schema.get("x-kubernetes-group-version-kind", ()):
            if not gvk["kind"].endswith("List") and gvk["kind"] not in _NOT_KINDS:
                gv = f"{gvk['group']}/{gvk['version']}" if gvk["group"] else gvk["version"]
                found[gv].add(gvk["kind"])
    assert served.BUILTIN[release] == {gv: frozenset(kinds) for gv, kinds in found.items()}


def test_version_priority_is_kubernetes_order():
    versions = ["resource.k8s.io/v1alpha3", "resource.k8s.io/v1beta1", "resource.k8s.io/v1", "resource.k8s.io/v1beta2",
                "resource.k8s.io/v2alpha1"]
    assert sorted(versions, key=served.version_key) == [
        "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1", "resource.k8s.io/v2alpha1",
        "resource.k8s.io/v1alpha3"]


DOCS = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: gpu, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
---
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: "0 0 * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: app:1}]}}}}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: default}
spec: {minAvailable: 1}
---
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClass
metadata: {name: old}
driverName: gpu.example.com
---
apiVersion: extensions/v1beta1
kind: Ingress
metadata: {name: web, namespace: default}
spec: {}
"""


def _report(tmp_path, text: str, *options: str) -> tuple[int, list[tuple]]:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    result = run("validate", str(path), "--no-config", "-o", "json", *options)
    report = json.loads(result.output)
    found = [(d["code"], d["line"], d["field"], d["message"], d.get("hint")) for doc in report["documents"]
             for d in doc["diagnostics"]]
    return result.exit_code, found


def test_built_in_versions_the_release_does_not_have(tmp_path):
    code, found = _report(tmp_path, DOCS)
    hint = "then check the fields against that version (wasplan validate reports the differences)"
    assert code == 1
    assert found == [
        ("WAS113", 2, "kind", "resource.k8s.io/v1alpha3 does not serve ResourceClaim in Kubernetes 1.37; it serves "
         "ResourceClaim as resource.k8s.io/v1, resource.k8s.io/v1beta2 and resource.k8s.io/v1beta1",
         f"write apiVersion: resource.k8s.io/v1, {hint}"),
        ("WAS109", 10, "apiVersion", "batch/v1beta1 CronJob is not served by Kubernetes 1.37; it serves CronJob as "
         "batch/v1", f"write apiVersion: batch/v1, {hint}"),
        ("WAS109", 17, "apiVersion", "policy/v1beta1 PodDisruptionBudget is not served by Kubernetes 1.37; it serves "
         "PodDisruptionBudget as policy/v1", f"write apiVersion: policy/v1, {hint}"),
        ("WAS109", 22, "apiVersion", "resource.k8s.io/v1alpha2 ResourceClass is not served by Kubernetes 1.37; it "
         "serves resource.k8s.io as resource.k8s.io/v1, resource.k8s.io/v1beta2, resource.k8s.io/v1beta1, "
         "resource.k8s.io/v1alpha3", None),
        ("WAS109", 27, "apiVersion", "extensions/v1beta1 Ingress is not served by Kubernetes 1.37; it serves Ingress "
         "as networking.k8s.io/v1", f"write apiVersion: networking.k8s.io/v1, {hint}"),
    ]


def test_same_under_136(tmp_path):
    code, found = _report(tmp_path, DOCS, "--k8s-version", "1.36")
    assert code == 1
    assert [(c, line) for c, line, *_ in found] == [("WAS113", 2), ("WAS109", 10), ("WAS109", 17), ("WAS109", 22),
                                                    ("WAS109", 27)]


def test_versions_the_release_has_stay_valid(tmp_path):
    """Served, even where --runtime-config must enable them: resource.k8s.io/v1beta1, v1alpha3 DeviceTaintRule."""
    code, found = _report(tmp_path, """\
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec: {}
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  taint: {key: maintenance, effect: NoSchedule}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
""")
    assert (code, found) == (0, [])


def test_priority_class_of_an_old_version(tmp_path):
    code, found = _report(tmp_path, "apiVersion: scheduling.k8s.io/v1beta1\nkind: PriorityClass\n"
                                    "metadata: {name: high}\nvalue: 1000\n")
    assert code == 1
    assert found[0][:4] == ("WAS113", 2, "kind", "scheduling.k8s.io/v1beta1 does not serve PriorityClass in "
                            "Kubernetes 1.37; it serves PriorityClass as scheduling.k8s.io/v1")


PODGROUP = """\
apiVersion: scheduling.k8s.io/{version}
kind: PodGroup
metadata: {{name: trainers, namespace: default}}
spec:
  schedulingPolicy: {{gang: {{minCount: 2}}}}
"""


@pytest.mark.parametrize("release, version, nearest, served_as", [
    ("1.37", "v1beta2", "v1beta1", "scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3"),
    ("1.37", "v1alpha4", "v1alpha3", "scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3"),
    ("1.36", "v1beta2", "v1alpha2", "scheduling.k8s.io/v1alpha2"),
])
def test_scheduling_version_no_release_has(tmp_path, release, version, nearest, served_as):
    code, found = _report(tmp_path, PODGROUP.format(version=version), "--k8s-version", release)
    assert code == 1
    assert found[0] == ("WAS115", 1, "apiVersion", f"scheduling.k8s.io/{version} does not exist: no Kubernetes release "
                        f"has version {version} of scheduling.k8s.io; Kubernetes {release} serves PodGroup as "
                        f"{served_as}", f"did you mean apiVersion: scheduling.k8s.io/{nearest}?")


def test_a_version_an_older_release_had_still_gets_the_migrate_hint(tmp_path):
    code, found = _report(tmp_path, PODGROUP.format(version="v1alpha2"))
    assert code == 1
    assert found[0][0] == "WAS109" and found[0][4].startswith("run `wasplan migrate --to-k8s 1.37 ")


TYPOS = """\
apiVersion: apps/v1
kind: Deploymnet
metadata: {name: web}
---
apiVersion: v1
kind: Pdo
metadata: {name: trainer}
---
apiVersion: v1
kind: Config
clusters: []
---
apiVersion: networking.k8s.io/v1
kind: Gateway
metadata: {name: edge}
"""


def test_a_kind_no_group_without_a_dot_holds_is_an_error_with_the_closest_kind(tmp_path):
    path = tmp_path / "typos.yaml"
    path.write_text(TYPOS)
    result = run("validate", str(path), "-o", "json")
    assert result.exit_code == 1, result.output
    found = [(doc["kind"], doc["verdict"], d["code"], d["line"], d["message"], d.get("hint"))
             for doc in json.loads(result.output)["documents"] for d in doc["diagnostics"]]
    assert found == [
        ("Deploymnet", "invalid", "WAS113", 2, "apps/v1 has no kind Deploymnet in Kubernetes 1.37, and no custom "
         "resource can add one to apps: the API server finds no resource for it", "did you mean kind: Deployment?"),
        ("Pdo", "invalid", "WAS113", 6, "v1 has no kind Pdo in Kubernetes 1.37, and no custom resource can add one "
         "to the core group: the API server finds no resource for it", "did you mean kind: Pod?"),
        # a kubeconfig, and a kind of a dotted group (a CustomResourceDefinition may add it): not checked
        ("Config", "skipped", "WAS010", 10, "no schema for v1 Config; not validated", None),
        ("Gateway", "skipped", "WAS010", 14, "no schema for networking.k8s.io/v1 Gateway; not validated", None),
    ]

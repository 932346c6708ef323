from _manifests import codes, docs, gates, only

from wasplan.validate.rules import check


def run(spec_yaml, release="1.37"):
    (doc,) = docs("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" + spec_yaml)
    return check(doc, gates(release))


def test_scheduling_group_must_name_a_group():
    d = only(run("  containers: [{name: c, image: x}]\n  schedulingGroup: {}\n"), "WAS108")
    assert d.message == "schedulingGroup is set but does not name a PodGroup: podGroupName must be set"
    assert (d.location.path, d.location.line) == (("spec", "schedulingGroup"), 6)


def test_pod_group_name_must_be_a_dns_subdomain():
    d = only(run("  schedulingGroup: {podGroupName: Workers_0}\n", "1.36"), "WAS107")
    assert '"Workers_0"' in d.message
    assert d.location.path == ("spec", "schedulingGroup", "podGroupName")


def test_valid_or_absent_scheduling_group():
    assert run("  containers: [{name: c, image: x}]\n  schedulingGroup: {podGroupName: train-workers.0}\n") == []
    assert run("  containers: [{name: c, image: x}]\n  schedulingGroup: null\n") == []
    # a pod without containers is refused by the API server whatever its schedulingGroup (podspec_lists.py)
    assert codes(run("  containers: []\n")) == ["WAS102"]


def test_malformed_quantities_are_found_where_the_api_server_would_reject_them():
    found = run("  containers:\n  - name: c\n    image: x\n    resources:\n      requests: {cpu: 10 Gi, memory: 1Gi}\n"
                "      limits: {nvidia.com/gpu: '8'}\n  initContainers:\n  - name: i\n    image: x\n"
                "    resources: {limits: {memory: 1.5.5}}\n  overhead: {cpu: 250m}\n")
    assert [(d.code, d.location.field, d.location.line) for d in found] == [
        ("WAS107", "spec.containers[0].resources.requests.cpu", 9),
        ("WAS107", "spec.initContainers[0].resources.limits.memory", 14)]
    assert found[0].message == "\"cpu\" quantity '10 Gi' is malformed: unexpected ' ' in the suffix ' Gi'"


def test_quantities_in_a_job_template_are_checked_too():
    (doc,) = docs("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n"
                  "      restartPolicy: Never\n      containers:\n      - name: c\n        image: x\n"
                  "        resources: {requests: {cpu: 2 cores}}\n")
    d = only(check(doc, gates("1.37")), "WAS107")
    assert d.location.field == "spec.template.spec.containers[0].resources.requests.cpu"

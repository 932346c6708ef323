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
    assert run("  schedulingGroup: {podGroupName: train-workers.0}\n") == []
    assert run("  schedulingGroup: null\n") == []
    assert codes(run("  containers: []\n")) == []

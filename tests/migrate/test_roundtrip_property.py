"""Property: for random valid 1.36 objects in random layouts, 1.36 -> 1.37 -> 1.36 gives the text back,
and the 1.37 form passes the upstream strict schema."""

from __future__ import annotations

import io

import kubernetes_validate
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from .harness import invoke

# YAML 1.1 booleans (on, yes, n, ...) are not names to Kubernetes' YAML reader; they are refused as invalid
names = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True).filter(
    lambda s: s not in ("y", "n", "on", "off", "yes", "no", "true", "false", "null"))


@st.composite
def settings_block(draw, priority_class):
    out = CommentedMap()
    if draw(st.booleans()):
        out["schedulingPolicy"] = {"gang": {"minCount": draw(st.integers(1, 64))}}
    else:
        out["schedulingPolicy"] = {"basic": {}}
    if draw(st.booleans()):
        out["schedulingConstraints"] = {"topology": [{"key": "topology.kubernetes.io/rack"}]}
    mode = draw(st.sampled_from([None, "Pod", "PodGroup"]))
    if mode:
        out["disruptionMode"] = mode
    if priority_class:
        out["priorityClassName"] = priority_class
    return out


@st.composite
def workload(draw):
    pc = draw(st.sampled_from([None, "high"]))
    count = draw(st.integers(1, 3))
    templates = []
    for i in range(count):
        t = CommentedMap(name=f"t{i}")
        t.update(draw(settings_block(pc)))
        templates.append(t)
    return CommentedMap(apiVersion="scheduling.k8s.io/v1alpha2", kind="Workload",
                        metadata={"name": draw(names)}, spec=CommentedMap(podGroupTemplates=templates))


@st.composite
def podgroup(draw):
    spec = CommentedMap()
    if draw(st.booleans()):
        spec["podGroupTemplateRef"] = {"workload": {"workloadName": draw(names), "podGroupTemplateName": draw(names)}}
    spec.update(draw(settings_block(draw(st.sampled_from([None, "low"])))))
    return CommentedMap(apiVersion="scheduling.k8s.io/v1alpha2", kind="PodGroup",
                        metadata={"name": draw(names)}, spec=spec)


def _render(obj, mapping: int, offset: int, comment: bool) -> str:
    y = YAML()
    y.indent(mapping=mapping, sequence=mapping + offset, offset=offset)
    if comment:
        obj.yaml_set_comment_before_after_key("spec", before="the spec follows")
        obj["spec"].yaml_set_comment_before_after_key(next(reversed(obj["spec"])), before="last field",
                                                      indent=mapping)
    out = io.StringIO()
    y.dump(obj, out)
    return out.getvalue()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=st.one_of(workload(), podgroup()), mapping=st.sampled_from([2, 4]), offset=st.sampled_from([0, 2]),
       comment=st.booleans())
def test_up_then_down_is_identity(obj, mapping, offset, comment):
    text = _render(obj, mapping, offset, comment)
    up = invoke("-", "--to-k8s", "1.37", input=text)
    assert up.exit_code == 0, up.stderr
    kubernetes_validate.validate(yaml.safe_load(up.stdout), "1.37", strict=True)
    down = invoke("-", "--to-k8s", "1.36", input=up.stdout)
    assert down.exit_code == 0, down.stderr
    assert down.stdout == text


@st.composite
def podgroup_137(draw):
    spec = CommentedMap()
    if draw(st.booleans()):
        spec["workloadRef"] = CommentedMap(workloadName=draw(names), templateName=draw(names))
    spec["schedulingPolicy"] = draw(st.sampled_from([{"basic": {}}, {"gang": {"minCount": 3}}]))
    mode = draw(st.sampled_from([None, "single", "all"]))
    if mode:
        spec["disruptionMode"] = {mode: {}}
    if draw(st.booleans()):
        spec["priority"] = draw(st.integers(-10, 1000))
    obj = CommentedMap(apiVersion="scheduling.k8s.io/v1beta1", kind="PodGroup", metadata={"name": draw(names)},
                       spec=spec)
    if draw(st.booleans()):
        obj["status"] = {"conditions": [{
            "type": draw(st.sampled_from(["PodGroupInitiallyScheduled", "DisruptionTarget"])),
            "status": "True", "reason": "Unschedulable", "message": "m",
            "lastTransitionTime": "2026-01-01T00:00:00Z"}]}
    return obj


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=podgroup_137(), mapping=st.sampled_from([2, 4]), offset=st.sampled_from([0, 2]))
def test_down_then_up_keeping_status_is_identity(obj, mapping, offset):
    text = _render(obj, mapping, offset, comment=False)
    down = invoke("-", "--to-k8s", "1.36", "--keep-status", input=text)
    assert down.exit_code == 0, down.stderr
    assert "PodGroupInitiallyScheduled" not in down.stdout
    up = invoke("-", "--to-k8s", "1.37", "--keep-status", input=down.stdout)
    assert up.exit_code == 0, up.stderr
    assert up.stdout == text

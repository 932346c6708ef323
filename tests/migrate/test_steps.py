"""The §8 steps on round-trip trees: moved fields keep their comments, in both directions."""

from __future__ import annotations

from wasplan.documents.roundtrip import Indent, dump_yaml, load_yaml
from wasplan.migrate.steps import StepContext, migrate_object

A2, B1 = "scheduling.k8s.io/v1alpha2", "scheduling.k8s.io/v1beta1"

PG_136 = """# top comment
apiVersion: scheduling.k8s.io/v1alpha2   # version
kind: PodGroup
metadata:
  name: pg  # name
spec:
  # ref to the workload
  podGroupTemplateRef:  # the ref
    workload:   # wl
      workloadName: train   # wname
      # template!
      podGroupTemplateName: workers  # tname
  # policy
  schedulingPolicy:
    gang: {minCount: 4}
  disruptionMode: PodGroup  # all of them
  # prio
  priority: 5
status:
  conditions:
  - type: PodGroupScheduled
    status: "True"   # st
# end comment
"""

PG_137 = """# top comment
apiVersion: scheduling.k8s.io/v1beta1   # version
kind: PodGroup
metadata:
  name: pg  # name
spec:
  # ref to the workload
  workloadRef:  # the ref  # wl
    workloadName: train   # wname
    # template!
    templateName: workers  # tname
  # policy
  schedulingPolicy:
    gang: {minCount: 4}
  disruptionMode:  # all of them
    all: {}
  # prio
  priority: 5
# end comment
"""


def _migrate(text: str, source: str, target: str, **ctx) -> tuple[str, list]:
    tree = load_yaml(text)
    changes: list = []
    migrate_object(tree, source, "PodGroup", target, StepContext(record=lambda *c: changes.append(c), **ctx))
    return dump_yaml(tree, Indent()), changes


def test_podgroup_up_keeps_every_comment_next_to_its_field():
    out, changes = _migrate(PG_136, A2, B1)
    assert out == PG_137
    assert [c[0] for c in changes] == [("spec", "disruptionMode"), ("spec", "podGroupTemplateRef"), ("status",),
                                       ("apiVersion",)]


def test_podgroup_down_restores_the_nesting():
    out, _ = _migrate(PG_137, B1, A2)
    assert "  podGroupTemplateRef:  # the ref  # wl\n    workload:\n      workloadName: train   # wname\n" \
           "      # template!\n      podGroupTemplateName: workers  # tname\n" in out
    assert "  disruptionMode: PodGroup  # all of them\n  # prio\n  priority: 5\n# end comment\n" in out


def test_keep_status_renames_the_condition_only():
    out, changes = _migrate(PG_136, A2, B1, keep_status=True)
    assert "  - type: PodGroupInitiallyScheduled\n    status: \"True\"   # st\n# end comment\n" in out
    assert (("status", "conditions", 0, "type"), "set", "PodGroupScheduled", "PodGroupInitiallyScheduled") in changes

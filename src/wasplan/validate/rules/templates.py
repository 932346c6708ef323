"""Rules for the pod templates inside workload kinds (Deployment, ReplicaSet, StatefulSet, JobSet,
LeaderWorkerSet): the same template checks a Job's template gets (rules/job.py) — `schedulingGroup` and resource
quantities, which the upstream schemas let through — at every template the controller makes pods from."""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.pod import check_scheduling_group
from wasplan.validate.rules.podspec import check_pod_spec
from wasplan.validate.rules.quantities import check_pod_quantities
from wasplan.validate.walk import mapping


def _pod_templates(doc: Document) -> list[tuple[dict, FieldPath]]:
    """(pod spec, its path) for each pod template of the workload."""
    spec = mapping(doc.obj.get("spec"))
    if doc.kind == "JobSet":
        rjobs = spec.get("replicatedJobs")
        return [(mapping(mapping(mapping(mapping(r).get("template")).get("spec")).get("template")).get("spec"),
                 ("spec", "replicatedJobs", i, "template", "spec", "template", "spec"))
                for i, r in enumerate(rjobs if isinstance(rjobs, list) else [])]
    if doc.kind == "LeaderWorkerSet":
        lwt = mapping(spec.get("leaderWorkerTemplate"))
        return [(mapping(mapping(lwt.get(key)).get("spec")), ("spec", "leaderWorkerTemplate", key, "spec"))
                for key in ("leaderTemplate", "workerTemplate") if isinstance(lwt.get(key), dict)]
    return [(mapping(mapping(spec.get("template")).get("spec")), ("spec", "template", "spec"))]


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for pod_spec, base in _pod_templates(doc):
        if isinstance(pod_spec, dict):
            out += check_scheduling_group(doc, pod_spec, base)
            out += check_pod_quantities(doc, pod_spec, base)
            out += check_pod_spec(doc, pod_spec, base, gates)
    return out

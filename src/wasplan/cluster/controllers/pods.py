"""Pods from a pod template, the way every workload controller makes them: the template is parsed once (with
findings pointing into the template) and each pod is a copy with its own name, labels, group and owner.

Copies share nothing mutable with the prototype, so a webhook-style mutation of one pod (JobSet's and
LeaderWorkerSet's exclusive-placement affinities) never leaks into its siblings.
"""

from __future__ import annotations

from dataclasses import replace

from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Owner, Pod, StartAfter
from wasplan.cluster.parse_pod import pod_from_parts


def prototype(meta: dict, spec: dict, ctx: Ctx) -> Pod:
    """The template parsed once; `ctx` points at the template (its `metadata` and `spec` are below it)."""
    proto = pod_from_parts(meta, spec, {}, ctx.at("metadata"), ctx.at("spec"), None)
    proto.template = (ctx.doc, ctx.prefix) if ctx.doc is not None else None
    return proto


def copy_pod(proto: Pod, name: str, labels: dict[str, str], pod_group: str | None, owner: Owner,
             start_after: StartAfter | None = None) -> Pod:
    """One pod of the workload: the prototype with its own name, labels, PodGroup and owner."""
    return replace(
        proto, name=name, labels=labels, requests=dict(proto.requests),
        non_zero_requests=dict(proto.non_zero_requests), node_selector=dict(proto.node_selector),
        pod_group=pod_group, owner=owner, source=None, start_after=start_after,
    )

"""Shell completion of values that depend on the inputs: `explain`'s TARGET, completed from the PodGroups,
Workloads, CompositePodGroups, Jobs and the workloads explain takes (JobSet, LeaderWorkerSet, Deployment,
StatefulSet, ReplicaSet; short names as in explain/target.py) of the manifests already on the command line. Reading them is the fast
read path only (no validation, no planning), and anything unreadable is skipped: completion never fails.
"""

from __future__ import annotations

from pathlib import Path

_TARGET_KINDS = {"PodGroup": "podgroup", "Workload": "workload", "CompositePodGroup": "compositepodgroup",
                 "Job": "job", "JobSet": "jobset", "LeaderWorkerSet": "lws", "Deployment": "deployment",
                 "StatefulSet": "statefulset", "ReplicaSet": "replicaset"}


def _paths_on_line(ctx) -> list[str]:
    words = [*(ctx.params.get("args") or ()), *getattr(ctx, "args", ())]
    return [w for w in words if w != "-" and Path(w).exists()]


def targets(paths: list[str]) -> list[str]:
    """`kind/name` of every object of `paths` that explain can take as TARGET, sorted, without repeats."""
    from wasplan.documents.reader import read_paths

    found = set()
    for doc in read_paths(paths).documents:
        kind = _TARGET_KINDS.get(doc.kind)
        if kind and doc.name:
            found.add(f"{kind}/{doc.name}")
    return sorted(found)


def complete_target(ctx, incomplete):
    """Typer autocompletion callback for explain's `[TARGET] PATH...` argument."""
    paths = _paths_on_line(ctx)
    if not paths:
        return []
    prefix = incomplete or ""
    return [t for t in targets(paths) if t.startswith(prefix)]

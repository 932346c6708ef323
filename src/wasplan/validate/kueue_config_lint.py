"""Kueue's Configuration against the other inputs (WAS450, WAS451).

A Kueue install reads one Configuration file (KDIR/cmd/kueue/main.go, `--config`), so two among the inputs are
ambiguous (WAS450; the plan reads the first, docs/kueue.md). Fair sharing is a Configuration switch
(KDIR/apis/config/v1beta2/configuration_types.go `fairSharing`; v1beta1 `fairSharing.enable`): with a
Configuration that leaves it off, the `spec.fairSharing.weight` of ClusterQueues and Cohorts is never read by the
scheduler (KDIR/pkg/scheduler/scheduler.go takes the classical path), which WAS451 says once per weighted object.
Without any Configuration among the inputs nothing is said here: Kueue's defaults (fair sharing off) may or may
not be the cluster's, and the plan names that (WAS692).
"""

from __future__ import annotations

from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping

CONFIG_GROUP = "config.kueue.x-k8s.io"
KUEUE_GROUP = "kueue.x-k8s.io"


def _enables_fair_sharing(doc: Document) -> bool:
    fs = doc.obj.get("fairSharing")
    if not isinstance(fs, dict):
        return False
    return fs.get("enable") is True if doc.version == "v1beta1" else True


def check_kueue_config(docs: list[Document]) -> list[Diagnostic]:
    configs = [d for d in docs if d.group == CONFIG_GROUP and d.kind == "Configuration" and isinstance(d.obj, dict)]
    if not configs:
        return []
    first = configs[0]
    out = [make(doc, "WAS450", f"a second Kueue Configuration among the inputs; Kueue reads one file, and the plan "
                               f"reads the first ({first.source}:{first.location(()).line})", ("kind",))
           for doc in configs[1:]]
    if _enables_fair_sharing(first):
        return out
    for doc in docs:
        if doc.group != KUEUE_GROUP or doc.kind not in ("ClusterQueue", "Cohort") or not isinstance(doc.obj, dict):
            continue
        weight = mapping(mapping(doc.obj.get("spec")).get("fairSharing")).get("weight")
        if weight is not None:
            out.append(make(doc, "WAS451", f"{doc.kind} {doc.name} sets a fair-sharing weight, but the Kueue "
                                           "Configuration among the inputs does not enable fair sharing: Kueue "
                                           "ignores the weight", ("spec", "fairSharing", "weight"),
                            "enable fair sharing in the Configuration (v1beta2: fairSharing.preemptionStrategies; "
                            "v1beta1: fairSharing.enable: true), or drop the weight"))
    return out

"""Kueue v0.17.0's admission, modelled offline: which queued workloads Kueue admits, on which flavors, whom it
preempts and why the rest wait, before their pods reach kube-scheduler.

The stage runs before the scheduler engine (docs/kueue.md): `KueueInputs.from_objects` reads Kueue's objects and
the objects carrying the queue-name label, `admit` runs Kueue's cycles until nothing changes, and the
`KueueResult` holds per workload its status, Kueue's reason and message, flavors per PodSet, and per ClusterQueue
its usage; `to_json()` is the plan JSON `kueue` block, the shape the Kueue oracle prints (oracle/kueue017).
What Kueue would do that the model does not is named in `KueueResult.not_modelled`, never guessed.

Modules, each citing the upstream file it follows: model (the objects), inputs (parsing, CRD defaults, v1beta1
conversion), config (Kueue's Configuration), requests (AdjustResources), jobs (Workloads from Jobs and JobSets, names), quota (the cohort tree),
assign (flavor assignment), preempt (classical preemption), fairshare and fairpreempt (fair sharing's
ordering and preemption, when the Configuration enables it), queues (queueing strategies), cycle (the scheduling
cycle and the controllers' reactions), result (outcomes and JSON).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import FRAMEWORKS
from .cycle import Run
from .inputs import KueueInputs
from .model import AdmissionChecks, KueueStatus
from .result import ClusterQueueOutcome, KueueResult, PodSetOutcome, WorkloadOutcome, build_result


@dataclass(frozen=True, slots=True)
class AdmissionPolicy:
    """How AdmissionChecks are taken offline: READY (their controllers say Ready; the default) or PENDING."""

    admission_checks: AdmissionChecks = AdmissionChecks.READY


def _not_modelled(inputs: KueueInputs) -> list[str]:
    out = []
    unsupported = sorted({ps.tas_unsupported for wl in inputs.workloads for ps in wl.pod_sets if ps.tas_unsupported})
    if unsupported:
        out.append(f"topology-aware scheduling of podset slices and PodSet groups ({', '.join(unsupported)}): "
                   f"such PodSets are placed as unconstrained")
    if inputs.unbuilt:
        out.append(f"the Workloads Kueue builds for {', '.join(sorted(inputs.unbuilt))} (an integration whose "
                   f"Workloads the model does not build): the quota they would hold or wait for is not counted")
    if inputs.fair_sharing and inputs.config is None:
        out.append("fair sharing (fairSharing weights, and no Kueue Configuration among the inputs to say whether "
                   "it is enabled): the classical ordering and preemption are used, as Kueue does with fair sharing "
                   "off")
    return out


def _config_not_modelled(inputs: KueueInputs) -> list[str]:
    config = inputs.config
    out = [f"Kueue's Configuration sets {what}" for what in config.not_modelled]
    kinds = sorted({wl.source.kind for wl in inputs.workloads if wl.source is not None
                    and config.unmanaged(FRAMEWORKS.get(wl.source.kind, ""))})
    for kind in kinds:
        out.append(f"Kueue's Configuration sets integrations.frameworks without {FRAMEWORKS[kind]}: Kueue manages "
                   f"no {kind}, and the model admits them as if it did")
    return out


def admit(inputs: KueueInputs, policy: AdmissionPolicy = AdmissionPolicy()) -> KueueResult:
    """Run Kueue's admission cycles over the inputs until nothing changes."""
    run = Run(inputs, policy.admission_checks)
    held = {wl.key for wl in inputs.workloads if wl.has_quota()}
    run.run()
    result = build_result(run, held)
    result.config_not_modelled = _config_not_modelled(inputs) if inputs.config is not None else []
    result.not_modelled = _not_modelled(inputs) + result.config_not_modelled + sorted(run.notes)
    result.not_built = list(inputs.not_built)
    if not run.settled:
        result.not_modelled.append(f"the run did not settle within {run.cycles} cycles")
    return result


__all__ = ["AdmissionChecks", "AdmissionPolicy", "ClusterQueueOutcome", "KueueInputs", "KueueResult",
           "KueueStatus", "PodSetOutcome", "WorkloadOutcome", "admit"]

"""The one vocabulary of explain's verdicts: what a target's explanation says (Fits, DoesNotFit, ...; JSON
`targets[].verdict`) and what the exact check says (DoesNotFit, FitsAndFound, ...; JSON `exact.verdict`), one
enum so the two never name the same thing twice. `TARGET` and `EXACT` are the members each may take.
"""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    FITS = "Fits"
    DOES_NOT_FIT = "DoesNotFit"
    BY_PREEMPTING = "FitsByPreempting"
    WAITING_FOR_PODS = "WaitingForPods"
    WAITING_FOR_GROUP = "WaitingForPodGroup"
    GATED = "SchedulingGated"
    WAITING_FOR_ADMISSION = "WaitingForAdmission"  # Kueue holds it (cluster/kueue.py); not a scheduling verdict
    FOUND = "FitsAndFound"  # exact: an assignment exists and the scheduler finds it
    MISSED = "FitsButMissed"  # exact: an assignment exists and the scheduler's order misses it
    UNKNOWN = "Unknown"  # exact: the solver ran out of its budget


TARGET = (Verdict.FITS, Verdict.DOES_NOT_FIT, Verdict.BY_PREEMPTING, Verdict.WAITING_FOR_PODS,
          Verdict.WAITING_FOR_GROUP, Verdict.GATED, Verdict.WAITING_FOR_ADMISSION)
EXACT = (Verdict.DOES_NOT_FIT, Verdict.FOUND, Verdict.MISSED, Verdict.UNKNOWN)

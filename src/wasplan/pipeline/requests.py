"""What a user asks of `plan` and `explain`, as one frozen record each: built once where the options are read
(the CLI, a test, a benchmark) and passed down whole, so the pipeline's functions take one argument instead of a
dozen loose ones that each layer had to forward by hand.

`PlanRequest` holds everything that decides a plan and its exit code: the inputs, the gates (and with them the
release), the arrival order, the scheduler configuration, preemption, how inputs are read and how the snapshot is
checked, Kueue's assumed admission, and the exit policy (`--fail-on`, `--strict`, `--baseline`). `ExplainRequest`
is a plan request and what explain adds: the TARGET, the node shapes to suggest, and the verification and exact
check budgets. How progress is shown is not part of a request: the use cases take it beside the request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from wasplan.api.releases import GateSet
from wasplan.documents.reader import ReadOptions
from wasplan.explain.exact.budget import DEFAULT_BUDGET as DEFAULT_EXACT_BUDGET
from wasplan.plan import Arrival, ClusterCheck, FailOn

# Verification re-runs per command. A count, not seconds, so the same inputs give the same explanation on any
# machine; 8 verifies every suggestion of benchmarks/explain.py's 5,000-node shapes (at most 7 re-runs there).
DEFAULT_VERIFY_BUDGET = 8


@dataclass(frozen=True)
class PlanRequest:
    """One `wasplan plan` (or the plan under an explain): positional like the command line, manifests, snapshots,
    gates; the rest by name. Paths are kept as tuples, whatever sequence they came in."""

    paths: Sequence[str]
    cluster_paths: Sequence[str]
    gates: GateSet
    arrival: Arrival = Arrival.SEQUENTIAL
    scheduler_config: str | None = None
    preemption: bool = True  # False: --no-preemption
    read_options: ReadOptions = ReadOptions()
    assume_admitted: bool = False  # what Kueue manages is planned as if admitted now (cluster/kueue.py)
    cluster_check: ClusterCheck = ClusterCheck.STORED
    fail_on: FailOn = FailOn.PENDING
    strict: bool = False  # a warning fails too
    baseline: str | None = None  # a Plan saved earlier, to diff against (--baseline)

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", tuple(self.paths))
        object.__setattr__(self, "cluster_paths", tuple(self.cluster_paths))

    @property
    def release(self) -> str:
        return self.gates.release.version


@dataclass(frozen=True)
class ExplainRequest:
    """One `wasplan explain`: the plan it explains, the TARGET (None: every pending workload) and its namespace,
    the node shapes file, and the budgets: at most `verify_budget` verification re-runs (0: no limit), at most
    `verify_seconds` of them (None or 0: no time limit), `exact_budget` seconds per exact-check question (None
    skips the check: --no-exact)."""

    plan: PlanRequest
    target: str | None = None
    namespace: str | None = None
    node_shape: str | None = None
    verify_budget: int = DEFAULT_VERIFY_BUDGET
    verify_seconds: float | None = None
    exact_budget: float | None = DEFAULT_EXACT_BUDGET

"""`wasplan explain` as a library call: the plan pipeline's inputs (pipeline/plan.py `prepare_plan`), one
engine run kept alive so its final state can be probed, the TARGET resolved against the inputs, then the
explanation. Returns data; never prints. Bad input or an unknown TARGET is an error (exit 2)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from wasplan.api.releases import GateSet
from wasplan.cluster.model import Node
from wasplan.diagnostics import Diagnostic
from wasplan.documents.reader import ReadOptions, read_paths
from wasplan.engine.simulator import Simulator
from wasplan.engine.status import reason_table
from wasplan.exitcodes import ExitCode
from wasplan.explain.evidence import Context
from wasplan.explain.exact.check import DEFAULT_BUDGET as DEFAULT_EXACT_BUDGET, ExactOptions
from wasplan.explain.model import Explanation
from wasplan.explain.run import explain_units
from wasplan.explain.rerun import Budget, Verifier
from wasplan.explain.target import TargetError, pending, resolve
from wasplan.plan import Arrival
from wasplan.pipeline.plan import PlanRun, Progress, quiet, prepare_plan, scheduling, with_unplanned


# Verification re-runs per command. A count, not seconds, so the same inputs give the same explanation on any
# machine; 8 verifies every suggestion of benchmarks/explain.py's 5,000-node shapes (at most 7 re-runs there).
DEFAULT_VERIFY_BUDGET = 8
BACKLOG_SUGGESTIONS = 5  # without a TARGET, targets unlike the first five get evidence but no (re-run) suggestions


@dataclass
class ExplainRun:
    run: PlanRun = field(default_factory=PlanRun)
    explanation: Explanation | None = None
    error: str | None = None
    refused: int = 0  # pods admission refuses (WAS630): never created, so nothing fits them

    def exit_code(self) -> ExitCode:
        if self.error or self.run.invalid or self.explanation is None:
            return ExitCode.TOOL_ERROR
        return ExitCode.OK if self.explanation.all_fit and not self.refused else ExitCode.FINDINGS


def node_shapes(path: str, gates: GateSet) -> list[Node]:
    """Node templates from a file: Node objects or Cluster kind pools (one template per pool)."""
    from wasplan.cluster.snapshot import records_of

    read = read_paths([path])
    diags: list[Diagnostic] = list(read.diagnostics) if hasattr(read, "diagnostics") else []
    shapes: dict[str, Node] = {}
    for doc in read.documents:
        for record in records_of(doc, gates, diags):
            if isinstance(record, Node):
                pool = record.labels.get("wasplan.io/node-pool", record.name)
                shapes.setdefault(pool, record)
    if not shapes:
        raise TargetError(f"WAS803 --node-shape {path} holds no Node object or Cluster node pool")
    return list(shapes.values())


class _Reporting(Verifier):
    """The verifier, counting its re-runs as the "verifying suggestions" phase, out of the run budget when there
    is one (the total is then known, and with it an ETA)."""

    def __init__(self, *args, progress: Progress = quiet) -> None:
        super().__init__(*args)
        self.progress = progress

    def places(self, unit, variant) -> bool:
        placed = super().places(unit, variant)
        self.progress("verifying suggestions", self.runs, self.budget.runs)
        return placed


def run_explain(target: str | None, namespace: str | None, paths: Sequence[str], cluster_paths: Sequence[str],
                gates: GateSet, *, arrival: Arrival = Arrival.SEQUENTIAL, scheduler_config: str | None = None,
                node_shape: str | None = None, preemption: bool = True,
                verify_budget: int = DEFAULT_VERIFY_BUDGET, verify_seconds: float | None = None,
                exact_budget: float | None = DEFAULT_EXACT_BUDGET, progress: Progress = quiet,
                read_options: ReadOptions = ReadOptions(), assume_admitted: bool = False,
                full_cluster_check: bool = False) -> ExplainRun:
    """`verify_budget`: at most that many verification re-runs (0: no limit); `verify_seconds`: also at most that
    many seconds of them, a re-run in progress stopped at the deadline (None or 0: no time limit);
    `exact_budget`: seconds per exact-check question (None skips the check: --no-exact)."""
    prepared = prepare_plan(paths, cluster_paths, gates, arrival=arrival, scheduler_config=scheduler_config,
                            preemption=preemption, progress=progress, read_options=read_options,
                            assume_admitted=assume_admitted, full_cluster_check=full_cluster_check)
    out = ExplainRun(prepared.run)
    if prepared.inputs is None:
        return out
    out.refused = len(prepared.inputs.refused)
    try:
        shapes = node_shapes(node_shape, gates) if node_shape else []
        units = resolve(target, namespace, prepared.inputs) if target else None
    except TargetError as exc:
        out.error = str(exc)
        return out
    with reason_table():  # one table for the plan, its probes and every verification re-run
        sim = Simulator(prepared.inputs, prepared.options, scheduling(progress))
        plan, final = sim.run()
        plan = with_unplanned(plan, prepared.inputs)
        out.run.plan, out.run.final = plan, final
        budget = Budget(verify_budget or None, verify_seconds or None)
        verifier = _Reporting(prepared.inputs, prepared.options, sim.state, budget, progress=progress)
        progress("verifying suggestions", 0, budget.runs)
        ctx = Context(prepared.inputs, sim, plan, verifier, prepared.documents, shapes,
                      prepared.kueue.documents if prepared.kueue is not None else [])
        exact = ExactOptions(exact_budget, scheduler_config) if exact_budget is not None else None
        explanation = explain_units(ctx, units, exact=exact) if units is not None else \
            explain_units(ctx, pending(plan), BACKLOG_SUGGESTIONS, exact=exact)
        # without a TARGET the whole input was asked about, so what could not be looked at is part of the answer
        out.explanation = replace(explanation, unplanned=plan.unplanned) if units is None else explanation
    return out

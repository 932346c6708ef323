"""`wasplan plan` as a library call: read and validate the inputs, build the cluster records, load the
scheduler profile, simulate. Returns data; never prints. Invalid input stops before simulating (exit 2)."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import yaml

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, Severity, sort_diagnostics
from wasplan.documents.reader import read_paths
from wasplan.engine.config import ConfigError, profiles_from_config
from wasplan.engine.options import EngineOptions
from wasplan.engine.outcome import FinalCluster
from wasplan.engine.simulator import simulate
from wasplan.exitcodes import ExitCode
from wasplan.pipeline.validate import validate_read
from wasplan.plan import Plan


@dataclass
class PlanRun:
    plan: Plan | None = None
    final: FinalCluster | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict = field(default_factory=dict)
    error: str | None = None  # a problem that is not tied to a document (bad --scheduler-config)

    @property
    def invalid(self) -> bool:
        return self.error is not None or any(d.severity is Severity.ERROR for d in self.diagnostics)

    def exit_code(self, fail_on: str) -> ExitCode:
        if self.invalid or self.plan is None:
            return ExitCode.TOOL_ERROR
        # thresholds: never < pending < preemption (which also fails on pods left pending)
        if fail_on in ("pending", "preemption") and not self.plan.all_placed:
            return ExitCode.FINDINGS
        if fail_on == "preemption" and self.plan.preemptions:
            return ExitCode.FINDINGS
        return ExitCode.OK


def load_profiles(path: str | None):
    if not path:
        return profiles_from_config(None)
    try:
        with open(path, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read scheduler config {path}: {exc}") from exc
    if not isinstance(doc, dict):
        raise ConfigError(f"{path} is not a KubeSchedulerConfiguration")
    return profiles_from_config(doc)


@dataclass
class Prepared:
    """What a simulation starts from, for use cases that run the engine themselves (explain re-runs it)."""

    run: PlanRun
    inputs: PlanInputs | None = None
    options: EngineOptions | None = None
    documents: list = field(default_factory=list)  # every read document, manifests then snapshot


def prepare_plan(paths: Sequence[str], cluster_paths: Sequence[str], gates: GateSet, *, arrival: str = "sequential",
                 scheduler_config: str | None = None, preemption: bool = True) -> Prepared:
    """Read, validate and build the engine's inputs; `run.invalid` tells whether simulating makes sense."""
    from wasplan.cluster.snapshot import build_inputs  # the parse layer

    run = PlanRun()
    try:
        profiles = load_profiles(scheduler_config)
    except ConfigError as exc:
        run.error = str(exc)
        return Prepared(run)
    manifests, snapshot = read_paths(list(paths)), read_paths(list(cluster_paths))
    for read in (snapshot, manifests):
        report = validate_read(read, gates)
        run.diagnostics += report.diagnostics
        run.sources.update(report.sources)
    if run.invalid:
        run.diagnostics = sort_diagnostics(run.diagnostics)
        return Prepared(run)
    inputs, diags = build_inputs(snapshot, manifests, gates)
    run.diagnostics = sort_diagnostics(run.diagnostics + diags)
    if run.invalid:
        return Prepared(run)
    options = EngineOptions(gates=gates, arrival=arrival, profiles=profiles, preemption=preemption)
    return Prepared(run, inputs, options, [*manifests.documents, *snapshot.documents])


def run_plan(paths: Sequence[str], cluster_paths: Sequence[str], gates: GateSet, *, arrival: str = "sequential",
             scheduler_config: str | None = None, progress: Callable[[int, int], None] | None = None,
             preemption: bool = True) -> PlanRun:
    prepared = prepare_plan(paths, cluster_paths, gates, arrival=arrival, scheduler_config=scheduler_config,
                            preemption=preemption)
    run = prepared.run
    if prepared.inputs is None:
        return run
    with _inputs_frozen():
        run.plan, run.final = simulate(prepared.inputs, prepared.options, progress)
    return run


@contextmanager
def _inputs_frozen() -> Iterator[None]:
    """The read documents and records stay alive through the simulation and outnumber what it allocates; the
    cyclic collector would rescan them at every full collection (about half of a 10,000-claim DRA plan's time).
    Move them out of its view for the simulation (gc.freeze) and back afterwards."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()

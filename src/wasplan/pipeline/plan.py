"""`wasplan plan` as a library call: read and validate the inputs, build the cluster records, load the
scheduler profile, simulate. Returns data; never prints. Invalid input stops before simulating (exit 2)."""

from __future__ import annotations

import dataclasses
import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from wasplan.cluster.model import PlanInputs
from wasplan.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from wasplan.documents.reader import read_bytes, read_paths
from wasplan.documents.sources import read_file
from wasplan.engine.profile.config import ConfigError, profiles_from_config
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.result.outcome import FinalCluster, refused_outcome
from wasplan.engine.simulator import simulate
from wasplan.engine.pluginapi.status import reason_table
from wasplan.pipeline.kueue_stage import disagreements, run_stage
from wasplan.pipeline.validate import note_no_input, validate_read
from wasplan.documents.sources import STDIN_NAME
from wasplan.pipeline.requests import PlanRequest
from wasplan.plan import ClusterCheck, Plan, Provenance, UnplannedWorkload


@dataclass
class PlanRun:
    """What one `plan` run produced: the plan, the cluster after it, the findings and the inputs read."""

    plan: Plan | None = None
    final: FinalCluster | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict = field(default_factory=dict)
    error: str | None = None  # a problem that is not tied to a document (bad --scheduler-config)
    # where each input object is written, (kind, namespace, name) -> Location, for annotations and JUnit
    origins: dict[tuple[str, str, str], Location] = field(default_factory=dict)
    files: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # (manifests, snapshots) as read, for producedBy

    @property
    def invalid(self) -> bool:
        return self.error is not None or any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def draws_preemption(self) -> bool:
        """An alternative of a tie preempts (docs/plan-json.md "Ties"): kube-scheduler may draw it, so
        `--fail-on preemption` counts it even where the plan's own choice evicts nothing."""
        return any(a.victims for _, _, alternatives, _ in self.plan.ties() for a in alternatives)


def load_profiles(path: str | None, release: str | None = None):
    """The scheduler profiles of a KubeSchedulerConfiguration file, read like every other input: a regular
    file only, within the reader's limits, plain-data tags only. With `release`, every plugin name must be one
    of that release's in-tree plugins (engine/profile/plugin_names.py)."""
    if not path:
        return profiles_from_config(None)
    data, problem = read_file(path)
    if problem is not None:
        raise ConfigError(f"cannot read scheduler config: {problem.message}")
    read = read_bytes(path, data)
    errors = [d for d in read.diagnostics if d.severity is Severity.ERROR]
    if errors:
        where = f":{errors[0].location.line}" if errors[0].location.line else ""
        raise ConfigError(f"cannot read scheduler config {path}{where}: {errors[0].message}")
    if len(read.documents) != 1:
        raise ConfigError(f"{path} is not a KubeSchedulerConfiguration")
    if release is not None:
        _check_plugin_names(read.documents[0], release)
    try:
        return profiles_from_config(read.documents[0].obj)
    except ConfigError:
        raise
    except (AttributeError, TypeError, ValueError, KeyError) as exc:  # a field of the wrong type or shape
        raise ConfigError(f"{path} is not a valid KubeSchedulerConfiguration: {type(exc).__name__}: {exc}") from exc


def _check_plugin_names(doc, release: str) -> None:
    """The first plugin name the release's registry does not hold, as `FILE:LINE:COL: CODE message` (exit 2)."""
    from wasplan.api.releases import capabilities
    from wasplan.engine.profile import plugin_names

    found = plugin_names.unknown_plugins(doc.obj, capabilities(release).in_tree_plugins)
    if not found:
        return
    first = found[0]
    profile = doc.obj["profiles"][first.path[1]]
    scheduler = profile.get("schedulerName") if isinstance(profile.get("schedulerName"), str) else None
    where = doc.location(first.path)
    more = f" ({len(found) - 1} more unknown plugin name{'s' if len(found) > 2 else ''})" if len(found) > 1 else ""
    raise ConfigError(f"{where.file}:{where.line}:{where.col}: {first.code} "
                      f"{plugin_names.message(first, release, scheduler or 'default-scheduler')}{more}")


@dataclass
class Prepared:
    """What a simulation starts from, for use cases that run the engine themselves (explain re-runs it)."""

    run: PlanRun
    inputs: PlanInputs | None = None
    options: EngineOptions | None = None
    documents: list = field(default_factory=list)  # every read document, manifests then snapshot
    kueue: Any = None  # the Kueue stage (pipeline/kueue_stage.py), when the inputs hold a ClusterQueue


# progress(phase, done, total): the phase being worked on ("reading", "checking", "building the cluster",
# "scheduling", ...), how far it is, and its total once known (None before); "reading FILE" counts bytes
Progress = Callable[[str, int, "int | None"], None]


def quiet(phase: str, done: int, total: int | None) -> None:
    """The progress report of runs nobody watches."""


def _name_generated(snapshot, manifests, run: PlanRun) -> None:
    """Objects named only by generateName get their deterministic name before validation reads them, so every
    message uses it (cluster/generated_names.py)."""
    from wasplan.cluster.controllers.names import Namer
    from wasplan.cluster.generated_names import give_generated_names

    namer = Namer()
    for read in (snapshot, manifests):
        give_generated_names(read.documents, namer, run.diagnostics)


def origins(documents) -> dict[tuple[str, str, str], Location]:
    """The manifest line of every named object; the namespace defaults like the planner's (`default`)."""
    out: dict[tuple[str, str, str], Location] = {}
    for doc in documents:
        if doc.name:
            out.setdefault((doc.kind, doc.namespace or "default", doc.name), doc.location())
    return out


def prepare_plan(request: PlanRequest, progress: Progress = quiet) -> Prepared:
    """Read, validate and build the engine's inputs; `run.invalid` tells whether simulating makes sense.
    `request.assume_admitted`: what Kueue manages is planned as if admitted now (cluster/kueue.py).
    The snapshot's objects are checked for what the planner relies on (an API server accepted them already:
    validate/checker.py `check_stored`), or like manifests with `ClusterCheck.FULL` (`--validate-cluster full`)."""
    from wasplan.cluster.capacity import capacity_findings
    from wasplan.cluster.snapshot import build_inputs  # the parse layer

    progress("reading", 0, None)
    run = PlanRun()
    gates = request.gates
    try:
        profiles = load_profiles(request.scheduler_config, request.release)
    except ConfigError as exc:
        run.error = str(exc)
        return Prepared(run)
    def reading(name: str, done: int, total: int) -> None:
        progress(f"reading {name}", done, total)

    manifests = read_paths(list(request.paths), options=request.read_options, progress=reading)
    snapshot = read_paths(list(request.cluster_paths), progress=reading)
    note_no_input(manifests, request.paths, empty_files_count=True)
    run.diagnostics += unbuilt_kustomizations(manifests)
    run.files = (_shown(manifests), _shown(snapshot))
    _name_generated(snapshot, manifests, run)
    reads = ((snapshot, request.cluster_check == ClusterCheck.STORED), (manifests, False))
    total = sum(len(read.documents) for read, _ in reads)
    done = 0
    progress("checking", done, total)
    for read, stored in reads:
        report = validate_read(read, gates, stored=stored)
        done += len(read.documents)
        progress("checking", done, total)
        run.diagnostics += report.diagnostics
        run.sources.update(report.sources)
    if run.invalid:
        run.diagnostics = sort_diagnostics(run.diagnostics)
        return Prepared(run)
    kueue = run_stage(snapshot.documents, manifests.documents, request.assume_admitted)
    progress("building the cluster", 0, None)
    inputs, diags = build_inputs(snapshot, manifests, gates, request.assume_admitted,
                                 kueue.decisions if kueue is not None else None,
                                 kueue.evictions if kueue is not None else None)
    if kueue is not None:
        diags += kueue.diagnostics
    capacity_findings(inputs.existing, sorted(snapshot.sources), diags)
    run.diagnostics = sort_diagnostics(run.diagnostics + diags)
    if run.invalid:
        return Prepared(run)
    options = EngineOptions(gates=gates, arrival=request.arrival, profiles=profiles, preemption=request.preemption)
    run.origins = origins(manifests.documents)
    return Prepared(run, inputs, options, [*manifests.documents, *snapshot.documents], kueue)


def unbuilt_kustomizations(read) -> list[Diagnostic]:
    """WAS034 for each kustomization among the inputs that only `kubectl kustomize` can build
    (documents/kustomize.py): planning its files as they are would plan something kustomize never emits."""
    from wasplan.codes import lookup

    out = []
    for need in read.kustomize_builds:
        more = f" (also {', '.join(need.others)})" if need.others else ""
        out.append(Diagnostic(
            "WAS034", lookup("WAS034").severity,
            f"kustomization not built: {need.field}: {need.detail}{more}; wasplan does not build kustomizations, "
            "and planning its files as they are would not plan what kustomize emits",
            Location(need.kustomization, None, (need.field,), need.line, need.col),
            f"build it first: `kubectl kustomize {need.directory} | wasplan plan -` (or `wasplan explain TARGET -`, "
            f"with your other flags), and leave {need.directory} out of the inputs"))
    return out


def _shown(read) -> tuple[str, ...]:
    """The files a read took in, in reading order, stdin as the `-` that names it on a command line."""
    return tuple("-" if name == STDIN_NAME else name for name in read.sources)


def provenance(run: PlanRun, request: PlanRequest) -> Provenance:
    from wasplan import __version__

    release = request.gates.release
    return Provenance(__version__, tuple(sorted(request.gates.values.items())), request.arrival, request.preemption,
                      *run.files, request.scheduler_config, release.upstream_version, release.prerelease)


def scheduling(progress: Progress) -> Callable[[int, int], None]:
    """The engine's arrival counter as the "scheduling" phase."""
    return lambda done, total: progress("scheduling", done, total)


def run_plan(request: PlanRequest, progress: Progress = quiet) -> PlanRun:
    prepared = prepare_plan(request, progress)
    run = prepared.run
    if prepared.inputs is None:
        return run
    with reason_table(), _inputs_frozen():  # the reasons this run makes up are dropped with it
        plan, run.final = simulate(prepared.inputs, prepared.options, scheduling(progress))
    run.plan = dataclasses.replace(with_kueue(with_unplanned(plan, prepared.inputs), prepared.kueue),
                                   produced_by=provenance(run, request))
    found = stranded_warnings(run.final.stranded, run.origins, request.release)
    found += sampling_warnings(run.final.sampled, run.origins, request.release)
    if prepared.kueue is not None:
        found += disagreements(prepared.kueue, run.plan, run.origins)
    run.diagnostics = sort_diagnostics(run.diagnostics + found)
    return run


STRANDED_WHY = ("kube-scheduler {release} binds it there as the plan shows, but the kubelet cannot prepare the claim "
                "on that node and the pod does not start (kubernetes/kubernetes#140087, fixed in 1.37 by #140089)")


def stranded_warnings(stranded, origins: dict, release: str) -> list[Diagnostic]:
    """WAS710 for each pod bound to a node its allocated devices cannot reach (engine draworld.stranded), at the
    pod's manifest line (the file list when a controller made it)."""
    out = []
    for pod_key, node, claim_key in stranded:
        namespace, _, name = pod_key.partition("/")
        where = origins.get(("Pod", namespace, name)) or Location("<plan>")
        out.append(Diagnostic("WAS710", Severity.WARNING,
                              f"pod {pod_key} is bound to {node}, where the devices allocated to ResourceClaim "
                              f"{claim_key} are not available", where,
                              STRANDED_WHY.format(release=release), {"pod": pod_key, "node": node, "claim": claim_key}))
    return out


def with_kueue(plan: Plan, stage) -> Plan:
    """The plan with the Kueue stage's block and not-modelled list (pipeline/kueue_stage.py), when it ran."""
    if stage is None:
        return plan
    return dataclasses.replace(plan, kueue=stage.block,
                               kueue_not_modelled=(*stage.result.not_modelled, *stage.unfound))


def sampling_warnings(sampled, origins: dict, release: str) -> list[Diagnostic]:
    """WAS730 for each group whose topology placement search the release's scheduler would cut short (adaptive
    placement sampling; engine placement.sampling), at the group's manifest line."""
    out = []
    for kind, key, count, found in sampled:
        namespace, _, name = key.partition("/")
        where = origins.get((kind, namespace, name)) or Location("<plan>")
        out.append(Diagnostic(
            "WAS730", Severity.WARNING,
            f"{kind} {key}: kube-scheduler {release} samples placements and would stop after {found} feasible of "
            f"its {count}, tried in random order; wasplan scored all {count}", where,
            "the plan is what percentageOfPlacementsToScore: 100 gives; with the default (adaptive) the chosen "
            "domain may be another feasible one", {"kind": kind, "group": key, "placements": count, "stopAfter": found}))
    return out


def with_unplanned(plan: Plan, inputs) -> Plan:
    """The plan with the input's workloads that could not be expanded and the pods admission refused (the engine
    sees neither); every pod of the input stays in `pods` exactly once, sorted by namespace/name."""
    listed = tuple(UnplannedWorkload(u.kind, u.namespace, u.name, u.api_version,
                                     "-" if u.file == STDIN_NAME else u.file, u.line) for u in inputs.unplanned)
    if listed:
        plan = dataclasses.replace(plan, unplanned=listed)
    if not inputs.refused:
        return plan
    refused = [refused_outcome(r.pod, r.message) for r in inputs.refused]
    pods = tuple(sorted((*plan.pods, *refused), key=lambda p: (p.namespace, p.name)))
    return dataclasses.replace(plan, pods=pods)


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

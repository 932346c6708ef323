"""`wasplan explain`: options -> pipeline -> report -> exit code. Thin on purpose."""

from __future__ import annotations

from typing import List, Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import (FeatureGatesOpt, K8sVersionOpt, OutputFormat, fail, fail_with_diagnostics,
                                print_diagnostics, resolve_gates)
from wasplan.cli.completion import complete_target
from wasplan.cli.options import ConfigOpt, ExcludeOpt, NoConfigOpt, StrictInputsOpt, as_format, output_option
from wasplan.cli.plan_cmd import AssumeAdmittedOpt, ClusterOpt, ValidateClusterOpt, plan_settings
from wasplan.plan import Arrival, ClusterCheck
from wasplan.cli.progress import phase_bar
from wasplan.explain.target import KINDS
from wasplan.pipeline.exits import explain_exit_code
from wasplan.pipeline.explain import run_explain
from wasplan.pipeline.requests import DEFAULT_EXACT_BUDGET, DEFAULT_VERIFY_BUDGET, ExplainRequest, PlanRequest
from wasplan.report.explain_json import render_explain_json
from wasplan.report.explain_text import render_explain_text

ExplainFormat, OutputOpt = output_option("explain", OutputFormat.text, OutputFormat.json)


@app.command()
def explain(
    args: List[str] = typer.Argument(..., metavar="[TARGET] PATH...", autocompletion=complete_target,
                                    help="TARGET: podgroup/NAME, workload/NAME, job/NAME, pod/NAME, "
                                         "compositepodgroup/NAME or a workload (jobset/NAME, lws/NAME, "
                                         "deployment/NAME, statefulset/NAME, replicaset/NAME); then the manifests."),
    cluster: List[str] = ClusterOpt,
    namespace: Optional[str] = typer.Option(None, "-n", "--namespace", metavar="NAMESPACE",
                                            help="Namespace of TARGET."),
    k8s_version: Optional[str] = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    arrival: Arrival = typer.Option(Arrival.SEQUENTIAL, "--arrival", help="As for plan."),
    scheduler_config: Optional[str] = typer.Option(None, "--scheduler-config", metavar="FILE",
                                                   help="KubeSchedulerConfiguration file."),
    node_shape: Optional[str] = typer.Option(None, "--node-shape", metavar="FILE",
                                             help="Node or Cluster kind file: the shapes to suggest adding."),
    output: ExplainFormat = OutputOpt,
    no_preemption: bool = typer.Option(False, "--no-preemption", help="As for plan: no preemption in the plan "
                                       "or in the verification re-runs."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="One block per target and every pod named, "
                                                               "instead of identical blocks collapsed."),
    verify_budget: int = typer.Option(DEFAULT_VERIFY_BUDGET, "--verify-budget", min=0, metavar="RUNS",
                                      help="Verification re-runs to make at most (0: no limit)."),
    verify_seconds: Optional[float] = typer.Option(None, "--verify-seconds", min=0, metavar="SECONDS",
                                                   help="Also stop verifying after this many seconds "
                                                        "(machine-dependent; default: no time limit)."),
    assume_admitted: bool = AssumeAdmittedOpt,
    validate_cluster: ClusterCheck = ValidateClusterOpt,
    no_exact: bool = typer.Option(False, "--no-exact", help="Skip the exact check (could any assignment fit?)."),
    exact_budget: float = typer.Option(DEFAULT_EXACT_BUDGET, "--exact-budget", min=0.1,
                                       help="Seconds the exact check's solver may spend per question."),
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Why a gang won't fit, and the smallest change (verified by re-planning) that makes it fit.

    Examples:

    \b
      wasplan explain --cluster cluster.yaml manifests/
      wasplan explain job/trainer --cluster cluster.yaml manifests/
      wasplan explain podgroup/ml/workers --cluster cluster.yaml -o json \\
          manifests/
    """
    fmt = as_format(output)
    settings = plan_settings(k8s_version, feature_gates, cluster, None, strict_inputs, exclude, config, no_config)
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    target = args[0] if args and args[0].split("/")[0].lower() in KINDS and not _is_path(args[0]) else None
    paths = args[1:] if target else args
    if not paths:
        fail("explain needs manifests to plan: wasplan explain [TARGET] PATHS --cluster SNAPSHOT")
    request = ExplainRequest(
        PlanRequest(paths, settings.cluster, gates, arrival=arrival, scheduler_config=scheduler_config,
                    preemption=not no_preemption, read_options=settings.read_options(),
                    assume_admitted=assume_admitted, cluster_check=validate_cluster),
        target, namespace, node_shape, verify_budget=verify_budget, verify_seconds=verify_seconds,
        exact_budget=None if no_exact else exact_budget)
    with phase_bar() as progress:
        out = run_explain(request, *([progress] if progress else []))
    if out.run.error or out.error:
        fail(out.run.error or out.error)
    if out.run.invalid:
        fail_with_diagnostics(out.run.diagnostics, out.run.sources,
                              message="the inputs are invalid; nothing was planned or explained")
    if out.run.diagnostics:
        print_diagnostics(out.run.diagnostics, out.run.sources)
    if out.explanation is not None:
        if fmt is OutputFormat.json:
            typer.echo(render_explain_json(out.explanation), nl=False)
        else:
            render_explain_text(out.explanation, terminal.console(), verbose=verbose)
    raise typer.Exit(int(explain_exit_code(out)))


def _is_path(text: str) -> bool:
    import os

    try:
        return os.path.lexists(text)
    except (OSError, ValueError):  # a name too long for a path, or one with a NUL byte: not a path
        return False

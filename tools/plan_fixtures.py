"""Plan every fixture scenario and write each plan's JSON, exit code and findings into one directory, so that two
trees (a base commit and a change) can be compared byte for byte with `diff -r`.

    PYTHONPATH=src python tools/plan_fixtures.py OUT [MANIFESTS:CLUSTER ...]

The scenarios are every directory of fixtures/ holding a cluster.yaml, planned with each other YAML file and
subdirectory beside it (tests/engine/test_memo_differential.py's CORPUS; the test dependencies must be installed), the kubectl snapshot fixture with
the training manifests, and any MANIFESTS:CLUSTER pairs given (e.g. benchmarks/bigdump.py's dump), each on
every release. Run it with the PYTHONPATH of the tree to measure; the script itself only uses `run_plan`.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def scenarios() -> list[tuple[Path, Path]]:
    """(manifests, cluster) pairs: the differential tests' corpus, and the kubectl snapshot fixture."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # as tests/conftest.py sets it up
    from tests.engine.test_memo_differential import CORPUS

    out = [(manifests, cluster) for cluster, manifests in CORPUS]
    snapshot = FIXTURES / "clusters" / "kubectl-snapshot.yaml"
    for manifests in (FIXTURES / "manifests" / "training-1.37.yaml", FIXTURES / "examples" / "training"):
        out.append((manifests, snapshot))
    return out


def main(argv: list[str]) -> None:
    from wasplan.api.releases import RELEASES, parse_gates
    from wasplan.pipeline.exits import plan_exit_code
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest
    from wasplan.report.plan_json import render_plan_json

    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    pairs = scenarios() + [tuple(Path(p) for p in extra.split(":", 1)) for extra in argv[1:]]
    for manifests, cluster in pairs:
        for version in sorted(RELEASES):
            gates = parse_gates(RELEASES[version], None)
            request = PlanRequest([str(manifests)], [str(cluster)], gates)
            run = run_plan(request)
            name = f"{manifests}@{cluster}".replace(str(ROOT) + "/", "").replace("/", "_") + f".{version}"
            plan = render_plan_json(run.plan) if run.plan is not None else "(no plan)\n"
            findings = "".join(f"{d.code} {d.severity.value} {d.location.file}:{d.location.line}:"
                               f"{d.location.col} {d.message}\n" for d in run.diagnostics)
            (out / f"{name}.json").write_text(plan)
            (out / f"{name}.findings").write_text(f"exit {int(plan_exit_code(run, request))}\nerror {run.error}\n"
                                                  + findings)
            print(f"{name}: exit {int(plan_exit_code(run, request))}, {len(run.diagnostics)} findings", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

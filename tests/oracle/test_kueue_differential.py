"""wasplan's Kueue admission against Kueue v0.17.0's own (the Kueue oracle, oracle/bin/oracle-kueue) on generated
cases (gen/kueue.py).

Each case goes through the oracle twice (its output must be the same: the generator gives every workload a
distinct creation timestamp, so Kueue's order is total; a message built from a Go map may differ, and such a
workload's message is then compared on its first part only) and through `wasplan plan -o json`; the two `kueue`
blocks are compared per workload (kueuecompare.py): status, ClusterQueue, flavor per resource per PodSet, counts,
reason and message, borrowing, preemptor, TAS domains as a multiset; and per ClusterQueue its usage. A case that
disagrees is planned by the oracle up to TIE_RERUNS more times: workloads requeued in the same cycle share a
queue timestamp, Kueue orders heads across ClusterQueues without a final tiebreak (pkg/scheduler/scheduler.go),
so such a tie may go either way, and wasplan's plan counts as agreeing when one of the oracle's does. The same
reruns catch a pending message that names the first failing resource group Kueue met in Go map order, which two
runs may not show to vary when there are three or more forms.

The default run is bounded for CI's oracle stage (DEFAULT_CASES); `--oracle-long` (or WASPLAN_ORACLE_LONG=1) runs
LONG_CASES; WASPLAN_KUEUE_CASES=N sets the number by hand. The cases that disagree today are listed, with their
cause, in kueue_known_divergences.txt: the run fails on any other, and names listed ones that now agree. A
disagreeing case keeps its files in pytest's temporary directory; the failure prints seed, paths and the
differences. Without the oracle, or without wasplan's Kueue model (src/wasplan/kueue), the tests are skipped and
the session says why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from . import kueuecompare
from .gen import kueue as kgen
from .test_kueue_oracle import kueue_oracle, session_skips  # noqa: F401  (the fixture: the binary, or a skip)

DEFAULT_CASES, LONG_CASES = 80, 1000
TIE_RERUNS = 10  # a message Kueue builds in Go map order over several resource groups takes one of several forms
KNOWN_FILE = Path(__file__).with_name("kueue_known_divergences.txt")


def case_count(long: bool) -> int:
    if os.environ.get("WASPLAN_KUEUE_CASES"):
        return int(os.environ["WASPLAN_KUEUE_CASES"])
    return LONG_CASES if long else DEFAULT_CASES


def known_divergences() -> dict[str, str]:
    """seed label -> cause, from kueue_known_divergences.txt (`seed=N theme=T  # cause`)."""
    lines = KNOWN_FILE.read_text().splitlines() if KNOWN_FILE.exists() else []
    out = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            label, _, cause = line.partition("#")
            out[label.strip()] = cause.strip()
    return out


def oracle_block(binary: Path, manifests: Path, cluster: Path) -> dict:
    proc = subprocess.run([str(binary), "plan", str(manifests), "--cluster", str(cluster)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, f"oracle-kueue failed (exit {proc.returncode}) on {manifests}: {proc.stderr[-2000:]}"
    return json.loads(proc.stdout)["kueue"]


def wasplan_block(manifests: Path, cluster: Path) -> dict:
    """`wasplan plan MANIFESTS --cluster CLUSTER -o json`, the real CLI in-process; its `kueue` block."""
    from typer.testing import CliRunner

    from wasplan.cli.app import app
    from wasplan.cli.lazy import load_all

    load_all()
    result = CliRunner().invoke(app, ["plan", str(manifests), "--cluster", str(cluster), "-o", "json"],
                                catch_exceptions=False)
    assert result.exit_code in (0, 1), f"wasplan plan exited {result.exit_code} on {manifests}:\n{result.output[-2000:]}"
    plan = json.loads(result.stdout)
    assert "kueue" in plan, f"wasplan's plan of {manifests} has no kueue block though the inputs hold a ClusterQueue"
    return plan["kueue"]


@pytest.fixture(scope="module")
def wasplan_models_kueue(request):
    if importlib.util.find_spec("wasplan.kueue") is None:
        reason = "wasplan has no Kueue admission model on this branch (src/wasplan/kueue)"
        skips = session_skips(request.config)
        if reason not in skips:
            skips.append(reason)
        pytest.skip(f"Kueue differential skipped: {reason}")


def test_generated_cases_are_deterministic_in_the_oracle(kueue_oracle, tmp_path):  # noqa: F811
    """The generator's promise, checked on one case per theme: the oracle settles and gives the same plan twice
    (messages built from a Go map aside)."""
    for seed in range(len(kgen.THEMES)):
        case = kgen.generate(seed)
        manifests, cluster = case.write(tmp_path / f"seed-{seed}")
        first, again = (oracle_block(kueue_oracle, manifests, cluster) for _ in range(2))
        unstable = kueuecompare.unstable_messages([first, again])
        assert kueuecompare.differences(first, again, unstable) == [], case.label
        assert first["workloads"], case.label


def test_kueue_admission_agrees_with_kueue(kueue_oracle, wasplan_models_kueue, oracle_long,  # noqa: F811
                                           tmp_path_factory):
    root = tmp_path_factory.mktemp("kueue-differential")
    cases = [kgen.generate(seed) for seed in range(case_count(oracle_long))]
    paths = [case.write(root / f"seed-{case.seed}") for case in cases]
    known = known_divergences()
    tally: Counter = Counter()
    failures, disagreeing = [], []
    with ThreadPoolExecutor(max_workers=1) as pool:  # the oracle runs while wasplan plans the case before
        runs = [pool.submit(lambda m, c: [oracle_block(kueue_oracle, m, c) for _ in range(2)], m, c)
                for m, c in paths]
        for case, (manifests, cluster), future in zip(cases, paths, runs):
            ours = wasplan_block(manifests, cluster)
            theirs = future.result()
            unstable = kueuecompare.unstable_messages(theirs)
            diffs = kueuecompare.differences(ours, theirs[0], unstable)
            tally["cases"] += 1
            tally[f"{case.theme} cases"] += 1
            tally["unstable"] += bool(unstable)
            if diffs and _tie_went_the_other_way(kueue_oracle, manifests, cluster, ours, unstable):
                diffs, tally["tie"] = [], tally["tie"] + 1
            if not diffs:
                tally["agree"] += 1
                tally[f"{case.theme} agree"] += 1
                shutil.rmtree(manifests.parent)
                continue
            disagreeing.append(case.label)
            if case.label not in known:
                failures.append(f"{case.label} ({manifests.parent}):\n  " + "\n  ".join(diffs[:12]))
    summary = (f"Kueue differential: {tally['cases']} cases, {tally['agree']} agree ({tally['tie']} on a tie "
               f"another oracle run broke wasplan's way; {tally['unstable']} with a message built from a Go map); "
               "by theme " + ", ".join(f"{t} {tally[t + ' agree']}/{tally[t + ' cases']}" for t in kgen.THEMES
                                       if tally[t + " cases"]))
    (root / "summary.txt").write_text(summary + "\n")
    print(summary)
    assert not failures, ("\n\n".join(failures[:8]) + f"\n\n{len(failures)} of {len(cases)} cases disagree beyond "
                          f"the {len(known)} listed in {KNOWN_FILE.name}; {summary}")
    now_agree = sorted(set(known) & {c.label for c in cases} - set(disagreeing))
    if now_agree:
        print(f"listed in {KNOWN_FILE.name} but agreeing in this run: {', '.join(now_agree)}")


def _tie_went_the_other_way(binary, manifests, cluster, ours, unstable) -> bool:
    for _ in range(TIE_RERUNS):
        again = oracle_block(binary, manifests, cluster)
        if not kueuecompare.differences(ours, again, unstable | kueuecompare.unstable_messages([again])):
            return True
    return False

"""wasplan against upstream kube-scheduler (the oracle, oracle/bin/oracle) on generated cases.

Each (release, arrival) run plans the same seeded cases with both and compares them (compare.py): per pod status
and node (equal, or among the oracle's tied nodes), per group status, victims, claims. A case whose tie went
another way is compared on outcomes only and counted apart. The default run is bounded for CI; `--oracle-long`
runs thousands; WASPLAN_ORACLE_CASES=N sets the number per (release, arrival) by hand. A disagreeing case keeps
its files in pytest's temporary directory and the failure prints seed, paths and the differences.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

import compare
import gen

DEFAULT_CASES, LONG_CASES = 60, 1500


def case_count(long: bool) -> int:
    if os.environ.get("WASPLAN_ORACLE_CASES"):
        return int(os.environ["WASPLAN_ORACLE_CASES"])
    return LONG_CASES if long else DEFAULT_CASES


@pytest.mark.parametrize("arrival", gen.ARRIVALS)
@pytest.mark.parametrize("release", gen.RELEASES)
def test_plans_agree_with_upstream(oracle_bin, oracle_long, release, arrival, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"oracle-{release}-{arrival}")
    count = case_count(oracle_long)
    cases = [gen.generate(seed, release, arrival) for seed in range(count)]
    paths = [case.write(root / f"seed-{case.seed}") for case in cases]
    tally: Counter = Counter()
    failures = []
    with ThreadPoolExecutor(max_workers=1) as pool:  # the oracle runs while wasplan plans the next case
        pending = [pool.submit(compare.run_oracle, oracle_bin, m, c, release, arrival, case.gates)
                   for case, (m, c) in zip(cases, paths)]
        for case, (manifests, cluster), future in zip(cases, paths, pending):
            problems = compare.validation_errors([manifests, cluster], release, case.gates)
            assert problems == [], f"the generator wrote invalid objects ({case.label}):\n" + "\n".join(problems)
            ours = compare.run_wasplan(manifests, cluster, release, arrival, case.gates)
            theirs = future.result()
            result = compare.compare(ours, theirs)
            tally["cases"] += 1
            tally[case.theme] += 1
            tally["tied"] += result.tied
            if result.agree:
                tally["agree"] += 1
                shutil.rmtree(manifests.parent)
            else:
                failures.append(compare.describe(case.label, manifests.parent, result, ours, theirs))
    summary = (f"oracle {release} {arrival}: {tally['cases']} cases, {tally['agree']} agree, "
               f"{tally['tied']} with a tie broken differently; by theme "
               + ", ".join(f"{t} {tally[t]}" for t in gen.THEMES if tally[t]))
    (root / "summary.txt").write_text(summary + "\n")
    print(summary)
    assert not failures, "\n\n".join(failures[:8]) + f"\n\n{len(failures)} of {count} cases disagree; {summary}"

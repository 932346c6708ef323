"""Per-plugin mode: for random (pod, state) pairs, every Filter plugin's verdict and reasons on every node and
every feasible node's total score, wasplan's recorder against `oracle evaluate` (evaluate.py)."""

from __future__ import annotations

import random

import pytest

import evaluate
import gen
from test_differential import case_count

THEMES = ("fit", "affinity", "spread", "preempt", "mixed")


@pytest.mark.parametrize("release", gen.RELEASES)
def test_plugin_verdicts_agree_with_upstream(oracle_bin, oracle_long, release, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"oracle-evaluate-{release}")
    count = max(10, case_count(oracle_long) // 2)
    failures, pairs = [], 0
    for seed in range(count):
        case = gen.generate(seed, release, "batch", THEMES[seed % len(THEMES)])
        candidates = evaluate.pending_pods(case)
        if not candidates:
            continue
        pod = random.Random(seed).choice(candidates)
        key = f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"
        manifests, cluster = evaluate.write_pair(case, pod, root / f"seed-{seed}")
        ours = evaluate.wasplan_verdicts(manifests, cluster, release, case.gates)
        theirs = evaluate.oracle_verdicts(evaluate.compare.run_oracle_evaluate(oracle_bin, key, manifests, cluster,
                                                                               release, case.gates))
        pairs += 1
        found = evaluate.differences(ours, theirs)
        if found:
            failures.append(f"{case.label} pod {key}: {manifests} --cluster {cluster}\n"
                            + "\n".join(f"  - {d}" for d in found))
    print(f"oracle evaluate {release}: {pairs} (pod, state) pairs, {pairs - len(failures)} agree")
    assert not failures, "\n\n".join(failures[:8]) + f"\n\n{len(failures)} of {pairs} pairs disagree"

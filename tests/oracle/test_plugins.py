"""Per-plugin mode: for random (pod, state) pairs, every Filter plugin's verdict and reasons on every node and
every feasible node's total score and ImageLocality's raw, normalised and weighted scores, wasplan's recorder
against `oracle evaluate` (evaluate.py)."""

from __future__ import annotations

import random

import pytest

import evaluate
import gen
from test_differential import case_count

THEMES = ("fit", "affinity", "spread", "preempt", "mixed")


def _compare_pairs(oracle_bin, release, root, cases, reasons: bool = True) -> tuple[int, int, list[str]]:
    """(pairs, pairs where some node has an ImageLocality score, failures) over one random pending pod of each
    case (`reasons`: evaluate.differences')."""
    failures, pairs, imaged = [], 0, 0
    for case in cases:
        candidates = evaluate.pending_pods(case)
        if not candidates:
            continue
        pod = random.Random(case.seed).choice(candidates)
        key = f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"
        manifests, cluster = evaluate.write_pair(case, pod, root / f"seed-{case.seed}-{case.theme}")
        ours = evaluate.wasplan_verdicts(manifests, cluster, release, case.gates)
        theirs = evaluate.oracle_verdicts(evaluate.compare.run_oracle_evaluate(oracle_bin, key, manifests, cluster,
                                                                               release, case.gates))
        pairs += 1
        imaged += any(raw for raw, _, _ in theirs["images"].values())
        found = evaluate.differences(ours, theirs, reasons)
        if found:
            failures.append(f"{case.label} pod {key}: {manifests} --cluster {cluster}\n"
                            + "\n".join(f"  - {d}" for d in found))
    return pairs, imaged, failures


@pytest.mark.parametrize("release", gen.RELEASES)
def test_plugin_verdicts_agree_with_upstream(oracle_bin, oracle_long, release, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"oracle-evaluate-{release}")
    count = max(10, case_count(oracle_long) // 2)
    cases = [gen.generate(seed, release, "batch", THEMES[seed % len(THEMES)]) for seed in range(count)]
    pairs, imaged, failures = _compare_pairs(oracle_bin, release, root, cases)
    print(f"oracle evaluate {release}: {pairs} (pod, state) pairs ({imaged} with an ImageLocality score), "
          f"{pairs - len(failures)} agree")
    assert not failures, "\n\n".join(failures[:8]) + f"\n\n{len(failures)} of {pairs} pairs disagree"


def _has_images(case: gen.Case) -> bool:
    return any("images" in d["status"] for d in case.cluster if d["kind"] == "Node")


@pytest.mark.parametrize("release", gen.RELEASES)
def test_image_locality_scores_agree_with_upstream(oracle_bin, oracle_long, release, tmp_path_factory):
    """ImageLocality's raw, normalised and weighted scores on every feasible node, on pairs drawn only from cases
    whose nodes list images (the fit theme: few filters, so most pods have feasible nodes to score). Feasibility
    is compared, the filters' reason texts are the test above's (this one draws other seeds)."""
    root = tmp_path_factory.mktemp(f"oracle-images-{release}")
    count = max(10, case_count(oracle_long) // 2)
    cases = [c for c in (gen.generate(seed, release, "batch", "fit") for seed in range(3 * count)) if _has_images(c)]
    pairs, imaged, failures = _compare_pairs(oracle_bin, release, root, cases[:count], reasons=False)
    print(f"oracle evaluate {release}, cases with node images: {pairs} (pod, state) pairs ({imaged} with an "
          f"ImageLocality score), {pairs - len(failures)} agree")
    assert imaged >= pairs // 4, f"only {imaged} of {pairs} pairs have an ImageLocality score"
    assert not failures, "\n\n".join(failures[:8]) + f"\n\n{len(failures)} of {pairs} pairs disagree"

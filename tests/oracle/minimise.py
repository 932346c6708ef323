"""Shrink a disagreeing case to the fewest objects that still disagree, for a readable regression test.

    .venv/bin/python tests/oracle/minimise.py DIR [--release 1.37] [--arrival batch]

DIR holds the case's manifests.yaml and cluster.yaml (a failing differential test prints it); the release and
arrival default to what DIR/case.txt says. Objects are dropped one at a time, manifests first, then the cluster;
a drop is kept when both tools still accept the files and still disagree (on anything: check that the
minimised difference is the one you chase). The result is written to DIR/min/ with both plans beside it.
Each step plans both sides once, so a case of a few dozen objects takes a minute or two.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402
from gen import GATES, dump  # noqa: E402

ORACLE = HERE.parents[1] / "oracle" / "bin" / "oracle"


def _load(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def disagrees(cluster: list[dict], manifests: list[dict], release: str, arrival: str, work: Path) -> bool:
    work.mkdir(parents=True, exist_ok=True)
    (work / "cluster.yaml").write_text(dump(cluster))
    (work / "manifests.yaml").write_text(dump(manifests))
    m, c = work / "manifests.yaml", work / "cluster.yaml"
    try:
        ours = compare.run_wasplan(m, c, release, arrival, GATES[release])
        theirs = compare.run_oracle(str(ORACLE), m, c, release, arrival, GATES[release])
    except AssertionError:  # a reduction one of the two refuses is no reproducer
        return False
    return not compare.compare(ours, theirs).agree


def shrink(cluster, manifests, release, arrival, work: Path):
    changed = True
    while changed:
        changed = False
        for which in ("manifests", "cluster"):
            i = 0
            while i < len(manifests if which == "manifests" else cluster):
                docs = manifests if which == "manifests" else cluster
                trial = docs[:i] + docs[i + 1:]
                args = (cluster, trial) if which == "manifests" else (trial, manifests)
                if disagrees(*args, release, arrival, work):
                    if which == "manifests":
                        manifests = trial
                    else:
                        cluster = trial
                    changed = True
                else:
                    i += 1
    return cluster, manifests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--release")
    parser.add_argument("--arrival")
    args = parser.parse_args()
    label = (args.dir / "case.txt").read_text() if (args.dir / "case.txt").exists() else ""
    fields = dict(part.split("=", 1) for part in label.split() if "=" in part)
    release = args.release or fields.get("release", "1.37")
    arrival = args.arrival or fields.get("arrival", "sequential")
    cluster, manifests = _load(args.dir / "cluster.yaml"), _load(args.dir / "manifests.yaml")
    if not disagrees(cluster, manifests, release, arrival, args.dir / "min"):
        raise SystemExit("the case does not disagree (any more)")
    cluster, manifests = shrink(cluster, manifests, release, arrival, args.dir / "min")
    out = args.dir / "min"
    (out / "cluster.yaml").write_text(dump(cluster))
    (out / "manifests.yaml").write_text(dump(manifests))
    ours = compare.run_wasplan(out / "manifests.yaml", out / "cluster.yaml", release, arrival, GATES[release])
    theirs = compare.run_oracle(str(ORACLE), out / "manifests.yaml", out / "cluster.yaml", release, arrival,
                                GATES[release])
    print(compare.describe(f"minimised ({release}, {arrival}): {len(cluster)} cluster and {len(manifests)} "
                           f"manifest objects", out, compare.compare(ours, theirs), ours, theirs))


if __name__ == "__main__":
    main()

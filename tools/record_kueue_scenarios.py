"""Record what the Kueue oracle decides for the scenarios of fixtures/kueue-scenarios/expected.yaml.

    python tools/record_kueue_scenarios.py [NAME ...]        # needs oracle/bin/oracle-kueue (oracle/build kueue)

Each scenario entry names its `files`, and optionally `clusters` (passed as --cluster) and `args`; this fills in
its `workloads` and `clusterQueues` from the oracle's output (tests/oracle/kueuecompare.py's facts), leaving
`events` as written. A new scenario is added by writing its entry's files by hand and running this with its name;
without names every scenario is recorded again (a change in the oracle shows in `git diff`). The oracle runs twice
per scenario: a message Kueue builds in Go map order (it differs between runs, or names two resources of one
flavor) is not recorded (the tests
compare only the fields recorded). The header comment of expected.yaml is kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = ROOT / "fixtures" / "kueue-scenarios" / "expected.yaml"
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from kueuecompare import facts, key, map_ordered, queue_facts, unstable_messages  # noqa: E402


def oracle() -> Path:
    return Path(os.environ.get("WASPLAN_ORACLE_KUEUE") or ROOT / "oracle" / "bin" / "oracle-kueue")


def run(scenario: dict) -> dict:
    args = [str(oracle()), "plan", *[str(ROOT / f) for f in scenario["files"]]]
    for cluster in scenario.get("clusters", []):
        args += ["--cluster", str(ROOT / cluster)]
    proc = subprocess.run([*args, *scenario.get("args", [])], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"oracle-kueue exited {proc.returncode} on {scenario['files']}: {proc.stderr}")
    return json.loads(proc.stdout)["kueue"]


def record(scenario: dict) -> dict:
    first, again = run(scenario), run(scenario)
    unstable = unstable_messages([first, again])
    workloads = {}
    for wl in first["workloads"]:
        got = facts(wl)
        if key(wl) in unstable or map_ordered(wl.get("message")):
            del got["message"]
        workloads[key(wl)] = got
    out = {f: scenario[f] for f in ("files", "clusters", "args") if f in scenario}
    out["workloads"] = dict(sorted(workloads.items()))
    out["clusterQueues"] = {cq["name"]: queue_facts(cq) for cq in first["clusterQueues"]}
    if "events" in scenario:
        out["events"] = scenario["events"]
    return out


def header(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(names: list[str]) -> None:
    text = EXPECTED.read_text()
    scenarios = yaml.safe_load(text)
    for name in names or list(scenarios):
        scenarios[name] = record(scenarios[name])
        print(f"recorded {name}: {len(scenarios[name]['workloads'])} workloads")
    body = yaml.safe_dump(scenarios, sort_keys=False, width=200, allow_unicode=True)
    EXPECTED.write_text(header(text) + body)


if __name__ == "__main__":
    main(sys.argv[1:])

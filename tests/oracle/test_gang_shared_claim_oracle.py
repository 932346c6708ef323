"""Upstream's DRA integration case gang-5-pods-mincount-2 (k/k test/integration/dra/pod_group.go, v1.37.2;
fixtures/dra-upstream/gang-shared-claim): five gang members share one ResourceClaim. Each member's PreBind
appends its pod to the claim's reservedFor and retries on a resourceVersion conflict (dynamicresources.go
bindClaim), so all five end up there. The oracle used to keep four (sequential) or one (batch): its fake client
let the last concurrent writer win; it now refuses a stale update with 409 Conflict as the API server does
(oracle/core/versions.go conflictReactor), and agrees with wasplan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run
from tests.oracle.conftest import oracle_plan

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "dra-upstream" / "gang-shared-claim"
FIVE = [f"pod-{i}" for i in range(5)]


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_every_member_is_in_the_claims_reserved_for(oracle_bin, arrival):
    theirs = oracle_plan(oracle_bin, [CASE / "gang.yaml"], [CASE / "cluster.yaml"], "1.37", arrival=arrival)
    assert theirs.returncode == 0, theirs.stderr
    ours = json.loads(run("plan", str(CASE / "gang.yaml"), "--cluster", str(CASE / "cluster.yaml"), "--arrival",
                          arrival, "-o", "json").output)
    for doc in (theirs.json, ours):
        (claim,) = doc["resourceClaims"]
        assert sorted(r["name"] for r in claim["reservedFor"]) == FIVE
        assert {(p["name"], p["status"], p["node"]) for p in doc["pods"]} == {(n, "Bound", "worker-0") for n in FIVE}

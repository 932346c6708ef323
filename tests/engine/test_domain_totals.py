"""Per-domain totals kept up to date from the change log (domains.DomainTotals) equal sums taken afresh, at
every use, on random rack clusters through gang placements, topology trials and their rollbacks, composite
trees and preemption; and the plans equal those computed with fresh sums."""

from __future__ import annotations

import numpy as np
import pytest
from builders import composite, gang, node, pod
from enginehelp import run
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.engine.cycle import domains


@st.composite
def racks(draw):
    count = draw(st.integers(4, 14))
    existing: list = [node(f"n{i:02d}", cpu=str(draw(st.sampled_from([4, 8]))), memory="16Gi",
                           labels={"rack": f"r{i // 3}", "zone": f"z{i // 6}"}) for i in range(count)]
    for k in range(draw(st.integers(0, 8))):
        existing.append(pod(f"low-{k}", cpu=str(draw(st.integers(1, 4))), memory="1Gi", priority=0,
                            node_name=f"n{draw(st.integers(0, count - 1)):02d}"))
    arrivals: list = []
    for g in range(draw(st.integers(1, 6))):
        size, key = draw(st.integers(1, 4)), draw(st.sampled_from(["rack", "zone"]))
        prio = draw(st.sampled_from([0, 100]))
        arrivals.append(gang(f"g{g}", size, topology_keys=(key,), priority=prio))
        cpu = str(draw(st.integers(1, 4)))
        arrivals += [pod(f"g{g}-{k}", cpu=cpu, memory="2Gi", group=f"g{g}", priority=prio) for k in range(size)]
    if draw(st.booleans()):
        arrivals += [composite("tree", 2, topology_keys=("zone",)),
                     gang("a", 2, parent="tree"), *(pod(f"a-{k}", cpu="1", group="a") for k in range(2)),
                     gang("b", 2, parent="tree"), *(pod(f"b-{k}", cpu="1", group="b") for k in range(2))]
    return existing, arrivals


@settings(max_examples=60, deadline=None)
@given(racks(), st.sampled_from(["1.36", "1.37"]))
def test_kept_totals_equal_fresh_sums_and_plan_alike(cluster, version):
    checked = []
    real = domains.DomainTotals.sums

    def checking(self, state, smallest, cols):
        got = real(self, state, smallest, cols)
        fresh = domains.DomainTotals(self_domains[id(self)], self.n_codes)
        want = real(fresh, state, smallest, cols)
        assert np.array_equal(got[0], want[0])
        assert all(np.array_equal(a, b) for a, b in zip(got[1] + got[2], want[1] + want[2]))
        checked.append(1)
        return got

    self_domains: dict = {}
    real_of = domains.DomainTotals.of

    def remembering(state, domain_list, n_codes):
        totals = real_of(state, domain_list, n_codes)
        self_domains[id(totals)] = domain_list
        return totals

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(domains.DomainTotals, "sums", checking)
        patch.setattr(domains.DomainTotals, "of", staticmethod(remembering))
        kept = run(*cluster, version).to_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(domains.DomainList, "cached", False, raising=False)
        fresh = run(*cluster, version).to_dict()
    assert kept == fresh

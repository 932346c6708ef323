"""The typed gate record (api/releases.py `Gates`): what `--feature-gates` and the release resolve to, read by
attribute in the engine, so a misspelt gate fails loudly instead of reading False."""

from __future__ import annotations

import dataclasses

import pytest

from wasplan.api import releases
from wasplan.api.releases import RELEASES, Gates, default_gates, get_release, parse_gates


@pytest.mark.parametrize("version", sorted(RELEASES))
def test_every_gate_of_the_release_reads_the_same_through_the_record(version):
    gates = parse_gates(get_release(version), "DRAWorkloadResourceClaims=true,DRAPartitionableDevices=false")
    on = dataclasses.asdict(gates.on)
    assert {name: on[releases._field_name(name)] for name in gates.values} == gates.values
    assert gates.on.dra_workload_resource_claims is True and gates.on.dra_partitionable_devices is False


def test_a_gate_the_release_does_not_have_is_off():
    assert "CompositePodGroup" not in get_release("1.36").gates
    assert default_gates(get_release("1.36")).on.composite_pod_group is False
    assert default_gates(get_release("1.37")).on.composite_pod_group is True


def test_field_names_are_the_gate_names_in_snake_case():
    assert [releases._field_name(n) for n in ("GenericWorkload", "DRAResourceClaimDeviceStatus",
                                              "TopologyAwareWorkloadScheduling", "DRAAdminAccess")] == [
        "generic_workload", "dra_resource_claim_device_status", "topology_aware_workload_scheduling",
        "dra_admin_access"]


def test_a_misspelt_gate_is_an_error_not_false():
    on = default_gates(get_release("1.37")).on
    with pytest.raises(AttributeError):
        on.generic_worklaod  # noqa: B018 - the point is the read
    with pytest.raises(dataclasses.FrozenInstanceError):
        on.generic_workload = False


def test_a_release_gate_without_a_field_stops_the_import(monkeypatch):
    """The probe: a gate added to a release but not to Gates is refused by the import-time check."""
    release = get_release("1.37")
    extra = dataclasses.replace(release.gates["GenericWorkload"], name="BrandNewGate")
    monkeypatch.setitem(RELEASES, "1.37", dataclasses.replace(release, gates={**release.gates,
                                                                               "BrandNewGate": extra}))
    with pytest.raises(ImportError, match="brand_new_gate"):
        releases._check_gate_fields()
    monkeypatch.setitem(RELEASES, "1.37", release)
    releases._check_gate_fields()  # and the real table passes


def test_the_record_is_built_once_per_gate_set():
    gates = default_gates(get_release("1.37"))
    assert gates.on is gates.on and isinstance(gates.on, Gates)

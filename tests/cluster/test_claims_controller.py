"""The ResourceClaim controller's names and group-claim matching (cluster/claims.py)."""

from wasplan.api import hub
from wasplan.cluster.claims import ClaimOwner, generated_name, is_group_entry, resolve
from wasplan.cluster.model import Pod, PodClaim


def test_generated_names_are_deterministic_and_shaped_like_upstreams():
    name = generated_name("ml", ClaimOwner("Pod", "trainer-0", "gpus"))
    assert name == generated_name("ml", ClaimOwner("Pod", "trainer-0", "gpus"))
    base, suffix = name.rsplit("-", 1)
    assert base == "trainer-0-gpus" and len(suffix) == 5 and set(suffix) <= set("bcdfghjklmnpqrstvwxz2456789")
    assert generated_name("other", ClaimOwner("Pod", "trainer-0", "gpus")) != name


def test_long_names_are_shortened_in_proportion_to_63_characters():
    name = generated_name("ns", ClaimOwner("Pod", "p" * 60, "c" * 30))
    assert len(name) <= 63
    owner_part, claim_part, _ = name.rsplit("-", 2)
    assert (len(owner_part), len(claim_part)) == (60 * 57 // 91, 30 * 57 // 91)


def test_group_entry_needs_same_name_and_same_template():
    entries = (hub.ResourceClaim(name="fabric", resource_claim_template_name="rack-fabric"),)
    assert is_group_entry(PodClaim("fabric", template_name="rack-fabric"), entries)
    assert not is_group_entry(PodClaim("fabric", template_name="other"), entries)
    assert not is_group_entry(PodClaim("net", template_name="rack-fabric"), entries)


def test_resolve_group_claims_only_with_the_gate():
    pod = Pod("ml", "w-0", {}, {}, pod_group="team",
              resource_claims=(PodClaim("fabric", template_name="rack-fabric"), PodClaim("own", claim_name="mine")))
    entries = (hub.ResourceClaim(name="fabric", resource_claim_template_name="rack-fabric"),)
    on = resolve(pod, "team", entries, (), True)
    assert [(r.name.rsplit("-", 1)[0], r.group) for r in on] == [("team-fabric", True), ("mine", False)]
    off = resolve(pod, "team", entries, (), False)
    assert [(r.name.rsplit("-", 1)[0], r.group) for r in off] == [("w-0-fabric", False), ("mine", False)]
    statuses = (hub.ResourceClaimStatus(name="fabric", resource_claim_name="team-fabric-abcde"),)
    assert resolve(pod, "team", entries, statuses, True)[0].name == "team-fabric-abcde"

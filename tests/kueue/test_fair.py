"""Fair sharing in wasplan's Kueue model, no Go needed: Kueue's Configuration switches it on, the dominant
resource share orders the heads and decides preemption, and without the Configuration (or with fair sharing off)
the classical path decides as before. The fair scenarios' whole `kueue` blocks are held to the oracle's by
tests/kueue/test_oracle_scenarios.py; these tests pin the switch, the shares and the named limits."""

from __future__ import annotations

import math

from wasplan.kueue import KueueInputs, KueueStatus, admit
from wasplan.kueue.config import parse_config
from wasplan.kueue.fairshare import DRS, FairShares, compare, parse_weight
from wasplan.kueue.quota import Tree, add_all

from .helpers import load

FAIR = "fixtures/kueue-scenarios/fair/"
V1BETA2_ON = {"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
              "fairSharing": {"preemptionStrategies": ["LessThanInitialShare"]}}


def statuses(docs: list[dict]) -> dict[str, str]:
    return {w.name: w.status.value for w in admit(KueueInputs.from_objects(docs)).workloads}


def without_config(docs: list[dict]) -> list[dict]:
    return [d for d in docs if d.get("kind") != "Configuration"]


def test_the_configuration_switches_the_tournament_on():
    docs = load(FAIR + "drs-ordering.yaml")
    fair, classical = statuses(docs), statuses(without_config(docs))
    assert (fair["job-a-job-2adf5"], fair["job-b-job-ec3b6"]) == ("Pending", "Admitted")
    assert (classical["job-a-job-2adf5"], classical["job-b-job-ec3b6"]) == ("Admitted", "Pending")


def test_fair_sharing_off_in_the_configuration_is_the_classical_path():
    docs = load(FAIR + "drs-ordering.yaml")
    off = [{"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration",
            "fairSharing": {"enable": False, "preemptionStrategies": ["LessThanInitialShare"]}}]
    assert statuses(off + without_config(docs)) == statuses(without_config(docs))
    result = admit(KueueInputs.from_objects(off + without_config(docs)))
    assert result.not_modelled == []


def test_fair_preemption_names_fair_sharing_as_the_reason():
    result = admit(KueueInputs.from_objects(load(FAIR + "final-share.yaml")))
    got = {w.name: (w.status, w.reason, w.preempted_by) for w in result.workloads}
    assert got["b-small-2"] == (KueueStatus.PREEMPTED, "InCohortFairSharing", "team-a/job-a-job-2adf5")
    assert got["b-large"][0] == KueueStatus.ADMITTED
    [small] = [w for w in result.workloads if w.name == "b-small-2"]
    assert "due to Fair Sharing within the cohort; preemptor path: /shared/team-a" in small.message


def test_the_configuration_versions_and_defaults():
    assert parse_config(V1BETA2_ON).fair_sharing and parse_config(V1BETA2_ON).strategies == ("LessThanInitialShare",)
    v1 = parse_config({"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration",
                       "fairSharing": {"enable": True}})
    assert v1.fair_sharing and v1.strategies == ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
    assert not parse_config({"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration"}).fair_sharing


def test_what_the_configuration_sets_and_the_model_does_not_follow_is_named():
    config = dict(V1BETA2_ON, waitForPodsReady={"timeout": "5m"}, integrations={"frameworks": ["batch/job"]},
                  resources={"excludeResourcePrefixes": ["example.com/"]})
    docs = [config] + without_config(load("fixtures/kueue-scenarios/jobset.yaml"))
    result = admit(KueueInputs.from_objects(docs))
    assert result.config_not_modelled == [
        "Kueue's Configuration sets waitForPodsReady (admission waits for, and evicts on, pods becoming ready)",
        "Kueue's Configuration sets resources.excludeResourcePrefixes (the resources a Workload's quota counts)",
        "Kueue's Configuration sets integrations.frameworks without jobset.x-k8s.io/jobset: Kueue manages no "
        "JobSet, and the model admits them as if it did"]
    assert all(what in result.not_modelled for what in result.config_not_modelled)


def test_weights_parse_as_quantities():
    assert [parse_weight(w) for w in (None, "2", "500m", "0", 1.5)] == [1.0, 2.0, 0.5, 0.0, 1.5]


def test_a_zero_weight_that_borrows_sorts_after_every_other_share():
    zero = DRS(weight=0.0, ratio=100.0, resource="cpu", borrowed=frozenset({("f", "cpu")}))
    big = DRS(weight=1.0, ratio=900.0, resource="cpu", borrowed=frozenset({("f", "cpu")}))
    assert zero.share() == math.inf
    assert compare(zero, big) == 1 and compare(big, zero) == -1
    assert compare(DRS(0.0, 0.0), DRS(1.0, 0.0)) == 0  # a zero weight without borrowing has share 0


def test_dominant_resource_share_per_mille_of_what_the_tree_lends():
    inputs = KueueInputs.from_objects(load(FAIR + "weights.yaml"))
    tree = Tree(inputs.cluster_queues, inputs.cohorts)
    shares = FairShares(tree, inputs.cluster_queues, inputs.cohorts)
    add_all(tree.cqs["team-a"], {("default-flavor", "cpu"): 4000})
    add_all(tree.cqs["team-b"], {("default-flavor", "cpu"): 3000})
    a, b = shares.drs(tree.cqs["team-a"]), shares.drs(tree.cqs["team-b"])
    # team-a uses 4 CPUs, 2 over its nominal 2, of the 10 the cohort could lend it, weight 2; team-b 1 over, weight 1
    assert (a.ratio, a.share(), a.resource) == (200.0, 100.0, "cpu")
    assert (b.ratio, b.share()) == (100.0, 100.0)
    assert compare(a, b) == 0
    assert shares.drs(tree.cohorts["shared"]).share() == 0  # a root has no share


def test_cluster_queues_report_their_weighted_share_only_with_fair_sharing_on():
    docs = load(FAIR + "weights.yaml")
    shares = {q["name"]: q.get("fairSharing") for q in admit(KueueInputs.from_objects(docs)).to_json()["clusterQueues"]}
    # team-a: 6 CPUs, 4 over its 2, of 10 lendable, weight 2; team-b: 4 CPUs, 2 over, weight 1; team-c lends
    assert shares == {"team-a": {"weightedShare": 200}, "team-b": {"weightedShare": 200},
                      "team-c": {"weightedShare": 0}}
    classical = admit(KueueInputs.from_objects(without_config(docs))).to_json()["clusterQueues"]
    assert all("fairSharing" not in q for q in classical)


def test_a_zero_weight_borrower_reports_the_largest_share():
    assert DRS(weight=0.0, ratio=5.0).status_share() == 2**63 - 1
    assert DRS(weight=2.0, ratio=333.0).status_share() == 167

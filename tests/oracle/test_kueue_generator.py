"""The Kueue case generator (gen/kueue.py) and the comparison of kueue blocks (kueuecompare.py), without Go: the
same seed gives the same case, every object Kueue orders by time has a timestamp of its own, every theme is made,
wasplan reads every case without an input error, and the comparison decodes Kueue's compressed TopologyAssignment
and tells a real difference from a message Kueue builds in Go map order."""

from __future__ import annotations

from collections import Counter

from typer.testing import CliRunner

from wasplan.cli.app import app
from wasplan.cli.lazy import load_all

from . import kueuecompare
from .gen import kueue as kgen
from .gen.case import dump


def _stamps(case) -> list[str]:
    out = []
    for doc in case.cluster + case.manifests:
        if doc["kind"] in ("Job", "JobSet", "Workload", "Deployment", "StatefulSet", "LeaderWorkerSet", "Pod"):
            out.append(doc["metadata"]["creationTimestamp"])
    return out


def test_same_seed_same_case_and_distinct_timestamps():
    for seed in range(30):
        case = kgen.generate(seed)
        assert dump(case.cluster + case.manifests) == dump(kgen.generate(seed).cluster + kgen.generate(seed).manifests)
        stamps = _stamps(case)
        assert stamps and len(stamps) == len(set(stamps)), case.label
    assert {kgen.generate(seed).theme for seed in range(len(kgen.THEMES))} == set(kgen.THEMES)


def test_wasplan_reads_every_theme(tmp_path):
    load_all()
    for seed in range(len(kgen.THEMES)):
        manifests, cluster = kgen.generate(seed).write(tmp_path / str(seed))
        result = CliRunner().invoke(app, ["plan", str(manifests), "--cluster", str(cluster), "-o", "json"])
        assert result.exit_code in (0, 1), result.output[-1500:]


ASSIGNMENT = {"levels": ["topology.example.com/rack", "kubernetes.io/hostname"],
              "slices": [{"domainCount": 2,
                          "valuesPerLevel": [{"universal": "r1"},
                                             {"individual": {"prefix": "n", "roots": ["1", "2"]}}],
                          "podCounts": {"individual": [3, 1]}},
                         {"domainCount": 1,
                          "valuesPerLevel": [{"universal": "r2"}, {"universal": "n9"}],
                          "podCounts": {"universal": 2}}]}


def test_topology_assignment_is_a_multiset_of_domains():
    rack, host = ASSIGNMENT["levels"]
    assert kueuecompare.domains(ASSIGNMENT) == [[{rack: "r1", host: "n1"}, 3], [{rack: "r1", host: "n2"}, 1],
                                                [{rack: "r2", host: "n9"}, 2]]
    spelled_out = {"levels": ASSIGNMENT["levels"], "slices": [
        {"domainCount": 1, "valuesPerLevel": [{"universal": r}, {"universal": h}], "podCounts": {"universal": c}}
        for r, h, c in (("r2", "n9", 2), ("r1", "n2", 1), ("r1", "n1", 3))]}
    assert kueuecompare.domains(spelled_out) == kueuecompare.domains(ASSIGNMENT)


def _workload(message: str, status: str = "Pending", flavors: dict | None = None) -> dict:
    return {"namespace": "default", "name": "job-a-1", "owner": {"apiVersion": "batch/v1", "kind": "Job",
                                                                 "namespace": "default", "name": "a"},
            "queue": "lq", "clusterQueue": "cq", "priority": 0, "status": status, "reason": "Pending",
            "message": message, "borrowing": False,
            "podSets": [{"name": "main", "count": 1, "flavors": flavors or {}}]}


def test_differences_name_field_and_workload():
    one = {"workloads": [_workload("couldn't assign flavors to pod set main: a, b")], "clusterQueues": []}
    other = {"workloads": [_workload("couldn't assign flavors to pod set main: b")], "clusterQueues": []}
    assert kueuecompare.differences(one, one) == []
    [line] = kueuecompare.differences(one, other)
    assert line.startswith("Job default/a: message: wasplan")
    unstable = kueuecompare.unstable_messages([one, other])
    assert unstable == {"Job default/a"} and kueuecompare.differences(one, other, unstable) == []
    admitted = {"workloads": [_workload("The workload is admitted", "Admitted", {"cpu": "f"})], "clusterQueues": []}
    fields = Counter(line.split(": ")[1] for line in kueuecompare.differences(admitted, other, unstable))
    assert fields == Counter({"status": 1, "message": 1, "flavors": 1})


def test_a_message_naming_two_resources_of_one_flavor_is_compared_on_its_pod_set_only():
    """Kueue names a PodSet's failing resources in Go map order, up to the first that fails each flavor."""
    cpu_then_memory = ("couldn't assign flavors to pod set main: insufficient quota for cpu in flavor f, previously "
                       "considered podsets requests (0) + current podset request (6) > maximum capacity (3), "
                       "insufficient unused quota for memory in flavor f, 4Gi more needed")
    cpu_only = cpu_then_memory.split(", insufficient unused")[0]
    assert kueuecompare.map_ordered(cpu_then_memory) and not kueuecompare.map_ordered(cpu_only)
    one = {"workloads": [_workload(cpu_then_memory)], "clusterQueues": []}
    other = {"workloads": [_workload(cpu_only)], "clusterQueues": []}
    assert kueuecompare.differences(one, other) == []
    elsewhere = {"workloads": [_workload(cpu_only.replace("pod set main", "pod set side"))], "clusterQueues": []}
    assert [line.split(": ")[1] for line in kueuecompare.differences(one, elsewhere)] == ["message"]

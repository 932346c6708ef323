"""The pods wasplan plans against the pods upstream's API server would hand the scheduler (oracle `default`),
field by field (defaultcompare.py): on every fixture that comes with a cluster, on the generated plan cases of
tests/oracle/gen, and on generated pods aimed at the defaulting itself (limits without requests for every kind
of resource, init and sidecar containers, pod-level resources, scheduler names, tolerations that do or do not
cover the not-ready and unreachable taints, classes named or not, a global default class or none, priorities
and preemption policies written by hand, host ports without protocol)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

import gen
from defaultcompare import Comparison, compare
from tests.engine.test_memo_differential import CORPUS
from tests.conftest import FIXTURES
from tests.oracle.conftest import API_RELEASES, require_release
from test_fixtures import plain_cluster

RESOURCES = ({"limits": {"cpu": "1"}}, {"limits": {"cpu": "2", "memory": "1Gi"}},
             {"limits": {"nvidia.com/gpu": "2", "cpu": "500m"}}, {"requests": {"cpu": "250m"}, "limits": {"cpu": "1"}},
             {"limits": {"example.com/fpga": "1", "hugepages-2Mi": "4Mi", "memory": "1Gi"}}, {},
             {"requests": {"ephemeral-storage": "1Gi"}}, {"requests": {"memory": "100Mi"}, "limits": {"cpu": "3"}})
TOLERATIONS = (None, [{"operator": "Exists"}],
               [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                 "tolerationSeconds": 60}],
               [{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoSchedule"}],
               [{"operator": "Exists", "effect": "NoExecute"}],
               [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}],
               [{"key": "node.kubernetes.io/not-ready", "operator": "Equal", "value": "x", "effect": "NoExecute"}],
               [{"key": "node.kubernetes.io/unreachable", "operator": "Exists"}])
CLASSES = {"high": (1000, "PreemptLowerPriority"), "never": (500, "Never")}


def _class(name: str, value: int, policy: str, default: bool = False) -> dict:
    out = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value,
           "preemptionPolicy": policy}
    if default:
        out["globalDefault"] = True
    return out


def _container(rng: random.Random, name: str) -> dict:
    return {"name": name, "image": "busybox", "resources": rng.choice(RESOURCES)}


def _pod(rng: random.Random, n: int, default: tuple | None) -> dict:
    spec: dict = {"containers": [_container(rng, f"c{i}") for i in range(rng.randint(1, 2))]}
    if rng.random() < 0.3:
        init = _container(rng, "init")
        if rng.random() < 0.5:
            init["restartPolicy"] = "Always"  # a sidecar
        spec["initContainers"] = [init]
    if rng.random() < 0.15:
        spec["resources"] = {"limits": {"cpu": "4", "memory": "4Gi"}}
    if rng.random() < 0.2:
        spec["schedulerName"] = "custom-scheduler"
    tolerations = rng.choice(TOLERATIONS)
    if tolerations:
        spec["tolerations"] = tolerations
    cls = rng.choice((None, None, "high", "never", "system-cluster-critical", "no-such-class"))
    if cls:
        spec["priorityClassName"] = cls
    value, policy = (CLASSES.get(cls, (2000000000, "PreemptLowerPriority")) if cls else
                     default or (0, "PreemptLowerPriority"))
    if rng.random() < 0.1:
        spec["priority"] = value if rng.random() < 0.7 else value + 1
    if rng.random() < 0.1:
        spec["preemptionPolicy"] = policy if rng.random() < 0.7 else ("Never" if policy != "Never" else
                                                                       "PreemptLowerPriority")
    if rng.random() < 0.1:
        spec["containers"][0]["ports"] = [{"containerPort": 8080, "hostPort": 8080}]
    if rng.random() < 0.1:
        spec["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                              "whenUnsatisfiable": "ScheduleAnyway",
                                              "labelSelector": {"matchLabels": {"app": "a"}}}]
    if rng.random() < 0.1:
        spec["nodeSelector"] = {"topology.kubernetes.io/zone": "z1"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{n}", "namespace": "default",
                                                            "labels": {"app": "a"}}, "spec": spec}


def generated_case(seed: int, pods: int) -> tuple[list[dict], list[dict]]:
    """(cluster, manifests): a node, the classes (with a global default one in about half the cases), pods."""
    rng = random.Random(seed)
    cluster: list[dict] = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                            "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "110"}}}]
    cluster += [_class(name, value, policy) for name, (value, policy) in CLASSES.items()]
    default = None
    if rng.random() < 0.5:
        default = (rng.choice((10, -5)), rng.choice(("PreemptLowerPriority", "Never")))
        cluster.append(_class("fallback", *default, default=True))
    return cluster, [_pod(rng, n, default) for n in range(pods)]


def _write(path: Path, docs: list[dict]) -> Path:
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return path


def _report(what: str, release: str, result: Comparison) -> str:
    return (f"default {release} {what}: {result.pods} pods compared, {result.agree} agree, "
            f"{result.refused_both} refused by both")


@pytest.mark.parametrize("release", API_RELEASES)
def test_generated_pods_are_defaulted_and_admitted_as_upstream(oracle_bin, release, tmp_path, oracle_long):
    require_release(oracle_bin, release)
    cases = 60 if oracle_long else 8
    result = Comparison()
    for seed in range(cases):
        cluster, manifests = generated_case(seed, pods=25)
        c, m = _write(tmp_path / f"c{seed}.yaml", cluster), _write(tmp_path / f"m{seed}.yaml", manifests)
        compare(oracle_bin, m, c, release, "", f"seed {seed}", result)
    print("\n" + _report(f"{cases} generated cases", release, result))
    assert result.pods > cases * 15 and result.refused_both > 0
    assert not result.differences, "\n".join(result.differences[:12])


@pytest.mark.parametrize("release", gen.RELEASES)
def test_plan_cases_are_defaulted_and_admitted_as_upstream(oracle_bin, release, tmp_path, oracle_long):
    count = 120 if oracle_long else 20
    result = Comparison()
    for seed in range(count):
        case = gen.generate(seed, release, "batch")
        manifests, cluster = case.write(tmp_path / f"seed-{seed}")
        compare(oracle_bin, manifests, cluster, release, case.gates, case.label, result)
    print("\n" + _report(f"{count} plan cases", release, result))
    assert result.pods > count
    assert not result.differences, "\n".join(result.differences[:12])


@pytest.mark.parametrize("release", API_RELEASES)
def test_fixture_pods_are_defaulted_and_admitted_as_upstream(oracle_bin, release, tmp_path):
    require_release(oracle_bin, release)
    result = Comparison()
    for i, (cluster, manifests) in enumerate(CORPUS):
        root = tmp_path / str(i)
        root.mkdir()
        label = str(manifests.relative_to(FIXTURES))
        try:
            plain = plain_cluster(cluster, release, root)
        except Exception:  # noqa: BLE001  a cluster this release cannot read is not a defaulting question
            continue
        for path in ([manifests] if manifests.is_file() else sorted(manifests.rglob("*.yaml"))):
            compare(oracle_bin, path, plain, release, "", label, result)
    print("\n" + _report(f"{len(CORPUS)} fixture sets", release, result))
    assert result.pods > 20
    assert not result.differences, "\n".join(result.differences[:12])

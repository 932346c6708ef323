"""The exact check against brute force, on small random clusters (a few nodes, a gang, running pods, anti-affinity,
spread, taints), in both directions:

* DoesNotFit: no assignment of the gang's pods to nodes is accepted by the engine. Each assignment is tried by
  planning the same inputs with every gang pod nominated to its node (status.nominatedNodeName: the engine takes a
  nominated node without scoring wherever every filter passes it, framework.py), and it is accepted when the gang
  is scheduled with every pod on its own node. Nomination leaves the pod's constraints as they are (a node
  selector would change which nodes PodTopologySpread counts).
* FitsButMissed: the witness, tried the same way, is accepted.

A wrong "does not fit" (a rule of the program stricter than the engine's) fails the first; a witness the engine
rejects fails the second.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from tests.cli.helpers import run
from wasplan.api.releases import get_release, parse_gates
from wasplan.engine.simulator import simulate
from wasplan.pipeline.plan import prepare_plan
from wasplan.pipeline.requests import PlanRequest

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"


@dataclasses.dataclass(frozen=True)
class Scene:
    nodes: tuple  # (cpu, zone, tainted) per node
    running: tuple  # (node index, cpu, app, anti-affinity against the gang on the hostname)
    cpus: tuple  # each gang member's cpu request
    tolerates: bool
    anti: str | None  # the gang's required anti-affinity key among its own pods
    spread: bool  # the gang's hard spread over zones (maxSkew 1)


scenes = st.builds(
    Scene,
    nodes=st.lists(st.tuples(st.sampled_from([2, 3, 4]), st.sampled_from("ab"), st.booleans()),
                   min_size=2, max_size=3).map(tuple),
    running=st.lists(st.tuples(st.integers(0, 2), st.integers(1, 2), st.sampled_from(["gang", "web"]),
                               st.booleans()), max_size=3).map(tuple),
    cpus=st.lists(st.integers(1, 3), min_size=2, max_size=3).map(tuple),
    tolerates=st.booleans(),
    anti=st.sampled_from([None, HOSTNAME, ZONE]),
    spread=st.booleans(),
)


def _node(i: int, cpu: int, zone: str, tainted: bool) -> str:
    spec = "\n  taints:\n  - {key: dedicated, value: x, effect: NoSchedule}" if tainted else " {}"
    return f"""\
apiVersion: v1
kind: Node
metadata:
  name: n{i}
  labels: {{{HOSTNAME}: n{i}, {ZONE}: {zone}}}
spec:{spec}
status:
  allocatable: {{cpu: "{cpu}", memory: 16Gi, pods: "110"}}
"""


def _pod(name: str, cpu: int, app: str, extra: str = "", node: str | None = None, group: str | None = None) -> str:
    spec = [f"  nodeName: {node}"] if node else []
    if group:
        spec.append(f"  schedulingGroup: {{podGroupName: {group}}}")
    return f"""\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: ml
  labels: {{app: {app}}}
spec:
{chr(10).join(spec + [extra.rstrip()] if extra else spec)}
  containers:
  - name: main
    image: ghcr.io/example/app:1
    resources:
      requests: {{cpu: "{cpu}", memory: 1Gi}}
"""


def _anti(key: str) -> str:
    return f"""\
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {{matchLabels: {{app: gang}}}}
        topologyKey: {key}
"""


def _gang_extra(scene: Scene) -> str:
    out = ""
    if scene.tolerates:
        out += "  tolerations:\n  - {key: dedicated, operator: Exists, effect: NoSchedule}\n"
    if scene.anti:
        out += _anti(scene.anti)
    if scene.spread:
        out += f"""\
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: {ZONE}
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {{matchLabels: {{app: gang}}}}
"""
    return out


def write(scene: Scene, root: Path) -> tuple[str, str]:
    nodes = [_node(i, *n) for i, n in enumerate(scene.nodes)]
    running = [_pod(f"run-{k}", cpu, app, _anti(HOSTNAME) if anti else "", node=f"n{i % len(scene.nodes)}")
               for k, (i, cpu, app, anti) in enumerate(scene.running)]
    group = f"""\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: g, namespace: ml}}
spec:
  schedulingPolicy:
    gang: {{minCount: {len(scene.cpus)}}}
"""
    members = [_pod(f"g-{k}", cpu, "gang", _gang_extra(scene), group="g") for k, cpu in enumerate(scene.cpus)]
    (root / "cluster.yaml").write_text("---\n".join(nodes + running))
    (root / "gang.yaml").write_text("---\n".join([group, *members]))
    return str(root / "gang.yaml"), str(root / "cluster.yaml")


def accepted(prepared, assignment: dict[str, str]) -> bool:
    """Whether the engine schedules the gang with each pod on its assigned node (each nominated to it)."""
    arrivals = [dataclasses.replace(r, nominated_node_name=assignment[r.key])
                if getattr(r, "key", None) in assignment else r for r in prepared.inputs.arrivals]
    inputs = dataclasses.replace(prepared.inputs, arrivals=arrivals)
    plan, _ = simulate(inputs, dataclasses.replace(prepared.options, preemption=False))
    placed = {f"{p.namespace}/{p.name}": p.node for p in plan.pods}
    return all(placed.get(k) == n for k, n in assignment.items())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scene=scenes)
# least-allocated spreading puts the two small pods on both nodes; both on one leaves room for the big one
@example(scene=Scene(((2, "a", False), (2, "b", False)), (), (1, 1, 2), False, None, False))
# zone anti-affinity among the gang's pods with two zones: at most two of three
@example(scene=Scene(((4, "a", False), (4, "b", False), (4, "b", True)), ((0, 1, "web", False),), (1, 1, 1), True,
                     ZONE, False))
def test_the_exact_check_agrees_with_brute_force(scene, tmp_path_factory):
    root = tmp_path_factory.mktemp("scene")
    gang, cluster = write(scene, root)
    result = run("explain", gang, "--cluster", cluster, "-o", "json", "--no-preemption")
    assert result.exit_code in (0, 1), result.stdout
    targets = json.loads(result.stdout)["targets"]
    if not targets or targets[0].get("exact") is None:
        return
    exact = targets[0]["exact"]
    event(exact["verdict"])
    prepared = prepare_plan(PlanRequest([gang], [cluster], parse_gates(get_release("1.37"), None), preemption=False))
    members = [f"ml/g-{k}" for k in range(len(scene.cpus))]
    names = [f"n{i}" for i in range(len(scene.nodes))]
    if exact["verdict"] == "DoesNotFit":
        for nodes in itertools.product(names, repeat=len(members)):
            assert not accepted(prepared, dict(zip(members, nodes))), (scene, nodes)
    elif exact["verdict"] == "FitsButMissed":
        witness = {pod: w["node"] for w in exact["answer"]["witness"] for pod in w["pods"]}
        assert set(witness) == set(members) and accepted(prepared, witness), (scene, witness)
    else:
        assert exact["verdict"] in ("FitsAndFound", "Unknown"), exact

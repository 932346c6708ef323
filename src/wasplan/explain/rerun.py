"""Verification: every suggestion is applied to a copy of the plan inputs and the engine runs again.

The budget is a number of re-runs by default, so an explanation is the same on every machine; a time budget
is an explicit option, and it also stops a re-run in progress at its deadline (checked after each arrival).
Inputs are copied shallowly: the record lists are new, and only the records a change touches are replaced
(records are dataclasses; `dataclasses.replace` makes the changed one). The YAML is never touched. A
suggestion is shown only when the re-run places the target.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from wasplan.cluster.devices import NodeSelection, ResourceSlice
from wasplan.cluster.model import Group, Node, PlanInputs, Pod
from wasplan.engine.facade import EngineOptions, SimStatus, Simulator, group_outcome, pod_outcome
from wasplan.explain.target import Unit
from wasplan.plan import PLACED, GroupStatus


class _OutOfTime(Exception):
    """The time budget ran out in the middle of a re-run."""


@dataclass(frozen=True)
class Budget:
    """How much verification a command may do: at most `runs` re-runs (None: no limit), so that which
    suggestions appear is the same on every machine; and, only when asked for, at most `seconds` of them
    (None: no limit), a re-run in progress being stopped at that deadline."""

    runs: int | None = None
    seconds: float | None = None

    def note(self, exhausted: str) -> str:
        """What ran out (`runs` or `seconds`), for the note on a target whose suggestions were cut short."""
        if exhausted == "seconds":
            return f"the {self.seconds:g} s time budget for verification re-runs (--verify-seconds) was spent"
        return f"the budget of {self.runs} verification re-runs (--verify-budget) was spent"


class Verifier:
    """Runs the engine on variants of the inputs and says whether the target would be placed, by the plan's own
    outcome rules; counts the runs and their time so benchmarks can report them. `base` (the explained run's
    state) lends its per-pod request vectors to every re-run."""

    def __init__(self, inputs: PlanInputs, options: EngineOptions, base=None, budget: Budget = Budget()):
        self.inputs, self.options, self.base, self.budget = inputs, options, base, budget
        self.runs, self.seconds, self.skipped = 0, 0.0, 0
        self.exhausted = ""  # which budget ran out: "runs" or "seconds"

    def _spent(self) -> bool:
        runs, seconds = self.budget.runs, self.budget.seconds
        if runs is not None and self.runs >= runs:
            self.exhausted = "runs"
        elif seconds is not None and self.seconds >= seconds:
            self.exhausted = "seconds"
        return bool(self.exhausted)

    def places(self, unit: Unit, variant: PlanInputs) -> bool:
        """Whether the re-run places `unit`; False without running once the budget is spent, or when the time
        budget runs out during the re-run (both counted in `skipped`, so the explanation can say that
        suggestions may be missing)."""
        if self._spent():
            self.skipped += 1
            return False
        start = time.perf_counter()
        sim = Simulator(variant, self.options, self._deadline(start))
        if self.base is not None:
            sim.state.adopt_vectors(self.base)
        try:
            sim.replay()
        except _OutOfTime:
            self.skipped, self.exhausted = self.skipped + 1, "seconds"
            return False
        finally:
            self.runs += 1
            self.seconds += time.perf_counter() - start
        world = sim.world
        if unit.kind == "Pod":
            return unit.key in world.pods and pod_outcome(world.pods[unit.key], world).status in PLACED
        gs = world.groups.get(unit.key)
        if gs is None or group_outcome(gs, world, self.options).status != GroupStatus.SCHEDULED:
            return False
        # a basic group is Scheduled with members still pending: the change must place every member it places now
        return gs.is_gang or all(world.pods[k].placed or world.pods[k].status == SimStatus.GATED for k in gs.members)

    def _deadline(self, start: float) -> Callable[[int, int], None] | None:
        """A progress hook (called by the engine after each arrival) that stops the re-run at the deadline."""
        if self.budget.seconds is None:
            return None
        deadline = start + self.budget.seconds - self.seconds

        def check(_done: int, _total: int) -> None:
            if time.perf_counter() > deadline:
                raise _OutOfTime
        return check


def _map(records: list, fn: Callable) -> list:
    return [fn(r) for r in records]


def with_pods(inputs: PlanInputs, keys: set[str], change: Callable[[Pod], Pod]) -> PlanInputs:
    """The inputs with every pod in `keys` replaced by `change(pod)`."""
    def fn(r):
        return change(r) if isinstance(r, Pod) and r.key in keys else r
    return PlanInputs(_map(inputs.existing, fn), _map(inputs.arrivals, fn))


def with_group(inputs: PlanInputs, key: str, change: Callable[[Group], Group]) -> PlanInputs:
    def fn(r):
        return change(r) if isinstance(r, Group) and r.key == key and type(r.obj).__name__ == "PodGroup" else r
    return PlanInputs(_map(inputs.existing, fn), _map(inputs.arrivals, fn))


def with_nodes(inputs: PlanInputs, nodes: Iterable[Node]) -> PlanInputs:
    return PlanInputs([*inputs.existing, *nodes], list(inputs.arrivals))


def without_pods(inputs: PlanInputs, keys: set[str]) -> PlanInputs:
    def keep(r):
        return not (isinstance(r, Pod) and r.key in keys)
    return PlanInputs([r for r in inputs.existing if keep(r)], [r for r in inputs.arrivals if keep(r)])


def min_count(group: Group, value: int) -> Group:
    pg = group.obj
    policy = dataclasses.replace(pg.policy, min_count=value)
    return dataclasses.replace(group, obj=dataclasses.replace(pg, policy=policy))


def clone_node(template: Node, name: str, labels: dict[str, str] | None = None) -> Node:
    """A fresh node of the template's shape: same allocatable and taints, its own hostname."""
    new_labels = dict(labels if labels is not None else template.labels)
    if "kubernetes.io/hostname" in new_labels:
        new_labels["kubernetes.io/hostname"] = name
    return Node(name, new_labels, dict(template.allocatable), template.taints, False, template.source)


def daemonset_owned(pod: Pod) -> bool:
    """Whether the pod's controller is a DaemonSet (its ownerReferences, as a snapshot records them)."""
    doc = pod.source
    meta = doc.obj.get("metadata") if doc is not None and isinstance(doc.obj, dict) else None
    owners = meta.get("ownerReferences") if isinstance(meta, dict) else None
    return any(isinstance(o, dict) and o.get("kind") == "DaemonSet" and o.get("controller", True)
               for o in (owners if isinstance(owners, list) else ()))


def daemon_pods(inputs: PlanInputs) -> dict[str, list[Pod]]:
    """The pods DaemonSets run on each node in the snapshot, by node name, in input order: what a new node of a
    node's shape gets too, before any other pod (the DaemonSet controller creates one per matching node,
    pkg/controller/daemon). One pass over the snapshot (`Context.daemon_pods` keeps it): asked node by node,
    a 5,000-node, 35,000-pod snapshot was 175 million record visits, three quarters of an `explain`."""
    out: dict[str, list[Pod]] = {}
    for r in inputs.existing:
        if isinstance(r, Pod) and r.node_name and not r.terminating and daemonset_owned(r):
            out.setdefault(r.node_name, []).append(r)
    return out


def clone_daemon_pods(pods: list[Pod], node: str) -> list[Pod]:
    """The DaemonSet pods of a template node, as their controllers would create them on the new `node`."""
    return [dataclasses.replace(p, name=f"{p.name}-{node}", node_name=node, uid=None, nominated_node_name=None)
            for p in pods]


def node_slices(inputs: PlanInputs) -> dict[str, list[ResourceSlice]]:
    """The ResourceSlices published for one node alone (`nodeName`), by node, in input order."""
    out: dict[str, list[ResourceSlice]] = {}
    for r in (*inputs.existing, *inputs.arrivals):
        if isinstance(r, ResourceSlice) and r.node.node_name is not None:
            out.setdefault(r.node.node_name, []).append(r)
    return out


def added_name(template: str, index: int) -> str:
    """The name of the `index`th node an "add nodes like `template`" suggestion adds (verified and printed)."""
    return f"{template}-added-{index}"


def renamed(text: str, old: str, new: str) -> str:
    """A slice's or pool's name for a copied node: the template node's name in it replaced by the new one's."""
    return text.replace(old, new) if old in text else f"{text}-{new}"


def clone_slices(slices: list[ResourceSlice], template: str, name: str) -> list[ResourceSlice]:
    """The template node's slices as the new node's driver would publish them: its own node name, and the
    slice and pool names with the node's name in place of the template's."""
    return [dataclasses.replace(s, name=renamed(s.name, template, name), pool=renamed(s.pool, template, name),
                                node=NodeSelection(node_name=name)) for s in slices]


def narrow(lo: int, hi: int, below: Callable[[int], bool]) -> tuple[int, int]:
    """Bisect a bracket where `below` holds at `lo` and not at `hi` (neither end is asked) down to neighbours:
    the last value it holds for and the first it does not, one re-run per halving."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(mid):
            lo = mid
        else:
            hi = mid
    return lo, hi

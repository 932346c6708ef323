"""What the Priority admission plugin does to a pod before anything stores it.

Upstream: k/k `plugin/pkg/admission/priority/admission.go` (`admitPod`, `getDefaultPriorityClass`) and
`pkg/apis/scheduling/v1/helpers.go` (the system classes). On create:

* a pod naming a PriorityClass that does not exist is refused with 403 Forbidden, `pods "<name>" is forbidden:
  no PriorityClass with name <class> was found`; a controller creating the pod (a Job) gets the same error
  back and retries, so its pods never appear;
* a pod naming none gets the `globalDefault` class: its name, value and preemptionPolicy. Should several classes
  claim globalDefault (a race the plugin tolerates), the one with the lowest value wins; with none, priority 0
  and PreemptLowerPriority;
* `system-node-critical` (2000001000) and `system-cluster-critical` (2000000000) exist in every cluster: the API
  server creates them at start, so a snapshot need not list them;
* an object that writes spec.priority or spec.preemptionPolicy itself is refused when the value differs from
  what the class gives (`admit`).

The same plugin admits PodGroups (1.36 with WorkloadAwarePreemption, 1.37 with GenericWorkload) and, in 1.37,
CompositePodGroups (with CompositePodGroup): the class must exist, its value becomes spec.priority and, with
PodGroupPreemptionPolicy, its preemptionPolicy spec.preemptionPolicy. It has no case for Workloads: a
Workload's templates may name any class (v1.36.5 and v1.37.2 `Admit` switch on pods, podgroups and, in 1.37,
compositepodgroups only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Protocol

# pkg/apis/scheduling/types.go: SystemCriticalPriority = 2 * HighestUserDefinablePriority (10^9)
SYSTEM_CRITICAL = 2_000_000_000
SYSTEM_CLASSES: dict[str, int] = {"system-node-critical": SYSTEM_CRITICAL + 1000,
                                  "system-cluster-critical": SYSTEM_CRITICAL}
DEFAULT_PREEMPTION = "PreemptLowerPriority"


class _Class(Protocol):
    name: str
    value: int
    global_default: bool
    preemption_policy: str


def forbidden(pod_name: str, class_name: str) -> str:
    """The API server's refusal, worded as admission.NewForbidden words it for pods."""
    return f'pods "{pod_name}" is forbidden: no PriorityClass with name {class_name} was found'


def exists(class_name: str, known: Iterable[str] | set[str]) -> bool:
    return class_name in SYSTEM_CLASSES or class_name in known


def global_default(classes: Iterable[_Class]):
    """The class a pod without priorityClassName gets: the globalDefault one of lowest value (then name), or None."""
    defaults = [c for c in classes if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name)) if defaults else None


@dataclass(frozen=True, slots=True)
class Admitted:
    """What the plugin writes into an object on create, or why it refuses it (`refusal`: the reason after
    `<resource> "<name>" is forbidden: `)."""

    class_name: str | None  # the global default's name when the object named none
    priority: int
    preemption_policy: str
    refusal: str | None = None


def _class_of(class_name: str, classes: Mapping[str, _Class]) -> tuple[int, str] | None:
    if class_name in classes:
        pc = classes[class_name]
        return pc.value, pc.preemption_policy
    if class_name in SYSTEM_CLASSES:
        return SYSTEM_CLASSES[class_name], DEFAULT_PREEMPTION
    return None


def admit(class_name: str | None, priority: int | None, policy: str | None, classes: Mapping[str, _Class],
          what: str = "pod", policy_gate: bool = True) -> Admitted:
    """Priority admission of one object (`what`: pod, pod group, composite pod group) naming `class_name` and
    writing `priority` and `policy` itself (None: not written). `policy_gate`: whether the plugin sets the
    preemption policy at all (always for pods; PodGroupPreemptionPolicy for the groups)."""
    if class_name:
        found = _class_of(class_name, classes)
        if found is None:
            return Admitted(class_name, 0, DEFAULT_PREEMPTION, f"no PriorityClass with name {class_name} was found")
        value, class_policy = found
    else:
        pc = global_default(classes.values())
        class_name, value, class_policy = (pc.name, pc.value, pc.preemption_policy) if pc else (None, 0,
                                                                                              DEFAULT_PREEMPTION)
    if priority is not None and priority != value:
        why = (f"the integer value of priority ({priority}) must not be provided in pod spec; priority admission "
               f"controller computed {value} from the given PriorityClass name" if what == "pod" else
               f"priority set in the {what} ({priority}) must match the priority computed ({value}) based on the "
               "priority class set in the spec")
        return Admitted(class_name, value, class_policy, why)
    if not policy_gate:
        return Admitted(class_name, value, policy or DEFAULT_PREEMPTION)
    if policy is not None and policy != class_policy:
        return Admitted(class_name, value, class_policy,
                        f"the string value of PreemptionPolicy ({policy}) must not be provided in {what} spec; "
                        f"priority admission controller computed {class_policy} from the given PriorityClass name")
    return Admitted(class_name, value, class_policy)

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
  server creates them at start, so a snapshot need not list them.
"""

from __future__ import annotations

from typing import Iterable, Protocol

# pkg/apis/scheduling/types.go: SystemCriticalPriority = 2 * HighestUserDefinablePriority (10^9)
SYSTEM_CRITICAL = 2_000_000_000
SYSTEM_CLASSES: dict[str, int] = {"system-node-critical": SYSTEM_CRITICAL + 1000,
                                  "system-cluster-critical": SYSTEM_CRITICAL}
DEFAULT_PREEMPTION = "PreemptLowerPriority"


class _Class(Protocol):
    name: str
    value: int
    global_default: bool


def forbidden(pod_name: str, class_name: str) -> str:
    """The API server's refusal, worded as admission.NewForbidden words it for pods."""
    return f'pods "{pod_name}" is forbidden: no PriorityClass with name {class_name} was found'


def exists(class_name: str, known: Iterable[str] | set[str]) -> bool:
    return class_name in SYSTEM_CLASSES or class_name in known


def global_default(classes: Iterable[_Class]):
    """The class a pod without priorityClassName gets: the globalDefault one of lowest value (then name), or None."""
    defaults = [c for c in classes if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name)) if defaults else None

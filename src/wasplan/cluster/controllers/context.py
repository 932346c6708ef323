"""What every controller expansion needs besides its own document: the release and gates, the namer for
`generateName`, the input's Workloads (a 1.38 Job may delegate its PodGroup to one), and the PriorityClass values (JobSet's pod webhook labels pods with their resolved priority,
which admission has set by then; plugin/pkg/admission/priority)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from wasplan.api import hub
from wasplan.api.convert import to_hub
from wasplan.api.priority import SYSTEM_CLASSES
from wasplan.api.releases import GateSet
from wasplan.cluster.controllers.names import Namer


@dataclass
class Expansion:
    gates: GateSet
    namer: Namer = field(default_factory=Namer)
    priorities: dict[str, int] = field(default_factory=dict)  # PriorityClass name -> value
    default_priority: int = 0  # the globalDefault class of lowest value (admission's choice), else 0
    workloads: dict[tuple[str, str], hub.Workload] = field(default_factory=dict)  # (namespace, name) -> Workload

    def learn_workloads(self, objs: Iterable[dict]) -> None:
        """Read every Workload of the input once, before any expansion: a 1.38 Job that delegates its PodGroup
        names one (job.py). One that cannot be read is left out (parse_core reports it, WAS608)."""
        for obj in objs:
            if obj.get("kind") != "Workload" or not str(obj.get("apiVersion") or "").startswith("scheduling.k8s.io/"):
                continue
            meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
            try:
                workload = to_hub(obj)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            if isinstance(workload, hub.Workload) and isinstance(meta.get("name"), str):
                self.workloads.setdefault((meta.get("namespace") or "default", meta["name"]), workload)

    def learn_priorities(self, objs: Iterable[dict]) -> None:
        """Read every PriorityClass of the input once, before any expansion."""
        defaults = []
        for obj in objs:
            value = obj.get("value")
            name = (obj.get("metadata") or {}).get("name") if isinstance(obj.get("metadata"), dict) else None
            if obj.get("kind") != "PriorityClass" or not isinstance(value, int) or not isinstance(name, str):
                continue
            self.priorities.setdefault(name, value)
            if obj.get("globalDefault") is True:
                defaults.append(value)
        self.default_priority = min(defaults, default=0)

    def priority(self, spec: dict) -> int:
        """The priority admission gives a pod with this spec."""
        value = spec.get("priority")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        name = spec.get("priorityClassName")
        if not isinstance(name, str) or not name:
            return self.default_priority
        return self.priorities.get(name, SYSTEM_CLASSES.get(name, self.default_priority))

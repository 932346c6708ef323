"""What every controller expansion needs besides its own document: the release and gates, the namer for
`generateName`, and the PriorityClass values (JobSet's pod webhook labels pods with their resolved priority,
which admission has set by then; plugin/pkg/admission/priority)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from wasplan.api.priority import SYSTEM_CLASSES
from wasplan.api.releases import GateSet
from wasplan.cluster.controllers.names import Namer


@dataclass
class Expansion:
    gates: GateSet
    namer: Namer = field(default_factory=Namer)
    priorities: dict[str, int] = field(default_factory=dict)  # PriorityClass name -> value
    default_priority: int = 0  # the globalDefault class of lowest value (admission's choice), else 0

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

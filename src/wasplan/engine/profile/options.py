"""How a simulation runs: release and gates, arrival mode, scheduler profiles."""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.api.releases import DEFAULT_RELEASE, Capabilities, GateSet, default_gates, get_release
from wasplan.engine.profile.config import DEFAULT_SCHEDULER, Profile
from wasplan.plan import Arrival


@dataclass(frozen=True)
class EngineOptions:
    """What one simulation runs with: gates, arrival mode, profiles and preemption."""

    gates: GateSet = field(default_factory=lambda: default_gates(get_release(DEFAULT_RELEASE)))
    arrival: Arrival = Arrival.SEQUENTIAL
    profiles: dict[str, Profile] = field(default_factory=lambda: {DEFAULT_SCHEDULER: Profile()})
    preemption: bool = True  # False: --no-preemption, PostFilters and workload-aware preemption are off
    # memoise verdicts while the cluster state is unchanged ("no node fits" per pod shape, a group's placed
    # members, "no preemption victims", one FitError for the rest of a batch in a 1.37 group cycle); False
    # recomputes each one, for the differential tests and benchmarks
    memo: bool = True

    @property
    def version(self) -> str:
        return self.gates.release.version

    @property
    def caps(self) -> Capabilities:
        return self.gates.release.caps

    @property
    def groups_on(self) -> bool:
        """Whether the scheduler runs PodGroup cycles at all (1.36 also needs the GangScheduling plugin)."""
        if not self.gates.on.generic_workload:
            return False
        return not self.caps.groups_need_gang_gate or self.gates.on.gang_scheduling

    @property
    def condition_type(self) -> str:
        return self.caps.group_condition

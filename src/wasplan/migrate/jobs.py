"""batch/v1 Jobs across the 1.36 -> 1.37 change from implicit to explicit gang scheduling (api-reference §6.3).

1.36's Job controller gang-schedules an Indexed Job with `parallelism == completions > 1` on its own; 1.37
schedules every Job without `spec.scheduling` as basic. Upgrading therefore writes the gang down explicitly.
It is written as `gang: {}` rather than `gang: {minCount: N}`: the 1.37 controller defaults minCount to
`parallelism` and re-derives it when parallelism changes, which is exactly what 1.36 did, whereas a pinned
number would freeze today's value and make a later scale-down below it invalid (minCount <= parallelism).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wasplan.api.jobs import implicit_gang_size
from wasplan.api.releases import capabilities
from wasplan.migrate import tree as t
from wasplan.migrate.steps import StepContext, _plain

BUILTIN_CONTROLLER = "kubernetes.io/job-controller"


@dataclass(frozen=True)
class JobNote:
    """A diagnostic the Job step wants raised: code, field path and message."""

    code: str
    path: tuple
    message: str


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def implicit_gang_136(spec: dict) -> int | None:
    """The gang size 1.36 would have used for this Job spec, or None when 1.36 would not gang it."""
    parallelism = _int(spec.get("parallelism", 1))
    template = spec.get("template") if isinstance(spec.get("template"), dict) else {}
    pod_spec = template.get("spec") if isinstance(template.get("spec"), dict) else {}
    if parallelism is None or pod_spec.get("schedulingGroup") is not None:
        return None
    if spec.get("managedBy") not in (None, BUILTIN_CONTROLLER):
        return None
    return implicit_gang_size(spec.get("completionMode") == "Indexed", parallelism, _int(spec.get("completions")))


def plan_job(obj: dict, release: str, allow_lossy: bool = False) -> list[JobNote]:
    """What happens to this Job when it moves to `release` (no edits, just the notes).

    Going to 1.36, what the target cannot hold (a gang 1.36 would not form, a pinned minCount, the constraint,
    disruption and claim fields) is a loss: refused (WAS501) unless `allow_lossy`, then a warning (WAS511), as
    the typed conversion treats the scheduling kinds. A gang that 1.36 forms on its own where 1.37 asked for none
    cannot be avoided in 1.36 and is a warning either way (WAS513).
    """
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return []
    meta = obj.get("metadata")
    name = meta.get("name", "") if isinstance(meta, dict) else ""  # a wrong type is validation's to report
    gang = implicit_gang_136(spec)
    if capabilities(release).job_scheduling_field:
        if gang is None or "scheduling" in spec:
            return []
        return [JobNote("WAS510", ("spec",), (
            f"Job {name} gets spec.scheduling.schedulingPolicy.gang: {{}}: 1.36 gang-scheduled it implicitly "
            f"(Indexed, parallelism == completions == {gang}) but 1.37 schedules a Job without spec.scheduling "
            f"as basic; minCount is left to default to parallelism ({gang}), as in 1.36"))]
    notes = _implicit_gang_note(spec, gang, name)
    if "scheduling" not in spec:
        return notes
    losses = [JobNote("WAS511", path, f"dropped: {msg}") if allow_lossy else JobNote("WAS501", path, msg)
              for path, msg in _downgrade_losses(spec, gang, name)]
    return notes + losses or [
        JobNote("WAS512", ("spec", "scheduling"),
                f"Job {name}: spec.scheduling is removed (1.36 has no such field); "
                + ("1.36 still gang-schedules it implicitly with minCount = parallelism" if gang else
                   "its basic scheduling is what 1.36 does anyway"))]


def _policy(spec: dict) -> tuple[dict, dict]:
    """spec.scheduling and its schedulingPolicy, empty where absent or of a wrong type (validation reports it)."""
    scheduling = spec.get("scheduling") if isinstance(spec.get("scheduling"), dict) else {}
    policy = scheduling.get("schedulingPolicy") if isinstance(scheduling.get("schedulingPolicy"), dict) else {}
    return scheduling, policy


def _implicit_gang_note(spec: dict, gang: int | None, name: str) -> list[JobNote]:
    """WAS513 when 1.36's Job controller gangs a Job that 1.37 schedules pod by pod."""
    if gang is None or _policy(spec)[1].get("gang") is not None:
        return []
    asked = "spec.scheduling asks for basic scheduling" if "scheduling" in spec else "it has no spec.scheduling"
    return [JobNote("WAS513", ("spec",), (
        f"Job {name} becomes a gang in 1.36: 1.36's Job controller gang-schedules every Indexed Job with "
        f"parallelism == completions ({gang}) implicitly, while in 1.37 {asked} and its pods are scheduled one "
        f"by one; no pod starts in 1.36 until all {gang} fit at once"))]


def _downgrade_losses(spec: dict, gang: int | None, name: str) -> list[tuple[tuple, str]]:
    """What of spec.scheduling 1.36 cannot hold, as (field path, message) pairs."""
    scheduling, policy = _policy(spec)
    wanted = policy.get("gang")
    path = ("spec", "scheduling")
    out = []
    if wanted is not None and gang is None:
        out.append((path + ("schedulingPolicy", "gang"),
                    f"Job {name} loses gang scheduling: 1.36 gangs only Indexed Jobs with parallelism == "
                    "completions > 1 (and no schedulingGroup), which this Job is not"))
    elif wanted is not None and _int((wanted or {}).get("minCount")) not in (None, gang):
        out.append((path + ("schedulingPolicy", "gang", "minCount"),
                    f"Job {name}: gang.minCount {wanted.get('minCount')} becomes {gang} (1.36 always uses "
                    "parallelism)"))
    for key in ("schedulingConstraints", "disruptionMode", "resourceClaims"):
        if scheduling.get(key) is not None:
            out.append((path + (key,), f"Job {name}: spec.scheduling.{key} has no 1.36 equivalent"))
    return out


def migrate_job(obj: dict, release: str, ctx: StepContext) -> None:
    """Apply what `plan_job` announced to `obj` (plain dict or round-trip tree)."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    if capabilities(release).job_scheduling_field:
        if implicit_gang_136(spec) is None or "scheduling" in spec:
            return
        value = t.new_map(spec, {"schedulingPolicy": t.new_map(spec, {"gang": t.new_map(spec)})})
        t.insert_entry(spec, "scheduling", value, before="template")
        ctx.record(("spec", "scheduling"), "add", None, {"schedulingPolicy": {"gang": {}}})
    elif "scheduling" in spec:
        old = t.pop_entry(spec, "scheduling")
        ctx.record(("spec", "scheduling"), "remove", _plain(old), None)

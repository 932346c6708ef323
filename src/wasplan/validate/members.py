"""Lint of the pods that join PodGroups (WAS404-WAS407): missing groups, quorum, scheduler, priority.

Upstream facts: a pod may name a PodGroup that does not exist yet and stays Pending until it does
(api-reference §6.1); all pods of a group must use one schedulerName (§3.2) and, in 1.37, carry the
group's priority (§4.2). The scheduler's rejection message is quoted in WAS407.
"""

from __future__ import annotations

from wasplan.api.releases import capabilities
from wasplan.diagnostics import Diagnostic
from wasplan.suggest import guess
from wasplan.validate.index import Index, Key, Member
from wasplan.validate.rules.common import GANG, make, policy_kind
from wasplan.validate.walk import mapping
from wasplan.words import plural

_UPSTREAM_PRIORITY = "all pods in a single pod group should have the same priority as the pod group's priority"


def check_members(index: Index, release: str) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for key, members in index.members.items():
        group = index.podgroups.get(key)
        if group is None:
            out += _missing_group(index, key, members)
            continue
        out += _quorum(group, members)
        out += _schedulers(key, members)
        if capabilities(release).group_priority:
            out += _priorities(group, members)
    return out


def _missing_group(index: Index, key: Key, members: list[Member]) -> list[Diagnostic]:
    namespace, name = key
    elsewhere = sorted(index.namespaces_of(index.podgroups, name))
    suggestion = guess(name, index.names_in(index.podgroups, namespace))
    if elsewhere:
        hint = f'a PodGroup "{name}" exists in namespace {elsewhere[0]}; a pod can only join a group of its own namespace'
    elif suggestion:
        hint = f'did you mean PodGroup "{suggestion}"?'
    else:
        hint = "create the PodGroup (or check that it exists in the cluster)"
    return [make(m.doc, "WAS404",
                 f'{m.label} {_verb(m, "names", "name")} PodGroup "{name}", which is not among the inputs in '
                 f"namespace {namespace}; {_verb(m, 'it stays', 'they stay')} Pending until the PodGroup exists",
                 m.pod_path + ("schedulingGroup", "podGroupName"), hint, podGroup=name) for m in members]


def _verb(member: Member, one: str, many: str) -> str:
    """Grammar for a single Pod versus a controller's pods."""
    return one if member.doc.kind == "Pod" else many


def _quorum(group, members: list[Member]) -> list[Diagnostic]:
    """WAS405: only groups with at least one member in the inputs; with none there is nothing to count."""
    policy = mapping(mapping(group.obj.get("spec")).get("schedulingPolicy"))
    count = mapping(policy.get(GANG)).get("minCount")
    if policy_kind(policy) != GANG or not isinstance(count, int) or isinstance(count, bool):
        return []
    total = sum(m.count for m in members)
    if total >= count:
        return []
    return [make(group, "WAS405",
                 f'PodGroup "{group.name}" needs {plural(count, "pod")} (gang minCount) but the inputs hold only '
                 f"{plural(total, 'member pod')}; the gang waits for its quorum forever unless more pods arrive",
                 ("spec", "schedulingPolicy", "gang", "minCount"),
                 f"lower minCount to {total} or add the missing pods", members=total)]


def _schedulers(key: Key, members: list[Member]) -> list[Diagnostic]:
    first = members[0]
    return [make(m.doc, "WAS406",
                 f'{m.label} of PodGroup "{key[1]}" {_verb(m, "uses", "use")} scheduler '
                 f'"{m.scheduler}", but {first.label} of the same group {_verb(first, "uses", "use")} '
                 f'"{first.scheduler}"; the scheduler rejects a group whose pods name different schedulers',
                 _field(m, "schedulerName"), "give every pod of the group the same schedulerName")
            for m in members[1:] if m.scheduler != first.scheduler]


def _priorities(group, members: list[Member]) -> list[Diagnostic]:
    expected = mapping(group.obj.get("spec")).get("priorityClassName")
    expected = expected if isinstance(expected, str) else ""
    shown = f'"{expected}"' if expected else "none"
    out = []
    for m in members:
        if m.priority_class == expected:
            continue
        mine = f'"{m.priority_class}"' if m.priority_class else "none"
        out.append(make(m.doc, "WAS407",
                        f"{_UPSTREAM_PRIORITY}: {m.label} {_verb(m, 'has', 'have')} priorityClassName "
                        f'{mine}, PodGroup "{group.name}" has {shown}', _field(m, "priorityClassName"),
                        "use the PodGroup's priorityClassName on its pods"))
    return out


def _field(member: Member, name: str) -> tuple:
    """The pod's field if written, else its spec: point at what exists."""
    return member.pod_path + (name,) if name in member.pod_spec else member.pod_path

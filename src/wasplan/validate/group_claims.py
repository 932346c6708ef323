"""PodGroup claims versus the claims of the group's pods (WAS425-WAS427), with DRAWorkloadResourceClaims on.

A pod's `spec.resourceClaims[]` entry becomes a *group claim* (one ResourceClaim per PodGroup, reserved for the
PodGroup and shared by every member) only when its `name` AND its `resourceClaimName` /
`resourceClaimTemplateName` equal an entry of the PodGroup's `spec.resourceClaims` (`resourceclaim.BindTo` in
k8s.io/dynamic-resource-allocation `resourceclaim/resourceclaim.go` v0.36.0, `cluster.claims.is_group_entry`; the
design in kubernetes/enhancements `keps/sig-scheduling/5729-resourceclaim-support-for-workloads/README.md`, whose
early `podGroupResourceClaim` field became this name-and-source match). Every other entry stays the pod's own.
Nothing warns when a near miss silently makes a claim per pod: the same `name` with another template, or the
same template under another `name`, gives every pod its own claim from the template (or, for a claim by name,
reserves the shared claim per pod, within the 256 `reservedFor` entries). That is what this module reports.

Groups: PodGroups of the inputs with their member pods (`Index.members`), and in releases with Job.spec.scheduling
the PodGroup the Job controller makes for a Job (`<job>-job`, claims copied from `spec.scheduling.resourceClaims`,
`cluster/controllers/job.py`) with the Job's own pods. The PodGroup field is gated (api/releases.py): with the gate
off the API server drops it (WAS301) and every claim stays per pod, so nothing here applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.api.releases import GateSet, capabilities
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.index import Index, Member
from wasplan.validate.rules.common import make
from wasplan.validate.walk import items, mapping
from wasplan.words import plural

GATE = "DRAWorkloadResourceClaims"
JOB_GROUP_SUFFIX = "-job"  # the Job controller's PodGroup is `<job>-job` (docs/workload-expansion.md)


@dataclass(frozen=True, slots=True)
class Entry:
    """One `resourceClaims[]` entry: its index, name and source (kind of object and its name)."""

    index: int
    name: str
    claim: str | None
    template: str | None

    @property
    def source(self) -> str:
        return f'ResourceClaimTemplate "{self.template}"' if self.template else f'ResourceClaim "{self.claim}"'

    def same_source(self, other: "Entry") -> bool:
        return self.claim == other.claim and self.template == other.template


@dataclass(frozen=True, slots=True)
class GroupClaims:
    doc: Document  # where the group's entries are written (the PodGroup, or the Job)
    label: str  # PodGroup "x" / the PodGroup of Job "x"
    path: FieldPath  # of the resourceClaims list
    entries: tuple[Entry, ...]
    members: tuple[Member, ...]


def entries(raw: object) -> tuple[Entry, ...]:
    out = []
    for i, e in enumerate(items(raw)):
        e = mapping(e)
        name = e.get("name")
        if isinstance(name, str) and name:
            out.append(Entry(i, name, _text(e.get("resourceClaimName")), _text(e.get("resourceClaimTemplateName"))))
    return tuple(out)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def groups(index: Index, gates: GateSet) -> list[GroupClaims]:
    """Every group with claims and member pods in the inputs; none with the gate off."""
    if not gates.enabled(GATE):
        return []
    out = []
    for key, doc in index.podgroups.items():
        claims = entries(mapping(doc.obj.get("spec")).get("resourceClaims"))
        if claims and index.members.get(key):
            out.append(GroupClaims(doc, f'PodGroup "{doc.name}"', ("spec", "resourceClaims"), claims,
                                   tuple(index.members[key])))
    caps = capabilities(gates.release.version)
    if caps.job_scheduling_field and gates.on.workload_with_job and gates.on.generic_workload:
        out += [g for g in map(_job_group, index.jobs) if g is not None]
    return out


def _job_group(member: Member) -> GroupClaims | None:
    """The Job controller's PodGroup for a Job whose template names no PodGroup of its own; a Job with a controller
    owner (a JobSet's child) gets none (job_scheduling_manager.go shouldManageWorkloadForJob)."""
    scheduling = mapping(mapping(member.doc.obj.get("spec")).get("scheduling"))
    claims = entries(scheduling.get("resourceClaims"))
    owned = any(mapping(o).get("controller") is True for o in items(member.doc.metadata.get("ownerReferences")))
    if not claims or owned or member.pod_spec.get("schedulingGroup") is not None:
        return None
    label = f'the PodGroup "{member.doc.name}{JOB_GROUP_SUFFIX}" of Job "{member.doc.name}"'
    return GroupClaims(member.doc, label, ("spec", "scheduling", "resourceClaims"), claims, (member,))


def check_group_claims(index: Index, gates: GateSet) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for group in groups(index, gates):
        shared: dict[str, int] = {}
        own: dict[str, int] = {}
        for member in group.members:
            mine = entries(member.pod_spec.get("resourceClaims"))
            matched = [g for g in group.entries if any(g.name == p.name and g.same_source(p) for p in mine)]
            for pod_entry in mine:
                exact = any(g.name == pod_entry.name and g.same_source(pod_entry) for g in matched)
                table = shared if exact else own
                table[pod_entry.name] = table.get(pod_entry.name, 0) + member.count
                if not exact:
                    out += _near_miss(group, member, pod_entry, matched)
        out += _unused(group, shared)
        out.append(_summary(group, shared, own))
    return out


def _near_miss(group: GroupClaims, member: Member, pod: Entry, matched: list[Entry]) -> list[Diagnostic]:
    """WAS426: the pod entry shares a name or a source with a group entry, but not both. A source the pod already
    shares under the group's name (`matched`) is deliberate when used again for a claim of the pod's own."""
    path = member.pod_path + ("resourceClaims", pod.index)
    for g in group.entries:
        if g.name == pod.name:
            return [make(member.doc, "WAS426", f'{member.label} claim "{pod.name}" names {pod.source}, but entry '
                         f'"{g.name}" of {group.label} names {g.source}; only an entry equal in name and source is '
                         f"shared, so {_consequence(pod)}", path + (_field(pod),),
                         f"write {g.source} here to share the group's claim, or rename the pod's entry")]
    for g in group.entries:
        if g.same_source(pod) and g not in matched:
            return [make(member.doc, "WAS426", f'{member.label} claim "{pod.name}" names {pod.source} like entry '
                         f'"{g.name}" of {group.label}, but under another name; only an entry equal in name and '
                         f"source is shared, so {_consequence(pod)}", path + ("name",),
                         f'name the pod\'s entry "{g.name}" to share the group\'s claim')]
    return []


def _consequence(pod: Entry) -> str:
    if pod.template:
        return "every pod gets its own claim from the template"
    return "the claim is reserved for each pod (at most 256) instead of for the PodGroup"


def _field(entry: Entry) -> str:
    return "resourceClaimTemplateName" if entry.template else "resourceClaimName"


def _unused(group: GroupClaims, shared: dict[str, int]) -> list[Diagnostic]:
    """WAS427: a group entry no member pod uses: its claim is never allocated, and no pod gets its devices."""
    pods = sum(m.count for m in group.members)
    return [make(group.doc, "WAS427", f'entry "{g.name}" ({g.source}) of {group.label} is used by none of its '
                 f"{plural(pods, 'member pod')} in the inputs; a pod shares it only with an entry of the same name and "
                 "source", group.path + (g.index, "name"),
                 f'add {{name: {g.name}, {_field(g)}: {g.template or g.claim}}} to the pods\' resourceClaims')
            for g in group.entries if g.name not in shared]


def _summary(group: GroupClaims, shared: dict[str, int], own: dict[str, int]) -> Diagnostic:
    """WAS425: which pod claims are shared by the group and which stay per pod."""
    def listed(table: dict[str, int]) -> str:
        return ", ".join(f'"{name}" ({plural(count, "pod")})' for name, count in sorted(table.items())) or "none"

    return make(group.doc, "WAS425", f"{group.label}: claims shared by the group: {listed(shared)}; "
                f"claims of each pod's own: {listed(own)}", group.path,
                shared=sorted(shared), perPod=sorted(own))


"""The ResourceClaim controller's part of the story: which claim each `spec.resourceClaims` entry stands for,
and the claims it creates from ResourceClaimTemplates.

Upstream: k8s.io/kubernetes `pkg/controller/resourceclaim/controller.go` (one claim per pod and template entry,
owned by the pod, `generateName: <pod>-<entry>-`, recorded in `pod.status.resourceClaimStatuses`) and KEP-5729
with `k8s.io/dynamic-resource-allocation` `resourceclaim/resourceclaim.go` (v0.36.0) for PodGroup-level claims:
with DRAWorkloadResourceClaims on, a pod entry is a *group claim* only when its name and its claim or template
name equal an entry of the pod's PodGroup (`BindTo`); the controller then creates one claim per PodGroup, owned by
the PodGroup and shared by every member. With the gate off every entry is the pod's own.

Names. Upstream appends five random characters to `<owner>-<entry>-`; a plan must be reproducible, so wasplan
derives the five characters from the namespace, owner kind, owner and entry names (same alphabet as the API
server's generator), e.g. `trainer-0-gpu-x7k2q`. A base longer than 57 characters is shortened the way the
controller does it, each part in proportion to its length. A snapshot pod whose `status.resourceClaimStatuses`
already names its claim keeps that name; a PodGroup's `status.resourceClaimStatuses` likewise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from wasplan.cluster.api_objects import stable_uid
from wasplan.cluster.devices import OwnerReference, ResourceClaim, ResourceClaimTemplate
from wasplan.cluster.model import Pod, PodClaim
from wasplan.plan import ClaimOwner

POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name"
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # k8s.io/apimachinery/pkg/util/rand: no vowels, no look-alikes
_MAX_BASE = 57  # 63 characters minus "-" and five generated ones


@dataclass(frozen=True, slots=True)
class ClaimRef:
    """What one pod entry resolves to: the claim's name (None: not generated yet) and whether it is shared
    with the PodGroup."""

    entry: PodClaim
    name: str | None
    group: bool = False
    template: str | None = None


def _suffix(seed: str) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:5])


def generated_name(namespace: str, owner: ClaimOwner) -> str:
    """`<owner>-<entry>-<5 characters>`, deterministic."""
    base_owner, base_claim = owner.name, owner.claim
    total = len(base_owner) + 1 + len(base_claim)
    if total > _MAX_BASE:
        base_owner = base_owner[:len(base_owner) * _MAX_BASE // total]
        base_claim = base_claim[:len(base_claim) * _MAX_BASE // total]
    return f"{base_owner}-{base_claim}-{_suffix(f'{namespace}/{owner.kind}/{owner.name}/{owner.claim}')}"


def is_group_entry(entry: PodClaim, group_entries) -> bool:
    """`resourceclaim.BindTo`: the pod entry equals a PodGroup entry in name and claim or template name."""
    for g in group_entries:
        if g.name == entry.name and g.resource_claim_name == entry.claim_name and \
                g.resource_claim_template_name == entry.template_name:
            return True
    return False


def group_claim_name(namespace: str, group_name: str, entry, statuses) -> str | None:
    """The claim a PodGroup entry stands for: by name, the status's generated name, or a new generated one."""
    if entry.resource_claim_name:
        return entry.resource_claim_name
    for s in statuses or ():
        if s.name == entry.name and s.resource_claim_name:
            return s.resource_claim_name
    return generated_name(namespace, ClaimOwner("PodGroup", group_name, entry.name))


def resolve(pod: Pod, group_name: str | None, group_entries, group_statuses, group_claims_on: bool) -> list[ClaimRef]:
    """Every entry of `pod` with the claim it stands for."""
    out = []
    for entry in pod.resource_claims:
        if entry.name.startswith("<"):
            continue  # the scheduler's own in-memory claim for DRA-backed extended resources
        if group_claims_on and group_name is not None and is_group_entry(entry, group_entries):
            name = group_claim_name(pod.namespace, group_name, _group_entry(entry, group_entries), group_statuses)
            out.append(ClaimRef(entry, name, group=True, template=entry.template_name))
        elif entry.claim_name:
            out.append(ClaimRef(entry, entry.claim_name))
        else:
            name = entry.generated or generated_name(pod.namespace, ClaimOwner("Pod", pod.name, entry.name))
            out.append(ClaimRef(entry, name, template=entry.template_name))
    return out


def _group_entry(entry: PodClaim, group_entries):
    return next(g for g in group_entries if g.name == entry.name)


def from_template(template: ResourceClaimTemplate, name: str, owner: ClaimOwner) -> ResourceClaim:
    """The claim the controller creates: the template's spec, the owner as controller, the entry annotation
    for PodGroup claims (KEP-5729)."""
    api = "v1" if owner.kind == "Pod" else "scheduling.k8s.io/v1beta1"
    annotations = dict(template.annotations)
    if owner.kind == "PodGroup":
        annotations[POD_CLAIM_NAME_ANNOTATION] = owner.claim
    return ResourceClaim(namespace=template.namespace, name=name, spec=template.spec,
                         owners=(OwnerReference(api, owner.kind, owner.name,
                                                stable_uid(template.namespace, owner.kind, owner.name), True),),
                         annotations=annotations)


def owned_by(claim: ResourceClaim, kind: str, name: str) -> bool:
    """`resourceclaim.IsForPod`-style check: the claim's controller owner is this pod (or PodGroup)."""
    return any(o.controller and o.kind == kind and o.name == name for o in claim.owners)


def copy_claim(claim: ResourceClaim) -> ResourceClaim:
    """A claim record the engine may change (allocation, reservedFor) without touching the parsed input."""
    return replace(claim)

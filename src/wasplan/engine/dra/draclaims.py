"""The pod side of DynamicResources: which claims a pod stands for, the ResourceClaim controller acting for it,
and PreEnqueue's checks with upstream's messages (dynamicresources.go `foreachPodResourceClaim`,
`resourceclaim.IsForPod`; dra.md §3 "PreEnqueue"). A mixin of the plugin class
(engine/plugins/dynamic_resources/plugin.py), kept apart so each module has one job.
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster import claims as controller
from wasplan.cluster.model import PodClaim
from wasplan.engine.dra import extendedclaim as ext
from wasplan.engine.dra.claimstore import ClaimState, ClaimStore, group_consumer, pod_consumer


def not_created_msg(namespace: str, pod: str) -> str:
    return f'pod "{namespace}/{pod}": ResourceClaim not created yet'


def not_found_msg(name: str) -> str:
    return f'resourceclaim.resource.k8s.io "{name}" not found'


def not_owner_msg(namespace: str, claim: str, pod: str) -> str:
    return f"ResourceClaim {namespace}/{claim} was not created for Pod {namespace}/{pod} (Pod is not owner)"


def backed_classes(store: ClaimStore, gates) -> dict:
    """Extended resource name -> the DeviceClass that backs it, when DRAExtendedResource is on."""
    if not gates.on.dra_extended_resource:
        return {}
    from wasplan.engine.dra import extended_resource_classes

    return extended_resource_classes(store.classes.values())


class PodClaims:
    """Needs `store`, `refs`, `group_claims`, `group_claims_on`, `backed` and `extended` on the plugin."""

    def adopt(self, pod):
        """The pod as the plugin schedules it: with DRA-backed extended requests it carries the in-memory claim
        entry, so the plugin runs for it (registry `needs`)."""
        requests = ext.backed_requests(pod, self.backed) if self.backed and pod.containers else []
        if not requests:
            return pod
        key = f"{pod.namespace}/{self._extended_name(pod)}"
        if key in self.store.claims:  # created in an earlier plan (an emitted snapshot)
            if pod.node_name:
                return pod  # a running pod: the claim holds its devices
            self.store.deallocate(self.store.claims.pop(key))  # stale for a pending pod: PostFilter deletes it
        self.extended[pod.key] = requests
        return dataclasses.replace(pod, resource_claims=(*pod.resource_claims, PodClaim(ext.IN_MEMORY_NAME)))

    def pre_enqueue(self, pod, group) -> str | None:
        """Resolve (and generate) the pod's claims; the upstream message when one is missing, else None."""
        entries = group.pg.resource_claims if group is not None else ()
        statuses = group.pg.resource_claim_statuses if group is not None else ()
        refs = controller.resolve(pod, group.record.name if group is not None else None, entries, statuses,
                                  self.group_claims_on)
        for ref in refs:
            problem = self._ensure(pod, ref)
            if problem is not None:
                return problem
        self.refs[pod.key] = refs
        for ref in refs:
            if ref.group and ref.template is not None:
                self.group_claims.setdefault(f"{pod.namespace}/{pod.pod_group}", {})[ref.entry.name] = ref.name
        return None

    def _ensure(self, pod, ref: controller.ClaimRef) -> str | None:
        key = f"{pod.namespace}/{ref.name}"
        state = self.store.get(key)
        if state is None and ref.template is not None:
            template = self.store.templates.get(f"{pod.namespace}/{ref.template}")
            if template is None:
                return not_created_msg(pod.namespace, pod.name)
            owner = controller.ClaimOwner("PodGroup" if ref.group else "Pod",
                                          pod.pod_group if ref.group else pod.name, ref.entry.name)
            state = self.store.add(controller.from_template(template, ref.name, owner), owner)
        if state is None:
            return not_found_msg(ref.name)
        if state.claim.deletion_timestamp is not None:
            return f'resourceclaim "{ref.name}" is being deleted'
        if ref.template is not None:
            kind, name = ("PodGroup", pod.pod_group) if ref.group else ("Pod", pod.name)
            if not controller.owned_by(state.claim, kind, name):
                return not_owner_msg(pod.namespace, ref.name, pod.name)
        return None

    def claims_of(self, pod) -> list[ClaimState]:
        """The pod's claims in `spec.resourceClaims` order, each once."""
        out, seen = [], set()
        for ref in self.refs.get(pod.key, ()):
            key = f"{pod.namespace}/{ref.name}"
            state = self.store.get(key)
            if state is not None and key not in seen:
                seen.add(key)
                out.append(state)
        return out

    def _consumer(self, pod, state: ClaimState):
        for ref in self.refs.get(pod.key, ()):
            if ref.group and f"{pod.namespace}/{ref.name}" == state.claim.key:
                return group_consumer(pod.namespace, pod.pod_group)
        return pod_consumer(pod.namespace, pod.name, pod.uid)

    @staticmethod
    def _extended_name(pod) -> str:
        return controller.generated_name(pod.namespace, controller.ClaimOwner("Pod", pod.name, ext.ENTRY))

"""Lint of DRA references across documents (WAS420-WAS424, WAS431, WAS432): pods' claims and templates, the
claims containers use, the requests they name, the DeviceClasses requests name, and admin access.

Fields follow `k8s.io/api` `core/v1` (`PodResourceClaim`, `ResourceRequirements.claims[] {name, request}`) and
`resource/v1` (`ExactDeviceRequest`, `DeviceSubRequest`) at v0.36.0. Pod specs are those of Pods and of the
controllers' pod templates (`index.pod_templates`: Job, Deployment, StatefulSet, ReplicaSet, JobSet,
LeaderWorkerSet).

When is a missing object reported? A CI run lints one repository, and a ResourceClaimTemplate or DeviceClass is
often applied from another one (the driver's chart installs the DeviceClass), so an object the inputs do not hold
is not an error by default. It is reported (a warning) when (a) a close name of the same kind is in the inputs or
the snapshot, or the exact name is in another namespace: a typo is likely, so the did-you-mean is worth a finding;
or (b) `--cluster` was given and the snapshot holds objects of that kind: then inputs plus snapshot are the whole
world of that kind, as they are for `wasplan plan` (which always reports, WAS660-WAS662).

Admin access: the API server rejects a claim or template with `adminAccess: true` unless its namespace has the
label `resource.kubernetes.io/admin-access: "true"` (k8s.io/kubernetes `test/integration/dra/adminaccess.go`,
`../shared/reference/dra.md` §1). Namespaces are read from Namespace objects of the inputs and the snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from wasplan.api.releases import SCHEDULING_GROUP
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.suggest import did_you_mean
from wasplan.cluster.claimrefs import CLAIM, CLASS, CLUSTER_SCOPED, TEMPLATE, Missing, Refs
from wasplan.validate.index import DEFAULT_NAMESPACE, pod_templates
from wasplan.validate.rules.common import make
from wasplan.validate.walk import POD, items, iter_templates, mapping, value_at

RESOURCE_GROUP = "resource.k8s.io"
ADMIN_LABEL = "resource.kubernetes.io/admin-access"
_CODES = {TEMPLATE: "WAS420", CLAIM: "WAS421", CLASS: "WAS422"}
_FIELDS = {TEMPLATE: "resourceClaimTemplateName", CLAIM: "resourceClaimName"}
_REQUESTS = {CLAIM: ("spec", "devices", "requests"), TEMPLATE: ("spec", "spec", "devices", "requests")}


@dataclass(slots=True)
class ClusterFacts:
    """What `--cluster` tells lint beyond nodes: the DRA objects it holds and its namespaces' labels."""

    refs: Refs = field(default_factory=Refs)
    namespaces: dict[str, dict] = field(default_factory=dict)
    requests: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)  # (kind, ns, name) -> names
    priority_classes: set[str] = field(default_factory=set)  # the snapshot's PriorityClasses


@dataclass(slots=True)
class ClaimIndex:
    refs: Refs = field(default_factory=Refs)
    specs: dict[tuple[str, str, str], Document] = field(default_factory=dict)  # (kind, ns, name) -> claim/template
    pods: list[tuple[Document, FieldPath, dict]] = field(default_factory=list)  # pod specs with claims
    groups: list[tuple[Document, FieldPath]] = field(default_factory=list)  # resourceClaims lists of groups
    namespaces: dict[str, dict] = field(default_factory=dict)  # name -> labels
    cluster_requests: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)  # of the snapshot
    complete: frozenset[str] = frozenset()  # kinds whose every object is known (the snapshot holds that kind)


def namespace_of(doc: Document) -> str:
    return doc.namespace or DEFAULT_NAMESPACE


def build_claim_index(docs: list[Document], cluster: ClusterFacts | None) -> ClaimIndex:
    index = ClaimIndex(refs=cluster.refs.copy() if cluster is not None else Refs())
    if cluster is not None:
        index.namespaces.update(cluster.namespaces)
        index.cluster_requests = cluster.requests
        index.complete = frozenset(k for k in (CLAIM, TEMPLATE, CLASS) if cluster.refs.holds(k))
    for doc in docs:
        if doc.group == RESOURCE_GROUP and doc.kind in (CLAIM, TEMPLATE):
            index.refs.add(doc.kind, namespace_of(doc), doc.name)
            index.specs.setdefault((doc.kind, namespace_of(doc), doc.name), doc)
        elif doc.group == RESOURCE_GROUP and doc.kind == CLASS:
            index.refs.add(CLASS, CLUSTER_SCOPED, doc.name)
        elif doc.api_version == "v1" and doc.kind == "Namespace":
            index.namespaces[doc.name] = mapping(doc.metadata.get("labels"))
        else:
            index.pods += [(doc, path, spec) for path, spec, _ in pod_templates(doc) if _uses_claims(spec)]
            index.groups += [(doc, path) for path in _group_lists(doc)]
    return index


def _group_lists(doc: Document) -> list[FieldPath]:
    """Paths of the `resourceClaims` lists of a PodGroup, a Workload's PodGroup templates and a Job's scheduling."""
    spec = mapping(doc.obj.get("spec"))
    if doc.group == SCHEDULING_GROUP and doc.kind == "PodGroup":
        found = [("spec", "resourceClaims")]
    elif doc.group == SCHEDULING_GROUP and doc.kind == "Workload":
        found = [node.path + ("resourceClaims",) for node in iter_templates(spec, doc.version) if node.kind == POD]
    elif (doc.group, doc.kind) == ("batch", "Job"):
        found = [("spec", "scheduling", "resourceClaims")]
    else:
        return []
    return [path for path in found if items(value_at(doc.obj, path))]


def _uses_claims(spec: dict) -> bool:
    return bool(spec.get("resourceClaims")) or any(mapping(mapping(c).get("resources")).get("claims")
                                                   for c in _containers(spec))


def _containers(spec: dict) -> list:
    return items(spec.get("initContainers")) + items(spec.get("containers"))


def check_claims(index: ClaimIndex) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for doc, path, spec in index.pods:
        out += _entries(index, doc, path + ("resourceClaims",), f"{_where(doc)} claim", "the pod waits")
        out += _container_claims(index, doc, path, spec)
    for doc, path in index.groups:
        out += _entries(index, doc, path, f'{doc.kind} "{doc.name}" group claim', "its pods wait")
    for (kind, _, _), doc in index.specs.items():
        for req_path, request in _request_specs(doc, _REQUESTS[kind]):
            out += _request(index, doc, req_path, request)
    return out


def _reportable(index: ClaimIndex, missing: Missing | None) -> Missing | None:
    """The missing object if lint reports it (see the module docstring for when), else None."""
    if missing is not None and (missing.near_miss or missing.kind in index.complete):
        return missing
    return None


def _where(doc: Document) -> str:
    return f'pod "{doc.name}"' if doc.kind == "Pod" else f'{doc.kind} "{doc.name}" pod template'


def _entries(index: ClaimIndex, doc: Document, path: FieldPath, who: str, waits: str) -> list[Diagnostic]:
    """WAS420/WAS421 for one `resourceClaims` list (of a pod spec or a group) at `path`."""
    out = []
    for i, entry in enumerate(items(value_at(doc.obj, path))):
        entry = mapping(entry)
        claim, template = _text(entry.get("resourceClaimName")), _text(entry.get("resourceClaimTemplateName"))
        missing = _reportable(index, index.refs.claim_source(namespace_of(doc), claim, template))
        if missing is None:
            continue
        out.append(make(doc, _CODES[missing.kind],
                        f'{who} "{entry.get("name")}" names {missing.kind} "{missing.name}", which is not among the '
                        f"inputs{_scope(index, missing)}; {waits} until it exists",
                        path + (i, _FIELDS[missing.kind]), missing.hint()))
    return out


def _scope(index: ClaimIndex, missing: Missing) -> str:
    where = f" in namespace {missing.namespace}" if missing.namespace != CLUSTER_SCOPED else ""
    return where + (" or the cluster snapshot" if missing.kind in index.complete else "")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _container_claims(index: ClaimIndex, doc: Document, path: FieldPath, spec: dict) -> list[Diagnostic]:
    declared = {_text(mapping(e).get("name")): mapping(e) for e in items(spec.get("resourceClaims"))}
    declared.pop(None, None)
    out = []
    for list_name, ci, container in _indexed_containers(spec):
        for k, use in enumerate(items(mapping(mapping(container).get("resources")).get("claims"))):
            use = mapping(use)
            name, at = _text(use.get("name")), path + (list_name, ci, "resources", "claims", k)
            if name is None:
                continue
            if name not in declared:
                out.append(_undeclared(doc, container, name, sorted(n for n in declared if n), at))
            elif _text(use.get("request")) is not None:
                out += _request_name(index, doc, declared[name], use["request"], at + ("request",))
    return out


def _indexed_containers(spec: dict) -> Iterator[tuple[str, int, object]]:
    for list_name in ("initContainers", "containers"):
        for i, container in enumerate(items(spec.get(list_name))):
            yield list_name, i, container


def _undeclared(doc: Document, container: object, name: str, declared: list[str], at: FieldPath) -> Diagnostic:
    listed = ", ".join(f'"{n}"' for n in declared) or "none"
    suggestion = did_you_mean(name, declared)
    return make(doc, "WAS423", f'container "{mapping(container).get("name")}" uses claim "{name}", which '
                f"spec.resourceClaims does not declare (it declares: {listed}); the API server rejects the pod",
                at + ("name",), f'did you mean "{suggestion}"?' if suggestion else
                "declare the claim in spec.resourceClaims or fix the name")


def _request_name(index: ClaimIndex, doc: Document, entry: dict, request: str, at: FieldPath) -> list[Diagnostic]:
    """WAS424: a container's `request` must name a request (or `request/subrequest`) of the claim it uses."""
    template, claim = _text(entry.get("resourceClaimTemplateName")), _text(entry.get("resourceClaimName"))
    kind, name = (TEMPLATE, template) if template else (CLAIM, claim)
    key = (kind, namespace_of(doc), name or "")
    source = index.specs.get(key)
    known = _request_names(source, _REQUESTS[kind]) if source is not None else index.cluster_requests.get(key)
    if known is None or request in known:  # None: neither the inputs nor the snapshot hold the claim
        return []
    listed = ", ".join(f'"{n}"' for n in known if "/" not in n) or "none"
    suggestion = did_you_mean(request, known)
    return [make(doc, "WAS424", f'container claim "{entry.get("name")}" names request "{request}", which {kind} '
                 f'"{name}" does not have (it has: {listed}); the container would get no device from it', at,
                 f'did you mean "{suggestion}"?' if suggestion else None)]


def _request_names(doc: Document, base: FieldPath) -> list[str]:
    names = []
    for request in items(value_at(doc.obj, base)):
        name = _text(mapping(request).get("name"))
        if name is None:
            continue
        names.append(name)
        names += [f"{name}/{_text(mapping(s).get('name'))}" for s in items(mapping(request).get("firstAvailable"))
                  if _text(mapping(s).get("name"))]
    return names


def _request_specs(doc: Document, base: FieldPath) -> Iterator[tuple[FieldPath, dict]]:
    """(path, spec) of every `exactly` request and `firstAvailable` subrequest of a claim or template."""
    for i, request in enumerate(items(value_at(doc.obj, base))):
        request = mapping(request)
        if isinstance(request.get("exactly"), dict):
            yield base + (i, "exactly"), request["exactly"]
        for j, sub in enumerate(items(request.get("firstAvailable"))):
            yield base + (i, "firstAvailable", j), mapping(sub)


def _request(index: ClaimIndex, doc: Document, path: FieldPath, spec: dict) -> list[Diagnostic]:
    out = []
    name = _text(spec.get("deviceClassName"))
    missing = _reportable(index, index.refs.device_class(name) if name else None)
    if missing is not None:
        out.append(make(doc, "WAS422", f'{doc.kind} "{doc.name}" requests devices of DeviceClass "{missing.name}", '
                        f"which is not among the inputs{_scope(index, missing)}; pods using it stay Pending "
                        f"(device class {missing.name} does not exist)", path + ("deviceClassName",),
                        missing.hint()))
    if spec.get("adminAccess") is True:
        out += _admin_access(index, doc, path)
    return out


def _admin_access(index: ClaimIndex, doc: Document, path: FieldPath) -> list[Diagnostic]:
    namespace = namespace_of(doc)
    labels = index.namespaces.get(namespace)
    at = path + ("adminAccess",)
    if labels is None:
        return [make(doc, "WAS432", f'{doc.kind} "{doc.name}" asks for admin access, but namespace {namespace} is '
                     f"not among the inputs or the cluster snapshot, so its {ADMIN_LABEL} label cannot be checked",
                     at, f'the API server accepts admin access only in a namespace labelled {ADMIN_LABEL}: "true"')]
    if labels.get(ADMIN_LABEL) == "true":
        return []
    return [make(doc, "WAS431", f'{doc.kind} "{doc.name}" asks for admin access, but namespace {namespace} does not '
                 f'have the label {ADMIN_LABEL}: "true"; the API server rejects it', at,
                 f'label the namespace: kubectl label namespace {namespace} {ADMIN_LABEL}=true')]

"""Validate documents for one Kubernetes release: served versions, schemas, server rules and feature gates.

The order matters for what users see: a version the release does not serve is reported first (with the
migrate command that fixes it), but the document is still checked against its own version's schema, its
server rules and its gates, so every other mistake shows up in the same run. The rules tolerate values of the
wrong type (the schema reports those), so they run on malformed documents too.

Served versions: scheduling.k8s.io's workload kinds follow `api/releases.py` (a version no release ever had,
`v1beta2`, is WAS115 with the nearest served version instead of a migrate hint that cannot work); every other
built-in group follows `api/served.py` (WAS109 for a version the release does not have, WAS113 for a version that
exists without the kind), naming the versions that serve the kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Sequence

from wasplan.api import served as builtin
from wasplan.api.releases import SCHEDULING_GROUP, SCHEDULING_VERSIONS, GateSet
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Severity, format_path, sort_diagnostics
from wasplan.documents.model import Document
from wasplan.documents.sources import STDIN_NAME
from wasplan.suggest import did_you_mean
from wasplan.validate import core_schemas, crd_schemas, gates as gate_checks, rules, schemas
from wasplan.validate.schema_errors import SchemaErrorMapper

WASPLAN_GROUP = "wasplan.io"
KUEUE_GROUP = schemas.KUEUE_GROUP


class DocumentVerdict(StrEnum):
    """A document's verdict in the ValidationReport (`documents[].verdict`)."""

    VALID = "valid"
    INVALID = "invalid"
    SKIPPED = "skipped"  # no schema knows the kind (a CRD and the like)


@dataclass
class DocumentResult:
    """One document's findings and whether it was checked."""

    doc: Document
    diagnostics: list[Diagnostic] = field(default_factory=list)
    checked: bool = True  # False when no schema knows the kind
    read_errors: list[Diagnostic] = field(default_factory=list)  # errors found reading this document (WAS005)

    @property
    def verdict(self) -> DocumentVerdict:
        if any(d.severity is Severity.ERROR for d in self.diagnostics) or self.read_errors:
            return DocumentVerdict.INVALID
        return DocumentVerdict.VALID if self.checked else DocumentVerdict.SKIPPED


def _kueue_check(doc: Document) -> list[Diagnostic]:
    """WAS240 for a kueue.x-k8s.io version Kueue v0.17.0's CRDs do not serve; a kind it has no CRD for
    (MultiKueueCluster, a typo) stays WAS010, with the nearest kind."""
    served = sorted({av for av, kind in schemas.available() if av.startswith(f"{KUEUE_GROUP}/")})
    if doc.api_version in served or not any(kind == doc.kind for _, kind in schemas.available()):
        return []
    return [Diagnostic("WAS240", lookup("WAS240").severity,
                       f"Kueue v0.17.0 does not serve {doc.api_version}; it serves {doc.kind} as {_listing(served)}",
                       doc.location(("apiVersion",)), f"write apiVersion: {schemas.KUEUE_PREFERRED}")]


def _kueue_config_check(doc: Document) -> list[Diagnostic]:
    """WAS249 for a config.kueue.x-k8s.io version Kueue v0.17.0 cannot read (it reads v1beta1 and v1beta2)."""
    served = sorted(av for av, kind in schemas.available() if av.startswith(f"{schemas.KUEUE_CONFIG_GROUP}/"))
    if doc.api_version in served or doc.kind != "Configuration":
        return []
    return [Diagnostic("WAS249", lookup("WAS249").severity,
                       f"Kueue v0.17.0 reads no Configuration {doc.api_version}; it reads {_listing(served)}",
                       doc.location(("apiVersion",)), f"write apiVersion: {served[-1]}")]


def _served_check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    release = gates.release
    if doc.group == KUEUE_GROUP:
        return _kueue_check(doc)
    if doc.group == schemas.KUEUE_CONFIG_GROUP:
        return _kueue_config_check(doc)
    if doc.group != SCHEDULING_GROUP or doc.kind in ("PriorityClass", "PriorityClassList"):
        return _builtin_check(doc, release.version)
    if release.serves(doc.api_version, doc.kind):
        return []
    serving = release.versions_serving(doc.kind)
    if serving:
        also = f"; it serves {doc.kind} as {' and '.join(serving)}"
    else:
        also = f"; no version of {doc.kind} exists in {release.version}"
    if doc.api_version not in SCHEDULING_VERSIONS:  # v1beta2: no release has it, so migrate has nothing to start from
        return [_unknown_version(doc, release.version, serving)]
    hint = f"run `{_migrate_command(release.version, doc.source)}`" if serving else _kind_hint(doc, release)
    if doc.api_version in release.served:  # the group/version exists, only not with this kind (WAS113)
        message = f"{doc.api_version} does not serve {doc.kind} in Kubernetes {release.version}{also}"
        return [Diagnostic("WAS113", lookup("WAS113").severity, message, doc.location(("kind",)), hint)]
    message = f"{doc.api_version} {doc.kind} is not served by Kubernetes {release.version}{also}"
    return [Diagnostic("WAS109", lookup("WAS109").severity, message, doc.location(("apiVersion",)), hint)]


def _unknown_version(doc: Document, release: str, serving: list[str]) -> Diagnostic:
    nearest = did_you_mean(doc.api_version, serving) or (serving[0] if serving else None)
    also = f"; Kubernetes {release} serves {doc.kind} as {_listing(serving)}" if serving else ""
    message = (f"{doc.api_version} does not exist: no Kubernetes release has version "
               f"{doc.api_version.rpartition('/')[2]} of {SCHEDULING_GROUP}{also}")
    hint = f"did you mean apiVersion: {nearest}?" if nearest else None
    return Diagnostic("WAS115", lookup("WAS115").severity, message, doc.location(("apiVersion",)), hint)


def _builtin_check(doc: Document, release: str) -> list[Diagnostic]:
    """A built-in group's version the release does not have (WAS109), or has without this kind (WAS113)."""
    api_version, kind = doc.api_version, doc.kind
    base = kind[:-4] if kind.endswith("List") and kind != "List" else kind
    if not kind or not builtin.is_builtin(api_version) or base == "List" or builtin.serves(release, api_version, base):
        return []
    group = builtin.group_of(api_version)
    has_version = api_version in builtin.BUILTIN[release]
    serving = builtin.versions_serving(release, base, group)
    if not serving and has_version:
        # a kind no version has: a typo, or a custom kind; only a group nobody can extend makes that an error
        closed = builtin.closed(group) and (api_version, kind) not in builtin.CLIENT_KINDS
        return [_no_such_kind(doc, release, group)] if closed else []
    if serving:
        also = f"; it serves {base} as {_listing(serving)}"
        hint = (f"write apiVersion: {serving[0]}, then check the fields against that version (wasplan validate "
                "reports the differences)")
    else:
        group_versions = builtin.versions_of_group(release, group)
        also = f"; it serves {group or 'the core group'} as {', '.join(group_versions)}" if group_versions else ""
        hint = None
    if has_version:
        message = f"{api_version} does not serve {base} in Kubernetes {release}{also}"
        return [Diagnostic("WAS113", lookup("WAS113").severity, message, doc.location(("kind",)), hint)]
    message = f"{api_version} {base} is not served by Kubernetes {release}{also}"
    return [Diagnostic("WAS109", lookup("WAS109").severity, message, doc.location(("apiVersion",)), hint)]


def _no_such_kind(doc: Document, release: str, group: str) -> Diagnostic:
    """The API server finds no resource for the kind ("no matches for kind"); the closest kind of the group."""
    guess = did_you_mean(doc.kind, builtin.kinds_of_group(release, group))
    message = (f"{doc.api_version} has no kind {doc.kind} in Kubernetes {release}, and no custom resource can add one "
               f"to {group or 'the core group'}: the API server finds no resource for it")
    return Diagnostic("WAS113", lookup("WAS113").severity, message, doc.location(("kind",)),
                      f"did you mean kind: {guess}?" if guess else None)


def _listing(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _migrate_command(version: str, source: str) -> str:
    """The migrate command for the file a finding is in; input from stdin is piped in again through `-`."""
    if source == STDIN_NAME:
        return f"... | wasplan migrate --to-k8s {version} -"
    return f"wasplan migrate --to-k8s {version} {source}"


def _kind_hint(doc: Document, release) -> str | None:
    guess = did_you_mean(doc.kind, {kind for kinds in release.served.values() for kind in kinds})
    return f"did you mean kind: {guess}?" if guess else None


def _schema_check(doc: Document, gates: GateSet) -> tuple[list[Diagnostic], bool]:
    """Returns the findings and whether any schema knew the kind."""
    own = (schemas.shared_schema(doc.api_version, doc.kind)
           if doc.group in (SCHEDULING_GROUP, WASPLAN_GROUP, KUEUE_GROUP, schemas.KUEUE_CONFIG_GROUP) else None)
    if own is not None:
        validator = schemas.validator(doc.api_version, doc.kind)
        roots = [own]
    else:
        release = gates.release.version
        validator = core_schemas.core_validator(release, doc.api_version, doc.kind)
        roots = core_schemas.core_roots(release, doc.api_version, doc.kind)
        if validator is None:
            validator = crd_schemas.validator(release, doc.api_version, doc.kind)
            if validator is None:
                return [], False
            roots = [crd_schemas.skeleton(release, doc.api_version, doc.kind), core_schemas.definitions(release)]
    errors = validator.iter_errors(doc.obj)
    return SchemaErrorMapper(doc, roots).map(errors), True


# kubernetes-sigs/scheduler-plugins' coscheduling API groups (apis/scheduling/v1alpha1: PodGroup, ElasticQuota):
# scheduling.x-k8s.io today, scheduling.sigs.k8s.io in its older releases and docs (doc/install.md)
COSCHEDULING_GROUPS = ("scheduling.x-k8s.io", "scheduling.sigs.k8s.io")


def _unknown_kind(doc: Document) -> Diagnostic:
    """Not validated; within a group wasplan knows, a misspelt kind (`Podgroup`) gets a suggestion. scheduler-
    plugins' PodGroup is named for what it is: a gang for an out-of-tree scheduler that wasplan does not model."""
    if doc.group in COSCHEDULING_GROUPS and doc.kind == "PodGroup":
        return Diagnostic("WAS434", lookup("WAS434").severity,
                          f"{doc.api_version} PodGroup is scheduler-plugins' Coscheduling gang, which kube-scheduler's "
                          "in-tree plugins ignore and wasplan does not model: its pods are planned one by one, "
                          "without minMember; not validated", doc.location(("kind",)),
                          "for a gang kube-scheduler 1.36/1.37 schedules, write a scheduling.k8s.io PodGroup "
                          "(or Workload) and name it in the pods' spec.schedulingGroup")
    known = {kind for api_version, kind in schemas.available() if api_version.split("/")[0] == doc.group}
    guess = did_you_mean(doc.kind, known) if known else None
    return Diagnostic("WAS010", lookup("WAS010").severity,
                      f"no schema for {doc.api_version} {doc.kind}; not validated", doc.location(("kind",)),
                      f"did you mean kind: {guess}?" if guess else None)


def check_document(doc: Document, gates: GateSet) -> DocumentResult:
    found = _served_check(doc, gates)
    schema_diags, known = _schema_check(doc, gates)
    found.extend(schema_diags)
    if not known:  # not served is the finding that matters; with no schema, only the metadata every kind has
        found += _stored_metadata(doc)
        return DocumentResult(doc, found or [_unknown_kind(doc)], checked=bool(found))
    found.extend(rules.check(doc, gates))
    found.extend(gate_checks.check_gates(doc, gates))
    return DocumentResult(doc, sort_diagnostics(_server_verdict(doc, _not_required_by_server(doc, _unique(found)))))


# Kinds whose registry strategy empties `status` on create (PrepareForCreate in pkg/registry/.../strategy.go).
# Decoding findings: the server's decoder meets them before anything is dropped or reset.
DECODE_CODES = {"WAS101", "WAS103"}
STATUS_RESET_ON_CREATE = {("scheduling.k8s.io", "PodGroup"), ("scheduling.k8s.io", "CompositePodGroup"),
                          ("resource.k8s.io", "ResourceClaim"), ("", "Pod"), ("batch", "Job")} | {
    (KUEUE_GROUP, k) for k in ("AdmissionCheck", "ClusterQueue", "Cohort", "LocalQueue", "Workload")}  # status subresource


# Fields the release's strict schema marks required although the API server accepts the object without them
# (the Go field is a struct, not a pointer, and an empty one validates): found by the oracle's validate. `*`
# stands for any list index or map key: a counter's or a device capacity's `value` is a resource.Quantity, and a
# missing one decodes to zero, which 1.36-1.38 accept in sharedCounters, consumesCounters and capacity alike.
ANY = "*"
SERVER_OPTIONAL = {("resource.k8s.io", "DeviceClass"): {("spec",)},
                   ("resource.k8s.io", "ResourceClaimTemplate"): {("spec",), ("spec", "spec")},
                   ("resource.k8s.io", "ResourceSlice"): {
                       ("spec", "sharedCounters", ANY, "counters", ANY, "value"),
                       ("spec", "devices", ANY, "consumesCounters", ANY, "counters", ANY, "value"),
                       ("spec", "devices", ANY, "capacity", ANY, "value")}}


def _optional(path: tuple, patterns: set[tuple]) -> bool:
    return any(len(p) == len(path) and all(want in (ANY, got) for want, got in zip(p, path)) for p in patterns)


def _not_required_by_server(doc: Document, diags: list[Diagnostic]) -> list[Diagnostic]:
    optional = SERVER_OPTIONAL.get((doc.group, doc.kind))
    if not optional:
        return diags
    return [d for d in diags if not (d.code == "WAS102" and _optional(d.location.path, optional))]


def _server_verdict(doc: Document, diags: list[Diagnostic]) -> list[Diagnostic]:
    """What the API server throws away on create cannot make it reject the object: an error inside a field
    that a gate drops (WAS301) or inside the `status` the strategy resets stays a finding, as a warning, and
    the verdict is the server's (found by the API server oracle, issue 22). Unknown fields and wrong types stay
    errors: the strict decoder rejects them before the strategy drops anything."""
    dropped = [d.location.path for d in diags if d.code == "WAS301"]
    if (doc.group, doc.kind) in STATUS_RESET_ON_CREATE:
        dropped.append(("status",))
    if not dropped:
        return diags
    out = []
    for d in diags:
        path = d.location.path
        inside = any(path[:len(p)] == p for p in dropped)
        # a union of the object holding a dropped member: the server sees the union without that member
        union = d.code == "WAS108" and any(p[:-1] == path and f"{p[-1]} " in d.message for p in dropped if p)
        if d.severity is Severity.ERROR and d.code not in DECODE_CODES and (inside or union):
            why = "status is reset" if path[:1] == ("status",) else "the field is dropped"
            d = replace(d, severity=Severity.WARNING,
                        message=f"{d.message} (not an error for the API server: {why} on create)")
        out.append(d)
    return out


def _unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Two layers may see the same fault at the same field; show it once."""
    seen: set[tuple] = set()
    out = []
    for d in diags:
        key = (d.code, d.location.path)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _stored_metadata(doc: Document) -> list[Diagnostic]:
    """The metadata every reader of a snapshot object (or of a manifest of a kind without a schema) relies on (names, labels, owners: the cluster's parsers,
    Kueue's admission model, the eviction of a job's pods) has the API server's types: a wrong one is WAS103
    with its file, line and field, before anything reads it."""
    meta = doc.obj.get("metadata") if isinstance(doc.obj, dict) else None
    if meta is None:
        return []
    if not isinstance(meta, dict):
        return [_wrong_type(doc, ("metadata",), "an object", meta)]
    out = [_wrong_type(doc, ("metadata", key), "a string", meta[key])
           for key in ("name", "generateName", "namespace") if key in meta and not isinstance(meta[key], str)]
    for key in ("labels", "annotations"):
        value = meta.get(key)
        if value is not None and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
            out.append(_wrong_type(doc, ("metadata", key), "a map of strings", value))
    refs = meta.get("ownerReferences")
    if refs is not None and not isinstance(refs, list):
        out.append(_wrong_type(doc, ("metadata", "ownerReferences"), "a list", refs))
    for i, ref in enumerate(refs if isinstance(refs, list) else ()):
        if not isinstance(ref, dict):
            out.append(_wrong_type(doc, ("metadata", "ownerReferences", i), "an owner reference", ref))
            continue
        out += [_wrong_type(doc, ("metadata", "ownerReferences", i, k), "a string", ref[k])
                for k in ("apiVersion", "kind", "name", "uid") if k in ref and not isinstance(ref[k], str)]
    return out


_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "integer", float: "number", bool: "boolean",
               type(None): "null"}


def _wrong_type(doc: Document, path: tuple, want: str, got: object) -> Diagnostic:
    shown = _JSON_TYPES.get(type(got), type(got).__name__)
    return Diagnostic("WAS103", lookup("WAS103").severity, f"{format_path(path)} must be {want}, got {shown}",
                      doc.location(path))


def check_stored(doc: Document, gates: GateSet) -> DocumentResult:
    """A snapshot object, which an API server already accepted (`plan --cluster`, default `--validate-cluster
    stored`): whether the release serves its version, and nothing of the creation rules. The fields the planner
    reads are checked where it reads them (cluster/parse_*.py: WAS601, WAS602 with file, line and field); Kueue's
    objects, which the admission model reads first, against their CRD's structure. The compact Cluster kind is
    wasplan's own and no server has seen it: it gets the full check."""
    if doc.group == WASPLAN_GROUP:
        return check_document(doc, gates)
    found = _served_check(doc, gates) + _stored_metadata(doc)
    if doc.group == KUEUE_GROUP and not found:
        # Kueue's admission model reads its objects before the cluster is built: a snapshot's Workload, queue or
        # flavor is held to the CRD's structure (types and shapes, not the webhooks' creation rules), so a
        # malformed one is a finding with file, line and field rather than a fault in the model
        found = [d for d in _schema_check(doc, gates)[0] if d.severity is Severity.ERROR]
    return DocumentResult(doc, found)


def check_documents(docs: Sequence[Document], gates: GateSet, read_diagnostics: Sequence[Diagnostic] = (),
                    check=check_document) -> list[DocumentResult]:
    """`read_diagnostics`: what reading found; an error located in a document (a duplicate key, WAS005) makes that
    document invalid, as the API server's strict decoding refuses it. It stays reported where reading reports it.
    `check`: `check_document` (everything, manifests) or `check_stored` (snapshot objects)."""
    results = [check(doc, gates) for doc in docs]
    by_place = {(r.doc.source, r.doc.index): r for r in results}
    for d in read_diagnostics:
        found = by_place.get((d.location.file, d.location.doc)) if d.severity is Severity.ERROR else None
        if found is not None:
            found.read_errors.append(d)
    return results

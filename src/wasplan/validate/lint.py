"""Cross-object lint: what no single document shows, checked over all inputs at once (codes WAS4xx).

`lint(docs, gates, nodes)` builds one index (validate.index) and runs each check against it, so the cost is
linear in the number of documents. Duplicates and same-named objects of different directories are sorted out
first (validate/worlds.py), so two objects with one name are never checked as one. Checks that need other
documents to judge one document live here and in `members` (pods joining groups), `hierarchy` (CompositePodGroup
parents), `claim_lint` (DRA references), `group_claims` (PodGroup claims versus the pods' claims) and
`priority_lint` (PriorityClasses that exist nowhere), `kueue_lint` (Kueue's references by name), `kueue_config_lint` (Kueue's Configuration against the rest). The device checks against a snapshot's ResourceSlices
need the engine's matcher and live above it (`pipeline.lint_devices`).
"""

from __future__ import annotations

from typing import Iterator

from wasplan.api.releases import SCHEDULING_GROUP, GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.suggest import guess
from wasplan.validate.claim_lint import ClusterFacts, build_claim_index, check_claims
from wasplan.validate.group_claims import GATE as GROUP_CLAIMS_GATE, check_group_claims, entries
from wasplan.validate.hierarchy import check_hierarchy
from wasplan.validate.index import Index, build_index, key_of
from wasplan.validate.kueue_config_lint import check_kueue_config
from wasplan.validate.kueue_lint import check_kueue
from wasplan.validate.members import check_members
from wasplan.validate.priority_lint import check_priority_classes
from wasplan.validate.rules.common import GANG, make, policy_kind
from wasplan.validate.worlds import once, without_duplicates, worlds
from wasplan.validate.walk import COMPOSITE, POD, caps_of_version, iter_templates, mapping, topology_keys


def lint(docs: list[Document], gates: GateSet, nodes: list[dict] | None = None,
         cluster: ClusterFacts | None = None) -> list[Diagnostic]:
    """Every cross-object finding; `nodes` and `cluster` come from `--cluster` (labels, DRA objects, namespaces).
    A duplicate within a directory is WAS606 and left out; directories that each define an object are checked
    apart (validate/worlds.py)."""
    kept, out = without_duplicates(docs)
    found = [d for world in worlds(kept) for d in _lint_world(world, gates, nodes, cluster)]
    return out + once(found)


def _lint_world(docs: list[Document], gates: GateSet, nodes: list[dict] | None,
                cluster: ClusterFacts | None) -> list[Diagnostic]:
    index = build_index(docs)
    release = gates.release.version
    out: list[Diagnostic] = []
    for doc in list(index.podgroups.values()) + list(index.composites.values()):
        out += check_workload_ref(index, doc)
    out += check_members(index, release)
    out += check_hierarchy(index, release)
    out += check_claims(build_claim_index(docs, cluster))
    out += check_priority_classes(docs, cluster.priority_classes if cluster is not None else None)
    out += check_group_claims(index, gates)
    out += check_kueue(docs)
    out += check_kueue_config(docs)
    if gates.enabled(GROUP_CLAIMS_GATE):
        out += [d for doc in index.podgroups.values() for d in check_template_claims(index, doc)]
    if nodes is not None:
        out += check_topology_keys(docs, nodes)
    return out


def workload_ref(doc: Document) -> tuple[FieldPath, str, str] | None:
    """(path of the reference, workload name, template name) of a PodGroup or CompositePodGroup.

    1.36 (v1alpha2) nests it as podGroupTemplateRef.workload{workloadName, podGroupTemplateName}; 1.37 has
    workloadRef{workloadName, templateName} (api-reference §8.2).
    """
    spec = mapping(doc.obj.get("spec"))
    caps = caps_of_version(doc.version)
    if caps is not None and caps.nested_template_ref:
        path: FieldPath = ("spec", "podGroupTemplateRef", "workload")
        template_field = "podGroupTemplateName"
        ref = mapping(mapping(spec.get("podGroupTemplateRef")).get("workload"))
    else:
        path, template_field = ("spec", "workloadRef"), "templateName"
        ref = mapping(spec.get("workloadRef"))
    workload, template = ref.get("workloadName"), ref.get(template_field)
    if not isinstance(workload, str) or not workload or not isinstance(template, str) or not template:
        return None
    return path + (template_field,), workload, template


def check_workload_ref(index: Index, doc: Document) -> list[Diagnostic]:
    """WAS401/402/403 for one group: its Workload, its template, and the template's policy."""
    ref = workload_ref(doc)
    if ref is None:
        return []
    template_path, workload_name, template_name = ref
    workload_path = template_path[:-1] + ("workloadName",)
    workload = index.workloads.get(key_of(doc, workload_name))
    if workload is None:
        suggestion = guess(workload_name, index.names_in(index.workloads, key_of(doc)[0]))
        return [make(doc, "WAS401", f'{doc.kind} "{doc.name}" references Workload "{workload_name}", which is not '
                     "among the inputs", workload_path,
                     f'did you mean "{suggestion}"?' if suggestion else "it may exist in the cluster; if not, the API "
                     "server rejects the group on create")]
    wanted = POD if doc.kind == "PodGroup" else COMPOSITE
    templates = index.templates(workload)
    node = templates.get(template_name)
    if node is None or node.kind != wanted:
        return [_missing_template(doc, workload_name, template_name, template_path, templates, wanted)]
    return _policy_differs(doc, workload_name, node)


def _missing_template(doc: Document, workload: str, template: str, path: FieldPath, templates: dict,
                      wanted: str) -> Diagnostic:
    names = sorted(n for n, t in templates.items() if t.kind == wanted)
    what = "podGroupTemplate" if wanted == POD else "compositePodGroupTemplate"
    suggestion = guess(template, names)
    listed = ", ".join(f'"{n}"' for n in names) or "none"
    return make(doc, "WAS402", f'{doc.kind} "{doc.name}" references {what} "{template}" of Workload "{workload}", '
                f"which has no such {what} (it has: {listed})", path,
                f'did you mean "{suggestion}"?' if suggestion else None)


def _policy_text(policy: dict, count_field: str) -> str:
    kind = policy_kind(policy)
    if kind == GANG:
        return f"gang {count_field} {mapping(policy.get(GANG)).get(count_field)}"
    return kind or "no policy"


def _policy_differs(doc: Document, workload: str, node) -> list[Diagnostic]:
    """WAS403: a group's policy must be the template's; users and the Job controller copy it from there."""
    count_field = "minCount" if node.kind == POD else "minGroupCount"
    mine = mapping(mapping(doc.obj.get("spec")).get("schedulingPolicy"))
    theirs = mapping(node.obj.get("schedulingPolicy"))
    if policy_kind(mine) is None or policy_kind(theirs) is None:
        return []
    mine_text, theirs_text = _policy_text(mine, count_field), _policy_text(theirs, count_field)
    if mine_text == theirs_text:
        return []
    path: FieldPath = ("spec", "schedulingPolicy")
    if policy_kind(mine) == policy_kind(theirs) == GANG:
        path += (GANG, count_field)
    return [make(doc, "WAS403", f'{doc.kind} "{doc.name}" has scheduling policy {mine_text}, but template '
                 f'"{node.name}" of Workload "{workload}" has {theirs_text}', path,
                 "copy the schedulingPolicy of the template into the group")]


def check_template_claims(index: Index, doc: Document) -> list[Diagnostic]:
    """WAS430: a PodGroup's resourceClaims differ from its Workload template's. Pods share only the PodGroup's own
    entries; controllers create PodGroups with the template's (KEP-5729 "API"), so a hand-written PodGroup that
    leaves them out, or changes them, silently changes what its pods share."""
    ref = workload_ref(doc)
    workload = index.workloads.get(key_of(doc, ref[1])) if ref is not None else None
    node = index.templates(workload).get(ref[2]) if ref is not None and workload is not None else None
    if ref is None or node is None or node.kind != POD:
        return []
    mine = _claims_text(mapping(doc.obj.get("spec")).get("resourceClaims"))
    theirs = _claims_text(node.obj.get("resourceClaims"))
    if mine == theirs:
        return []
    path: FieldPath = ("spec", "resourceClaims") if "resourceClaims" in mapping(doc.obj.get("spec")) else ("spec",)
    return [make(doc, "WAS430", f'PodGroup "{doc.name}" has resourceClaims {mine}, but template "{node.name}" of '
                 f'Workload "{ref[1]}" has {theirs}; pods share only the PodGroup\'s own entries', path,
                 "copy the template's resourceClaims into the PodGroup")]


def _claims_text(raw: object) -> str:
    """Entries as `name=template:x` / `name=claim:x`, sorted: list order does not matter for matching."""
    found = sorted(f"{e.name}={'template:' + e.template if e.template else 'claim:' + str(e.claim)}"
                   for e in entries(raw))
    return "[" + ", ".join(found) + "]" if found else "none"


def _topology_sites(doc: Document) -> Iterator[tuple[FieldPath, dict]]:
    """Every (path, owner) of `doc` that may carry schedulingConstraints.topology."""
    spec = mapping(doc.obj.get("spec"))
    if doc.group == SCHEDULING_GROUP and doc.kind == "Workload":
        for node in iter_templates(spec, doc.version):
            yield node.path, node.obj
    elif doc.group == SCHEDULING_GROUP and doc.kind in ("PodGroup", "CompositePodGroup"):
        yield ("spec",), spec
    elif doc.group == "batch" and doc.kind == "Job":
        yield ("spec", "scheduling"), mapping(spec.get("scheduling"))


def check_topology_keys(docs: list[Document], nodes: list[dict]) -> list[Diagnostic]:
    """WAS408: a key no node carries leaves no topology domain, so the group never fits."""
    carried: set[str] = set()
    for node in nodes:
        carried.update(k for k in mapping(mapping(mapping(node).get("metadata")).get("labels")) if isinstance(k, str))
    known = sorted(carried)
    out: list[Diagnostic] = []
    for doc in docs:
        for base, owner in _topology_sites(doc):
            for i, key in topology_keys(owner):
                if key in carried:
                    continue
                suggestion = guess(key, known)
                out.append(make(doc, "WAS408", f'topology key "{key}" is carried by none of the {len(nodes)} nodes, '
                                "so no placement domain exists and the group can never be scheduled",
                                base + ("schedulingConstraints", "topology", i, "key"),
                                f'did you mean "{suggestion}"?' if suggestion else
                                "label the nodes with this key, or use a key they carry", key=key))
    return out

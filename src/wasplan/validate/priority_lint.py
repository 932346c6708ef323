"""Pods and pod templates naming a PriorityClass that does not exist (WAS433).

The API server's Priority admission refuses such a pod with 403 Forbidden (api/priority.py, upstream
`plugin/pkg/admission/priority/admission.go`); a controller's pods are refused one by one as it creates them.
`plan` lists them as Refused (cluster/admission.py); lint says so before anything is applied.

Which classes exist: the inputs' PriorityClasses, the two system classes every cluster has, and, with
`--cluster`, the snapshot's. Without a snapshot a class missing from the inputs may well exist in the cluster,
so lint speaks only when a close name is among the known ones (a typo, `hihg` for `high`).
"""

from __future__ import annotations

from wasplan.api.priority import SYSTEM_CLASSES, exists, forbidden
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.suggest import guess
from wasplan.validate.index import pod_templates
from wasplan.validate.rules.common import make


def input_classes(docs: list[Document]) -> set[str]:
    return {doc.name for doc in docs if doc.kind == "PriorityClass" and doc.group == "scheduling.k8s.io" and doc.name}


def check_priority_classes(docs: list[Document], cluster_classes: set[str] | None) -> list[Diagnostic]:
    """WAS433 for each pod template whose priorityClassName names no class; `cluster_classes` is None without
    `--cluster`."""
    known = input_classes(docs) | (cluster_classes or set())
    candidates = sorted(known | set(SYSTEM_CLASSES))
    out = []
    for doc in docs:
        for path, spec, count in pod_templates(doc):
            name = spec.get("priorityClassName")
            if not isinstance(name, str) or not name or exists(name, known):
                continue
            suggestion = guess(name, candidates)
            if cluster_classes is None and suggestion is None:
                continue  # it may exist in the cluster
            out.append(_finding(doc, path, name, count, cluster_classes is not None, suggestion))
    return out


def _finding(doc: Document, path: tuple, name: str, count: int, with_cluster: bool,
             suggestion: str | None) -> Diagnostic:
    where = "neither the inputs nor the --cluster snapshot hold" if with_cluster else "the inputs do not hold"
    who = f'pod "{doc.name}"' if doc.kind == "Pod" else f'{doc.kind} "{doc.name}" ({count} pods)'
    refused = "the pod" if doc.kind == "Pod" else "each pod as it is created"
    reason = forbidden(doc.name, name) if doc.kind == "Pod" else f"no PriorityClass with name {name} was found"
    message = f'{who} names PriorityClass "{name}", which {where}: the API server refuses {refused} ({reason})'
    hint = f"did you mean {suggestion}?" if suggestion else f"create PriorityClass {name}, or name one that exists"
    return make(doc, "WAS433", message, path + ("priorityClassName",), hint)

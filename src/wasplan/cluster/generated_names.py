"""Names for objects that have only `metadata.generateName`, given before anything reads the objects.

The API server would append 5 random characters; a plan must be reproducible, so the object gets a deterministic
name instead (controllers/names.py, docs/workload-expansion.md) and a WAS620 note that the real name will differ.
`plan` and `explain` name the documents right after reading them, so validation, expansion and every message
use the same name; `build_inputs` names whatever is still unnamed, for callers that build inputs directly.
"""

from __future__ import annotations

from typing import Iterable

from wasplan.cluster.controllers import expander, runs_unplanned_pods
from wasplan.cluster.controllers.names import Namer
from wasplan.cluster.issues import Ctx
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document

# kinds the planner refers to by name (a workload, or an object that runs pods, needs one too)
NAMED_KINDS = frozenset({"Pod", "Node", "PriorityClass", "PodDisruptionBudget", "Workload", "PodGroup",
                         "CompositePodGroup", "DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate",
                         "DeviceTaintRule"})


def needs_name(doc: Document) -> bool:
    """Whether the planner needs the object's name, and it has none."""
    name = doc.metadata.get("name")
    if isinstance(name, str) and name:
        return False
    return doc.kind in NAMED_KINDS or expander(doc.obj) is not None or runs_unplanned_pods(doc.obj)


def give_generated_name(doc: Document, namer: Namer, ctx: Ctx) -> bool:
    """Name the object after its `generateName` (WAS620); False when it has no generateName either."""
    prefix = doc.metadata.get("generateName")
    if not isinstance(prefix, str) or not prefix:
        return False
    made = namer.name(doc.kind, doc.namespace or "default", prefix)
    ctx.report("WAS620", f"{doc.kind} has only metadata.generateName {prefix!r}; it is planned as {made!r}, and "
               "the API server will pick a different random name", ("metadata", "generateName"))
    doc.obj = {**doc.obj, "metadata": {**doc.metadata, "name": made}}
    return True


def give_generated_names(docs: Iterable[Document], namer: Namer, diags: list[Diagnostic]) -> None:
    """Name every object of `docs` that the planner needs a name for and that has only a generateName."""
    for doc in docs:
        if needs_name(doc):
            give_generated_name(doc, namer, Ctx(doc, diags))

"""Walk the parts of a manifest that several checks look at: the Workload template tree and group specs.

Rules, feature gates and lint all need "every template of a Workload, at any depth, with its field path",
so the walk lives here once. It is iterative rather than recursive so that an absurdly nested (invalid)
manifest cannot exhaust Python's recursion limit before the depth rule reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from wasplan.api.releases import RELEASE_OF_VERSION, Capabilities, capabilities
from wasplan.diagnostics import FieldPath

POD = "pod"
COMPOSITE = "composite"

# Which Kubernetes release an apiVersion of scheduling.k8s.io belongs to (api-reference §1).


def caps_of_version(version: str) -> Capabilities | None:
    """The capabilities of the release an apiVersion of scheduling.k8s.io belongs to (None: not one of them)."""
    release = RELEASE_OF_VERSION.get(version)
    return capabilities(release) if release else None


@dataclass(frozen=True, slots=True)
class TemplateNode:
    """One PodGroupTemplate (`kind == POD`) or CompositePodGroupTemplate (`kind == COMPOSITE`).

    `level` is 1 for entries of `spec`'s own lists and grows by one per enclosing composite template, which
    is how upstream counts the depth of the tree (api-reference §4.1 rule 2).
    """

    kind: str
    path: FieldPath
    obj: dict
    level: int

    @property
    def name(self) -> str | None:
        value = self.obj.get("name")
        return value if isinstance(value, str) and value else None


def mapping(value: Any) -> dict:
    """The value if it is a mapping, else an empty one: rules run on schema-invalid input too."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list:
    return value if isinstance(value, list) else []


def value_at(obj: Any, path: FieldPath) -> Any:
    """The value at `path` (mapping keys and list indexes), None where the document has another shape."""
    for key in path:
        if isinstance(key, int):
            obj = obj[key] if isinstance(obj, list) and 0 <= key < len(obj) else None
        else:
            obj = mapping(obj).get(key)
    return obj


def pod_list_name(version: str) -> str:
    """v1alpha1 (1.35) called the templates `podGroups`; every later version `podGroupTemplates`."""
    return "podGroups" if version == "v1alpha1" else "podGroupTemplates"


def _children(parent: dict, path: FieldPath, level: int, pod_list: str, composites: bool) -> list[TemplateNode]:
    out = [TemplateNode(POD, path + (pod_list, i), t, level)
           for i, t in enumerate(items(parent.get(pod_list))) if isinstance(t, dict)]
    if composites:
        out += [TemplateNode(COMPOSITE, path + ("compositePodGroupTemplates", i), t, level)
                for i, t in enumerate(items(parent.get("compositePodGroupTemplates"))) if isinstance(t, dict)]
    return out


def iter_templates(spec: dict, version: str) -> Iterator[TemplateNode]:
    """Every template of a Workload spec in pre-order (a composite before its children).

    Composite templates exist only in 1.37 versions; in older versions such a key is an unknown field that
    the schema reports, so it is not walked.
    """
    pod_list = pod_list_name(version)
    caps = caps_of_version(version)
    composites = caps is not None and caps.composites
    stack = list(reversed(_children(spec, ("spec",), 1, pod_list, composites)))
    while stack:
        node = stack.pop()
        yield node
        if node.kind == COMPOSITE:
            stack.extend(reversed(_children(node.obj, node.path, node.level + 1, pod_list, composites)))


def topology_keys(obj: dict) -> Iterator[tuple[int, str]]:
    """(index, key) of each `schedulingConstraints.topology[]` entry of a template, group or Job block."""
    for i, entry in enumerate(items(mapping(obj.get("schedulingConstraints")).get("topology"))):
        key = mapping(entry).get("key")
        if isinstance(key, str) and key:
            yield i, key

"""Feature gates the target release removed, wherever a repository's manifests still name them (WAS514).

Upstream removes a gate once its feature is always on; from then on every component refuses to start with it
(component-base featuregate `SetFromMap`: `unrecognized feature gate: NAME`). Kubernetes 1.38 removed
PodGroupPreemptionPolicy and DynamicResourceAllocation (`Release.removed_gates`, v1.38.0-beta.0
pkg/features/kube_features.go), so a cluster definition that still sets them cannot be upgraded as it is.
`migrate --check --to-k8s 1.38` reports each one at its file, line and field, in the places such settings live:

* a `featureGates` mapping at the top of a document: kind's Cluster (kind.x-k8s.io), KubeletConfiguration,
  KubeProxyConfiguration and the other component configs that carry one;
* kubeadm's ClusterConfiguration `apiServer`, `controllerManager` and `scheduler` `extraArgs`, as the
  v1beta3 mapping or the v1beta4 list of `{name, value}`;
* a `--feature-gates` flag in the command or args of any container of a Pod or a pod template (the static pod
  manifests of kube-scheduler and kube-apiserver among them), as `--feature-gates=A=true` or as two items.

wasplan does not rewrite these: removing a gate is the operator's decision, and the finding says which.
"""

from __future__ import annotations

from typing import Any, Iterator

from wasplan.api.releases import Release
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document

FLAG = "--feature-gates"
_COMPONENTS = ("apiServer", "controllerManager", "scheduler")
_CONTAINER_LISTS = ("containers", "initContainers")


def removed_gates(doc: Document, release: Release) -> list[Diagnostic]:
    """WAS514 for every gate of `release.removed_gates` the document sets."""
    if not release.removed_gates or not isinstance(doc.obj, dict):
        return []
    return [_finding(doc, release, name, path) for name, path in _gate_settings(doc.obj)
            if name in release.removed_gates]


def _finding(doc: Document, release: Release, name: str, path: FieldPath) -> Diagnostic:
    message = (f"unrecognized feature gate: {name}: Kubernetes {release.version} removed it (its feature is always "
               "on), and its components refuse to start with it")
    return Diagnostic("WAS514", lookup("WAS514").severity, message, doc.location(path),
                      f"remove {name} from this setting before upgrading to {release.version}")


def _gate_settings(obj: dict) -> Iterator[tuple[str, FieldPath]]:
    """(gate name, path of the setting that names it) for every place this module knows."""
    gates = obj.get("featureGates")
    if isinstance(gates, dict):
        yield from ((str(name), ("featureGates", name)) for name in gates)
    if str(obj.get("apiVersion", "")).startswith("kubeadm.k8s.io/"):
        yield from _kubeadm(obj)
    yield from _containers(obj, ())


def _kubeadm(obj: dict) -> Iterator[tuple[str, FieldPath]]:
    for component in _COMPONENTS:
        args = _mapping(obj.get(component)).get("extraArgs")
        if isinstance(args, dict) and isinstance(args.get("feature-gates"), str):
            yield from _names(args["feature-gates"], (component, "extraArgs", "feature-gates"))
        elif isinstance(args, list):
            for i, arg in enumerate(args):
                arg = _mapping(arg)
                if arg.get("name") == "feature-gates" and isinstance(arg.get("value"), str):
                    yield from _names(arg["value"], (component, "extraArgs", i, "value"))


def _containers(node: Any, path: FieldPath) -> Iterator[tuple[str, FieldPath]]:
    """Every container list below `node` (a Pod's spec, any pod template, a CronJob's job template)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _CONTAINER_LISTS and isinstance(value, list):
                for i, container in enumerate(value):
                    yield from _flags(_mapping(container), path + (key, i))
            elif isinstance(value, (dict, list)):
                yield from _containers(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _containers(value, path + (i,))


def _flags(container: dict, path: FieldPath) -> Iterator[tuple[str, FieldPath]]:
    for field in ("command", "args"):
        items = container.get(field)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if not isinstance(item, str):
                continue
            if item.startswith(FLAG + "="):
                yield from _names(item[len(FLAG) + 1:], path + (field, i))
            elif item == FLAG and i + 1 < len(items) and isinstance(items[i + 1], str):
                yield from _names(items[i + 1], path + (field, i + 1))


def _names(spec: str, path: FieldPath) -> Iterator[tuple[str, FieldPath]]:
    """The gate names of a `Name=true,Other=false` value."""
    for part in spec.split(","):
        name = part.partition("=")[0].strip()
        if name:
            yield name, path


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}

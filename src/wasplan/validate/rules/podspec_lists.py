"""More of the API server's pod spec validation that decides verdicts, for Pods and pod templates alike: what
every container must have, what must be unique in a pod's lists, tolerations, and node field selectors.

Followed: k8s.io/kubernetes pkg/apis/core/validation/validation.go of v1.36.5 and v1.37.2:

* validateContainers: at least one app container; validateContainerCommon: every container (init and app)
  names an image, in templates too;
* ValidateVolumeMounts: a container mounts at a path once ("must be unique");
* validateContainerPorts: a port name once per container; checkHostPortConflicts: a host port
  (protocol/hostIP/port, protocol defaulted to TCP) once among the app containers, and once per init container;
* validateSchedulingGates: a gate name once;
* ValidateTolerations: the key is a label key; an empty key needs operator Exists; tolerationSeconds needs
  effect NoExecute; the operator is Equal (or empty) or Exists, and Exists takes no value; Lt and Gt only with
  the TaintTolerationComparisonOperators gate (alpha, off by default in both releases), with a value that is a
  decimal integer (content.IsDecimalInteger: optional '-', no leading zero) within int64;
* ValidateNodeSelectorRequirement: a node affinity expression's key is a label key, In/NotIn take values,
  Exists/DoesNotExist none, Gt/Lt exactly one; ValidateNodeFieldSelectorRequirement: `matchFields` In and NotIn
  take exactly one value.

Found missing by the API server oracle's validate (issue 22). Messages are our own words; field paths are the
server's.
"""

from __future__ import annotations

from typing import Iterator

from wasplan.api.names import decimal_int64
from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import is_qualified_name, make
from wasplan.validate.walk import items, mapping


def check_pod_lists(doc: Document, spec: dict, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    out = _containers_required(doc, spec, base)
    for list_name in ("initContainers", "containers"):
        for i, container in enumerate(items(spec.get(list_name))):
            if isinstance(container, dict):
                out += _container(doc, container, base + (list_name, i))
    out += _host_ports(doc, spec, base)
    out += _repeated(doc, [(base + ("schedulingGates", i), mapping(g).get("name"))
                           for i, g in enumerate(items(spec.get("schedulingGates")))], "scheduling gate")
    out += _tolerations(doc, spec, base + ("tolerations",), gates)
    out += _match_fields(doc, spec, base)
    return out


def _containers_required(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    containers = spec.get("containers")
    if containers is None or containers == []:
        return [make(doc, "WAS102", "a pod needs at least one container in containers", base + ("containers",))]
    return []


def _container(doc: Document, container: dict, path: FieldPath) -> list[Diagnostic]:
    out = []
    if container.get("image") in (None, ""):
        out.append(make(doc, "WAS102", f"container {container.get('name')!r} names no image", path + ("image",)))
    out += _repeated(doc, [(path + ("volumeMounts", i, "mountPath"), mapping(m).get("mountPath"))
                           for i, m in enumerate(items(container.get("volumeMounts")))], "mountPath")
    out += _repeated(doc, [(path + ("ports", i, "name"), mapping(p).get("name"))
                           for i, p in enumerate(items(container.get("ports")))], "port name")
    return out


def _repeated(doc: Document, entries: list[tuple[FieldPath, object]], what: str) -> list[Diagnostic]:
    """WAS202 at each later entry whose string value repeats an earlier one (empty values aside)."""
    seen: set = set()
    out = []
    for path, value in entries:
        if not isinstance(value, str) or not value:
            continue
        if value in seen:
            out.append(make(doc, "WAS202", f'{what} "{value}" is used twice in this list', path,
                            f"each entry needs its own {what}", value=value))
        seen.add(value)
    return out


def _host_port_entries(container: dict, path: FieldPath) -> Iterator[tuple[FieldPath, object]]:
    for i, port in enumerate(items(container.get("ports"))):
        port = mapping(port)
        number = port.get("hostPort")
        if isinstance(number, int) and not isinstance(number, bool) and number != 0:
            key = f"{port.get('protocol') or 'TCP'}/{port.get('hostIP') or ''}/{number}"
            yield path + ("ports", i, "hostPort"), key


def _host_ports(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    out = []
    for i, container in enumerate(items(spec.get("initContainers"))):
        out += _repeated(doc, list(_host_port_entries(mapping(container), base + ("initContainers", i))), "host port")
    app = [entry for i, c in enumerate(items(spec.get("containers")))
           for entry in _host_port_entries(mapping(c), base + ("containers", i))]
    return out + _repeated(doc, app, "host port")


def _tolerations(doc: Document, spec: dict, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    out = []
    for i, raw in enumerate(items(spec.get("tolerations"))):
        tol, path = mapping(raw), base + (i,)
        key, operator, value = tol.get("key") or "", tol.get("operator") or "", tol.get("value") or ""
        if not all(isinstance(v, str) for v in (key, operator, value)):
            continue  # a wrong type is the schema's finding
        if key and not is_qualified_name(key):
            out.append(make(doc, "WAS107", f"toleration key {key!r} is not a valid label key ([prefix/]name, the "
                                           "name at most 63 letters, digits, '-', '_' or '.')", path + ("key",)))
        if not key and operator != "Exists":
            out.append(make(doc, "WAS107", "a toleration without a key matches every taint and needs operator "
                                           "Exists", path + ("operator",)))
        if tol.get("tolerationSeconds") is not None and tol.get("effect") != "NoExecute":
            out.append(make(doc, "WAS107", "tolerationSeconds applies to NoExecute taints only: the effect must be "
                                           "NoExecute", path + ("effect",)))
        out += _toleration_operator(doc, operator, value, path, gates)
    return out


COMPARISON_GATE = "TaintTolerationComparisonOperators"


def _toleration_operator(doc: Document, operator: str, value: str, path: FieldPath,
                         gates: GateSet) -> list[Diagnostic]:
    if operator in ("", "Equal"):
        return []
    if operator == "Exists":
        return ([make(doc, "WAS107", "a toleration with operator Exists takes no value", path + ("operator",))]
                if value else [])
    if operator not in ("Lt", "Gt"):
        return [make(doc, "WAS104", f"toleration operator {operator!r} is not supported: use Equal or Exists (Lt and "
                                    f"Gt with the {COMPARISON_GATE} feature gate)", path + ("operator",))]
    if not gates.enabled(COMPARISON_GATE):
        return [make(doc, "WAS104", f"toleration operator {operator!r} needs the {COMPARISON_GATE} feature gate, "
                                    "which is off: the API server accepts only Equal or Exists",
                     path + ("operator",), f"enable it with --feature-gates {COMPARISON_GATE}=true, or use Equal")]
    if decimal_int64(value) is None:
        return [make(doc, "WAS107", f"a toleration with operator {operator} compares integers: its value {value!r} "
                                    "must be a decimal integer within int64 (an optional '-', no leading zero)",
                     path + ("value",))]
    return []


def _match_fields(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    required = mapping(mapping(mapping(spec.get("affinity")).get("nodeAffinity")).get(
        "requiredDuringSchedulingIgnoredDuringExecution"))
    path = base + ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
    terms = [(path + (t,), mapping(term)) for t, term in enumerate(items(required.get("nodeSelectorTerms")))]
    preferred = mapping(mapping(spec.get("affinity")).get("nodeAffinity")).get(
        "preferredDuringSchedulingIgnoredDuringExecution")
    terms += [(base + ("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", p, "preference"),
               mapping(mapping(item).get("preference"))) for p, item in enumerate(items(preferred))]
    out = []
    for term_path, term in terms:
        for j, req in enumerate(items(term.get("matchExpressions"))):
            out += _expression(doc, mapping(req), term_path + ("matchExpressions", j))
        for j, req in enumerate(items(term.get("matchFields"))):
            req = mapping(req)
            values = req.get("values")
            if req.get("operator") in ("In", "NotIn") and isinstance(values, list) and len(values) != 1:
                out.append(make(doc, "WAS107", f"matchFields with operator {req['operator']} takes exactly one value, "
                                               f"got {len(values)}", term_path + ("matchFields", j, "values")))
    return out


_VALUE_COUNTS = {"In": (1, None), "NotIn": (1, None), "Exists": (0, 0), "DoesNotExist": (0, 0), "Gt": (1, 1),
                 "Lt": (1, 1)}


def _expression(doc: Document, req: dict, path: FieldPath) -> list[Diagnostic]:
    """ValidateNodeSelectorRequirement: a label key, and as many values as the operator takes."""
    out = []
    key, operator, values = req.get("key"), req.get("operator"), req.get("values")
    if isinstance(key, str) and not is_qualified_name(key):
        out.append(make(doc, "WAS107", f"node selector key {key!r} is not a valid label key", path + ("key",)))
    count = len(values) if isinstance(values, list) else 0 if values is None else None
    bounds = _VALUE_COUNTS.get(operator) if isinstance(operator, str) else None
    if bounds is not None and count is not None:
        low, high = bounds
        if count < low or (high is not None and count > high):
            wanted = {(1, None): "at least one value", (0, 0): "no values", (1, 1): "exactly one value"}[bounds]
            out.append(make(doc, "WAS107", f"operator {operator} takes {wanted}, got {count}", path + ("values",)))
    return out

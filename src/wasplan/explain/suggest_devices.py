"""Changes to a pod's device requests that would let it fit: a selector value the devices really have, an
attribute name spelled as they publish it, a lower `count`, a claim constraint dropped, a `firstAvailable`
fallback, a ResourceClaimTemplate name spelled as it exists.

Each candidate is read off the device evidence (explain/devices.py), written into a copy of the
ResourceClaimTemplate or ResourceClaim record it comes from (records are frozen dataclasses; the copy replaces
the original in a shallow copy of the inputs, the YAML is never touched), and the plan is re-run
(explain/rerun.py): only candidates whose re-run places the target are returned. The change points at the
field in the user's file (the selector's `cel.expression`, the request's `count`, ...).
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.devices import (ALL, EXACT_COUNT, ClaimSpec, DeviceClass, DeviceRequest, RequestSpec, ResourceClaim,
                                     ResourceClaimTemplate)
from wasplan.cluster.dra_objects import claim_spec_object
from wasplan.cluster.dra_v1beta1 import document_path
from wasplan.cluster.model import PlanInputs, Pod, PodClaim
from wasplan.engine.facade import devicevalues as device_values
from wasplan.explain import manifest, rerun
from wasplan.explain.devices import RequestItem, request_items
from wasplan.explain.devices_model import ConstraintDevices, RequestDevices
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Change, ShapeEvidence, Suggestion
from wasplan.suggest import did_you_mean
from wasplan.words import plural

MAX_VALUES_TRIED = 2


def _records(inputs: PlanInputs):
    return [*inputs.existing, *inputs.arrivals]


def _origin(ctx: Context, item: RequestItem):
    """The input record the claim comes from: its ResourceClaimTemplate, or the ResourceClaim itself."""
    for r in _records(ctx.inputs):
        if item.template and isinstance(r, ResourceClaimTemplate) and r.key == item.template:
            return r
        if not item.template and isinstance(r, ResourceClaim) and r.key == item.claim.key:
            return r
    return None


def _with_record(inputs: PlanInputs, old, new) -> PlanInputs:
    def fn(r):
        return new if r is old else r
    return PlanInputs([fn(r) for r in inputs.existing], [fn(r) for r in inputs.arrivals])


def _places(ctx: Context, subj: Subject, record, spec: ClaimSpec) -> bool:
    return ctx.verifier.places(subj.unit, _with_record(ctx.inputs, record, dataclasses.replace(record, spec=spec)))


def _with_request(spec: ClaimSpec, item: RequestItem, new: RequestSpec) -> ClaimSpec:
    requests = list(spec.requests)
    request = requests[item.request]
    if item.sub is None:
        requests[item.request] = dataclasses.replace(request, exactly=new)
    else:
        subs = list(request.first_available)
        subs[item.sub] = new
        requests[item.request] = dataclasses.replace(request, first_available=tuple(subs))
    return dataclasses.replace(spec, requests=tuple(requests))


def _path(record, item: RequestItem | None, *tail) -> tuple:
    prefix = ("spec", "spec", "devices") if isinstance(record, ResourceClaimTemplate) else ("spec", "devices")
    if item is None:
        return (*prefix, *tail)
    where = ("exactly",) if item.sub is None else ("firstAvailable", item.sub)
    return document_path(record.source, (*prefix, "requests", item.request, *where, *tail))


def _change(record, path: tuple, value, action: str = "set") -> Change:
    return manifest.change(action, record.source, path, value)


def _replace_literal(expression: str, literal: str, value: str) -> str | None:
    """The expression with the string literal `literal` (its first occurrence) written as `value`."""
    for m in device_values.LITERAL.finditer(expression):
        text, quote = (m.group(1), '"') if m.group(1) is not None else (m.group(2), "'")
        if text == literal and quote not in value and "\\" not in value:
            return f"{expression[:m.start()]}{quote}{value}{quote}{expression[m.end():]}"
    return None


def _selector_change(ctx: Context, subj: Subject, record, item: RequestItem, k: int,
                     expression: str | None) -> Change | None:
    """Selector #k of the request written as `expression`, when the re-run with it places the target."""
    if expression is None:
        return None
    selectors = (*item.spec.selectors[:k], expression, *item.spec.selectors[k + 1:])
    spec = _with_request(record.spec, item, dataclasses.replace(item.spec, selectors=selectors))
    if not _places(ctx, subj, record, spec):
        return None
    return _change(record, _path(record, item, "selectors", k, "cel", "expression"), expression)


def _selector(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    e = rd.eliminated_by
    record = _origin(ctx, item)
    if record is None or not e.literal:
        return None
    k = item.spec.selectors.index(e.text)
    name = e.attribute.rsplit("/", 1)[-1]
    for v in e.values[:MAX_VALUES_TRIED]:
        change = _selector_change(ctx, subj, record, item, k, _replace_literal(e.text, e.literal, v.value))
        if change is None:
            continue
        why = (f'no device has {name} "{e.literal}"; {plural(v.devices, "device")} on nodes the pods may use '
               f'{"has" if v.devices == 1 else "have"} "{v.value}"')
        return Suggestion("deviceSelector", f'selector {name} "{v.value}" (not "{e.literal}") in request '
                                            f"{rd.request}", why, (change,))
    return None


def _attribute_name(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    """A selector reading an attribute or capacity name no device publishes, with the closest published name
    written in its place (engine/dra/devicevalues.py `unpublished`, `rewrite`)."""
    e = rd.eliminated_by
    record = _origin(ctx, item)
    if record is None or e.expression not in item.spec.selectors:
        return None
    k = item.spec.selectors.index(e.expression)
    for missing in e.unpublished:
        change = _selector_change(ctx, subj, record, item, k, device_values.rewrite(e.expression, missing))
        if change is None:
            continue
        return Suggestion("deviceAttribute", f'selector reads {missing.guess} (not {missing.name}) in request '
                                             f"{rd.request}", missing.text(), (change,))
    return None


def _class_attribute(ctx: Context, subj: Subject, rd: RequestDevices) -> Suggestion | None:
    """A DeviceClass selector reading a name no device publishes, rewritten in a copy of the class."""
    e = rd.eliminated_by
    record = next((r for r in _records(ctx.inputs) if isinstance(r, DeviceClass) and r.name == rd.device_class), None)
    if record is None or e.expression not in record.selectors:
        return None
    k = record.selectors.index(e.expression)
    for missing in e.unpublished:
        expression = device_values.rewrite(e.expression, missing)
        new = expression and dataclasses.replace(
            record, selectors=(*record.selectors[:k], expression, *record.selectors[k + 1:]))
        if not new or not ctx.verifier.places(subj.unit, _with_record(ctx.inputs, record, new)):
            continue
        change = _change(record, ("spec", "selectors", k, "cel", "expression"), expression)
        return Suggestion("deviceAttribute", f"DeviceClass {record.name} selector reads {missing.guess} (not "
                                             f"{missing.name})", missing.text(), (change,))
    return None


def _count(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    record = _origin(ctx, item)
    if record is None or not 0 < rd.most_on_node < rd.count:
        return None
    spec = _with_request(record.spec, item, dataclasses.replace(item.spec, count=rd.most_on_node))
    if not _places(ctx, subj, record, spec):
        return None
    why = (f"no node the pods may use has {rd.count} free matching devices; {rd.node} has {rd.most_on_node}")
    return Suggestion("deviceCount", f"request {rd.request}: count {rd.most_on_node} (not {rd.count})", why,
                      (_change(record, _path(record, item, "count"), rd.most_on_node),))


def _exact_count(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    """A request with `allocationMode: All` written as `ExactCount` with the largest count below what one node
    has that a re-run places (fewer devices taken only leave more room, so the counts are bisected)."""
    record = _origin(ctx, item)
    if record is None or item.sub is not None or rd.most_on_node < 2:
        return None

    def places(count: int) -> bool:
        new = dataclasses.replace(item.spec, allocation_mode=EXACT_COUNT, count=count)
        return _places(ctx, subj, record, _with_request(record.spec, item, new))

    if not places(1):
        return None
    # most_on_node is never tried: it is what All takes on that node
    lo, _ = rerun.narrow(1, rd.most_on_node, places)
    why = (f"allocationMode: All takes every matching device of the node the claim is allocated on "
           f"({rd.most_on_node} on {rd.node}), leaving none there for the pods' other requests; with "
           f"{plural(lo, 'device')} the re-run places the target")
    return Suggestion("allocationMode", f"request {rd.request}: allocationMode ExactCount, count {lo} (not All)", why,
                      (_change(record, _path(record, item, "allocationMode"), EXACT_COUNT),
                       _change(record, _path(record, item, "count"), lo, "add")))


def _fallback(item: RequestItem, rd: RequestDevices) -> RequestSpec | None:
    """The subrequest to fall back to: without the selector that leaves no device, or with the count one node
    can give."""
    e, spec = rd.eliminated_by, item.spec
    if e.kind == "selector" and e.text in spec.selectors:
        return dataclasses.replace(spec, name="fallback", selectors=tuple(s for s in spec.selectors if s != e.text))
    if e.kind == "count" and 0 < rd.most_on_node < spec.count:
        return dataclasses.replace(spec, name="fallback", count=rd.most_on_node)
    return None


def _first_available(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    record = _origin(ctx, item)
    fallback = _fallback(item, rd)
    if record is None or fallback is None or item.sub is not None or item.spec.admin_access is not None:
        return None
    name = record.spec.requests[item.request].name
    request = DeviceRequest(name, None, (dataclasses.replace(item.spec, name="preferred"), fallback))
    requests = list(record.spec.requests)
    requests[item.request] = request
    spec = dataclasses.replace(record.spec, requests=tuple(requests))
    if not _places(ctx, subj, record, spec):
        return None
    value = claim_spec_object(spec)["devices"]["requests"][item.request]
    change = _change(record, _path(record, None, "requests", item.request), value)
    what = "without that selector" if fallback.selectors != item.spec.selectors else f"with count {fallback.count}"
    why = f"keeps the request as it is as the first choice; when no node can give it, the same request {what}"
    return Suggestion("firstAvailable", f"request {name}: firstAvailable [as is, {what}]", why, (change,))


def _constraint(ctx: Context, subj: Subject, item: RequestItem, c: ConstraintDevices) -> Suggestion | None:
    record = _origin(ctx, item)
    if record is None:
        return None
    kept = tuple(x for i, x in enumerate(record.spec.constraints) if i != c.index)
    if not _places(ctx, subj, record, dataclasses.replace(record.spec, constraints=kept)):
        return None
    where = f" (at most {c.best} on {c.node})" if c.node else ""
    why = f"no node the pods may use has {c.needed} free matching devices that meet it together{where}"
    return Suggestion("deviceConstraint", f"drop constraint {c.kind} {c.attribute}", why,
                      (_change(record, _path(record, None, "constraints", c.index),
                               claim_spec_object(record.spec)["devices"]["constraints"][c.index], "delete"),))


def _reorder(ctx: Context, subj: Subject, item: RequestItem) -> Suggestion | None:
    """When the allocator's first-fit order is what fails the group: the request's alternatives with a later one
    tried first, the first such order whose re-run places the group."""
    record = _origin(ctx, item)
    if record is None:
        return None
    request = record.spec.requests[item.request]
    subs = request.first_available
    for j in range(1, len(subs)):
        order = (subs[j], *subs[:j], *subs[j + 1:])
        requests = list(record.spec.requests)
        requests[item.request] = dataclasses.replace(request, first_available=order)
        spec = dataclasses.replace(record.spec, requests=tuple(requests))
        if not _places(ctx, subj, record, spec):
            continue
        value = claim_spec_object(spec)["devices"]["requests"][item.request]["firstAvailable"]
        why = (f"each pod takes the first alternative that fits it and no later pod can undo that "
               f"(kubernetes/kubernetes#138765); with {subs[j].name} first the devices go round")
        return Suggestion("firstAvailable", f"request {request.name}: try {subs[j].name} first", why,
                          (_change(record, _path(record, None, "requests", item.request, "firstAvailable"), value),))
    return None


def _class_name(ctx: Context, subj: Subject, item: RequestItem, rd: RequestDevices) -> Suggestion | None:
    """A request naming a DeviceClass the inputs do not hold, spelled as one that exists."""
    record = _origin(ctx, item)
    classes = sorted({r.name for r in _records(ctx.inputs) if isinstance(r, DeviceClass)})
    guess = did_you_mean(item.spec.device_class_name, classes)
    if record is None or guess is None:
        return None
    spec = _with_request(record.spec, item, dataclasses.replace(item.spec, device_class_name=guess))
    if not _places(ctx, subj, record, spec):
        return None
    why = f"no DeviceClass {item.spec.device_class_name} exists; did you mean {guess}?"
    return Suggestion("deviceClass", f"request {rd.request}: deviceClassName {guess} (not "
                                     f"{item.spec.device_class_name})", why,
                      (_change(record, _path(record, item, "deviceClassName"), guess),))


def _for_shape(ctx: Context, subj: Subject, pod, shape: ShapeEvidence) -> list[Suggestion]:
    items = request_items(ctx, pod)
    out: list[Suggestion] = []
    for item, rd in zip(items, shape.devices.requests):
        e = rd.eliminated_by
        if item.spec.allocation_mode == ALL and any(n.startswith(f"claim {item.entry} ") for n in shape.devices.notes):
            found = _exact_count(ctx, subj, item, rd)  # the All request named as taking the others' devices
            out += [found] if found is not None else []
        if e is None or item.spec.allocation_mode == ALL:
            continue
        fixes = [_selector(ctx, subj, item, rd), _attribute_name(ctx, subj, item, rd)] if e.kind == "selector" else []
        fixes += [_count(ctx, subj, item, rd)] if e.kind == "count" else []
        fixes += [_class_name(ctx, subj, item, rd), _class_attribute(ctx, subj, rd)] if e.kind == "class" else []
        out += [s for s in fixes if s is not None]
        fallback = _first_available(ctx, subj, item, rd)
        out += [fallback] if fallback is not None else []
    if shape.devices.greedy is not None and shape.devices.greedy.named:
        firsts = {(i.claim.key, i.request): i for i in items if i.sub == 0}
        out += [s for s in (_reorder(ctx, subj, i) for i in firsts.values()) if s is not None]
    for c in shape.devices.constraints:
        item = next((i for i in items if i.claim.key == c.claim), None)
        found = _constraint(ctx, subj, item, c) if item is not None else None
        out += [found] if found is not None else []
    return out


def suggestions(ctx: Context, subj: Subject, shapes: tuple[ShapeEvidence, ...]) -> list[Suggestion]:
    """Verified changes to the device requests of every failing pod shape that has device evidence."""
    if subj.trial is None:
        return []
    out: dict[tuple[str, str], Suggestion] = {}
    for failure, shape in zip(subj.trial.failures.values(), shapes):
        if shape.devices is not None:
            for s in _for_shape(ctx, subj, failure.pod, shape):  # shapes sharing a template: the same change
                out.setdefault((s.kind, s.title), s)
    return list(out.values())


def _names(ctx: Context, kind: type, namespace: str) -> list[str]:
    return sorted({r.name for r in _records(ctx.inputs) if isinstance(r, kind) and r.namespace == namespace})


def _renamed(pod: Pod, entry: PodClaim, field: str, value: str) -> Pod:
    claims = tuple(dataclasses.replace(e, **{field: value}) if e == entry else e for e in pod.resource_claims)
    return dataclasses.replace(pod, resource_claims=claims)


def _entry_fix(ctx: Context, subj: Subject, pod: Pod, i: int, entry: PodClaim) -> Suggestion | None:
    kind, field, old = ((ResourceClaimTemplate, "template_name", entry.template_name) if entry.template_name
                        else (ResourceClaim, "claim_name", entry.claim_name))
    names = _names(ctx, kind, pod.namespace)
    if not old or old in names:
        return None
    guess = did_you_mean(old, names)
    if guess is None:
        return None
    members = [p for p in subj.pending if entry in p.resource_claims] or [pod]
    variant = rerun.with_pods(ctx.inputs, {p.key for p in members}, lambda p: _renamed(p, entry, field, guess))
    if not ctx.verifier.places(subj.unit, variant):
        return None
    yaml_field = "resourceClaimTemplateName" if field == "template_name" else "resourceClaimName"
    changes = manifest.pod_changes(ctx.documents, members, ("resourceClaims", i, yaml_field), guess)
    why = f"no {kind.__name__} {old} exists in namespace {pod.namespace}; did you mean {guess}?"
    return Suggestion("claimTemplate" if field == "template_name" else "claimName",
                      f"resourceClaims {entry.name}: {yaml_field} {guess} (not {old})", why, changes)


def claim_names(ctx: Context, subj: Subject) -> list[Suggestion]:
    """A pod entry naming a ResourceClaimTemplate (or ResourceClaim) the inputs do not hold, spelled as one that
    exists ("did you mean", the rule of wasplan.suggest), verified by re-planning."""
    out, seen = [], set()
    for pod in subj.pending:
        for i, entry in enumerate(pod.resource_claims):
            if (entry.name, entry.template_name, entry.claim_name) in seen:
                continue
            seen.add((entry.name, entry.template_name, entry.claim_name))
            found = _entry_fix(ctx, subj, pod, i, entry)
            out += [found] if found is not None else []
    return out

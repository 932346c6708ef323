"""Rules for `batch/v1` Job `spec.scheduling` (Kubernetes 1.37, gate WorkloadWithJob); api-reference §4.6, §6.3.

The upstream strict Job schema knows the block's shape only, so the unions, bounds, formats and list limits of
the reusable `WorkloadPodGroup*` types are checked here (with the WAS1xx codes that mean the same thing for
scheduling.k8s.io kinds), plus the Job-specific rules: minCount ≤ parallelism, no `all` disruption on a basic
policy (workloadbuilder), and `scheduling` being ignored when the pod template brings its own PodGroup. Also
the two Job rules of pkg/apis/batch/validation that the oracle found deciding verdicts: the pod template's
restartPolicy, and an Indexed Job's parallelism cap. 1.38 (`Capabilities.job_scheduling_exclusive`) turns the
ignored-scheduling warning into errors and checks the delegation annotations (WAS263-WAS265).
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import (
    BASIC, GANG, INT32_MAX, claim_names_unique, is_dns_label, is_dns_subdomain, is_qualified_name, make, policy_kind)
from wasplan.validate.rules.pod import check_scheduling_group
from wasplan.validate.rules.podspec import check_pod_spec
from wasplan.validate.rules.quantities import check_pod_quantities
from wasplan.validate.walk import items, mapping

BASE: FieldPath = ("spec", "scheduling")
MAX_INDEXED_PARALLELISM = 100_000  # pkg/apis/batch/validation maxParallelismForIndexedJob
# the annotations that delegate a Job's PodGroup to a template of another Workload (1.38
# pkg/apis/scheduling/annotation_key_constants.go), in upstream's order
DELEGATION = ("scheduling.k8s.io/workload-name", "scheduling.k8s.io/group-template-name")


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    spec = mapping(doc.obj.get("spec"))
    template_spec = mapping(mapping(spec.get("template")).get("spec"))
    out = check_scheduling_group(doc, template_spec, ("spec", "template", "spec"))
    out += check_pod_quantities(doc, template_spec, ("spec", "template", "spec"))
    out += check_pod_spec(doc, template_spec, ("spec", "template", "spec"), gates)
    out += _counts(doc, spec)
    if gates.release.caps.job_scheduling_exclusive:
        out += _delegation_annotations(doc)
    scheduling = spec.get("scheduling")
    # 1.36 has no spec.scheduling: the schema rejects it there, so nothing more to say.
    if not isinstance(scheduling, dict) or not gates.release.caps.job_scheduling_field:
        return out
    out += _policy(doc, scheduling, _parallelism(spec))
    out += _disruption(doc, scheduling)
    out += _topology(doc, scheduling)
    out += _claims(doc, scheduling)
    if gates.release.caps.job_scheduling_exclusive:
        if gates.enabled("WorkloadWithJob"):  # else the server drops spec.scheduling before validating
            out += _exclusive(doc, template_spec)
    elif isinstance(template_spec.get("schedulingGroup"), dict):
        out.append(make(doc, "WAS211", "spec.scheduling is ignored: the pod template sets schedulingGroup, so the "
                        "Job controller creates no Workload or PodGroup and uses the named PodGroup as it is",
                        BASE, "remove spec.scheduling, or remove spec.template.spec.schedulingGroup to let the "
                        "Job controller create the PodGroup"))
    return out


def _exclusive(doc: Document, template_spec: dict) -> list[Diagnostic]:
    """1.38 refuses spec.scheduling beside a pod template schedulingGroup (WAS263) or a delegation annotation
    (WAS264): v1.38.0-beta.0 pkg/apis/batch/validation validateSchedulingAndSchedulingGroup and
    validateSchedulingAndDelegationAnnotations, on create (an update keeps what the old object had)."""
    if template_spec.get("schedulingGroup") is not None:
        return [make(doc, "WAS263", "spec.scheduling: must not be set together with template.spec.schedulingGroup",
                     BASE, "keep one of the two: spec.scheduling (the Job controller makes the PodGroup) or "
                     "schedulingGroup (you name one)")]
    annotations = mapping(mapping(doc.obj.get("metadata")).get("annotations"))
    for key in DELEGATION:
        if key in annotations:
            return [make(doc, "WAS264", f"spec.scheduling: must not be set together with the {key} annotation",
                         BASE, "a delegated Job takes its PodGroup template from the named Workload: drop "
                         "spec.scheduling, or drop the delegation annotations")]
    return []


def _delegation_annotations(doc: Document) -> list[Diagnostic]:
    """WAS265: once either delegation annotation is present both must be set and non-empty (validateDelegation-
    Annotations, whatever the gates say)."""
    annotations = mapping(mapping(doc.obj.get("metadata")).get("annotations"))
    if not any(key in annotations for key in DELEGATION):
        return []
    return [make(doc, "WAS265", f"metadata.annotations[{key}]: must be set to a non-empty value when "
                 f"{DELEGATION[0]} or {DELEGATION[1]} is set", ("metadata", "annotations", key),
                 "name the Workload and its PodGroupTemplate the Job's pods belong to, both")
            for key in DELEGATION if not annotations.get(key)]


def _parallelism(spec: dict) -> int:
    value = spec.get("parallelism")
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def _union(doc: Document, value: dict, path: FieldPath, members: tuple[str, str]) -> list[Diagnostic]:
    present = [m for m in members if isinstance(value.get(m), dict)]
    if len(present) == 1:
        return []
    state = "both are set" if present else "neither is set"
    return [make(doc, "WAS108", f"exactly one of {members[0]}, {members[1]} must be set; {state}", path)]


def _policy(doc: Document, scheduling: dict, parallelism: int) -> list[Diagnostic]:
    policy = scheduling.get("schedulingPolicy")
    if not isinstance(policy, dict):
        return []
    out = _union(doc, policy, BASE + ("schedulingPolicy",), (BASIC, GANG))
    count = mapping(policy.get(GANG)).get("minCount")
    if not isinstance(count, int) or isinstance(count, bool):
        return out  # omitted: the controller uses parallelism
    path = BASE + ("schedulingPolicy", GANG, "minCount")
    if not 1 <= count <= INT32_MAX:
        out.append(make(doc, "WAS105", f"gang minCount {count} must be between 1 and {INT32_MAX}", path))
    elif count > parallelism:
        out.append(make(doc, "WAS209", f"gang minCount {count} is greater than spec.parallelism {parallelism}"
                        f"{'' if 'parallelism' in mapping(doc.obj.get('spec')) else ' (the default)'}: the Job "
                        "never runs that many pods at once", path,
                        f"lower minCount to at most {parallelism}, raise spec.parallelism, or omit minCount "
                        "(it then defaults to parallelism)"))
    return out


def _disruption(doc: Document, scheduling: dict) -> list[Diagnostic]:
    mode = scheduling.get("disruptionMode")
    if not isinstance(mode, dict):
        return []
    path = BASE + ("disruptionMode",)
    out = _union(doc, mode, path, ("single", "all"))
    kind = policy_kind(scheduling.get("schedulingPolicy")) or BASIC
    if isinstance(mode.get("all"), dict) and kind == BASIC:
        given = "a basic schedulingPolicy" if "schedulingPolicy" in scheduling else "no schedulingPolicy (basic)"
        out.append(make(doc, "WAS210", f"disruptionMode all is not allowed with {given}: only a gang can be "
                        "disrupted as one unit", path + ("all",),
                        "set schedulingPolicy.gang, or use disruptionMode single"))
    return out


def _topology(doc: Document, scheduling: dict) -> list[Diagnostic]:
    base = BASE + ("schedulingConstraints", "topology")
    entries = items(mapping(scheduling.get("schedulingConstraints")).get("topology"))
    out = []
    if len(entries) > 1:
        out.append(make(doc, "WAS106", f"schedulingConstraints.topology has {len(entries)} entries; at most 1 "
                        "is allowed", base + (1,)))
    for i, entry in enumerate(entries):
        key = mapping(entry).get("key")
        if isinstance(key, str) and key and not is_qualified_name(key):
            out.append(make(doc, "WAS107", f'topology key "{key}" is not a valid label key', base + (i, "key"),
                            "use a node label key such as topology.kubernetes.io/zone"))
    return out


def _claims(doc: Document, scheduling: dict) -> list[Diagnostic]:
    claims = items(scheduling.get("resourceClaims"))
    base = BASE + ("resourceClaims",)
    out = claim_names_unique(doc, scheduling, BASE)
    if len(claims) > 4:
        out.append(make(doc, "WAS106", f"resourceClaims has {len(claims)} entries; at most 4 are allowed",
                        base + (4,)))
    for i, claim in enumerate(claims):
        out += _claim(doc, mapping(claim), base + (i,))
    return out


def _claim(doc: Document, claim: dict, path: FieldPath) -> list[Diagnostic]:
    out = []
    name = claim.get("name")
    if isinstance(name, str) and name and not is_dns_label(name):
        out.append(make(doc, "WAS107", f'claim name "{name}" is not a DNS label (lowercase letters, digits and '
                        "'-', at most 63 characters)", path + ("name",)))
    sources = [k for k in ("resourceClaimName", "resourceClaimTemplateName") if claim.get(k)]
    if len(sources) != 1:
        state = "both are set" if sources else "neither is set"
        out.append(make(doc, "WAS108", f"exactly one of resourceClaimName, resourceClaimTemplateName must be set; "
                        f"{state}", path))
    for key in sources:
        value = claim[key]
        if isinstance(value, str) and not is_dns_subdomain(value):
            out.append(make(doc, "WAS107", f'{key} "{value}" is not a valid object name (DNS subdomain)',
                            path + (key,)))
    return out


def _counts(doc: Document, spec: dict) -> list[Diagnostic]:
    """Non-negative counts, and completions for an Indexed Job (pkg/apis/batch/validation validateJobSpec)."""
    out = []
    for key in ("parallelism", "completions", "backoffLimit", "activeDeadlineSeconds", "ttlSecondsAfterFinished"):
        value = spec.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            out.append(make(doc, "WAS105", f"spec.{key} must not be negative, got {value}", ("spec", key)))
    if spec.get("completionMode") == "Indexed" and spec.get("completions") is None:
        out.append(make(doc, "WAS102", "an Indexed Job needs spec.completions", ("spec", "completions")))
    parallelism = spec.get("parallelism")
    if (spec.get("completionMode") == "Indexed" and isinstance(parallelism, int) and not isinstance(parallelism, bool)
            and parallelism > MAX_INDEXED_PARALLELISM):
        out.append(make(doc, "WAS105", f"an Indexed Job runs at most {MAX_INDEXED_PARALLELISM} pods at once: "
                                       f"spec.parallelism {parallelism} is too high", ("spec", "parallelism")))
    return out + _restart_policy(doc, spec)


def _restart_policy(doc: Document, spec: dict) -> list[Diagnostic]:
    """A Job's pods end: the template's restartPolicy is OnFailure or Never, written out (a pod template is
    not defaulted to Always before this check; pkg/apis/batch/validation validateJobSpec)."""
    template_spec = mapping(mapping(spec.get("template")).get("spec"))
    policy = template_spec.get("restartPolicy")
    path = ("spec", "template", "spec", "restartPolicy")
    if policy in (None, "", "Always"):
        return [make(doc, "WAS102" if policy in (None, "") else "WAS104",
                     f"a Job's pod template needs restartPolicy OnFailure or Never"
                     f"{', not Always' if policy == 'Always' else ''}", path,
                     "add restartPolicy: Never (or OnFailure) to spec.template.spec")]
    if isinstance(policy, str) and policy not in ("OnFailure", "Never"):
        return [make(doc, "WAS104", f"restartPolicy {policy!r} must be OnFailure or Never", path)]
    return []

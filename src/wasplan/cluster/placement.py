"""Tolerations, taints, topology spread constraints and host ports: the remaining placement inputs of a pod.

Defaults are the API server's, applied here because manifests given to `plan` were never admitted:
a toleration's operator is `Equal`, a spread constraint honours node affinity and ignores taints
(`nodeAffinityPolicy: Honor`, `nodeTaintsPolicy: Ignore`), a container port's protocol is `TCP`.

A pod's tolerations also get what the DefaultTolerationSeconds admission plugin adds on create (upstream
`plugin/pkg/admission/defaulttolerationseconds/admission.go`, v1.36.5 and v1.37.2 alike): unless a toleration
already covers it (its key is the taint's or empty, and its effect NoExecute or empty), a pod tolerates
`node.kubernetes.io/not-ready:NoExecute` and `node.kubernetes.io/unreachable:NoExecute` for 300 s (`Exists`).
The scheduler's TaintToleration filter ignores tolerationSeconds, so a node tainted only not-ready or
unreachable with NoExecute does not keep such a pod off; the kubelet/taint manager would evict it later, which
an offline plan does not model.
"""

from __future__ import annotations

from typing import Any

from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import HostPort, Taint, Toleration, TopologySpreadConstraint
from wasplan.cluster.selectors import TAINT_EFFECTS, as_list, as_str, label_selector, memo


TOLERATION_OPERATORS = ("Equal", "Exists", "Lt", "Gt")


def _toleration(raw: Any, ctx: Ctx) -> Toleration | None:
    if not isinstance(raw, dict):
        ctx.report("WAS602", "a toleration must be a map", ())
        return None
    operator = raw.get("operator") or "Equal"
    if operator not in TOLERATION_OPERATORS:  # Lt and Gt pass validation only with their gate (podspec_lists.py)
        ctx.report("WAS602", f"toleration operator {operator!r} must be Equal, Exists, Lt or Gt", ("operator",))
        return None
    effect = as_str(raw.get("effect"), ctx, ("effect",))
    if effect and effect not in TAINT_EFFECTS:
        ctx.report("WAS602", f"toleration effect {effect!r} must be one of {', '.join(TAINT_EFFECTS)}", ("effect",))
        return None
    seconds = raw.get("tolerationSeconds")
    if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool)):
        ctx.report("WAS602", f"tolerationSeconds must be an integer, got {seconds!r}", ("tolerationSeconds",))
        seconds = None
    return Toleration(as_str(raw.get("key"), ctx, ("key",)), operator, as_str(raw.get("value"), ctx, ("value",)),
                      effect, seconds)


NOT_READY = "node.kubernetes.io/not-ready"
UNREACHABLE = "node.kubernetes.io/unreachable"
DEFAULT_TOLERATION_SECONDS = 300
DEFAULT_TOLERATIONS = tuple(Toleration(key, "Exists", "", "NoExecute", DEFAULT_TOLERATION_SECONDS)
                            for key in (NOT_READY, UNREACHABLE))


def _covers(t: Toleration, key: str) -> bool:
    """DefaultTolerationSeconds' test: the toleration is for this key (or every key) and NoExecute (or every
    effect); its operator and value are not looked at."""
    return t.key in (key, "") and t.effect in ("NoExecute", "")


def with_default_tolerations(tols: tuple[Toleration, ...]) -> tuple[Toleration, ...]:
    """The pod's tolerations after DefaultTolerationSeconds: the given ones, then each default one not covered."""
    added = tuple(d for d in DEFAULT_TOLERATIONS if not any(_covers(t, d.key) for t in tols))
    return tols + added if added else tols


def written_tolerations(tols: tuple[Toleration, ...]) -> tuple[Toleration, ...]:
    """The tolerations the manifest wrote: `tols` without the ones with_default_tolerations appended (those are
    the DEFAULT_TOLERATIONS objects themselves; a toleration read from a document is never one of them)."""
    return tuple(t for t in tols if not any(t is d for d in DEFAULT_TOLERATIONS))


def _tolerations(raw: Any, ctx: Ctx) -> tuple[Toleration, ...]:
    items = [_toleration(t, ctx.at(i)) for i, t in enumerate(as_list(raw, ctx, (), "tolerations"))]
    return tuple(t for t in items if t is not None)


def _pod_tolerations(raw: Any, ctx: Ctx) -> tuple[Toleration, ...]:
    return with_default_tolerations(_tolerations(raw, ctx) if raw else ())


def tolerations(raw: Any, ctx: Ctx) -> tuple[Toleration, ...]:
    """A pod's tolerations as the API server stores them (with the admission defaults)."""
    return memo("tolerations", raw, ctx, _pod_tolerations)


def _taints(raw: Any, ctx: Ctx) -> tuple[Taint, ...]:
    out = []
    for i, item in enumerate(as_list(raw, ctx, (), "taints")):
        ictx = ctx.at(i)
        if not isinstance(item, dict) or not isinstance(item.get("key"), str) or not item.get("key"):
            ictx.report("WAS602", "a taint needs a key", ("key",))
            continue
        effect = item.get("effect")
        if effect not in TAINT_EFFECTS:
            ictx.report("WAS602", f"taint effect {effect!r} must be one of {', '.join(TAINT_EFFECTS)}", ("effect",))
            continue
        out.append(Taint(item["key"], as_str(item.get("value"), ictx, ("value",)), effect))
    return tuple(out)


def taints(raw: Any, ctx: Ctx) -> tuple[Taint, ...]:
    return () if not raw else memo("taints", raw, ctx, _taints)


def _positive_int(raw: Any, ctx: Ctx, key: str, default: int | None, minimum: int = 1) -> int | None:
    value = raw.get(key)
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
        return value
    ctx.report("WAS602", f"{key} must be an integer >= {minimum}, got {value!r}", (key,))
    return default


def _policy(raw: dict, ctx: Ctx, key: str, default: str) -> str:
    value = raw.get(key)
    if value is None:
        return default
    if value in ("Honor", "Ignore"):
        return value
    ctx.report("WAS602", f"{key} must be Honor or Ignore, got {value!r}", (key,))
    return default


def _constraint(raw: Any, ctx: Ctx) -> TopologySpreadConstraint | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("topologyKey"), str) or not raw.get("topologyKey"):
        ctx.report("WAS602", "a topology spread constraint needs a topologyKey", ("topologyKey",))
        return None
    when = raw.get("whenUnsatisfiable")
    if when not in ("DoNotSchedule", "ScheduleAnyway"):
        ctx.report("WAS602", f"whenUnsatisfiable must be DoNotSchedule or ScheduleAnyway, got {when!r}",
                   ("whenUnsatisfiable",))
        return None
    keys = as_list(raw.get("matchLabelKeys"), ctx, ("matchLabelKeys",), "matchLabelKeys")
    return TopologySpreadConstraint(
        max_skew=_positive_int(raw, ctx, "maxSkew", 1) or 1,
        topology_key=raw["topologyKey"],
        when_unsatisfiable=when,
        label_selector=label_selector(raw.get("labelSelector"), ctx.at("labelSelector")),
        min_domains=_positive_int(raw, ctx, "minDomains", None),
        node_affinity_policy=_policy(raw, ctx, "nodeAffinityPolicy", "Honor"),
        node_taints_policy=_policy(raw, ctx, "nodeTaintsPolicy", "Ignore"),
        match_label_keys=tuple(as_str(k, ctx, ("matchLabelKeys", i)) for i, k in enumerate(keys)),
    )


def _constraints(raw: Any, ctx: Ctx) -> tuple[TopologySpreadConstraint, ...]:
    items = [_constraint(c, ctx.at(i)) for i, c in enumerate(as_list(raw, ctx, (), "topologySpreadConstraints"))]
    return tuple(c for c in items if c is not None)


def spread_constraints(raw: Any, ctx: Ctx) -> tuple[TopologySpreadConstraint, ...]:
    return () if not raw else memo("topologySpreadConstraints", raw, ctx, _constraints)


def host_ports(spec: dict, ctx: Ctx) -> tuple[HostPort, ...]:
    """Ports with `hostPort` set, from regular containers and sidecars (`restartPolicy: Always` init containers),
    the containers that run for the pod's whole life (upstream `schedutil.GetHostPorts`)."""
    out: list[HostPort] = []
    for key in ("initContainers", "containers"):
        containers = spec.get(key)
        if not isinstance(containers, list):
            continue
        for ci, container in enumerate(containers):
            if not isinstance(container, dict) or not container.get("ports"):
                continue
            if key == "initContainers" and container.get("restartPolicy") != "Always":
                continue
            for pi, port in enumerate(as_list(container.get("ports"), ctx, (key, ci, "ports"), "ports")):
                hp = _host_port(port, ctx.at(key, ci, "ports", pi))
                if hp is not None:
                    out.append(hp)
    return tuple(out)


def _host_port(port: Any, ctx: Ctx) -> HostPort | None:
    if not isinstance(port, dict) or not port.get("hostPort"):
        return None
    value = port["hostPort"]
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 65535:
        ctx.report("WAS602", f"hostPort must be a port number 1-65535, got {value!r}", ("hostPort",))
        return None
    protocol = port.get("protocol") or "TCP"
    host_ip = port.get("hostIP") or "0.0.0.0"
    return HostPort(value, str(protocol), str(host_ip))

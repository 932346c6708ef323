"""Kueue v0.17.0's checks of its Configuration (config.kueue.x-k8s.io v1beta1 and v1beta2) beyond the field types.

The field names and types are the schema's (schemas/config.kueue.x-k8s.io/, from Kueue's Go types; Kueue decodes
the file strictly, so an unknown field stops it as WAS101 does here). This module is KDIR/pkg/config/validation.go
for the parts that decide admission, each finding WAS248 (Kueue would refuse to start with this file):
* `validateFairSharing`: an enabled fairSharing needs preemptionStrategies, one of the three lists Kueue accepts
  ([LessThanOrEqualToFinalShare], [LessThanInitialShare], both in that order); v1beta1's `enable: false` turns it
  off (nothing is checked) and `enable: true` without strategies gets both (configuration_conversion.go);
* `validateAdmissionFairSharing`: usageHalfLifeTime not negative, usageSamplingInterval (default 5m) above 0,
  resourceWeights not negative;
* `validateWaitForPodsReady` (when enabled): timeout required and not negative, recoveryTimeout not negative,
  requeuingStrategy's timestamp Creation or Eviction and its counts and seconds not negative;
* `validateResourceTransformations`: strategy Retain or Replace (default Retain), each input once.
Durations are Go durations (`metav1.Duration`: "90s", "1h30m"); one that does not parse is WAS248 too (Kueue's
decoder refuses it). The rest of validation.go (integrations' names, MultiKueue, TLS, certificates, the visibility
server, metrics labels) concerns the manager, not admission, and is not repeated here.
"""

from __future__ import annotations

import re

from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping

GROUP = "config.kueue.x-k8s.io"
VERSIONS = ("v1beta1", "v1beta2")
FINAL, INITIAL = "LessThanOrEqualToFinalShare", "LessThanInitialShare"
VALID_STRATEGIES = ([FINAL], [INITIAL], [FINAL, INITIAL])
CODE = "WAS248"
_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def go_duration(text: object) -> float | None:
    """Seconds of a Go duration string (time.ParseDuration), or None when it does not parse."""
    if not isinstance(text, str) or not text:
        return None
    sign, body = (-1.0, text[1:]) if text[0] == "-" else (1.0, text.lstrip("+"))
    if body == "0":
        return 0.0
    pos, total = 0, 0.0
    for m in _PART.finditer(body):
        if m.start() != pos:
            return None
        total += float(m.group(1)) * _UNIT[m.group(2)]
        pos = m.end()
    return sign * total if pos == len(body) and body else None


def check(doc: Document, gates: object = None) -> list[Diagnostic]:
    if doc.version not in VERSIONS or doc.kind != "Configuration":
        return []
    obj = doc.obj
    v1beta1 = doc.version == "v1beta1"
    return (_fair_sharing(doc, mapping(obj.get("fairSharing")), v1beta1, "fairSharing" in obj)
            + _admission_fair_sharing(doc, obj.get("admissionFairSharing"))
            + _wait_for_pods_ready(doc, obj.get("waitForPodsReady"), v1beta1)
            + _transformations(doc, mapping(obj.get("resources")).get("transformations")))


def _fair_sharing(doc: Document, fs: dict, v1beta1: bool, present: bool) -> list[Diagnostic]:
    if not present or (v1beta1 and fs.get("enable") is not True):
        return []
    strategies = fs.get("preemptionStrategies")
    path = ("fairSharing", "preemptionStrategies")
    if not strategies:
        if v1beta1:
            return []
        return [make(doc, CODE, "fairSharing.preemptionStrategies: Required value: must be specified", path,
                     f"write preemptionStrategies: [{FINAL}, {INITIAL}] (Kueue's default in v1beta1)")]
    if strategies not in VALID_STRATEGIES:
        listed = ", ".join(f'"{",".join(s)}"' for s in VALID_STRATEGIES)
        return [make(doc, CODE, f"fairSharing.preemptionStrategies: Unsupported value: {strategies}: supported "
                                f"values: {listed}", path)]
    return []


def _duration(doc: Document, raw: object, path: tuple, *, positive: bool = False) -> list[Diagnostic]:
    if raw is None:
        return []
    seconds = go_duration(raw)
    name = ".".join(str(p) for p in path)
    if seconds is None:
        return [make(doc, CODE, f"{name}: {raw!r} is not a duration (Go's time.ParseDuration: \"90s\", \"1h30m\")",
                     path)]
    if positive and seconds <= 0:
        return [make(doc, CODE, f"{name}: Invalid value: {raw!r}: must be greater than 0", path)]
    if seconds < 0:
        return [make(doc, CODE, f"{name}: Invalid value: {raw!r}: must be greater than or equal to 0", path)]
    return []


def _admission_fair_sharing(doc: Document, raw: object) -> list[Diagnostic]:
    if not isinstance(raw, dict):
        return []
    base = ("admissionFairSharing",)
    out = _duration(doc, raw.get("usageHalfLifeTime"), (*base, "usageHalfLifeTime"))
    out += _duration(doc, raw.get("usageSamplingInterval"), (*base, "usageSamplingInterval"), positive=True)
    for name, weight in sorted(mapping(raw.get("resourceWeights")).items()):
        if isinstance(weight, (int, float)) and not isinstance(weight, bool) and weight < 0:
            out.append(make(doc, CODE, f"admissionFairSharing.resourceWeights[{name}]: Invalid value: {weight}: must "
                                       "be greater than or equal to 0", (*base, "resourceWeights", name)))
    return out


def _wait_for_pods_ready(doc: Document, raw: object, v1beta1: bool) -> list[Diagnostic]:
    if not isinstance(raw, dict) or (v1beta1 and raw.get("enable") is not True):
        return []
    base = ("waitForPodsReady",)
    out = []
    timeout = raw.get("timeout")  # v1beta1 defaults it to 5m (apis/config/v1beta1/defaults.go)
    if (timeout is None and not v1beta1) or (timeout is not None and go_duration(timeout) == 0):
        out.append(make(doc, CODE, "waitForPodsReady.timeout: Required value: must be specified",
                        (*base, "timeout") if timeout is not None else base))
    else:
        out += _duration(doc, timeout, (*base, "timeout"))
    out += _duration(doc, raw.get("recoveryTimeout"), (*base, "recoveryTimeout"))
    strategy = mapping(raw.get("requeuingStrategy"))
    spath = (*base, "requeuingStrategy")
    stamp = strategy.get("timestamp")
    if stamp is not None and stamp not in ("Creation", "Eviction"):
        out.append(make(doc, CODE, f"waitForPodsReady.requeuingStrategy.timestamp: Unsupported value: {stamp!r}: "
                                   "supported values: \"Creation\", \"Eviction\"", (*spath, "timestamp")))
    for name in ("backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"):
        value = strategy.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            out.append(make(doc, CODE, f"waitForPodsReady.requeuingStrategy.{name}: Invalid value: {value}: must be "
                                       "greater than or equal to 0", (*spath, name)))
    return out


def _transformations(doc: Document, raw: object) -> list[Diagnostic]:
    out, seen = [], set()
    for i, t in enumerate(raw if isinstance(raw, list) else ()):
        if not isinstance(t, dict):
            continue
        path = ("resources", "transformations", i)
        strategy = t.get("strategy") or "Retain"
        if strategy not in ("Retain", "Replace"):
            out.append(make(doc, CODE, f"resources.transformations[{i}].strategy: Unsupported value: {strategy!r}: "
                                       "supported values: \"Retain\", \"Replace\"", (*path, "strategy")))
        name = t.get("input")
        if name in seen:
            out.append(make(doc, CODE, f"resources.transformations[{i}].input: Duplicate value: {name!r}",
                            (*path, "input")))
        seen.add(name)
    return out

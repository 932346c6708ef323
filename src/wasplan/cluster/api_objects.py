"""The small pieces the plan writes as an API server would, shared by the snapshot writer (snapshot_objects.py),
the DRA objects' writer (dra_objects.py) and the ResourceClaim controller (claims.py): a node selector's
requirements and terms as objects, and a stable stand-in for an object's uid.

They live apart from the DRA modules so that writing a snapshot of a plan without DRA, or reading this module at
all, loads no DRA record (cluster/dra_gate.py).
"""

from __future__ import annotations

import uuid

from wasplan.cluster.model import NodeSelectorTerm, Requirement


def stable_uid(namespace: str, kind: str, name: str) -> str:
    """A stable stand-in for an object's uid (the plan has no API server to assign one): same object, same uid."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"wasplan.io/owner/{namespace}/{kind}/{name}"))


def requirement_object(r: Requirement) -> dict:
    """A label or field selector requirement (also the pod and node objects' in snapshot_objects.py)."""
    return {"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}


def node_term_object(t: NodeSelectorTerm) -> dict:
    out: dict = {}
    if t.match_expressions:
        out["matchExpressions"] = [requirement_object(r) for r in t.match_expressions]
    if t.match_fields:
        out["matchFields"] = [requirement_object(r) for r in t.match_fields]
    return out

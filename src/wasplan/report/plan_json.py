"""Machine-readable renderings of a plan: the Plan contract as JSON or YAML, and the cluster after the plan
(`--emit-snapshot`) as a YAML List of the objects cluster/snapshot_objects.py builds. Renders only; output is
deterministic: same plan, same bytes.
"""

from __future__ import annotations

import yaml

from wasplan.api.releases import Release
from wasplan.cluster.snapshot_objects import snapshot_objects
from wasplan.jsontext import dumps
from wasplan.plan import Plan


def render_plan_json(plan: Plan) -> str:
    return dumps(plan.to_dict())


def render_plan_yaml(plan: Plan) -> str:
    return yaml.safe_dump(plan.to_dict(), sort_keys=False, default_flow_style=False)


def render_snapshot(final, release: Release) -> str:
    doc = {"apiVersion": "v1", "kind": "List", "items": snapshot_objects(final, release)}
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)

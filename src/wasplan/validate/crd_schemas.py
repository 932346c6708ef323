"""JobSet (jobset.x-k8s.io/v1alpha2) and LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) checked against a
skeleton of their CRDs whose pod and Job templates are upstream's strict core schemas.

No maintained PyPI package ships these CRDs' OpenAPI schemas (kubernetes-validate has only core kinds), so the
skeleton here names the fields the controllers act on, with the types and defaults of
kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go and kubernetes-sigs/lws
api/leaderworkerset/v1/leaderworkerset_types.go, and refers each template to the release's own
`JobTemplateSpec` / `PodTemplateSpec` definitions (core_schemas.py), so a mistake inside a template is found
exactly as in a Job. Fields outside the skeleton are not checked.
"""

from __future__ import annotations

from functools import lru_cache

import jsonschema_rs

from wasplan.validate import core_schemas

_INT = {"type": "integer", "minimum": 0}


def _ref(defs_id: str, name: str) -> dict:
    return {"$ref": f"{defs_id}#/$defs/{name}"}


def _jobset(defs_id: str) -> dict:
    rjob = {"type": "object", "required": ["name", "template"],
            "properties": {"name": {"type": "string"}, "groupName": {"type": "string"}, "replicas": _INT,
                           "template": _ref(defs_id, "io.k8s.api.batch.v1.JobTemplateSpec"),
                           "dependsOn": {"type": "array", "items": {
                               "type": "object", "required": ["name", "status"],
                               "properties": {"name": {"type": "string"},
                                              "status": {"enum": ["Ready", "Complete"]}}}}}}
    spec = {"type": "object", "required": ["replicatedJobs"],
            "properties": {"replicatedJobs": {"type": "array", "minItems": 1, "items": rjob},
                           "suspend": {"type": "boolean"}, "managedBy": {"type": "string"},
                           "startupPolicy": {"type": "object", "properties": {
                               "startupPolicyOrder": {"enum": ["AnyOrder", "InOrder"]}}}}}
    return _object(defs_id, spec)


def _object(defs_id: str, spec: dict) -> dict:
    """The object: its spec, and the metadata every kind has (the release's ObjectMeta)."""
    return {"type": "object", "required": ["spec"],
            "properties": {"metadata": _ref(defs_id, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
                           "spec": spec}}


def _lws(defs_id: str) -> dict:
    template = _ref(defs_id, "io.k8s.api.core.v1.PodTemplateSpec")
    lwt = {"type": "object", "required": ["workerTemplate"],
           "properties": {"leaderTemplate": template, "workerTemplate": template,
                          "size": {"type": "integer", "minimum": 1},
                          "subGroupPolicy": {"type": "object", "properties": {
                              "subGroupPolicyType": {"enum": ["LeaderWorker", "LeaderExcluded"]},
                              "subGroupSize": {"type": "integer", "minimum": 1}}}}}
    spec = {"type": "object", "required": ["leaderWorkerTemplate"],
            "properties": {"replicas": _INT, "leaderWorkerTemplate": lwt,
                           "startupPolicy": {"enum": ["LeaderCreated", "LeaderReady"]}}}
    return _object(defs_id, spec)


_SKELETONS = {("jobset.x-k8s.io/v1alpha2", "JobSet"): _jobset,
              ("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet"): _lws}


@lru_cache(maxsize=None)
def skeleton(release_version: str, api_version: str, kind: str) -> dict | None:
    build = _SKELETONS.get((api_version, kind))
    return build(core_schemas.definitions(release_version)["$id"]) if build else None


@lru_cache(maxsize=None)
def validator(release_version: str, api_version: str, kind: str) -> jsonschema_rs.Validator | None:
    schema = skeleton(release_version, api_version, kind)
    if schema is None:
        return None
    return jsonschema_rs.validator_for(schema, registry=core_schemas.registry(release_version),
                                       validate_formats=False)

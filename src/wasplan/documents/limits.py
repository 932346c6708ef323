"""Input limits: how much the readers accept before a finding instead of a hang, a crash or a memory blow-up.

The figures follow the tools a manifest meets on its way into a cluster, and are documented in docs/exit-codes.md
(section "Limits"):

* one object at most 3 MiB, the API server's request body limit (`MaxRequestBodyBytes`, 3 * 1024 * 1024, in
  k8s.io/apiserver/pkg/server/config.go); a file has no size limit: a `kubectl get -o json` dump of a large
  cluster is hundreds of megabytes of honest objects, and what could make a small file expand (aliases,
  nesting, documents) is bounded below;
* at most 100,000 documents in one file;
* nesting at most 100 mappings/lists deep (libyaml stops at 1,000, see `MAX_NESTING_LEVEL` in libyaml's
  scanner.c; 100 leaves room for the Python code that walks a document recursively; Kubernetes objects nest
  about 20 deep);
* at most 1,000 alias uses and 1,000,000 nodes reached through aliases per document: the defence against
  "billion laughs" that go-yaml, used by the API server, has as its alias ratio check (yaml.v2 decode.go,
  `allowedAliasRatio`);
* numbers within Kubernetes' widest field type, int64, and finite (JSON cannot carry NaN or infinity);
  narrower int32 fields are checked by the schemas.
"""

from __future__ import annotations

MAX_OBJECT_BYTES = 3 * 1024 * 1024
MAX_DOCUMENTS = 100_000
MAX_DEPTH = 100
MAX_ALIASES = 1_000
MAX_ALIAS_NODES = 1_000_000
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"

"""Deterministic stand-ins for the names the API server and the controllers make up at random.

* `generateName`: the API server appends 5 random characters (staging/src/k8s.io/apiserver/pkg/storage/names,
  `simpleNameGenerator`, alphabet of k8s.io/apimachinery/pkg/util/rand). wasplan appends 5 characters of the
  same alphabet taken from an FNV-1a hash of kind, namespace, prefix and how many objects of that kind and
  prefix came before in the input (the last 5 encoded digits) — the same input always gets the same names, and the real names will differ.
* Deployment -> ReplicaSet: upstream names the ReplicaSet `<deployment>-<pod-template-hash>`, the hash being
  FNV-1a over the Go object of the template, safe-encoded (pkg/controller/controller_utils.go `ComputeHash`;
  pkg/controller/deployment/sync.go). wasplan hashes the template's canonical JSON instead: same alphabet and
  length as upstream, a different value.
"""

from __future__ import annotations

import json

# k8s.io/apimachinery/pkg/util/rand: consonants and digits that cannot spell words
SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
GENERATED_SUFFIX = 5


def fnv32a(text: str) -> int:
    value = 0x811C9DC5
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def safe_encode(text: str) -> str:
    """Each character mapped into the safe alphabet, as upstream's SafeEncodeString does."""
    return "".join(SAFE_ALPHABET[ord(ch) % len(SAFE_ALPHABET)] for ch in text)


def template_hash(template: object) -> str:
    """A stand-in for `pod-template-hash`: the safe-encoded decimal FNV-1a of the template's canonical JSON."""
    canonical = json.dumps(template, sort_keys=True, separators=(",", ":"), default=str)
    return safe_encode(str(fnv32a(canonical)))


class Namer:
    """Names objects that have only `metadata.generateName`; one per plan so repeated prefixes stay distinct."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str, str], int] = {}

    def name(self, kind: str, namespace: str, prefix: str) -> str:
        key = (kind, namespace, prefix)
        n = self._seen.get(key, 0)
        self._seen[key] = n + 1
        digits = str(fnv32a(f"{kind}/{namespace}/{prefix}#{n}")).rjust(GENERATED_SUFFIX, "0")
        return prefix + safe_encode(digits)[-GENERATED_SUFFIX:]

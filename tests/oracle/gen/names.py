"""Long dotted names for generated cases, as real clusters have them and the public corpus showed the generator
never drew: cloud node names (`ip-10-0-1-7.eu-central-1.compute.internal` style) and pod names longer than 63
characters made of dotted parts (a kubeadm static pod on such a node, `kube-proxy-<node name>`, is one).

`lengthen(cluster, manifests, rng)` runs after a theme and images (gen/__init__.py), with a random source of its own
(`Random(f"{seed}/{release}/names")`), so every other draw of every case is what it was before; three cases in four
are left as they were. In the others every node is renamed (every string equal to its name, wherever it stands:
the hostname label, `nodeName`, matchFields values, ResourceSlice pools), kept at 63 characters or fewer since the
generator writes the name as the `kubernetes.io/hostname` label value; and about half of the pending pods get a
name of 64 to 140 characters. Only pending pods (the manifests) are renamed: nothing refers to them by name, while
running pods are named by their claims' `reservedFor`. Names are DNS subdomains (upstream's IsDNS1123Subdomain:
at most 253 characters, lowercase alphanumerics, '-' and '.'); no dotted part is longer than `LONGEST_PART`.
"""

from __future__ import annotations

import random

REGIONS = ("us-east-1", "eu-central-1", "ap-southeast-2")
WORDS = ("kube-proxy", "team-research", "batch-jobs", "svc", "cluster-local", "example-org",
         "inference-serving-pool", "training-workers-primary", "a1b2c3")
# the longest dotted part drawn: 63 keeps every part a DNS label (wasplan refused a longer one, WAS107, until the
# name rule was fixed; raise it to draw parts like `kube-controller-manager-<64-character node name>`)
LONGEST_PART = 63


def _node_name(old: str, rng: random.Random) -> str:
    return f"{old}.ip-10-0-{rng.randint(0, 255)}-{rng.randint(1, 254)}.{rng.choice(REGIONS)}.compute.internal"


def _pod_name(old: str, rng: random.Random) -> str:
    parts = [old]
    while len(".".join(parts)) <= 63 or rng.random() < 0.3:
        parts.append(rng.choice(WORDS)[:LONGEST_PART])
    return ".".join(parts)[:140].rstrip(".-")


def _replace(value, names: dict[str, str]):
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_replace(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, names) for k, v in value.items()}
    return value


def lengthen(cluster: list[dict], manifests: list[dict], rng: random.Random) -> None:
    """Rename, in place, the nodes of a quarter of the cases and about half of their pending pods."""
    if rng.random() < 0.75:
        return
    nodes = {d["metadata"]["name"]: None for d in cluster if d.get("kind") == "Node"}
    nodes = {old: _node_name(old, rng) for old in nodes}
    assert all(len(new) <= 63 for new in nodes.values())
    for docs in (cluster, manifests):
        docs[:] = [_replace(d, nodes) for d in docs]
    for doc in manifests:
        if doc.get("kind") == "Pod" and rng.random() < 0.5:
            doc["metadata"]["name"] = _pod_name(doc["metadata"]["name"], rng)

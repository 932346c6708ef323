"""Object names, generateName prefixes, label keys and values at their boundary lengths, through `wasplan
validate` and the API server's create path (oracle `validate`): every verdict must be the server's (issue 30: a
64-character static pod name was refused)."""

from __future__ import annotations

import pytest
import yaml

from tests.oracle.apicompare import validate_both
from tests.oracle.conftest import API_RELEASES, require_release

A63, A64 = "a" * 63, "a" * 64
NAMES = ["kube-controller-manager-dra-example-driver-cluster-control-plane", A63, A64, "a" * 253, "a" * 254,
         f"{A64}.{A64}.{A63}", "x" * 126 + "." + "y" * 126, "a..b", "a.-b", "-a", "a-", "A", "a_b"]
PREFIXES = ["worker-", "a.-", "Worker-", "a" * 70 + "-", "a" * 57 + ".-"]
LABELS = [("app", A63), ("app", A64), ("app", ""), ("app", "-v"), ("example.com/" + A63, "v"),
          ("example.com/" + A64, "v"), (A64 + "/x", "v"), ("a/b/c", "v"), ("/x", "v"), ("x_", "v")]
KINDS = [("v1", "Pod", {"spec": {"containers": [{"name": "c", "image": "x"}]}}),
         ("scheduling.k8s.io/v1", "PriorityClass", {"value": 10}),
         ("resource.k8s.io/v1", "DeviceClass", {"spec": {}}),
         ("resource.k8s.io/v1", "ResourceClaim", {"spec": {}})]


def _documents() -> list[dict]:
    docs = []
    for api_version, kind, body in KINDS:
        for meta in ([{"name": n} for n in NAMES] + [{"generateName": p} for p in PREFIXES]
                     + [{"name": "l", "labels": {k: v}} for k, v in LABELS]):
            if kind != "PriorityClass" and kind != "DeviceClass":
                meta = {**meta, "namespace": "default"}
            docs.append({"apiVersion": api_version, "kind": kind, "metadata": meta, **body})
    return docs


@pytest.mark.parametrize("release", API_RELEASES)
def test_names_get_the_servers_verdict(oracle_bin, release, tmp_path):
    require_release(oracle_bin, release)
    docs = _documents()
    stream = tmp_path / "names.yaml"
    stream.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    server, ours = validate_both(oracle_bin, stream, release, "")
    assert len(server) == len(ours) == len(docs)
    wrong = [f"{d['kind']} {d['metadata']}: server {s.verdict}, wasplan {o.verdict}"
             for d, s, o in zip(docs, server, ours) if s.verdict != o.verdict]
    assert not wrong, "\n".join(wrong)

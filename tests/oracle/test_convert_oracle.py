"""`wasplan migrate` against the API server's conversion (oracle `convert`).

A server converts only between the versions of one release: in 1.37, v1alpha3 <-> v1beta1 for Workload and
PodGroup, in 1.38 for CompositePodGroup too. Every fixture document of those kinds that the server accepts is migrated by wasplan with
`--to` each version and converted by the oracle to the same version; both results are then defaulted by the
oracle (a same-version conversion) and must be equal. Conversions across releases (v1alpha2 <-> 1.37) have no
server counterpart; the oracle's validate judges their output in test_validate_oracle.py's corpus instead.
"""

from __future__ import annotations

import pytest
import yaml

from tests.oracle import mutate
from tests.oracle.apicompare import load_list, run_wasplan
from tests.oracle.conftest import require_release, run_oracle

VERSIONS = ("scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha3")
# 1.38 serves CompositePodGroup in both versions too, so its composite trees convert as well
RELEASES = ("1.37", "1.38")


def _accepted(binary, tmp_path, release: str) -> list[dict]:
    # status is reset on create and dropped by migrate: the documents are compared without it
    kinds = ("Workload", "PodGroup") + (("CompositePodGroup",) if release != "1.37" else ())
    docs = [{k: v for k, v in d.items() if k != "status"} for _, d in mutate.seed_documents()
            if d.get("apiVersion") in VERSIONS and d.get("kind") in kinds and (release != "1.37" or not _composite(d))]
    stream = tmp_path / "seeds.yaml"
    mutate.write_stream([mutate.Mutant("", "", d) for d in docs], stream)
    report = run_oracle(binary, ["validate", str(stream), "--k8s-version", release, "--feature-gates",
                                 "DRAWorkloadResourceClaims=true", "-o", "json"]).json
    return [d for d, r in zip(docs, report["documents"]) if r["verdict"] == "valid"]


def _composite(doc: dict) -> bool:
    spec = doc.get("spec") or {}
    return bool(spec.get("compositePodGroupTemplates")) or spec.get("parentCompositePodGroupName") is not None


def _convert(binary, path, target, release: str) -> list[dict]:
    result = run_oracle(binary, ["convert", str(path), "--to-k8s", release, "--to", target, "-o", "yaml"])
    assert result.returncode == 0, result.stderr[-2000:]
    return load_list(result.stdout)


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("target", VERSIONS)
def test_migrate_converts_as_the_api_server_does(oracle_bin, target, release, tmp_path):
    require_release(oracle_bin, release)
    docs = _accepted(oracle_bin, tmp_path, release)
    assert docs, f"no {release} Workload or PodGroup fixture is accepted by the server"
    source = tmp_path / "source.yaml"
    source.write_text(yaml.safe_dump_all(docs))
    migrated = run_wasplan("migrate", str(source), "--to-k8s", release, "--to", target)
    assert migrated.returncode == 0, migrated.stderr[-2000:]
    ours_path = tmp_path / "ours.yaml"
    ours_path.write_text(migrated.stdout)
    server, ours = _convert(oracle_bin, source, target, release), _convert(oracle_bin, ours_path, target, release)
    assert len(server) == len(ours) == len(docs)
    differ = [f"{s['kind']} {s['metadata'].get('name')}:\n  server  {s}\n  wasplan {o}"
              for s, o in zip(server, ours) if s != o]
    kinds = sorted({d["kind"] for d in docs})
    print(f"\nconvert {release} to {target}: {len(docs) - len(differ)}/{len(docs)} documents agree ({', '.join(kinds)})")
    assert not differ, "\n".join(differ[:5])

"""The public corpus's documents (fixtures/public) through `wasplan validate` and the API server's create path
(oracle `validate`), for every release the oracle is built for: every verdict must be the server's.

Only the documents of kinds both check are compared (tests/oracle/mutate.py KINDS, in groups the API server
serves itself); JobSets, LeaderWorkerSets, Kueue and Volcano objects are other projects' CRDs. Documents in a
version the release does not serve are compared too: the oracle refuses a kind past its APILifecycleRemoved as
kube-apiserver does (scheduling.k8s.io/v1beta1 PriorityClass, removed in 1.22, and in 1.38 resource.k8s.io/v1beta1),
and wasplan refuses it by name (WAS109, WAS113). The plan side of the corpus is tests/oracle/test_public_corpus.py.
"""

from __future__ import annotations

import pytest
import yaml

from tests.oracle import mutate
from tests.oracle.apicompare import agree, validate_both
from tests.oracle.conftest import API_RELEASES, require_release
from wasplan.api.served import BUILTIN

PUBLIC = mutate.ROOT / "fixtures" / "public"


def _documents() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(PUBLIC.rglob("*.y*ml")):
        try:
            docs = list(yaml.safe_load_all(path.read_text()))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        for i, doc in enumerate(docs):
            for item in mutate._items(doc):
                if (isinstance(item, dict) and item.get("kind") in mutate.KINDS
                        and isinstance(item.get("apiVersion"), str) and mutate._kubernetes_group(item["apiVersion"])):
                    out.append((f"{path.relative_to(mutate.ROOT)}:{i}", item))
    return out


@pytest.mark.parametrize("release", API_RELEASES)
def test_public_documents_get_the_servers_verdict(oracle_bin, release, tmp_path):
    require_release(oracle_bin, release)
    docs = _documents()
    unserved = sum(d["kind"] not in BUILTIN[release].get(d["apiVersion"], ()) for _, d in docs)
    stream = tmp_path / "public.yaml"
    mutate.write_stream([mutate.Mutant(origin, "", doc) for origin, doc in docs], stream)
    server, ours = validate_both(oracle_bin, stream, release, "DRAWorkloadResourceClaims=true")
    assert len(server) == len(ours) == len(docs)
    differ = [f"{origin}: server {s.verdict} {list(s.messages)[:2]}, wasplan {o.verdict} {list(o.messages)[:2]}"
              for (origin, _), s, o in zip(docs, server, ours) if not agree(s, o)[0]]
    paths = sum(agree(s, o)[1] for s, o in zip(server, ours))
    print(f"\npublic validate {release}: {len(docs)} documents, verdict {len(docs) - len(differ)}, verdict and "
          f"field paths {paths}; {unserved} of them in versions the release does not serve")
    assert not differ, "\n".join(differ[:10])

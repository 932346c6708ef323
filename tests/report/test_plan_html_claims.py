"""The HTML report shows what the plan did with devices and evictions (issue 30): per node, which ResourceClaim
holds which devices and for whom, the pending claims with kube-scheduler's reason, and the recreated
replacements of evicted pods (plan JSON `recreations[]`). Real inputs: the DRA example (fixtures/examples/dra),
a claim no node can satisfy (fixtures/explain/dra-devices/count.yaml) and the eviction scenario."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from tests.report.planviews import parse_html

DRA = FIXTURES / "examples" / "dra"


def _section(dom, ident: str):
    [section] = [e for e in dom.find_all("section") if e.attrs.get("id") == ident]
    return section


def _rows(section) -> list[list[str]]:
    return [[" ".join(td.text.split()) for td in tr.find_all("td")] for tr in section.find_all("tr")
            if tr.find_all("td")]


def test_claims_per_node_name_their_devices_and_consumers():
    result = run("plan", str(DRA / "workloads"), "--cluster", str(DRA / "cluster.yaml"), "-o", "html")
    assert result.exit_code == 0
    rows = _rows(_section(parse_html(result.stdout), "claims"))
    assert rows[0] == ["gpu-r0-0", "ml-research/finetune-0-gpus-p7vqd Allocated", "gpu.example.com/gpu-r0-0/gpu-[0-3]",
                       "Pod ml-research/finetune-0"]
    assert [r[0] for r in rows] == ["gpu-r0-0", "gpu-r0-1", "gpu-r0-2", "gpu-r0-3", "gpu-r1-0", "gpu-r1-1",
                                    "(not node-local)", "(not node-local)"]
    assert rows[-1] == ["(not node-local)", "ml-research/finetune-1-fabric-476cf Allocated",
                        "rdma.example.com/fabric-rack-1/rdma-0", "Pod ml-research/finetune-1"]


def test_a_pending_claim_is_listed_with_the_scheduler_s_reason():
    case = FIXTURES / "explain" / "dra-devices"
    result = run("plan", str(case / "count.yaml"), "--cluster", str(case / "cluster.yaml"), "-o", "html")
    section = _section(parse_html(result.stdout), "claims")
    [item] = [" ".join(li.text.split()) for li in section.find_all("li", cls="claim-pending")]
    assert item == ("default/trainer-gpu-q4bbh: 0/2 nodes are available: 2 cannot allocate all claims. preemption: "
                    "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    assert not _rows(section)  # nothing allocated


def test_recreated_replacements_are_shown_with_what_becomes_of_them():
    scene = FIXTURES / "scenarios" / "eviction"
    result = run("plan", str(scene / "urgent.yaml"), "--cluster", str(scene / "cluster.yaml"), "-o", "html")
    assert _rows(_section(parse_html(result.stdout), "recreations")) == [[
        "Job ml/lp", "ml/lp-[0-3]", "0 of 4",
        "4 pods of job ml/lp evicted; the Job recreates them; they would stay pending: no node has room, and no "
        "lower-priority pod runs that could be preempted for them"]]


def test_a_plan_without_claims_or_evictions_has_neither_section():
    page = run("plan", str(FIXTURES / "examples" / "training"), "--cluster",
               str(FIXTURES / "examples" / "cluster.yaml"), "-o", "html").stdout
    assert 'id="claims"' not in page and 'id="recreations"' not in page

"""Lists of names read in natural order, folded (issue 30): `worker-2` before `worker-10`, `batch-[1-12]`. One
key, words.natural_key, serves the text, HTML and Markdown views; the case is fixtures/scenarios/natural-order
(one serving pod evicting the twelve batch pods of worker-10) and the DRA example's claims."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from tests.report.planviews import view
from tests.report.test_plan_markdown import tables
from wasplan.report.plan_markdown import render_markdown
from wasplan.words import natural_key

CASE = FIXTURES / "scenarios" / "natural-order"
ARGS = (str(CASE / "web.yaml"), "--cluster", str(CASE / "cluster.yaml"))
VICTIMS = [f"default/batch-{i}" for i in range(1, 13)]


def test_the_natural_key_orders_every_run_of_digits_as_a_number():
    names = ["worker-10", "rack-10-node-0", "worker-2", "rack-2-node-11", "rack-2-node-3", "worker", "worker2",
             "n-1", "n-01"]
    assert sorted(names, key=natural_key) == ["n-01", "n-1", "rack-2-node-3", "rack-2-node-11", "rack-10-node-0",
                                              "worker", "worker2", "worker-2", "worker-10"]


def test_text_folds_the_victims_of_a_node():
    result = run("plan", *ARGS, env={"COLUMNS": "120"})
    assert "  Pod default/web evicts default/batch-[1-12] on worker-10 (priority 0)\n" in result.stdout


def test_markdown_folds_the_victims_into_one_row_per_node():
    assert tables(render_markdown(view(CASE / "web.yaml", CASE / "cluster.yaml"))) == [[
        ["preemptor", "victim", "node", "priority", "victim's PodGroup"],
        ["Pod default/web", "default/batch-[1-12]", "worker-10", "0", "-"]]]


def test_html_lists_a_node_s_victims_in_natural_order():
    planned = view(CASE / "web.yaml", CASE / "cluster.yaml")
    [node] = [n for n in planned.nodes if n.name == "worker-10"]
    assert [v.split(" ")[0] for v in node.victims] == VICTIMS
    [preemption] = planned.preemptions
    assert [name for name, *_ in preemption.victims] == VICTIMS


def test_a_claim_s_devices_are_folded_per_pool():
    example = FIXTURES / "examples" / "dra"
    result = run("plan", str(example / "workloads"), "--cluster", str(example / "cluster.yaml"),
                 env={"COLUMNS": "200"})
    assert ("  ml-research/finetune-0-gpus-p7vqd Allocated on gpu-r0-0: gpu.example.com/gpu-r0-0/gpu-[0-3]; "
            "reserved for Pod finetune-0\n") in result.stdout

"""The Cluster kind's template language: what it computes and what it refuses."""

import pytest

from wasplan.cluster.template import TemplateError, compile_template

NAMES = {"index", "index1", "count", "pool"}


def render(text: str, index: int = 0, count: int = 12, pool: str = "train") -> str:
    return compile_template(text, NAMES).render({"index": index, "index1": index + 1, "count": count, "pool": pool})


@pytest.mark.parametrize("text,index,expected", [
    ("gpu-{index}", 7, "gpu-7"),
    ("gpu-{index1}", 7, "gpu-8"),
    ("{pool}-{index}", 3, "train-3"),
    ("rack-{index // 4}", 7, "rack-1"),
    ("zone-{index % 2}", 7, "zone-1"),
    ("n{index:03}", 7, "n007"),
    ("n{index:3}", 7, "n  7"),
    ("r{(index + 1) * 2 - 1}", 3, "r7"),
    ("r{index + 1 * 2}", 3, "r5"),  # * binds tighter than +
    ("{count - index - 1}", 0, "11"),
    ("{{literal}}-{index}", 1, "{literal}-1"),
    ("plain", 5, "plain"),
    ("{ index // 4 }", 9, "2"),
])
def test_render(text, index, expected):
    assert render(text, index) == expected


def test_constant_templates_are_recognised():
    assert compile_template("plain", NAMES).constant
    assert not compile_template("p-{index}", NAMES).constant


@pytest.mark.parametrize("text", [
    "{unknown}", "{index //}", "{index", "x}", "{}", "{index:x}", "{__import__}", "{index.real}", "{index ** 2}",
    "{index; 1}", "{(index}", "{index)}", "{'a'}",
])
def test_malformed_templates_are_rejected(text):
    with pytest.raises(TemplateError):
        render(text)


@pytest.mark.parametrize("text", ["{index // 0}", "{index % (count - 12)}", "{pool + 1}"])
def test_evaluation_errors(text):
    with pytest.raises(TemplateError):
        render(text)


@pytest.mark.parametrize("text, message", [
    ("b-{99999999999999999999999999999 * 9}", "number 99999999999999999999... longer than 18 digits"),
    ("c-{" + "(" * 40 + "index" + ")" * 40 + "}", "parentheses nested deeper than 32"),
    ("s-{" + "+".join(["1"] * 300) + "}", "expression longer than 200 tokens"),
])
def test_hostile_templates_are_refused_when_compiled(text, message):
    with pytest.raises(TemplateError, match=message.replace("(", r"\(").replace("+", r"\+")):
        compile_template(text, NAMES)


def test_values_beyond_int64_are_refused_when_rendered():
    with pytest.raises(TemplateError, match="value beyond int64"):
        render("d-{999999999999999999 * 999999999999999999}")

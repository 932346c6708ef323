"""`wasplan explain -o json`: the Explanation as documented in docs/explain.md. Renders only."""

from __future__ import annotations

from wasplan.explain.model import Explanation
from wasplan.jsontext import dumps


def render_explain_json(explanation: Explanation) -> str:
    return dumps(explanation.to_dict(), ensure_ascii=False)

"""`wasplan explain -o json`: the Explanation as documented in docs/explain.md. Renders only."""

from __future__ import annotations

import json

from wasplan.explain.model import Explanation


def render_explain_json(explanation: Explanation) -> str:
    return json.dumps(explanation.to_dict(), indent=2, ensure_ascii=False) + "\n"

"""The Kueue scenarios of fixtures/kueue-scenarios/expected.yaml that wasplan does not match yet, each with the
cause. The tests that replay the scenarios without Go (tests/test_kueue_scenarios.py through the CLI,
tests/cli/test_plan_kueue.py, tests/kueue/test_oracle_scenarios.py on the model) run these as strict expected
failures: a listed scenario that starts to match fails them until it leaves this list."""

from __future__ import annotations

import pytest

NOT_YET = {
}


def marked(names) -> list:
    """`names` as pytest parameters, those listed above marked as strict expected failures."""
    return [pytest.param(n, id=n, marks=[pytest.mark.xfail(reason=NOT_YET[n], strict=True)] if n in NOT_YET else [])
            for n in names]

"""Every published performance / relation / cloud case runs through its case function."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.validation.performance_cases import PERFORMANCE_CASES
from models.validation.runner import published_cases

SECTIONS = ("performance", "relation", "cloud")
CASES = [case for s in SECTIONS for case in published_cases()[s]]

def test_every_case_has_a_function():
    assert {c["id"] for c in CASES} <= set(PERFORMANCE_CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case):
    checks = PERFORMANCE_CASES[case["id"]](bundled_catalog(), case)
    assert checks
    # a never-fitted prediction may miss (validate names it and holds its summary to a target); every other check
    # (in-sample, arithmetic, yes / no) must pass
    failed = [c for c in checks if not c.passed and c.category != "prediction"]
    for c in checks:
        assert c.case_id == case["id"] and c.interpretation
    assert not failed, [(c.quantity, c.published, c.predicted, f"{c.error:+.1%}") for c in failed]

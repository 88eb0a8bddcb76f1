"""Months until full read the same on screen, in the report and in the verdicts (models.formatting.fmt_months)."""

import math

import pytest

from models.formatting import fmt_months


@pytest.mark.parametrize("months, text", [
    (None, "no growth"), (math.nan, "no growth"), (math.inf, "no growth"), (0.0, "full now"), (-1.0, "full now"),
    (4.46, "4.5 months"), (36.0, "36 months"), (141.2, "141 months"), (1234.0, "1,234 months"),
])
def test_months_until_full_wording(months, text):
    assert fmt_months(months) == text


def test_the_screen_the_report_and_the_verdict_agree_on_a_long_runway():
    from models.evaluate import evaluate
    from models.present import capacity_verdicts
    from models.project import load
    from models.resources import examples_dir
    from models.units import CapacityUnit

    project = load(examples_dir() / "vsan-sqlserver-raid5.toml")
    capacity = evaluate(project).capacity
    months = capacity.systems[0].months_until_full
    assert months is not None and months > 120  # past ten years: once shown as "> 10 years" beside "141 months"
    verdict = next(v for v in capacity_verdicts(capacity, CapacityUnit.TIB) if v.area == "capacity")
    assert f"full in {fmt_months(months)}" in verdict.text

"""The validation rule in words ("Passes when" in the GUI and the workbook) prints a tolerance to three significant
digits: a latency check widened by half a printed step read "within ±38.3333% of the published value"."""

from __future__ import annotations

import pytest

from models.present.validation import rule_text
from models.validation.checks import Check


@pytest.mark.parametrize("tolerance, kind, words", [
    (0.383333333, "value", "within ±38.3% of the published value"),
    (0.02, "value", "within ±2% of the published value"),
    (0.0025, "upper_bound", "at most the published value + 0.25%"),
    (0.05, "lower_bound", "at least the published value \u2212 5%"),
    (0.123456, "range", "inside the published range, widened by ±12.3%"),
    (0.0, "upper_bound", "at most the published value"),
])
def test_the_rule_prints_its_tolerance_to_three_digits(tolerance, kind, words):
    check = Check("case", "latency_ms", 1.0, 1.0, tolerance, kind, published_high=2.0 if kind == "range" else None)
    assert rule_text(check) == words

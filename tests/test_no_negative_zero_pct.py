"""A signed percentage that rounds to zero prints ``0.0%``, never ``-0.0%`` (REVIEW45 #6: ``storplan validate``, the
Validation tab and the report printed ``-0.0%`` for the vSAN space-savings case and ``+0.0%`` beside it)."""

from __future__ import annotations

import dataclasses

import pytest

from models.formatting import fmt_signed_pct
from models.present.comparison import _pct_change
from models.present.validation import error_text


@pytest.mark.parametrize("percent, decimals, text", [
    (-0.0004, 1, "0.0%"), (0.0, 1, "0.0%"), (0.04, 1, "0.0%"), (-0.05001, 1, "-0.1%"), (16.66, 1, "+16.7%"),
    (-10.44, 1, "-10.4%"), (-0.4, 0, "0%"), (12.6, 0, "+13%"),
])
def test_signed_pct(percent, decimals, text):
    assert fmt_signed_pct(percent, decimals) == text


def test_validation_error_of_a_tiny_negative_is_zero():
    from models.validation import run_validation

    checks = [c for o in run_validation(sections=("capacity",)) for c in o.checks
              if c.kind not in ("range", "expect") and c.error is not None]
    tiny = [c for c in checks if -0.0005 < c.error < 0]
    assert tiny, "no check with a tiny negative error to judge"  # the premise: vsan-sql-space-savings
    for check in tiny:
        assert error_text(check) == "0.0%", (check.case_id, check.quantity, check.error)
    assert all("-0.0" not in error_text(c) and "+0.0%" != error_text(c) for c in checks)
    larger = dataclasses.replace(tiny[0], predicted=tiny[0].published * 0.75)  # the sign stays where it counts
    assert error_text(larger) == "-25.0%"


def test_comparison_change_never_negative_zero():
    assert _pct_change(100.0, 99.99) == " (0.0%)"
    assert _pct_change(100.0, 101.0) == " (+1.0%)"

"""The cost chart's amount axis: its origin reads "0" (it read "0k"), and an axis of a few hundred or of
half-thousands keeps its figures (it read "0k", "0k", "1k"; "2k" for 2,500) (REVIEW43-PDF #16)."""

from __future__ import annotations

import pytest

from app.report.costing import _axis_label


@pytest.mark.parametrize(("value", "label"), [
    (0.0, "0"), (250.0, "250"), (500.0, "500"), (1000.0, "1k"), (2500.0, "2.5k"), (100_000.0, "100k"),
    (600_000.0, "600k"), (1_000_000.0, "1M"), (2_500_000.0, "2.5M"), (20_000_000.0, "20M"),
])
def test_axis_amounts(value, label):
    assert _axis_label(value) == label


def test_every_label_of_a_small_axis_differs():
    labels = [_axis_label(v) for v in range(0, 1250, 250)]
    assert len(set(labels)) == len(labels)

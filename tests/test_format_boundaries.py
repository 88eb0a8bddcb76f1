"""A value just under a unit or precision boundary that rounds up to it is shown in the next unit: 999,960 IOPS is
``1.00M`` (the vSAN report read "host failure 1000K IOPS"), 1,023.999 GiB is ``1.00 TiB``, 99.96 ms is ``100 ms``."""

from __future__ import annotations

import pytest

from models.formatting import fmt_mbps, fmt_ms, fmt_pct
from models.units import CapacityUnit, format_capacity, format_iops

GIB, TIB = 2**30, 2**40


@pytest.mark.parametrize(("iops", "text"), [
    (999.4, "999"), (999.5, "1.0K"), (999.6, "1.0K"), (1000, "1.0K"),
    (9_949, "9.9K"), (9_950, "9.9K"), (9_960, "10K"), (10_000, "10K"),   # 9.950 is 9.9499.. in binary
    (999_499, "999K"), (999_500, "1.00M"), (999_960, "1.00M"), (999_999.9, "1.00M"), (1_000_000, "1.00M"),
    (1_234_567, "1.23M"), (0, "0"),
])
def test_iops_boundaries(iops, text):
    assert format_iops(iops) == text


def test_no_iops_text_reads_a_thousand_of_a_unit():
    """Independently of the table above: over a fine sweep across every boundary, the number before the unit is
    always below 1000 in K (never "1000K") and below 10 in the one-decimal K form (never "10.0K")."""
    for base in (1e3, 1e4, 1e6):
        for step in range(-2000, 2000):
            text = format_iops(base + step * base * 1e-6)
            if text.endswith("K"):
                amount = float(text[:-1])
                assert amount < 1000, text
                assert "." not in text or amount < 10, text
            elif not text.endswith("M"):
                assert float(text) < 1000, text


@pytest.mark.parametrize(("size", "unit", "text"), [
    (TIB - 1, CapacityUnit.TIB, "1.00 TiB"),                    # 1,024.00 GiB before
    (1023.994 * GIB, CapacityUnit.TIB, "1,023.99 GiB"),
    (1023.996 * GIB, CapacityUnit.TIB, "1.00 TiB"),
    (999.996e9, CapacityUnit.TB, "1.00 TB"),                    # 1,000.00 GB before
    (999.994e9, CapacityUnit.TB, "999.99 GB"),
    (-(TIB - 1), CapacityUnit.TIB, "-1.00 TiB"),
])
def test_capacity_small_to_large_boundary(size, unit, text):
    assert format_capacity(size, unit) == text


@pytest.mark.parametrize(("fmt", "value", "text"), [
    (fmt_ms, 9.994, "9.99 ms"), (fmt_ms, 9.996, "10.0 ms"), (fmt_ms, 99.94, "99.9 ms"), (fmt_ms, 99.96, "100 ms"),
    (fmt_mbps, 99.94, "99.9 MB/s"), (fmt_mbps, 99.96, "100 MB/s"),
    (fmt_pct, 9.94, "9.9%"), (fmt_pct, 9.96, "10%"), (fmt_pct, -9.96, "\u221210%"),
])
def test_precision_boundaries(fmt, value, text):
    assert fmt(value) == text

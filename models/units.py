"""Capacity and rate units.

Decimal units (TB = 10^12 bytes, GB = 10^9) are what vendors market; binary units (TiB = 2^40, GiB = 2^30) are
what ONTAP and most tools report. They are never mixed silently: every capacity inside StorPlan is an integer or
float number of bytes (``*_bytes``) and is converted only for display, in the unit the user chose.
"""

from __future__ import annotations

import math
from enum import StrEnum

KB = 10**3
MB = 10**6
GB = 10**9
TB = 10**12
KIB = 2**10
MIB = 2**20
GIB = 2**30
TIB = 2**40


class CapacityUnit(StrEnum):
    """How capacities are shown: decimal (TB, GB) or binary (TiB, GiB)."""

    TB = "TB"
    TIB = "TiB"

    @property
    def large_bytes(self) -> int:
        """Bytes in the large unit (TB or TiB)."""
        return TB if self is CapacityUnit.TB else TIB

    @property
    def small(self) -> tuple[str, int]:
        """The small unit's label and size in bytes (GB or GiB)."""
        return ("GB", GB) if self is CapacityUnit.TB else ("GiB", GIB)


def format_capacity(capacity_bytes: float, unit: CapacityUnit | str = CapacityUnit.TIB, digits: int = 2,
                    fixed: bool = False) -> str:
    """Format a byte count for display, e.g. ``25.47 TiB`` or ``744.96 GiB``.

    Args:
        capacity_bytes: a finite number of bytes (negative values keep their sign).
        unit: ``CapacityUnit.TB`` (decimal) or ``CapacityUnit.TIB`` (binary), or their string values.
        digits: digits after the decimal point.
        fixed: always the large unit (TB or TiB), with :func:`capacity_decimals` decimals (``0.91 TiB``,
            ``0.0098 TiB``): for the figures of one table or one sentence, read side by side in one unit.

    Values under one large unit are shown in the small unit (GB or GiB) unless ``fixed``. A non-finite value, which
    the engines never produce, is shown as ``n/a`` rather than ``nan``.
    """
    # a member or its string value (a str enum hashes and compares as its value)
    parts = _DISPLAY.get(unit) if isinstance(unit, str) else None
    if parts is None:
        parts = _DISPLAY[CapacityUnit(unit)]  # raises ValueError naming the unknown unit
    if not math.isfinite(capacity_bytes):
        return "n/a"
    large, large_label, size, label = parts
    if fixed:
        amount = capacity_bytes / large
        return f"{amount:,.{capacity_decimals(amount, digits)}f} {large_label}"
    if reaches(capacity_bytes / size, large / size, digits):  # 1,023.999 GiB rounds to 1,024.00: 1.00 TiB
        return f"{capacity_bytes / large:,.{digits}f} {large_label}"
    return f"{capacity_bytes / size:,.{digits}f} {label}"


def capacity_decimals(amount: float, digits: int = 2) -> int:
    """Decimals to show ``amount`` (in TB or TiB) with: ``digits``, or more for a small non-zero amount so that it
    keeps two significant digits (0.91 -> 2, 0.054 -> 3, 0.00098 -> 5): a non-zero capacity never reads ``0.00``.
    Zero and non-finite amounts get ``digits``."""
    if amount == 0 or not math.isfinite(amount):
        return digits
    return max(digits, 1 - math.floor(math.log10(abs(amount))))


_DISPLAY: dict[str, tuple[int, str, int, str]] = {
    unit: (unit.large_bytes, unit.value, unit.small[1], unit.small[0]) for unit in CapacityUnit}
"""Unit -> (large unit bytes, its label, small unit bytes, its label), looked up once per formatted number."""


def to_unit(capacity_bytes: float, unit: CapacityUnit | str) -> float:
    """Bytes expressed in TB or TiB (the large unit of ``unit``)."""
    return capacity_bytes / CapacityUnit(unit).large_bytes


def reaches(value: float, threshold: float, decimals: int) -> bool:
    """True when ``value`` is at least ``threshold`` once printed with ``decimals`` decimals (in magnitude): a
    formatter picks its unit or its precision by this, so a value just under a boundary that rounds up to it is
    shown in the next unit (999,960 IOPS is ``1.00M``, not ``1000K``; 1,023.999 GiB is ``1.00 TiB``)."""
    return abs(value) >= threshold or abs(round(value, decimals)) >= threshold


def format_iops(iops: float) -> str:
    """IOPS for display: ``350K``, ``2.2M``, ``850``; below 10 a rate that is not whole to two significant digits
    (``0.42``, ``1.3``: a measured trickle never reads as ``0``); ``saturated`` for a non-finite value. A value that
    rounds up to the next unit's boundary is shown in that unit (999,960 is ``1.00M``, 999.6 is ``1.0K``)."""
    if not math.isfinite(iops):
        return "saturated"
    if reaches(iops / 1e3, 1000, 0):
        return f"{iops / 1e6:,.2f}M"
    if reaches(iops / 1e3, 10, 1):
        return f"{iops / 1e3:.0f}K"
    if reaches(iops, 1000, 0):
        return f"{iops / 1e3:.1f}K"
    if 0 < abs(iops) < 9.95 and round(iops, 2) != round(iops):  # a small measured rate: 0.42, 1.3, never "0"
        return f"{iops:.2g}"
    return f"{iops:.0f}"


GROWTH_RULE = "(1 + g)^(months / 12)"
"""How a yearly growth g (a percentage per year) is applied over a number of months, in words a customer reads: the
effective annual rate, so that "30% per year" is 1.30x after 12 months and 1.30^2 = 1.69x after 24, with the months in
between on the same curve (1.30^(6/12) = 1.140x after 6). One rule for every growth StorPlan applies (the data sets'
capacity runway, the IOPS targets' runway, the DR copies, the sizer's grown targets, the cost of capacity that
grows)."""


def growth_factor(growth_pct_per_year: float, months: float) -> float:
    """The factor a quantity growing at ``growth_pct_per_year`` has grown by after ``months``: (1 + g)^(months / 12)
    (:data:`GROWTH_RULE`; 1.0 at 0 months or 0% growth).

    Args:
        growth_pct_per_year: the yearly growth, % (30.0 for 30% a year); > -100.
        months: months elapsed (fractional allowed), >= 0.

    Raises:
        ValueError: ``growth_pct_per_year`` <= -100 (a negative base has no real fractional power).
    """
    if growth_pct_per_year <= -100.0:
        raise ValueError(f"growth of {growth_pct_per_year:g}% per year: must be above -100%")
    return float((1.0 + growth_pct_per_year / 100.0) ** (months / 12.0))


def monthly_growth_log(growth_pct_per_year: float) -> float:
    """ln of one month's growth factor at ``growth_pct_per_year`` (:func:`growth_factor` of one month is
    exp of it): ln(1 + g) / 12, for solving "the month a growing quantity reaches a limit" in closed form.

    Raises:
        ValueError: ``growth_pct_per_year`` <= -100.
    """
    if growth_pct_per_year <= -100.0:
        raise ValueError(f"growth of {growth_pct_per_year:g}% per year: must be above -100%")
    return math.log1p(growth_pct_per_year / 100.0) / 12.0

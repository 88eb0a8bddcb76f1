"""Headroom as every view prints it: the PDF's Recommendation and Performance requirement, the sizer dialog's
table and tooltips, the Performance tab's workload table and ``storplan size``.

Headroom is (saturation IOPS − target) / target, in percent of the target. Up to :data:`MULTIPLE_FROM_PCT` it
reads as a percentage (``245%``); above it, a percentage of five or six digits (``26,567%``) is hard to read, so
it reads as the same quantity in multiples of the target: 26,567% of the target is 265.67 times the target,
``266x the target``. Beyond 1,000 times the target (a measured trickle against a whole array) it reads
``over 1,000x the target``. The definition does not change, only its unit.
"""

from __future__ import annotations

from collections.abc import Iterable

from models.formatting import finite, fmt_pct

__all__ = ["MULTIPLE_CAP_PCT", "MULTIPLE_FROM_PCT", "MULTIPLE_NOTE", "any_multiple", "fmt_headroom"]

MULTIPLE_FROM_PCT = 1000.0
"""Headroom (percent) from which it reads as a multiple of the target (1,000% of the target = 10x the target)."""

MULTIPLE_CAP_PCT = 100_000.0
"""Headroom (percent) above which no multiple is printed: "over 1,000x the target". A measured trickle (0.4 IOPS of a
metadata-only volume) gives multiples of hundreds of thousands whose digits say nothing a customer can use."""

MULTIPLE_NOTE = "above 1,000% it reads as a multiple of the target (2,500% of the target = 25x the target)"
"""The words a table's note adds where a headroom may read as a multiple (the PDF's Recommendation)."""


def fmt_headroom(pct: float | None, none_text: str = "\u2014", signed: bool = False) -> str:
    """A headroom in percent of the target as text.

    Args:
        pct: (saturation − target) / target x 100, percent; None or not finite when there is no headroom
            figure (no target, saturated).
        none_text: the text for a missing figure.
        signed: a "+" before a positive headroom (the Performance requirement's column).

    Returns:
        ``245%``, ``7.5%``, ``−12%`` (true minus sign, as :func:`models.formatting.fmt_pct`) below
        :data:`MULTIPLE_FROM_PCT`; from it, the multiple of the target to whole units with digit groups:
        ``266x the target`` (26,567%), ``+1,000x the target`` (100,000%, signed); above
        :data:`MULTIPLE_CAP_PCT`, ``over 1,000x the target``.
    """
    if not finite(pct):
        return none_text
    if pct > MULTIPLE_CAP_PCT:
        return ("+" if signed else "") + "over 1,000x the target"
    if pct >= MULTIPLE_FROM_PCT:
        return ("+" if signed else "") + f"{pct / 100:,.0f}x the target"
    return fmt_pct(pct, none_text, signed=signed)


def any_multiple(pcts: Iterable[float | None]) -> bool:
    """True when :func:`fmt_headroom` prints one of ``pcts`` (percent; None for none) as a multiple of the target:
    the table shows it, so its note says how to read it (:data:`MULTIPLE_NOTE`)."""
    return any(finite(p) and p >= MULTIPLE_FROM_PCT for p in pcts)

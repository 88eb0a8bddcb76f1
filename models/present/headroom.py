"""Headroom as every view prints it: the PDF's Recommendation and Performance requirement, the sizer dialog's
table and tooltips, the Performance tab's workload table and ``storplan size``.

Headroom is (saturation IOPS − target) / target, in percent of the target. Up to :data:`MULTIPLE_FROM_PCT` it
reads as a percentage (``245%``); above it, a percentage of five or six digits (``26,567%``) is hard to read, so
it reads as the same quantity in multiples of the target: 26,567% of the target is 265.67 times the target,
``266x the target``, and, as "a headroom of 266x the target" could be read as saturation at 266 times the target, the
saturation's own multiple follows: ``266x the target (saturation 267x)`` (review 57 #16). Beyond 1,000 times the
target (a measured trickle against a whole array) it reads ``over 1,000x the target``. The definition does not
change, only its unit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from models.formatting import finite, fmt_pct

__all__ = ["MULTIPLE_CAP_PCT", "MULTIPLE_FROM_PCT", "MULTIPLE_NOTE", "any_multiple", "effective_cell",
           "effective_words", "fmt_headroom", "sizer_headroom_cell", "sizer_headroom_words"]

MULTIPLE_FROM_PCT = 1000.0
"""Headroom (percent) from which it reads as a multiple of the target (1,000% of the target = 10x the target)."""

MULTIPLE_CAP_PCT = 100_000.0
"""Headroom (percent) above which no multiple is printed: "over 1,000x the target". A measured trickle (0.4 IOPS of a
metadata-only volume) gives multiples of hundreds of thousands whose digits say nothing a customer can use."""

MULTIPLE_NOTE = ("above 1,000% a headroom reads as a multiple of the target: a headroom of 2,500% is 25x the "
                 "target, with saturation at 26x the target")
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
        :data:`MULTIPLE_FROM_PCT`; from it, the multiple of the target to whole units with digit groups and the
        saturation's multiple (one more): ``266x the target (saturation 267x)`` (26,567%), ``+1,000x the target
        (saturation 1,001x)`` (100,000%, signed); above :data:`MULTIPLE_CAP_PCT`, ``over 1,000x the target``.
    """
    if not finite(pct):
        return none_text
    if pct > MULTIPLE_CAP_PCT:
        return ("+" if signed else "") + "over 1,000x the target"
    if pct >= MULTIPLE_FROM_PCT:
        return ("+" if signed else "") + f"{pct / 100:,.0f}x the target (saturation {pct / 100 + 1:,.0f}x)"
    return fmt_pct(pct, none_text, signed=signed)


def any_multiple(pcts: Iterable[float | None]) -> bool:
    """True when :func:`fmt_headroom` prints one of ``pcts`` (percent; None for none) as a multiple of the target:
    the table shows it, so its note says how to read it (:data:`MULTIPLE_NOTE`)."""
    return any(finite(p) and p >= MULTIPLE_FROM_PCT for p in pcts)


def sizer_headroom_words(pct: float | None, takeover_pct: float | None = None, state: str = "takeover") -> str:
    """A sizer candidate's headroom with its basis, as ``storplan size`` prints it: ``headroom 118% over the grown
    targets``, and where the SLO in takeover is required, the margin in that state too: ``headroom 118% over the
    grown targets, 9.2% in takeover`` (the grown targets below the takeover state's saturation: the margin the
    requirement leaves; ``state``: that state in the platform's words, "failover", "controller failover"). "" without
    a headroom figure."""
    if not finite(pct):
        return ""
    text = f"headroom {fmt_headroom(pct)} over the grown targets"
    return text + (f", {fmt_headroom(takeover_pct)} in {state or 'takeover'}" if finite(takeover_pct) else "")


def sizer_headroom_cell(pct: float | None, takeover_pct: float | None = None, none_text: str = "\u2014",
                        state: str = "takeover") -> str:
    """The same in a table cell whose header names the basis (the grown targets): ``118%``, ``118% (takeover
    9.2%)``, ``266x the target (saturation 267x; takeover 9.2%)``."""
    if not finite(pct):
        return none_text
    main = fmt_headroom(pct)
    if not finite(takeover_pct):
        return main
    other = f"{state or 'takeover'} {fmt_headroom(takeover_pct)}"
    # a multiple already ends in its saturation's parenthesis: the state joins it, not a second one after it
    return f"{main[:-1]}; {other})" if main.endswith(")") else f"{main} ({other})"


def effective_words(effective_bytes: float, usable_bytes: float, capacity: Callable[[float], str]) -> str:
    """A candidate's capacity as the effective need is stated: its effective capacity with the data reduction that
    gives it from its usable capacity, ``1,718.64 TiB (954.80 TiB usable x 1.80:1)``; the usable alone when no
    reduction applies (``954.80 TiB (= usable)``). ``capacity``: bytes -> text in the view's unit."""
    if not (finite(usable_bytes) and usable_bytes > 0 and finite(effective_bytes)):
        return f"{capacity(usable_bytes)} usable"
    ratio = effective_bytes / usable_bytes
    if abs(ratio - 1.0) < 0.005:
        return f"{capacity(effective_bytes)} (= usable)"
    return f"{capacity(effective_bytes)} ({capacity(usable_bytes)} usable x {ratio:.2f}:1)"


def effective_cell(effective_bytes: float, usable_bytes: float, capacity: Callable[[float], str]) -> str:
    """:func:`effective_words` for a narrow table cell whose tooltip has the rest: ``1,718.64 (1.80:1)``, ``28.29
    (= usable)``."""
    if not (finite(usable_bytes) and usable_bytes > 0 and finite(effective_bytes)):
        return capacity(usable_bytes)
    ratio = effective_bytes / usable_bytes
    return f"{capacity(effective_bytes)} ({'= usable' if abs(ratio - 1.0) < 0.005 else f'{ratio:.2f}:1'})"

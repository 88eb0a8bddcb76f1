"""What a reader sees of the "Protection and DR" section: one table row per replication relationship and the
sentences under it, laid out alike by the PDF report, the workbook and the screen (``models.replication`` computes
the figures)."""

from __future__ import annotations

import math
from typing import Any

from models.formatting import fmt_capacity
from models.replication import Protection
from models.replication.figures import ReplicationFigures
from models.units import CapacityUnit

INTRO = ("Each replication relationship: how much changes per day, how long the largest scheduled transfer takes on "
         "the bandwidth available to replication, the recovery point achieved against the one required, the "
         "bandwidth that meets it, the first full (baseline) transfer, and the copies' capacity on the destination "
         "with its runway. During a transfer the source's reads and the destination's writes are solved as "
         "workloads of their own beside each system's workloads.")
"""The section's opening paragraph."""

TABLE_HEADER = ["Relationship", "Kind", "Change per day", "Largest transfer", "Transfer time", "RPO achieved",
                "RPO required", "Bandwidth available", "Bandwidth for the RPO", "Baseline", "Destination needs",
                "Destination free", "Runway"]
"""The PDF table's columns."""

def fits_words(horizon_months: float) -> str:
    """The header of the destination's "fits" column: the copies fit now and, grown at their workloads' growth,
    still at the horizon (the rule of the capacity table's DR copy row and of the verdict, ``models.verdict.
    protection_misses``), ``Fits over the 36-month horizon``; ``Fits today`` without a horizon."""
    return f"Fits over the {horizon_months:,.0f}-month horizon" if horizon_months > 0 else "Fits today"


def fits_over(f: ReplicationFigures, horizon_months: float) -> bool | None:
    """Whether ``f``'s copies fit on its destination now and, grown, at ``horizon_months`` (the runway beyond it;
    0: now); None when the destination's free capacity is unknown. The verdict misses the DR copy's capacity
    exactly when this is False."""
    if f.destination_fits is None:
        return None
    return f.destination_fits and (horizon_months <= 0 or f.runway_months is None
                                   or f.runway_months > horizon_months)


def sheet_header(unit: CapacityUnit | str = CapacityUnit.TIB, horizon_months: float = 0.0) -> list[str]:
    """The workbook sheet's columns, the capacities in ``unit`` (the project's: TB, 10^12 bytes, or TiB, 2^40
    bytes), named in each capacity column's header as the other sheets do (``Change per day (TB)``); link rates in
    Mbit/s.

    Raises:
        ValueError: ``unit`` is not a capacity unit.
    """
    u = CapacityUnit(unit).value
    return ["Relationship", "Kind", "Source", "Destination", f"Change per day ({u})", f"Sent per day ({u})",
            "Schedule (min)", f"Largest transfer ({u})", "Transfer time (min)", "RPO achieved (min)",
            "RPO required (min)", "RPO met", "Bandwidth available (Mbit/s)", "Transfer rate (Mbit/s)",
            "Bounded by the round trip", "Bandwidth for the RPO (Mbit/s)",
            f"Baseline ({u})", "Baseline time (hours)", f"Destination needs ({u})", f"Destination free ({u})",
            fits_words(horizon_months), "Runway (months)", "Write latency added (ms)", "Verdict"]


SHEET_HEADER = sheet_header(CapacityUnit.TIB)
"""The workbook sheet's columns in a TiB project (the default unit): :func:`sheet_header`."""


def _cap(value: float | None, unit: CapacityUnit | str) -> str:
    """A capacity in the chosen large unit (TB or TiB) throughout the table and each sentence: a day's change, a
    transfer and the destination's capacity read side by side."""
    return fmt_capacity(value, unit, fixed=True)


def _duration(seconds: float) -> str:
    """``45 s``, ``3.1 min``, ``17.8 h``, ``2.5 days``."""
    if not math.isfinite(seconds):
        return "never"
    if seconds < 90:
        return f"{seconds:,.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:,.1f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds / 86_400:,.1f} days"


def _mbit(value: float) -> str:
    return "none meets it" if not math.isfinite(value) else f"{value:,.0f} Mbit/s"


def needed_share_mbit_s(f: ReplicationFigures) -> float:
    """The bandwidth that meets the RPO on the basis of the bandwidth available to replication (the link's share),
    Mbit/s: ``bandwidth_needed_mbit_s`` is a link bandwidth at the share, so this is it x share (inf when no
    bandwidth meets it)."""
    return f.bandwidth_needed_mbit_s * f.share_pct / 100.0


def bandwidth_words(f: ReplicationFigures) -> str:
    """The bandwidth that meets the RPO beside the bandwidth available, both on one basis (what replication may
    use of the link): ``bandwidth for the RPO 52 Mbit/s of the 500 Mbit/s available to replication (50% of the
    1,000 Mbit/s link: a link of 105 Mbit/s meets it)``; without a share, of the link itself."""
    available = f.available_bytes_per_s * 8 / 1e6
    if not math.isfinite(f.bandwidth_needed_mbit_s):
        return f"bandwidth for the RPO: none meets it ({available:,.0f} Mbit/s available to replication)"
    need = needed_share_mbit_s(f)
    if f.share_pct >= 100 or f.link_mbit_s <= 0:
        return f"bandwidth for the RPO {need:,.0f} Mbit/s of the {available:,.0f} Mbit/s link"
    return (f"bandwidth for the RPO {need:,.0f} Mbit/s of the {available:,.0f} Mbit/s available to replication "
            f"({f.share_pct:g}% of the {f.link_mbit_s:,.0f} Mbit/s link: a link of {f.bandwidth_needed_mbit_s:,.0f} "
            "Mbit/s meets it)")


def table_rows(protection: Protection, unit: CapacityUnit | str) -> list[list[str]]:
    """The PDF / screen table: :data:`TABLE_HEADER` then one row of text per relationship; the bandwidth available
    and the bandwidth for the RPO both of what replication may use of the link (:func:`needed_share_mbit_s`)."""
    rows = [list(TABLE_HEADER)]
    for f in protection.relationships:
        sync = f.kind == "active-sync"
        rows.append([
            f.label, f.kind_label, _cap(f.change_bytes_per_day, unit),
            "continuous" if sync else _cap(f.transfer_bytes, unit),
            "continuous" if sync else _duration(f.transfer_seconds),
            "falls behind" if not math.isfinite(f.rpo_achieved_minutes) else f"{f.rpo_achieved_minutes:,.0f} min",
            f"{f.rpo_required_minutes:,.0f} min" if f.rpo_required_minutes else "none stated",
            _mbit(f.available_bytes_per_s * 8 / 1e6), _mbit(needed_share_mbit_s(f)),
            _duration(f.baseline_seconds), _cap(f.destination_needed_bytes, unit),
            _cap(f.destination_free_bytes, unit) if f.destination_free_bytes is not None else "unknown",
            runway_text(f),
        ])
    return rows


def runway_text(f: ReplicationFigures) -> str:
    """The destination's runway in words: "full now", "18 months", "over 20 years", "unknown"."""
    if f.destination_free_bytes is None:
        return "unknown"
    if f.runway_months is None:
        return "over 20 years"
    return "full now" if f.runway_months == 0 else f"{f.runway_months:,.0f} months"


def figures_line(f: ReplicationFigures, unit: CapacityUnit | str = CapacityUnit.TIB) -> str:
    """The relationship's figures in one sentence (capacities in ``unit``, the project's, as the table above it;
    link rates in Mbit/s): largest transfer and its time, the rate transfers run at, the bandwidth for the RPO,
    the baseline and its time, the destination's need, free capacity and runway."""
    parts = []
    if f.kind != "active-sync":
        rate = f.transfer_bytes_per_s * 8 / 1e6
        bound = " (bounded by the round trip)" if f.window_limited else ""
        parts.append(f"largest transfer {_cap(f.transfer_bytes, unit)} in {_duration(f.transfer_seconds)} at "
                     f"{rate:,.0f} Mbit/s{bound}")
    parts.append(bandwidth_words(f))
    parts.append(f"baseline {_cap(f.baseline_bytes, unit)} in {_duration(f.baseline_seconds)}")
    free = (f" of {_cap(f.destination_free_bytes, unit)} free" if f.destination_free_bytes is not None
            else "")
    parts.append(f"destination needs {_cap(f.destination_needed_bytes, unit)}{free}, runway {runway_text(f)}")
    return f"{f.label}: " + "; ".join(parts) + "."


def lines(protection: Protection, unit: CapacityUnit | str = CapacityUnit.TIB) -> list[str]:
    """The sentences under the table: each relationship's verdict, the transfer windows' load on both ends, and
    the assumptions (default change rates first), each once; capacities in ``unit`` (the project's, as the
    table)."""
    out: list[str] = []
    for f in protection.relationships:
        out.append(f"{f.label}: {f.text}")
        out.append(figures_line(f, unit))
        for c in f.workloads:
            out.append(f"{f.label}, {c.name}: {_cap(c.bytes_per_day, unit)} changed a day ({c.basis}), "
                       f"{_cap(c.sent_bytes_per_day, unit)} sent after {c.reduction:g}:1 data reduction.")
        if f.kind == "active-sync":
            out.append(f"{f.label}: each write waits for the {f.write_latency_added_ms:g} ms round trip to the "
                       "partner site.")
        out += [f"{f.label}: {e.text}" for e in protection.loads if e.replication_id == f.replication_id]
    seen: set[str] = set()
    for f in protection.relationships:
        for note in f.notes:
            if note not in seen and "change per day is a default" not in note:
                seen.add(note)
                out.append(note)
    return out


def sheet_rows(protection: Protection | None, unit: CapacityUnit | str = CapacityUnit.TIB,
               horizon_months: float = 0.0) -> list[list[Any]]:
    """The workbook's "Protection and DR" sheet: :func:`sheet_header` then one row of numbers per relationship
    (an RPO or bandwidth that cannot be met is an empty cell, its verdict says why); capacities in ``unit`` (the
    project's, TB or TiB, as the headers name it; the cell keeps the full value); the bandwidths available and
    for the RPO both of what replication may use of the link, as the table; whether the copies fit is said over
    ``horizon_months`` (the project's horizon: :func:`fits_over`, as the PDF's capacity table and the verdict).

    Raises:
        ValueError: ``unit`` is not a capacity unit.
    """
    size = float(CapacityUnit(unit).large_bytes)
    rows: list[list[Any]] = [sheet_header(unit, horizon_months)]
    if protection is None:
        return rows

    def finite(value: float | None, scale: float = 1.0) -> float | None:
        return value / scale if value is not None and math.isfinite(value) else None

    for f in protection.relationships:
        rows.append([
            f.label, f.kind_label, f.source_name, f.target_name, f.change_bytes_per_day / size,
            f.sent_bytes_per_day / size,
            f.interval_minutes or None, f.transfer_bytes / size, f.transfer_seconds / 60,
            finite(f.rpo_achieved_minutes), f.rpo_required_minutes or None, f.rpo_met,
            f.available_bytes_per_s * 8 / 1e6, f.transfer_bytes_per_s * 8 / 1e6, f.window_limited,
            finite(needed_share_mbit_s(f)), f.baseline_bytes / size,
            f.baseline_seconds / 3600, f.destination_needed_bytes / size, finite(f.destination_free_bytes, size),
            fits_over(f, horizon_months), f.runway_months, f.write_latency_added_ms, f.text,
        ])
    return rows


__all__ = ["INTRO", "SHEET_HEADER", "TABLE_HEADER", "bandwidth_words", "figures_line", "fits_over", "fits_words",
           "lines", "needed_share_mbit_s", "runway_text", "sheet_header", "sheet_rows", "table_rows"]

"""Display formatting shared by every view of the results: the CLI, the GUI and the PDF report.

Each function turns one engine number into text; none computes anything else. ``None`` and non-finite values
become words ("saturated", "not met", "n/a"): StorPlan never prints ``nan`` or ``inf``. Capacities and IOPS go
through :func:`models.units.format_capacity` and :func:`models.units.format_iops`, so a number shows the same
text everywhere (``storplan evaluate``, the status bar, the report).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING, TypeGuard

from models.units import CapacityUnit, format_capacity, format_iops, reaches

if TYPE_CHECKING:
    from collections.abc import Sequence

    from models.performance.results import WorkloadPerformance

SATURATED = "saturated"
NOT_MET = "not met"
NOT_AVAILABLE = "n/a"

__all__ = [
    "CAP_NOTE",
    "derived_bound_words",
    "NOT_AVAILABLE",
    "NOT_MET",
    "SATURATED",
    "finite",
    "fmt_capacity",
    "fmt_capacity_delta",
    "fmt_iops",
    "fmt_latency_tails",
    "station_words",
    "fmt_max_iops_at_slo",
    "fmt_mbps",
    "fmt_months",
    "fmt_ms",
    "fmt_number",
    "fmt_pct",
    "fmt_ratio",
    "fmt_utilization",
    "format_capacity",
    "format_iops",
]


def finite(value: object) -> TypeGuard[float]:
    """True for a real, finite number (bools are not numbers here)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def fmt_capacity(value: float | None, unit: CapacityUnit | str = CapacityUnit.TIB, fixed: bool = False) -> str:
    """A byte count as ``25.47 TiB`` (via :func:`format_capacity`); ``n/a`` when missing. ``fixed``: always TB or
    TiB (``0.91 TiB``, never ``931.32 GiB``), as every capacity table and the summary's capacity sentence show."""
    return format_capacity(value, unit, fixed=fixed) if finite(value) else NOT_AVAILABLE


def fmt_capacity_delta(value: float | None, unit: CapacityUnit | str = CapacityUnit.TIB, fixed: bool = False) -> str:
    """A signed capacity change, bytes in: ``+1.20 TiB``, ``−3.40 TiB`` (true minus sign), ``0`` for no change;
    ``n/a`` when missing. ``fixed`` as for :func:`fmt_capacity`."""
    if not finite(value):
        return NOT_AVAILABLE
    if value == 0:
        return "0"
    return ("+" if value > 0 else "\u2212") + format_capacity(abs(value), unit, fixed=fixed)


def fmt_iops(value: float | None, none_text: str = SATURATED) -> str:
    """IOPS as ``350K`` (via :func:`format_iops`); ``none_text`` (default ``saturated``) when missing."""
    return format_iops(value) if finite(value) else none_text


def fmt_max_iops_at_slo(value: float | None) -> str:
    """The max IOPS under the SLO: ``412K IOPS``, or ``not met`` when even light load misses the SLO."""
    return f"{format_iops(value)} IOPS" if finite(value) and value > 0 else NOT_MET


def fmt_months(months: float | None, horizon_months: float = 0.0) -> str:
    """Months until full as every view words it: ``36 months``, ``4.5 months`` under ten, ``full now`` at zero or
    less, ``no growth`` when there is no projection (None: no growth planned, see
    ``models.capacity.efficiency``); never capped, so the screen, the report and the verdicts read alike. Within a
    month of a planning horizon (``horizon_months`` > 0) one decimal too (``35.6 months`` against a 36-month
    horizon), so the rounding never hides on which side of the horizon the system fills."""
    if not finite(months):
        return "no growth"
    if months <= 0:
        return "full now"
    near = horizon_months > 0 and abs(months - horizon_months) < 1
    return f"{months:.1f} months" if months < 10 or near else f"{months:,.0f} months"


def fmt_ms(value: float | None, none_text: str = SATURATED) -> str:
    """A latency: ``0.62 ms``, ``14.3 ms``, ``250 ms``; ``none_text`` (default ``saturated``) when missing."""
    if not finite(value):
        return none_text
    if reaches(value, 100, 1):  # 99.96 ms reads 100 ms, not 100.0 ms
        return f"{value:,.0f} ms"
    if reaches(value, 10, 2):
        return f"{value:.1f} ms"
    return f"{value:.2f} ms"


def fmt_latency_tails(mean_ms: float | None, p95_ms: float | None, p99_ms: float | None) -> str:
    """The latency at a load as mean, p95 and p99: ``0.62 ms mean; p95 0.91 ms, p99 1.20 ms``; when none of the
    three exists (the load saturates) one phrase, ``saturated (mean, p95 and p99)``, not the word three times."""
    if not any(finite(v) for v in (mean_ms, p95_ms, p99_ms)):
        return f"{SATURATED} (mean, p95 and p99)"
    return f"{fmt_ms(mean_ms)} mean; p95 {fmt_ms(p95_ms)}, p99 {fmt_ms(p99_ms)}"


def fmt_mbps(value: float | None) -> str:
    """A throughput in MB/s (10^6 bytes/s)."""
    if not finite(value):
        return NOT_AVAILABLE
    return f"{value:,.0f} MB/s" if reaches(value, 100, 1) else f"{value:.1f} MB/s"


def fmt_pct(value: float | None, none_text: str = NOT_AVAILABLE, signed: bool = False) -> str:
    """A percentage (already in percent): ``42%``, ``7.5%``, ``−3.0%`` (true minus sign)."""
    if not finite(value):
        return none_text
    text = f"{abs(value):.0f}%" if reaches(value, 10, 1) else f"{abs(value):.1f}%"
    if value < 0:
        return "\u2212" + text
    return ("+" if signed and value > 0 else "") + text


def fmt_signed_pct(percent: float, decimals: int = 1) -> str:
    """A signed change or error already in percent, as the validation tables print it: ``+16.7%``, ``-10.4%``;
    ``0.0%`` (no sign) when it rounds to zero at ``decimals`` places, never ``-0.0%`` or ``+0.0%``."""
    text = f"{percent:+.{decimals}f}%"
    return text[1:] if float(text[:-1]) == 0 else text


def fmt_utilization(value: float | None) -> str:
    """A utilisation in [0, 1] as a percentage: ``87%``."""
    return fmt_pct(value * 100 if finite(value) else None)


def fmt_ratio(value: float | None) -> str:
    """A ratio as ``1.60:1``."""
    return f"{value:.2f}:1" if finite(value) else NOT_AVAILABLE


def fmt_number(value: float | None) -> str:
    """A plain quantity (validation table): thousands separators when large, 4 significant digits otherwise."""
    if not finite(value):
        return NOT_AVAILABLE
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


@lru_cache(maxsize=1)
def _natural_chunk() -> re.Pattern[str]:
    """A number and its capacity unit, if any (compiled on first use: the desktop app sorts by it, no command
    does)."""
    return re.compile(r"(\d+(?:\.\d+)?)\s*(PB|TB|GB|MB|PiB|TiB|GiB|MiB)?")
_SIZE_FACTOR = {"PB": 1e15, "TB": 1e12, "GB": 1e9, "MB": 1e6,
                "PiB": 2.0**50, "TiB": 2.0**40, "GiB": 2.0**30, "MiB": 2.0**20}


def natural_key(text: str) -> tuple[tuple[int, float, str], ...]:
    """A sort key that orders ``text`` as a person reads it: numbers by value, not character by character
    ("1.5TB", "1.9TB", "3.8TB", "15.3TB"; "8Gb", "16Gb", "32Gb", "64Gb"), a capacity with its unit by bytes (so
    "960GB" comes before "1.5TB"), the rest case-insensitively. Never raises."""
    key: list[tuple[int, float, str]] = []
    position = 0
    for match in _natural_chunk().finditer(text):
        if match.start() > position:
            key.append((1, 0.0, text[position:match.start()].casefold()))
        value = float(match.group(1)) * _SIZE_FACTOR.get(match.group(2) or "", 1.0)
        key.append((0, value, (match.group(2) or "").casefold()))
        position = match.end()
    if position < len(text):
        key.append((1, 0.0, text[position:].casefold()))
    return tuple(key)


# a station as every output names it: here, below the replication model and the JSON shape, so that the transfer
# text, `evaluate --json` and the views say one name (r2 review #6); models.present.iops_bound re-exports it
CAP_NOTE = re.compile(r"^(?P<system>.+?): at most (?P<iops>[\d,]+) block operations per second, (?P<whose>.+)$")
"""The path's note of an IOPS cap: the system it caps, the cap in operations per second, whose bound it is."""


_SCALED_FROM = re.compile(r"the rate per core of (?P<vendor>\w+)'s published 'up to' figure of [\d,]+ IOPS for the "
                         r"(?P<system>.+?) over its \d+ cores")
"""A cap scaled from another platform's published figure by core counts (``models.performance.hardware_relation``'s
words for a record without a published figure of its own)."""


def derived_bound_words(whose: str) -> str:
    """``bound estimated from the AFF A90 HA pair's published figure (assumed core counts)`` when a cap's
    ``whose`` words (``models.performance.hardware_relation``) scale another platform's published figure by core
    counts (the cap is no published figure of this platform: review 57 #11), "" for a platform's own figure."""
    found = _SCALED_FROM.search(whose)
    if found is None:
        return ""
    system = found["system"]
    vendor = found["vendor"]
    system = system[len(vendor) + 1:] if system.startswith(f"{vendor} ") else system
    assumed = " (assumed core counts)" if "an assumed count" in whose else " (by core counts)"
    return f"bound estimated from the {system}'s published figure{assumed}"


def station_words(name: str, wp: WorkloadPerformance, notes: Sequence[str] | None = None) -> str:
    """A station of ``wp``'s path as every output names it (review 53b #16: "node 1 IOPS bound, bound at 1.60M IOPS
    per HA pair"): an IOPS bound station (role "iops_bound") is node k's share of a cap set for the whole HA pair
    when the path's cap note names an HA pair, and reads ``HA pair IOPS bound (node 1's share)``, built from the
    station's identity (role and node), never from its name (tests/test_station_ids.py: renaming every station
    changes no output). Other stations keep their names; the engine's own names (``--json``'s ``utilization``
    keys and ``bottleneck_station``) do not change. ``notes``: the path's notes when ``wp`` carries none (the
    replication window's figures at the targets: the notes of a workload on the same system)."""
    station = next((s for s in wp.stations if s.name == name), None)
    if station is None or station.ident.role != "iops_bound" or station.ident.node is None:
        return name
    caps = [m for m in (CAP_NOTE.match(note) for note in (wp.notes if notes is None else notes)) if m is not None]
    if caps and caps[-1]["system"].endswith("HA pair"):  # the cap is the pair's (as iops_bound_words says)
        return f"HA pair IOPS bound (node {station.ident.node}'s share)"
    return name

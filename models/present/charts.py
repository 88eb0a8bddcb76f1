"""Words the charts and the comparison show for cases a number cannot express: a workload without a target, a
target the design cannot carry, a latency objective far above every latency drawn; and the latency chart's
axis ranges: one place for the performance view, the comparison (and any other front end) to take them from.

Qt-free: the GUI lays out these strings and ranges, it does not derive them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.formatting import SATURATED, finite, fmt_iops, fmt_ms

if TYPE_CHECKING:
    from models.performance.results import WorkloadPerformance

NO_TARGET = "no target"
"""What a workload without a target shows where a target's figure would be (``evaluate --json``: null)."""


def target_saturates(workload: WorkloadPerformance) -> bool:
    """True when the workload's target is at or beyond its saturation IOPS (the design cannot carry it)."""
    return (workload.target_iops is not None and finite(workload.saturation_iops)
            and workload.target_iops >= workload.saturation_iops)


def latency_at_target_text(workload: WorkloadPerformance) -> str:
    """The latency at the target as a table cell: ``0.39 ms``; ``no target`` for a workload without one;
    ``saturated`` when the target is beyond saturation."""
    if workload.target_iops is None:
        return NO_TARGET
    return fmt_ms(workload.latency_at_target_ms, SATURATED)


def target_shortfall(workload: WorkloadPerformance) -> str | None:
    """The target's shortfall in words when it is at or beyond saturation, else None, e.g.
    ``The target of 700K IOPS is beyond saturation at 365K IOPS: 335K IOPS (48% of the target) short;
    utilisation is shown at saturation.``

    The shortfall is target - saturation, as a share of the target (the negative of ``headroom_pct``).
    """
    target, saturation = workload.target_iops, workload.saturation_iops
    if not target_saturates(workload) or target is None:
        return None
    short = target - saturation
    share = short / target * 100 if target > 0 else 0.0
    share_text = f"{share:.0f}%" if share >= 1 else f"{share:.1f}%"
    return (f"The target of {fmt_iops(target)} IOPS is beyond saturation at {fmt_iops(saturation)} IOPS: "
            f"{fmt_iops(short)} IOPS ({share_text} of the target) short; utilisation is shown at saturation.")


@dataclass(frozen=True)
class LatencyAxes:
    """Axis ranges of a latency-vs-IOPS chart (linear values, from 0).

    Attributes:
        iops_high: the IOPS axis's upper end.
        latency_high_ms: the latency axis's upper end.
        slo_off_chart_ms: the largest SLO left above the chart (it is far above every latency drawn, and showing
            it would flatten the knee), or None when every SLO line is on the chart.
        highest_latency_ms: the highest of the latencies that must be shown (peak, knee, SLO crossing,
            operating point), before the margin.
    """

    iops_high: float
    latency_high_ms: float
    slo_off_chart_ms: float | None = None
    highest_latency_ms: float = 0.0


KNEE_FACTOR = 2.0
"""The knee: where the latency reaches this multiple of its light-load value (an M/M/1 station at 50% busy)."""
SLO_ON_CHART_FACTOR = 5.0
"""An SLO up to this multiple of the highest latency that must be shown is drawn (with its line); above it the
chart keeps the curve readable and says that the SLO is off the chart."""
MARGIN = 1.12
"""Room above the highest point shown and right of the furthest IOPS."""


def knee_point(workload: WorkloadPerformance) -> tuple[float, float] | None:
    """The first curve point (closed ramp, then its open continuation) whose latency reaches ``KNEE_FACTOR``
    times the light-load latency: (IOPS, latency ms); None when the drawn curve never gets there."""
    points = [*workload.curve, *workload.open_curve]
    if not points:
        return None
    base = points[0].latency_ms
    for point in points:
        if point.latency_ms >= KNEE_FACTOR * base:
            return point.iops, point.latency_ms
    return None


def latency_axes(workloads: Iterable) -> LatencyAxes:
    """Axis ranges that show, for every workload, the SLO crossing (the max IOPS within the SLO), the knee, the
    ramp's peak (the end of the closed ramp: what a benchmark reports) and the operating point at the target,
    without stretching to the open model's asymptotic tail.

    The latency axis reaches ``MARGIN`` x the highest of those latencies and the SLO, unless the SLO is more
    than ``SLO_ON_CHART_FACTOR`` x above them: then the SLO is left off the chart (``slo_off_chart_ms``) so that
    the knee stays visible. The IOPS axis reaches saturation, the ramp's peak and the SLO crossing.

    Args:
        workloads: ``WorkloadPerformance`` records (one scenario's, or both sides' of a comparison).
    """
    workloads = list(workloads)
    iops_high = latency_high = 0.0
    slos: list[float] = []
    for w in workloads:
        must: list[tuple[float, float]] = []
        if w.curve:
            peak = max(w.curve, key=lambda p: p.latency_ms)
            must += [(w.curve[-1].iops, w.curve[-1].latency_ms), (peak.iops, peak.latency_ms)]
        knee = knee_point(w)
        if knee is not None:
            must.append(knee)
        crossing = w.max_iops_at_slo_point
        if crossing is not None:
            must.append(crossing)
        if w.target_iops is not None and finite(w.latency_at_target_ms):
            must.append((w.target_iops, w.latency_at_target_ms))
        for iops, latency in must:
            if finite(iops) and finite(latency):
                iops_high = max(iops_high, iops)
                latency_high = max(latency_high, latency)
        if finite(w.saturation_iops):
            iops_high = max(iops_high, w.saturation_iops)
        if finite(w.slo_ms) and w.slo_ms > 0:
            slos.append(w.slo_ms)
    shown = [slo for slo in slos if latency_high <= 0 or slo <= SLO_ON_CHART_FACTOR * latency_high]
    off = [slo for slo in slos if slo not in shown]
    top = max([latency_high, *shown], default=latency_high)
    return LatencyAxes(iops_high * 1.06 if iops_high > 0 else 1.0, top * MARGIN if top > 0 else 1.0,
                       max(off) if off else None, latency_high)


def slo_off_chart_text(axes: LatencyAxes, whose: str = "its") -> str:
    """The note for an SLO left above the chart, e.g. ``SLO 50.0 ms: far above this chart (its highest point
    1.37 ms)``; "" when every SLO is on the chart. The SLO is written as the legend and the figures table write it
    (``fmt_ms``). ``whose`` names what the highest point is of: the screen's short "its"; the report, with room,
    "the predicted latency's" (the mean curve's: a 99th-percentile line or the uncertainty band may rise through
    the chart's top)."""
    if axes.slo_off_chart_ms is None:
        return ""
    return (f"SLO {fmt_ms(axes.slo_off_chart_ms)}: far above this chart ({whose} highest point "
            f"{fmt_ms(axes.highest_latency_ms)})")


__all__ = ["NO_TARGET", "LatencyAxes", "knee_point", "latency_at_target_text", "latency_axes", "slo_off_chart_text",
           "target_saturates", "target_shortfall"]

"""Words the charts and the comparison show for cases a number cannot express: a workload without a target, a
target the design cannot carry, a latency objective far above every latency drawn; and the latency chart's
axis ranges: one place for the performance view, the comparison (and any other front end) to take them from.

Qt-free: the GUI lays out these strings and ranges, it does not derive them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.formatting import SATURATED, finite, fmt_iops, fmt_ms

if TYPE_CHECKING:
    from models.performance.results import CurvePoint, WorkloadPerformance

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


BAND_WORDS = "uncertainty (P10–P90)"
"""The latency chart legend's words for the shaded uncertainty band, on screen and in the report (``band_legend``
adds the range of max IOPS at the SLO where the band ends at the SLO)."""
BAND_NOT_MET = "none drawn: the pessimistic case misses the SLO"
"""A band legend's words where the pessimistic edge is above the SLO from the lightest load (no band is drawn)."""


@dataclass(frozen=True)
class BandOutline:
    """The P10-P90 uncertainty band of the mean latency as a latency chart draws it (screen and report alike).

    Attributes:
        iops: the band's IOPS, left to right.
        p10_ms: its lower (optimistic) edge at each IOPS.
        p90_ms: its upper (pessimistic) edge at each IOPS.
        end: how it ends: ``"slo"`` where its upper edge meets a mean SLO (interpolated there, at the SLO: the
            band's own max IOPS at the SLO, its P10), ``"not met"`` where that edge is above the SLO from the
            start (no band is drawn), ``"curve"`` where it runs as far as the drawn curve (or its figures stop),
            ``"saturated"`` (an SLO not on the mean) where its upper edge saturates before the curve ends: it
            rises through the top there, at the band's P10 saturation, and ends; ``""`` where the workload has no
            band figures.
    """

    iops: tuple[float, ...] = ()
    p10_ms: tuple[float, ...] = ()
    p90_ms: tuple[float, ...] = ()
    end: str = ""

    @property
    def drawn(self) -> bool:
        """True when there is a band to draw (two points or more, somewhere wider than a line)."""
        return len(self.iops) >= 2 and any(hi > lo for lo, hi in zip(self.p10_ms, self.p90_ms))


def mean_slo(workload: WorkloadPerformance) -> bool:
    """True when the workload's SLO is on its mean latency (the band's own statistic) and is a real figure."""
    return workload.slo_statistic != "p99" and finite(workload.slo_ms) and workload.slo_ms > 0


def band_outline(workload: WorkloadPerformance, points: Sequence[CurvePoint] | None = None, top_ms: float | None = None,
                 positive: bool = False) -> BandOutline:
    """The uncertainty band as drawn along the curve and its open continuation: a band around the curve, never a
    block over the chart (REVIEW54 #7: from where its pessimistic edge saturated it filled the chart to the top,
    read as "saturated here").

    On a mean SLO the band ends where its pessimistic (upper) edge reaches the SLO, at the SLO; an edge above the
    SLO from the start (P10 not met) leaves no band. On a p99 SLO or none (the band is of the mean) the upper edge
    is clipped at ``top_ms`` (default twice the highest drawn latency), and the band ends where that edge
    saturates (P90 None), rising to ``top_ms`` at the band's P10 saturation.

    Args:
        workload: a ``WorkloadPerformance``.
        points: the ``CurvePoint``s drawn (default: the ramp then the open model, at finite IOPS).
        top_ms: where the upper edge is clipped when the SLO is not on the mean.
        positive: stop at the first lower edge at or below 0 ms (a logarithmic latency axis).
    """
    if points is None:
        points = [p for p in (*workload.curve, *workload.open_curve) if finite(p.iops)]
    if not any(p.latency_band_p10_ms is not None for p in points):
        return BandOutline()
    on_mean = mean_slo(workload)
    if on_mean:
        top = workload.slo_ms
    elif top_ms is not None:
        top = top_ms
    else:
        top = 2.0 * max((p.latency_ms for p in points), default=0.0)
    xs: list[float] = []
    lo: list[float] = []
    hi: list[float] = []
    met_slo = False
    for p in points:
        p10, p90 = p.latency_band_p10_ms, p.latency_band_p90_ms
        if p10 is None or (positive and p10 <= 0):
            break
        if on_mean and (p90 is None or p90 > top):
            if xs and hi[-1] < top and p.iops > xs[-1]:  # the edge meets the SLO between two points: at the
                # band's P10 max IOPS at the SLO where it lies between them (the edge may saturate before the
                # next point: the A70's rises from 0.36 ms at 594K through the SLO at 609K to saturate at 611K),
                # else where the straight line between them does
                crossing = workload.max_iops_at_slo_band_p10
                if finite(crossing) and xs[-1] < crossing <= p.iops:
                    share = (crossing - xs[-1]) / (p.iops - xs[-1])
                elif p90 is not None:
                    share = (top - hi[-1]) / (p90 - hi[-1])
                else:
                    share = None
                if share is not None:
                    xs.append(xs[-1] + share * (p.iops - xs[-1]))
                    lo.append(min(lo[-1] + share * (p10 - lo[-1]), top))
                    hi.append(top)
            met_slo = True
            break  # (an edge saturated beyond the last point: the band ends there)
        if p90 is None:  # the pessimistic prediction saturates: the edge rises through the top at the band's
            # P10 saturation (where it lies between this point and the last) and the band ends, a wall not a block
            crossing = workload.saturation_iops_band_p10
            if xs and finite(crossing) and xs[-1] < crossing <= p.iops:
                share = (crossing - xs[-1]) / (p.iops - xs[-1])
                xs.append(crossing)
                lo.append(min(lo[-1] + share * (p10 - lo[-1]), top))
            else:
                xs.append(p.iops)
                lo.append(min(p10, top))
            hi.append(top)
            break
        xs.append(p.iops)
        lo.append(min(p10, top))
        hi.append(min(p90, top))
    if on_mean and (len(xs) < 2 or workload.max_iops_at_slo_band_p10 is None):
        end = "not met"
    elif on_mean and met_slo and xs[-1] < points[-1].iops * 0.995:
        end = "slo"
    elif not on_mean and xs and hi[-1] >= top and xs[-1] < points[-1].iops * 0.995:
        end = "saturated"
    else:
        end = "curve"
    if end == "not met":
        return BandOutline(end=end)
    return BandOutline(tuple(xs), tuple(lo), tuple(hi), end)


BAND_WORDS_SHORT = "SLO P10–P90"
"""The band's legend words on screen, where a laptop's legend has three short rows (the report, with room, and the
screen's results line say "IOPS at the SLO"): the range is of the max IOPS at the SLO, said so beside the legend's
"max IOPS @ SLO" marker, as the saturation line's label gives the saturation's own P10–P90 (review 57:
"uncertainty: 609K – 1.60M" beside "saturation 1.60M (P10–P90 611K–1.60M)" read as two answers to one question;
"Max IOPS @ SLO P10–P90: ..." took a fourth legend row at 1366 x 768)."""


def band_legend(label: str, workload: WorkloadPerformance, outline: BandOutline, short: bool = False) -> str:
    """A band's legend entry: ``label`` (:data:`BAND_WORDS`), with the range of max IOPS at the SLO where it ends
    at the SLO before the curve does ("uncertainty (P10–P90): 609K – 1.60M IOPS at the SLO": the band ends at the
    pessimistic 609K) and ": none drawn: ..." where its pessimistic edge misses the SLO from the start; ``short``
    (the screen's compact legend): the range without its unit, named ("SLO P10–P90: 609K–1.60M")."""
    if outline.end == "slo" and finite(workload.max_iops_at_slo_band_p10):
        low = fmt_iops(workload.max_iops_at_slo_band_p10)
        high = workload.max_iops_at_slo_band_p90
        if short:
            return f"{BAND_WORDS_SHORT}: {low}–{fmt_iops(high)}" if finite(high) else f"{BAND_WORDS_SHORT}: {low}+"
        return f"{label}: {low} – {fmt_iops(high)} IOPS at the SLO" if finite(high) else f"{label}: from {low} IOPS"
    if outline.end == "not met":
        return f"{label}: {BAND_NOT_MET}"
    return label


def band_caption(workload: WorkloadPerformance, outline: BandOutline) -> str:
    """The report caption's clause on the uncertainty band, of what is drawn: where the band ends and why, or
    that none is drawn; "" for a workload without band figures."""
    what = ("the uncertainty band of the prediction (P10–P90), not a percentile of individual I/O latencies")
    if outline.end == "not met":
        return (f"no uncertainty band (P10–P90 of the prediction) is drawn: its upper edge, the pessimistic "
                f"prediction, is above the {fmt_ms(workload.slo_ms)} SLO from the lightest load (P10 max IOPS at "
                "the SLO: not met)")
    if outline.end == "slo":
        return (f"the shaded area is {what}, drawn up to the SLO line: it ends where its upper edge, the "
                f"pessimistic prediction, meets the SLO, at the P10 max IOPS at the SLO "
                f"({fmt_iops(workload.max_iops_at_slo_band_p10)}), and does not mean the design is saturated "
                "there; the pessimistic prediction saturates at the P10 saturation given above")
    if not outline.drawn:
        return ""
    if mean_slo(workload):
        return (f"the shaded area is {what}: its upper edge is the pessimistic prediction, below the SLO as far "
                "as the band is drawn")
    if outline.end == "saturated":
        return (f"the shaded area is {what}, of the mean latency: its upper edge is the pessimistic prediction, "
                f"drawn up to where it saturates, at the P10 saturation "
                f"({fmt_iops(workload.saturation_iops_band_p10)}), where it rises through the chart's top and ends")
    return (f"the shaded area is {what}, of the mean latency: its upper edge is the pessimistic prediction, cut "
            "at the chart's top")


__all__ = ["BAND_NOT_MET", "BAND_WORDS", "NO_TARGET", "BandOutline", "LatencyAxes", "band_caption", "band_legend",
           "band_outline", "knee_point", "latency_at_target_text", "latency_axes", "mean_slo", "slo_off_chart_text",
           "target_saturates", "target_shortfall"]

"""How a performance figure was computed, in words: the formula, its inputs at the operating point, the profile's
provenance and the uncertainty band. The performance view shows it when a figure is clicked; the capacity view
does the same for waterfall steps (``models.present.waterfall``).

Every number here is read from the workload's result (``models.performance.WorkloadPerformance``), so the text
cannot disagree with the screen: a station's share of the load is its utilisation at the operating point
(U = X x D / (queues x servers), the utilisation law of Lazowska et al., *Quantitative System Performance*,
ch. 3), and saturation is the operating IOPS over the bottleneck's utilisation (X / U_b = queues x servers / D_b,
the asymptotic bound, ch. 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import NOT_MET, fmt_iops, fmt_ms
from models.present.headroom import MULTIPLE_FROM_PCT, fmt_headroom
from models.present.iops_bound import bottleneck_words, knee_words, station_words
from models.present.uncertainty import iops_band_text, workload_profile_text

if TYPE_CHECKING:
    from models.performance.results import StationLoad, WorkloadPerformance

FIGURES = ("Saturation", "Max IOPS @ SLO", "Latency @ target", "Bottleneck", "Headroom")
"""The summary columns that have an explanation."""


def _bottleneck(wp: WorkloadPerformance) -> StationLoad | None:
    """The bottleneck's StationLoad (None when not listed)."""
    return next((s for s in wp.stations if s.name == wp.bottleneck), None)


def _provenance(wp: WorkloadPerformance) -> list[str]:
    """The profile and band lines every explanation ends with: the profile's kind, where its parameters come
    from (``profile_basis``: the fit's source and points, the sibling and throughput ratio of a derived profile,
    or why it is assumed) and the band's basis."""
    lines = []
    if wp.profile:
        lines.append(f"Profile: {workload_profile_text(wp)}.")
    basis = wp.profile_basis
    if basis is not None:
        if basis.sibling and basis.ratio:
            lines.append(f"  CPU demands: {basis.sibling}'s fitted profile divided by the throughput ratio "
                         f"{basis.ratio:.3g}.")
        if basis.reason:
            lines.append(f"  Basis: {basis.reason}.")
    if wp.band_basis:
        lines.append(f"Uncertainty band (P10–P90 of the prediction, not I/O latency percentiles): "
                     f"{wp.band_basis}.")
    return lines


def explain_figure(wp: WorkloadPerformance, figure: str) -> list[str]:
    """Lines explaining one summary figure of a workload (``figure`` one of :data:`FIGURES`); [] for others."""
    op = wp.operating_iops
    b = _bottleneck(wp)
    if figure in ("Saturation", "Bottleneck"):
        lines = [f"Saturation = (queues × servers) / D of the bottleneck, the station with the highest "
                 f"utilisation: {bottleneck_words(wp) or 'none'}."]
        if b is not None and b.utilization > 0 and op > 0:
            lines.append(f"At the operating point {fmt_iops(op)} IOPS it is {b.utilization:.1%} busy, so "
                         f"saturation = {fmt_iops(op)} / {b.utilization:.3f} = {fmt_iops(op / b.utilization)} IOPS "
                         f"(reported {fmt_iops(wp.saturation_iops)}).")
        lines.append(f"Band: {iops_band_text(wp.saturation_iops_band_p10, wp.saturation_iops_band_p90)} IOPS.")
        return lines + _provenance(wp)
    if figure == "Max IOPS @ SLO":
        lines = [f"The highest IOPS whose storage latency stays within the {wp.slo_ms:g} ms SLO, read on the curve "
                 "(the closed ramp of outstanding I/Os, continued by the open model towards saturation).",
                 f"Here: {fmt_iops(wp.max_iops_at_slo, NOT_MET)} IOPS; band "
                 f"{iops_band_text(wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90, NOT_MET)} IOPS."]
        if wp.knee_note:
            lines.append(f"Curve shape: {knee_words(wp)}.")
        return lines + _provenance(wp)
    if figure == "Latency @ target":
        if wp.target_iops is None:
            return ["No target: the workload has no IOPS or MB/s target."]
        lines = [f"Storage latency at the target {fmt_iops(wp.target_iops)} IOPS = the sum of each station's "
                 "residence time, R = D (1 + U (v − 1)) / (1 − U) for a queue (Allen-Cunneen's G/G/c form, v = "
                 "(ca² + cs²) / 2), D for a delay.",
                 f"Here: {fmt_ms(wp.latency_at_target_ms)}; its largest parts:"]
        parts = sorted((s for s in wp.stations if s.residence_ms), key=lambda s: -(s.residence_ms or 0.0))[:5]
        lines += [f"  {s.name}: {fmt_ms(s.residence_ms)} "
                  + (f"at {s.utilization:.0%} utilisation" if s.utilization > 0 else "(a delay: no queue)")
                  for s in parts]
        return lines + _provenance(wp)
    if figure == "Headroom":
        if wp.headroom_pct is None or wp.target_iops is None:
            return ["No target: headroom needs one."]
        lines = [f"Headroom = (saturation − target) / target = ({fmt_iops(wp.saturation_iops)} − "
                 f"{fmt_iops(wp.target_iops)}) / {fmt_iops(wp.target_iops)} = {wp.headroom_pct:,.1f}%"
                 + (f", {fmt_headroom(wp.headroom_pct)}" if wp.headroom_pct >= MULTIPLE_FROM_PCT else "") + "."]
        if wp.short_of_concurrency:  # the table shows "—": the stated outstanding I/Os never offer the target
            lines.append(f"Shown as —: the workload's {wp.concurrency:,} outstanding I/Os reach only "
                         f"{fmt_iops(wp.peak_iops)} IOPS, below the target, so no margin holds at the stated "
                         "concurrency.")
        return lines
    return []


def explain_station(wp: WorkloadPerformance, station_name: str) -> list[str]:
    """Lines explaining one station's utilisation and residence time at the workload's operating point."""
    st = next((s for s in wp.stations if s.name == station_name), None)
    if st is None:
        return []
    op = wp.operating_iops
    lines = [f"{station_words(st.name, wp)}: utilisation U = X × D / (queues × servers) = {st.utilization:.1%} at "
             f"{fmt_iops(op)} IOPS (the operating point)."]
    if op > 0 and st.utilization > 0:
        lines.append(f"Its demand per I/O per queue and server: D / (queues × servers) = U / X = "
                     f"{st.utilization / op * 1e6:.3f} µs.")
    lines.append(f"Residence time per I/O: {fmt_ms(st.residence_ms)}"
                 + (" (the bottleneck)" if st.name == wp.bottleneck else "") + ".")
    return lines + _provenance(wp)

"""How sure a performance figure is, in words shared by the GUI, the report and the exports: the profile's
provenance and the P10-P90 uncertainty band of saturation IOPS and max IOPS at the SLO
(:mod:`models.performance.bands`). A band is the spread of the *prediction*, not a percentile of individual I/O
latencies, and the wording says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.formatting import NOT_MET, SATURATED, finite, format_iops

if TYPE_CHECKING:
    from models.performance.results import WorkloadPerformance

PROFILE_WORDS = {
    "calibrated": "calibrated (fitted to published measurements)",
    "derived": "derived (from another version's, protocol's or sibling's profile)",
    "assumed": "assumed (no published measurement constrains it)",
    "hardware relation only": "hardware relation only (its family's calibrated software costs on its own cores)",
}
"""Profile provenance -> its wording."""


def profile_text(kind: str) -> str:
    """The provenance of a workload's performance profile in words ("—" when no profile governs the path)."""
    return PROFILE_WORDS.get(kind, "—")


def iops_band_text(p10: float | None, p90: float | None, none_text: str = SATURATED) -> str:
    """An IOPS band as ``355K – 375K``; an edge that does not exist reads ``none_text`` (for max IOPS at the SLO
    pass ``not met``); ``—`` when both are missing."""
    if not finite(p10) and not finite(p90):
        return "—"
    low = format_iops(p10) if finite(p10) and p10 > 0 else none_text
    high = format_iops(p90) if finite(p90) and p90 > 0 else none_text
    return f"{low} – {high}"


def band_summary(wp: WorkloadPerformance) -> str:
    """One line for a workload: ``saturation 355K – 375K IOPS; max IOPS at SLO 353K – 373K (P10–P90 of the
    prediction, model error included)``, from a :class:`models.performance.WorkloadPerformance`."""
    sat = iops_band_text(wp.saturation_iops_band_p10, wp.saturation_iops_band_p90)
    slo = iops_band_text(wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90, NOT_MET)
    return f"saturation {sat} IOPS; max IOPS at SLO {slo} (P10–P90 of the prediction, model error included)"

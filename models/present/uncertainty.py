"""How sure a performance figure is, in words shared by the GUI, the report and the exports: the profile's
provenance and the P10-P90 uncertainty band of saturation IOPS and max IOPS at the SLO
(:mod:`models.performance.bands`). A band is the spread of the *prediction*, not a percentile of individual I/O
latencies, and the wording says so."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from models.formatting import NOT_MET, SATURATED, finite, format_iops
from models.present.profile_words import (
    ASSUMED_UNMEASURED_WORDS,
    PROFILE_KIND_MEANINGS,
    UNFITTED_RELATION_UNMEASURED,
    profile_kind_phrase,
)

HARDWARE_RELATION_KIND = "hardware relation only"

if TYPE_CHECKING:
    from models.performance.results import WorkloadPerformance

PROFILE_WORDS = {kind: profile_kind_phrase(kind) for kind in PROFILE_KIND_MEANINGS}
"""Profile provenance -> its wording: the kind and what it means, in the one set of words
(``models.present.verdicts.PROFILE_KIND_MEANINGS``, :func:`models.present.verdicts.profile_kind_phrase`)."""

UNFITTED_RELATION_WORDS = f"{HARDWARE_RELATION_KIND} ({UNFITTED_RELATION_UNMEASURED})"
"""The wording of a hardware-relation profile whose family has no profile fitted to a published measurement (the
E-Series: the pooled values are its catalogued, assumed ones), in place of ``PROFILE_WORDS``' "calibrated"."""


def unfitted_relation(wp: WorkloadPerformance) -> bool:
    """True when ``wp`` runs on a hardware-relation profile pooled from its family's catalogued, assumed values
    (no profile of the family is fitted: the profile's source, carried in the basis's reason, says so)."""
    from models.performance.hardware_relation import HARDWARE_RELATION, UNFITTED_POOL

    basis = wp.profile_basis
    kind = wp.profile or (basis.kind if basis is not None else "")
    return kind == HARDWARE_RELATION and basis is not None and UNFITTED_POOL in basis.reason


def profile_text(kind: str) -> str:
    """The provenance of a workload's performance profile in words ("—" when no profile governs the path)."""
    return PROFILE_WORDS.get(kind, "—")


def workload_profile_text(wp: WorkloadPerformance) -> str:
    """The provenance of ``wp``'s figures in words (a ``WorkloadPerformance``): :func:`profile_text` of its kind (an
    assumed profile with where its numbers come from, ``models.present.verdicts.ASSUMED_UNMEASURED_WORDS``),
    except a path no controller or cloud VM profile governs (a vSAN cluster, a managed service), which reads in the
    words of ``models.present.summary.NO_PROFILE_WORDS`` as on every other view."""
    from models.present.summary import NO_PROFILE_WORDS, no_profile_key

    key = no_profile_key(wp)
    if key:
        return NO_PROFILE_WORDS[key]
    if unfitted_relation(wp):
        return UNFITTED_RELATION_WORDS
    if wp.profile == "assumed":  # where its numbers come from, as the verdicts say (a catalogued profile is not
        from models.performance.profiles import assumed_origin  # StorPlan's defaults)

        return f"assumed ({ASSUMED_UNMEASURED_WORDS[assumed_origin(wp.profile_basis) or 'default']})"
    return profile_text(wp.profile)


def iops_band_text(p10: float | None, p90: float | None, none_text: str = SATURATED) -> str:
    """An IOPS band as ``355K – 375K``; an edge that does not exist reads ``none_text`` (for max IOPS at the SLO
    pass ``not met``); ``—`` when both are missing."""
    if not finite(p10) and not finite(p90):
        return "—"
    low = format_iops(p10) if finite(p10) and p10 > 0 else none_text
    high = format_iops(p90) if finite(p90) and p90 > 0 else none_text
    return f"{low} – {high}"


def saturation_label(wp: WorkloadPerformance) -> str:
    """A chart's saturation line label: ``saturation 98K IOPS (P10–P90 37K–262K)`` where the saturation has a
    P10-P90 band (review 57: "saturation 98K" beside an uncertainty band reaching 256K read as a firm figure), else
    ``saturation 98K IOPS`` (the unit said: "saturation 378" on a chart with a 1,397 ms axis read as either)."""
    text = f"saturation {format_iops(wp.saturation_iops)} IOPS"
    low, high = wp.saturation_iops_band_p10, wp.saturation_iops_band_p90
    if finite(low) and finite(high) and low > 0 and high > 0 and format_iops(low) != format_iops(high):
        text += f" (P10–P90 {format_iops(low)}–{format_iops(high)})"
    return text


def band_summary(wp: WorkloadPerformance) -> str:
    """One line for a workload: ``saturation 355K – 375K IOPS; max IOPS at SLO 353K – 373K (P10–P90 of the
    prediction, model error included)``, from a :class:`models.performance.WorkloadPerformance`."""
    sat = iops_band_text(wp.saturation_iops_band_p10, wp.saturation_iops_band_p90)
    slo = iops_band_text(wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90, NOT_MET)
    low, high = wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90
    if not (finite(low) and low > 0) and finite(high) and high > 0:  # never a range "not met – 2.39M" (review 57)
        slo = f"from none (the pessimistic case misses the SLO at every load) to {format_iops(high)}"
    held = published_bound(wp)
    return (f"saturation {sat} IOPS; max IOPS at SLO {slo} (P10–P90 of the prediction, model error included)"
            + (f"; {held}" if held else ""))


_PUBLISHED_PEAK = re.compile(r"(\S+)'s published 'up to' figure of ([\d,]+) IOPS for the (.+?)(?=, so |[;()]|$)")
"""The words of a derived profile's note held at a vendor's published peak
(``models.performance.profiles.published_peak_words``): vendor, IOPS, system."""


def published_bound(wp: WorkloadPerformance) -> str:
    """``held at NetApp's published 'up to' 2.40M IOPS for the AFF A90 HA pair`` when the workload's
    profile was derived and held (by its CPU time, or capped by the record's IOPS ceiling) at a vendor's published
    "up to" figure and its predicted saturation is at that
    figure (within 0.1%): the point prediction is then the vendor's figure, not a figure of the model's own; else
    ""."""
    basis = wp.profile_basis
    if basis is None or basis.kind != "derived" or not ("divided by" in basis.reason or "capped at" in basis.reason):
        return ""
    found = _PUBLISHED_PEAK.search(basis.reason)
    if found is None:
        return ""
    peak = float(found.group(2).replace(",", ""))
    if not finite(wp.saturation_iops) or wp.saturation_iops < 0.999 * peak:
        return ""
    vendor, name = found.group(1), found.group(3)
    name = name[len(vendor) + 1:] if name.startswith(f"{vendor} ") else name  # the vendor named once
    return f"held at {vendor}'s published 'up to' {format_iops(peak)} IOPS for the {name}"

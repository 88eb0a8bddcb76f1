"""HDD random positioning time as a function of the span of the disk the data occupies (short-stroke seeks).

A random HDD visit positions the head (a seek) and waits for the sector to come round (rotational latency). The
catalog's ``read_service_time_us`` / ``write_service_time_us`` of an HDD is the drive's datasheet average seek
plus half a revolution (the drive records' provenance). A datasheet's average seek is "the weighted average of
all possible seek combinations" (Hitachi Deskstar 7K320 SATA OEM Specification, §4.4.2.1, and the same
definition in every Hitachi / IBM drive specification): the mean seek over two uniformly random tracks of the
whole surface, whose distance has the triangular density 2 (1 - x) on [0, 1] of the full stroke (mean 1/3, the
"one-third stroke" the average is often quoted as). When the data occupy only a share ``span`` of each drive,
random reads jump between two uniform points of that span: distances have the density 2 (span - x) / span², and
the mean seek falls.

The seek curve (Ruemmler & Wilkes 1994, "An introduction to disk drive modeling", IEEE Computer 27(3), §"Seek
time"): seek(x) = a + b sqrt(x) for short seeks (the arm accelerates, then settles), c + e x for long ones
(it coasts at top speed), x the distance as a share of the full stroke. Constants and where each comes from:

* The knee between the two, :data:`SEEK_KNEE_SHARE` = 383 / 1962 of the stroke: Ruemmler & Wilkes's fitted
  HP 97560 curve (3.24 + 0.400 sqrt(d) ms below 383 cylinders, 8.00 + 0.008 d ms above, of 1,962 cylinders).
* The curve's shape in proportion to the average: a modern 7,200 rpm drive's datasheet, the Hitachi Deskstar
  7K320 SATA OEM Specification §4.4.2 (single-track seek 1.0 ms, average 12 ms, full stroke 20.0 ms, read):
  a = the single-track seek; b, c, e from continuity at the knee, seek(1) = the full stroke and the weighted
  average = the average (:data:`REFERENCE_SEEK_MS`). The shape is then scaled to each catalog drive by its own
  average seek (the catalog time less half a revolution), so a drive's full-span positioning is unchanged.
* Rotational latency: half a revolution, 30 / rpm seconds (Ruemmler & Wilkes 1994; the datasheets' "average
  latency", 4.2 ms at 7,200 rpm), independent of the span.

Assumptions (stated, not fitted): the data occupy a contiguous share ``span`` = stored bytes / the data drives'
capacity of each drive's stroke, and reads of them are uniform over it. ONTAP's WAFL writes anywhere, so reads of
old data spread over the whole span that is used, not a hot spot; an in-place array (E-Series, vSAN) lays the
volume out the same way. Unknown data (no dataset given) spans the whole drive: the datasheet average. The
transfer rate's zone (ZCAV) variation and command overhead are not modelled, nor is any reordering of queued I/Os
by the drive (NCQ / SATF): the engine queues each drive first-come first-served, so there is nothing to double
count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from models.catalog import Drive
from models.project.model import Workload

SEEK_KNEE_SHARE = 383.0 / 1962.0
"""Share of the full stroke where the seek curve turns from a + b sqrt(x) to c + e x: Ruemmler & Wilkes 1994,
the HP 97560 (knee at 383 of 1,962 cylinders)."""

REFERENCE_SEEK_MS = {"single_track": 1.0, "average": 12.0, "full_stroke": 20.0}
"""Hitachi Deskstar 7K320 SATA OEM Specification §4.4.2 (7,200 rpm): single-track seek 1.0 ms, average seek
(the weighted average of all seek combinations) 12 ms, full-stroke seek 20.0 ms, typical read figures; only
their proportions are used."""

DEFAULT_RPM = 7_200
"""rpm assumed for an HDD without one in the catalog (the slowest common speed; as
:func:`models.performance.variability.hdd_positioning_scv`)."""

MIN_SPAN = 1e-4
"""The smallest span used (a share of the stroke); below it every seek is a single-track seek anyway."""


@dataclass(frozen=True)
class SeekCurve:
    """A piecewise seek curve in proportion to its weighted average (seek(x) / average seek), x in (0, 1] of the
    full stroke: ``a + b sqrt(x)`` below ``knee``, ``c + e x`` above."""

    a: float
    b: float
    c: float
    e: float
    knee: float

    def at(self, x: float) -> float:
        """seek(x) / the average seek, for one seek over ``x`` (0..1) of the full stroke."""
        return self.a + self.b * math.sqrt(x) if x < self.knee else self.c + self.e * x

    def mean_over_span(self, span: float) -> float:
        """The mean of seek(D) / average seek for D the distance of two uniform points on [0, span] (density
        2 (span - x) / span²): exact piecewise integrals. 1.0 at span 1 (the datasheet definition)."""
        s = min(max(span, MIN_SPAN), 1.0)

        def sqrt_part(x: float) -> float:
            return self.a * (s * x - x * x / 2.0) + self.b * (s * 2.0 / 3.0 * x ** 1.5 - 2.0 / 5.0 * x ** 2.5)

        def line_part(x: float) -> float:
            return self.c * (s * x - x * x / 2.0) + self.e * (s * x * x / 2.0 - x ** 3 / 3.0)

        k = min(self.knee, s)
        total = sqrt_part(k) - sqrt_part(0.0)
        if s > self.knee:
            total += line_part(s) - line_part(self.knee)
        return 2.0 * total / (s * s)


@cache
def reference_curve() -> SeekCurve:
    """The seek curve of :data:`REFERENCE_SEEK_MS` with the knee :data:`SEEK_KNEE_SHARE`, normalised to its
    average: a = single-track / average; b, c, e solve (continuity at the knee, seek(1) = full stroke, weighted
    average = 1), a linear system solved by Cramer's rule."""
    avg = REFERENCE_SEEK_MS["average"]
    a = REFERENCE_SEEK_MS["single_track"] / avg
    full = REFERENCE_SEEK_MS["full_stroke"] / avg
    k = SEEK_KNEE_SHARE
    # unknowns (b, c, e):
    #   b sqrt(k) - c - e k = -a                                   (continuity)
    #   c + e = full                                               (full stroke)
    #   b 2 (2/3 k^1.5 - 2/5 k^2.5) + c (1-k)² + e (1/3 - k² + 2/3 k³) = 1 - a (2k - k²)   (weighted average)
    m = [[math.sqrt(k), -1.0, -k],
         [0.0, 1.0, 1.0],
         [2.0 * (2.0 / 3.0 * k ** 1.5 - 2.0 / 5.0 * k ** 2.5), (1.0 - k) ** 2, 1.0 / 3.0 - k * k + 2.0 / 3.0 * k ** 3]]
    rhs = [-a, full, 1.0 - a * (2.0 * k - k * k)]

    def det(q: list[list[float]]) -> float:
        return (q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0])
                + q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]))

    d = det(m)
    sol = []
    for j in range(3):
        mj = [[rhs[i] if col == j else m[i][col] for col in range(3)] for i in range(3)]
        sol.append(det(mj) / d)
    b, c, e = sol
    return SeekCurve(a=a, b=b, c=c, e=e, knee=k)


def half_revolution_s(rpm: int | None) -> float:
    """Average rotational latency, seconds: half of one revolution, 30 / rpm (``rpm`` None: :data:`DEFAULT_RPM`)."""
    return 30.0 / float(rpm or DEFAULT_RPM)


def positioning_s(catalog_positioning_s: float, rpm: int | None, span: float) -> float:
    """Mean random positioning time of an HDD whose data occupy ``span`` of its stroke, seconds.

    Args:
        catalog_positioning_s: the catalog's service time (datasheet average seek + half a revolution), seconds.
        rpm: spindle speed (None: :data:`DEFAULT_RPM`).
        span: share (0..1] of the drive's capacity the data occupy; values outside are clamped to
            [:data:`MIN_SPAN`, 1].

    Returns:
        average seek x :meth:`SeekCurve.mean_over_span` + half a revolution; the catalog time itself at span 1. A
        catalog time shorter than half a revolution (no seek left) is returned unchanged.
    """
    rotation = half_revolution_s(rpm)
    seek = catalog_positioning_s - rotation
    if seek <= 0.0:
        return catalog_positioning_s
    return seek * reference_curve().mean_over_span(span) + rotation


def data_span(stored_bytes: float, data_capacity_bytes: float) -> float:
    """The share of each data drive's stroke the data occupy: stored / data capacity, clamped to
    [:data:`MIN_SPAN`, 1]; 1 when either is unknown (0): the datasheet average."""
    if stored_bytes <= 0.0 or data_capacity_bytes <= 0.0:
        return 1.0
    return min(max(stored_bytes / data_capacity_bytes, MIN_SPAN), 1.0)


def stored_bytes(workloads: Iterable[Workload], target: str) -> float:
    """Bytes the enabled workloads served by ``target`` (a node id) store on its drives: each one's dataset
    divided by its compression, compaction and deduplication ratios (Snapshot copies and clones are not counted:
    they add no reads of their own). 0 when none gives a dataset."""
    return sum(w.dataset_bytes / (w.compression_ratio * w.compaction_ratio * w.dedupe_ratio)
               for w in workloads if w.enabled and w.target == target)


def short_stroke(drive: Drive, span: float) -> Drive:
    """``drive`` with its read and write service times replaced by :func:`positioning_s` at ``span`` (an HDD; an
    SSD, or a span of 1, is returned unchanged)."""
    if drive.media != "HDD" or span >= 1.0:
        return drive
    return drive.model_copy(update={
        "read_service_time_us": positioning_s(drive.read_service_time_us * 1e-6, drive.rpm, span) * 1e6,
        "write_service_time_us": positioning_s(drive.write_service_time_us * 1e-6, drive.rpm, span) * 1e6})

"""The model-discrepancy table of the P10-P90 bands, estimated from the leave-one-out residuals, and the bands'
measured coverage on those same points, each point's band built without its own case.

Out-of-sample points: every check of the cross-validation (:mod:`models.validation.cross_validation`) whose number a
calibration fit uses, predicted by the calibration refitted without the check's case (a published result, or a
measured ramp), with a positive published and predicted value. Each point has

* a **profile kind**: how the left-out model obtained the profile that made the prediction, read from the
  cross-validation's note: the engine's uncalibrated default CPU costs ("assumed"), another version's or
  protocol's profile ("derived": the fallback), or a profile refitted without the case ("calibrated");
* a **bottleneck kind**: what bounds the case's system (:data:`CASE_BOTTLENECK`, the station the full
  calibration's model finds saturating at the case's published peak);
* a **residual** r = log(predicted / published).

**Discrepancy** (:func:`estimate_table`): for a group of points, sigma = q / z, q the split-conformal quantile of
|r| (the ceil((n + 1) 0.8)-th smallest of n; Lei, G'Sell, Rinaldo, Tibshirani & Wasserman, "Distribution-Free
Predictive Inference for Regression", JASA 113 (2018), section 2.2: with exchangeable points a new point's |r|
falls at or below it with probability at least 80%), z the normal's 90th percentile, so that exp(-/+ z sigma) is the
P10-P90 band. A (profile kind, bottleneck kind) cell needs :data:`MIN_CELL_POINTS` points from
:data:`MIN_CELL_CASES` cases, as does a bottleneck kind a catalog number bounds (drives, ports, service limit)
pooled over the profile kinds, and a profile kind :data:`MIN_POINTS` points; a figure whose cell has too few falls
back to its bottleneck kind's (when a catalog number bounds it), else to its profile kind's; a kind seen in fewer
points takes the sigma pooled over every point, and a kind never seen (a new kind, or a path no profile governs)
the widest kind's (:meth:`models.performance.discrepancy.DiscrepancyTable.sigma`).

**Coverage** (:func:`band_coverage`): for each point, the table is estimated from the points of the *other* cases
(leave one case out: the point's own result, and every other point of it, never sets its band), and the point is
inside when |r| <= z sigma. The band of a point is the discrepancy alone: the parameter part that the engine adds
for a figure is left out here (the left-out fit's standard errors are not stored), which can only narrow the band,
so the coverage measured is a lower bound of the engine's.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from models.atomic import write_text_atomic
from models.performance.discrepancy import CATALOG_BOUND, FILE_NAME, Z_P90, DiscrepancyTable, table_toml
from models.resources import validation_dir

if TYPE_CHECKING:
    from models.validation.cross_validation import CrossValidation

COVERAGE_LEVEL = 0.8
"""The band's nominal coverage: P10 to P90."""

TARGET = (0.70, 0.90)
"""Measured coverage counted as on target (issue 30's acceptance range around the nominal 80%)."""

MIN_POINTS = 4
"""Fewest points that estimate a sigma: with n >= 4 the conformal rank ceil((n + 1) 0.8) is at most n."""

MIN_CELL_POINTS = 8
"""Fewest points of a (profile kind, bottleneck kind) cell for its own sigma."""

MIN_CELL_CASES = 2
"""Fewest cases (published results) of a cell for its own sigma: one result's points share its set-up's errors."""

MIN_REPORTED = 10
"""A profile kind's coverage is held to :data:`TARGET` when it has at least this many points."""

CASE_BOTTLENECK = {
    "aff8080-tpce-fcp": "CPU",
    "a800-slob-select-fcp": "CPU",
    "a800-slob-select-nvmefc": "ports",
    "a800-nvmefc-vs-fcp-peak": "CPU",
    "a800-nvmefc-vs-fcp-latency": "CPU",
    "a800-ontap95-vs-94-fcp": "CPU",
    "a800-nvmefc-host-cpu": "CPU",
    "aff8080-ontap9-vs-831": "CPU",
    "cvo-fabricpool-cold-read": "CPU",
    "cvo-fabricpool-write": "service limit",
    "cvo-azure-oltp": "CPU",
    "cvo-azure-streaming-read": "CPU",
    "cvo-azure-streaming-write": "service limit",
    "cvo-azure-analytics": "service limit",
    "specstorage2020-swbuild-a900-2node": "affinity",
    "specstorage2020-eda-a90-8node": "affinity",
}
"""What bounds each fitted case's system at its published peak, as the full calibration's model finds it (the
bottleneck station's kind, :data:`models.performance.discrepancy.STATION_BOTTLENECK`; where a case has several
configurations, the most common): the controller CPU for the AFF block cases and the Azure OLTP and read runs, the
NVMe/FC target ports for the A800's NVMe/FC peak, the NVRAM log disk's published throughput limit for the Azure
write-heavy runs, the WAFL affinities for the SPECstorage NFS ramps. A case not listed has no bottleneck kind (its
points count towards its profile kind only)."""


@dataclass(frozen=True)
class LooPoint:
    """One out-of-sample point: a published figure and its leave-one-out prediction (same unit), with the case
    id, the quantity, the profile kind of the prediction and the case's bottleneck kind ("" unknown)."""

    case_id: str
    quantity: str
    published: float
    predicted: float
    profile_kind: str
    bottleneck_kind: str

    @property
    def residual(self) -> float:
        """log(predicted / published)."""
        return math.log(self.predicted / self.published)


def profile_kind_of_note(note: str) -> str:
    """The profile kind of a left-out prediction from its cross-validation note: "assumed" when a step fell back
    to the uncalibrated default CPU costs, "derived" when it fell back to another version's or protocol's profile,
    else "calibrated" (every profile it used was refitted without the case)."""
    if "uncalibrated default" in note:
        return "assumed"
    if "falls back to the" in note:
        return "derived"
    return "calibrated"


def loo_points(cv: CrossValidation) -> list[LooPoint]:
    """The out-of-sample points of a cross-validation (module docstring), in file order."""
    out = []
    for case in cv.cases:
        for c in case.checks:
            if c.in_sample and c.published > 0 and math.isfinite(c.predicted) and c.predicted > 0:
                out.append(LooPoint(case.case_id, c.quantity, c.published, c.predicted,
                                    profile_kind_of_note(c.note), CASE_BOTTLENECK.get(case.case_id, "")))
    return out


HARDWARE_RELATION = "hardware relation only"
"""The profile kind of a leave-one-platform-out point (``models.performance.profiles``' kind string)."""


def holdout_points(checks: Sequence) -> list[LooPoint]:
    """The leave-one-platform-out points (``models.validation.platform_holdout.platform_holdout``'s checks) as
    out-of-sample points of the profile kind "hardware relation only": the platform's published figure against
    its prediction from the other platforms' hardware relation. Their ``case_id`` is the platform's name, so that
    the coverage's leave-one-case-out leaves a whole platform out (its points share its fits' errors); the
    bottleneck kind is the case's (:data:`CASE_BOTTLENECK`). A prediction that saturates below the published load
    (an infinite held-out latency) is a point with an unbounded residual: the largest |r| of the conformal quantile
    and outside every band, never left out because it misses."""
    return [LooPoint(c.platform, c.quantity, c.published, c.held_out, HARDWARE_RELATION,
                     CASE_BOTTLENECK.get(c.case_id, ""))
            for c in checks if c.published > 0 and not math.isnan(c.held_out) and c.held_out > 0]


def conformal_sigma(residuals: Sequence[float]) -> float:
    """sigma = (the ceil((n + 1) 0.8)-th smallest |r|) / z of n >= :data:`MIN_POINTS` log residuals (module
    docstring).

    Raises:
        ValueError: fewer than :data:`MIN_POINTS` residuals."""
    n = len(residuals)
    if n < MIN_POINTS:
        raise ValueError(f"a discrepancy sigma needs at least {MIN_POINTS} points, got {n}")
    rank = math.ceil((n + 1) * COVERAGE_LEVEL)
    return sorted(abs(r) for r in residuals)[min(rank, n) - 1] / Z_P90


def estimate_table(points: Iterable[LooPoint], inputs_sha256: str = "") -> DiscrepancyTable:
    """The discrepancy table of these points (module docstring): cells, profile kinds and the pooled sigma, with
    the points and cases behind each.

    Raises:
        ValueError: fewer than :data:`MIN_POINTS` points in all."""
    pts = list(points)
    cells: dict[tuple[str, str], float] = {}
    kinds: dict[str, float] = {}
    counts: dict[tuple[str, str], tuple[int, int]] = {}
    sparse = set()
    for kind in sorted({p.profile_kind for p in pts}):
        mine = [p for p in pts if p.profile_kind == kind]
        if len(mine) >= MIN_POINTS:
            kinds[kind] = conformal_sigma([p.residual for p in mine])
            counts[(kind, "")] = (len(mine), len({p.case_id for p in mine}))
        else:
            sparse.add(kind)
        for neck in sorted({p.bottleneck_kind for p in mine if p.bottleneck_kind}):
            cell = [p for p in mine if p.bottleneck_kind == neck]
            cases = len({p.case_id for p in cell})
            if len(cell) >= MIN_CELL_POINTS and cases >= MIN_CELL_CASES:
                cells[(kind, neck)] = conformal_sigma([p.residual for p in cell])
                counts[(kind, neck)] = (len(cell), cases)
    necks: dict[str, float] = {}
    for neck in CATALOG_BOUND:
        mine = [p for p in pts if p.bottleneck_kind == neck]
        cases = len({p.case_id for p in mine})
        if len(mine) >= MIN_CELL_POINTS and cases >= MIN_CELL_CASES:
            necks[neck] = conformal_sigma([p.residual for p in mine])
            counts[("", neck)] = (len(mine), cases)
    basis = (f"split-conformal {COVERAGE_LEVEL:.0%} quantile of |log(predicted / published)| over {len(pts)} "
             f"leave-one-out points of {len({p.case_id for p in pts})} published results, divided by z = "
             f"{Z_P90:.4f}")
    return DiscrepancyTable(cells, kinds, conformal_sigma([p.residual for p in pts]), counts, basis, inputs_sha256,
                            frozenset(sparse), necks)


@dataclass(frozen=True)
class PointBand:
    """A point with the sigma of its band (estimated without its case) and whether the published figure is inside."""

    point: LooPoint
    sigma: float

    @property
    def inside(self) -> bool:
        """|log(predicted / published)| <= z sigma: the published figure lies within P10-P90."""
        return abs(self.point.residual) <= Z_P90 * self.sigma

    @property
    def relative_width(self) -> float:
        """(P90 - P10) / 2 / prediction = sinh(z sigma): the band's half-width as a share of the prediction."""
        return math.sinh(Z_P90 * self.sigma)


@dataclass(frozen=True)
class Coverage:
    """Measured coverage of a set of point bands (:func:`band_coverage`)."""

    bands: tuple[PointBand, ...]

    def of(self, kind: str | None = None) -> Coverage:
        """The points of one profile kind (None: all)."""
        return Coverage(tuple(b for b in self.bands if kind is None or b.point.profile_kind == kind))

    @property
    def inside(self) -> int:
        """Points inside their band."""
        return sum(b.inside for b in self.bands)

    @property
    def total(self) -> int:
        """Points."""
        return len(self.bands)

    @property
    def fraction(self) -> float:
        """inside / total (nan without points)."""
        return self.inside / self.total if self.total else math.nan

    @property
    def median_width(self) -> float:
        """Median of :attr:`PointBand.relative_width` (nan without points)."""
        return statistics.median(b.relative_width for b in self.bands) if self.bands else math.nan

    @property
    def on_target(self) -> bool:
        """Whether the fraction is within :data:`TARGET` (True with fewer than :data:`MIN_REPORTED` points: too few
        to hold to it)."""
        return self.total < MIN_REPORTED or TARGET[0] <= self.fraction <= TARGET[1]

    def line(self, label: str = "") -> str:
        """``band coverage: N of M out-of-sample points inside P10-P90 (X%); median band width ±Y% of the
        prediction``, with `` (label)`` after "coverage" when given."""
        head = f"band coverage{f' ({label})' if label else ''}"
        if not self.total:
            return f"{head}: no out-of-sample points"
        return (f"{head}: {self.inside} of {self.total} out-of-sample points inside P10-P90 ({self.fraction:.0%}); "
                f"median band width ±{self.median_width:.0%} of the prediction"
                + ("" if self.on_target else f" (target {TARGET[0]:.0%}-{TARGET[1]:.0%})"))


def band_coverage(points: Sequence[LooPoint]) -> Coverage:
    """Each point's band from the table of the other cases' points (module docstring); a point whose other cases
    leave fewer than :data:`MIN_POINTS` points is left out."""
    out = []
    for p in points:
        others = [q for q in points if q.case_id != p.case_id]
        if len(others) < MIN_POINTS:
            continue
        out.append(PointBand(p, estimate_table(others).sigma(p.profile_kind, p.bottleneck_kind)))
    return Coverage(tuple(out))


def coverage_lines(cv: CrossValidation | None, extra: Sequence[LooPoint] = ()) -> list[str]:
    """``storplan validate``'s band coverage lines: overall, then per profile kind (calibrated, derived, assumed,
    hardware relation only, then any other); one line saying why when there is no cross-validation. ``extra``:
    further out-of-sample points (:func:`holdout_points`)."""
    if cv is None:
        return ["band coverage: no leave-one-out results to measure it on"]
    cov = band_coverage([*loo_points(cv), *extra])
    order = ("calibrated", "derived", "assumed", HARDWARE_RELATION)
    kinds = sorted({b.point.profile_kind for b in cov.bands}, key=lambda k: (order + (k,)).index(k))
    return [cov.line()] + [cov.of(k).line(f"{k} profiles") for k in kinds]


def write_table(cv: CrossValidation, path: Path | None = None, extra: Sequence[LooPoint] = ()) -> Path:
    """Estimate the discrepancy table from ``cv``'s points and ``extra`` (the leave-one-platform-out points,
    :func:`holdout_points`) and write it (default: beside the cross-validation results, where the engine reads
    it). Returns the path.

    Raises:
        ValueError: too few points; OSError: cannot write."""
    path = path or validation_dir() / FILE_NAME
    table = estimate_table([*loo_points(cv), *extra], cv.inputs_sha256)
    write_text_atomic(path, table_toml(table, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")) + "\n")
    return path

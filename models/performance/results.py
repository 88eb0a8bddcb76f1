"""Results of the storage performance model: per-workload curves, utilisation and bottleneck.

Frozen dataclasses shared by the GUI charts, the CLI JSON and the PDF report. No field is ever NaN or inf:
where a quantity does not exist (the SLO is never met, the target load saturates the system) it is ``None``
and views show "saturated" or "not met".
"""


import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any

from models.formatting import fmt_iops, fmt_ms
from models.performance.profiles import ProfileBasis
from models.performance.stations import UNSPECIFIED, StationId

HEADROOM_WARNING_PCT = 15.0
"""A met target closer than this to saturation (percent of the target) gets a caution in the summaries."""


@dataclass(frozen=True)
class CurvePoint:
    """One point of a latency-vs-IOPS curve.

    Attributes:
        iops: I/O operations per second delivered.
        latency_ms: storage-side mean response time, milliseconds.
        mbps: throughput, MB/s (10^6 bytes/s).
        host_latency_ms: latency seen by the host (adds host stack and fabric), ms, where modelled.
        population: outstanding I/Os (closed ramp) or None for open-model points.
        latency_band_p10_ms, latency_band_p90_ms: the uncertainty band of ``latency_ms`` (P10 and P90 of the
            prediction, not I/O latency percentiles; :mod:`models.performance.bands`); None where not computed,
            and P90 None where the band's pessimistic edge is saturated at this IOPS.
        latency_p95_ms, latency_p99_ms: the 95th and 99th percentiles of the storage-side I/O response time at
            this load (``models.performance.tail_latency``), ms; None where saturated or not computed.
    """

    iops: float
    latency_ms: float
    mbps: float
    host_latency_ms: float | None = None
    population: int | None = None
    latency_band_p10_ms: float | None = None
    latency_band_p90_ms: float | None = None
    latency_p95_ms: float | None = None
    latency_p99_ms: float | None = None


def curve_points(iops: Sequence[float], latency_ms: Sequence[float], mbps: Sequence[float],
                 host_latency_ms: Sequence[float | None], population: Sequence[int | None],
                 p10: Sequence[float | None], p90: Sequence[float | None],
                 p95: Sequence[float | None] | None = None, p99: Sequence[float | None] | None = None
                 ) -> tuple[CurvePoint, ...]:
    """Many :class:`CurvePoint` at once, one per index of the equal-length columns (fields in order): the same
    objects ``CurvePoint(...)`` makes (equal, same hash, same fields), each filled in directly rather than through
    the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field: a third of the time of a failure
    state's curve of ~270 points)."""
    new = object.__new__
    out: list[CurvePoint] = []
    append = out.append
    none = [None] * len(iops)
    for x, y, m, h, k, lo, hi, t95, t99 in zip(iops, latency_ms, mbps, host_latency_ms, population, p10, p90,
                                               none if p95 is None else p95, none if p99 is None else p99):
        point = new(CurvePoint)
        d = point.__dict__
        d["iops"] = x
        d["latency_ms"] = y
        d["mbps"] = m
        d["host_latency_ms"] = h
        d["population"] = k
        d["latency_band_p10_ms"] = lo
        d["latency_band_p90_ms"] = hi
        d["latency_p95_ms"] = t95
        d["latency_p99_ms"] = t99
        append(point)
    return tuple(out)


@dataclass(frozen=True)
class StationLoad:
    """One queueing station's state at the operating point.

    Attributes:
        name: station name, e.g. ``node 1 CPU``, ``FC target ports``, ``SSD (node 1)``.
        component: the canvas node id it belongs to ("" for the model's own delays).
        utilization: per-server utilisation in [0, 1].
        residence_ms: residence time per I/O (all visits), ms; None when saturated.
        ident: what the station is (``models.performance.stations.StationId``: node, role, index), as on the
            path it was solved from; code decides by it, never by ``name``.
    """

    name: str
    component: str
    utilization: float
    residence_ms: float | None
    ident: StationId = UNSPECIFIED


def station_load(name: str, component: str, utilization: float, residence_ms: float | None,
                 ident: StationId = UNSPECIFIED) -> StationLoad:
    """``StationLoad(name, component, utilization, residence_ms, ident)``, the same object (equal, same hash, same
    fields) filled in directly rather than through the frozen dataclass's ``__init__`` (the engine makes one per
    station of every workload of every state)."""
    load = object.__new__(StationLoad)
    d = load.__dict__
    d["name"] = name
    d["component"] = component
    d["utilization"] = utilization
    d["residence_ms"] = residence_ms
    d["ident"] = ident
    return load


@dataclass(frozen=True)
class WorkloadPerformance:
    """The performance prediction for one workload.

    Attributes:
        workload_id, name: the workload.
        curve: closed-ramp points (N = 1, 2, ... outstanding I/Os) in order of increasing IOPS.
        saturation_iops: the IOPS at which the bottleneck reaches 100% (open model), i.e. the asymptote.
        max_iops_at_slo: the highest IOPS whose latency is within the SLO, or None when even light load misses it.
        slo_ms: the latency objective used.
        target_iops: the workload's target IOPS (from target_iops or target_mbps), or None.
        latency_at_target_ms: latency at the target load (open model), None when the target saturates.
        target_met: True when the target is below saturation and its latency is within the SLO.
        bottleneck: the station with the highest service demand per server.
        bottleneck_component: the canvas node id of the bottleneck ("" when none).
        headroom_pct: how far the target is below saturation, percent of the target (None without a target).
        stations: every station's load at the operating point (the target, else the max IOPS under the SLO).
        operating_iops: the IOPS of that operating point.
        protocol: the front-end protocol used (FCP, NVMe/FC, iSCSI, vSAN).
        host_cpu_pct_per_100k_iops: host CPU (% of one core) per 100K IOPS, where the host model has it.
        notes: assumptions in words (cache hit ratio, RAID write penalty, calibration source...).
        read_latency_ms, write_latency_ms: storage-side latency of one read / one write at the operating point
            (each station's queueing factor applied to that operation's demand), None when saturated or absent.
        host_latency_at_target_ms: host-side latency at the target load (open model), None when saturated.
        peak_iops: IOPS at the end of the closed ramp (N = concurrency), what a benchmark ramp reports as peak.
        open_curve: where the ramp ends well below saturation, the open model's latency at offered IOPS from the
            ramp's end towards saturation (storage-side; ``population`` None): "what latency at 300K IOPS".
        light_load_latency_ms: storage-side latency of one I/O alone (no queueing), ms.
        latency_at_50pct_saturation_ms, latency_at_80pct_saturation_ms: storage-side latency on the curve at 50%
            and 80% of ``saturation_iops``, ms (None without a finite saturation).
        knee_note: why the latency at 80% of saturation is under 1.3x the light-load latency, in words; None
            when the curve has a knee (:mod:`models.performance.knee`).
        profile: how the controller / VM performance profile was obtained: "calibrated", "derived" or
            "assumed" ("" where no profile governs the path).
        profile_basis: the same with the sibling, ratio and reason (``models.performance.profiles.ProfileBasis``),
            added by ``models.evaluate``; None where no profile governs the path or it was not asked for.
        saturation_iops_band_p10, saturation_iops_band_p90, max_iops_at_slo_band_p10, max_iops_at_slo_band_p90:
            uncertainty bands (P10 / P90 of the prediction) of those figures; None where not defined.
        band_basis: how the bands were obtained, in words.
        latency_p95_at_target_ms, latency_p99_at_target_ms: the 95th / 99th percentile of the storage-side I/O
            response time at the target load (open model; ``models.performance.tail_latency``), None without a
            target or where it saturates.
        slo_statistic: what ``slo_ms`` bounds: "mean" (the mean latency) or "p99" (its 99th percentile); the max
            IOPS at the SLO and ``target_met`` are judged on it.
        concurrency, think_time_ms: the workload's own outstanding I/Os (the closed ramp's N, ``Workload.concurrency``)
            and think time, ms, as stated (None: not known, a record built outside the engine).
    """

    workload_id: str
    name: str
    curve: tuple[CurvePoint, ...]
    saturation_iops: float
    max_iops_at_slo: float | None
    slo_ms: float
    target_iops: float | None
    latency_at_target_ms: float | None
    target_met: bool | None
    bottleneck: str
    bottleneck_component: str
    headroom_pct: float | None
    stations: tuple[StationLoad, ...]
    operating_iops: float
    protocol: str
    block_kib: float
    host_cpu_pct_per_100k_iops: float | None = None
    notes: tuple[str, ...] = ()
    read_latency_ms: float | None = None
    write_latency_ms: float | None = None
    host_latency_at_target_ms: float | None = None
    peak_iops: float | None = None
    open_curve: tuple[CurvePoint, ...] = ()
    light_load_latency_ms: float | None = None
    latency_at_50pct_saturation_ms: float | None = None
    latency_at_80pct_saturation_ms: float | None = None
    knee_note: str | None = None
    profile: str = ""
    saturation_iops_band_p10: float | None = None
    saturation_iops_band_p90: float | None = None
    max_iops_at_slo_band_p10: float | None = None
    max_iops_at_slo_band_p90: float | None = None
    band_basis: str = ""
    profile_basis: ProfileBasis | None = None
    latency_p95_at_target_ms: float | None = None
    latency_p99_at_target_ms: float | None = None
    slo_statistic: str = "mean"
    concurrency: int | None = None
    think_time_ms: float = 0.0

    if not TYPE_CHECKING:  # (hidden from mypy: every other unknown attribute stays an error there)

        def __getattr__(self, name: str) -> Any:
            """``curve`` and ``open_curve`` of a record given their points as columns (:func:`with_curve_columns`),
            made into :class:`CurvePoint` tuples when first read (then kept); AttributeError for anything else."""
            if name == "curve" or name == "open_curve":
                d = self.__dict__
                columns = d.get(_CURVE_COLUMNS)
                if columns is not None:
                    d["curve"] = curve_points(*columns[0])
                    d["open_curve"] = curve_points(*columns[1])
                    return d[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        """The record's fields for pickle (the GUI's worker process sends results back so): a curve still held as
        columns travels as its columns (lists of floats pickle far faster than point objects) and is built where it
        is read; the unpickled record equals this one."""
        state = dict(self.__dict__)
        if _CURVE_COLUMNS in state:
            state.pop("curve", None)
            state.pop("open_curve", None)
        return state

    @property
    def slo_bounded_at_target_ms(self) -> float | None:
        """The latency at the target that the SLO bounds: the mean, or the p99 where the SLO is on the p99 (ms;
        None where saturated or without a target)."""
        return self.latency_p99_at_target_ms if self.slo_statistic == "p99" else self.latency_at_target_ms

    @property
    def slo_words(self) -> str:
        """The SLO as text reads it: "the 1 ms SLO" or, on the p99, "the 1 ms p99 SLO" (without "the")."""
        return f"{self.slo_ms:g} ms{' p99' if self.slo_statistic == 'p99' else ''} SLO"

    @property
    def saturation_mbps(self) -> float:
        """Throughput at saturation, MB/s."""
        return self.saturation_iops * self.block_kib * 1024 / 1e6

    @property
    def utilization(self) -> Mapping[str, float]:
        """Station name -> utilisation at the operating point."""
        return {s.name: s.utilization for s in self.stations}

    @property
    def bottleneck_station(self) -> StationLoad | None:
        """The bottleneck's :class:`StationLoad` (its identity, utilisation and residence), None without one."""
        return next((s for s in self.stations if self.bottleneck and s.name == self.bottleneck), None)

    def cautions(self, headroom_warning_pct: float = HEADROOM_WARNING_PCT) -> tuple[str, ...]:
        """What a sizing that meets its target should still warn about, in words (empty when nothing):

        * the target sits within ``headroom_warning_pct`` of saturation: latency climbs steeply with a little
          more load (the M/M/1 factor 1 / (1 - U) at the bottleneck);
        * at a target load, an HA pair whose two controller nodes together are busier than one node can be:
          after a takeover the surviving node would be saturated (its CPU utilisation would be the sum of both);
        * the target needs more outstanding I/Os than the workload states (:meth:`outstanding_needed`, Little's
          law): the design serves the target (its verdict is on saturation and the SLO, the open model's), but
          the workload as stated cannot offer it; its own ramp of N = 1..concurrency reaches ``peak_iops``.
        """
        out = []
        if self.target_met and self.headroom_pct is not None and self.headroom_pct < headroom_warning_pct:
            busiest = max(self.stations, key=lambda st: st.utilization, default=None)
            where = f" ({busiest.name} {busiest.utilization:.0%} busy)" if busiest is not None else ""
            # "saturation N% above the target" (review 42): the headroom is in percent of the target, so "N% below
            # saturation" beside "93% busy" read as a contradiction (100 - 93 = 7, not 8.0)
            out.append(f"saturation only {self.headroom_pct:.1f}% above the target{where}: latency climbs "
                       "steeply with a little more load")
        cpus = [st for st in self.stations if st.ident.role == "cpu" and st.ident.node is not None]
        if self.target_iops is not None and len(cpus) == 2 and sum(st.utilization for st in cpus) > 1.0:
            total = sum(st.utilization for st in cpus)
            out.append(f"after a controller failover the surviving node would need {total:.0%} of its CPU: "
                       "the HA pair cannot carry this load on one node")
        needed = self.outstanding_needed() if self.target_met else None
        if needed is not None and self.short_of_concurrency:
            think = f" + {self.think_time_ms:g} ms think time" if self.think_time_ms > 0 else ""
            reach = f", which reach {fmt_iops(self.peak_iops)} IOPS" if self.peak_iops is not None else ""
            out.append(f"needs {needed:,} outstanding I/Os ({fmt_iops(self.target_iops)} IOPS x "
                       f"{fmt_ms(self.latency_at_target_ms)}{think}); the workload states {self.concurrency:,}{reach}")
        return tuple(out)

    @property
    def iops_at_stated_concurrency(self) -> float | None:
        """The IOPS within the SLO that the workload's own outstanding I/Os reach (the closed ramp's end at N =
        ``concurrency``, ``peak_iops``), when that is below the max IOPS at the SLO (the open model's, which
        assumes as many outstanding I/Os as it needs); None where the stated concurrency reaches the max IOPS at
        the SLO, or where either is unknown (review 57: 1.79M at the SLO headlined where 450 outstanding I/Os
        reach 1.30M, NetApp's own measured peak)."""
        peak, head = self.peak_iops, self.max_iops_at_slo
        if self.concurrency is None or peak is None or head is None:
            return None
        if not (math.isfinite(peak) and math.isfinite(head)) or peak <= 0 or head <= 0:
            return None
        return peak if peak < head * 0.995 else None

    @property
    def short_of_concurrency(self) -> bool:
        """The target is met on the open model (saturation and the SLO) but needs more outstanding I/Os than the
        workload states (:meth:`outstanding_needed`, Little's law N = X R): the design serves it, the workload as
        stated cannot offer it."""
        needed = self.outstanding_needed() if self.target_met else None
        return needed is not None and self.concurrency is not None and needed > self.concurrency

    def outstanding_needed(self) -> int | None:
        """The outstanding I/Os the target needs at its latency, by Little's law: target IOPS x (the mean latency at
        the target + the think time), rounded (120,000 IOPS x 1.044 ms = 125); None without a target or where the
        target saturates."""
        if self.target_iops is None or self.latency_at_target_ms is None:
            return None
        return round(self.target_iops * (self.latency_at_target_ms + self.think_time_ms) / 1e3)

    def latency_on_curve_ms(self, iops: float | None, statistic: str = "mean") -> float | None:
        """The drawn curve's latency at ``iops`` (closed ramp, then its open-model continuation; linear
        interpolation between points), ms; None outside it. ``statistic``: "mean" (``latency_ms``) or "p99"
        (``latency_p99_ms``; None also where a point has none)."""
        points = [*self.curve, *self.open_curve]
        if iops is None or not points or not math.isfinite(iops):
            return None
        if iops < points[0].iops or iops > points[-1].iops:
            return None
        ys = [p.latency_ms if statistic == "mean" else p.latency_p99_ms for p in points]
        for (a, ya), (b, yb) in zip(zip(points, ys), zip(points[1:], ys[1:])):
            if a.iops <= iops <= b.iops:
                if ya is None or yb is None:
                    return None
                if b.iops == a.iops:
                    return ya
                return ya + (yb - ya) * (iops - a.iops) / (b.iops - a.iops)
        return ys[-1] if iops == points[-1].iops else ys[0]

    @property
    def max_iops_at_slo_point(self) -> tuple[float, float] | None:
        """Where to mark the max IOPS at the SLO on the curve (the p99 curve where the SLO bounds the p99): (IOPS,
        latency ms). The engine found that IOPS
        where the latency reaches the SLO (or at the ramp's end, below it), so the mark is never above the SLO:
        a straight segment between two curve points lies above the (convex) curve it spans. None without it."""
        if self.max_iops_at_slo is None or not math.isfinite(self.max_iops_at_slo):
            return None
        latency = self.latency_on_curve_ms(self.max_iops_at_slo, self.slo_statistic)
        if latency is None:
            return None
        return self.max_iops_at_slo, min(latency, self.slo_ms)


del WorkloadPerformance.open_curve  # its default stays the constructor's; absent, a lazy record's is built on read


_CURVE_COLUMNS = "_curve_columns"
"""The key under which a :class:`WorkloadPerformance` made by :func:`with_curve_columns` holds its curves' columns."""

CurveColumns = tuple[Sequence[Any] | None, ...]
"""A curve's points as :func:`curve_points`' nine columns (IOPS, ms, MB/s, host ms, population, P10, P90, p95,
p99)."""


def curve_columns(wp: WorkloadPerformance) -> tuple[CurveColumns, CurveColumns] | None:
    """The columns of ``wp``'s curve and open curve (:func:`with_curve_columns`: the arguments of
    :func:`curve_points` each) while its points are not made yet, else None (read ``curve`` and ``open_curve``)."""
    d = wp.__dict__
    if "curve" in d:
        return None
    columns: tuple[CurveColumns, CurveColumns] | None = d.get(_CURVE_COLUMNS)
    return columns


def with_curve_columns(wp: WorkloadPerformance, curve: CurveColumns, open_curve: CurveColumns) -> WorkloadPerformance:
    """``wp`` (just built, not yet shared) with its ``curve`` and ``open_curve`` given as columns: the points are
    made (:func:`curve_points`, the same objects, equal fields) when either is first read, so an evaluation whose
    curves nobody draws or writes (a failure state's, the GUI's edit loop) never builds them. Every other field,
    equality, hash, repr, ``dataclasses.asdict`` / ``replace`` and pickle see the same record as one built with
    the points.

    Args:
        wp: a record whose ``curve`` and ``open_curve`` are placeholders (replaced here);
        curve, open_curve: the columns (:data:`CurveColumns`), each of one length.

    Returns:
        ``wp`` itself.
    """
    d = wp.__dict__
    d.pop("curve", None)
    d.pop("open_curve", None)
    d[_CURVE_COLUMNS] = (curve, open_curve)
    return wp


def replace_figures(wp: WorkloadPerformance, **changes: Any) -> WorkloadPerformance:
    """``dataclasses.replace(wp, **changes)`` without building ``wp``'s curves: a record still holding them as
    columns (:func:`with_curve_columns`) gives a copy holding the same columns (``dataclasses.replace`` reads every
    field, and so would make the points of a failure state's curve that nobody draws). ``changes`` may not name
    ``curve`` or ``open_curve``."""
    if "curve" in changes or "open_curve" in changes:
        raise ValueError("replace_figures changes figures, not curves: use dataclasses.replace")
    columns = curve_columns(wp)
    if columns is None:
        return replace(wp, **changes)
    fields = {f.name: getattr(wp, f.name) for f in dataclass_fields(wp) if f.name not in ("curve", "open_curve")}
    return with_curve_columns(WorkloadPerformance(**{**fields, **changes, "curve": ()}), *columns)


@dataclass(frozen=True)
class ScenarioPerformance:
    """Every enabled workload's prediction for one scenario (workloads sharing a system are solved together)."""

    workloads: tuple[WorkloadPerformance, ...] = ()
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    unserved: tuple[tuple[str, str, str], ...] = ()
    """(workload id, name, why) of each enabled workload with I/O whose path could not be built (no host reaches
    its target, its controller has no drives: ``models.performance.paths.PathError``): it has no figures, and the
    verdict counts it missed (``models.verdict.workload_misses``)."""

    def for_workload(self, workload_id: str) -> WorkloadPerformance | None:
        """The prediction of the workload with id ``workload_id``, or None (unknown, disabled or not predicted)."""
        return next((w for w in self.workloads if w.workload_id == workload_id), None)

"""Uncertainty bands: how sure a predicted latency, saturation or max IOPS at the SLO is (P10 to P90 of the
prediction): the calibration's parameter uncertainty (full covariance), the tolerances of catalog-given demands
(drives, ports, service limits), and the model's own error measured out of sample (the discrepancy,
:mod:`models.performance.discrepancy`).

Not the percentiles of individual I/O latencies (which storage engineers also call P90): a band says where the
*mean* latency at a load probably lies, given what the fit, the catalog and the published results the model was
tested against know (docs/uncertainty.md).

Method:

1. **Relative standard deviation of each station's demand** (:func:`profile_uncertainty`). The controller /
   VM CPU demand is ``cpu_demand_us`` of the profile, a linear combination of its fields weighted by the read /
   write mix and the block size; its relative SD is sqrt(w' Cov w) / demand (:func:`demand_rel_sd`, the delta
   method with the fit's full covariance: ``PerfProfile.stderr`` and ``PerfProfile.correlation``,
   ``models.calibration.parameter_stderr`` / ``parameter_correlation``; Bates & Watts 1988 §2.3), over the fields
   a fit set (their provenance names the fit, ``Provenance.fit``; a held or assumed field adds nothing here). A
   fitted field with no standard error (not identifiable from its data) counts :data:`UNIDENTIFIED_REL_SD`,
   uncorrelated. The fixed latency delay and the WAFL affinity hold get their own standard errors. Stations from
   catalog numbers get their input tolerance (:data:`models.performance.discrepancy.INPUT_REL_SD`: drives,
   ports, service limits).
2. **Band of a figure** (:func:`band_factors`): the demands of every uncertain station are moved together to
   their P10 and P90 (log-normal, D exp(±1.2816 σ)), which moves latency, saturation and max IOPS at the SLO
   monotonically; the saturation at those two edges is the parameter band. Moving all together is the perfectly
   correlated case: wider than independent errors would give, so conservative.
3. **Model discrepancy** (:func:`models.performance.discrepancy.predictive_edges`): the saturation's edges' log
   distance from the prediction is combined in quadrature with z σ_d, σ_d the out-of-sample error of the
   profile's kind and the figure's bottleneck kind, so no band is zero-width.
4. **One band, two edge models** (:func:`models.performance.discrepancy.edge_scales`): each edge is one model of
   the path, its uncertain demands at their P10 / P90 and then every demand times the common factor k that makes
   it saturate at the saturation band's edge of step 3 (every demand times k divides the IOPS of every point by
   k and multiplies its latency by k). The same two models give the max IOPS at the SLO band (the open model's
   SLO crossing of each edge model, its ratio to the nominal crossing applied to the figure, no higher than the
   saturation band's edge) and the latency band of every curve point (k times the drawn latency at k times the
   IOPS, with the open model's ratio of the edge's uncertain demands to the nominal ones there). So the curve's
   pessimistic edge (its P90 latency) crosses the SLO where the P10 max IOPS at the SLO is and is saturated from
   the P10 saturation on: the band never shows a latency within the SLO at a load it says saturates the design.
"""


import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from models.catalog import PerfProfile

Z_P90 = 1.2815515655446004
"""The standard normal's 90th percentile: P10 / P90 = exp(-/+ z sigma) on a log-normal figure."""

ASSUMED_REL_SD = 0.5
"""Relative SD of an assumed engine constant that stands for a profile (vSAN's CPU costs, a managed service's
light-load latency): assumed; the model discrepancy of an assumed profile comes on top
(:mod:`models.performance.discrepancy`)."""

UNIDENTIFIED_REL_SD = 0.25
"""Relative SD of a fitted field whose data could not identify it (no standard error in the fit): assumed, a
quarter of its value (its out-of-sample error is in the discrepancy term)."""

PROFILE_DELAYS = frozenset({"fixed_latency"})
"""Roles (``StationSpec.ident.role``, :mod:`models.performance.stations`) of the delay stations whose time is a
profile's (or the vSAN path's, or a managed service's) fitted or assumed latency: the controller's fixed latency,
the vSAN software path, the service latency floor."""

PROFILE_KINDS = ("calibrated", "derived", "assumed", "hardware relation only")
"""How a performance profile was obtained, least to most uncertain."""


@dataclass(frozen=True)
class StationUncertainty:
    """Relative SD of the demands a profile governs on one workload's path.

    Attributes:
        profile: "calibrated" | "derived" | "assumed" | "hardware relation only".
        cpu_rel_sd: relative SD of the CPU stations' demand (kind "cpu").
        fixed_rel_sd: relative SD of the profile's fixed latency delay.
        basis: how it was obtained, in words (for notes and the report).
        affinity_rel_sd: relative SD of the WAFL affinity stations' demand (kind "affinity", the profile's
            ``affinity_hold_us``).
    """

    profile: str
    cpu_rel_sd: float
    fixed_rel_sd: float
    basis: str
    affinity_rel_sd: float = 0.0
    peak_iops: float | None = None
    """The system's IOPS ceiling on block workloads (``models.performance.hardware_relation.iops_ceiling``: its own
    published "up to" figure, or its family's published rate per core times its cores), an upper bound of every
    block workload on it: no band's upper end passes it (:func:`held_at_hard_limit`); None when there is none."""
    peak_name: str = ""
    """What ``peak_iops`` is, in words (for the band's basis)."""


def _identified(se: float | None, value: float) -> bool:
    """Whether a fitted field's standard error is usable (:func:`_rel`: present, value positive, se <= value)."""
    return se is not None and value > 0 and se <= value


def _rel(se: float | None, value: float) -> float:
    """Relative SD se / value of a fitted field; :data:`UNIDENTIFIED_REL_SD` when the fit could not identify it:
    no standard error, or one larger than the value itself (its 68% interval reaches 0: docs/uncertainty.md
    calls such an enormous standard error the soft form of "not identifiable")."""
    if se is None or not _identified(se, value):
        return UNIDENTIFIED_REL_SD
    return se / value


BAND_FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "cpu_write_per_kib_us", "fixed_latency_us")
"""Profile fields whose standard errors the CPU and fixed-latency bands combine (affinity_hold_us has its own)."""


def fitted_fields(profile: PerfProfile) -> tuple[str, ...]:
    """Those of :data:`BAND_FIELDS` (and ``affinity_hold_us``) that a fit set: their provenance names the fit
    (``Provenance.fit``), whatever their source text says."""
    return tuple(k for k in (*BAND_FIELDS, "affinity_hold_us") if profile.fit_of(k))


_UNCERTAINTIES: dict[tuple[int, str, float, float], tuple[PerfProfile, StationUncertainty]] = {}
_UNCERTAINTIES_SIZE = 1024


def profile_uncertainty(profile: PerfProfile, kind: str, block_kib: float, read_fraction: float
                        ) -> StationUncertainty:
    """The relative SDs of the CPU demand and fixed latency a profile gives a workload (module, step 1).

    Args:
        profile: the profile used; kind: its provenance (:data:`PROFILE_KINDS`, or a kind a newer engine
        names: its discrepancy is then the widest); block_kib: the workload's block size, KiB; read_fraction: 0..1.

    Remembered per (profile object, kind, block size, read fraction): the profile is frozen, and a design's
    workloads of one mix on one system ask for the same.
    """
    key = (id(profile), kind, float(block_kib), float(read_fraction))
    hit = _UNCERTAINTIES.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    value = _profile_uncertainty(profile, kind, block_kib, read_fraction)
    if len(_UNCERTAINTIES) >= _UNCERTAINTIES_SIZE:
        _UNCERTAINTIES.clear()
    _UNCERTAINTIES[key] = (profile, value)  # the profile is kept, so its id is not reused while it is here
    return value


def _profile_uncertainty(profile: PerfProfile, kind: str, block_kib: float, read_fraction: float
                         ) -> StationUncertainty:
    """:func:`profile_uncertainty` itself."""
    fitted = set(fitted_fields(profile))
    extra = max(block_kib - 8.0, 0.0)
    own_write_kib = profile.cpu_write_per_kib_us is not None  # a write's own per-KiB cost (else cpu_per_kib_us)
    write_kib = profile.cpu_write_per_kib_us if profile.cpu_write_per_kib_us is not None else profile.cpu_per_kib_us
    mean = read_fraction * (profile.cpu_read_us + profile.cpu_per_kib_us * extra) + \
        (1 - read_fraction) * (profile.cpu_write_us + write_kib * extra)
    kib_weights = ((("cpu_per_kib_us", read_fraction * extra), ("cpu_write_per_kib_us", (1 - read_fraction) * extra))
                   if own_write_kib else (("cpu_per_kib_us", extra),))
    weights = {f: w for f, w in (("cpu_read_us", read_fraction), ("cpu_write_us", 1 - read_fraction), *kib_weights)
               if f in fitted and w > 0}
    cpu = demand_rel_sd(profile, weights, mean)
    fixed = _rel(profile.stderr.get("fixed_latency_us"), profile.fixed_latency_us) \
        if "fixed_latency_us" in fitted else 0.0
    affinity = 0.0
    if profile.affinity_hold_us > 0 and profile.fit_of("affinity_hold_us"):
        affinity = _rel(profile.stderr.get("affinity_hold_us"), profile.affinity_hold_us)
    basis = {"calibrated": "fitted parameters' standard errors and correlations (delta method, full covariance)",
             "derived": "the profile's fitted standard errors and correlations (delta method, full covariance)",
             }.get(kind, "no fitted parameter")
    return StationUncertainty(kind, cpu, fixed, basis, affinity)


def demand_rel_sd(profile: PerfProfile, weights: Mapping[str, float], mean: float) -> float:
    """Relative SD of a demand sum(w_f x_f) over fitted fields f (``weights``: field -> weight, microseconds per
    I/O per unit of the field) of mean ``mean``: sqrt(w' Cov w) / mean, the delta method with the fit's full
    covariance (Cov_fg = se_f se_g rho_fg, :meth:`models.catalog.PerfProfile.covariance`; Bates & Watts 1988
    §2.3). A field that is not identifiable (:func:`_rel`) counts :data:`UNIDENTIFIED_REL_SD` of its value,
    uncorrelated with the others. 0 when ``mean`` is not positive."""
    if not mean > 0:
        return 0.0
    identified = [f for f in weights if _identified(profile.stderr.get(f), getattr(profile, f))]
    var = 0.0
    for f in identified:
        for g in identified:
            var += weights[f] * weights[g] * profile.covariance(f, g)
    for f in weights:
        if f not in identified:
            var += (UNIDENTIFIED_REL_SD * getattr(profile, f) * weights[f]) ** 2
    return math.sqrt(max(var, 0.0)) / mean


def demand_sd(stations: Sequence, uncertainty: StationUncertainty | None) -> np.ndarray:
    """(S,) relative SD of each station's demand: CPU stations (kind "cpu"), WAFL affinities (kind "affinity")
    and the profile's fixed latency delays (role in :data:`PROFILE_DELAYS`) get the profile's; the rest 0."""
    out = np.zeros(len(stations))
    if uncertainty is None:
        return out
    for k, spec in enumerate(stations):
        if spec.kind == "cpu":
            out[k] = uncertainty.cpu_rel_sd
        elif spec.kind == "affinity":
            out[k] = uncertainty.affinity_rel_sd
        elif spec.ident.role in PROFILE_DELAYS:
            out[k] = uncertainty.fixed_rel_sd
    return out


def band_factors(rel_sd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) demand multipliers exp(-/+ z sigma) per station (module, step 2); sigma is capped at 1
    (a factor of 3.6 either way) since :func:`_rel` already treats larger errors as unidentified."""
    rel_sd = np.minimum(np.asarray(rel_sd, dtype=float), 1.0)
    return np.exp(-Z_P90 * rel_sd), np.exp(Z_P90 * rel_sd)


@dataclass(frozen=True)
class Band:
    """A P10-P90 band of one figure; an edge is None where it does not exist (e.g. the P90 latency of a point
    the pessimistic edge saturates: shown as "saturated")."""

    p10: float | None
    p90: float | None
    limit: str = ""
    """The hard limit the P90 edge was held at, in words ("" when none was): :func:`held_at_hard_limit`."""


HARD_LIMIT_KINDS = frozenset({"port", "network", "datapath"})
"""Station kinds (``StationSpec.kind``, :mod:`models.performance.paths`) whose capacity in the workload's own I/Os
is a hard limit, not a soft part of the model: a front-end port's or link's bandwidth (host and target ports), a
network's (a vSAN host's or a cloud VM's published network rate) and a controller's published throughput (its data
path): each I/O puts a known number of bytes on them (its block, the copies a policy writes), so capacity / demand
is exact. With them the published caps of a managed service (:data:`HARD_LIMIT_ROLES`). No P90 edge passes them
(:func:`held_at_hard_limit`). Not among them: CPU and affinity stations (fitted or assumed costs), drives
(datasheet service times), the HA / NVRAM mirror (an assumed interconnect rate), back-end drive links and the disk
caps behind a Cloud Volumes ONTAP VM (a cloud disk's or the VM's IOPS / MB/s caps, the NVRAM log disk): the caps
are published, but how many disk operations and bytes an I/O makes (read-cache hits, write coalescing, NVRAM
logging) is the model's soft part; measured, Cloud Volumes ONTAP on Azure DS14_v2 / DS4_v2 streams 257 / 258 MB/s
of writes (NetApp's published result) where the model's log-disk cap allows 250 MB/s."""

HARD_LIMIT_ROLES = frozenset({"service_mbps", "service_ops", "service_iops"})
"""Station roles (``StationSpec.ident.role``) of a managed service's published per-volume caps (throughput,
operations, IOPS): the front door itself, counted in the workload's own I/Os and bytes, so hard limits whatever
their kind."""


def _is_hard(spec: object) -> bool:
    """Whether a station is a hard limit (:data:`HARD_LIMIT_KINDS`, :data:`HARD_LIMIT_ROLES`): a queueing
    station of such a kind or role."""
    if getattr(spec, "delay", False):
        return False
    ident = getattr(spec, "ident", None)
    return getattr(spec, "kind", "") in HARD_LIMIT_KINDS or getattr(ident, "role", "") in HARD_LIMIT_ROLES


def hard_limit(stations: Sequence, capacity: np.ndarray, demand: np.ndarray) -> tuple[float, int | None]:
    """The least throughput the hard-limit stations (:data:`HARD_LIMIT_KINDS`, :data:`HARD_LIMIT_ROLES`; queueing
    stations only) of a path
    allow: min over them of capacity / demand, in I/Os per second.

    Args:
        stations: the path's stations (``StationSpec``, their ``kind`` and ``delay``).
        capacity: (S,) each station's servers x copies; demand: (S,) each station's demand per I/O at the
            workload's mix, seconds (already multiplied by any state's or other workloads' factors).

    Returns (IOPS, index of the binding station); (inf, None) when no hard-limit station has work. The quotients in
    plain floats (the same IEEE divisions as numpy's), over the hard-limit stations only (:func:`_hard_indices`).
    """
    best, index = math.inf, None
    hard = _hard_indices(stations)
    if not hard:
        return best, index
    capacities, demands = capacity.tolist(), demand.tolist()
    for k in hard:
        d = demands[k]
        if not d > 0:
            continue
        value = capacities[k] / d
        if value < best:
            best, index = value, k
    return best, index


_HARD: dict[int, tuple[Sequence, tuple[int, ...]]] = {}


def _hard_indices(stations: Sequence) -> tuple[int, ...]:
    """The indices of ``stations``' hard-limit stations (:func:`_is_hard`), in order; remembered per stations object
    (a path's tuple, interned: ``models.performance.paths.intern_stations``), which is kept so its id is not
    reused while here."""
    hit = _HARD.get(id(stations))
    if hit is not None and hit[0] is stations:
        return hit[1]
    found = tuple(k for k, spec in enumerate(stations) if _is_hard(spec))
    if len(_HARD) >= 4096:
        _HARD.clear()
    _HARD[id(stations)] = (stations, found)
    return found


def held_at_hard_limit(band: Band, limit_iops: float, name: str) -> Band:
    """``band`` (of an IOPS figure: saturation or max IOPS at the SLO) with its P90 edge no higher than the hard
    limit ``limit_iops`` (:func:`hard_limit`), and the limit named in ``limit`` when it held the edge. A band
    describes the uncertainty of the model's soft parts (CPU costs, latencies, the model's measured error); a
    port's bandwidth or a published cap is not uncertain, so the figure cannot be above it. The P10 edge and the
    nominal figure are at or below the limit already (the nominal is the least capacity of every station)."""
    if band.p90 is None or not math.isfinite(limit_iops) or band.p90 <= limit_iops:
        return band
    p10 = band.p10 if band.p10 is None else min(band.p10, limit_iops)
    return Band(p10, limit_iops, f"{name} at {limit_iops:,.0f} IOPS")


def hard_limit_note(*bands: Band) -> str:
    """The sentence a band's basis adds when a hard limit held an upper edge (:func:`held_at_hard_limit`), "" when
    none did."""
    limits = list(dict.fromkeys(b.limit for b in bands if b.limit))
    if not limits:
        return ""
    return ("upper end held at the hard limit of " + " and ".join(limits) + ": a port's, link's or network's "
            "bandwidth, a service's published cap and a vendor's published 'up to' figure are not uncertain, so the "
            "band stops there")


def ordered(low: float | None, nominal: float | None, high: float | None) -> Band:
    """The band around ``nominal`` from its pessimistic-side value ``low`` and optimistic-side value ``high``
    (for IOPS figures; for a latency pass them the other way round), clamped so that P10 <= nominal <= P90. A
    None edge stays None (e.g. the pessimistic edge never meets the SLO); a None nominal gives an empty band."""
    if nominal is None:
        return Band(None, None)
    p10 = min(low, nominal) if low is not None and math.isfinite(low) else None
    p90 = max(high, nominal) if high is not None and math.isfinite(high) else None
    return Band(p10, p90)


def as_mapping(band: Band) -> Mapping[str, float | None]:
    """{"p10": ..., "p90": ...} for serialisation."""
    return {"p10": band.p10, "p90": band.p90}

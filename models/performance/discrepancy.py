"""Model discrepancy: how far the performance model's predictions fall from published measurements it was not fitted
to, by profile kind and bottleneck kind, and the input tolerances of the numbers the catalog gives (drives, ports,
service limits). Together with the parameter uncertainty of :mod:`models.performance.bands` they make the
predictive P10-P90 band (docs/uncertainty.md, "Predictive bands").

The discrepancy table holds one relative standard deviation sigma (of log(predicted / published)) per
(profile kind, bottleneck kind) cell that has enough out-of-sample points, one per profile kind, and one pooled over
everything. It is estimated from the leave-one-out residuals (:mod:`models.validation.band_coverage`,
:func:`models.validation.band_coverage.estimate_table`) by ``storplan calibrate --write`` and stored beside the
cross-validation results (``resources/validation/band_discrepancy.toml``). :meth:`DiscrepancyTable.sigma` looks a
figure's sigma up: its cell, else its profile kind, else (an unknown kind) the widest kind's.

A figure's predictive band combines, in log space, its parameter-and-input band (the station demands at their P10 /
P90 edges, :func:`models.performance.bands.band_factors`) and the discrepancy: each edge's log distance from the
prediction a becomes sqrt(a^2 + (z sigma)^2) (:func:`predictive_edges`; independent errors add in variance).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.resources import validation_dir

Z_P90 = 1.2815515655446004
"""The standard normal's 90th percentile (as :data:`models.performance.bands.Z_P90`)."""

FILE_NAME = "band_discrepancy.toml"
"""The stored table, beside the cross-validation results."""

BOTTLENECK_KINDS = ("CPU", "affinity", "drives", "ports", "service limit")
"""What bounds a figure, in the words the table is keyed by."""

STATION_BOTTLENECK = {"cpu": "CPU", "affinity": "affinity", "drive": "drives", "cache": "drives",
                      "port": "ports", "network": "ports", "backend": "ports", "datapath": "ports", "nvram": "ports",
                      "disk": "service limit"}
"""Station kind (``StationSpec.kind``) -> bottleneck kind. "disk" stations are the published caps of a cloud VM,
disk or managed volume (operations or MB/s per second); "network" a link or VM network rate."""

CATALOG_BOUND = ("drives", "ports", "service limit")
"""Bottleneck kinds whose capacity is a catalog number, not a profile's fitted demand."""

SERVICE_ROLES = frozenset({"service_mbps", "service_ops", "service_iops"})
"""Station roles (``StationSpec.ident.role``) that are a service's or a software path's published limit whatever
their kind (a managed volume's throughput limit is a "network" station)."""

INPUT_REL_SD = {"drives": 0.15, "ports": 0.05, "service limit": 0.05}
"""Relative SD of a catalog-given station demand (not fitted), by bottleneck kind. Assumptions, stated:

* drives 15%: a drive's per-I/O service time comes from datasheet figures ("up to" random IOPS and MB/s, measured
  by the vendor fresh out of the box) or, where none is published, from an assumed value; steady-state random
  performance after preconditioning differs from those by tens of percent (the reason the SNIA Solid State Storage
  Performance Test Specification, section 3, requires preconditioning to steady state before measuring);
* ports 5%: a link's line rate is exact, but the payload rate the catalog derives from it (encoding, framing,
  protocol headers) is an estimate within a few percent;
* service limit 5%: a published cap (a cloud VM's or disk's IOPS or MB/s, a managed volume's throughput) is
  enforced by the provider; measured throughput lands at or a few percent below it.
"""

EXACT_SIGMA = 0.0
"""A figure is exact by definition only when its sigma and its parameter band are both 0; no entry of the table
built from published results is 0 (:func:`models.validation.band_coverage.estimate_table` needs at least four
points, and published results are never all matched exactly)."""

DEFAULT_SIGMA = {"calibrated": 0.15, "derived": 0.45, "assumed": 1.3}
"""assumed: used only when no table is stored (a fresh checkout before ``storplan calibrate --write``): the order of
the stored table's by-kind values."""


@dataclass(frozen=True)
class DiscrepancyTable:
    """Model-discrepancy sigmas (relative SD of log(predicted / published)).

    Attributes:
        cells: {(profile kind, bottleneck kind): sigma} where a cell had enough points; kinds: {profile kind: sigma};
        pooled: sigma over every point; counts: {(profile kind, bottleneck kind or ""): (points, cases)} behind
        each entry; basis: how it was estimated, in words; inputs_sha256: the cross-validation inputs it came from;
        sparse: profile kinds seen in too few points for their own sigma (they take the pooled one);
        bottlenecks: {bottleneck kind: sigma} pooled over the profile kinds, for the kinds the catalog's figures
        bound (:data:`CATALOG_BOUND`), where enough points had one.
    """

    cells: Mapping[tuple[str, str], float]
    kinds: Mapping[str, float]
    pooled: float
    counts: Mapping[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    basis: str = ""
    inputs_sha256: str = ""
    sparse: frozenset[str] = frozenset()
    bottlenecks: Mapping[str, float] = field(default_factory=dict)

    def sigma(self, profile_kind: str, bottleneck_kind: str) -> float:
        """The sigma of a figure: its (profile kind, bottleneck kind) cell; else, for a figure a catalog number
        bounds (drives, ports, service limit: the profile's provenance does not set it), its bottleneck kind's
        pooled over the profile kinds; else its profile kind's; else the pooled one (a kind seen in too few
        points, :attr:`sparse`); else the widest kind's (a kind the table has never seen, e.g. a new one, or ""
        for a path no profile governs)."""
        cell = self.cells.get((profile_kind, bottleneck_kind))
        if cell is not None:
            return cell
        neck = self.bottlenecks.get(bottleneck_kind) if bottleneck_kind in CATALOG_BOUND else None
        if neck is not None:
            return neck
        kind = self.kinds.get(profile_kind)
        if kind is not None:
            return kind
        if profile_kind in self.sparse:
            return self.pooled
        return max([*self.kinds.values(), self.pooled])

    def source(self, profile_kind: str, bottleneck_kind: str) -> str:
        """Which entry :meth:`sigma` reads, in words (for notes)."""
        if (profile_kind, bottleneck_kind) in self.cells:
            return f"{profile_kind} profiles bound by {bottleneck_kind}"
        if bottleneck_kind in CATALOG_BOUND and bottleneck_kind in self.bottlenecks:
            return f"figures bound by {bottleneck_kind}"
        if profile_kind in self.kinds:
            return f"{profile_kind} profiles"
        if profile_kind in self.sparse:
            return "every profile kind pooled (too few published results of this kind)"
        return "the widest profile kind (no published result of this kind)"


def default_table() -> DiscrepancyTable:
    """The table used when none is stored (:data:`DEFAULT_SIGMA`)."""
    return DiscrepancyTable({}, dict(DEFAULT_SIGMA), max(DEFAULT_SIGMA.values()),
                            basis="assumed defaults (no stored table)")


def table_toml(table: DiscrepancyTable, computed_utc: str = "") -> str:
    """The stored TOML text of a table (sigmas to 4 significant digits)."""
    lines = ["# Model discrepancy of the performance predictions: relative SD of log(predicted / published) over the",
             "# leave-one-out points, by profile kind and bottleneck kind. Written by 'storplan calibrate --write';",
             "# read by the engine's P10-P90 bands. Do not edit.",
             f"basis = {_q(table.basis)}", f"inputs_sha256 = {_q(table.inputs_sha256)}",
             f"computed_utc = {_q(computed_utc)}", f"pooled = {_num(table.pooled)}",
             "sparse = [" + ", ".join(_q(k) for k in sorted(table.sparse)) + "]", ""]
    for kind, sigma in sorted(table.kinds.items()):
        n, c = table.counts.get((kind, ""), (0, 0))
        lines += ["[[kind]]", f"profile = {_q(kind)}", f"sigma = {_num(sigma)}", f"points = {n}", f"cases = {c}", ""]
    for neck, sigma in sorted(table.bottlenecks.items()):
        n, c = table.counts.get(("", neck), (0, 0))
        lines += ["[[bottleneck]]", f"kind = {_q(neck)}", f"sigma = {_num(sigma)}", f"points = {n}", f"cases = {c}",
                  ""]
    for (kind, bottleneck), sigma in sorted(table.cells.items()):
        n, c = table.counts.get((kind, bottleneck), (0, 0))
        lines += ["[[cell]]", f"profile = {_q(kind)}", f"bottleneck = {_q(bottleneck)}", f"sigma = {_num(sigma)}",
                  f"points = {n}", f"cases = {c}", ""]
    return "\n".join(lines)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _num(x: float) -> str:
    return repr(float(f"{x:.4g}"))


def parse_table(text: str, where: str = FILE_NAME) -> DiscrepancyTable:
    """A table from its TOML text.

    Raises:
        ValueError: not TOML, a field missing, or a sigma negative or not finite (the message names ``where``).
    """
    try:
        data = tomllib.loads(text)
        kinds = {k["profile"]: float(k["sigma"]) for k in data.get("kind", [])}
        cells = {(c["profile"], c["bottleneck"]): float(c["sigma"]) for c in data.get("cell", [])}
        counts = {(k["profile"], ""): (int(k.get("points", 0)), int(k.get("cases", 0))) for k in data.get("kind", [])}
        counts.update({(c["profile"], c["bottleneck"]): (int(c.get("points", 0)), int(c.get("cases", 0)))
                       for c in data.get("cell", [])})
        pooled = float(data["pooled"])
        sparse = frozenset(str(k) for k in data.get("sparse", []))
        necks = {b["kind"]: float(b["sigma"]) for b in data.get("bottleneck", [])}
        counts.update({("", b["kind"]): (int(b.get("points", 0)), int(b.get("cases", 0)))
                       for b in data.get("bottleneck", [])})
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: cannot read the band discrepancy table ({exc})") from exc
    bad = [v for v in (*kinds.values(), *cells.values(), *necks.values(), pooled) if not (math.isfinite(v) and v >= 0)]
    if bad:
        raise ValueError(f"{where}: a discrepancy sigma must be finite and >= 0, got {bad[0]!r}")
    return DiscrepancyTable(cells, kinds, pooled, counts, str(data.get("basis", "")),
                            str(data.get("inputs_sha256", "")), sparse, necks)


_LOADED: dict[str, DiscrepancyTable] = {}


def stored_table(path: Path | None = None) -> DiscrepancyTable:
    """The stored table (read once per path), or :func:`default_table` when there is none.

    Raises:
        ValueError: the file exists but cannot be read (:func:`parse_table`)."""
    if path is None:
        hit = _LOADED.get("")
        if hit is not None:  # the bundled table: no path built on the engine's hot path
            return hit
    key = "" if path is None else str(path)
    hit = _LOADED.get(key)
    if hit is not None:
        return hit
    path = path or validation_dir() / FILE_NAME
    table = parse_table(path.read_text(encoding="utf-8"), str(path)) if path.exists() else default_table()
    _LOADED[key] = table
    return table


def bottleneck_kind(kind: str, role: str = "") -> str:
    """The bottleneck kind of a station from its kind and role (:data:`STATION_BOTTLENECK`,
    :data:`SERVICE_ROLES`); "" for a station of another kind (a delay never bounds throughput)."""
    if role in SERVICE_ROLES:
        return "service limit"
    return STATION_BOTTLENECK.get(kind, "")


_INPUT_SD: dict[int, tuple[Sequence, np.ndarray]] = {}
_INPUT_SD_SIZE = 4096


def input_rel_sd(stations: Sequence) -> np.ndarray:
    """(S,) per station (``StationSpec``), the relative SD of its catalog-given demand (:data:`INPUT_REL_SD`):
    drives, ports and service limits; 0 for CPU, affinity and delays (their uncertainty is the profile's).
    Remembered per stations object (a path's tuple, asked again by every band of the workload); do not modify
    the returned array."""
    hit = _INPUT_SD.get(id(stations))
    if hit is not None and hit[0] is stations:
        return hit[1]
    out = np.array([0.0 if spec.delay else INPUT_REL_SD.get(bottleneck_kind(spec.kind, spec.ident.role), 0.0)
                    for spec in stations], dtype=float)
    if len(_INPUT_SD) >= _INPUT_SD_SIZE:
        _INPUT_SD.clear()
    _INPUT_SD[id(stations)] = (stations, out)  # kept, so the id is not reused while it is here
    return out


def predictive_edges(nominal: float, low: float | None, high: float | None, sigma: float
                     ) -> tuple[float | None, float | None]:
    """(P10, P90) of a positive figure from its parameter band's edges ``low`` <= nominal <= ``high`` (None: no
    edge, kept None) and the discrepancy ``sigma``: each edge's log distance a from ``nominal`` becomes
    sqrt(a^2 + (z sigma)^2). A non-positive or non-finite nominal is returned as its own band."""
    if not (math.isfinite(nominal) and nominal > 0):
        return low, high
    spread = Z_P90 * sigma
    out: list[float | None] = []
    for edge, sign in ((low, -1.0), (high, 1.0)):
        if edge is None or not math.isfinite(edge) or edge <= 0:
            out.append(None if edge is None or not math.isfinite(edge) else edge)
            continue
        a = abs(math.log(edge / nominal))
        out.append(nominal * math.exp(sign * math.hypot(a, spread)))
    return out[0], out[1]


def figure_sigma(profile_kind: str, stations: Sequence, bottleneck: int | None,
                 table: DiscrepancyTable | None = None) -> float:
    """The discrepancy sigma of a workload's figures: the table's (:meth:`DiscrepancyTable.sigma`) for its profile
    kind ("" when no profile governs the path: the widest) and the bottleneck kind of station ``bottleneck``
    (index into ``stations``; None: no queueing station, the profile kind's)."""
    table = table or stored_table()
    kind = ""
    if bottleneck is not None:
        spec = stations[bottleneck]
        kind = bottleneck_kind(spec.kind, spec.ident.role)
    return table.sigma(profile_kind, kind)


def widened_figures(sat: float, sat_band: tuple[float | None, float | None], max_slo: float | None,
                    slo_band: tuple[float | None, float | None], sigma: float
                    ) -> tuple[tuple[float | None, float | None], tuple[float | None, float | None]]:
    """The predictive bands ((P10, P90) of the saturation, of the max IOPS at the SLO) from their parameter bands
    and ``sigma`` (:func:`predictive_edges`); an edge of the max IOPS at the SLO is kept no higher than the
    saturation's same edge (the max at the SLO never exceeds the saturation)."""
    sat_out = predictive_edges(sat, *sat_band, sigma) if math.isfinite(sat) else sat_band
    if max_slo is None:
        return sat_out, slo_band
    lo, hi = predictive_edges(max_slo, *slo_band, sigma)
    if lo is not None and sat_out[0] is not None:
        lo = min(lo, sat_out[0])
    if hi is not None and sat_out[1] is not None:
        hi = max(min(hi, sat_out[1]), max_slo)
    return sat_out, (lo, hi)


def edge_scales(sat: float, param_edges: tuple[float, float], predictive: tuple[float | None, float | None],
                sigma: float) -> tuple[float, float]:
    """The common demand multipliers (pessimistic k >= 1, optimistic k <= 1) that carry a band's two edge models
    from the parameter band to the predictive band: the pessimistic edge is the path with the uncertain demands at
    their P90 (saturating at ``param_edges[0]``) and then every demand times k, so that it saturates exactly at the
    predictive saturation band's P10 ``predictive[0]`` (k = param_edges[0] / predictive[0]); the optimistic edge
    alike with P90. Multiplying every demand by k divides each IOPS of the curve by k and multiplies its latency by
    k (the queues' times scale together), so the same two edge models give the saturation band, the max IOPS at the
    SLO band and the latency band of every curve point. Where the saturation is not finite (no station queues):
    exp(+/- z sigma), the discrepancy alone."""
    spread = Z_P90 * sigma
    out = [math.exp(spread), math.exp(-spread)]
    if math.isfinite(sat) and sat > 0:
        for i, (param, edge) in enumerate(zip(param_edges, predictive)):
            if edge is not None and math.isfinite(edge) and edge > 0 and math.isfinite(param) and param > 0:
                out[i] = param / edge
    return out[0], out[1]


_BASES: dict[tuple[int, str, str, int | None, int], tuple[Sequence, DiscrepancyTable, str]] = {}


def band_basis(parameter_basis: str, profile_kind: str, stations: Sequence, bottleneck: int | None,
               table: DiscrepancyTable | None = None) -> str:
    """How a workload's band was obtained, in a customer's words: the parameter part (``parameter_basis``, ""
    when no profile governs the path), the catalog tolerances of the station kinds on the path, and the model
    error measured out of sample that the band adds, with its P10-P90 factor and which published results it
    comes from. Remembered per stations object, table and arguments (every evaluation of a path asks again)."""
    table = table or stored_table()
    key = (id(stations), parameter_basis, profile_kind, bottleneck, id(table))
    hit = _BASES.get(key)
    if hit is not None and hit[0] is stations and hit[1] is table:
        return hit[2]
    text = _band_basis(parameter_basis, profile_kind, stations, bottleneck, table)
    if len(_BASES) >= _INPUT_SD_SIZE:
        _BASES.clear()
    _BASES[key] = (stations, table, text)  # both kept, so their ids are not reused while here
    return text


def _band_basis(parameter_basis: str, profile_kind: str, stations: Sequence, bottleneck: int | None,
                table: DiscrepancyTable) -> str:
    """:func:`band_basis` itself."""
    sigma = figure_sigma(profile_kind, stations, bottleneck, table)
    kind = ""
    if bottleneck is not None:
        kind = bottleneck_kind(stations[bottleneck].kind, stations[bottleneck].ident.role)
    present = sorted({bottleneck_kind(s.kind, s.ident.role) for s in stations if not s.delay} & set(INPUT_REL_SD),
                     key=list(INPUT_REL_SD).index)
    parts = [parameter_basis] if parameter_basis else []
    if present:
        parts.append("catalog figures' tolerances (" + ", ".join(f"{k} {INPUT_REL_SD[k]:.0%}" for k in present)
                     + " relative SD, assumed)")
    factor = math.exp(Z_P90 * sigma)
    if sigma <= EXACT_SIGMA:
        parts.append("no model error: the figure is exact by definition (a limit the model only restates)")
        return "; ".join(parts)
    parts.append(f"model error measured on published results left out of the calibration, for "
                 f"{table.source(profile_kind, kind)}: a factor of {factor:.2f} either way at P10-P90")
    return "; ".join(parts)

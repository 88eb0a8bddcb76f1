"""The fitter: a controller's PerfProfile fitted to measured (IOPS, latency) points with the engine's own model.

The residuals are computed by building the scenario's stations (``models.performance.build_path``) and solving
its closed ramp (``models.performance.ramp``), the same functions ``evaluate_performance`` uses, with the
candidate profile placed in the catalog. Continuous parameters (CPU demand per I/O, fixed latency) are fitted
by ``scipy.optimize.least_squares`` (trust-region reflective, bounded; Branch, Coleman & Li 1999); the integer
parallelism ``servers_per_node`` by a grid over integers (coarse, then refined around the best), each grid
point with its own least-squares fit; :func:`parameter_stderr` gives the fitted parameters' standard errors.

:func:`fit_profile` is the generic entry point (scenarios, observations, parameters to fit); :func:`fit_from_csv`
fits a user's lab data (CSV with ``iops`` and ``latency_ms`` columns) for one workload of a scenario.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from models.bounded_read import CsvLimits, FileRefusedError, csv_rows, detect_delimiter, read_text
from models.capacity.layout import RaidLayout, raid_layouts
from models.catalog import Catalog, CloudVm, Controller, PerfProfile, Provenance, bundled_catalog
from models.performance import build_path, latency_at_iops, ramp
from models.performance.engine import Ramp, open_latency_ms, open_shape_ms
from models.performance.public_ramps import SHAPE_LIGHT_SHARE
from models.project.model import Scenario

if TYPE_CHECKING:
    from models.performance.paths import WorkloadPath

WRITE_TO_READ_CPU = 2.0
"""assumed: an ONTAP write costs twice a read's CPU (NVLOG, HA mirroring, consistency-point work). The seeds'
on-premises tests are read-mostly (90/10, 100/0), so this ratio cannot be fitted from them."""

FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "fixed_latency_us")

EXTRA_FIELDS = ("cpu_write_per_kib_us", "sequential_cpu_factor", "affinity_hold_us", "affinity_hold_scv",
                "core_contention")
"""Optional PerfProfile fields a fit may set (fitted, or held in ``ProfileSpec.fixed``); a profile that sets none
keeps the schema default and its catalog text does not name them."""

SERVER_GRID = (1, 2, 4, 8, 16, 32, 64)
"""Coarse grid of servers_per_node values; the best is refined over its integer neighbours."""


MAX_LISTED_POINTS = 40
"""A fit's source names at most this many of its points (a lab CSV may hold 10,000): the rest are counted ("and N
more"), so the text stays within a record's source limit (``models.catalog.schema.Provenance``)."""


class CalibrationError(ValueError):
    """The data cannot be fitted (no points, unknown controller, a point the model cannot reach...)."""


@dataclass(frozen=True)
class Observation:
    """One measured fact about a scenario's ramp.

    Attributes:
        scenario: key of the scenario (in the ``scenarios`` mapping given to the fit).
        kind: "latency_at_iops" (value = latency ms at ``iops``), "peak_iops" (IOPS at the ramp's end),
            "peak_latency" (latency ms at the ramp's end), "latency_upper_bound" (latency at ``iops`` <= value),
            "custom" (``fn(ramps) -> residual``), "open_latency_at_iops" (value = latency ms at ``iops`` in the
            open model, :func:`models.performance.engine.open_latency_ms`: a load level of a benchmark that
            offers a set rate, such as SPECstorage's; no closed ramp is run for its scenario),
            "open_shape_ratio" (value = the open model's latency at ``share`` x its own saturation over its
            latency at :data:`SHAPE_LIGHT_SHARE` x it: a published ramp's shape, e.g. latency at 80% of the peak
            over that at 10%).
        value: the measured number; iops: where it was measured; host_side: compare host-side latency.
        weight: residual multiplier.
        checks: the validation checks (published.toml case id, quantity) whose published number this
            observation is, or is implied by (a published ratio of two fitted numbers): those checks are
            in-sample, and leaving their case out of the fit drops this observation.
    """

    scenario: str
    kind: str
    value: float = 0.0
    iops: float = 0.0
    host_side: bool = False
    weight: float = 1.0
    fn: Callable[[dict[str, Ramp]], float] | None = None
    label: str = ""
    checks: tuple[tuple[str, str], ...] = ()
    share: float = 0.0


def _latency(r: Ramp, host: bool) -> np.ndarray:
    return r.host_ms if host else r.storage_ms


def residual(obs: Observation, ramps: dict[str, Ramp]) -> float:
    """Relative residual of one observation (0 = met). Unreachable IOPS give a penalty proportional to the
    shortfall, so the optimiser is pulled towards more capacity."""
    if obs.kind == "custom":
        assert obs.fn is not None
        return obs.weight * obs.fn(ramps)
    if obs.kind in OPEN_KINDS:
        raise CalibrationError("an open-model observation needs its path: use open_residual")
    r = ramps[obs.scenario]
    lat = _latency(r, obs.host_side)
    if obs.kind == "peak_iops":
        return obs.weight * (r.iops[-1] - obs.value) / obs.value
    if obs.kind == "peak_latency":
        return obs.weight * (lat[-1] - obs.value) / obs.value
    model = latency_at_iops(r.iops, lat, obs.iops)
    if model is None:
        short = (obs.iops - r.iops[-1]) / obs.iops
        model_lat = lat[-1]
        base = (model_lat - obs.value) / obs.value if obs.kind == "latency_at_iops" else 0.0
        return obs.weight * (base + 5.0 * short)
    if obs.kind == "latency_at_iops":
        return obs.weight * (model - obs.value) / obs.value
    if obs.kind == "latency_upper_bound":
        return obs.weight * max(0.0, (model - obs.value) / obs.value)
    raise CalibrationError(f"unknown observation kind '{obs.kind}'")


OPEN_SATURATED_PENALTY = 5.0
"""Residual of an open-model observation whose load is at or past the candidate's saturation (the optimiser is
pushed back to where the model carries the load; larger than any residual a point the model carries gives)."""


OPEN_KINDS = ("open_latency_at_iops", "open_shape_ratio")
"""Observation kinds computed on the open model of their scenario's path (no closed ramp)."""


def open_residual(obs: Observation, path: WorkloadPath) -> float:
    """Relative residual of an "open_latency_at_iops" or "open_shape_ratio" observation on its scenario's built
    path (``models.performance.WorkloadPath``): (model - value) / value, or :data:`OPEN_SATURATED_PENALTY` when
    the model is saturated at ``obs.iops`` (or has no finite saturation, for a shape)."""
    if obs.kind == "open_shape_ratio":
        _, latency = open_shape_ms(path, (SHAPE_LIGHT_SHARE, obs.share), obs.host_side)
        light, at = latency[SHAPE_LIGHT_SHARE], latency[obs.share]
        if light is None or at is None or light <= 0:
            return obs.weight * OPEN_SATURATED_PENALTY
        return obs.weight * (at / light - obs.value) / obs.value
    model = open_latency_ms(path, obs.iops, obs.host_side)
    if model is None:
        return obs.weight * OPEN_SATURATED_PENALTY
    return obs.weight * (model - obs.value) / obs.value


@dataclass
class ProfileSpec:
    """Which record and profile a fit is for, and how parameters map onto it.

    ``fit`` lists the continuous fields fitted (of :data:`FIELDS` and :data:`EXTRA_FIELDS`, or the ratio
    ``write_to_read_cpu`` with ``per_kib_only``); ``fixed`` gives the others; with ``write_ratio`` set, cpu_write_us =
    write_ratio x cpu_read_us instead of being fitted; with ``per_kib_only`` set, the CPU cost is proportional to the
    bytes an I/O moves: cpu_read_us = 8 x cpu_per_kib_us, cpu_write_per_kib_us = w x cpu_per_kib_us and cpu_write_us
    = 8 x cpu_write_per_kib_us, where w is the fitted ``write_to_read_cpu``, else ``write_ratio``, else 1 (see
    ``models.calibration.seed_profiles.CVO_POOLED_MODEL``). ``held_notes`` gives the
    provenance of a held field or of a held servers_per_node: a text (kind "assumed", the text its reason) or a
    :class:`~models.catalog.Provenance` (e.g. "derived" from another fit's value by a stated ratio);
    ``max_servers`` caps the servers_per_node grid value (:meth:`servers_for`). With ``affinity_grid`` set, the
    integer grid of :func:`fit_profile` sets ``affinities_per_node`` instead (servers_per_node is then ``servers``,
    held).
    """

    record_id: str
    software: str
    protocol: str
    fit: tuple[str, ...]
    x0: dict[str, float]
    fixed: dict[str, float] = field(default_factory=dict)
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    write_ratio: float | None = None
    servers: int | None = None
    held_notes: Mapping[str, str | Provenance] = field(default_factory=dict)
    max_servers: int | None = None
    per_kib_only: bool = False
    affinity_grid: bool = False

    def servers_for(self, grid_value: int) -> int:
        """The integer this spec takes at a grid value (servers_per_node, or affinities_per_node with
        ``affinity_grid``): ``servers`` when servers_per_node is held and gridded, else the grid value capped at
        ``max_servers`` (e.g. a VM's vCPU count when several VMs share one grid value, :func:`fit_profile`
        with ``shared=True``)."""
        if self.servers and not self.affinity_grid:
            return self.servers
        return min(grid_value, self.max_servers) if self.max_servers else grid_value

    def held(self, name: str, default: str) -> Provenance:
        """The provenance of a held field: ``held_notes[name]`` (a text is an assumption's reason), else
        ``default`` as an assumption's reason."""
        note = self.held_notes.get(name, default)
        return note if isinstance(note, Provenance) else Provenance(kind="assumed", source=note)

    def profile(self, x: Sequence[float] | np.ndarray, servers: int, source: str = "",
                provenance: dict[str, Provenance] | None = None, stderr: dict[str, float] | None = None,
                stderr_basis: str = "", fit_name: str = "",
                correlation: dict[tuple[str, str], float] | None = None) -> PerfProfile:
        """The `PerfProfile` for fitted values ``x`` (one per name in ``fit``, in order, microseconds).

        ``servers`` is the node's CPU parallelism (servers_per_node). Fields not fitted come from ``fixed``
        (cpu_per_kib_us and fixed_latency_us default to 0); with ``write_ratio`` set, cpu_write_us =
        write_ratio x cpu_read_us. Negative values are clipped to 0. ``source`` is the provenance text; when
        ``provenance`` is not given, each field's says whether the fit set it (kind "calibrated", ``fit`` =
        ``fit_name`` or ``source``: a field fitted, or tied to a fitted one by the fit's model, such as
        cpu_write_us = write_ratio x cpu_read_us, whose standard error the fit propagates) or it was held
        (:meth:`held`: "assumed", or the provenance ``held_notes`` gives).
        ``stderr`` (fitted field -> standard error, same unit) and its ``stderr_basis`` text come from
        :func:`fit_profile`; with ``write_ratio`` set, cpu_write_us's standard error is write_ratio x cpu_read_us's.
        ``correlation`` ((field, field) -> correlation of their estimates, :func:`parameter_correlation`) is kept
        for the fields whose standard errors are the fit's own (cpu_write_us tied to cpu_read_us shares its
        correlations, and has 1 with it); a per-KiB-only fit's derived fields keep none (the bands count them
        uncorrelated).
        """
        values = dict(self.fixed)
        values.update({k: float(v) for k, v in zip(self.fit, x)})
        if self.write_ratio is not None and not self.per_kib_only:
            values["cpu_write_us"] = values["cpu_read_us"] * self.write_ratio
        ratio = values.pop("write_to_read_cpu", self.write_ratio)  # fitted (a name in ``fit``) or held
        if self.per_kib_only:
            ratio = 1.0 if ratio is None else ratio
            values["cpu_read_us"] = 8.0 * values["cpu_per_kib_us"]
            values["cpu_write_us"] = 8.0 * ratio * values["cpu_per_kib_us"]
            values["cpu_write_per_kib_us"] = ratio * values["cpu_per_kib_us"]
        values.setdefault("cpu_per_kib_us", 0.0)
        values.setdefault("fixed_latency_us", 0.0)
        affinities = 1
        if self.affinity_grid:
            affinities, servers = int(servers), int(self.servers or servers)
        what = source or "calibration"
        name = fit_name or what

        def fitted(how: str = "") -> Provenance:
            return Provenance(kind="calibrated", source=f"{how}; {what}" if how else what, fit=name)

        srcs: dict[str, Provenance] = dict(provenance or {})
        if not srcs:
            for k in FIELDS:
                if k in self.fit:
                    srcs[k] = fitted()
                elif k == "cpu_read_us" and self.per_kib_only:
                    srcs[k] = fitted("8 x the fitted cpu_per_kib_us (the fit's model: CPU cost proportional to the "
                                     "bytes an I/O moves)")
                elif k == "cpu_write_us" and self.per_kib_only:
                    srcs[k] = fitted("8 x cpu_write_per_kib_us (the fit's model: CPU cost proportional to the bytes "
                                     "an I/O moves)")
                elif k == "cpu_write_us" and self.write_ratio is not None:
                    srcs[k] = fitted(f"{self.write_ratio:g} x the fitted cpu_read_us (the ratio assumed: writes "
                                     "cannot be told apart from reads in the fitted data)")
                elif k in self.held_notes:
                    srcs[k] = self.held(k, "")
                elif k == "cpu_per_kib_us" and k not in self.fixed:
                    srcs[k] = Provenance(kind="assumed", source="no per-KiB cost (not fitted)")
                else:
                    srcs[k] = Provenance(kind="assumed", source=f"held at {values.get(k, 0.0):g} during this fit "
                                                                "(not identifiable from its data)")
            srcs["servers_per_node"] = fitted("grid over integers") if self.servers is None else \
                self.held("servers_per_node", f"held at {servers} during this fit")
            if self.affinity_grid:
                srcs["affinities_per_node"] = fitted("grid over integers")
        if self.per_kib_only and "cpu_write_per_kib_us" not in srcs:
            how = ("the fitted write_to_read_cpu" if "write_to_read_cpu" in self.fit else
                   f"write_to_read_cpu {ratio:g} (held)")
            srcs["cpu_write_per_kib_us"] = fitted(f"{how} ({ratio:.3f}) x the fitted cpu_per_kib_us")
        errors = {k: float(v) for k, v in (stderr or {}).items() if k in self.fit and k != "write_to_read_cpu"}
        if errors and self.write_ratio is not None and "cpu_read_us" in errors:
            errors["cpu_write_us"] = errors["cpu_read_us"] * self.write_ratio
        if self.per_kib_only and ratio is not None and "cpu_per_kib_us" in errors:
            # delta method on w x pk, ignoring the covariance of w and pk
            se_w = float((stderr or {}).get("write_to_read_cpu", 0.0))
            se_wk = math.hypot(ratio * errors["cpu_per_kib_us"], values["cpu_per_kib_us"] * se_w)
            errors.update(cpu_read_us=8.0 * errors["cpu_per_kib_us"], cpu_write_per_kib_us=se_wk,
                          cpu_write_us=8.0 * se_wk)
        corr = _kept_correlation(correlation or {}, errors, self.write_ratio is not None and not self.per_kib_only,
                                 self.per_kib_only)
        if errors or stderr_basis:
            srcs = {**srcs, "stderr": Provenance(kind="calibrated", source=stderr_basis or "least-squares covariance "
                                                 "of this fit", fit=name)}
        if corr:
            srcs = {**srcs, "correlation": Provenance(kind="calibrated", source="correlations of the same "
                                                      "least-squares covariance as the standard errors", fit=name)}
        extra = {k: float(values[k]) for k in EXTRA_FIELDS if k in values}  # fitted or held; else the default
        for k in extra:
            if k not in srcs:
                srcs[k] = fitted() if k in self.fit else self.held(k, f"held at {extra[k]:g}")
        if self.affinity_grid:
            extra["affinities_per_node"] = affinities
        return PerfProfile(software=self.software, protocol=self.protocol, servers_per_node=int(servers),
                           source=source, provenance=srcs, stderr=errors, correlation=corr,
                           **{k: max(values[k], 0.0) for k in FIELDS}, **extra)


def with_profiles(catalog: Catalog, profiles: Iterable[tuple[str, PerfProfile]]) -> Catalog:
    """A catalog whose records carry these profiles (replacing any of the same software and protocol)."""
    by_id: dict[str, list[PerfProfile]] = {}
    for rid, p in profiles:
        by_id.setdefault(rid, []).append(p)
    updated = []
    for rid, new in by_id.items():
        record = catalog.find(rid)
        if not isinstance(record, (Controller, CloudVm)):
            raise CalibrationError(f"'{rid}' is not a controller or cloud VM of the catalog")
        keep = [p for p in record.performance if all((p.software, p.protocol) != (n.software, n.protocol)
                                                     for n in new)]
        updated.append(record.model_copy(update={"performance": keep + new}))
    return catalog.with_entries(updated)


def run_ramps(scenarios: dict[str, Scenario], catalog: Catalog,
              layouts: Mapping[str, Mapping[str, RaidLayout]] | None = None) -> dict[str, Ramp]:
    """Each scenario's first enabled workload's closed ramp, with the same functions as evaluate_performance.

    Args:
        scenarios: key -> scenario; catalog: the records they use; layouts: key -> the scenario's RAID layouts
            (``models.capacity.layout.raid_layouts``), for a caller that solves the same scenarios many times with
            only performance profiles changed (a fit); None (or a key missing): built here.

    Returns:
        key -> :class:`models.performance.engine.Ramp`.
    """
    out = {}
    for key, sc in scenarios.items():
        w = next(w for w in sc.workloads if w.enabled)
        path = build_path(sc, catalog, w, layouts.get(key) if layouts is not None else None)
        out[key] = ramp(path.stations, path.read_fraction, w.concurrency, w.think_time_ms / 1e3)
    return out


@dataclass(frozen=True)
class FitResult:
    """Fitted profiles (one per spec), the residuals and their RMS; ``x`` the fitted continuous values (in the
    specs' order) and ``servers`` the grid's servers_per_node (None when every spec held its own)."""

    profiles: tuple[tuple[str, PerfProfile], ...]
    residuals: tuple[float, ...]
    rms: float
    labels: tuple[str, ...]
    x: tuple[float, ...] = ()
    servers: int | None = None


ASSUMED_RELATIVE_SD = 0.05
"""assumed: one standard deviation of a published benchmark figure, relative (5%), used as the residual scale
of a fit that has no residual degrees of freedom (as many fitted parameters as points, so the residuals are 0
and say nothing about the noise). Benchmark reports round to two or three digits and repeat runs of the same
test differ by a few percent."""


def _jacobian(fun: Callable[[np.ndarray], np.ndarray], x: np.ndarray, lo: np.ndarray, hi: np.ndarray,
              rel_step: float = 1e-3) -> np.ndarray:
    """Central-difference Jacobian of ``fun`` at ``x`` (one-sided at a bound), relative step ``rel_step``."""
    f0 = np.asarray(fun(x), dtype=float)
    jac = np.zeros((f0.size, x.size))
    for j in range(x.size):
        h = rel_step * max(abs(x[j]), 1.0)
        up, down = min(x[j] + h, hi[j]), max(x[j] - h, lo[j])
        xu, xd = x.copy(), x.copy()
        xu[j], xd[j] = up, down
        jac[:, j] = (np.asarray(fun(xu)) - np.asarray(fun(xd))) / (up - down)
    return jac


def _kept_correlation(correlation: dict[tuple[str, str], float], errors: dict[str, float], write_tied: bool,
                      per_kib_only: bool) -> dict[str, float]:
    """The profile's ``correlation`` table ('a:b' alphabetical -> rho) of the pairs whose both fields have a
    standard error in ``errors``: the fit's own pairs, and with ``write_tied`` (cpu_write_us = ratio x
    cpu_read_us) cpu_write_us's, equal to cpu_read_us's (1 with it). None for a per-KiB-only fit (its stored
    fields are transforms of the fitted ones; the bands then count them uncorrelated)."""
    if per_kib_only:
        return {}
    table: dict[tuple[str, str], float] = {}
    for (a, b), rho in correlation.items():
        table[(a, b)] = table[(b, a)] = rho
    if write_tied and "cpu_write_us" in errors and "cpu_read_us" in errors:
        for (a, b), rho in list(table.items()):
            if a == "cpu_read_us" and b != "cpu_write_us":
                table[("cpu_write_us", b)] = rho
        table[("cpu_read_us", "cpu_write_us")] = 1.0
    out = {}
    for (a, b), rho in table.items():
        if a != b and a in errors and b in errors and math.isfinite(rho):
            out[":".join(sorted((a, b)))] = max(-1.0, min(1.0, float(rho)))
    return dict(sorted(out.items()))


def _covariance(jac: np.ndarray, s2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """s2 (J^T J)^+ computed on the column-scaled J^T J (its pseudo-inverse over the eigenvalues above 1e-10 of
    the largest); returns (cov, column norms, eigenvectors, kept eigenvalue mask)."""
    jtj = jac.T @ jac
    norms = np.sqrt(np.diag(jtj))
    scale = np.where(norms > 0, norms, 1.0)
    scaled = jtj / np.outer(scale, scale)
    w, v = np.linalg.eigh(scaled)
    keep = w > max(w.max(), 1e-300) * 1e-10
    inv = (v[:, keep] / w[keep]) @ v[:, keep].T
    return s2 * inv / np.outer(scale, scale), norms, v, keep


def parameter_correlation(jac: np.ndarray, names: Sequence[str]) -> dict[tuple[str, str], float]:
    """Correlations of the least-squares estimates, Cov_ij / sqrt(Cov_ii Cov_jj) of the covariance
    :func:`parameter_stderr` takes its diagonal from (the residual variance s^2 cancels), for each pair (i < j) of
    identifiable parameters (those :func:`parameter_stderr` gives a standard error).

    Args:
        jac: (m, p) Jacobian of the residuals at the optimum; names: the p parameter names.

    Returns:
        {(name_i, name_j): rho} in -1..1."""
    jac = np.asarray(jac, dtype=float)
    cov, norms, v, keep = _covariance(jac, 1.0)
    ok = [j for j in range(len(names)) if not (norms[j] == 0 or np.any(np.abs(v[j, ~keep]) > 1e-3))
          and math.isfinite(cov[j, j]) and cov[j, j] > 0]
    out = {}
    for x, i in enumerate(ok):
        for j in ok[x + 1:]:
            out[(names[i], names[j])] = float(np.clip(cov[i, j] / math.sqrt(cov[i, i] * cov[j, j]), -1.0, 1.0))
    return out


def parameter_stderr(jac: np.ndarray, residuals: np.ndarray, names: Sequence[str],
                     active: np.ndarray | None = None) -> tuple[dict[str, float], str]:
    """Standard errors of least-squares parameters from the Jacobian at the optimum.

    Cov = s^2 (J^T J)^-1 with s^2 = sum(r^2) / (m - p) (m residuals, p parameters; Bates & Watts, *Nonlinear
    Regression Analysis and Its Applications*, 1988, §2.3); with m <= p the residuals carry no information on the
    noise and s = :data:`ASSUMED_RELATIVE_SD` is used instead. Residuals are relative, so s is a relative error
    of the fitted figures and the standard errors are in the parameters' units.

    Args:
        jac: (m, p) Jacobian of the residuals with respect to the parameters, at the optimum.
        residuals: the m residuals at the optimum.
        names: the p parameter names (keys of the returned dict).
        active: optional (p,) bound mask of scipy's result (non-zero: the parameter ended on a bound).

    Returns:
        ({name: standard error} for the identifiable parameters, basis text). A parameter whose Jacobian column
        is zero, or that lies in the null space of J^T J, gets no entry, and the text says so.
    """
    jac = np.asarray(jac, dtype=float)
    r = np.asarray(residuals, dtype=float)
    m, p = jac.shape
    dof = m - p
    if dof > 0:
        s2 = float(r @ r) / dof
        basis = (f"least-squares covariance s^2 (J^T J)^-1 at the optimum, s^2 = SSR / (m - p) = "
                 f"{float(r @ r):.3g} / {dof} (relative residuals)")
    else:
        s2 = ASSUMED_RELATIVE_SD ** 2
        basis = (f"least-squares covariance s^2 (J^T J)^-1 at the optimum; {m} points for {p} parameters leave no "
                 f"residual degrees of freedom, so s = {ASSUMED_RELATIVE_SD:g} (assumed relative error of a "
                 "published figure)")
    cov, norms, v, keep = _covariance(jac, s2)
    out: dict[str, float] = {}
    dropped = []
    for j, name in enumerate(names):
        in_null = norms[j] == 0 or np.any(np.abs(v[j, ~keep]) > 1e-3)
        if in_null or not math.isfinite(cov[j, j]) or cov[j, j] < 0:
            dropped.append(name)
            continue
        out[name] = float(math.sqrt(cov[j, j]))
    if dropped:
        basis += ("; not identifiable from this fit's points (J^T J is singular along a direction that involves "
                  "them, e.g. two points tied by Little's law carry one piece of information; no standard error): "
                  + ", ".join(dropped))
    if active is not None and np.any(active):
        at = [n for n, a in zip(names, active) if a]
        basis += "; on a bound at the optimum (the covariance ignores the bound): " + ", ".join(at)
    return out, basis


BATCH_MIN = 64
"""Fewer "latency_at_iops" observations of one scenario than this are computed one by one (:func:`residual`)."""


def _latency_batches(observations: Sequence[Observation]) \
        -> list[tuple[str, bool, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """Groups of at least :data:`BATCH_MIN` "latency_at_iops" observations by (scenario, host side): each as
    (scenario, host side, their indices, (iops, value, weight) arrays)."""
    groups: dict[tuple[str, bool], list[int]] = {}
    for i, o in enumerate(observations):
        if o.kind == "latency_at_iops":
            groups.setdefault((o.scenario, o.host_side), []).append(i)
    out = []
    for (key, host), index in groups.items():
        if len(index) >= BATCH_MIN:
            obs = [observations[i] for i in index]
            arrays = (np.array([o.iops for o in obs], dtype=float), np.array([o.value for o in obs], dtype=float),
                      np.array([o.weight for o in obs], dtype=float))
            out.append((key, host, np.array(index), arrays))
    return out


def _latency_residuals(r: Ramp, host: bool, iops: np.ndarray, value: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """:func:`residual` of many "latency_at_iops" observations of one ramp at once (the same arithmetic, element
    by element: linear interpolation inside the ramp, the shortfall penalty beyond its last point)."""
    lat = _latency(r, host)
    x = np.asarray(r.iops, dtype=float)
    model = np.interp(iops, x, lat)
    beyond = iops > x[-1] * (1 + 1e-9)
    inside = weight * (model - value) / value
    short = (iops - x[-1]) / iops
    past = weight * ((lat[-1] - value) / value + 5.0 * short)
    return np.where(beyond, past, inside)


def fit_profile(specs: Sequence[ProfileSpec], scenarios: dict[str, Scenario], observations: Sequence[Observation],
                catalog: Catalog | None = None, server_grid: Sequence[int] | None = SERVER_GRID,
                source: str = "", base_profiles: Sequence[tuple[str, PerfProfile]] = (),
                server_prior: int | None = None, rms_slack: float = 0.01, norm_power: int = 2,
                shared: bool = False, prior_caps_grid: bool = True, fit_name: str = "",
                shared_fields: Sequence[str] = ()) -> FitResult:
    """Fit one or more profiles jointly to observations of one or more scenarios.

    Args:
        specs: the profiles to fit; a spec with ``servers`` set keeps it, the others share one grid value of
            servers_per_node.
        scenarios: key -> scenario (built from catalog ids; the fitted records are swapped in).
        observations: measured facts; at least one.
        catalog: base catalog (default: bundled); server_grid: grid of servers_per_node values (None: every spec
            must set ``servers``); source: provenance text stored in each profile's ``source`` (points and
            residual are appended); base_profiles: other (already fitted) profiles to place in the catalog;
            server_prior: the physically expected parallelism (e.g. cores per node): among grid values whose
            RMS residual is within ``rms_slack`` of the best, the one closest to it (in ratio) is kept, because
            a few published points rarely pin the parallelism down; it is also the grid's upper end (a CPU
            serves at most as many I/Os at once as it has cores; hyper-threads are not counted), unless
            ``prior_caps_grid`` is False (a grid over affinities, which outnumber the cores).
        norm_power: the fit minimises sum(|residual| ** norm_power); 2 is least squares, 4 or more moves
            towards minimising the largest relative error (use it when every point has its own tolerance).
        shared: every spec takes the same values of the fitted fields (the specs must fit the same fields; the
            first spec's ``x0`` and ``bounds`` are used): one parameter set pooled over several records, e.g.
            the same software on VMs of one CPU family. Each spec's servers_per_node is the shared grid value
            capped at its ``max_servers``.
        fit_name: the name the fitted numbers' provenance gives this fit (``Provenance.fit``; "" uses ``source``,
            or "calibration").
        shared_fields: fields that take one value across every spec (each spec must fit them; the first spec's
            ``x0`` and ``bounds`` are used), the specs' other fields their own: a hierarchical fit's shared level,
            e.g. a software constant fitted to several platforms' ramps, each platform keeping its own fixed
            latency. Their standard errors and correlations are the joint fit's, in every spec's profile.

    Returns:
        :class:`FitResult`.

    Raises:
        CalibrationError: no observations, or a spec names an unknown record.
    """
    if not observations:
        raise CalibrationError("no observations to fit")
    from scipy.optimize import least_squares  # here, not at import: validate reads the fits' observations only

    catalog = catalog or bundled_catalog()
    catalog = with_profiles(catalog, base_profiles) if base_profiles else catalog
    if shared and any(s.fit != specs[0].fit for s in specs):
        raise CalibrationError("a shared fit needs every spec to fit the same fields")
    if any(k not in s.fit for s in specs for k in shared_fields):
        raise CalibrationError("a field shared across specs must be fitted by every spec")
    # index[n]: the positions in x of spec n's fitted fields (a shared field's position is the same in every spec);
    # param_names: one name per position
    index: list[np.ndarray] = []
    param_names: list[str] = []
    shared_at: dict[str, int] = {}
    x0: list[float] = []
    lo: list[float] = []
    hi: list[float] = []
    for n, s in enumerate(specs):
        if shared and n > 0:
            index.append(index[0])
            continue
        positions = []
        for k in s.fit:
            if k in shared_at:
                positions.append(shared_at[k])
                continue
            if k in shared_fields:
                shared_at[k] = len(x0)
            positions.append(len(x0))
            param_names.append(f"{s.software}/{s.protocol}:{k}")
            x0.append(s.x0[k])
            bound = s.bounds.get(k, (0.0, 1e5))
            lo.append(bound[0])
            hi.append(bound[1])
        index.append(np.array(positions, dtype=int))

    def profiles_for(x: np.ndarray, servers: int) -> list[tuple[str, PerfProfile]]:
        return [(s.record_id, s.profile(x[at], s.servers_for(servers), source, fit_name=fit_name))
                for s, at in zip(specs, index)]

    # every scenario's closed ramp (a custom observation may read any), except those only open-model
    # observations use
    open_only = ({o.scenario for o in observations if o.kind in OPEN_KINDS}
                 - {o.scenario for o in observations if o.kind not in OPEN_KINDS})
    closed_keys = set(scenarios) - open_only

    # "latency_at_iops" observations of one scenario and latency side are computed together
    # (:func:`_latency_residuals`, the same numbers as :func:`residual`): a lab CSV brings thousands
    batched = _latency_batches(observations)
    in_batch = {int(i) for b in batched for i in b[2]}
    single = [i for i in range(len(observations)) if i not in in_batch]
    # the RAID layouts (drives, shelves, RAID groups) do not depend on the performance profiles a trial changes:
    # built once per scenario, not at every residual evaluation (the same layouts build_path would build)
    layouts = {key: raid_layouts(sc, catalog) for key, sc in scenarios.items()}

    def resid(x: np.ndarray, servers: int) -> np.ndarray:
        cat = with_profiles(catalog, profiles_for(x, servers))
        ramps = run_ramps({k: sc for k, sc in scenarios.items() if k in closed_keys}, cat, layouts)
        paths: dict[str, WorkloadPath] = {}
        out = np.empty(len(observations))
        for key, host, index, arrays in batched:
            out[index] = _latency_residuals(ramps[key], host, *arrays)
        for i in single:
            o = observations[i]
            if o.kind in OPEN_KINDS:
                if o.scenario not in paths:
                    sc = scenarios[o.scenario]
                    paths[o.scenario] = build_path(sc, cat, next(w for w in sc.workloads if w.enabled),
                                                   layouts[o.scenario])
                out[i] = open_residual(o, paths[o.scenario])
            else:
                out[i] = residual(o, ramps)
        return out

    def objective(x: np.ndarray, servers: int) -> np.ndarray:
        r = resid(x, servers)
        return np.sign(r) * np.abs(r) ** (norm_power / 2.0)

    def solve(servers: int, start: np.ndarray) -> tuple[np.ndarray, float, Any]:
        res = least_squares(objective, start, bounds=(lo, hi), args=(servers,), x_scale="jac", diff_step=1e-3,
                            max_nfev=200)
        return res.x, float(np.mean(np.abs(res.fun) ** 2) ** (1.0 / norm_power)), res

    x_start = np.clip(np.array(x0, dtype=float), lo, hi)
    if all(s.servers and not s.affinity_grid for s in specs) or not server_grid:
        best_s = None
        best_x, best_rms, best_res = solve(0, x_start)
    else:
        # a CPU cannot serve more I/Os at once than it has cores (server_prior): the grid stops there
        top = (server_prior if prior_caps_grid else None) or max(server_grid)
        grid = sorted({sv for sv in server_grid if sv <= top} | ({server_prior} if server_prior else set()))
        tried: dict[int, tuple[np.ndarray, float, Any]] = {}
        for sv in grid:
            tried[sv] = solve(sv, x_start)
        best_s = min(tried, key=lambda k: tried[k][1])
        for sv in range(max(1, best_s - 3), min(best_s + 4, top + 1)):
            if sv not in tried:
                tried[sv] = solve(sv, tried[best_s][0])
        best_s = min(tried, key=lambda k: tried[k][1])
        if server_prior:
            floor = tried[best_s][1] + rms_slack
            near = [k for k in tried if tried[k][1] <= floor]
            best_s = min(near, key=lambda k: abs(math.log(k / server_prior)))
        best_x, best_rms, best_res = tried[best_s]
    final = resid(best_x, best_s or 0)
    rms = float(np.sqrt(np.mean(final ** 2)))
    if norm_power == 2:
        jac = np.asarray(best_res.jac, dtype=float)
    else:  # the optimiser's Jacobian is of |r|^(p/2); the covariance needs the plain relative residuals'
        jac = _jacobian(lambda x: resid(x, best_s or 0), best_x, np.array(lo), np.array(hi))
    errors, basis = parameter_stderr(jac, final, param_names, active=np.asarray(best_res.active_mask))
    if server_grid and not all(s.servers and not s.affinity_grid for s in specs):
        gridded = "affinities_per_node" if any(s.affinity_grid for s in specs) else "servers_per_node"
        basis += (f"; {gridded} is an integer held at its grid optimum {best_s} (no standard error: the "
                  "covariance is conditional on it)")
    labels = tuple(o.label or f"{o.scenario}:{o.kind}" for o in observations)
    listed = ", ".join(labels[:MAX_LISTED_POINTS])
    if len(labels) > MAX_LISTED_POINTS:
        listed += f" and {len(labels) - MAX_LISTED_POINTS:,} more"
    text = (f"{source}; least-squares fit of the service demands to {len(observations):,} points: "
            + listed + f"; RMS relative residual {rms:.3f}")
    rho = parameter_correlation(jac, param_names)
    profs = []
    for s, at in zip(specs, index):
        field_of = {param_names[i]: k for k, i in zip(s.fit, at)}
        se = {k: errors[param_names[i]] for k, i in zip(s.fit, at) if param_names[i] in errors}
        own = {(field_of[x], field_of[y]): r for (x, y), r in rho.items() if x in field_of and y in field_of}
        profs.append((s.record_id, s.profile(best_x[at], s.servers_for(best_s or 1), text, stderr=se,
                                             stderr_basis=basis, fit_name=fit_name or source, correlation=own)))
    return FitResult(tuple(profs), tuple(float(v) for v in final), rms, labels, tuple(float(v) for v in best_x),
                     best_s)


# ------------------------------------------------------------------------------------------------ user data


MAX_LAB_BYTES = 4 * 2**20
"""The largest lab CSV read (4 MiB): :data:`LAB_LIMITS` rows of a few dozen bytes each, with room to spare."""

LAB_LIMITS = CsvLimits(max_rows=10_000, max_field_chars=256, seconds=2.0)
"""Rows, field size and time a lab CSV is read under. A lab measures a closed ramp at a few to a few dozen load
levels (the seeds' ramps: 1 to 8 servers, 3 to 450 users in at most 20 steps); even one sample a second over
2 3/4 hours stays under 10,000 rows. A number needs a few dozen characters at most."""

MIN_LOAD_SPREAD = 1.1
"""A lab fit needs loads that differ: the highest measured IOPS at least 1.1 x the lowest. One point, or points at
one load, cannot separate the CPU cost per I/O (which grows with load) from the fixed latency (which does not)."""


def read_points_csv(path: str | Path) -> list[tuple[float, float]]:
    """(iops, latency_ms) rows of a CSV file with a header naming ``iops`` and ``latency_ms``, sorted by IOPS.

    The file is read through :mod:`models.bounded_read`: a regular file (a device, FIFO or folder is refused
    unopened) of at most :data:`MAX_LAB_BYTES`, UTF-8, at most :data:`LAB_LIMITS` rows and field size, RFC 4180
    quoting.

    Raises:
        CalibrationError: not a regular file, too large, not UTF-8, a control character, too many rows, a field too
            long, malformed CSV, missing columns, non-numeric or non-positive values, or no rows; one line naming the
            file, the line and the column.
    """
    name = str(path)
    try:
        text = read_text(path, MAX_LAB_BYTES, name)
        columns: list[str] = []
        rows = csv_rows(text, name, LAB_LIMITS, detect_delimiter(text[:text.find("\n")] if "\n" in text else text),
                        columns)
        header = next(rows, (1, []))[1]
        columns.extend(header)
        names = {n.strip().lower(): k for k, n in enumerate(header)}
        if "iops" not in names or "latency_ms" not in names:
            raise CalibrationError(f"{name}: line 1: the CSV needs columns 'iops' and 'latency_ms'")
        ix, iy = names["iops"], names["latency_ms"]
        points = []
        for line, cells in list(rows):  # every row read (the limits checked) before any is converted
            if not any(c.strip() for c in cells):
                continue
            for col, k in (("iops", ix), ("latency_ms", iy)):
                text_value = cells[k].strip() if k < len(cells) else ""
                try:
                    value = float(text_value)
                except ValueError:
                    raise CalibrationError(f"{name}: line {line}: {col}: {text_value[:40]!r} is not a number") from None
                if not (value > 0 and math.isfinite(value)):
                    raise CalibrationError(f"{name}: line {line}: {col}: {text_value[:40]!r} must be positive and "
                                           "finite")
            points.append((float(cells[ix]), float(cells[iy])))
    except FileRefusedError as exc:
        raise CalibrationError(str(exc)) from None
    if not points:
        raise CalibrationError(f"{name}: no data rows")
    return sorted(points)


def check_load_spread(points: Sequence[tuple[float, float]], origin: str) -> None:
    """Refuse lab points a fit cannot use: fewer than two, or loads without spread (:data:`MIN_LOAD_SPREAD`).

    Raises:
        CalibrationError: naming ``origin``, the number of points and their IOPS range.
    """
    if len(points) < 2:
        raise CalibrationError(f"{origin}: one measured point cannot be fitted: measure the ramp at two loads or more "
                               "(IOPS that differ by 10% or more)")
    lo, hi = min(x for x, _ in points), max(x for x, _ in points)
    if hi < lo * MIN_LOAD_SPREAD:
        raise CalibrationError(f"{origin}: the {len(points)} points are all at about one load ({lo:,.0f} to "
                               f"{hi:,.0f} IOPS): a fit needs loads that differ by 10% or more (a ramp)")


def fit_from_csv(path: str | Path, scenario: Scenario, catalog: Catalog | None = None, host_side: bool = False,
                 fit_servers: bool = True, write_ratio: float | None = WRITE_TO_READ_CPU) -> PerfProfile:
    """Fit the profile of the controller (or cloud VM) serving ``scenario``'s first enabled workload to a lab's
    measured curve.

    Args:
        path: CSV with columns ``iops`` and ``latency_ms`` (one row per load point of a closed ramp).
        scenario: the lab's configuration; its workload's block size, mix and concurrency must be the test's
            (the ramp must reach the highest measured IOPS).
        catalog: base catalog; host_side: the latencies were measured at the host (else at the array);
        fit_servers: grid over servers_per_node (else keep the catalog's or the cores per node);
        write_ratio: cpu_write_us / cpu_read_us when writes cannot be told apart (None: fit cpu_write_us too).

    Returns:
        The fitted PerfProfile; ``source`` names the file, the points and the RMS residual.

    Raises:
        CalibrationError: bad CSV (:func:`read_points_csv`), one point or points without spread in load
            (:func:`check_load_spread`), or a workload target that is not a controller or cloud VM.
    """
    catalog = catalog or bundled_catalog()
    points = read_points_csv(path)
    check_load_spread(points, str(path))
    w = next(w for w in scenario.workloads if w.enabled)
    node = scenario.node(w.target)
    record = catalog.find(node.catalog_id) if node is not None else None
    if not isinstance(record, (Controller, CloudVm)):
        raise CalibrationError("the workload's target must be a controller or cloud VM")
    path_obj = build_path(scenario, catalog, w)
    software = getattr(node, "software", None) or getattr(record, "default_software", "") or "9.5"
    fit = ("cpu_read_us", "fixed_latency_us") if write_ratio is not None else ("cpu_read_us", "cpu_write_us",
                                                                              "fixed_latency_us")
    cores = getattr(record, "cores_per_node", None) or getattr(record, "vcpu", 8)
    spec = ProfileSpec(record.id, software, path_obj.protocol, fit,
                       x0={"cpu_read_us": 50.0, "cpu_write_us": 100.0, "fixed_latency_us": 50.0},
                       fixed={"cpu_per_kib_us": 0.5}, write_ratio=write_ratio,
                       servers=None if fit_servers else cores,
                       bounds={"fixed_latency_us": (0.0, 1e5), "cpu_read_us": (0.01, 1e5),
                               "cpu_write_us": (0.01, 1e5)})
    obs = [Observation("lab", "latency_at_iops", value=y, iops=x, host_side=host_side, label=f"{x:.0f}@{y:g}ms")
           for x, y in points]
    res = fit_profile([spec], {"lab": scenario}, obs, catalog, SERVER_GRID if fit_servers else None,
                      source=f"fitted to your lab measurements ({len(points)} points of {Path(path).name}, "
                             f"{date.today().isoformat()}, {'host' if host_side else 'storage'}-side latency)")
    return res.profiles[0][1]

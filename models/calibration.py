"""Calibration: fit a controller's PerfProfile to measured (IOPS, latency) points with the engine's own model.

The residuals are computed by building the scenario's stations (``models.performance.build_path``) and solving
its closed ramp (``models.performance.ramp``), the same functions ``evaluate_performance`` uses, with the
candidate profile placed in the catalog. Continuous parameters (CPU demand per I/O, fixed latency) are fitted
by ``scipy.optimize.least_squares`` (trust-region reflective, bounded; Branch, Coleman & Li 1999); the integer
parallelism ``servers_per_node`` by a grid over integers (coarse, then refined around the best), each grid
point with its own least-squares fit.

Entry points:

* :func:`fit_profile` -- generic: a scenario builder, observations, parameters to fit.
* :func:`fit_from_csv` -- a user's lab data (CSV with ``iops`` and ``latency_ms`` columns) for one workload of
  a scenario.
* :func:`derive_seed_profiles` -- the catalog's profiles from the seeds' published numbers (one parameter set
  per controller + software + protocol, shared by all that system's cases), run as the steps of
  :func:`seed_fits`; each step's observations name the validation checks whose numbers they are, so
  :func:`in_sample_checks` tells which checks are in-sample without fitting, and :func:`run_seed_fits` can leave
  a case's observations out (leave-one-out cross-validation, :mod:`models.validation.cross_validation`).
* :func:`calibrate_seed_systems` -- print them, and with ``write=True`` write them into
  ``resources/catalog/controllers.toml`` / ``cloud.toml`` with their provenance and standard errors
  (:func:`parameter_stderr`), and their cross-validation into ``resources/validation/cross_validation.toml``.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.catalog import Catalog, CloudVm, Controller, PerfProfile, bundled_catalog
from models.performance import build_path, iops_at_latency, latency_at_iops, ramp
from models.performance import seeds
from models.performance.seeds import cvo_concurrency
from models.performance.engine import Ramp
from models.project.model import Scenario

WRITE_TO_READ_CPU = 2.0
"""assumed: an ONTAP write costs twice a read's CPU (NVLOG, HA mirroring, consistency-point work). The seeds'
on-premises tests are read-mostly (90/10, 100/0), so this ratio cannot be fitted from them."""

FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "fixed_latency_us")

SERVER_GRID = (1, 2, 4, 8, 16, 32, 64)
"""Coarse grid of servers_per_node values; the best is refined over its integer neighbours."""


class CalibrationError(ValueError):
    """The data cannot be fitted (no points, unknown controller, a point the model cannot reach...)."""


@dataclass(frozen=True)
class Observation:
    """One measured fact about a scenario's ramp.

    Attributes:
        scenario: key of the scenario (in the ``scenarios`` mapping given to the fit).
        kind: "latency_at_iops" (value = latency ms at ``iops``), "peak_iops" (IOPS at the ramp's end),
            "peak_latency" (latency ms at the ramp's end), "latency_upper_bound" (latency at ``iops`` <= value),
            "custom" (``fn(ramps) -> residual``).
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


def _latency(r: Ramp, host: bool) -> np.ndarray:
    return r.host_ms if host else r.storage_ms


def residual(obs: Observation, ramps: dict[str, Ramp]) -> float:
    """Relative residual of one observation (0 = met). Unreachable IOPS give a penalty proportional to the
    shortfall, so the optimiser is pulled towards more capacity."""
    if obs.kind == "custom":
        assert obs.fn is not None
        return obs.weight * obs.fn(ramps)
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


@dataclass
class ProfileSpec:
    """Which record and profile a fit is for, and how parameters map onto it.

    ``fit`` lists the continuous fields fitted (subset of :data:`FIELDS`); ``fixed`` gives the others; with
    ``write_ratio`` set, cpu_write_us = write_ratio x cpu_read_us instead of being fitted. ``held_notes`` gives the
    source text ("assumed: <note>") of a held field or of a held servers_per_node.
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
    held_notes: dict[str, str] = field(default_factory=dict)

    def profile(self, x: Sequence[float], servers: int, source: str = "", sources: dict | None = None,
                stderr: dict[str, float] | None = None, stderr_basis: str = "") -> PerfProfile:
        """The `PerfProfile` for fitted values ``x`` (one per name in ``fit``, in order, microseconds).

        ``servers`` is the node's CPU parallelism (servers_per_node). Fields not fitted come from ``fixed``
        (cpu_per_kib_us and fixed_latency_us default to 0); with ``write_ratio`` set, cpu_write_us =
        write_ratio x cpu_read_us. Negative values are clipped to 0. ``source`` is the provenance text; when
        ``sources`` is not given, each field's source says whether it was fitted or assumed (held, ratio).
        ``stderr`` (fitted field -> standard error, same unit) and its ``stderr_basis`` text come from
        :func:`fit_profile`; with ``write_ratio`` set, cpu_write_us's standard error is write_ratio x cpu_read_us's.
        """
        values = dict(self.fixed)
        values.update({k: float(v) for k, v in zip(self.fit, x)})
        if self.write_ratio is not None:
            values["cpu_write_us"] = values["cpu_read_us"] * self.write_ratio
        values.setdefault("cpu_per_kib_us", 0.0)
        values.setdefault("fixed_latency_us", 0.0)
        fitted = f"fitted: {source or 'calibration'}"
        srcs = sources or {}
        if not srcs:
            for k in FIELDS:
                if k in self.fit:
                    srcs[k] = fitted
                elif k == "cpu_write_us" and self.write_ratio is not None:
                    srcs[k] = (f"assumed: {self.write_ratio:g} x the fitted cpu_read_us (writes cannot be told "
                               "apart from reads in the fitted data); " + fitted)
                elif k in self.held_notes:
                    srcs[k] = f"assumed: {self.held_notes[k]}"
                elif k == "cpu_per_kib_us" and k not in self.fixed:
                    srcs[k] = "assumed: no per-KiB cost (not fitted)"
                else:
                    srcs[k] = f"assumed: held at {values.get(k, 0.0):g} during this fit (not identifiable from its data)"
            srcs["servers_per_node"] = (fitted + " (grid over integers)") if self.servers is None else \
                f"assumed: {self.held_notes.get('servers_per_node', f'held at {servers} during this fit')}"
        errors = {k: float(v) for k, v in (stderr or {}).items() if k in self.fit}
        if errors and self.write_ratio is not None and "cpu_read_us" in errors:
            errors["cpu_write_us"] = errors["cpu_read_us"] * self.write_ratio
        if errors or stderr_basis:
            srcs = {**srcs, "stderr": stderr_basis or "least-squares covariance of this fit"}
        return PerfProfile(software=self.software, protocol=self.protocol, servers_per_node=int(servers),
                           source=source, sources=srcs, stderr=errors, **{k: max(values[k], 0.0) for k in FIELDS})


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


def run_ramps(scenarios: dict[str, Scenario], catalog: Catalog) -> dict[str, Ramp]:
    """Each scenario's first enabled workload's closed ramp, with the same functions as evaluate_performance."""
    out = {}
    for key, sc in scenarios.items():
        w = next(w for w in sc.workloads if w.enabled)
        path = build_path(sc, catalog, w)
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
    jtj = jac.T @ jac
    norms = np.sqrt(np.diag(jtj))
    scale = np.where(norms > 0, norms, 1.0)
    scaled = jtj / np.outer(scale, scale)
    w, v = np.linalg.eigh(scaled)
    keep = w > max(w.max(), 1e-300) * 1e-10
    inv = (v[:, keep] / w[keep]) @ v[:, keep].T
    cov = s2 * inv / np.outer(scale, scale)
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


def fit_profile(specs: Sequence[ProfileSpec], scenarios: dict[str, Scenario], observations: Sequence[Observation],
                catalog: Catalog | None = None, server_grid: Sequence[int] | None = SERVER_GRID,
                source: str = "", base_profiles: Sequence[tuple[str, PerfProfile]] = (),
                server_prior: int | None = None, rms_slack: float = 0.01, norm_power: int = 2) -> FitResult:
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
            a few published points rarely pin the parallelism down.
        norm_power: the fit minimises sum(|residual| ** norm_power); 2 is least squares, 4 or more moves
            towards minimising the largest relative error (use it when every point has its own tolerance).

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
    layout = []
    x0, lo, hi = [], [], []
    for s in specs:
        start = len(x0)
        for k in s.fit:
            x0.append(s.x0[k])
            b = s.bounds.get(k, (0.0, 1e5))
            lo.append(b[0])
            hi.append(b[1])
        layout.append((start, len(x0)))

    def profiles_for(x, servers):
        return [(s.record_id, s.profile(x[a:b], s.servers or servers, source)) for s, (a, b) in zip(specs, layout)]

    def resid(x, servers):
        cat = with_profiles(catalog, profiles_for(x, servers))
        ramps = run_ramps(scenarios, cat)
        return np.array([residual(o, ramps) for o in observations])

    def objective(x, servers):
        r = resid(x, servers)
        return np.sign(r) * np.abs(r) ** (norm_power / 2.0)

    def solve(servers, start):
        res = least_squares(objective, start, bounds=(lo, hi), args=(servers,), x_scale="jac", diff_step=1e-3,
                            max_nfev=200)
        return res.x, float(np.mean(np.abs(res.fun) ** 2) ** (1.0 / norm_power)), res

    x_start = np.clip(np.array(x0, dtype=float), lo, hi)
    if all(s.servers for s in specs) or not server_grid:
        best_s = None
        best_x, best_rms, best_res = solve(0, x_start)
    else:
        tried: dict[int, tuple[np.ndarray, float, object]] = {}
        for sv in server_grid:
            tried[sv] = solve(sv, x_start)
        best_s = min(tried, key=lambda k: tried[k][1])
        for sv in range(max(1, best_s - 3), best_s + 4):
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
        jac = np.asarray(best_res.jac, dtype=float)  # type: ignore[attr-defined]
    else:  # the optimiser's Jacobian is of |r|^(p/2); the covariance needs the plain relative residuals'
        jac = _jacobian(lambda x: resid(x, best_s or 0), best_x, np.array(lo), np.array(hi))
    names = [(i, k) for i, (s, (a, b)) in enumerate(zip(specs, layout)) for k in s.fit]
    errors, basis = parameter_stderr(jac, final, [f"{specs[i].software}/{specs[i].protocol}:{k}" for i, k in names],
                                     active=np.asarray(best_res.active_mask))  # type: ignore[attr-defined]
    if server_grid and not all(s.servers for s in specs):
        basis += (f"; servers_per_node is an integer held at its grid optimum {best_s} (no standard error: the "
                  "covariance is conditional on it)")
    labels = tuple(o.label or f"{o.scenario}:{o.kind}" for o in observations)
    text = (f"{source}; fitted by models.calibration (least_squares) to {len(observations)} points: "
            + ", ".join(labels) + f"; RMS relative residual {rms:.3f}")
    profs = []
    for i, (s, (a, b)) in enumerate(zip(specs, layout)):
        se = {k: errors[f"{s.software}/{s.protocol}:{k}"] for k in s.fit if f"{s.software}/{s.protocol}:{k}" in errors}
        profs.append((s.record_id, s.profile(best_x[a:b], s.servers or best_s or 1, text, stderr=se,
                                             stderr_basis=basis)))
    return FitResult(tuple(profs), tuple(float(v) for v in final), rms, labels, tuple(float(v) for v in best_x),
                     best_s)


# ------------------------------------------------------------------------------------------------ user data


def read_points_csv(path: str | Path) -> list[tuple[float, float]]:
    """(iops, latency_ms) rows of a CSV file with a header naming ``iops`` and ``latency_ms``.

    Raises:
        CalibrationError: missing columns, non-numeric or non-positive values, or no rows.
    """
    points = []
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        names = {n.strip().lower(): n for n in (reader.fieldnames or [])}
        if "iops" not in names or "latency_ms" not in names:
            raise CalibrationError(f"{path}: the CSV needs columns 'iops' and 'latency_ms'")
        for i, row in enumerate(reader, start=2):
            try:
                x, y = float(row[names["iops"]]), float(row[names["latency_ms"]])
            except (TypeError, ValueError) as exc:
                raise CalibrationError(f"{path}:{i}: not a number ({exc})") from exc
            if not (x > 0 and y > 0 and math.isfinite(x) and math.isfinite(y)):
                raise CalibrationError(f"{path}:{i}: iops and latency_ms must be positive and finite")
            points.append((x, y))
    if not points:
        raise CalibrationError(f"{path}: no data rows")
    return sorted(points)


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
        CalibrationError: bad CSV, or a workload target that is not a controller or cloud VM.
    """
    catalog = catalog or bundled_catalog()
    points = read_points_csv(path)
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
                      source=f"lab data {Path(path).name} ({'host' if host_side else 'storage'}-side latency)")
    return res.profiles[0][1]


# ------------------------------------------------------------------------------------------------ seeds

_SEED000 = "seed 000_da033415b257cd85.txt §3.5, §3.7, §5"
_SEED001 = "seed 001_0b3f26d6e9898a6b.txt §2, §3.6, §4"
_SEED004 = "seed 004_2fde4983b68c72f7.txt §4 Tables 2-5"

CVO_ROWS = {
    # vm: {workload: (single value, single latency, ha value, ha latency)}; values are IOPS (oltp) or MB/s
    "Standard_DS14_v2": {"oltp": (18120, 9, 17195, 10), "stream-read": (427, None, 380, None),
                         "stream-write": (257, None, 243, None), "analytics": (145, 14, 152, 12)},
    "Standard_DS4_v2": {"oltp": (18770, 7, 15995, 11), "stream-read": (411, None, 346, None),
                        "stream-write": (258, None, 205, None), "analytics": (135, 9, 128, 14)},
    "Standard_DS3_v2": {"oltp": (15755, 8, None, None), "stream-read": (340, None, None, None),
                        "stream-write": (47, None, None, None), "analytics": (90, 20, None, None)},
}
"""Seed 004 Tables 2-5 (also in published.toml ``[[cloud]]``), used to fit each VM's profile."""

CVO_NORM_POWER = 6
"""The CVO fits minimise the sum of the 6th powers of the relative residuals rather than their squares: each
table row is judged on its own (within 20%), so the fit should keep the worst row small rather than the average."""


CVO_CASES = {"oltp": "cvo-azure-oltp", "stream-read": "cvo-azure-streaming-read",
             "stream-write": "cvo-azure-streaming-write", "analytics": "cvo-azure-analytics"}
"""published.toml case id of each seed 004 table (the checks that its rows' observations fit)."""


def cvo_scenarios(vm_size: str) -> tuple[dict[str, Scenario], list[Observation]]:
    """The seed 004 scenarios and observations of one VM size (single node and HA rows)."""
    vm_id = seeds.CVO_VM_IDS[vm_size]
    scen: dict[str, Scenario] = {}
    obs: list[Observation] = []
    for workload, (sv, sl, hv, hl) in CVO_ROWS[vm_size].items():
        for ha, value, lat in ((False, sv, sl), (True, hv, hl)):
            if value is None:
                continue
            key = f"{vm_size} {'HA' if ha else 'single'} {workload}"
            case, prefix, unit = CVO_CASES[workload], "ha" if ha else "single", "iops" if workload == "oltp" else "mbps"
            scen[key] = seeds.cvo(vm_id, ha, workload, concurrency=cvo_concurrency(value, lat, workload))
            block = seeds.CVO_WORKLOADS[workload]["block_kib"] * 1024
            iops = value if workload == "oltp" else value * 1e6 / block
            obs.append(Observation(key, "peak_iops", value=iops, label=f"{key} {value:g}",
                                   checks=((case, f"{vm_size}_{prefix}_{unit}"),)))
            if lat is not None:
                obs.append(Observation(key, "peak_latency", value=lat, host_side=True, weight=0.5,
                                       label=f"{key} {lat:g} ms", checks=((case, f"{vm_size}_{prefix}_latency_ms"),)))
    return scen, obs


# ------------------------------------------------------------------------------------------------ seed fit steps


class FitContext:
    """What the seed fit steps share while they run: the working catalog (the base catalog with each finished
    step's profiles in place, and the profiles of steps left without data removed) and the finished results."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.results: dict[str, FitResult] = {}
        self.memo: dict[str, float] = {}


@dataclass(frozen=True)
class SeedFit:
    """One step of :func:`derive_seed_profiles`: which profiles it produces, which published numbers it fits.

    Attributes:
        name: the step's name (also the key of its stored results).
        outputs: (catalog record id, software, protocol) of each profile it produces.
        observations: ``ctx -> [Observation]``; cheap (builds scenarios, runs nothing), so the in-sample marking
            of validation checks can be read from it without fitting.
        fit: ``(ctx, observations) -> FitResult``; runs the least-squares fit on the given (possibly reduced)
            observations, with ``ctx.catalog`` as the base.
        anchors: steps whose fitted profiles this one is measured against (a relation such as "9.0 / 8.3.1 =
            1.6"); without their data it has none either.
        assumed: the step fits nothing (its profiles are stated assumptions); cross-validation keeps it.
    """

    name: str
    outputs: tuple[tuple[str, str, str], ...]
    observations: Callable[[FitContext], list[Observation]]
    fit: Callable[[FitContext, list[Observation]], FitResult]
    anchors: tuple[str, ...] = ()
    assumed: bool = False


_AFF_TPCE = "aff8080-tpce-fcp"
_PER_KIB_NOTE = {"cpu_per_kib_us": "held at 0.5 during this fit (memory copy + checksum at ~2 GB/s per core; not "
                                   "identifiable from 8 KiB-only data)"}
_NEWER_RELEASE_NOTES = {
    **_PER_KIB_NOTE,
    "fixed_latency_us": "held at the newer release's fitted value (same controller), not identifiable from one relation",
    "servers_per_node": "held at the newer release's fitted value (same controller)",
}
_A800_FCP, _A800_NVME = "a800-slob-select-fcp", "a800-slob-select-nvmefc"
_A800_PEAK_RATIO = ("a800-nvmefc-vs-fcp-peak", "peak_iops_ratio_nvmefc_over_fcp")


def _aff90_obs(ctx: FitContext) -> list[Observation]:
    # AFF8080A EX, ONTAP 9.0, FCP (seed 000): 4K IOPS at 0.266 ms, peak 350K IOPS at 1.29 ms at the end of the
    # 8-server ramp, <= 1 ms up to 339K. Storage-side latencies.
    return [
        Observation("aff", "latency_at_iops", value=0.266, iops=4000, label="4K IOPS @ 0.266 ms",
                    checks=((_AFF_TPCE, "latency_ms_at_4k_iops"),)),
        Observation("aff", "peak_iops", value=350_000, label="peak 350K IOPS", checks=((_AFF_TPCE, "peak_iops"),)),
        Observation("aff", "peak_latency", value=1.29, label="peak @ 1.29 ms",
                    checks=((_AFF_TPCE, "latency_ms_at_peak"),)),
        Observation("aff", "latency_upper_bound", value=1.0, iops=339_000, weight=2.0, label="<= 1 ms @ 339K",
                    checks=((_AFF_TPCE, "latency_ms_at_339k_iops"),)),
    ]


def _aff90_fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
    spec = ProfileSpec("netapp-aff8080a-ex", "9.0", "FCP", ("cpu_read_us", "fixed_latency_us"),
                       x0={"cpu_read_us": 100.0, "fixed_latency_us": 20.0}, fixed={"cpu_per_kib_us": 0.5},
                       write_ratio=WRITE_TO_READ_CPU, held_notes=_PER_KIB_NOTE,
                       bounds={"cpu_read_us": (1.0, 2000.0), "fixed_latency_us": (0.0, 500.0)})
    return fit_profile([spec], {"aff": seeds.aff8080("9.0")}, obs, ctx.catalog,
                       source=_SEED000 + " (AFF8080A EX, ONTAP 9.0, FCP)",
                       server_prior=ctx.catalog.get("netapp-aff8080a-ex", Controller).cores_per_node)


def _aff831_obs(ctx: FitContext) -> list[Observation]:
    # 'over 60% more IOPS under 1 ms' with 9.0 than with Data ONTAP 8.3.1 (seed 000 §3.7), against the fitted 9.0.
    def ratio_831(ramps):
        if "at_slo_90" not in ctx.memo:
            r9 = run_ramps({"aff": seeds.aff8080("9.0")}, ctx.catalog)["aff"]
            ctx.memo["at_slo_90"] = iops_at_latency(r9.iops, r9.storage_ms, 1.0) or r9.iops[-1]
        x = iops_at_latency(ramps["aff"].iops, ramps["aff"].storage_ms, 1.0) or 1.0
        return (ctx.memo["at_slo_90"] / x - 1.60) / 1.60

    return [Observation("aff", "custom", fn=ratio_831, label="9.0 / 8.3.1 IOPS under 1 ms = 1.6",
                        checks=(("aff8080-ontap9-vs-831", "iops_under_1ms_ratio_9.0_over_8.3.1"),))]


def _aff831_fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
    # Same parallelism and fixed latency as 9.0; only the CPU per I/O is fitted.
    p90 = ctx.results["AFF8080A EX 9.0 FCP"].profiles[0][1]
    spec = ProfileSpec("netapp-aff8080a-ex", "8.3.1", "FCP", ("cpu_read_us",),
                       x0={"cpu_read_us": p90.cpu_read_us * 1.5},
                       fixed={"cpu_per_kib_us": p90.cpu_per_kib_us, "fixed_latency_us": p90.fixed_latency_us},
                       write_ratio=WRITE_TO_READ_CPU, servers=p90.servers_per_node, held_notes=_NEWER_RELEASE_NOTES,
                       bounds={"cpu_read_us": (1.0, 5000.0)})
    return fit_profile([spec], {"aff": seeds.aff8080("8.3.1")}, obs, ctx.catalog, None,
                       source=_SEED000 + " (Data ONTAP 8.3.1, relation to 9.0)")


def _a800_obs(ctx: FitContext) -> list[Observation]:
    # AFF A800, ONTAP 9.5, FCP and NVMe/FC jointly (seed 001): NVMe/FC reaches 2,200K IOPS at 0.14 ms at the end
    # of the 450-user ramp; FCP reaches 1,300K; at FCP's peak load NVMe/FC latency is 0.47 x FCP's. Host-side
    # latencies. The published peak ratio 1.70 is the quotient of the two fitted peaks, so it is in-sample too.
    def ratio_lat(ramps):
        f, n = ramps["fcp"], ramps["nvme"]
        nv = latency_at_iops(n.iops, n.host_ms, f.iops[-1])
        if nv is None:
            return 1.0
        return (nv / f.host_ms[-1] - 0.47) / 0.47

    return [
        Observation("nvme", "peak_iops", value=2_200_000, label="NVMe/FC peak 2,200K",
                    checks=((_A800_NVME, "peak_iops"), _A800_PEAK_RATIO)),
        Observation("nvme", "peak_latency", value=0.14, host_side=True, label="NVMe/FC peak @ 0.14 ms",
                    checks=((_A800_NVME, "host_latency_ms_at_peak"),)),
        Observation("fcp", "peak_iops", value=1_300_000, label="FCP peak 1,300K",
                    checks=((_A800_FCP, "peak_iops"), _A800_PEAK_RATIO)),
        Observation("fcp", "custom", fn=ratio_lat, label="NVMe/FC latency at FCP peak = 0.47 x FCP",
                    checks=(("a800-nvmefc-vs-fcp-latency", "latency_ratio_nvmefc_over_fcp_at_fcp_peak"),)),
    ]


def _a800_fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
    # Parallelism and fixed latency shared by both protocols (same controller and software); CPU per I/O differs.
    common = {"cpu_per_kib_us": 0.5}
    b8 = {"cpu_read_us": (1.0, 1000.0), "fixed_latency_us": (0.0, 500.0)}
    s_fcp = ProfileSpec("netapp-aff-a800", "9.5", "FCP", ("cpu_read_us", "fixed_latency_us"),
                        x0={"cpu_read_us": 60.0, "fixed_latency_us": 10.0}, fixed=common,
                        write_ratio=WRITE_TO_READ_CPU, bounds=b8, held_notes=_PER_KIB_NOTE)
    s_nvme = ProfileSpec("netapp-aff-a800", "9.5", "NVMe/FC", ("cpu_read_us", "fixed_latency_us"),
                         x0={"cpu_read_us": 35.0, "fixed_latency_us": 10.0}, fixed=common,
                         write_ratio=WRITE_TO_READ_CPU, bounds=b8, held_notes=_PER_KIB_NOTE)
    a8 = {"fcp": seeds.a800("9.5", "FCP"), "nvme": seeds.a800("9.5", "NVMe/FC")}
    return fit_profile([s_fcp, s_nvme], a8, obs, ctx.catalog,
                       source=_SEED001 + " (AFF A800, ONTAP 9.5, FCP and NVMe/FC)",
                       server_prior=ctx.catalog.get("netapp-aff-a800", Controller).cores_per_node)


def _a800_94_obs(ctx: FitContext) -> list[Observation]:
    # AFF A800, ONTAP 9.4, FCP: at 0.23 ms (host side) 9.5 serves 1.39x the IOPS of 9.4 (seed 001 §4).
    def ratio_94(ramps):
        if "at23_95" not in ctx.memo:
            f95 = run_ramps({"fcp": seeds.a800("9.5", "FCP")}, ctx.catalog)["fcp"]
            ctx.memo["at23_95"] = iops_at_latency(f95.iops, f95.host_ms, 0.23) or f95.iops[-1]
        x = iops_at_latency(ramps["fcp"].iops, ramps["fcp"].host_ms, 0.23) or 1.0
        return (ctx.memo["at23_95"] / x - 1.39) / 1.39

    return [Observation("fcp", "custom", fn=ratio_94, label="9.5 / 9.4 IOPS at 0.23 ms = 1.39",
                        checks=(("a800-ontap95-vs-94-fcp", "iops_ratio_at_0.23ms_9.5_over_9.4"),))]


def _a800_94_fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
    p95 = ctx.results["AFF A800 9.5 FCP + NVMe/FC"].profiles[0][1]
    spec = ProfileSpec("netapp-aff-a800", "9.4", "FCP", ("cpu_read_us",), x0={"cpu_read_us": p95.cpu_read_us * 1.4},
                       fixed={"cpu_per_kib_us": p95.cpu_per_kib_us, "fixed_latency_us": p95.fixed_latency_us},
                       write_ratio=WRITE_TO_READ_CPU, servers=p95.servers_per_node, held_notes=_NEWER_RELEASE_NOTES,
                       bounds={"cpu_read_us": (1.0, 5000.0)})
    return fit_profile([spec], {"fcp": seeds.a800("9.4", "FCP")}, obs, ctx.catalog, None,
                       source=_SEED001 + " (ONTAP 9.4 GA, relation to 9.5)")


_ASSUMED_BLOCK = (("netapp-ef550", "SANtricity 11", 4), ("generic-spinning-fc-array-4x16", "generic", 4))


def _assumed_fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
    # EF550 and the spinning array (seed 003): no latency or IOPS data to fit; assumed profiles so that the
    # throughput cases run on a stated basis (their CPUs are not the limit at 2.5 GB/s).
    why = "assumed: seed 003 prints no IOPS or latency for this array; lean block-only controller values"
    profiles = tuple((rid, PerfProfile(
        software=sw, protocol="FCP", cpu_read_us=20.0, cpu_write_us=40.0, cpu_per_kib_us=0.1,
        servers_per_node=servers, fixed_latency_us=50.0,
        source="assumed (seed 003_de11bf4501a758b5.txt has throughput only): block-only controller CPU costs",
        sources={k: why for k in (*FIELDS, "servers_per_node")})) for rid, sw, servers in _ASSUMED_BLOCK)
    return FitResult(profiles, (), 0.0, ())


def _cvo_fit(vm_size: str) -> Callable[[FitContext, list[Observation]], FitResult]:
    def fit(ctx: FitContext, obs: list[Observation]) -> FitResult:
        # Cloud Volumes ONTAP 9.5 on Azure, iSCSI (seed 004 Tables 2-5): single node and HA rows together (the HA
        # mechanism, write mirroring, is in the model, not in the parameters).
        scen, _ = cvo_scenarios(vm_size)
        used = {o.scenario for o in obs}
        spec = ProfileSpec(seeds.CVO_VM_IDS[vm_size], "9.5", "iSCSI",
                           ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "fixed_latency_us"),
                           x0={"cpu_read_us": 100.0, "cpu_write_us": 300.0, "cpu_per_kib_us": 5.0,
                               "fixed_latency_us": 500.0},
                           bounds={"cpu_read_us": (1.0, 1e4), "cpu_write_us": (1.0, 1e5),
                                   "cpu_per_kib_us": (0.0, 1e3), "fixed_latency_us": (0.0, 2e4)})
        vm = ctx.catalog.get(seeds.CVO_VM_IDS[vm_size], CloudVm)
        return fit_profile([spec], {k: v for k, v in scen.items() if k in used}, obs, ctx.catalog,
                           server_grid=(1, 2, 4, 8, 16, 32), source=_SEED004, server_prior=vm.vcpu,
                           norm_power=CVO_NORM_POWER)

    return fit


def seed_fits() -> list[SeedFit]:
    """The steps of :func:`derive_seed_profiles`, in the order they run (a step's anchors come before it)."""
    steps = [
        SeedFit("AFF8080A EX 9.0 FCP", (("netapp-aff8080a-ex", "9.0", "FCP"),), _aff90_obs, _aff90_fit),
        SeedFit("AFF8080A EX 8.3.1 FCP", (("netapp-aff8080a-ex", "8.3.1", "FCP"),), _aff831_obs, _aff831_fit,
                anchors=("AFF8080A EX 9.0 FCP",)),
        SeedFit("AFF A800 9.5 FCP + NVMe/FC", (("netapp-aff-a800", "9.5", "FCP"), ("netapp-aff-a800", "9.5", "NVMe/FC")),
                _a800_obs, _a800_fit),
        SeedFit("AFF A800 9.4 FCP", (("netapp-aff-a800", "9.4", "FCP"),), _a800_94_obs, _a800_94_fit,
                anchors=("AFF A800 9.5 FCP + NVMe/FC",)),
        SeedFit("EF550 and spinning array (assumed)", tuple((rid, sw, "FCP") for rid, sw, _ in _ASSUMED_BLOCK),
                lambda ctx: [], _assumed_fit, assumed=True),
    ]
    for vm_size in ("Standard_DS14_v2", "Standard_DS4_v2", "Standard_DS3_v2"):
        steps.append(SeedFit(f"CVO {vm_size}", ((seeds.CVO_VM_IDS[vm_size], "9.5", "iSCSI"),),
                             lambda ctx, v=vm_size: cvo_scenarios(v)[1], _cvo_fit(vm_size)))
    return steps


def in_sample_checks(catalog: Catalog | None = None) -> dict[tuple[str, str], str]:
    """(published.toml case id, quantity) of every validation check whose published number a seed fit uses ->
    the name of that fit. Read from the fits' observations (nothing is fitted; about 0.1 s)."""
    ctx = FitContext(catalog or bundled_catalog())
    out: dict[tuple[str, str], str] = {}
    for step in seed_fits():
        for o in step.observations(ctx):
            for key in o.checks:
                out.setdefault(key, step.name)
    return out


@dataclass(frozen=True)
class StepOutcome:
    """What one seed fit step did in :func:`run_seed_fits`.

    ``status``: "fitted" (full data), "refit" (refitted without the left-out observations, or because an anchor
    changed), "reused" (unchanged: the reference result), "no data" (every observation left out, or an anchor has
    none: its profiles are removed and the engine's fallback serves them), "assumed". ``dropped`` lists the
    labels of the observations left out; ``result`` is None for "no data".
    """

    name: str
    status: str
    result: FitResult | None
    dropped: tuple[str, ...] = ()
    note: str = ""


def without_profiles(catalog: Catalog, outputs: Iterable[tuple[str, str, str]]) -> Catalog:
    """A catalog whose records lack these (record id, software, protocol) profiles."""
    by_id: dict[str, set[tuple[str, str]]] = {}
    for rid, sw, proto in outputs:
        by_id.setdefault(rid, set()).add((sw, proto))
    updated = []
    for rid, keys in by_id.items():
        record = catalog.find(rid)
        if isinstance(record, (Controller, CloudVm)):
            keep = [p for p in record.performance if (p.software, p.protocol) not in keys]
            updated.append(record.model_copy(update={"performance": keep}))
    return catalog.with_entries(updated) if updated else catalog


def run_seed_fits(catalog: Catalog | None = None, exclude_cases: Iterable[str] = (),
                  reference: dict[str, FitResult] | None = None, verbose: bool = False) -> tuple[list[StepOutcome], Catalog]:
    """Run the seed fit steps, optionally leaving out every observation of some validation cases.

    Args:
        catalog: base catalog (default: bundled).
        exclude_cases: published.toml case ids whose observations are left out (leave-one-out cross-validation).
        reference: results of the full fit by step name; a step whose observations and anchors are unchanged
            reuses its reference result instead of refitting.
        verbose: print each step's profiles.

    Returns:
        (one :class:`StepOutcome` per step, the catalog with every step's profiles in place and those of "no
        data" steps removed).
    """
    excluded = set(exclude_cases)
    ctx = FitContext(catalog or bundled_catalog())
    outcomes: dict[str, StepOutcome] = {}
    for step in seed_fits():
        if step.assumed:
            result = step.fit(ctx, [])
            outcomes[step.name] = StepOutcome(step.name, "assumed", result)
        else:
            obs = step.observations(ctx)
            kept = [o for o in obs if not any(c in excluded for c, _ in o.checks)]
            dropped = tuple(o.label for o in obs if o not in kept)
            lost = [a for a in step.anchors if outcomes[a].status == "no data"]
            changed = [a for a in step.anchors if outcomes[a].status in ("refit", "no data")]
            if lost or not kept:
                why = (f"anchored to {', '.join(lost)}, which has no data left" if lost
                       else "no observation left")
                outcomes[step.name] = StepOutcome(step.name, "no data", None, dropped, why)
                ctx.catalog = without_profiles(ctx.catalog, step.outputs)
                if verbose:
                    print(f"{step.name}: {why}", flush=True)
                continue
            if reference and step.name in reference and not dropped and not changed:
                result, status = reference[step.name], "reused"
            else:
                result = step.fit(ctx, kept)
                status = "refit" if (dropped or changed or excluded) else "fitted"
            note = "" if dropped or changed or status == "fitted" or status == "reused" else "no stored result to reuse"
            outcomes[step.name] = StepOutcome(step.name, status, result, dropped, note)
        ctx.results[step.name] = result
        ctx.catalog = with_profiles(ctx.catalog, result.profiles)
        if verbose:
            for rid, p in result.profiles:
                print(f"{step.name} [{outcomes[step.name].status}]: {rid} {p.software} {p.protocol} "
                      f"read {p.cpu_read_us:.3f} us, fixed {p.fixed_latency_us:.3f} us, servers {p.servers_per_node}, "
                      f"stderr {p.stderr}", flush=True)
    return list(outcomes.values()), ctx.catalog


def derive_seed_profiles(catalog: Catalog | None = None, verbose: bool = False) -> list[tuple[str, PerfProfile]]:
    """Fit the catalog's profiles from the seeds' published numbers (the steps of :func:`seed_fits`; each step's
    observations say which numbers and which validation checks it uses).

    One parameter set per controller + software version + protocol; every case of that system uses it.
    Takes about a minute (grid over servers_per_node x least squares per system).

    Returns:
        [(catalog record id, PerfProfile)], in a stable order.
    """
    outcomes, _ = run_seed_fits(catalog, verbose=verbose)
    return [rp for o in outcomes if o.result is not None for rp in o.result.profiles]


# ------------------------------------------------------------------------------------------------ catalog text

_MARK = "# --- calibrated performance profiles (written by models.calibration.calibrate_seed_systems) ---"


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def profile_toml(kind: str, p: PerfProfile) -> str:
    """The ``[[<kind>.performance]]`` table (its sources, and its standard errors when fitted) of one profile, as
    TOML text."""
    lines = [f"[[{kind}.performance]]", f"software = {_toml_str(p.software)}", f"protocol = {_toml_str(p.protocol)}"]
    for k in FIELDS:
        lines.append(f"{k} = {round(getattr(p, k), 3)!r}")
    lines.append(f"servers_per_node = {p.servers_per_node}")
    lines.append(f"source = {_toml_str(p.source)}")
    lines.append(f"[{kind}.performance.sources]")
    for k, v in p.sources.items():
        lines.append(f"{k} = {_toml_str(v)}")
    if p.stderr:
        lines.append(f"[{kind}.performance.stderr]")
        for k, v in p.stderr.items():
            lines.append(f"{k} = {float(f'{v:.4g}')!r}")
    return "\n".join(lines)


def write_profiles(text: str, kind: str, profiles: dict[str, list[PerfProfile]]) -> str:
    """TOML text of a catalog file with each record's calibrated profiles replaced.

    For each ``[[kind]]`` block whose ``id`` is in ``profiles``: drop its ``performance = []`` line and any
    previously written calibrated block (from :data:`_MARK` to the block's end), then append the new tables at
    the block's end. Other text is kept byte for byte.
    """
    header = f"[[{kind}]]"
    parts = re.split(rf"(?m)^(?=\[\[{re.escape(kind)}\]\]\s*$)", text)
    out = []
    for part in parts:
        m = re.search(r'(?m)^id\s*=\s*"([^"]+)"', part) if part.startswith(header) else None
        if not m or m.group(1) not in profiles:
            out.append(part)
            continue
        body = part
        if _MARK in body:
            body = body[: body.index(_MARK)]
        body = re.sub(r"(?m)^performance\s*=\s*\[\s*\]\s*\n", "", body)
        body = body.rstrip("\n") + "\n\n" + _MARK + "\n"
        body += "\n".join(profile_toml(kind, p) for p in profiles[m.group(1)]) + "\n\n"
        out.append(body)
    return "".join(out).rstrip("\n") + "\n"


def calibrate_seed_systems(write: bool = False, catalog_dir: Path | None = None) -> list[tuple[str, PerfProfile]]:
    """Fit every seed system's profile, print the values, and with ``write=True`` write the profiles (with their
    standard errors) into ``controllers.toml`` and ``cloud.toml`` of ``catalog_dir`` (default: the bundled catalog
    directory). Their leave-one-out cross-validation is
    :func:`models.validation.cross_validation.calibrate_and_cross_validate` (``storplan calibrate`` runs both).

    Raises:
        CalibrationError: a fit failed; OSError: the files cannot be written.
    """
    from models.resources import catalog_dir as bundled_dir

    profiles = derive_seed_profiles(verbose=True)
    for rid, p in profiles:
        print(f"{rid:34s} {p.software:14s} {p.protocol:8s} read {p.cpu_read_us:8.2f} us  write {p.cpu_write_us:8.2f} us"
              f"  per KiB {p.cpu_per_kib_us:6.3f} us  servers {p.servers_per_node:3d}  fixed {p.fixed_latency_us:8.2f} us"
              + (f"  stderr {', '.join(f'{k} {v:.3g}' for k, v in p.stderr.items())}" if p.stderr else ""))
    directory = Path(catalog_dir or bundled_dir())
    if write:
        grouped: dict[str, list[PerfProfile]] = {}
        for rid, p in profiles:
            grouped.setdefault(rid, []).append(p)
        for fname, kind in (("controllers.toml", "controller"), ("cloud.toml", "cloud_vm")):
            f = directory / fname
            text = f.read_text(encoding="utf-8")
            new = write_profiles(text, kind, grouped)
            if new != text:
                f.write_text(new, encoding="utf-8")
                print(f"wrote {f}")
    return profiles


if __name__ == "__main__":  # pragma: no cover - manual re-derivation: uv run python -m models.calibration --write
    import sys

    calibrate_seed_systems(write="--write" in sys.argv)

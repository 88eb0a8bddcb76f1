"""Public measured ramps (``[[ramp]]`` of resources/validation/ramps.toml) replayed through the engine.

A ramp case gives the average latency a public benchmark measured at each load level (10% .. 100% of the reported
peak). Its scenario (:mod:`models.performance.public_ramps`) is evaluated with the catalog's profile of the tested
system: the SPECstorage ramps' NFS profiles are fitted to every level of their ramp
(``models.calibration.seed_profiles.NFS_RAMP_FITS``), so their checks are in-sample and the leave-one-out
cross-validation gives their out-of-sample predictions (the profile then comes from the record's ``profile_from``
sibling); the SPECsfs2008 FAS3140 ramp and the SPECstorage Azure NetApp Files large volume ramp are fitted by
nothing and their checks are predictions (the large volume is described from Microsoft's published limits for its
ramp only, :func:`ramp_catalog`), except the large volume's saturation bound: its provisioned size is an input
chosen with the published peak in view (``RAMP_SATURATION_INPUTS``), which makes that one check in-sample. The
checks:

* ``latency_ms_at_<pct>pct_load``: the client-side (host) latency the open model predicts at the load level's
  published operations per second, against the published average latency (relative tolerance of the case);
  "n/a" when the model is saturated there;
* ``knee_ratio_50_to_10``, ``knee_ratio_80_to_10``, ``knee_ratio_90_to_10``: the curve's shape. Published: the
  latency at the 50% / 80% / 90% load level over the latency at the 10% level. Predicted: the model's latency at
  50% / 80% / 90% of *its own* saturation over its latency at 10% of it (so a wrong absolute speed does not hide a right
  shape, or the reverse). The reported 100% level of a benchmark is the highest load that passed its rules, read here as
  saturation. Only a ramp with a 10% level has them (the Azure NetApp Files ramp's levels are sixteenths);
* ``saturation_ops_per_sec`` (lower bound): the system delivered the published peak, so the predicted saturation
  must not be below it (beyond the tolerance).

Tolerances (:func:`ramp_tolerances`): the case's ``tolerance`` (StorPlan's accuracy target on latency, 30%) on a
latency and on a shape ratio, widened by the printed resolution (``latency_resolution_ms``: a latency printed to one
decimal stands for +-0.05 ms, i.e. +-0.05 / printed value, and a ratio of two printed latencies moves by the sum of
both relative half steps), and ``tolerance_saturation`` (the target on saturation, 20%) on the saturation bound.

The runner reports these cases after the seed cases with their own summaries; ``storplan validate`` counts them in
its headline by category (:mod:`models.validation.summary`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from models.catalog import Catalog, Controller, ManagedService
from models.performance import PathError, WorkloadPath, build_path
from models.performance.engine import open_latency_ms, open_shape_ms
from models.performance.profiles import profile_basis
from models.performance.public_ramps import (
    RAMP_BUILDERS,
    RAMP_CATALOG_ENTRIES,
    RAMP_SATURATION_INPUTS,
    SHAPE_LEVELS_PCT,
    SHAPE_LIGHT_SHARE,
    block_kib_of,
    mean_block_kib,
    published_shape,
)
from models.project.model import ControllerNode, Scenario
from models.validation.checks import Check

SHAPE_LOAD_SHARES = (SHAPE_LIGHT_SHARE, *(pct / 100 for pct in SHAPE_LEVELS_PCT))
"""Shares of saturation at which the predicted curve's shape is read (light, 50%, 80%, 90%), as the ramps' 10%,
50%, 80% and 90% load levels."""


class RampCaseError(RuntimeError):
    """A ramp's scenario could not be evaluated (the message carries the engine's problems)."""


def _path(scenario: Scenario, catalog: Catalog) -> WorkloadPath:
    """The ramp scenario's workload path (the functions the calibration fits with, so an in-sample check reads
    what was fitted). Raises RampCaseError when the path cannot be built."""
    try:
        return build_path(scenario, catalog, scenario.workloads[0])
    except PathError as exc:
        raise RampCaseError(str(exc)) from exc


def _client_latency_at(builder: Callable[[float, float], Scenario], block_kib: float, ops: float,
                       catalog: Catalog) -> float | None:
    """Client-side open-model latency (ms) at ``ops`` operations per second, the figure ``evaluate_performance``
    reports as ``host_latency_at_target_ms``; None when saturated there."""
    return open_latency_ms(_path(builder(block_kib, ops), catalog), ops, host_side=True)


def predicted_shape(setup: str, block_kib: float, catalog: Catalog) -> tuple[float, dict[float, float | None]]:
    """The predicted saturation (operations per second) of a ramp's scenario and its client-side latency (ms, open
    model) at each share of :data:`SHAPE_LOAD_SHARES` of that saturation (None where saturated or unbounded)."""
    return open_shape_ms(_path(RAMP_BUILDERS[setup](block_kib), ramp_catalog(setup, catalog)), SHAPE_LOAD_SHARES,
                         host_side=True)


def ramp_catalog(setup: str, catalog: Catalog) -> Catalog:
    """``catalog`` with the records the ramp's scenario needs beyond it
    (:data:`models.performance.public_ramps.RAMP_CATALOG_ENTRIES`: a tested system described from its provider's
    published limits, for this ramp only); ``catalog`` itself when the ramp needs none."""
    extra = RAMP_CATALOG_ENTRIES.get(setup, ())
    return catalog.with_entries(extra) if extra else catalog


def _profile_text(builder: Callable[[float], Scenario], catalog: Catalog) -> str:
    """How the ramp's controller profile was obtained, in words (calibrated / derived / assumed, and why); for a
    managed service, its published limits."""
    scenario = builder(8.0)
    target = next(n for n in scenario.nodes if n.id == scenario.workloads[0].target)
    if not isinstance(target, ControllerNode):
        service = catalog.get(target.catalog_id, ManagedService)
        return (f"managed service: {service.name}, the provider's published limits, light-load latency "
                f"{service.kind_of('latency_us') or 'not sourced'}; provisioned size, clients and data set assumed")
    node = target
    record = catalog.get(node.catalog_id, Controller)
    basis = profile_basis(record, node.software, "NFS", catalog)
    return (f"controller profile: {basis.kind} ({basis.reason[:200]}{'...' if len(basis.reason) > 200 else ''}); "
            "drives, ports, clients and data set assumed")


def _num(x: float | None) -> float:
    return float("nan") if x is None else float(x)


def ramp_tolerances(case: dict[str, Any]) -> tuple[Callable[[float], float], Callable[[float, float], float], float]:
    """The tolerances of a ``[[ramp]]`` case (see the module docstring): (relative tolerance of a latency check given
    the printed latency in ms, of a shape ratio given its two printed latencies in ms, of the saturation bound).
    Raises KeyError when the case has no ``tolerance``."""
    tol = float(case["tolerance"])
    half = float(case.get("latency_resolution_ms", 0.0)) / 2
    saturation = float(case.get("tolerance_saturation", tol))

    def latency(printed_ms: float) -> float:
        return tol + (half / printed_ms if printed_ms > 0 else 0.0)

    def ratio(at_ms: float, light_ms: float) -> float:
        return tol + (half / at_ms if at_ms > 0 else 0.0) + (half / light_ms if light_ms > 0 else 0.0)

    return latency, ratio, saturation


def case_ramp(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Every check of one ``[[ramp]]`` case (see the module docstring): latency at each load level, the curve's
    shape at 50%, 80% and 90%, and the saturation bound. ``case`` is the ramps.toml table; raises KeyError for an
    unknown ``setup`` and RampCaseError when the engine gives no prediction."""
    cid = case["id"]
    seed = f"{case.get('seed', '')} {case.get('section', '')}".strip()
    tol_latency, tol_ratio, tol_saturation = ramp_tolerances(case)
    builder = RAMP_BUILDERS[case["setup"]]
    catalog = ramp_catalog(case["setup"], catalog)
    points = sorted(case["points"], key=lambda p: p["pct"])
    base = ("NFSv3 with the SPEC SFS 2008 operation mix (a proxy for SPECstorage 2020), reads and writes of the "
            "level's data per data operation (MB/s / (Ops/s x 0.28), or the case's assumed block_kib where no MB/s "
            f"is printed); {_profile_text(builder, catalog)}. ")
    checks = []
    default_kib = case.get("block_kib")
    for p in points:
        kib = block_kib_of(p, default_kib)
        pred = _client_latency_at(builder, kib, p["ops_per_sec"], catalog)
        checks.append(Check(cid, f"latency_ms_at_{p['pct']}pct_load", p["latency_ms"], _num(pred),
                            tol_latency(p["latency_ms"]), seed=seed,
                            interpretation=base + f"Client-side latency (open model) at {p['ops_per_sec']:,} Ops/s "
                            f"({kib:.1f} KiB per read or write); n/a = saturated there."))
    sat, lat = predicted_shape(case["setup"], mean_block_kib(points, default_kib), catalog)
    light = lat[SHAPE_LIGHT_SHARE]
    by_pct = {p["pct"]: p["latency_ms"] for p in points}
    # the shape reads the 10% level as light load: a ramp whose levels are not 10% steps has no shape checks
    for pct, ratio in (published_shape(points) if 10 in by_pct else {}).items():
        at = lat[pct / 100]
        pred_ratio = at / light if at is not None and light else float("nan")
        checks.append(Check(cid, f"knee_ratio_{pct}_to_10", ratio, pred_ratio, tol_ratio(by_pct[pct], by_pct[10]),
                            seed=seed,
                            interpretation=base + f"Shape: latency at the {pct}% load level over the 10% level "
                            f"(published) against the model's latency at {pct}% over 10% of its own saturation "
                            f"({_num(sat):,.0f} Ops/s), client-side, open model."))
    peak = points[-1]["ops_per_sec"]
    checks.append(Check(cid, "saturation_ops_per_sec", peak, _num(sat), tol_saturation, kind="lower_bound", seed=seed,
                        fitted_by=RAMP_SATURATION_INPUTS.get(case["setup"], ""),
                        interpretation=base + "The system delivered the published peak, so the predicted "
                        "saturation must not be below it (beyond the tolerance)."))
    return checks


RAMP_CASES = {"specstorage2020-swbuild-a900-2node": case_ramp, "specstorage2020-eda-a90-8node": case_ramp,
              "specsfs2008-fas3140-sata-pam": case_ramp, "specstorage2020-eda-anf-large-volume": case_ramp}
"""Case id -> case function of every ``[[ramp]]`` case."""

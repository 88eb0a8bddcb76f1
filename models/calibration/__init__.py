"""Calibration: fit a controller's PerfProfile to measured (IOPS, latency) points with the engine's own model.

The residuals are computed by building the scenario's stations (``models.performance.build_path``) and solving
its closed ramp (``models.performance.ramp``), the same functions ``evaluate_performance`` uses, with the
candidate profile placed in the catalog. Continuous parameters (CPU demand per I/O, fixed latency) are fitted
by ``scipy.optimize.least_squares`` (trust-region reflective, bounded; Branch, Coleman & Li 1999); the integer
parallelism ``servers_per_node`` by a grid over integers (coarse, then refined around the best), each grid
point with its own least-squares fit.

One job in three modules: :mod:`.fit` (the fitter and a user's lab data), :mod:`.seed_profiles` (the
catalog's profiles from the seeds' published numbers) and :mod:`.catalog_text` (writing them into the catalog's
files). Entry points, all importable from here:

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

from models.calibration.catalog_text import calibrate_seed_systems, profile_toml, write_profiles
from models.calibration.fit import (
    ASSUMED_RELATIVE_SD,
    FIELDS,
    SERVER_GRID,
    WRITE_TO_READ_CPU,
    CalibrationError,
    FitResult,
    Observation,
    ProfileSpec,
    fit_from_csv,
    fit_profile,
    parameter_stderr,
    read_points_csv,
    residual,
    run_ramps,
    with_profiles,
)
from models.calibration.seed_profiles import (
    CVO_CASES,
    CVO_NORM_POWER,
    CVO_ROWS,
    FitContext,
    SeedFit,
    StepOutcome,
    cvo_scenarios,
    derive_seed_profiles,
    in_sample_checks,
    run_seed_fits,
    seed_fits,
    without_profiles,
)

__all__ = [
    "ASSUMED_RELATIVE_SD", "CVO_CASES", "CVO_NORM_POWER", "CVO_ROWS", "CalibrationError", "FIELDS", "FitContext",
    "FitResult", "Observation", "ProfileSpec", "SERVER_GRID", "SeedFit", "StepOutcome", "WRITE_TO_READ_CPU",
    "calibrate_seed_systems", "cvo_scenarios", "derive_seed_profiles", "fit_from_csv", "fit_profile",
    "in_sample_checks", "parameter_stderr", "profile_toml", "read_points_csv", "residual", "run_ramps",
    "run_seed_fits", "seed_fits", "with_profiles", "without_profiles", "write_profiles",
]

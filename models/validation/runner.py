"""Replay every published case (resources/validation/published.toml) through the engines."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from models.catalog import Catalog, bundled_catalog
from models.validation.cases import RAMP_SECTIONS, SECTIONS, case_functions, published_cases
from models.validation.checks import Check
from models.validation.cross_validation import FILE_NAME, CrossValidationError, load_cross_validation

if TYPE_CHECKING:
    from models.validation.cross_validation import CrossValidation

__all__ = ["RAMP_SECTIONS", "SECTIONS", "CaseOutcome", "case_functions", "published_cases", "run_ramps",
           "run_validation", "seed_outcomes", "stored_cross_validation", "mark_checks"]


@dataclass(frozen=True)
class CaseOutcome:
    """The checks of one published case, or the error that stopped it."""

    section: str
    case_id: str
    seed: str
    checks: tuple[Check, ...]
    error: str = ""

    @property
    def passed(self) -> bool:
        """True when the case ran without error, produced at least one check, and every check passed."""
        return not self.error and bool(self.checks) and all(c.passed for c in self.checks)


def stored_cross_validation(catalog: Catalog | None = None) -> tuple[CrossValidation | None, str]:
    """The stored leave-one-out results if they match the current inputs, and a status text.

    Returns (results or None, status): status is "" when current, else why they are not used (no file, stale,
    unreadable) or a note that the model's code changed since.

    For the bundled catalog (None or ``bundled_catalog()``: one immutable object per process) the answer is kept
    per process while the bytes of the stored file, published.toml and ramps.toml stay the same (what
    :meth:`CrossValidation.staleness` digests besides the catalog), so repeated exports neither parse the file
    nor digest the catalog again (~20 ms) and hand out the same results object (:func:`seed_outcomes` keys on it).
    """
    bundled = bundled_catalog()
    if catalog is not None and catalog is not bundled:
        return _stored_cross_validation(catalog)
    inputs = _stored_inputs()
    with _cache_lock:
        for kept_catalog, kept_inputs, found in _stored_cache:
            if kept_catalog is bundled and kept_inputs == inputs:
                return found
    found = _stored_cross_validation(bundled)
    with _cache_lock:
        _stored_cache[:] = [(bundled, inputs, found)]
    return found


def _stored_inputs() -> tuple[str | bytes | None, ...]:
    """The validation folder, then the bytes of the stored cross-validation file, published.toml and ramps.toml
    in it (None: no such file)."""
    from models.resources import validation_dir

    folder = validation_dir()
    out: list[str | bytes | None] = [str(folder)]
    for name in (FILE_NAME, "published.toml", "ramps.toml"):
        try:
            out.append((folder / name).read_bytes())
        except OSError:
            out.append(None)
    return tuple(out)


def _stored_cross_validation(catalog: Catalog) -> tuple[CrossValidation | None, str]:
    """:func:`stored_cross_validation`, read and checked."""
    try:
        cv = load_cross_validation()
    except CrossValidationError as exc:
        return None, str(exc)
    if cv is None:
        return None, ("no stored cross-validation (run 'storplan calibrate --write' or "
                      "'storplan validate --cross-validate')")
    stale = cv.staleness(catalog)
    if stale:
        return None, stale
    return cv, cv.model_note()


_cache_lock = threading.Lock()
_stored_cache: list[tuple[Catalog, tuple, tuple[CrossValidation | None, str]]] = []
"""The latest :func:`stored_cross_validation` of the bundled catalog: (catalog, :func:`_stored_inputs`, answer)."""
_seed_cache: list[tuple[Catalog, CrossValidation | None, tuple[CaseOutcome, ...]]] = []
"""The latest :func:`seed_outcomes`: (catalog, cross-validation results, outcomes)."""


def seed_outcomes(cross_validation: CrossValidation | None) -> list[CaseOutcome]:
    """``run_validation(cross_validation=cross_validation)``: every seed case (:data:`SECTIONS`) replayed on the
    bundled catalog, computed once per process for the same results object (or equal results) and a new list of
    the same frozen outcomes on each call. The bundled catalog, the published cases (read once per process,
    ``published_cases``) and the engines do not change in a process; the workbook's validation sheet
    (``storplan export-xlsx`` / ``export-csv``) replays ~40 cases (~0.2 s) otherwise on every export."""
    catalog = bundled_catalog()
    with _cache_lock:
        for kept_catalog, kept_cv, outcomes in _seed_cache:
            if kept_catalog is catalog and (kept_cv is cross_validation or kept_cv == cross_validation):
                return list(outcomes)
    outcomes = tuple(run_validation(catalog, cross_validation=cross_validation))
    with _cache_lock:
        _seed_cache[:] = [(catalog, cross_validation, outcomes)]
    return list(outcomes)


def mark_checks(checks: tuple[Check, ...], in_sample: Mapping[tuple[str, str], str],
                cross_validation: CrossValidation | None) -> tuple[Check, ...]:
    """The checks marked in-sample where a calibration fit uses their published number (``in_sample``:
    :func:`models.calibration.in_sample_checks`), with their leave-one-out prediction when ``cross_validation``
    holds one. A check the case function already marked (a catalog constant or an input) keeps its mark."""
    out = []
    for c in checks:
        fit = in_sample.get((c.case_id, c.quantity))
        if fit and not c.fitted_by:
            c = replace(c, fitted_by=f"calibration: the '{fit}' fit uses this published number")
        held = cross_validation.case(c.case_id) if cross_validation is not None and c.in_sample else None
        point = held.check(c.quantity) if held is not None else None
        if point is not None and point.in_sample:
            c = replace(c, out_of_sample=point.predicted, out_of_sample_note=point.note)
        out.append(c)
    return tuple(out)


def run_validation(catalog: Catalog | None = None, sections: tuple[str, ...] = SECTIONS,
                   cross_validation: CrossValidation | None | Literal['stored'] = "stored") -> list[CaseOutcome]:
    """Run every case of the given sections; a case without a model, or whose model raises, fails with its reason.

    Each check is marked in-sample or prediction (:func:`mark_checks`); ``cross_validation`` gives the
    leave-one-out predictions attached to the in-sample checks: "stored" (default) reads
    resources/validation/cross_validation.toml when it matches the current inputs, None attaches none.
    """
    catalog = catalog or bundled_catalog()
    functions = case_functions()
    from models.calibration import in_sample_checks

    in_sample = in_sample_checks(catalog)
    cv = stored_cross_validation(catalog)[0] if cross_validation == "stored" else cross_validation
    outcomes = []
    for section in sections:
        for case in published_cases().get(section, []):
            case_id = case["id"]
            seed = f"{case.get('seed', '')} {case.get('section', '')}".strip()
            function = functions.get(case_id)
            if function is None:
                outcomes.append(CaseOutcome(section, case_id, seed, (), "no model for this case yet"))
                continue
            try:
                checks = tuple(function(catalog, case))
            except Exception as exc:  # noqa: BLE001 - a failing case is reported in its row, it must not crash the whole table
                outcomes.append(CaseOutcome(section, case_id, seed, (), f"{type(exc).__name__}: {exc}"))
                continue
            outcomes.append(CaseOutcome(section, case_id, seed, mark_checks(checks, in_sample, cv)))
    return outcomes


def run_ramps(catalog: Catalog | None = None,
              cross_validation: CrossValidation | None | Literal['stored'] = "stored") -> list[CaseOutcome]:
    """Run the public measured ramps (:data:`RAMP_SECTIONS`), marked as :func:`run_validation` marks the seed
    cases: a ramp a calibration fit reads (``models.calibration.seed_profiles.NFS_RAMP_FITS``) is in-sample, with
    its leave-one-out prediction from ``cross_validation`` ("stored": the stored results when current); the others
    are predictions. Callers list them after the seed cases (``storplan validate`` counts both in its headline,
    :func:`models.validation.summary.headline`)."""
    return run_validation(catalog, sections=RAMP_SECTIONS, cross_validation=cross_validation)

"""Leave-one-out cross-validation of the calibrated performance profiles against the published cases.

For every case whose published numbers a calibration fit uses (read from the fits' observations,
:func:`models.calibration.in_sample_checks`), the calibration is rerun without that case's observations
(:func:`models.calibration.run_seed_fits` with ``exclude_cases``): steps that lose observations, or whose anchor
changed, are refitted; a step left with no observation, or anchored to one that has none, has its profiles removed,
so the engine serves them with its fallback (another software version's profile of the same protocol, else the
uncalibrated defaults), and each check's note says which. The case is then evaluated with that catalog, and its
checks' predictions are the out-of-sample predictions.

Refitting takes minutes, so the results are computed by ``storplan calibrate --write`` (or on demand by
``storplan validate --cross-validate``) and stored in ``resources/validation/cross_validation.toml`` with the
catalog version and a digest of the inputs (the published cases and the catalog, fitted profiles included);
:func:`load_cross_validation` reads them and :meth:`CrossValidation.staleness` says when they no longer match.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from models.atomic import write_text_atomic
from models.catalog import Catalog, CloudVm, Controller, bundled_catalog
from models.resources import validation_dir

FILE_NAME = "cross_validation.toml"
"""The stored results, beside published.toml."""

MODEL_SOURCES = ("models/calibration", "models/performance", "models/queueing", "models/capacity", "models/catalog",
                 "models/validation/performance_cases.py")
"""Source files whose digest is recorded with the results (a changed model makes the stored figures suspect): the
fits, the engine they refit and replay (performance and its queueing solvers), the capacity engine whose RAID
layouts the paths are built on, and the catalog code that derives profiles from the catalog's records."""


class CrossValidationError(ValueError):
    """The stored cross-validation file cannot be read (the message names the file and the problem)."""


@dataclass(frozen=True)
class HeldOutCheck:
    """One check of a held-out case, predicted by the calibration refitted without the case.

    ``predicted`` is in the check's unit (nan when the engine gave none); ``in_sample`` says whether the full
    calibration used this check's number (only those count in the out-of-sample summary); ``note`` says how the
    profiles were obtained.
    """

    quantity: str
    published: float
    predicted: float
    in_sample: bool
    note: str = ""


@dataclass(frozen=True)
class HeldOutCase:
    """The leave-one-out result of one case: its checks and how the calibration was rerun (``refit``)."""

    case_id: str
    refit: str
    seconds: float
    checks: tuple[HeldOutCheck, ...]

    def check(self, quantity: str) -> HeldOutCheck | None:
        """The held-out check of this quantity, or None."""
        return next((c for c in self.checks if c.quantity == quantity), None)


@dataclass(frozen=True)
class CrossValidation:
    """Every held-out case, with the provenance needed to tell whether it still matches the inputs.

    Attributes:
        catalog_version: the catalog's VERSION when computed; inputs_sha256: :func:`inputs_digest` then;
        model_sha256: :func:`model_digest` then ("" when the sources were not available); computed_utc: ISO time.
    """

    catalog_version: str
    inputs_sha256: str
    model_sha256: str
    computed_utc: str
    cases: tuple[HeldOutCase, ...]

    def case(self, case_id: str) -> HeldOutCase | None:
        """The held-out result of a case, or None."""
        return next((c for c in self.cases if c.case_id == case_id), None)

    def staleness(self, catalog: Catalog | None = None) -> str:
        """"" when the stored results match the current inputs; otherwise why they are stale."""
        catalog = catalog or bundled_catalog()
        if self.inputs_sha256 != inputs_digest(catalog):
            return (f"stale: the published cases or the catalog changed since the cross-validation was computed "
                    f"(catalog {self.catalog_version or '?'} then, {catalog.version or '?'} now); rerun "
                    "'storplan calibrate --write' or 'storplan validate --cross-validate'")
        return ""

    def model_note(self) -> str:
        """A note when the model's source files differ from those the results were computed with ("" if same)."""
        now = model_digest()
        if now and self.model_sha256 and now != self.model_sha256:
            return ("the performance model's code changed since the cross-validation was computed; the stored "
                    "out-of-sample figures may differ from a fresh run ('storplan validate --cross-validate')")
        return ""


# ------------------------------------------------------------------------------------------------ provenance


def inputs_digest(catalog: Catalog | None = None, published: Path | None = None) -> str:
    """SHA-256 of what the cross-validation depends on besides the code: published.toml's and ramps.toml's bytes
    (the calibration fits measured ramps too) and every catalog
    entry's content (the fields its TOML sets, as canonical JSON, sorted by kind and id, fitted profiles included;
    a schema field added with a default does not change it, a record added or a number edited does). Wording that
    no engine reads (:data:`DESCRIPTIVE_FIELDS`: names, display names, source texts) does not count."""
    catalog = catalog or bundled_catalog()
    h = hashlib.sha256()
    h.update((published or validation_dir() / "published.toml").read_bytes())
    h.update((validation_dir() / "ramps.toml").read_bytes())
    for entry in sorted(catalog, key=lambda e: (e.kind, e.id)):
        data = {k: v for k, v in entry.model_dump(mode="json", exclude_unset=True).items()
                if k not in DESCRIPTIVE_FIELDS}
        h.update(json.dumps(data, sort_keys=True).encode())
    return h.hexdigest()


DESCRIPTIVE_FIELDS = frozenset({"name", "short_name", "tag", "display_name", "source", "sources", "provenance",
                                "notes"})
"""Top-level catalog fields that only describe a record to a person (a number's provenance included: what the
engines compute does not read it); editing them leaves the numbers alone."""


def model_digest(sources: Sequence[str] = MODEL_SOURCES) -> str:
    """SHA-256 of the model's source files (``sources``, paths from the project root, folders read for their
    ``*.py``; default :data:`MODEL_SOURCES`); "" when they are not on disk (frozen build)."""
    root = Path(__file__).resolve().parents[2]
    files: list[Path] = []
    for rel in sources:
        p = root / rel
        files += sorted(p.rglob("*.py")) if p.is_dir() else ([p] if p.exists() else [])
    if not files:
        return ""
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()


# ------------------------------------------------------------------------------------------------ computing


FITTED_SECTIONS = ("performance", "relation", "cloud", "ramp")
"""Sections whose cases a calibration fit may use (published.toml's performance, relation and cloud cases, and
the measured ramps of ramps.toml)."""


def fitted_cases(catalog: Catalog | None = None) -> list[str]:
    """Ids of the cases whose numbers a calibration fit uses (published.toml, then ramps.toml), in file order."""
    from models.calibration import in_sample_checks

    used = {case for case, _ in in_sample_checks(catalog)}
    from models.validation.cases import published_cases

    return [c["id"] for section in FITTED_SECTIONS for c in published_cases().get(section, [])
            if c["id"] in used]


def _fallback_text(catalog: Catalog, outputs: Iterable[tuple[str, str, str]]) -> str:
    """What the engine serves for profiles removed from the catalog: the path builder's own choice
    (:func:`models.performance.profiles.controller_profile`: another version or protocol of the record, a
    ``profile_from`` sibling's, or the uncalibrated defaults), in words."""
    from models.performance.profiles import controller_profile

    parts = []
    for rid, software, protocol in outputs:
        record = catalog.find(rid)
        if not isinstance(record, (Controller, CloudVm)):
            continue
        profile, note = controller_profile(record, catalog, software, protocol)
        if profile is None:
            how = "the engine falls back to its uncalibrated default CPU costs (servers = cores per node)"
        else:
            how = f"the engine falls back to the {profile.software} / {profile.protocol} profile ({note})"
        parts.append(f"{rid} {software} / {protocol}: {how}")
    return "; ".join(parts)


def cross_validate_case(case_id: str, catalog: Catalog | None = None, reference: dict | None = None,
                        in_sample: dict[tuple[str, str], str] | None = None) -> HeldOutCase:
    """Refit the calibration without ``case_id``'s observations and evaluate the case with the result.

    Args:
        case_id: a published.toml case id (performance, relation or cloud section) or a ramps.toml case id.
        catalog: the calibrated catalog (default: bundled); its profiles are the full fit's, and are reused for
            every step the held-out case does not touch when ``reference`` is not given.
        reference: full-fit results by step name (:func:`models.calibration.run_seed_fits`); steps whose data
            and anchors are unchanged reuse them instead of refitting. Without it, unchanged steps keep the
            catalog's profiles.
        in_sample: :func:`models.calibration.in_sample_checks` (computed when not given).

    Returns:
        :class:`HeldOutCase`.

    Raises:
        KeyError: unknown case id.
    """
    from models.calibration import FitResult, in_sample_checks, run_seed_fits, seed_fits
    from models.validation.cases import case_functions, published_cases

    catalog = catalog or bundled_catalog()
    in_sample = in_sample if in_sample is not None else in_sample_checks(catalog)
    table = next((c for s in FITTED_SECTIONS for c in published_cases().get(s, []) if c["id"] == case_id), None)
    if table is None:
        raise KeyError(f"no published performance, relation, cloud or ramp case '{case_id}'")
    if reference is None:  # unchanged steps: the catalog's (full-fit) profiles stand in for their results
        reference = {}
        for step in seed_fits():
            profiles = []
            for rid, sw, proto in step.outputs:
                record = catalog.find(rid)
                found = [p for p in getattr(record, "performance", []) if (p.software, p.protocol) == (sw, proto)]
                profiles += [(rid, p) for p in found[:1]]
            if len(profiles) == len(step.outputs):
                reference[step.name] = FitResult(tuple(profiles), (), 0.0, ())
    start = time.perf_counter()
    outcomes, loo_catalog = run_seed_fits(catalog, exclude_cases=[case_id], reference=reference)
    steps = {s.name: s for s in seed_fits()}
    refit_parts, note_parts = [], []
    for o in outcomes:
        if o.status == "refit":
            left = (f" without {', '.join(o.dropped)}" if o.dropped
                    else f" ({o.note})" if o.note else " (its anchor changed)")
            made = {(rid, p.software, p.protocol) for rid, p in o.result.profiles} if o.result else set()
            gone = [out for out in steps[o.name].outputs if out not in made]  # a joint step's platform left out
            removed = f"; {', '.join(f'{r} {sw} / {pr}' for r, sw, pr in gone)} profile removed" if gone else ""
            refit_parts.append(f"{o.name}: refitted{left}{removed}")
            if gone:
                note_parts.append(f"{o.name} has no data of its own left for "
                                  f"{', '.join(r for r, _, _ in gone)}: {_fallback_text(loo_catalog, gone)}")
        elif o.status == "no data":
            fallback = _fallback_text(loo_catalog, steps[o.name].outputs)
            refit_parts.append(f"{o.name}: {o.note}; profile removed")
            note_parts.append(f"{o.name} has no data left ({o.note}): {fallback}")
    left_out = [label for o in outcomes for label in o.dropped]
    note = ("left out of the calibration: " + ", ".join(left_out) + "." if left_out else "nothing left out.")
    if note_parts:
        note += " " + " ".join(p + "." for p in note_parts)
    checks = case_functions()[case_id](loo_catalog, table)
    seconds = time.perf_counter() - start
    held = tuple(HeldOutCheck(c.quantity, float(c.published), float(c.predicted),
                              (case_id, c.quantity) in in_sample, note) for c in checks)
    return HeldOutCase(case_id, "; ".join(refit_parts) or "no step changed", seconds, held)


def cross_validate(catalog: Catalog | None = None, cases: Sequence[str] | None = None, reference: dict | None = None,
                   verbose: bool = False) -> CrossValidation:
    """Leave-one-out cross-validation of every fitted performance case (or of ``cases``).

    ``catalog`` is the calibrated catalog (default: bundled), ``reference`` the full fit's results by step name
    (see :func:`cross_validate_case`). Takes minutes (each held-out case refits the steps its observations
    belong to).
    """
    from models.calibration import in_sample_checks

    catalog = catalog or bundled_catalog()
    in_sample = in_sample_checks(catalog)
    held = []
    for case_id in cases or fitted_cases(catalog):
        result = cross_validate_case(case_id, catalog, reference, in_sample)
        held.append(result)
        if verbose:
            print(f"cross-validated {case_id} in {result.seconds:.1f} s: {result.refit}", flush=True)
    return CrossValidation(catalog.version, inputs_digest(catalog), model_digest(),
                           datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), tuple(held))


# ------------------------------------------------------------------------------------------------ storage


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _num(x: float) -> str:
    return "nan" if not math.isfinite(x) else repr(float(f"{x:.6g}"))


def cross_validation_toml(cv: CrossValidation) -> str:
    """The TOML text of stored cross-validation results (numbers to 6 significant digits)."""
    lines = ["# Leave-one-out cross-validation of the calibrated performance profiles.",
             "# Written by 'storplan calibrate --write' (models.validation.cross_validation); read by 'storplan "
             "validate'.",
             "# Do not edit: the digests tell validate whether these figures still match the inputs.",
             f"catalog_version = {_toml_str(cv.catalog_version)}",
             f"inputs_sha256 = {_toml_str(cv.inputs_sha256)}",
             f"model_sha256 = {_toml_str(cv.model_sha256)}",
             f"computed_utc = {_toml_str(cv.computed_utc)}", ""]
    for case in cv.cases:
        lines += ["[[case]]", f"id = {_toml_str(case.case_id)}", f"refit = {_toml_str(case.refit)}",
                  f"seconds = {case.seconds:.1f}"]
        for c in case.checks:
            lines += ["[[case.check]]", f"quantity = {_toml_str(c.quantity)}", f"published = {_num(c.published)}",
                      f"predicted = {_num(c.predicted)}", f"in_sample = {'true' if c.in_sample else 'false'}",
                      f"note = {_toml_str(c.note)}"]
        lines.append("")
    return "\n".join(lines)


def write_cross_validation(cv: CrossValidation, path: Path | None = None) -> Path:
    """Write the results to ``path`` (default: resources/validation/cross_validation.toml); returns the path."""
    path = path or validation_dir() / FILE_NAME
    write_text_atomic(path, cross_validation_toml(cv))
    return path


def load_cross_validation(path: Path | None = None) -> CrossValidation | None:
    """The stored results, or None when there is no file.

    Raises:
        CrossValidationError: the file is not valid TOML or lacks a field (the message names the file).
    """
    path = path or validation_dir() / FILE_NAME
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        cases = tuple(
            HeldOutCase(c["id"], c.get("refit", ""), float(c.get("seconds", 0.0)),
                        tuple(HeldOutCheck(k["quantity"], float(k["published"]), float(k["predicted"]),
                                           bool(k["in_sample"]), k.get("note", "")) for k in c.get("check", [])))
            for c in data.get("case", []))
        return CrossValidation(data["catalog_version"], data["inputs_sha256"], data.get("model_sha256", ""),
                               data.get("computed_utc", ""), cases)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise CrossValidationError(f"{path}: cannot read the cross-validation results ({exc})") from exc


def calibrate_and_cross_validate(write: bool = False, catalog_dir: Path | None = None) -> CrossValidation:
    """``storplan calibrate``: fit every seed system's profile (:func:`models.calibration.calibrate_seed_systems`,
    writing them with ``write=True``), then cross-validate them (leave one case out, refit, predict it) and print
    each left-out prediction; with ``write=True`` and the bundled catalog directory the results go into
    ``resources/validation/cross_validation.toml`` for ``storplan validate`` (the bands' model-discrepancy table
    is estimated from them and the platforms left out, which are stored too, by
    :func:`models.validation.headline_extras.write_validation_tables`, which ``storplan calibrate`` runs next).

    Raises:
        CalibrationError: a fit failed; OSError: the files cannot be written.
    """
    from models.calibration import calibrate_seed_systems, with_profiles
    from models.resources import catalog_dir as bundled_dir

    profiles = calibrate_seed_systems(write=write, catalog_dir=catalog_dir)
    directory = Path(catalog_dir or bundled_dir())
    # the written (rounded) profiles when written, so that validate's stored figures are those of the catalog
    fitted = Catalog.from_dir(directory) if write else with_profiles(bundled_catalog(), profiles)
    cv = cross_validate(fitted, verbose=True)
    for case in cv.cases:
        for c in case.checks:
            if c.in_sample:
                err = (c.predicted - c.published) / c.published if c.published else 0.0
                print(f"  {case.case_id:34s} {c.quantity:44s} published {c.published:<10.4g} left-out prediction "
                      f"{c.predicted:<10.4g} {err:+.1%}")
    if write and directory.resolve() == Path(bundled_dir()).resolve():
        print(f"wrote {write_cross_validation(cv)}")
    return cv

"""Leave-one-platform-out: each calibrated platform's profiles replaced by the hardware relation built from the
other platforms, its published points predicted again (issue "Performance that ranks platforms the way the
hardware does", item 7).

For every controller of a pooled family (``models.performance.hardware_relation.FAMILIES``) with a profile of its
own that a fit set (profile kind "calibrated"), a catalog is made without that controller's profiles and sibling
derivation (``performance`` empty, ``profile_from`` none): its workloads then run on the hardware relation from
the others (the pool and the ordering bounds no longer see it). The published cases and measured ramps
(``models.validation.runner``) are replayed with that catalog; the platform's points are the saturation and latency
checks of the cases its own fits read (a check of the case names one of the fits that set a field of its
profiles in its ``fitted_by``). Saturation checks (peak IOPS, saturation operations per second) and latency checks (any
latency in milliseconds; ratios are left out: they compare two predictions of one platform) each give their
absolute relative errors against the published figures; :func:`holdout_line` prints their medians.

A fit joint with other platforms (the NFS ramps, which share ONTAP's WAFL affinity hold time) is refitted without
the left-out platform's cases for the others (:func:`joint_fits`), and only the left-out platform's own cases are
its points: what the others run on has then never seen it.

The refits take seconds, so ``storplan calibrate --write`` stores the bundled catalog's checks in
``resources/validation/platform_holdout.toml`` (:func:`write_platform_holdout`) with a digest of the inputs (the
published cases, the ramps and the catalog: ``models.validation.cross_validation.inputs_digest``) and of the code
that computes them (:data:`MODEL_SOURCES`); :func:`platform_holdout` reads them for the bundled catalog while both
match (:func:`stored_holdout`) and computes otherwise (another catalog, a changed input or model).
"""

from __future__ import annotations

import json
import math
import statistics
import threading
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from models.atomic import write_text_atomic
from models.catalog import Catalog, Controller, bundled_catalog
from models.performance.hardware_relation import FAMILIES
from models.resources import validation_dir
from models.validation.cases import RAMP_SECTIONS, SECTIONS
from models.validation.cross_validation import inputs_digest, model_digest
from models.validation.runner import run_validation
from models.validation.summary import OUT_OF_SAMPLE, TARGETS, TargetLine

FILE_NAME = "platform_holdout.toml"
"""The stored checks of the bundled catalog, beside cross_validation.toml."""

MODEL_SOURCES = ("models/calibration", "models/performance", "models/queueing", "models/capacity", "models/catalog",
                 "models/validation/cases.py",
                 "models/validation/checks.py", "models/validation/performance_cases.py",
                 "models/validation/platform_holdout.py", "models/validation/ramp_cases.py",
                 "models/validation/runner.py")
"""Source files whose digest is stored with the checks: the fits and the engine they refit and replay (with the
capacity engine whose RAID layouts the paths are built on and the catalog code that derives profiles), and the
cases' checks (a changed file makes the stored checks stale, so they are computed again)."""


@dataclass(frozen=True)
class HoldoutCheck:
    """One published point of a left-out platform: the platform's name, the case, the quantity, "saturation" or
    "latency", the published figure, the prediction with the platform's own profiles, and with the hardware
    relation from the others."""

    platform: str
    case_id: str
    quantity: str
    group: str
    published: float
    in_sample: float
    held_out: float

    @property
    def error(self) -> float:
        """Relative error of the held-out prediction against the published figure (+0.25: 25% high)."""
        return self.held_out / self.published - 1.0


def quantity_group(quantity: str) -> str:
    """"saturation", "latency" or "" (not counted: a ratio or another quantity) for a check's quantity name."""
    q = quantity.lower()
    if "ratio" in q.split("_"):
        return ""
    if "latency_ms" in q:
        return "latency"
    if q in ("peak_iops", "saturation_ops_per_sec"):
        return "saturation"
    return ""


def calibrated_platforms(catalog: Catalog) -> list[Controller]:
    """The controllers of a pooled family with a profile of their own that a fit set, catalog order."""
    from models.performance.profiles import profile_kind

    return [r for r in catalog.of_kind(Controller) if r.family in FAMILIES
            and any(profile_kind(p, True, "") == "calibrated" for p in r.performance)]


def without_platform(catalog: Catalog, record: Controller) -> Catalog:
    """``catalog`` with ``record``'s profiles and sibling derivation removed (every other record unchanged)."""
    bare = record.model_copy(update={"performance": [], "profile_from": None})
    return Catalog([bare if e.id == record.id else e for e in catalog], version=getattr(catalog, "version", ""))


def _points(catalog: Catalog) -> dict[tuple[str, str], tuple[float, float, str]]:
    """(case id, quantity) -> (published, predicted, what fitted it) of every check of the cases and ramps with a
    finite, non-zero published figure. A prediction that is not finite (a latency asked at a load the predicted
    system saturates below) is kept as infinite: a miss with an unbounded error, never a point that leaves the
    count because it fails."""
    out: dict[tuple[str, str], tuple[float, float, str]] = {}
    for outcome in run_validation(catalog, sections=SECTIONS + RAMP_SECTIONS, cross_validation=None):
        for c in outcome.checks:
            if math.isfinite(c.published) and c.published != 0:
                predicted = c.predicted if math.isfinite(c.predicted) else math.inf
                out[(outcome.case_id, c.quantity)] = (c.published, predicted, c.fitted_by)
    return out


def own_fits(record: Controller) -> set[str]:
    """The names of the fits that set a field of ``record``'s own profiles (provenance kind "calibrated")."""
    return {prov.fit for p in record.performance for prov in p.provenance.values()
            if prov.kind == "calibrated" and prov.fit}


def joint_fits(catalog: Catalog, record: Controller) -> tuple[set[str], Catalog]:
    """For a platform whose own fits are joint with other platforms' (a seed fit step with ``case_records``, e.g.
    the NFS ramps sharing ONTAP's WAFL affinity hold time): the cases of those fits that are the other platforms'
    (not this platform's points), and ``catalog`` without this platform (:func:`without_platform`) whose other
    platforms' profiles of those fits are refitted without this platform's cases
    (``models.calibration.refit_without_cases``): what they were fitted to never includes the platform left out.
    (no cases, :func:`without_platform`) when no fit of the platform is joint. Computed once per process for a
    record of the bundled catalog (the refit is the costly part; the catalog is immutable)."""
    bundled = catalog is bundled_catalog() and catalog.find(record.id) is record
    if bundled:
        with _cache_lock:
            if record.id in _bundled_joint_fits:
                kept, kept_catalog = _bundled_joint_fits[record.id]
                return set(kept), kept_catalog
    others, held = _joint_fits(catalog, record)
    if bundled:
        with _cache_lock:
            _bundled_joint_fits[record.id] = (frozenset(others), held)
    return others, held


_cache_lock = threading.Lock()
_bundled_joint_fits: dict[str, tuple[frozenset[str], Catalog]] = {}
"""Record id -> :func:`joint_fits` of the bundled catalog (immutable, ``bundled_catalog()`` is one object per
process): its refits (two least-squares NFS ramp fits, several seconds) are computed once per process, whether the
report's validation pages, ``storplan validate`` or a test asks first."""
_bundled_holdout: list[HoldoutCheck] = []
""":func:`platform_holdout` of the bundled catalog, once computed (the same once-per-process rule)."""


def _joint_fits(catalog: Catalog, record: Controller) -> tuple[set[str], Catalog]:
    """:func:`joint_fits`, computed."""
    from models.calibration import seed_fits
    from models.calibration.fit import with_profiles
    from models.calibration.seed_profiles import refit_without_cases

    fits = own_fits(record)
    held = without_platform(catalog, record)
    others: set[str] = set()
    for step in seed_fits():
        if step.name not in fits or not step.case_records:
            continue
        mine = {case for case, rid in step.case_records if rid == record.id}
        others |= {case for case, rid in step.case_records if rid != record.id}
        refitted = refit_without_cases(catalog, step.name, mine)
        held = with_profiles(held, [(rid, p) for rid, p in refitted if rid != record.id])
    return others, held


def platform_holdout(catalog: Catalog | None = None) -> list[HoldoutCheck]:
    """Every left-out platform's saturation and latency points (module docstring), platform by platform. A fit
    joint with other platforms (:func:`joint_fits`) counts only this platform's cases, and the others' profiles are
    refitted without them. For the bundled catalog: the stored checks when they match the inputs and the model
    (:func:`stored_holdout`), else computed; either way once per process (a new list each call)."""
    catalog = catalog or bundled_catalog()
    if catalog is not bundled_catalog():
        return _platform_holdout(catalog)
    with _cache_lock:
        done = list(_bundled_holdout)
    if not done:
        stored = stored_holdout(catalog)
        done = list(stored.checks) if stored is not None else _platform_holdout(catalog)
        with _cache_lock:
            if not _bundled_holdout:
                _bundled_holdout.extend(done)
    return done


def _platform_holdout(catalog: Catalog, platforms: Sequence[str] | None = None) -> list[HoldoutCheck]:
    """:func:`platform_holdout`, computed (of the record ids ``platforms`` alone when given)."""
    base = _points(catalog)
    out: list[HoldoutCheck] = []
    for record in calibrated_platforms(catalog):
        if platforms is not None and record.id not in platforms:
            continue
        fits = own_fits(record)
        others, held_catalog = joint_fits(catalog, record)
        cases = {key[0] for key, (_, _, fitted_by) in base.items() if any(f"'{fit}'" in fitted_by for fit in fits)}
        mine = {key for key in base if key[0] in cases - others and quantity_group(key[1])}
        if not mine:
            continue
        held = _points(held_catalog)
        for key in sorted(mine):
            if key in held:
                published, predicted, _ = held[key]
                out.append(HoldoutCheck(record.name, key[0], key[1], quantity_group(key[1]), published,
                                        base[key][1], predicted))
    return out


def compute_platform_holdout(catalog: Catalog | None = None,
                             platforms: Sequence[str] | None = None) -> list[HoldoutCheck]:
    """:func:`platform_holdout` computed afresh, never read from the stored file nor the per-process result (of the
    calibrated platforms with the record ids ``platforms`` alone when given): what ``storplan calibrate --write``
    stores, and what a test compares the stored checks with."""
    return _platform_holdout(catalog or bundled_catalog(), platforms)


def holdout_targets(checks: Sequence[HoldoutCheck]) -> tuple[TargetLine, ...]:
    """The leave-one-platform-out summaries held to the out-of-sample targets (``models.validation.summary.TARGETS``:
    median error at most 20% on saturation, 30% on latency), one per quantity group with points, for
    ``storplan validate``'s headline (a missed target sets its exit status like the other out-of-sample ones)."""
    out = []
    for group in ("saturation", "latency"):
        misses = tuple(abs(c.error) for c in checks if c.group == group)
        if misses:
            out.append(TargetLine(OUT_OF_SAMPLE, "platforms left out", group, misses, TARGETS[group]))
    return tuple(out)


def holdout_line(catalog: Catalog | None = None, checks: Sequence[HoldoutCheck] | None = None) -> str:
    """The summary line: ``platforms left out (hardware relation from the others): N platforms; saturation: n
    checks, median error X%; latency: m checks, median error Y%`` (medians of absolute relative errors).
    ``checks``: :func:`platform_holdout`'s, when already computed (else computed on ``catalog``)."""
    checks = platform_holdout(catalog) if checks is None else checks
    platforms = len({c.platform for c in checks})
    parts = []
    for group in ("saturation", "latency"):
        errors = [abs(c.error) for c in checks if c.group == group]
        saturated = sum(1 for e in errors if not math.isfinite(e))
        parts.append((f"{group}: {len(errors)} checks, median error {statistics.median(errors):.1%}"
                      + (f" ({saturated} at a load the prediction saturates below: an unbounded error)" if saturated
                         else "")) if errors else f"{group}: no checks")
    return (f"platforms left out (hardware relation from the others): {platforms} platforms; " + "; ".join(parts))


# ------------------------------------------------------------------------------------------------ storage


@dataclass(frozen=True)
class StoredHoldout:
    """The checks stored by ``storplan calibrate --write`` with what they were computed from: ``catalog_version``
    (the catalog's VERSION then), ``inputs_sha256``
    (``models.validation.cross_validation.inputs_digest`` then: published cases, ramps, catalog) and
    ``model_sha256`` (the digest of :data:`MODEL_SOURCES` then, "" when the sources were not on disk)."""

    catalog_version: str
    inputs_sha256: str
    model_sha256: str
    checks: tuple[HoldoutCheck, ...]

    def staleness(self, catalog: Catalog | None = None) -> str:
        """"" when the stored checks match ``catalog`` (default: bundled) and the model's source files (not
        compared when either digest is "": a frozen build has no sources); otherwise why they are stale."""
        catalog = catalog or bundled_catalog()
        if self.inputs_sha256 != inputs_digest(catalog):
            return (f"stale: the published cases or the catalog changed since the platforms left out were computed "
                    f"(catalog {self.catalog_version or '?'} then, {catalog.version or '?'} now); rerun "
                    "'storplan calibrate --write'")
        now = model_digest(MODEL_SOURCES)
        if now and self.model_sha256 and now != self.model_sha256:
            return ("stale: the code of the fits, the engine or the cases changed since the platforms left out were "
                    "computed; rerun 'storplan calibrate --write'")
        return ""


def holdout_of(catalog: Catalog, checks: Sequence[HoldoutCheck]) -> StoredHoldout:
    """``checks`` (:func:`compute_platform_holdout` of ``catalog``) with the digests of ``catalog`` and the model,
    ready to store."""
    return StoredHoldout(catalog.version, inputs_digest(catalog), model_digest(MODEL_SOURCES), tuple(checks))


def _num(x: float) -> str:
    """A float as TOML that reads back to the same float (``repr``: shortest round trip; ``inf``, ``nan``)."""
    return repr(float(x)) if math.isfinite(x) else ("nan" if math.isnan(x) else "inf" if x > 0 else "-inf")


def holdout_toml(stored: StoredHoldout) -> str:
    """The TOML text of stored checks (every number exactly: reading it gives the same floats)."""
    lines = ["# Leave-one-platform-out: each calibrated platform's published points predicted by the hardware "
             "relation from the others.",
             "# Written by 'storplan calibrate --write' (models.validation.platform_holdout); read by 'storplan "
             "validate' and the report.",
             "# Do not edit: the digests tell whether these checks still match the inputs and the model.",
             f"catalog_version = {json.dumps(stored.catalog_version)}",
             f"inputs_sha256 = {json.dumps(stored.inputs_sha256)}",
             f"model_sha256 = {json.dumps(stored.model_sha256)}", ""]
    for c in stored.checks:
        lines += ["[[check]]", f"platform = {json.dumps(c.platform, ensure_ascii=False)}",
                  f"case_id = {json.dumps(c.case_id)}", f"quantity = {json.dumps(c.quantity)}",
                  f"group = {json.dumps(c.group)}", f"published = {_num(c.published)}",
                  f"in_sample = {_num(c.in_sample)}", f"held_out = {_num(c.held_out)}", ""]
    return "\n".join(lines)


def write_platform_holdout(stored: StoredHoldout, path: Path | None = None) -> Path:
    """Write ``stored`` to ``path`` (default: resources/validation/platform_holdout.toml); returns the path.

    Raises:
        OSError: cannot write."""
    path = path or validation_dir() / FILE_NAME
    write_text_atomic(path, holdout_toml(stored))
    return path


def load_platform_holdout(path: Path | None = None) -> StoredHoldout | None:
    """The stored checks, or None when there is no file.

    Raises:
        ValueError: the file is not valid TOML or lacks a field (the message names the file)."""
    path = path or validation_dir() / FILE_NAME
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        checks = tuple(HoldoutCheck(c["platform"], c["case_id"], c["quantity"], c["group"], float(c["published"]),
                                    float(c["in_sample"]), float(c["held_out"])) for c in data.get("check", []))
        return StoredHoldout(data["catalog_version"], data["inputs_sha256"], data.get("model_sha256", ""), checks)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the platforms left out ({exc})") from exc


def stored_holdout(catalog: Catalog | None = None, path: Path | None = None) -> StoredHoldout | None:
    """The stored checks when they match ``catalog`` (default: bundled) and the model (:meth:`StoredHoldout.
    staleness`), else None (no file, an unreadable one, or stale: the caller computes)."""
    try:
        stored = load_platform_holdout(path)
    except (OSError, ValueError):
        return None
    if stored is None or stored.staleness(catalog):
        return None
    return stored

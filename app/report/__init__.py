"""The PDF sizing report: cover, summary, topology, bill of materials, capacity, performance, scenario comparison,
assumptions and sources, model validation.

Headless (reportlab only, never Qt), so the CLI (``storplan report``) and the GUI's export worker share it. The
report shows the engines' result objects (``models.evaluate.evaluate``) formatted with ``models.formatting``: the
same numbers, in the same words, as ``storplan evaluate`` and the screen.

Thread safety: every call builds its own document; the only process-wide state is the font registration, the
cached validation outcomes and the cyclic collector held while a report is laid out (:func:`_collector_held`), all
guarded by locks.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
import os
import threading
from collections.abc import Callable, MutableMapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from models.atomic import write_bytes_atomic
from models.project.model import Project

if TYPE_CHECKING:
    from models.catalog import Catalog

__all__ = ["ReportError", "remember_validation", "render_report_bytes", "validation_outcomes", "write_report"]


class ReportError(ValueError):
    """The report cannot be written (bad destination, unknown paper size, broken fonts); the message says why."""


_collector_lock = threading.Lock()
_collector_holds = 0  # reports being laid out now
_collector_was_on = False  # the collector ran when the first of them started


@contextlib.contextmanager
def _collector_held():
    """The cyclic garbage collector stopped while a report is laid out, then as it was.

    A large report makes hundreds of thousands of objects (flowables, table cells, PDF objects) that live until it
    is written; with the collector running, they trigger generation-2 collections, each of which walks every
    object of the process (the evaluation of 1,000 nodes alone is half a million). Measured on 2026-11-29 on the
    1,000 nodes x 200 workloads export from computed results (3 renders per process, processes alternated, 3 each,
    2-core machine shared at load 4-10): with the collector running, its collections took 0.16-0.18 s CPU per
    export (``gc.callbacks``) and the median export took 0.44-0.58 s more CPU (2.88-3.50 s against 2.44-2.92 s
    held, 18-21% more; the collections also evict the caches). Reference counting frees the report's
    objects either way; the few cycles left (about 37,000 objects there, the peak memory the same) are collected
    once the collector runs again. Reports laid out at once on several threads share one hold: the last to finish
    turns the collector back on, and only when it was on before the first started (``app.quiet_start`` may hold
    it)."""
    global _collector_holds, _collector_was_on
    with _collector_lock:
        if _collector_holds == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _collector_holds += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_holds -= 1
            if _collector_holds == 0 and _collector_was_on:
                gc.enable()


_validation_lock = threading.Lock()
_validation_cache: list = []


def validation_outcomes(progress: Callable[[int, int], None] | None = None):
    """The outcomes of ``models.validation.run_validation()`` and ``run_ramps()`` (the seed cases and the measured
    ramps that ``storplan validate``'s headline counts together) with the headline's extras (the platforms left
    out, the band coverage: ``models.validation.headline_extras.BundledOutcomes``), computed once per process
    (thread-safe).

    ``progress(done, total)``, when given, is called (on the calling thread) after each section of cases with the
    number of cases run and to run, and once with (total, total) when the outcomes are ready (at once when they
    were already computed).

    Returns the list of ``CaseOutcome``, or a string explaining why the validation could not run (the report
    then says so instead of failing).
    """
    with _validation_lock:
        if not _validation_cache:
            try:
                from models.validation import RAMP_SECTIONS, published_cases, run_ramps, run_validation
                from models.validation.cases import SECTIONS
                from models.validation.headline_extras import BundledOutcomes, headline_extras
                from models.validation.runner import stored_cross_validation

                cv, _status = stored_cross_validation()
                cases = published_cases()
                total = sum(len(cases.get(section, [])) for section in (*SECTIONS, *RAMP_SECTIONS))
                outcomes: list = []
                for section in SECTIONS:  # one section at a time: the same cases in the same order, counted
                    outcomes.extend(run_validation(sections=(section,), cross_validation=cv))
                    if progress is not None:
                        progress(len(outcomes), total)
                outcomes.extend(run_ramps(cross_validation=cv))
                if progress is not None:
                    progress(len(outcomes), total)
                _validation_cache.append(BundledOutcomes(outcomes, headline_extras(cv)))
            except Exception as exc:  # noqa: BLE001 - the report must still be produced; it states the reason (not cached)
                return f"{type(exc).__name__}: {exc}"
        outcomes = _validation_cache[0]
    if progress is not None:
        progress(len(outcomes), len(outcomes))
    return outcomes


def remember_validation(outcomes: Sequence) -> None:
    """Keep outcomes another view already computed (the GUI's Validation tab) so an export does not replay the
    cases a second time. The first outcomes kept win: the bundled cases and engines do not change in a process."""
    with _validation_lock:
        if not _validation_cache:
            _validation_cache.append(list(outcomes))


def _app_version() -> str:
    try:
        return version("storplan")
    except PackageNotFoundError:
        return "0+unknown"


def _paper(project: Project, paper: str | None) -> str:
    chosen = paper or project.settings.paper
    for name in ("A4", "Letter"):
        if str(chosen).lower() == name.lower():
            return name
    raise ReportError(f"unknown paper size '{chosen}' (use A4 or Letter)")


def render_report_bytes(
    project: Project,
    paper: str | None = None,
    *,
    evaluation_cache: MutableMapping[str, object] | None = None,
    validation: Sequence | None = None,
    today: _dt.date | None = None,
    catalog: Catalog | None = None,
    sizing: object | None = None,
) -> bytes:
    """Render the sizing report of a project and return the PDF bytes (nothing is written to disk).

    Args:
        project: the project; its active scenario is reported, and every scenario is compared when it has several.
        paper: ``"A4"`` or ``"Letter"``; None uses the project's setting.
        evaluation_cache: scenario name -> ``models.evaluate.Evaluation`` to reuse (e.g. the GUI's latest
            results, which must belong to this project); scenarios missing from it are evaluated and added.
        validation: ``models.validation.run_validation()`` outcomes to print; None uses a per-process cache.
        today: the report date (default: today, local time).
        catalog: the catalog the project is evaluated against (e.g. the records pinned in a .storplan file);
            None: the bundled catalog plus the user's and the project's own records.
        sizing: the ``models.sizing.SizingResult`` of this project's requirements already computed (e.g. the
            GUI's sizer results, which must belong to the project as it is now, searched with ``top`` >= 5); the
            recommendation shows its first five. None: the report searches once itself when the project states
            requirements.

    Raises:
        ReportError: unknown paper size, or the bundled fonts cannot be loaded.
    """
    from app.report.document import ReportBuilder, build_pdf
    from app.report.fonts import FontError, register_fonts
    from models.catalog import bundled_catalog
    from models.design import resolve
    from models.evaluate import evaluate

    paper_name = _paper(project, paper)
    try:
        register_fonts()
    except FontError as exc:
        raise ReportError(str(exc)) from exc
    cache = evaluation_cache if evaluation_cache is not None else {}
    names = [project.scenario.name] + [s.name for s in project.scenarios if s.name != project.scenario.name]
    if len(project.scenarios) == 1:
        names = names[:1]
    designs = {name: resolve(project, name, catalog) for name in names}  # the one rule, as every front door
    catalog = designs[names[0]].catalog
    for name in names:
        if name not in cache:
            cache[name] = evaluate(project, design=designs[name])
    outcomes = (validation if isinstance(validation, list) else list(validation)) if validation is not None \
        else validation_outcomes()  # a list as given: the bundled run keeps its headline extras
    builder = ReportBuilder(
        project,
        {name: cache[name] for name in names},
        catalog,
        outcomes,
        paper_name,
        _app_version(),
        bundled_catalog().version,
        today or _dt.date.today(),
        sizing=sizing,
    )
    with _collector_held():
        return build_pdf(builder)


def _check_destination(path: Path) -> None:
    if path.exists() and path.is_dir():
        raise ReportError(f"cannot write the report to {path}: it is a directory; choose a file name")
    parent = path.parent
    if not parent.exists():
        raise ReportError(f"cannot write the report to {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise ReportError(f"cannot write the report to {path}: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ReportError(f"cannot write the report to {path}: permission denied for the folder {parent}")
    if path.exists() and not os.access(path, os.W_OK):
        raise ReportError(f"cannot write the report to {path}: the existing file is read-only")


def write_report(
    project: Project,
    path: Path,
    *,
    paper: str | None = None,
    evaluation_cache: MutableMapping[str, object] | None = None,
    validation: Sequence | None = None,
    catalog: Catalog | None = None,
    sizing: object | None = None,
) -> Path:
    """Write the PDF sizing report of a project to ``path`` and return the path.

    The PDF is rendered in memory and written atomically (``models.atomic``: a temporary file in the destination
    folder, fsync, ``os.replace``), so a failure leaves any existing file at ``path`` (and the project)
    untouched; a new file's mode is ``0o666 & ~umask``, a replaced one keeps its own. Safe to call from a worker
    thread.

    Args:
        project: the project to report on (not modified).
        path: the destination file.
        paper: ``"A4"`` or ``"Letter"``; None uses the project's setting.
        evaluation_cache: see :func:`render_report_bytes`.
        validation: see :func:`render_report_bytes`.
        catalog: see :func:`render_report_bytes`.
        sizing: see :func:`render_report_bytes`.

    Raises:
        ReportError: the folder does not exist, the path is a directory, permission is denied, the disk is full,
            or the paper size is unknown; the message names the path and the reason.
    """
    path = Path(path)
    _check_destination(path)
    data = render_report_bytes(project, paper, evaluation_cache=evaluation_cache, validation=validation,
                               catalog=catalog, sizing=sizing)
    try:
        write_bytes_atomic(path, data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ReportError(f"cannot write the report to {path}: {reason}") from exc
    return path


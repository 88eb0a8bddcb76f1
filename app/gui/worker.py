"""The evaluation worker: runs ``models.evaluate.evaluate`` off the GUI thread and delivers the newest result.

Edits call :meth:`EvaluationWorker.request`; a short debounce timer coalesces a burst of edits (spin-box steps,
a drag) into one run. Each run has a generation number: a run that has not started when a newer one is asked
for is dropped, and a result whose generation is not the newest is discarded, so a slow stale result never
overwrites a newer one. Results arrive by queued signal; the GUI thread never waits on the engine (except
through :meth:`force_sync`, the hook for tests and benchmarks).
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, QTimer, Signal

from models.catalog import Catalog
from models.evaluate import Evaluation
from models.project.model import Project


@dataclass(frozen=True)
class EvaluationOutcome:
    """What one worker run produced.

    Attributes:
        generation: the run's number (increasing).
        evaluations: one Evaluation per requested scenario, in request order (problems only when the engine is
            not available).
        error: None, or why the engines gave no result (not importable, or failed).
        engine_available: False when ``models.capacity`` / ``models.performance`` cannot be imported.
        elapsed_s: engine time.
    """

    generation: int
    evaluations: tuple[Evaluation, ...] = ()
    error: str | None = None
    engine_available: bool = True
    elapsed_s: float = 0.0
    scenario_names: tuple[str, ...] = field(default_factory=tuple)

    @property
    def evaluation(self) -> Evaluation | None:
        """The evaluation of the first of ``scenario_names``, or None when the run gave none."""
        return self.evaluations[0] if self.evaluations else None


def run_evaluation(project: Project, names: tuple[str, ...], generation: int = 0,
                   catalog: Catalog | None = None) -> EvaluationOutcome:
    """Evaluate scenarios of a project; never raises (a failure becomes ``error``).

    ``catalog``: the base catalog (a project file's pinned catalog, see ``ProjectDocument.base_catalog``); None uses
    the default (bundled plus the user's records), as ``models.evaluate.evaluate`` does.
    """
    from models.evaluate import evaluate, project_catalog
    from models.problems import find_problems

    start = time.perf_counter()
    try:
        evaluations = tuple(evaluate(project, name, catalog) for name in names)
        return EvaluationOutcome(generation, evaluations, None, True, time.perf_counter() - start, names)
    except ImportError as exc:
        message = f"engine not available ({exc.name or exc})"
        try:
            catalog = project_catalog(project, catalog)
            problems_only = tuple(
                Evaluation(name, None, None, tuple(find_problems(project.scenario_named(name), catalog)))
                for name in names
            )
        except Exception:  # noqa: BLE001 - the message above already says what is missing
            problems_only = ()
        return EvaluationOutcome(generation, problems_only, message, False, time.perf_counter() - start, names)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not take the GUI down
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        return EvaluationOutcome(generation, (), f"engine failed: {type(exc).__name__}: {exc}{where}", True,
                                 time.perf_counter() - start, names)


class _Relay(QObject):
    """Lives in the GUI thread; its signal, emitted from a pool thread, is delivered queued."""

    sig_outcome_ready = Signal(object)


class _Task(QRunnable):
    def __init__(self, worker: "EvaluationWorker", generation: int, project: Project, names: tuple[str, ...],
                 catalog: Catalog | None = None):
        super().__init__()
        self._worker, self._generation, self._project, self._names = worker, generation, project, names
        self._catalog = catalog
        self._relay = worker._relay

    def run(self) -> None:
        if self._worker._generation != self._generation:  # a newer run was asked for before this one started
            return
        self._relay.sig_outcome_ready.emit(run_evaluation(self._project, self._names, self._generation, self._catalog))


class EvaluationWorker(QObject):
    """Debounced, generation-counted evaluation on a private one-thread pool."""

    sig_evaluation_started = Signal(int)
    """A run with this generation was handed to the pool."""
    sig_evaluation_finished = Signal(object)
    """The newest run finished: an :class:`EvaluationOutcome`."""

    def __init__(self, debounce_ms: int = 40, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.sig_outcome_ready.connect(self._on_outcome)
        self._timer = QTimer(self, singleShot=True, interval=debounce_ms)
        self._timer.timeout.connect(self._start)
        self._generation = 0
        self._pending: tuple[Project, tuple[str, ...], Catalog | None] | None = None
        self._running = False
        self.last_outcome: EvaluationOutcome | None = None

    @property
    def busy(self) -> bool:
        """A run is scheduled or in progress."""
        return self._timer.isActive() or self._running

    def request(self, project: Project, scenarios: tuple[str, ...] | None = None,
                catalog: Catalog | None = None) -> None:
        """Evaluate ``scenarios`` (default: the active one) of ``project`` soon; supersedes earlier requests.

        ``catalog``: the base catalog to evaluate against (the document's pinned catalog); None = default.
        """
        self._pending = (project, tuple(scenarios or (project.active_scenario,)), catalog)
        self._generation += 1  # cancels a queued run at once
        self._timer.start()

    def cancel(self) -> None:
        """Drop the scheduled request and any queued run; a run in progress finishes, but its outcome is dropped."""
        self._timer.stop()
        self._pending = None
        self._generation += 1
        self._pool.clear()
        self._running = False

    def _start(self) -> None:
        if self._pending is None:
            return
        project, names, catalog = self._pending
        self._pending = None
        self._generation += 1
        self._pool.clear()
        self._running = True
        self._pool.start(_Task(self, self._generation, project, names, catalog))
        self.sig_evaluation_started.emit(self._generation)

    def _on_outcome(self, outcome: EvaluationOutcome) -> None:
        if outcome.generation != self._generation:
            return  # stale: a newer run is on its way
        self._running = False
        self.last_outcome = outcome
        self.sig_evaluation_finished.emit(outcome)

    def force_sync(self, timeout_ms: int = 30_000) -> EvaluationOutcome | None:
        """Start a scheduled run now, wait for it and deliver its result (tests and benchmarks only)."""
        if self._timer.isActive():
            self._timer.stop()
            self._start()
        self._pool.waitForDone(timeout_ms)
        QCoreApplication.sendPostedEvents(self._relay)
        QCoreApplication.processEvents()
        return self.last_outcome

    def shutdown(self) -> None:
        """Drop pending work and wait for a running engine call to end (on window close)."""
        self.cancel()
        self._pool.waitForDone(5_000)

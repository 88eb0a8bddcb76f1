"""The evaluation worker: runs ``models.evaluate.evaluate`` through the task runner and delivers the newest result.

Edits call :meth:`EvaluationWorker.request`. A request after a quiet spell (no request for the debounce interval)
starts its run on the next turn of the event loop, ahead of the repaint the edit asked for (a posted event of high
priority: at 1,000 nodes the canvas and charts repaint for ~25 ms first otherwise, while the worker process waits),
so a single edit's results are not held back; a request that
follows another within the interval waits for the burst to pause (spin-box steps, held arrow keys), which runs
once with the newest project. Each run has a generation number: a request cancels the run in progress (its result is
dropped, and a run that has not started never starts), and a result whose generation is not the newest is
discarded, so a slow stale result never overwrites a newer one. Results arrive on the GUI thread by queued
signal; the GUI thread never waits on the engine (except through :meth:`force_sync`, the hook for tests and
benchmarks).

Thread or worker process (``mode="auto"``): a small project evaluates in the runner's thread (no pickling; the
examples take a few milliseconds); a project with more than :attr:`EvaluationWorker.PROCESS_NODES` nodes in the
scenarios asked for, or one whose last run took more than :attr:`EvaluationWorker.PROCESS_AFTER_CPU_S` of CPU,
evaluates in the warm worker process, where it cannot hold the GUI's interpreter lock: painting, dragging and
typing go on while it runs. ``mode="thread"`` / ``"process"`` force one of the two (tests, benchmarks). When
the worker process cannot start or dies, the run is repeated in a thread and the worker stays with threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal

from app.gui.evaluation import EvaluationOutcome, ProjectChannel, evaluate_task, run_evaluation
from app.gui.tasks import Task, TaskRunner, worker_pool
from models.catalog import Catalog
from models.project.model import Project

__all__ = ["EvaluationOutcome", "EvaluationWorker", "run_evaluation"]


_START_EVENT = QEvent.Type(QEvent.registerEventType())
"""The event :meth:`EvaluationWorker.request` posts to itself to start a run on the next turn of the event loop."""


class EvaluationWorker(QObject):
    """Debounced, generation-counted evaluation on the task runner (thread or warm worker process)."""

    PROCESS_NODES = 200
    """More nodes than this (over the scenarios evaluated together) evaluate in the worker process."""
    PROCESS_AFTER_CPU_S = 0.1
    """A run that took more CPU time than this (seconds) sends the next runs to the worker process."""

    sig_evaluation_started = Signal(int)
    """A run with this generation was handed to the runner."""
    sig_evaluation_progress = Signal(int, float)
    """The running evaluation (generation) has done this fraction (0..1) of its scenarios."""
    sig_evaluation_finished = Signal(object)
    """The newest run finished: an :class:`EvaluationOutcome`."""

    def __init__(self, debounce_ms: int = 40, parent: QObject | None = None, mode: str = "auto") -> None:
        super().__init__(parent)
        self.runner = TaskRunner(self, "evaluation")
        self.debounce_ms = debounce_ms
        self._timer = QTimer(self, singleShot=True, interval=debounce_ms)
        self._last_request_s = -1e9  # perf_counter of the last request
        self._timer.timeout.connect(self._start)
        self._generation = 0
        self._pending: tuple[Project, tuple[str, ...], Catalog | None] | None = None
        self._task: Task | None = None
        self._last_cpu_s = 0.0
        self.mode = mode
        self.process_failure: str | None = None
        """Why the worker process failed, when evaluation fell back to a thread for the session."""
        self._last_args: tuple[Project, tuple[str, ...], Catalog | None] | None = None
        self.last_outcome: EvaluationOutcome | None = None
        self._held = False
        self._start_posted = False  # a start event is on its way (request / release on a quiet turn)
        self._channel = ProjectChannel()  # projects to the worker process as what changed since the last one
        self._channel_restarts = -1  # the worker pool's restarts when the channel's base was sent
        self.states_wanted: Callable[[], bool] = lambda: True
        """Asked as each run starts: compute the failure states (False: the view showing them is hidden; the
        project's requirements may still need them, ``app.gui.evaluation.run_evaluation``)."""

    @property
    def busy(self) -> bool:
        """A run is scheduled (or held) or in progress."""
        return (self._timer.isActive() or self._task is not None
                or ((self._held or self._start_posted) and self._pending is not None))

    @property
    def running_task(self) -> Task | None:
        """The run in progress (its ``in_process`` says where), or None."""
        return self._task

    def request(self, project: Project, scenarios: tuple[str, ...] | None = None,
                catalog: Catalog | None = None, hold: bool = False) -> None:
        """Evaluate ``scenarios`` (default: the active one) of ``project`` soon; supersedes earlier requests.

        ``catalog``: the base catalog to evaluate against (the document's pinned catalog); None = default.
        ``hold``: wait for :meth:`release` (or :meth:`force_sync`) before starting: the first window's run, whose
        thread would import the engines while the window builds and paints (the GUI's interpreter lock shared).
        """
        self._pending = (project, tuple(scenarios or (project.active_scenario,)), catalog)
        self._generation += 1
        self._cancel_running()
        self._held = self._held or hold
        if self._held:
            return
        now = time.perf_counter()
        quiet = now - self._last_request_s >= self.debounce_ms / 1000
        self._last_request_s = now
        if self._start_posted:
            return  # a run starts on this turn of the event loop anyway, with the newest project
        if quiet:
            self._timer.stop()
            self._post_start()
        else:
            self._timer.start(self.debounce_ms)

    def _post_start(self) -> None:
        """Start the pending run on the next turn of the event loop, before the repaints already posted (a high
        priority event: requests later in this turn join it, and the engine runs while the GUI thread paints)."""
        self._start_posted = True
        QCoreApplication.postEvent(self, QEvent(_START_EVENT), Qt.EventPriority.HighEventPriority.value)

    def event(self, event: QEvent) -> bool:
        """Qt's event handler: the posted start (:meth:`_post_start`) starts the pending run."""
        if event.type() == _START_EVENT:
            if self._start_posted:
                self._start_posted = False
                self._start()
            return True
        return super().event(event)

    def release(self) -> None:
        """Start the run held by ``request(..., hold=True)`` now (on this turn of the event loop); no effect when
        none is held."""
        if self._held:
            self._held = False
            if self._pending is not None:
                self._post_start()

    def cancel(self) -> None:
        """Drop the scheduled run and the one in progress (its result is never delivered)."""
        self._timer.stop()
        self._start_posted = False
        self._pending = None
        self._held = False
        self._generation += 1
        self._cancel_running()

    def _cancel_running(self, restart_if_long: bool = True) -> None:
        if self._task is not None:
            self._task.cancel(restart_if_long)
            self._task = None

    def wants_process(self, project: Project, names: tuple[str, ...]) -> bool:
        """Whether a run of these scenarios goes to the worker process (see the module docstring)."""
        if self.mode in ("thread", "process"):
            return self.mode == "process"
        nodes = sum(len(s.nodes) for s in project.scenarios if s.name in names)
        return nodes > self.PROCESS_NODES or self._last_cpu_s > self.PROCESS_AFTER_CPU_S

    def _start(self) -> None:
        if self._pending is None:
            return
        project, names, catalog = self._last_args = self._pending
        self._pending = None
        self._generation += 1
        self._cancel_running()
        generation = self._generation
        last = self.last_outcome
        in_process = self.wants_process(project, names)
        sent: object = project
        if in_process:
            pool = worker_pool()
            if pool.restarts != self._channel_restarts:  # a fresh worker process holds no project yet
                self._channel.reset()
                self._channel_restarts = pool.restarts
            try:
                sent, catalog = self._channel.pack(project, catalog), None
            except Exception:  # noqa: BLE001 - not picklable: sent as it is, the runner reports why it fails
                self._channel.reset()
        self._task = self.runner.submit(
            evaluate_task, sent, names, generation, catalog, bool(self.states_wanted()),
            in_process=in_process,
            name=f"evaluate {', '.join(names)}", expected_s=last.elapsed_s if last is not None else 0.0,
            on_done=lambda ok, result, g=generation: self._on_done(g, ok, result),
            on_progress=lambda fraction, g=generation: self.sig_evaluation_progress.emit(g, fraction))
        self.sig_evaluation_started.emit(generation)

    def _on_done(self, generation: int, ok: bool, result) -> None:
        if generation != self._generation:
            return  # stale: a newer run is on its way
        task, self._task = self._task, None
        if not ok and task is not None and task.in_process and self.mode == "auto":
            # The worker process could not start or died (a broken install, no resources): evaluate in a
            # thread from now on rather than show no results at all.
            self.mode = "thread"
            self.process_failure = f"{type(result).__name__}: {result}"
            self._pending = task_args = self._last_args
            if task_args is not None:
                self._start()
                return
        if ok and isinstance(result, EvaluationOutcome) and result.stale_base and self._last_args is not None:
            # the worker process did not hold the project the message was written against (a run cancelled before
            # it started there, a replaced process): the same run again, with the whole project
            self._channel.reset()
            self._pending = self._last_args
            self._start()
            return
        if ok:
            outcome: EvaluationOutcome = result
        else:  # the worker process broke (or the call could not be pickled)
            outcome = EvaluationOutcome(generation, (), f"engine failed: {type(result).__name__}: {result}")
        if outcome.error is None:
            self._last_cpu_s = outcome.cpu_s
        self.last_outcome = outcome
        self.sig_evaluation_finished.emit(outcome)

    def warm(self) -> None:
        """Start the worker process now (a large project is open: its first edit should not wait for it)."""
        if self.mode != "thread":
            worker_pool().warm()

    def force_sync(self, timeout_ms: int = 30_000) -> EvaluationOutcome | None:
        """Start a scheduled (or held) run now, wait for it and deliver its result (tests and benchmarks only)."""
        if self._timer.isActive() or ((self._held or self._start_posted) and self._pending is not None):
            self._held = False
            self._start_posted = False
            self._timer.stop()
            self._start()
        self.runner.wait(timeout_ms / 1000)
        return self.last_outcome

    def shutdown(self) -> None:
        """Drop pending work and let a running thread call end (on window close); a process run is dropped."""
        self._timer.stop()
        self._start_posted = False
        self._pending = None
        self._generation += 1
        self._cancel_running(restart_if_long=False)
        self.runner.shutdown(wait=True)

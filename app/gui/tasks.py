"""The one task runner of the GUI: plain functions off the GUI thread, with progress, cancel and stale results dropped.

Modelled on Orange3's ``widgets/utils/concurrent.py``: a task is a plain function ``fn(state, *args)``
(see :class:`~app.gui.task_process.TaskState`) run on an executor; its result comes back to the GUI thread by a
queued signal and a callback; ``Task.cancel()`` means its result is never delivered. A :class:`TaskRunner` runs its
thread tasks in submission order on one thread of its own (saves and autosaves never overtake each other).

Where a task runs:

* **thread** (default): in the runner's thread. No pickling; right for disk work (it releases the interpreter
  lock while it waits) and for evaluations that take a few milliseconds.
* **process**: in the warm worker process (:class:`WorkerPool`, one per application, a
  ``ProcessPoolExecutor`` with one ``spawn`` worker). Engine work that can take over 100 ms goes there, so
  it never holds the GUI's interpreter lock: painting and input go on while it runs. Arguments and results are
  pickled; the function must be importable at module level from a Qt-free module.

Cancelling a process task: one that has not started is removed from the queue; a running one is told (its
``state.is_interruption_requested()`` becomes True) and its result dropped; when it is expected to run on for
longer than a fresh worker process takes to start, the worker process is stopped and a fresh one started, so a
newer run is never stuck behind it.

:meth:`TaskRunner.wait` waits for the submitted tasks and delivers their results at once (tests, scripts and
shutdown; the counterpart of napari's ``force_sync``).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from shiboken6 import isValid as shiboken_is_valid  # noqa: N813 - the alias says where it comes from

from app.gui import task_process
from app.gui.task_process import TaskState

_ids = itertools.count(1)


class Task:
    """A handle on one submitted function (created by :meth:`TaskRunner.submit`).

    Attributes:
        id: unique, increasing over the application.
        name: what the task does, for messages.
        in_process: True when it runs in the worker process.
        progress: the last progress reported (0..1), or None when the task reported none.
        submitted_at: ``time.perf_counter()`` at submission.
        expected_s: how long the caller expects it to run (seconds; decides whether cancelling a running
            process task restarts the worker process).
        ok / result: set when it ended: ``ok`` False means ``result`` is the exception raised.
    """

    def __init__(self, name: str, in_process: bool, expected_s: float = 0.0) -> None:
        self.id = next(_ids)
        self.name = name
        self.in_process = in_process
        self.expected_s = expected_s
        self.progress: float | None = None
        self.submitted_at = time.perf_counter()
        self.ok: bool | None = None
        self.result: Any = None
        self.future: Future | None = None
        self._cancelled = False
        self._posted = threading.Event()
        self._on_done: Callable[[bool, Any], None] | None = None
        self._on_progress: Callable[[float], None] | None = None
        self._runner: TaskRunner | None = None
        self._latest_progress = 0.0
        self._pool_restarts = 0
        self._progress_queued = False

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called: the result will not be delivered."""
        return self._cancelled

    @property
    def done(self) -> bool:
        """The function has ended (or will never run). Its outcome (``ok``) is set before the delivery is posted,
        and the delivery may reach the GUI thread before the worker marks the post (``_posted``): either says so."""
        return self.ok is not None or self._posted.is_set()

    def cancel(self, restart_if_long: bool = True) -> None:
        """Drop this task: its result is never delivered; a task that has not started does not run.

        ``restart_if_long``: a process task expected to run on for longer than a fresh worker process takes to
        start gets one (False when nothing new follows, e.g. the window closes).
        """
        if self._cancelled:
            return
        self._cancelled = True
        if self._runner is not None:
            self._runner._cancelled(self, restart_if_long)

    def __repr__(self) -> str:
        where = "process" if self.in_process else "thread"
        return f"<Task {self.id} {self.name!r} in {where}{' cancelled' if self._cancelled else ''}>"


class _Relay(QObject):
    """Lives in the GUI thread; emitted from a worker thread, its signals are delivered queued."""

    sig_done = Signal(object)
    sig_progress = Signal(object)


class TaskRunner(QObject):
    """Runs tasks in its own thread (in order) or in the shared worker process; results on the GUI thread."""

    sig_task_started = Signal(object)
    """A :class:`Task` was submitted."""
    sig_task_progress = Signal(object, float)
    """A task reported progress: the task and the fraction done (0..1)."""
    sig_task_finished = Signal(object)
    """A task that was not cancelled ended: ``task.ok``, ``task.result`` (delivered after its callback)."""
    sig_busy_changed = Signal(bool)
    """The runner got its first task (True) or delivered its last one (False)."""

    def __init__(self, parent: QObject | None = None, name: str = "tasks") -> None:
        super().__init__(parent)
        self.name = name
        self._executor: ThreadPoolExecutor | None = None
        self._relay = _Relay(self)
        # always queued, also when a task ends at once on the GUI thread: results never arrive inside submit()
        self._relay.sig_done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._relay.sig_progress.connect(self._deliver_progress, Qt.ConnectionType.QueuedConnection)
        self._tasks: dict[int, Task] = {}
        self._lock = threading.Lock()

    # --- state ------------------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Some task was submitted and its end has not been delivered yet (cancelled ones do not count)."""
        return any(not t.cancelled for t in self._tasks.values())

    @property
    def tasks(self) -> list[Task]:
        """The tasks not delivered yet, oldest first."""
        return list(self._tasks.values())

    # --- submitting -------------------------------------------------------------------------------------------

    def submit(self, fn: Callable[..., Any], *args: Any, in_process: bool = False, name: str = "",
               on_done: Callable[[bool, Any], None] | None = None,
               on_progress: Callable[[float], None] | None = None, expected_s: float = 0.0) -> Task:
        """Run ``fn(state, *args)`` and call ``on_done(ok, result)`` on the GUI thread when it ends.

        Args:
            fn: the work; its first argument is a :class:`~app.gui.task_process.TaskState`. For ``in_process``
                it must be a module-level function of a Qt-free module, and ``args`` picklable.
            in_process: run in the warm worker process instead of this runner's thread.
            name: what the task does (messages, ``repr``).
            on_done: called with (True, return value) or (False, exception); never for a cancelled task.
            on_progress: called on the GUI thread with the fraction done (0..1).
            expected_s: the caller's estimate of the run time, seconds (see :meth:`Task.cancel`).

        Returns:
            The :class:`Task` handle.
        """
        task = Task(name or getattr(fn, "__name__", "task"), in_process, expected_s)
        task._on_done, task._on_progress, task._runner = on_done, on_progress, self
        was_busy = self.busy
        self._tasks[task.id] = task
        if in_process:
            self._submit_to_pool(task, fn, args)
        else:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix=f"storplan-{self.name}")
            task.future = self._executor.submit(self._run_in_thread, task, fn, args)
        self.sig_task_started.emit(task)
        if not was_busy:
            self.sig_busy_changed.emit(True)
        return task

    def _run_in_thread(self, task: Task, fn: Callable[..., Any], args: tuple) -> None:
        if task.cancelled:
            task.ok, task.result = False, CancelledError()
        else:
            state = TaskState(task.id, lambda _id, fraction: self._post_progress(task, fraction),
                              lambda: task.cancelled)
            try:
                task.result, task.ok = fn(state, *args), True
            except BaseException as exc:  # noqa: BLE001 - delivered to the GUI thread, which shows it
                task.result, task.ok = exc, False
        self._post_done(task)

    def _submit_to_pool(self, task: Task, fn: Callable[..., Any], args: tuple) -> None:
        pool = worker_pool()
        task._pool_restarts = pool.restarts
        task.future = future = pool.submit(task, fn, args, self._post_progress)
        future.add_done_callback(lambda f, t=task: self._process_ended(t, f, fn, args))

    def _process_ended(self, task: Task, future: Future, fn: Callable[..., Any], args: tuple) -> None:
        from concurrent.futures.process import BrokenProcessPool

        try:
            task.result, task.ok = future.result(), True
        except BrokenProcessPool as exc:
            pool = worker_pool()
            if not task.cancelled and pool.restarts != task._pool_restarts:
                # the worker process was replaced (another task's cancel) while this one waited or ran: again
                pool.forget(task)
                self._submit_to_pool(task, fn, args)
                return
            task.result, task.ok = exc, False
        except BaseException as exc:  # noqa: BLE001 - includes CancelledError
            task.result, task.ok = exc, False
        worker_pool().forget(task)
        self._post_done(task)

    def _post_done(self, task: Task) -> None:
        try:
            if shiboken_is_valid(self._relay):
                self._relay.sig_done.emit(task)
        except RuntimeError:  # the runner was deleted with its window: nobody to deliver to
            pass
        task._posted.set()

    def _post_progress(self, task: Task, fraction: float) -> None:
        with self._lock:  # coalesce: at most one delivery queued per task, carrying the newest fraction
            task._latest_progress = fraction
            queued, task._progress_queued = task._progress_queued, True
        if not queued:
            try:
                self._relay.sig_progress.emit(task)
            except RuntimeError:
                pass

    # --- delivering (GUI thread) ------------------------------------------------------------------------------

    def _deliver_progress(self, task: Task) -> None:
        with self._lock:
            task._progress_queued = False
            fraction = task._latest_progress
        if task.cancelled or task.id not in self._tasks:
            return
        task.progress = fraction
        if task._on_progress is not None:
            task._on_progress(fraction)
        self.sig_task_progress.emit(task, fraction)

    def _deliver(self, task: Task) -> None:
        if self._tasks.pop(task.id, None) is None:
            return
        if not task.cancelled:
            if task._on_done is not None:
                task._on_done(bool(task.ok), task.result)
            self.sig_task_finished.emit(task)
        if not self.busy and not task.cancelled:
            self.sig_busy_changed.emit(False)

    def _cancelled(self, task: Task, restart_if_long: bool = True) -> None:
        was_busy = any(not t.cancelled or t is task for t in self._tasks.values())
        if task.in_process and task.future is not None:
            worker_pool().cancel(task, restart_if_long)
        if was_busy and not self.busy:
            self.sig_busy_changed.emit(False)

    # --- waiting ----------------------------------------------------------------------------------------------

    def cancel_all(self) -> None:
        """Cancel every task not delivered yet."""
        for task in list(self._tasks.values()):
            task.cancel()

    def wait(self, timeout_s: float = 30.0) -> bool:
        """Wait for the submitted tasks (and those their callbacks submit) to end and deliver their results now
        (tests, scripts, shutdown).

        Returns False when some task was still running after ``timeout_s`` seconds.
        """
        deadline = time.perf_counter() + timeout_s
        while True:
            pending = [task for task in self._tasks.values() if not task.cancelled]  # cancelled: nothing to wait for
            if not pending:
                return True
            for task in pending:
                if not task._posted.wait(max(0.0, deadline - time.perf_counter())):
                    return False
            # the queued deliveries are posted to the runner (the receiver of the relay's connections); a callback
            # may submit more work (a retry, a second read): the loop waits for that too
            QCoreApplication.sendPostedEvents(self._relay)
            QCoreApplication.sendPostedEvents(self)
            if all(task.id in self._tasks for task in pending):
                return True  # not deliverable from here (called inside a delivery): the event loop delivers them

    def shutdown(self, wait: bool = True, timeout_s: float = 5.0) -> None:
        """Stop: cancel process tasks and, with ``wait``, let the thread's tasks end (a save is finished, not
        torn). Results of tasks still running afterwards are dropped."""
        for task in list(self._tasks.values()):
            if task.in_process:
                task.cancel(restart_if_long=False)
        if wait:
            self.wait(timeout_s)
            # a cancelled task on the thread still runs to its end and then posts its result: wait for that too,
            # or the post would reach a runner deleted with its window
            deadline = time.perf_counter() + timeout_s
            for task in list(self._tasks.values()):
                if not task.in_process:
                    task._posted.wait(max(0.0, deadline - time.perf_counter()))
        self.cancel_all()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


# --- the worker process ----------------------------------------------------------------------------------------


class WorkerPool:
    """The application's warm engine process: a ``ProcessPoolExecutor`` with one ``spawn`` worker.

    It starts on the first process task or on :meth:`warm` (the main window warms it once shown, when the
    project is large), and is replaced by a fresh one when a long stale run is cancelled (see the module
    docstring) or when it broke. Progress comes back over a one-way pipe read by a small daemon thread.
    """

    STARTUP_ESTIMATE_S = 1.0
    """How long a fresh worker process takes to start and import the engines, before it was measured."""

    def __init__(self) -> None:
        self._executor: Any = None
        self._lock = threading.RLock()
        self._writer: Any = None
        self._cancelled: Any = None
        self._listeners: dict[int, tuple[Task, Callable[[Task, float], None]]] = {}
        self._running: dict[int, Task] = {}
        self.startup_s = self.STARTUP_ESTIMATE_S
        self.restarts = 0
        self.pid: int | None = None

    @property
    def started(self) -> bool:
        """The worker process exists (or is being started)."""
        return self._executor is not None

    def _ensure(self) -> Any:
        with self._lock:
            if self._executor is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                task_process.register_pickle_reducers()
                context = multiprocessing.get_context("spawn")
                reader, writer = context.Pipe(duplex=False)
                cancelled = context.RawValue("q", 0)
                self._executor = ProcessPoolExecutor(1, mp_context=context, initializer=task_process.init_worker,
                                                     initargs=(writer, cancelled))
                self._writer, self._cancelled = writer, cancelled
                threading.Thread(target=self._read_progress, args=(reader,), name="storplan-progress",
                                 daemon=True).start()
                self._warm_locked()
            return self._executor

    def _warm_locked(self) -> None:
        from app.gui.evaluation import ENGINE_MODULES

        start = time.perf_counter()
        future = self._executor.submit(task_process.warm_up, ENGINE_MODULES)

        def warmed(f: Future) -> None:
            if not f.cancelled() and f.exception() is None:
                self.pid = f.result()
                self.startup_s = max(0.2, time.perf_counter() - start)

        future.add_done_callback(warmed)

    def warm(self) -> None:
        """Start the worker process now and import the engines in it (no effect when it runs already)."""
        self._ensure()

    def _read_progress(self, reader: Any) -> None:
        while True:
            try:
                task_id, fraction = reader.recv()
            except (EOFError, OSError, ValueError, TypeError):  # the pool ended (or a torn message): stop
                break
            except Exception:  # noqa: BLE001 - a stopped worker can leave half a message
                break
            entry = self._listeners.get(task_id)
            if entry is not None:
                task, callback = entry
                callback(task, fraction)
        reader.close()

    def submit(self, task: Task, fn: Callable[..., Any], args: tuple,
               progress: Callable[[Task, float], None]) -> Future:
        """Queue ``fn(state, *args)`` for the worker process; progress reports go to ``progress(task, f)``."""
        with self._lock:
            executor = self._ensure()
            self._listeners[task.id] = (task, progress)
            self._running[task.id] = task
            try:
                return executor.submit(task_process.run_in_process, task.id, fn, args)
            except RuntimeError:  # broken (a worker died) or shut down: start a fresh one
                self._drop_executor()
                return self._ensure().submit(task_process.run_in_process, task.id, fn, args)

    def forget(self, task: Task) -> None:
        """The task ended: stop listening for its progress."""
        self._listeners.pop(task.id, None)
        self._running.pop(task.id, None)

    def cancel(self, task: Task, restart_if_long: bool = True) -> None:
        """Cancel a process task: unqueue it, or tell it and (``restart_if_long``), if it would still run long,
        restart the process."""
        future = task.future
        if future is None or future.done() or future.cancel():
            return
        with self._lock:
            if self._cancelled is not None:
                self._cancelled.value = task.id
            ran_s = time.perf_counter() - task.submitted_at
            if restart_if_long and task.expected_s - ran_s > self.startup_s:
                self.restart()

    def restart(self) -> None:
        """Stop the worker process (its running task's result is dropped) and start a fresh, warm one."""
        with self._lock:
            self._drop_executor()
            self.restarts += 1
            self._ensure()

    def _drop_executor(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # ProcessPoolExecutor has no public way to stop a running call before Python 3.14 (terminate_workers)
        for process in list(getattr(executor, "_processes", {}).values()):
            try:
                process.terminate()
            except (OSError, AttributeError):
                pass
        executor.shutdown(wait=False, cancel_futures=True)
        if self._writer is not None:
            self._writer.close()  # the reader thread ends once the stopped worker's end is closed too
            self._writer = None
        self.pid = None

    def shutdown(self) -> None:
        """Stop the worker process (application exit): running work is dropped, nothing waits for it."""
        with self._lock:
            self._drop_executor()


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def worker_pool() -> WorkerPool:
    """The application's :class:`WorkerPool` (created on first use; stopped when the application quits)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = WorkerPool()
            app = QCoreApplication.instance()
            if app is not None:
                app.aboutToQuit.connect(_pool.shutdown)
        return _pool

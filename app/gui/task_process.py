"""The worker-process side of :mod:`app.gui.tasks`: what runs inside the warm engine process.

This module is Qt-free on purpose: the worker process is started with the ``spawn`` method (the same on Linux,
macOS, Windows and in the frozen app), imports only this module, the task's own module and the engines, and so
starts in well under a second and never loads Qt.

A task function has the signature ``fn(state, *args)``; ``state`` is a :class:`TaskState` through which the task
reports progress (``state.set_progress(0.4)``) and asks whether it was cancelled
(``state.is_interruption_requested()``), in a thread and in the worker process alike. Arguments and results
cross the process boundary by pickle: StorPlan's projects are frozen pydantic models and its results frozen
dataclasses, which pickle as they are; the read-only ``MappingProxyType`` dictionaries inside results are
registered below with the pickler multiprocessing uses.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

_progress_pipe: Any = None
"""This worker process's end of the progress pipe (a ``multiprocessing.connection.Connection``), or None."""
_cancelled: Any = None
"""Shared ``RawValue('q')``: the id of the task the GUI cancelled last."""


def _rebuild_mappingproxy(items: dict) -> MappingProxyType:
    """Unpickle a ``MappingProxyType`` (a read-only dict inside engine results)."""
    return MappingProxyType(items)


def _reduce_mappingproxy(proxy: MappingProxyType) -> tuple[Callable[[dict], MappingProxyType], tuple[dict]]:
    return _rebuild_mappingproxy, (dict(proxy),)


def register_pickle_reducers() -> None:
    """Teach multiprocessing's pickler the read-only dictionaries of engine results (idempotent)."""
    from multiprocessing.reduction import ForkingPickler

    ForkingPickler.register(MappingProxyType, _reduce_mappingproxy)


class TaskState:
    """A running task's view of the runner: progress out, cancellation in.

    ``set_progress`` takes a fraction 0..1 (values outside are clipped); it is cheap and may be called often: the
    GUI thread receives at most what it can show. ``is_interruption_requested`` is True once the task was
    cancelled (a newer edit superseded it, or the window closes); a task that checks it may return early, and its
    result is dropped either way.
    """

    def __init__(self, task_id: int, progress: Callable[[int, float], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self.task_id = task_id
        self._progress = progress
        self._cancelled = cancelled

    def set_progress(self, fraction: float) -> None:
        """Report progress: ``fraction`` of the work done (0..1)."""
        if self._progress is not None:
            self._progress(self.task_id, min(1.0, max(0.0, float(fraction))))

    def is_interruption_requested(self) -> bool:
        """True when the task was cancelled: its result will be dropped."""
        return bool(self._cancelled and self._cancelled())


def init_worker(progress_pipe: Any, cancelled: Any) -> None:
    """``ProcessPoolExecutor`` initializer: keep the progress pipe and the shared cancel marker."""
    global _progress_pipe, _cancelled
    _progress_pipe, _cancelled = progress_pipe, cancelled
    register_pickle_reducers()


_send_lock = threading.Lock()


def _send_progress(task_id: int, fraction: float) -> None:
    if _progress_pipe is None:
        return
    try:
        with _send_lock:
            _progress_pipe.send((task_id, fraction))
    except (OSError, ValueError):  # the GUI went away: progress is only a courtesy
        pass


def run_in_process(task_id: int, fn: Callable[..., Any], args: tuple) -> Any:
    """Run ``fn(state, *args)`` in the worker process (the callable the runner submits to the pool).

    Raises whatever ``fn`` raises (it is pickled back to the GUI and delivered as a failure).
    """
    state = TaskState(task_id, _send_progress, lambda: _cancelled is not None and _cancelled.value == task_id)
    if state.is_interruption_requested():  # cancelled while waiting in the pool's queue
        return None
    return fn(state, *args)


def warm_up(modules: tuple[str, ...]) -> int:
    """Import ``modules`` in the worker process so the first real task does not pay for them; returns the pid."""
    import gc
    import importlib
    import os

    for name in modules:  # an import error fails the warm-up (the pool ignores it); the task then says why
        importlib.import_module(name)
    gc.freeze()  # the imported modules live as long as the process: no generation-2 collection walks them again
    return os.getpid()

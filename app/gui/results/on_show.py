"""A result tab computed when it is shown: on its own task runner (never on the GUI thread), again when the project
changed while it was hidden, a running computation dropped when a newer one starts (the Cost and Protection tabs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QWidget

from app.gui.tasks import TaskRunner


class ComputedOnShow(QWidget):
    """Base of a tab whose figures come from ``job(project, catalog)`` run on the tab's :class:`TaskRunner`.

    A subclass sets :attr:`JOB_NAME`, gives ``_job`` (a module-level function, picklable for the runner) and
    ``_done(ok, result)`` (called on the GUI thread with the job's result or its error), and calls
    :meth:`_project_changed` when the document's project changes.
    """

    JOB_NAME = "result"
    """The name the runner gives the computation (progress and errors)."""

    _job: Callable[..., Any]

    def __init__(self, document, runner_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.runner = TaskRunner(self, runner_name)
        self._task = None
        self._dirty = True

    def _project_changed(self) -> None:
        """The project changed: compute again now when shown, else when next shown."""
        self._dirty = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Compute when first shown, and when the project changed while hidden."""
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Compute the tab for the project as it is now on the runner (a running computation is dropped)."""
        self._dirty = False
        if self._task is not None:
            self._task.cancel()
        self._task = self.runner.submit(type(self)._job, self._document.project, self._document.base_catalog,
                                        name=self.JOB_NAME, on_done=self._finished)

    def _finished(self, ok: bool, result) -> None:
        self._task = None
        self._done(ok, result)

    def _done(self, ok: bool, result) -> None:
        raise NotImplementedError

"""Status-bar indicators of background work: file jobs (open, save, report) and a long evaluation run.

:class:`BusyIndicator` runs a small bar while any file job is going; :class:`EvaluationProgress` shows a run's
progress once it has taken longer than a glance (a large project in the worker process), so short runs never
flicker a bar.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QStatusBar


class BusyIndicator(QObject):
    """Counts the file jobs running and shows an indeterminate bar in the status bar while there are any.

    Args:
        status_bar: the window's status bar (the bar is added to it on first use; messages go to it).
    """

    sig_busy_changed = Signal(bool)
    """The first job started (True) or the last one ended (False)."""

    def __init__(self, status_bar: QStatusBar) -> None:
        super().__init__(status_bar)
        self._status_bar = status_bar
        self._count = 0
        self._bar: QProgressBar | None = None

    @property
    def busy(self) -> bool:
        """Some job is running."""
        return self._count > 0

    def begin(self, message: str = "") -> None:
        """A job started; ``message`` stays in the status bar while it runs."""
        self._change(+1, message)

    def end(self, message: str = "") -> None:
        """A job ended; ``message`` (if any) is shown for a few seconds."""
        self._change(-1, message)

    def _change(self, delta: int, message: str) -> None:
        was = self.busy
        self._count = max(0, self._count + delta)
        if self._bar is None:
            self._bar = QProgressBar()
            self._bar.setObjectName("fileBusyIndicator")
            self._bar.setRange(0, 0)
            self._bar.setMaximumWidth(110)
            self._bar.setMaximumHeight(14)
            self._bar.setTextVisible(False)
            self._status_bar.addPermanentWidget(self._bar)
        self._bar.setVisible(self.busy)
        if message:
            self._status_bar.showMessage(message, 0 if self.busy and delta > 0 else 6000)
        if was != self.busy:
            self.sig_busy_changed.emit(self.busy)


class EvaluationProgress(QObject):
    """A progress bar in the status bar for an evaluation run that takes longer than ``show_after_ms``.

    Connect :meth:`started`, :meth:`progress` and :meth:`finished` to the evaluation worker's signals. The bar is
    indeterminate until the run reports a fraction (a multi-scenario comparison reports one per scenario).
    """

    def __init__(self, status_bar: QStatusBar, show_after_ms: int = 300) -> None:
        super().__init__(status_bar)
        self.bar = QProgressBar()
        self.bar.setObjectName("evaluationProgress")
        self.bar.setMaximumWidth(110)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.bar.setToolTip("Evaluating the design (the window stays usable meanwhile)")
        self.bar.hide()
        status_bar.addPermanentWidget(self.bar)
        self._timer = QTimer(self, singleShot=True, interval=show_after_ms)
        self._timer.timeout.connect(self.bar.show)

    def started(self, *_args) -> None:
        """A run started: show the bar if it is still running after a moment."""
        self.bar.setRange(0, 0)
        if not self.bar.isVisible():
            self._timer.start()

    def progress(self, _generation: int, fraction: float) -> None:
        """The run has done ``fraction`` (0..1) of its work."""
        if fraction > 0:
            self.bar.setRange(0, 100)
            self.bar.setValue(round(fraction * 100))

    def finished(self, *_args) -> None:
        """The newest run ended: hide the bar."""
        self._timer.stop()
        self.bar.hide()

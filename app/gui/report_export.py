"""File → Export Report: ask where, write the PDF (``app.report.write_report``) off the GUI thread, offer to open it.

The report has a runner of its own, so a long report never delays a save or an autosave. It reuses the
window's latest evaluation and the sizer's latest search when they belong to the project as it is now (the numbers
in the PDF are the ones on screen, and nothing is solved twice); other scenarios are evaluated, and a search not
run is run, by the report against the same pinned catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QToolButton

from app.gui import settings
from app.gui.busy import BusyIndicator
from app.gui.document import ProjectDocument
from app.gui.tasks import TaskRunner

REPORT_FILTER = "PDF documents (*.pdf)"


class ReportExporter(QObject):
    """Writes the sizing report of a window's project.

    Args:
        window: the main window (dialog parent; the "Open" button goes to its status bar).
        document: the window's document.
        busy: the window's busy indicator (runs while the report is written).
        evaluation_cache: returns ``{scenario name: Evaluation}`` of results on screen that are current.
        sizing_cache: returns the sizer's ``SizingResult`` of the project as it is now, or None.
    """

    sig_report_written = Signal(str)
    """The PDF report was written to this path."""
    sig_report_failed = Signal(str)
    """The report could not be written; the message was shown."""

    def __init__(self, window: QMainWindow, document: ProjectDocument, busy: BusyIndicator,
                 evaluation_cache: Callable[[], dict[str, Any]],
                 sizing_cache: Callable[[], Any] = lambda: None) -> None:
        super().__init__(window)
        self._window, self._document, self._busy, self._cache = window, document, busy, evaluation_cache
        self._sizing = sizing_cache
        self.runner = TaskRunner(self, "report")
        self.last_report: Path | None = None
        self.open_button: QToolButton | None = None

    def export_report(self) -> bool:
        """File → Export Report…: ask where, then write the PDF on the report thread."""
        if self.runner.busy:
            self._window.statusBar().showMessage("A report is being written already.", 4000)
            return False
        doc = self._document
        folder = Path(settings.get("files/last_dir") or Path.home())
        stem = doc.path.stem if doc.path is not None else (doc.project.info.name or "StorPlan report")
        path, _ = QFileDialog.getSaveFileName(self._window, "Export sizing report", str(folder / f"{stem}.pdf"),
                                              REPORT_FILTER)
        if not path:
            return False
        path = Path(path)
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        return self.write_report(path)

    def write_report(self, path: Path) -> bool:
        """Write the report of the current project to ``path`` in the background (True: started)."""
        from app.report import write_report

        project = self._document.project
        catalog = self._document.base_catalog
        cache = self._cache()
        sizing = self._sizing()
        paper = project.settings.paper

        def job(_state):  # scenarios not on screen are evaluated against the same (pinned) catalog by the report
            return write_report(project, path, paper=paper, evaluation_cache=cache, catalog=catalog, sizing=sizing)

        self._busy.begin(f"Writing report {path.name}…")
        self.runner.submit(job, name=f"report {path.name}", on_done=lambda ok, result: self._done(ok, result, path))
        return True

    def _done(self, ok: bool, result: Any, path: Path) -> None:
        if not ok:
            self._busy.end("Report not written")
            message = str(result)
            if str(path) not in message:
                message = f"Cannot write the report to {path}: {message}"
            QMessageBox.warning(self._window, "Cannot export report", message)
            self.sig_report_failed.emit(message)
            return
        self.last_report = Path(result)
        self._busy.end()
        bar = self._window.statusBar()
        bar.showMessage(f"Report written to {self.last_report}", 15000)
        if self.open_button is None:
            button = self.open_button = QToolButton()
            button.setObjectName("openReportButton")
            button.setText("Open")
            button.setAutoRaise(True)
            button.clicked.connect(self.open_last_report)
            bar.addPermanentWidget(button)
            bar.messageChanged.connect(lambda text: button.setVisible(bool(text) and "Report written" in text))
        self.open_button.setToolTip(f"Open {self.last_report}")
        self.open_button.show()
        settings.put("files/last_dir", str(path.parent))
        self.sig_report_written.emit(str(self.last_report))

    def open_last_report(self) -> None:
        """Open the last written report in the system's PDF viewer."""
        if self.last_report is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.last_report)))

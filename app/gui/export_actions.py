"""File → Export Workbook / CSV: the sizing as an XLSX workbook or as CSV files (``app.report.workbook``), written
off the GUI thread like the PDF report. The figures are the ones on screen: the window's current evaluation of
the active scenario (with its failure states) is reused when there is one, and the Validation sheet holds the
Validation tab's outcomes (replayed once per process, like the report's)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from app.gui import settings
from app.gui.document import ProjectDocument
from app.gui.tasks import TaskRunner

XLSX_FILTER = "Excel workbooks (*.xlsx)"


class SheetExporter(QObject):
    """Writes the sizing workbook of a window's project.

    Args:
        window: the main window (dialog parent, status bar); document: the window's document;
        evaluation_cache: returns ``{scenario name: Evaluation}`` of the results on screen that are current.
    """

    sig_written = Signal(str)
    """A workbook (a file path) or a CSV folder was written."""
    sig_failed = Signal(str)
    """Nothing was written; the message was shown."""

    def __init__(self, window: QMainWindow, document: ProjectDocument,
                 evaluation_cache: Callable[[], dict[str, Any]]) -> None:
        super().__init__(window)
        self._window, self._document, self._cache = window, document, evaluation_cache
        self.runner = TaskRunner(self, "workbook")

    def _ask(self, title: str, folder: bool) -> Path | None:
        """Ask for a workbook file (or a folder for CSV); None when cancelled."""
        doc = self._document
        start = Path(settings.get("files/last_dir") or Path.home())
        stem = doc.path.stem if doc.path is not None else (doc.project.info.name or "StorPlan sizing")
        if folder:
            path = QFileDialog.getExistingDirectory(self._window, title, str(start))
        else:
            path, _ = QFileDialog.getSaveFileName(self._window, title, str(start / f"{stem}.xlsx"), XLSX_FILTER)
        if not path:
            return None
        path = Path(path)
        if not folder and path.suffix.lower() != ".xlsx":
            path = path.with_name(path.name + ".xlsx")
        return path

    def export_xlsx(self) -> bool:
        """File → Export Workbook (XLSX)…: ask where, then write it in the background (True: started)."""
        path = self._ask("Export sizing workbook", folder=False)
        return path is not None and self.write(path, xlsx=True)

    def export_csv(self) -> bool:
        """File → Export CSV files…: ask for a folder, then write one CSV per sheet in the background."""
        path = self._ask("Export sizing as CSV files (choose a folder)", folder=True)
        return path is not None and self.write(path, xlsx=False)

    def write(self, path: Path, xlsx: bool = True) -> bool:
        """Write the workbook (or CSV folder) of the current project to ``path`` on the task runner."""
        from app.report.workbook import sizing_sheets, write_csv_folder, write_xlsx

        if self.runner.busy:
            self._window.statusBar().showMessage("An export is being written already.", 4000)
            return False
        project = self._document.project
        catalog = self._document.base_catalog  # the file's pinned records, as the screen's evaluation uses
        evaluation = self._cache().get(project.active_scenario or project.scenario.name)

        def job(_state):
            from app.report import validation_outcomes

            outcomes = validation_outcomes()  # the Validation tab's, when it has run (a string: could not run)
            sheets = sizing_sheets(project, project.scenario.name, evaluation=evaluation,
                                   validation=None if isinstance(outcomes, str) else outcomes, catalog=catalog)
            if xlsx:
                write_xlsx(sheets, path)
            else:
                write_csv_folder(sheets, path)
            return path

        self.runner.submit(job, name=f"export {path.name}", on_done=lambda ok, result: self._done(ok, result, path))
        return True

    def _done(self, ok: bool, result: Any, path: Path) -> None:
        """Say where it went, or why it failed (naming the path)."""
        if not ok:
            message = str(result) if str(path) in str(result) else f"Cannot export to {path}: {result}"
            QMessageBox.warning(self._window, "Cannot export", message)
            self.sig_failed.emit(message)
            return
        settings.put("files/last_dir", str(path.parent if path.suffix else path))
        self._window.statusBar().showMessage(f"Sizing exported to {path}", 15000)
        self.sig_written.emit(str(path))

"""File → Open and Save for one main window, and the home of the window's other file parts.

:class:`FileController` keeps what belongs to the open file beside the :class:`~app.gui.document.ProjectDocument`
(read-only state, calibration data, the catalog snapshot it was saved with; its lock in a
:class:`~app.gui.locks.LockHolder`) and does the disk work on the file runner's thread
(:class:`~app.gui.tasks.TaskRunner`; the functions are in :mod:`app.gui.project_io`):

* **Save** runs on the runner; the window shows a busy indicator and stays responsive. The undo stack's clean
  index is set only when the save succeeded *and* the project is still the snapshot that was saved (an edit made
  during the save keeps the project modified). :meth:`FileController.save_sync` waits for the same job (scripts
  and tests, like the evaluation worker's ``force_sync``).
* **Open** reads the file on the runner, takes the project's lock, and evaluates against the file's pinned
  catalog; nothing in the window changes until the file has been read completely.

The other jobs have modules of their own, which the controller creates and wires: autosave and recovery
(:mod:`app.gui.autosave`), the pinned catalog's update bar (:mod:`app.gui.catalog_pinning`), the PDF report
(:mod:`app.gui.report_export`). The controller does not know the main window's class: it takes the window as a
``QMainWindow``, reports what the window shows by signals, and gets the evaluation cache and new windows from
callables the window passes in.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QToolButton

from app.gui import plain_text, settings
from app.gui.autosave import Autosaver
from app.gui.busy import BusyIndicator
from app.gui.catalog_pinning import CatalogPinning, CatalogUpdateBar
from app.gui.document import ProjectDocument
from app.gui.locks import LockHolder, lock_holder, same_path
from app.gui.project_io import (
    OPEN_FILTERS,
    SAVE_FILTER_STORPLAN,
    SAVE_FILTER_TOML,
    SAVE_FILTERS,
    LoadedFile,
    default_base_catalog,
    read_project_file,
    save_project_file,
)
from app.gui.report_export import REPORT_FILTER, ReportExporter
from app.gui.tasks import TaskRunner
from models.project.model import Project
from models.store import FileChangedOnDiskError

__all__ = ["FileController", "OPEN_FILTERS", "REPORT_FILTER", "SAVE_FILTERS", "SAVE_FILTER_STORPLAN",
           "SAVE_FILTER_TOML"]


class FileController(QObject):
    """Open and Save for one main window (see the module docstring).

    Args:
        window: the main window (dialog parent, status bar, tool bar area for the catalog bar).
        document: the window's document.
        evaluation_cache: returns ``{scenario name: Evaluation}`` for results on screen that are current (the
            report reuses them).
        new_window: opens another main window and returns its FileController (recovery of a second project).
        sizing_cache: returns the sizer's result for the project as it is now, or None (the report reuses it).
    """

    sig_busy_changed = Signal(bool)
    """A save, open or report export started (True) or the last one ended (False)."""
    sig_saved = Signal(str)
    """A save to this path succeeded."""
    sig_save_failed = Signal(str)
    """A save failed; the message was shown."""
    sig_opened = Signal(str)
    """A project file was read and installed in the window."""
    sig_state_changed = Signal()
    """The read-only state or the file behind the window changed (the window updates its title)."""
    sig_recent_changed = Signal()
    """The recent files list changed (the window rebuilds its menu)."""

    def __init__(self, window: QMainWindow, document: ProjectDocument,
                 evaluation_cache: Callable[[], dict[str, Any]] = dict,
                 new_window: Callable[[], FileController] | None = None,
                 sizing_cache: Callable[[], Any] = lambda: None) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.io = TaskRunner(self, "files")
        self.read_only = False
        self.locked_by: str | None = None
        self.calibration: Any = None
        self.snapshot: dict = {}
        self.fingerprint: Any = None  # models.store.FileFingerprint of the file as opened or last saved
        self.schema_version: int | None = None  # the .storplan file's format on disk (None: TOML, no file)
        self.locks = LockHolder()
        self._closing = False
        self.busy_indicator = BusyIndicator(window.statusBar())
        self.busy_indicator.sig_busy_changed.connect(self.sig_busy_changed)
        self.autosaver = Autosaver(window, document, self.io, lambda: self.calibration, self._install,
                                   (lambda: new_window().autosaver) if new_window is not None else None,
                                   lambda: self.fingerprint, lambda: self.locks.current)
        self.pinning = CatalogPinning(window, document, lambda: self.snapshot)
        self.reports = ReportExporter(window, document, self.busy_indicator, evaluation_cache, sizing_cache)

    # --- state and the parts' handles ---------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A save, open or report is running."""
        return self.busy_indicator.busy

    @property
    def sig_autosaved(self):
        """A recovery copy was written to this path (:attr:`Autosaver.sig_autosaved`)."""
        return self.autosaver.sig_autosaved

    @property
    def sig_report_written(self):
        """The PDF report was written to this path (:attr:`ReportExporter.sig_report_written`)."""
        return self.reports.sig_report_written

    @property
    def sig_report_failed(self):
        """The report could not be written (:attr:`ReportExporter.sig_report_failed`)."""
        return self.reports.sig_report_failed

    @property
    def recovery_key(self) -> str:
        """This window's key in the recovery store."""
        return self.autosaver.recovery_key

    @property
    def autosave_delay_ms(self) -> int:
        """Autosave this long after the last edit."""
        return self.autosaver.delay_ms

    @autosave_delay_ms.setter
    def autosave_delay_ms(self, value: int) -> None:
        self.autosaver.delay_ms = value

    @property
    def catalog_bar(self) -> CatalogUpdateBar | None:
        """The "newer catalog data" bar, once it was shown."""
        return self.pinning.bar

    @property
    def _open_button(self) -> QToolButton | None:
        return self.reports.open_button

    @property
    def last_report(self) -> Path | None:
        """The last report written."""
        return self.reports.last_report

    def _show_error(self, title: str, message: str) -> None:
        """A warning naming what failed: plain text (file content never renders as markup), shortened, shown
        without waiting (``app.gui.plain_text.show_warning``)."""
        plain_text.show_warning(self.window, title, message)

    # --- replacing the window's project ---------------------------------------------------------------------

    def _install(self, loaded: LoadedFile) -> None:
        """Make a fully read file the window's project (releases the previous file's lock)."""
        self.autosaver.discard_own()
        self.locks.replace(loaded.lock)
        self.read_only = loaded.read_only
        self.locked_by = loaded.locked_by
        self.calibration = loaded.calibration
        self.snapshot = loaded.snapshot
        self.fingerprint = loaded.fingerprint
        self.schema_version = loaded.schema_version
        self.pinning.hide()
        self.document.reset(loaded.project, loaded.path, loaded.base_catalog)
        self.sig_state_changed.emit()

    def replace(self, project: Project, path: Path | None = None) -> None:
        """Show a project with no file behind it (New, Close, an example)."""
        self._install(LoadedFile(project, path))

    def read(self, path: Path, *, read_only: bool = False) -> LoadedFile:
        """Read a project file completely and take its lock (see :func:`~app.gui.project_io.read_project_file`)."""
        return read_project_file(path, read_only=read_only, held_lock=self.locks.current)

    def open_path(self, path: Path | str, *, read_only: bool = False, remember: bool = True,
                  wait: bool = False) -> bool:
        """Open a project file in the window (after the caller asked about unsaved changes).

        The file is read on the file runner's thread (the GUI thread never waits on the disk) and installed when
        it is complete; ``sig_opened`` then carries its path. Any problem is shown in a message box and leaves
        the window's project (and the file) as they were. A project open in another StorPlan offers to open it
        read-only.

        Args:
            wait: read now and return whether the project was opened (start-up before the window shows, and
                tests); otherwise return at once (True: the read was started).
        """
        path = Path(path)
        outcome: dict[str, bool] = {}
        self.busy_indicator.begin(f"Opening {path.name}…")
        held = self.locks.current

        def done(ok: bool, result: Any) -> None:
            self.busy_indicator.end()
            outcome["opened"] = self._open_done(ok, result, path, read_only, remember)

        self.io.submit(lambda _state: read_project_file(path, read_only=read_only, held_lock=held),
                       name=f"open {path.name}", on_done=done)
        if wait:
            self.io.wait()
            return outcome.get("opened", False)
        return True

    def _open_done(self, ok: bool, result: Any, path: Path, read_only: bool, remember: bool) -> bool:
        from models.store import StoreError

        if not ok:
            exc = result
            if isinstance(exc, StoreError):
                holder = lock_holder(path) if exc.reason == "locked" else None
                if holder is not None and not read_only:
                    if self.ask_open_read_only(path, str(exc)):
                        return self.open_path(path, read_only=True, remember=remember, wait=True)
                    return False
                self._show_error("Cannot open project", str(exc))
            else:  # the reader's message names the file already (a TOML error: "P: not valid TOML: ...")
                text = str(exc)
                self._show_error("Cannot open project", text if str(path) in text else f"{path}\n\n{text}")
            return False
        loaded: LoadedFile = result
        self._install(loaded)
        if remember:
            settings.add_recent(str(path))
            self.sig_recent_changed.emit()
        note = " (read-only)" if self.read_only else ""
        self.window.statusBar().showMessage(f"Opened {path.name}{note}", 5000)
        if loaded.updates:
            self.show_catalog_updates(loaded.updates)
        self.sig_opened.emit(str(path))
        return True

    def wait(self) -> None:
        """Finish the queued file work (open, save, autosave) and deliver its results now (tests, scripts)."""
        self.io.wait()

    def ask_open_read_only(self, path: Path, message: str) -> bool:
        """The project is open in another StorPlan: offer to open it read-only."""
        answer = QMessageBox.question(
            self.window, "Project in use",
            plain_text.rich(f"{message}\n\nOpen {path.name} read-only? You can still save a copy with Save As."),
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Open)
        return answer == QMessageBox.StandardButton.Open

    # --- the other parts, as the window's menus call them ----------------------------------------------------

    def show_catalog_updates(self, updates: list[tuple[str, dict, dict]]) -> None:
        """Show the non-modal bar for bundled records newer than the project's pinned ones."""
        self.pinning.show_updates(updates)

    def update_catalog(self) -> None:
        """Re-pin the offered records to the bundled data (one undoable change)."""
        self.pinning.update_catalog()

    def keep_catalog(self) -> None:
        """Keep the pinned data."""
        self.pinning.keep_catalog()

    def autosave(self) -> None:
        """Write a recovery copy of the modified project now (on the file runner's thread)."""
        self.autosaver.autosave()

    def offer_recovery(self) -> bool:
        """At start-up: offer the recovery copies left by a crashed StorPlan. True when one was recovered."""
        return self.autosaver.offer_recovery()

    def recover(self, item) -> bool:
        """Open a recovery copy as the window's project: modified, with its original path."""
        return self.autosaver.recover(item)

    def export_report(self) -> bool:
        """File → Export Report…"""
        return self.reports.export_report()

    def write_report(self, path: Path) -> bool:
        """Write the report of the current project to ``path`` in the background."""
        return self.reports.write_report(path)

    def open_last_report(self) -> None:
        """Open the last written report."""
        self.reports.open_last_report()

    # --- saving --------------------------------------------------------------------------------------------------

    def ask_save_path(self) -> Path | None:
        """The Save As dialog: .storplan by default, .toml through its filter."""
        folder = Path(settings.get("files/last_dir") or Path.home())
        current = self.document.path
        stem = current.stem if current is not None else (self.document.project.info.name or "Untitled")
        path, chosen = QFileDialog.getSaveFileName(self.window, "Save project as", str(folder / f"{stem}.storplan"),
                                                   SAVE_FILTERS, SAVE_FILTER_STORPLAN)
        if not path:
            return None
        path = Path(path)
        if path.suffix.lower() not in (".storplan", ".toml"):
            path = path.with_name(path.name + (".toml" if chosen == SAVE_FILTER_TOML else ".storplan"))
        settings.put("files/last_dir", str(path.parent))
        return path

    def save(self, path: Path | str | None = None, then: Callable[[], None] | None = None) -> bool:
        """Start saving (to ``path``; default the project's file, else ask). ``then`` runs once it succeeded.

        Returns False when nothing was started (the user cancelled the dialog).
        """
        if path is None:
            path = self.document.path if not self.read_only else None
            if path is not None and path.suffix.lower() not in (".storplan", ".toml"):
                path = None
            if path is None:
                path = self.ask_save_path()
                if path is None:
                    return False
        self._start_save(Path(path), then)
        return True

    def ask_changed_on_disk(self, path: Path, message: str) -> str:
        """The file changed on disk since it was opened or saved: ask what to do.

        Returns:
            "save_as" (keep both: choose another file), "overwrite" (replace the other program's changes) or
            "cancel" (the file and the window's project stay as they are).
        """
        return self._choose(QMessageBox.Icon.Warning, "File changed on disk", message,
                            [("Save As…", QMessageBox.ButtonRole.AcceptRole, "save_as"),
                             ("Overwrite", QMessageBox.ButtonRole.DestructiveRole, "overwrite")])

    def _choose(self, icon: QMessageBox.Icon, title: str, message: str,
                choices: list[tuple[str, QMessageBox.ButtonRole, str]]) -> str:
        """A plain-text question with a Cancel button and ``choices`` ((label, role, answer), the first the
        default); returns the answer of the button clicked, "cancel" for Cancel or a closed box."""
        box = plain_text.message_box(self.window, icon, title, message, QMessageBox.StandardButton.Cancel)
        buttons = [(box.addButton(label, role), answer) for label, role, answer in choices]
        box.setDefaultButton(buttons[0][0])
        box.exec()
        clicked = box.clickedButton()
        return next((answer for button, answer in buttons if clicked is button), "cancel")

    def save_as(self, then: Callable[[], None] | None = None) -> bool:
        """Ask for a path and start saving there; False when the dialog was cancelled."""
        path = self.ask_save_path()
        if path is None:
            return False
        self._start_save(path, then)
        return True

    def save_sync(self, path: Path | str | None = None) -> bool:
        """Save and wait for the result (scripts and tests; the menu commands use :meth:`save`)."""
        results: list[bool] = []
        if not self.save(path, then=lambda: results.append(True)):
            return False
        self.io.wait()
        return bool(results)

    def ask_upgrade_format(self, path: Path, old_version: int) -> str:
        """The first save over a ``.storplan`` file of an older format: say that older StorPlans cannot open the
        saved file, once, before writing it.

        Returns:
            "save" (write the current format), "save_as" (keep the old file, save the changes elsewhere) or
            "cancel".
        """
        from models.store.schema import SCHEMA_VERSION

        return self._choose(
            QMessageBox.Icon.Information, "Save in the current file format",
            f"{path.name} was saved by an older StorPlan (file format {old_version}). Saving it writes the current "
            f"file format ({SCHEMA_VERSION}), which older StorPlan versions cannot open.\n\nIf someone with an "
            "older StorPlan needs this file, use Save As to keep it as it is and save your changes beside it.",
            [("Save in Current Format", QMessageBox.ButtonRole.AcceptRole, "save"),
             ("Save As…", QMessageBox.ButtonRole.ActionRole, "save_as")])

    def _start_save(self, path: Path, then: Callable[[], None] | None, *, force: bool = False) -> None:
        from models.store.schema import SCHEMA_VERSION

        doc = self.document
        old_format = self.schema_version
        upgrading = (old_format is not None and old_format < SCHEMA_VERSION and path.suffix.lower() == ".storplan"
                     and same_path(doc.path, path))
        if upgrading and not force and not self._closing:
            choice = self.ask_upgrade_format(path, old_format)
            if choice == "save_as":
                self.save_as(then)
                return
            if choice != "save":
                self.sig_save_failed.emit(f"Not saved: {path.name} keeps its older file format.")
                return
            self.schema_version = SCHEMA_VERSION  # asked once: the file is of the current format from now on
        project, index = doc.project, doc.undo_stack.index()
        catalog = doc.base_catalog or default_base_catalog()
        calibration = self.calibration
        keep_lock = self.locks.lock_for(path)
        storplan = path.suffix.lower() == ".storplan"
        # Only the file this window opened or last saved has an expectation; Save As to another file was
        # confirmed by the file dialog.
        expected = self.fingerprint if same_path(doc.path, path) else None

        def job(_state):
            return save_project_file(project, path, catalog=catalog, calibration=calibration, keep_lock=keep_lock,
                                     expected_fingerprint=expected, force=force)

        self.busy_indicator.begin(f"Saving {path.name}…")
        self.io.submit(job, name=f"save {path.name}",
                       on_done=lambda ok, result: self._save_done(ok, result, path, project, index, storplan, then,
                                                                  upgrading))

    def _save_done(self, ok: bool, result: Any, path: Path, project: Project, index: int, storplan: bool,
                   then: Callable[[], None] | None, upgrading: bool = False) -> None:
        doc = self.document
        if not ok:
            self.busy_indicator.end(f"Could not save {path.name}")
            if isinstance(result, FileChangedOnDiskError) and not self._closing:
                choice = self.ask_changed_on_disk(path, str(result))
                if choice == "overwrite":
                    self._start_save(path, then, force=True)
                    return
                if choice == "save_as":
                    self.save_as(then)
                    return
                self.sig_save_failed.emit(str(result))
                return
            message = _save_failure_words(result, path)
            self._show_error("Cannot save project", message)
            self.sig_save_failed.emit(message)
            return
        from models.store.schema import SCHEMA_VERSION

        self.locks.replace(result.lock)
        self.fingerprint = result.fingerprint
        self.schema_version = SCHEMA_VERSION if storplan else None
        self.read_only = False
        self.locked_by = None
        clean = doc.project is project and doc.undo_stack.index() == index
        doc.mark_saved(path, clean=clean)
        if clean:
            self.autosaver.discard_own()
        settings.add_recent(str(path))
        self.sig_recent_changed.emit()
        self.sig_state_changed.emit()
        note = ""
        if upgrading:
            note = " in the current file format (older StorPlan versions cannot open it)"
        if not storplan and self.calibration:
            note = " (TOML holds no calibration data: save as .storplan to keep it)"
        self.busy_indicator.end(f"Saved {path.name}{note}")
        self.sig_saved.emit(str(path))
        if then is not None and clean and not self._closing:
            then()

    # --- closing --------------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """The window closes (its changes saved or discarded): finish disk work, drop the recovery copy and lock."""
        self._closing = True
        self.autosaver.closing = True
        self.autosaver.stop()
        self.reports.runner.shutdown(wait=True, timeout_s=30.0)  # a report or save is finished, not torn
        self.io.shutdown(wait=True, timeout_s=30.0)
        self.autosaver.discard_now()
        self.locks.release()


def _save_failure_words(exc: BaseException, path: Path) -> str:
    """The message for a failed save of ``path``: a store error's own words (they name the file), else
    "Cannot save P: <why>" with an OS error in words (``models.atomic.write_error_words``: never an errno or a
    temporary file's name)."""
    from models.atomic import write_error_words
    from models.store import StoreError

    if isinstance(exc, StoreError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"Cannot save {path}: {write_error_words(exc, path)}."
    return f"Cannot save {path}: {exc}"

"""File commands of the main window: open, save, locks, pinned catalogs, crash recovery and the PDF report.

The main window's File menu calls :class:`FileController`; the controller keeps what belongs to the open file
beside the :class:`~app.gui.document.ProjectDocument` (its lock, read-only state, calibration data and the catalog
snapshot it was saved with) and does the disk work off the GUI thread:

* **Save** runs ``models.store.save_project`` (or the TOML writer) on a one-thread pool; the window shows a busy
  indicator and stays responsive. The undo stack's clean index is set only when the save succeeded *and* the
  project is still the snapshot that was saved (an edit made during the save keeps the project modified).
  :meth:`FileController.save_sync` waits for the same job (scripts and tests, like the evaluation worker's
  ``force_sync``).
* **Open** reads the file on the GUI thread (opening a 1,000-node project takes well under 200 ms), takes the
  project's :class:`~models.store.ProjectLock`, and evaluates against the file's pinned catalog; nothing in the
  window changes until the file has been read completely.
* **Autosave** writes a recovery copy (:class:`~models.store.RecoveryStore`) a few seconds after the last edit, on
  the same pool; a clean save or close removes it. :func:`open_main_window` offers recovery at start-up.
* **Export Report** runs ``app.report.write_report`` on a second pool so a long report never delays a save.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QUndoCommand
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QToolBar,
    QToolButton,
    QWidget,
)

from models.catalog import Catalog, CatalogError, bundled_catalog, load_user_catalog
from models.project.model import Project

from . import commands, settings

if TYPE_CHECKING:
    from .main_window import MainWindow

SAVE_FILTER_STORPLAN = "StorPlan project (*.storplan)"
SAVE_FILTER_TOML = "TOML text (*.toml)"
SAVE_FILTERS = f"{SAVE_FILTER_STORPLAN};;{SAVE_FILTER_TOML}"
OPEN_FILTERS = "StorPlan projects (*.storplan *.toml);;StorPlan project (*.storplan);;TOML text (*.toml);;All files (*)"
REPORT_FILTER = "PDF documents (*.pdf)"
AUTOSAVE_DELAY_MS = 4000
"""Autosave this long after the last edit (the timer restarts on every edit)."""


def default_base_catalog() -> Catalog:
    """The catalog a project evaluates against when it has no pinned records: bundled plus the user's own."""
    try:
        return load_user_catalog()
    except CatalogError:
        return bundled_catalog()


def read_toml(path: Path) -> Project:
    """A TOML project, laid out when it has no positions (raises ProjectFormatError / OSError)."""
    from models.project import load

    project = load(path)
    if commands.needs_layout(project.scenario):
        project = project.with_scenario(commands.move_nodes(project.scenario, commands.auto_layout(project.scenario)))
    return project


def write_toml(project: Project, path: Path) -> None:
    """Write the TOML form atomically (temporary file + rename)."""
    from models.project.textformat import dump

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        dump(project, tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _same_path(a: Path | None, b: Path | None) -> bool:
    if a is None or b is None:
        return False
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _lock_holder(path: Path) -> str | None:
    """Who holds the project's lock, when it is another live StorPlan."""
    from models.store import read_lock

    info = read_lock(path)
    if info is None or info.is_mine or info.is_stale:
        return None
    return info.describe()


@dataclass
class LoadedFile:
    """A project file read completely (nothing in the window has changed yet)."""

    project: Project
    path: Path | None
    read_only: bool = False
    base_catalog: Catalog | None = None
    snapshot: dict = field(default_factory=dict)
    calibration: Any = None
    lock: Any = None
    locked_by: str | None = None
    updates: list = field(default_factory=list)
    """Bundled records newer than the pinned ones: ``models.store.catalog_updates`` rows."""


# --- running plain functions on a pool ---------------------------------------------------------------------


class _Relay(QObject):
    """Lives in the GUI thread; emitted from a pool thread, its signal is delivered queued."""

    sig_job_done = Signal(int, bool, object)
    """A job (token) ended: ok, and its result or exception."""


class _Job(QRunnable):
    def __init__(self, relay: _Relay, token: int, fn: Callable[[], Any]) -> None:
        super().__init__()
        self._relay, self._token, self._fn = relay, token, fn

    def run(self) -> None:
        try:
            result, ok = self._fn(), True
        except Exception as exc:  # noqa: BLE001 - delivered to the GUI thread, which shows it
            result, ok = exc, False
        self._relay.sig_job_done.emit(self._token, ok, result)


class _Runner(QObject):
    """A one-thread pool that runs plain functions in order and calls back on the GUI thread."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.sig_job_done.connect(self._done)
        self._callbacks: dict[int, Callable[[bool, Any], None]] = {}
        self._next = 0

    @property
    def busy(self) -> bool:
        return bool(self._callbacks)

    def submit(self, fn: Callable[[], Any], callback: Callable[[bool, Any], None] | None = None) -> int:
        self._next += 1
        self._callbacks[self._next] = callback or (lambda ok, result: None)
        self._pool.start(_Job(self._relay, self._next, fn))
        return self._next

    def _done(self, token: int, ok: bool, result: Any) -> None:
        callback = self._callbacks.pop(token, None)
        if callback is not None:
            callback(ok, result)

    def wait(self, timeout_ms: int = 30_000) -> None:
        """Wait for the queued jobs and deliver their results now (tests, scripts, shutdown)."""
        self._pool.waitForDone(timeout_ms)
        from PySide6.QtCore import QCoreApplication

        QCoreApplication.sendPostedEvents(self._relay)
        QCoreApplication.sendPostedEvents(self)


# --- re-pinning the catalog is an undoable change --------------------------------------------------------------


class RepinCatalogCommand(QUndoCommand):
    """Swap the document's base catalog (the pinned records) for another one; undo swaps it back."""

    def __init__(self, document, before: Catalog | None, after: Catalog | None, text: str) -> None:
        super().__init__(text)
        self._document, self._before, self._after = document, before, after

    def redo(self) -> None:
        """Make the new base catalog the document's (it re-evaluates)."""
        self._document.set_base_catalog(self._after)

    def undo(self) -> None:
        """Give the document its previous base catalog back (it re-evaluates)."""
        self._document.set_base_catalog(self._before)


class CatalogUpdateBar(QToolBar):
    """The non-modal "newer catalog data" bar: a message, [Update] and [Keep]."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Catalog updates", parent)
        self.setObjectName("catalogUpdateBar")
        self.setMovable(False)
        self.setFloatable(False)
        self.setStyleSheet("QToolBar#catalogUpdateBar { background: #fff4d6; border-bottom: 1px solid #e0c36a; }")
        self.label = QLabel()
        self.label.setWordWrap(False)
        self.update_button = QPushButton("Update")
        self.update_button.setToolTip("Use the bundled catalog's data for these items (undoable; save to keep it)")
        self.keep_button = QPushButton("Keep")
        self.keep_button.setToolTip("Keep the data the project was saved with")
        self.addWidget(self.label)
        self.addWidget(self.update_button)
        self.addWidget(self.keep_button)
        self.toggleViewAction().setVisible(False)


# --- the controller ---------------------------------------------------------------------------------------------


class FileController(QObject):
    """The File menu's logic for one main window (see the module docstring)."""

    sig_busy_changed = Signal(bool)
    """A save or report export started (True) or the last one ended (False)."""
    sig_saved = Signal(str)
    """A save to this path succeeded."""
    sig_save_failed = Signal(str)
    """A save failed; the message was shown."""
    sig_report_written = Signal(str)
    """The PDF report was written to this path."""
    sig_report_failed = Signal(str)
    """The report could not be written; the message was shown."""
    sig_autosaved = Signal(str)
    """A recovery copy was written to this path."""
    sig_opened = Signal(str)
    """A project file was read and installed in the window."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.io = _Runner(self)
        self.report_runner = _Runner(self)
        self.read_only = False
        self.locked_by: str | None = None
        self.calibration: Any = None
        self.snapshot: dict = {}
        self._lock: Any = None
        self._busy = 0
        self._closing = False
        self.recovery_key = uuid.uuid4().hex
        self._recovery_store: Any = None
        self.autosave_delay_ms = AUTOSAVE_DELAY_MS
        self._autosave_timer = QTimer(self, singleShot=True)
        self._autosave_timer.timeout.connect(self.autosave)
        self.document.sig_project_changed.connect(self._schedule_autosave)
        self.catalog_bar: CatalogUpdateBar | None = None
        self._pending_updates: list[tuple[str, dict, dict]] = []
        self._progress: QProgressBar | None = None
        self._open_button: QToolButton | None = None
        self.last_report: Path | None = None
        self._extra_windows: list = []

    # --- state -----------------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a file is being opened or saved."""
        return self._busy > 0

    @property
    def recovery(self):
        """The `models.store.RecoveryStore` of autosave copies (created on first use, in the user data folder)."""
        if self._recovery_store is None:
            from models.store import RecoveryStore

            self._recovery_store = RecoveryStore()
        return self._recovery_store

    def _set_busy(self, delta: int, message: str = "") -> None:
        was = self.busy
        self._busy = max(0, self._busy + delta)
        bar = self.window.statusBar()
        if self._progress is None:
            self._progress = QProgressBar()
            self._progress.setObjectName("fileBusyIndicator")
            self._progress.setRange(0, 0)
            self._progress.setMaximumWidth(110)
            self._progress.setMaximumHeight(14)
            self._progress.setTextVisible(False)
            bar.addPermanentWidget(self._progress)
        self._progress.setVisible(self.busy)
        if message:
            bar.showMessage(message, 0 if self.busy and delta > 0 else 6000)
        if was != self.busy:
            self.sig_busy_changed.emit(self.busy)

    def _show_error(self, title: str, message: str) -> None:
        QMessageBox.warning(self.window, title, message)

    # --- replacing the window's project ---------------------------------------------------------------------

    def _install(self, loaded: LoadedFile) -> None:
        """Make a fully read file the window's project (releases the previous file's lock)."""
        self._autosave_timer.stop()
        self._discard_own_recovery()
        if self._lock is not None and self._lock is not loaded.lock:
            self._lock.release()
        self._lock = loaded.lock
        self.read_only = loaded.read_only
        self.locked_by = loaded.locked_by
        self.calibration = loaded.calibration
        self.snapshot = loaded.snapshot
        self._pending_updates = []
        if self.catalog_bar is not None:
            self.catalog_bar.hide()
        self.document.reset(loaded.project, loaded.path, loaded.base_catalog)
        self.window._update_title()

    def replace(self, project: Project, path: Path | None = None) -> None:
        """Show a project with no file behind it (New, Close, an example)."""
        self._install(LoadedFile(project, path))

    def read(self, path: Path, *, read_only: bool = False) -> LoadedFile:
        """Read a project file completely and take its lock (unless read-only).

        Raises:
            StoreError: a .storplan file that cannot be opened (``reason`` says why; ``"locked"`` when another
                StorPlan has it and ``read_only`` was not asked for).
            Exception: a TOML file that cannot be read (ProjectFormatError, OSError).
        """
        from models.store import ProjectLock, StoreError, catalog_updates, is_sqlite_file, open_project, pinned_catalog

        path = Path(path)
        if path.suffix.lower() != ".storplan" and not is_sqlite_file(path):
            project = read_toml(path)
            writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
            return LoadedFile(project, path, read_only=read_only or not writable)
        opened = open_project(path, read_only_if_locked=read_only)
        base = default_base_catalog()
        loaded = LoadedFile(opened.project, path, read_only=opened.read_only or read_only,
                            base_catalog=pinned_catalog(opened.catalog_snapshot, base),
                            snapshot=dict(opened.catalog_snapshot), calibration=opened.calibration,
                            locked_by=opened.locked_by)
        if not loaded.read_only:
            if self._lock is not None and _same_path(self._lock.path, path):
                loaded.lock = self._lock  # reopening (Revert) the file this window already holds
            else:
                lock = ProjectLock(path)
                try:
                    lock.acquire()
                    loaded.lock = lock
                except StoreError as exc:
                    if exc.reason == "locked":
                        raise
                    loaded.read_only = True  # the folder cannot be written: open read-only
        loaded.updates = catalog_updates(opened.catalog_snapshot, base)
        return loaded

    def open_path(self, path: Path | str, *, read_only: bool = False, remember: bool = True,
                  wait: bool = False) -> bool:
        """Open a project file in the window (after the caller asked about unsaved changes).

        The file is read on the I/O thread (the GUI thread never waits on the disk) and installed when it is
        complete; ``sig_opened`` then carries its path. Any problem is shown in a message box and leaves the
        window's project (and the file) as they were. A project open in another StorPlan offers to open it
        read-only.

        Args:
            wait: read now and return whether the project was opened (start-up before the window shows, and
                tests); otherwise return at once (True: the read was started).
        """
        path = Path(path)
        outcome: dict[str, bool] = {}
        self._set_busy(1, f"Opening {path.name}…")

        def done(ok: bool, result: Any) -> None:
            self._set_busy(-1)
            outcome["opened"] = self._open_done(ok, result, path, read_only, remember)

        self.io.submit(lambda: self.read(path, read_only=read_only), done)
        if wait:
            self.io.wait()
            return outcome.get("opened", False)
        return True

    def _open_done(self, ok: bool, result: Any, path: Path, read_only: bool, remember: bool) -> bool:
        from models.store import StoreError

        if not ok:
            exc = result
            if isinstance(exc, StoreError):
                holder = _lock_holder(path) if exc.reason == "locked" else None
                if holder is not None and not read_only:
                    if self.ask_open_read_only(path, str(exc)):
                        return self.open_path(path, read_only=True, remember=remember, wait=True)
                    return False
                self._show_error("Cannot open project", str(exc))
            else:
                self._show_error("Cannot open project", f"{path}\n\n{exc}")
            return False
        loaded: LoadedFile = result
        self._install(loaded)
        if remember:
            settings.add_recent(str(path))
            self.window._update_recent_menu()
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
            f"{message}\n\nOpen {path.name} read-only? You can still save a copy with Save As.",
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Open)
        return answer == QMessageBox.StandardButton.Open

    # --- pinned catalog ----------------------------------------------------------------------------------------

    def show_catalog_updates(self, updates: list[tuple[str, dict, dict]]) -> None:
        """Show the non-modal bar for bundled records newer than the project's pinned ones."""
        self._pending_updates = list(updates)
        if self.catalog_bar is None:
            self.catalog_bar = CatalogUpdateBar(self.window)
            self.catalog_bar.update_button.clicked.connect(self.update_catalog)
            self.catalog_bar.keep_button.clicked.connect(self.keep_catalog)
            self.window.addToolBarBreak()
            self.window.addToolBar(self.catalog_bar)
        names = ", ".join(str(new.get("name") or entry_id) for entry_id, _old, new in updates)
        count = len(updates)
        self.catalog_bar.label.setText(
            f"The bundled catalog has newer data for {count} item{'s' if count != 1 else ''} used here: {names}.  ")
        self.catalog_bar.label.setToolTip("\n".join(entry_id for entry_id, _o, _n in updates))
        self.catalog_bar.show()

    def update_catalog(self) -> None:
        """Re-pin the listed records to the bundled data, as one undoable change (the project becomes modified)."""
        from models.store import pinned_catalog

        ids = {entry_id for entry_id, _old, _new in self._pending_updates}
        if not ids:
            return
        kept = {entry_id: entry for entry_id, entry in self.snapshot.items() if entry_id not in ids}
        after = pinned_catalog(kept, default_base_catalog())
        count = len(ids)
        self.document.undo_stack.push(RepinCatalogCommand(
            self.document, self.document.base_catalog, after,
            f"Update {count} catalog item{'s' if count != 1 else ''} to the bundled data"))
        self._pending_updates = []
        if self.catalog_bar is not None:
            self.catalog_bar.hide()
        self.window.statusBar().showMessage(f"Updated {count} catalog item(s); save to keep the new data.", 6000)

    def keep_catalog(self) -> None:
        """Keep the project's pinned catalog records as they are: forget the offered updates and hide the bar."""
        self._pending_updates = []
        if self.catalog_bar is not None:
            self.catalog_bar.hide()

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

    def save_as(self, then: Callable[[], None] | None = None) -> bool:
        """Ask for a path (Save As dialog) and start saving there; ``then`` runs once the save succeeded.

        Returns False when the user cancelled the dialog.
        """
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

    def _start_save(self, path: Path, then: Callable[[], None] | None) -> None:
        from models.store import ProjectLock, save_project

        doc = self.document
        project, index = doc.project, doc.undo_stack.index()
        catalog = doc.base_catalog or default_base_catalog()
        calibration = self.calibration
        keep_lock = self._lock if self._lock is not None and _same_path(self._lock.path, path) else None
        storplan = path.suffix.lower() == ".storplan"

        def job():
            lock = keep_lock
            if storplan and lock is None:
                lock = ProjectLock(path)
                lock.acquire()
            try:
                if storplan:
                    save_project(project, path, catalog=catalog, calibration=calibration)
                else:
                    write_toml(project, path)
            except BaseException:
                if lock is not None and lock is not keep_lock:
                    lock.release()
                raise
            return lock

        self._set_busy(+1, f"Saving {path.name}…")
        self.io.submit(job, lambda ok, result: self._save_done(ok, result, path, project, index, storplan, then))

    def _save_done(self, ok: bool, result: Any, path: Path, project: Project, index: int, storplan: bool,
                   then: Callable[[], None] | None) -> None:
        doc = self.document
        if not ok:
            self._set_busy(-1, f"Could not save {path.name}")
            message = str(result)
            if path.name not in message:
                message = f"Cannot save {path}: {message}"
            self._show_error("Cannot save project", message)
            self.sig_save_failed.emit(message)
            return
        lock = result
        if self._lock is not None and self._lock is not lock:
            self._lock.release()
        self._lock = lock
        self.read_only = False
        self.locked_by = None
        clean = doc.project is project and doc.undo_stack.index() == index
        doc.mark_saved(path, clean=clean)
        if clean:
            self._discard_own_recovery()
        settings.add_recent(str(path))
        self.window._update_recent_menu()
        self.window._update_title()
        note = ""
        if not storplan and self.calibration:
            note = " (TOML holds no calibration data: save as .storplan to keep it)"
        self._set_busy(-1, f"Saved {path.name}{note}")
        self.sig_saved.emit(str(path))
        if then is not None and clean and not self._closing:
            then()

    # --- autosave and recovery ---------------------------------------------------------------------------------

    def _schedule_autosave(self) -> None:
        if not self._closing:
            self._autosave_timer.start(self.autosave_delay_ms)

    def autosave(self) -> None:
        """Write a recovery copy of the modified project (on the I/O thread)."""
        doc = self.document
        if not doc.modified or self._closing:
            return
        store, key = self.recovery, self.recovery_key
        project, path = doc.project, doc.path
        catalog, calibration = doc.base_catalog, self.calibration

        def job():
            return store.write(key, project, original_path=path, catalog=catalog, calibration=calibration)

        def done(ok: bool, result: Any) -> None:
            if ok:
                self.sig_autosaved.emit(str(result))
            else:
                self.window.statusBar().showMessage(f"Autosave failed: {result}", 8000)

        self.io.submit(job, done)

    def _discard_own_recovery(self) -> None:
        """Drop this window's recovery copy (after a clean save, on close, when the project is replaced)."""
        self._autosave_timer.stop()
        store, key = self.recovery, self.recovery_key
        self.io.submit(lambda: store.discard(key))

    def offer_recovery(self) -> bool:
        """At start-up: offer the recovery copies left by a crashed StorPlan. True when one was recovered."""
        try:
            items = self.recovery.pending()
        except OSError:
            return False
        if not items:
            return False
        answer = self.ask_recovery(items)
        if answer == "discard":
            for item in items:
                self.recovery.discard(item)
            return False
        if answer != "recover":
            return False
        recovered = False
        target = self
        for item in items:
            if recovered:
                from .main_window import MainWindow

                extra = MainWindow(Project())
                extra.show()
                self._extra_windows.append(extra)
                target = extra.files
            if target.recover(item):
                recovered = True
        return recovered

    def ask_recovery(self, items: list) -> str:
        """Recover / Discard / Later for recovery copies; returns "recover", "discard" or "later"."""
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Recover unsaved work")
        lines = []
        for item in items:
            where = str(item.original_path) if item.original_path else "never saved"
            lines.append(f"<li><b>{item.name}</b> — {where} — {item.saved_at.replace('T', ' ')}</li>")
        box.setText("StorPlan did not close normally. These projects have unsaved changes that can be recovered:"
                    f"<ul>{''.join(lines)}</ul>")
        recover = box.addButton("Recover", QMessageBox.ButtonRole.AcceptRole)
        discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Later", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(recover)
        box.exec()
        clicked = box.clickedButton()
        return "recover" if clicked is recover else "discard" if clicked is discard else "later"

    def recover(self, item) -> bool:
        """Open a recovery copy as the window's project: modified, with its original path."""
        from models.store import ProjectLock, StoreError, pinned_catalog

        try:
            opened = self.recovery.load(item)
        except StoreError as exc:
            self._show_error("Cannot recover project", str(exc))
            return False
        original = item.original_path
        loaded = LoadedFile(opened.project, original, base_catalog=pinned_catalog(opened.catalog_snapshot,
                                                                                   default_base_catalog()),
                            snapshot=dict(opened.catalog_snapshot), calibration=opened.calibration)
        if original is not None and original.suffix.lower() == ".storplan" and original.parent.is_dir():
            lock = ProjectLock(original)
            try:
                lock.acquire()
                loaded.lock = lock
            except StoreError as exc:
                loaded.read_only = True
                loaded.locked_by = _lock_holder(original)
                self.window.statusBar().showMessage(f"{exc} Recovered read-only: use Save As.", 10000)
        self._install(loaded)
        self.document.mark_modified()
        self.window._update_title()
        # keep a copy under this window's key before the crashed session's copy goes
        self.autosave()
        store = self.recovery
        self.io.submit(lambda: store.discard(item))
        self.window.statusBar().showMessage(f"Recovered {item.name}: it is not saved yet.", 8000)
        return True

    # --- report -------------------------------------------------------------------------------------------------

    def export_report(self) -> bool:
        """File → Export Report…: ask where, then write the PDF on the report thread."""
        if self.report_runner.busy:
            self.window.statusBar().showMessage("A report is being written already.", 4000)
            return False
        doc = self.document
        folder = Path(settings.get("files/last_dir") or Path.home())
        stem = doc.path.stem if doc.path is not None else (doc.project.info.name or "StorPlan report")
        path, _ = QFileDialog.getSaveFileName(self.window, "Export sizing report", str(folder / f"{stem}.pdf"),
                                              REPORT_FILTER)
        if not path:
            return False
        path = Path(path)
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        return self.write_report(path)

    def _evaluation_cache(self) -> dict[str, Any]:
        """The window's latest evaluation, when it belongs to the project as it is now (numbers as on screen)."""
        worker = self.window.worker
        outcome = worker.last_outcome
        if outcome is None or worker.busy or outcome.error or outcome.evaluation is None:
            return {}
        if outcome.evaluation.scenario != self.document.project.active_scenario:
            return {}
        return {outcome.evaluation.scenario: outcome.evaluation}

    def write_report(self, path: Path) -> bool:
        """Write the report of the current project to ``path`` in the background."""
        from app.report import write_report

        project = self.document.project
        catalog = self.document.base_catalog
        cache = self._evaluation_cache()
        paper = project.settings.paper

        def job():  # scenarios not on screen are evaluated against the same (pinned) catalog by the report
            return write_report(project, path, paper=paper, evaluation_cache=cache, catalog=catalog)

        self._set_busy(+1, f"Writing report {path.name}…")
        self.report_runner.submit(job, lambda ok, result: self._report_done(ok, result, path))
        return True

    def _report_done(self, ok: bool, result: Any, path: Path) -> None:
        if not ok:
            self._set_busy(-1, "Report not written")
            message = str(result)
            if str(path) not in message:
                message = f"Cannot write the report to {path}: {message}"
            self._show_error("Cannot export report", message)
            self.sig_report_failed.emit(message)
            return
        self.last_report = Path(result)
        self._set_busy(-1)
        bar = self.window.statusBar()
        bar.showMessage(f"Report written to {self.last_report}", 15000)
        if self._open_button is None:
            self._open_button = QToolButton()
            self._open_button.setObjectName("openReportButton")
            self._open_button.setText("Open")
            self._open_button.setAutoRaise(True)
            self._open_button.clicked.connect(self.open_last_report)
            bar.addPermanentWidget(self._open_button)
            bar.messageChanged.connect(lambda text: self._open_button.setVisible(bool(text)
                                                                                 and "Report written" in text))
        self._open_button.setToolTip(f"Open {self.last_report}")
        self._open_button.show()
        settings.put("files/last_dir", str(path.parent))
        self.sig_report_written.emit(str(self.last_report))

    def open_last_report(self) -> None:
        """Open the last written PDF report in the system's viewer (nothing before the first report)."""
        if self.last_report is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.last_report)))

    # --- closing --------------------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """The window closes (its changes saved or discarded): finish disk work, drop the recovery copy and lock."""
        self._closing = True
        self._autosave_timer.stop()
        self.report_runner.wait()
        self.io.wait()
        try:
            self.recovery.discard(self.recovery_key)
        except OSError:
            pass
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def open_main_window(path: str | Path | None = None, *, offer_recovery: bool = True,
                     example: str | Path | None = None) -> "MainWindow":
    """The start-up window (``storplan [PATH]``): the file through the same open code as File → Open, a bundled
    example (``example``: opened as a new, unsaved project, so saving never overwrites the bundled file), else
    the default example; then, once the window is up, the offer to recover a crashed session's work."""
    from .main_window import MainWindow, initial_project, read_project

    if example:
        window = MainWindow(read_project(Path(example)), None)
    elif path:
        window = MainWindow(Project())
        window.files.open_path(Path(path), wait=True)  # before the window shows: nothing to keep responsive
    else:
        project, project_path = initial_project(None)
        window = MainWindow(project, project_path)
    if offer_recovery:
        QTimer.singleShot(0, window.files.offer_recovery)
    return window

"""Autosave and crash recovery of a window's project (``models.store.RecoveryStore``).

A few seconds after the last edit, a recovery copy of the modified project is written on the file runner's
thread (after any save queued before it); a clean save, a close or another project removes it. At start-up
:meth:`Autosaver.offer_recovery` offers the copies a crashed StorPlan left: Recover opens each as a modified
project with its original path (the first in this window, the others in new windows), Discard deletes them,
Later keeps them for the next start.
"""

from __future__ import annotations

import html
import uuid
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app.gui import plain_text
from app.gui.document import ProjectDocument
from app.gui.locks import lock_holder, same_path
from app.gui.project_io import LoadedFile, default_base_catalog
from app.gui.tasks import TaskRunner

AUTOSAVE_DELAY_MS = 4000
"""Autosave this long after the last edit (the timer restarts on every edit)."""


def _when(iso: str) -> str:
    """An ISO 8601 UTC time as people read it: "2026-12-01 03:05 UTC" (the text as given if it is no time)."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso.replace("T", " ")
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


class Autosaver(QObject):
    """Recovery copies of one window's project, and recovery of a crashed session's copies.

    Args:
        window: the main window (dialog parent, status messages).
        document: the window's document (autosaved when modified; edits restart the timer).
        runner: the file runner (its thread keeps saves and autosaves in order).
        calibration: returns the open file's calibration data (kept in the copy).
        install: makes a recovered :class:`~app.gui.project_io.LoadedFile` the window's project.
        other_window: opens another window and returns its Autosaver (a second recovered project goes there).
        fingerprint: returns the open file's fingerprint as opened or last saved (kept in the copy's record, so
            recovery can tell whether the file was saved again after the copy).
        held_lock: returns the lock the window holds now (recovering the file the window has open keeps it).
    """

    sig_autosaved = Signal(str)
    """A recovery copy was written to this path."""

    def __init__(self, window: QMainWindow, document: ProjectDocument, runner: TaskRunner,
                 calibration: Callable[[], Any], install: Callable[[LoadedFile], None],
                 other_window: Callable[[], Autosaver] | None = None,
                 fingerprint: Callable[[], Any] = lambda: None, held_lock: Callable[[], Any] = lambda: None) -> None:
        super().__init__(window)
        self._fingerprint, self._held_lock = fingerprint, held_lock
        self._window, self._document, self._runner = window, document, runner
        self._calibration, self._install, self._other_window = calibration, install, other_window
        self.recovery_key = uuid.uuid4().hex
        self._store: Any = None
        self.delay_ms = AUTOSAVE_DELAY_MS
        self.closing = False
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.autosave)
        document.sig_project_changed.connect(self._schedule)

    @property
    def store(self):
        """The :class:`~models.store.RecoveryStore` (opened on first use)."""
        if self._store is None:
            from models.store import RecoveryStore

            self._store = RecoveryStore()
        return self._store

    def _schedule(self) -> None:
        if not self.closing:
            self._timer.start(self.delay_ms)

    def stop(self) -> None:
        """No autosave until the next edit."""
        self._timer.stop()

    def autosave(self) -> None:
        """Write a recovery copy of the modified project (on the file runner's thread)."""
        doc = self._document
        if not doc.modified or self.closing:
            return
        store, key = self.store, self.recovery_key
        project, path = doc.project, doc.path
        catalog, calibration = doc.base_catalog, self._calibration()
        fingerprint = self._fingerprint() if path is not None else None

        def job(_state):
            return store.write(key, project, original_path=path, catalog=catalog, calibration=calibration,
                               original_fingerprint=fingerprint)

        def done(ok: bool, result: Any) -> None:
            if ok:
                self.sig_autosaved.emit(str(result))
            else:
                self._window.statusBar().showMessage(f"Autosave failed: {result}", 8000)

        self._runner.submit(job, name="autosave", on_done=done)

    def discard_own(self) -> None:
        """Drop this window's recovery copy (after a clean save, on close, when the project is replaced)."""
        self._timer.stop()
        store, key = self.store, self.recovery_key
        self._runner.submit(lambda _state: store.discard(key), name="discard recovery copy")

    def discard_now(self) -> None:
        """Drop this window's copy on the GUI thread (the window is closing; the runner has finished)."""
        self.closing = True
        self._timer.stop()
        try:
            self.store.discard(self.recovery_key)
        except OSError:
            pass

    # --- recovery -----------------------------------------------------------------------------------------

    def offer_recovery(self) -> bool:
        """At start-up: offer the recovery copies left by a crashed StorPlan. True when one was recovered."""
        try:
            items = self.store.pending()
        except OSError:
            return False
        if not items:
            return False
        answer = self.ask_recovery(items)
        if answer == "discard":
            for item in items:
                self.store.discard(item)
            return False
        if answer != "recover":
            return False
        recovered = False
        target = self
        for item in items:
            if recovered and self._other_window is not None:
                target = self._other_window()
            if target.recover(item):
                recovered = True
        return recovered

    def ask_recovery(self, items: list) -> str:
        """Recover / Discard / Later for recovery copies; returns "recover", "discard" or "later"."""
        box = QMessageBox(self._window)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Recover unsaved work")
        lines = []
        for item in items:
            where = str(item.original_path) if item.original_path else "never saved"
            _expected, saved_after = item.original_on_disk()
            newer = ""
            if saved_after is not None:
                newer = (f"<br><b>The file was saved at {html.escape(_when(saved_after))}, after "
                         "this copy</b>: it holds newer work. Recovering opens the older copy; Save then asks "
                         "before replacing the file (use Save As to keep both).")
            lines.append(f"<li><b>{html.escape(item.name)}</b> — {html.escape(where)} — copy of "
                         f"{html.escape(_when(item.saved_at))}{newer}</li>")
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
            opened = self.store.load(item)
        except StoreError as exc:
            plain_text.show_warning(self._window, "Cannot recover project", str(exc))
            return False
        original = item.original_path
        # the file as the crashed window knew it: a file saved again since then makes the next Save ask first
        expected, saved_after = item.original_on_disk()
        loaded = LoadedFile(opened.project, original, base_catalog=pinned_catalog(opened.catalog_snapshot,
                                                                                   default_base_catalog()),
                            snapshot=dict(opened.catalog_snapshot), calibration=opened.calibration,
                            fingerprint=expected)
        held = self._held_lock()
        if held is not None and original is not None and same_path(held.path, original):
            loaded.lock = held  # the window has this file open already (a start with its path): keep its lock
        elif original is not None and original.suffix.lower() == ".storplan" and original.parent.is_dir():
            lock = ProjectLock(original)
            try:
                lock.acquire()
                loaded.lock = lock
            except StoreError as exc:
                loaded.read_only = True
                loaded.locked_by = lock_holder(original)
                self._window.statusBar().showMessage(f"{exc} Recovered read-only: use Save As.", 10000)
        self._install(loaded)
        self._document.mark_modified()
        # keep a copy under this window's key before the crashed session's copy goes
        self.autosave()
        store = self.store
        self._runner.submit(lambda _state: store.discard(item), name="discard crashed copy")
        if saved_after is not None and original is not None:
            self._window.statusBar().showMessage(
                f"Recovered {item.name} from a copy older than {original.name} (saved at "
                f"{_when(saved_after)}): Save asks before replacing the file.", 15000)
        else:
            self._window.statusBar().showMessage(f"Recovered {item.name}: it is not saved yet.", 8000)
        return True

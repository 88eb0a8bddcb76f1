"""Tools → New Hardware / Duplicate and Edit Hardware: a catalog record of the user's own, edited in a form generated
from the record's schema (with a source for every number: :mod:`.hardware_form`) or as the catalog's TOML (the two
are views of one record), and checked by the catalog's own schema before it is saved to the user catalog file;
Delete refuses a record the open project uses, naming the items.

The record's text starts from a copy of an existing record (Duplicate) or from the smallest valid record of a
kind (New). Saving writes a small TOML file on the editor's runner, off the GUI thread.
"""

from __future__ import annotations

import tomllib

import tomli_w
from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.gui.hardware_form import HardwareForm
from app.gui.plain_text import escape, rich
from app.gui.screen_fit import fit_to_screen
from app.gui.tasks import TaskRunner
from models.catalog import CatalogError, parse_entries
from models.user_catalog import delete_user_record, record_to_toml_dict, save_user_record


def record_text(entry, new_id: str) -> str:
    """A record as one TOML table of its kind with a new id and name (the user edits from there)."""
    data = record_to_toml_dict(entry)
    data["id"] = new_id
    data["name"] = f"{entry.name} (my copy)"
    data["based_on"] = entry.based_on or entry.id  # the copy takes the parts sold for the stock record
    return tomli_w.dumps({entry.kind: [data]})


def parse_record(text: str):
    """The one record a text holds, validated by the catalog schema.

    Raises:
        CatalogError: not TOML, not exactly one record, or a field fails validation (the message names the kind,
            id and field).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"not valid TOML: {exc}") from exc
    entries = parse_entries(data, "your record")
    if len(entries) != 1:
        raise CatalogError(f"write exactly one record (found {len(entries)})")
    return entries[0]


class HardwareEditor(QDialog):
    """Edit one record's TOML and save it to the user catalog (``sig_saved`` carries the record id)."""

    sig_saved = Signal(str)
    """A record was saved to the user catalog (its id)."""

    def __init__(self, catalog, start_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("My hardware")
        fit_to_screen(self, QSize(860, 760))
        self._catalog = catalog
        self.runner = TaskRunner(self, "hardware")
        self.base = QComboBox()
        ids = sorted(e.id for e in catalog)
        self.base.addItems(ids)
        self.text = QPlainTextEdit()
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.message = QLabel()
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        # everything but the buttons scrolls: at 200% on a 1366 x 768 screen (683 x 384) the content needs more
        # height than the screen has, and Save / Close stay on view below it
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.body_scroll = QScrollArea()
        self.body_scroll.setWidgetResizable(True)
        self.body_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.body_scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.addWidget(self.body_scroll, 1)
        layout.addWidget(QLabel("Start from (a copy of) this record:"))
        layout.addWidget(self.base)
        hint = QLabel("Give the record a new id, and every number a source (a document) or 'assumed: <why>'. The "
                      "form and the TOML are two views of the same record.")
        hint.setWordWrap(True)  # one long line made the dialog 900 px wide at least
        layout.addWidget(hint)
        self.form = HardwareForm()
        self.form.sig_text_changed.connect(self._form_changed)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.form, "Form")
        self.tabs.addTab(self.text, "TOML")
        self.tabs.currentChanged.connect(self._tab_changed)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)
        outer.addWidget(buttons)
        if start_id in ids:
            self.base.setCurrentText(start_id)
        # connected after choosing the start: the form is built and filled once, here, not a second time by the
        # choice's signal (each fill parses the record and sets every field)
        self.base.currentTextChanged.connect(self._start_from)
        self._start_from(self.base.currentText())

    def _start_from(self, entry_id: str) -> None:
        """Fill the text with a copy of record ``entry_id`` (new id ``<id>-mine``)."""
        entry = self._catalog.find(entry_id)
        if entry is not None:
            self.text.setPlainText(record_text(entry, f"{entry_id}-mine"))
            self.form.show_text(self.text.toPlainText())
            self.message.clear()

    def _form_changed(self, text: str) -> None:
        """An edit in the form rewrote the record: the TOML follows, and the record is checked at once."""
        self.text.setPlainText(text)
        try:
            parse_record(text)
        except CatalogError as exc:
            self.message.setText(f"<span style='color:#c27c0e'>Not valid yet: {escape(str(exc))}</span>")
        else:
            self.message.setText("Valid: ready to save.")

    def _tab_changed(self, index: int) -> None:
        """Back on the form: show what the TOML now says."""
        if self.tabs.widget(index) is self.form:
            self.form.show_text(self.text.toPlainText())

    def check(self):
        """Validate the text: the record, or None with the reason shown (naming the field)."""
        try:
            entry = parse_record(self.text.toPlainText())
        except CatalogError as exc:
            self.message.setText(f"<span style='color:#c0392b'>Not saved: {escape(str(exc))}</span>")
            return None
        from models.catalog import bundled_catalog

        stock = bundled_catalog().find(entry.id)
        if stock is not None or (self._catalog.find(entry.id) is not None and entry.id == self.base.currentText()):
            whose = f"the stock record {stock.name}" if stock is not None else "the catalog"
            self.message.setText(f"<span style='color:#c0392b'>Not saved: give the copy a new id ('{entry.id}' is "
                                 f"{whose}'s; your hardware never replaces it)</span>")
            return None
        return entry

    def save(self) -> bool:
        """Validate, then write the record to the user catalog on the runner (True: started)."""
        entry = self.check()
        if entry is None:
            return False
        self.runner.submit(lambda _state: save_user_record(entry), name=f"save {entry.id}",
                           on_done=lambda ok, result: self._saved(ok, result, entry.id))
        return True

    def _saved(self, ok: bool, result, entry_id: str) -> None:
        """Say where it went, or why not."""
        if not ok:
            self.message.setText(f"<span style='color:#c0392b'>Not saved: {escape(str(result))}</span>")
            return
        self.message.setText(f"Saved '{entry_id}' to {result}. It is in the catalog from now on; a project that "
                             "uses it keeps a pinned copy in its file.")
        self.sig_saved.emit(entry_id)


def delete_own_record(parent: QWidget, entry, project) -> bool:
    """Ask, then delete one of the user's own records; refused (with the items named) while ``project`` uses it.
    True when deleted."""
    answer = QMessageBox.question(parent, "Delete my hardware", rich(f"Delete '{entry.id}' ({entry.name}) from your "
                                                                     "own catalog? Projects that use it keep their "
                                                                     "pinned copies."))
    if answer != QMessageBox.StandardButton.Yes:
        return False
    try:
        delete_user_record(entry.id, entry.kind, project)
    except CatalogError as exc:
        QMessageBox.warning(parent, "Cannot delete", rich(str(exc)))
        return False
    return True

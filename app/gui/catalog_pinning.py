"""The pinned catalog of an open file: the "newer catalog data" bar and re-pinning to the bundled records.

A ``.storplan`` file keeps the catalog records it was saved with, so its numbers do not change when StorPlan's
bundled catalog does. When the bundled catalog has newer data for records the project uses, a non-modal bar
offers [Update] (re-pin them: one undoable :class:`~app.gui.commands.RepinCatalogCommand`) or [Keep].
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QToolBar, QWidget

from app.gui.commands import RepinCatalogCommand
from app.gui.document import ProjectDocument
from app.gui.plain_text import plain_tooltip
from app.gui.project_io import default_base_catalog


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


class CatalogPinning(QObject):
    """Offers newer bundled records for a window's file and re-pins them on request.

    Args:
        window: the main window (the bar is added as a tool bar; messages go to its status bar).
        document: the window's document (its undo stack takes the re-pin command).
        snapshot: returns the open file's pinned records, id -> record.
    """

    def __init__(self, window: QMainWindow, document: ProjectDocument, snapshot: Callable[[], dict]) -> None:
        super().__init__(window)
        self._window, self._document, self._snapshot = window, document, snapshot
        self.bar: CatalogUpdateBar | None = None
        self._pending: list[tuple[str, dict, dict]] = []

    def show_updates(self, updates: list[tuple[str, dict, dict]]) -> None:
        """Show the bar for bundled records newer than the project's pinned ones (``(id, old, new)`` rows)."""
        self._pending = list(updates)
        if self.bar is None:
            self.bar = CatalogUpdateBar(self._window)
            self.bar.update_button.clicked.connect(self.update_catalog)
            self.bar.keep_button.clicked.connect(self.keep_catalog)
            self._window.addToolBarBreak()
            self._window.addToolBar(self.bar)
        names = ", ".join(str(new.get("name") or entry_id) for entry_id, _old, new in updates)
        count = len(updates)
        self.bar.label.setTextFormat(Qt.TextFormat.PlainText)  # record names come from files
        self.bar.label.setText(
            f"The bundled catalog has newer data for {count} item{'s' if count != 1 else ''} used here: {names}.  ")
        self.bar.label.setToolTip(plain_tooltip("\n".join(entry_id for entry_id, _o, _n in updates)))
        self.bar.show()

    def update_catalog(self) -> None:
        """Re-pin the listed records to the bundled data, as one undoable change (the project becomes modified)."""
        from models.store import pinned_catalog

        ids = {entry_id for entry_id, _old, _new in self._pending}
        if not ids:
            return
        kept = {entry_id: entry for entry_id, entry in self._snapshot().items() if entry_id not in ids}
        after = pinned_catalog(kept, default_base_catalog())
        count = len(ids)
        self._document.undo_stack.push(RepinCatalogCommand(
            self._document, self._document.base_catalog, after,
            f"Update {count} catalog item{'s' if count != 1 else ''} to the bundled data"))
        self.hide()
        self._window.statusBar().showMessage(f"Updated {count} catalog item(s); save to keep the new data.", 6000)

    def keep_catalog(self) -> None:
        """Keep the pinned data: the bar goes away until the file is opened again."""
        self.hide()

    def hide(self) -> None:
        """Drop the offer (another project is shown, or it was answered)."""
        self._pending = []
        if self.bar is not None:
            self.bar.hide()

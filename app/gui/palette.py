"""The palette: catalog records grouped by kind, with a search box. A drag carries only the catalog id."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QCursor, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QMenu,
    QStyledItemDelegate,
    QToolTip,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.icons import KIND_LABELS, icon, kind_icon
from app.gui.item_text import item_text_width
from app.gui.status_bar import ELLIPSIS, shorten_at_word, word_pieces
from app.gui.tasks import TaskRunner
from models.catalog import Catalog, Controller
from models.formatting import natural_key

CATALOG_MIME = "application/x-storplan-catalog-id"
"""Private MIME type of a palette drag: the UTF-8 catalog id, nothing else."""

MY_HARDWARE = "mine"
"""Key of the palette group that lists the records of the user's own (user catalog or project), first."""
MY_HARDWARE_LABEL = "My hardware"

KIND_ORDER = ("host", "adapter", "switch", "controller", "shelf", "drive", "hci_node", "cloud_vm", "managed_service",
              "cloud_disk", "licence", "link")


MIN_TAIL = 8
"""A shortened tail in parentheses keeps at least this many characters ("(24 ports…)"), else it goes ("(2 x…)" said
nothing)."""


def fit_name(name: str, metrics: QFontMetrics, width: int) -> str:
    """A catalog name for ``width`` pixels at ``metrics``: whole where it fits; else its descriptive tail in
    parentheses gives way first, word by word ("Brocade 6510 16Gb FC switch (24 ports…)"), then the tail goes
    ("Brocade 6510 16Gb FC switch…"), then the name's own words from the end (:func:`shorten_at_word`). Never cut in
    the middle: Qt's middle elision read "Brocade 6510 1...orts licensed)" and "Dell PowerEd...430, 512 GB)", the
    model gone (REVIEW43 #8). The full name is the item's tooltip."""
    if metrics.horizontalAdvance(name) <= width:
        return name
    cut = name.find(" (")
    if cut > 0:
        base, tail = name[:cut], name[cut + 2:].removesuffix(")")
        pieces = word_pieces(tail)
        for count in range(len(pieces) - 1, 0, -1):
            kept = "".join(pieces[:count]).rstrip(" ,;/-")
            candidate = f"{base} ({kept}{ELLIPSIS})"
            if len(kept) >= MIN_TAIL and metrics.horizontalAdvance(candidate) <= width:
                return candidate
        if metrics.horizontalAdvance(base + ELLIPSIS) <= width:
            return base + ELLIPSIS
    return shorten_at_word(name, metrics, width)


class _NameDelegate(QStyledItemDelegate):
    """Draws a catalog entry's name as :func:`fit_name` shortens it for the item's text rectangle."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        if not option.text or not index.parent().isValid():  # a group's title: as Qt draws it
            return
        width = item_text_width(option)
        if width is not None:
            option.text = fit_name(option.text, option.fontMetrics, width)


def catalog_mime(entry_id: str) -> QMimeData:
    """The drag payload for one catalog record (what the palette puts on a drag; tests build it the same way)."""
    mime = QMimeData()
    mime.setData(CATALOG_MIME, entry_id.encode("utf-8"))
    return mime


def entry_id_from_mime(mime: QMimeData) -> str | None:
    """The catalog id a palette drag carries, or None when ``mime`` has no (or an empty) ``CATALOG_MIME`` payload."""
    if not mime.hasFormat(CATALOG_MIME):
        return None
    return bytes(mime.data(CATALOG_MIME)).decode("utf-8") or None


LIFECYCLE_ORDER = {"current": -1, "": 0, "installed base": 1, "end of sale": 2}
"""Order of a kind's records in the palette: what is sold today first, then records that do not say, the
installed base a refresh starts from, and what is no longer sold (by name within each)."""


class _CatalogTree(QTreeWidget):
    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [CATALOG_MIME]

    def mimeData(self, items) -> QMimeData:  # noqa: N802
        ids = [i.data(0, Qt.ItemDataRole.UserRole) for i in items if i.data(0, Qt.ItemDataRole.UserRole)]
        return catalog_mime(ids[0]) if ids else QMimeData()


def _basis_task(state: object, record: Controller, catalog: Catalog) -> str:
    """The palette's task (off the GUI thread): ``record``'s performance basis line in ``catalog``
    (``models.present.performance_basis``, imported here: the performance engine is not loaded at start-up)."""
    from models.present.performance_basis import performance_basis

    return performance_basis(record, catalog)


def _tooltip(entry, own: bool, basis: str = "", notes: str | None = None) -> str:
    """The rich-text tooltip of a palette record: name (and "your own record" for ``own``), lifecycle, the
    performance ``basis`` line of a controller when computed, then ``notes`` (the record's own notes when None)."""
    notes = entry.notes if notes is None else notes
    return (f"<b>{html.escape(entry.name)}</b>"
            + (f" ({html.escape(KIND_LABELS.get(entry.kind, entry.kind))}, your own record)" if own else "")
            + (f"<br><i>{html.escape(entry.lifecycle)}</i>" if entry.lifecycle else "")
            + (f"<br>{html.escape(basis)}" if basis else "")
            + (f"<br>{html.escape(notes)}" if notes else ""))


class PaletteWidget(QWidget):
    """Catalog browser. Drag an entry onto the canvas (or onto an item to set a part). A record of the user's own
    (group "My hardware") has a context menu: edit a copy (``sig_edit_requested``) or delete it
    (``sig_delete_requested``); both carry the catalog id. A record's tooltip is completed the first time it is about
to show (on hover, not at start-up): its notes cite public documents in customer words
(``models.present.citations``) and a controller's gains its computed performance basis
(``models.present.performance_basis``), computed off the GUI thread (:attr:`tasks`; the first one imports the
performance engine, about a second) and shown when it arrives."""

    sig_edit_requested = Signal(str)
    sig_delete_requested = Signal(str)

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("palette")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search catalog…")
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("mdi6.magnify"), QLineEdit.ActionPosition.LeadingPosition)
        self.tree = _CatalogTree(self)
        self.tree.setHeaderHidden(True)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setUniformRowHeights(True)
        # long catalog names keep their start (the model): their descriptive tail gives way first (fit_name)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setItemDelegate(_NameDelegate(self.tree))
        self.tree.header().setStretchLastSection(True)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search)
        layout.addWidget(self.tree)
        self.search.textChanged.connect(self._filter)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.viewport().installEventFilter(self)
        self.tasks = TaskRunner(self, name="palette")
        """Computes controllers' performance basis lines off the GUI thread."""
        self.set_catalog(catalog)

    def set_catalog(self, catalog: Catalog) -> None:
        """Rebuild the tree from ``catalog``: one bold group per kind in ``KIND_ORDER`` (empty kinds left out).

        Keeps the current search filter.
        """
        from models.catalog import bundled_catalog

        self.tree.clear()
        self.catalog = catalog
        self._completed: set[int] = set()  # id() of the items whose tooltip is complete (complete_tooltip)
        self._basis: dict[str, str] = {}  # controller id -> its performance basis line, computed for this catalog
        self._asked: set[str] = set()  # controller ids whose basis is being computed
        self.groups: dict[str, QTreeWidgetItem] = {}
        bundled = bundled_catalog()
        mine = [e for kind in KIND_ORDER for e in catalog.of_kind(kind) if bundled.find(e.id) != e]
        mine_ids = {e.id for e in mine}
        if mine:
            self._add_group(MY_HARDWARE, f"{MY_HARDWARE_LABEL}  ({len(mine)})", "mdi6.account-wrench", mine,
                            expanded=True)
        for kind in KIND_ORDER:
            entries = sorted((e for e in catalog.of_kind(kind) if e.id not in mine_ids),
                             key=lambda e: (LIFECYCLE_ORDER.get(e.lifecycle, 0), natural_key(e.name)))  # current
            # first; by name within, in natural order (1.5, 1.9, 3.8, 15.3 TB; 8, 16, 32, 64 Gb)
            if not entries:
                continue
            self._add_group(kind, f"{KIND_LABELS.get(kind, kind)}  ({len(entries)})", None, entries,
                            expanded=kind in ("host", "switch", "controller", "shelf", "drive"))
        self._filter(self.search.text())

    def _add_group(self, key: str, title: str, icon_name: str | None, entries, expanded: bool) -> None:
        """One bold group (``key`` in :attr:`groups`) with a draggable item per entry."""
        group = QTreeWidgetItem(self.tree, [title])
        group.setIcon(0, icon(icon_name) if icon_name else kind_icon(key))
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        group.setData(0, Qt.ItemDataRole.UserRole, "")  # never read None back (PySide6 6.12 refcount bug)
        font = group.font(0)
        font.setBold(True)
        group.setFont(0, font)
        self.groups[key] = group
        for entry in entries:
            item = QTreeWidgetItem(group, [entry.name])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.id)
            item.setIcon(0, kind_icon(entry.kind))
            item.setToolTip(0, _tooltip(entry, key == MY_HARDWARE))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
        group.setExpanded(expanded)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Before the tree shows an item's tooltip: complete it (:meth:`complete_tooltip`, once per item)."""
        if event.type() == QEvent.Type.ToolTip and watched is self.tree.viewport():
            item = self.tree.itemAt(event.pos())
            if item is not None:
                self.complete_tooltip(item)
        return super().eventFilter(watched, event)

    def complete_tooltip(self, item: QTreeWidgetItem) -> None:
        """Rewrite the tooltip of ``item`` (a palette record) now: its notes with public documents cited in customer
        words (``models.present.citations.customer_citation``) and, for a controller, its performance basis line
        computed from the catalog's evidence (``models.present.performance_basis``). Group rows are left as they
        are; an item is completed once."""
        from models.present.citations import customer_citation

        entry_id = item.data(0, Qt.ItemDataRole.UserRole)
        if not entry_id or id(item) in self._completed:
            return
        entry = self.catalog.find(entry_id)
        if entry is None:
            return
        if isinstance(entry, Controller) and entry_id not in self._basis:
            if entry_id not in self._asked:
                self._asked.add(entry_id)
                catalog = self.catalog
                self.tasks.submit(_basis_task, entry, catalog, name="performance basis",
                                  on_done=lambda ok, line: self._basis_arrived(catalog, entry_id, ok, line))
        else:
            self._completed.add(id(item))
        own = item.parent() is self.groups.get(MY_HARDWARE)
        item.setToolTip(0, _tooltip(entry, own, self._basis.get(entry_id, ""),
                                    customer_citation(entry.notes) if entry.notes else ""))

    def _basis_arrived(self, catalog: Catalog, entry_id: str, ok: bool, line: object) -> None:
        """A controller's basis line computed (:func:`_basis_task`): its tooltip completed, and shown again when it
        is on screen for that record. A line for a catalog since replaced is dropped; a failure leaves the tooltip
        without the line (its notes stay)."""
        if catalog is not self.catalog:
            return
        self._asked.discard(entry_id)
        self._basis[entry_id] = line if ok and isinstance(line, str) else ""
        item = self.entry_item(entry_id)
        if item is None:
            return
        self.complete_tooltip(item)
        viewport = self.tree.viewport()
        pos = viewport.mapFromGlobal(QCursor.pos())
        if QToolTip.isVisible() and self.tree.itemAt(pos) is item:
            QToolTip.showText(QCursor.pos(), item.toolTip(0), viewport, self.tree.visualItemRect(item))

    def own_record_menu(self, entry_id: str) -> QMenu:
        """The context menu of one of the user's own records (built here so tests can trigger its actions)."""
        menu = QMenu(self)
        menu.addAction(icon("mdi6.pencil"), "Edit a copy…", lambda: self.sig_edit_requested.emit(entry_id))
        menu.addAction(icon("mdi6.delete-outline"), "Delete from my catalog…",
                       lambda: self.sig_delete_requested.emit(entry_id))
        return menu

    def _context_menu(self, pos) -> None:
        """Right-click on a record of "My hardware": its menu."""
        item = self.tree.itemAt(pos)
        group = self.groups.get(MY_HARDWARE)
        if item is None or group is None or item.parent() is not group:
            return
        self.own_record_menu(item.data(0, Qt.ItemDataRole.UserRole)).exec(self.tree.viewport().mapToGlobal(pos))

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        for kind, group in self.groups.items():
            visible = 0
            for i in range(group.childCount()):
                child = group.child(i)
                haystack = f"{child.text(0)} {child.data(0, Qt.ItemDataRole.UserRole)} {kind}".lower()
                hidden = any(w not in haystack for w in words)
                child.setHidden(hidden)
                visible += not hidden
            group.setHidden(visible == 0)
            if words:
                group.setExpanded(visible > 0)

    def entry_item(self, entry_id: str) -> QTreeWidgetItem | None:
        """The tree item of the catalog record ``entry_id``, or None when the palette does not list it."""
        for group in self.groups.values():
            for i in range(group.childCount()):
                if group.child(i).data(0, Qt.ItemDataRole.UserRole) == entry_id:
                    return group.child(i)
        return None

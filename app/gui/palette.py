"""The palette: catalog records grouped by kind, with a search box. A drag carries only the catalog id."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from models.catalog import Catalog

from .icons import KIND_LABELS, icon, kind_icon

CATALOG_MIME = "application/x-storplan-catalog-id"
"""Private MIME type of a palette drag: the UTF-8 catalog id, nothing else."""

KIND_ORDER = ("host", "adapter", "switch", "controller", "shelf", "drive", "hci_node", "cloud_vm", "cloud_disk",
              "licence", "link")


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


class _CatalogTree(QTreeWidget):
    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [CATALOG_MIME]

    def mimeData(self, items) -> QMimeData:  # noqa: N802
        ids = [i.data(0, Qt.ItemDataRole.UserRole) for i in items if i.data(0, Qt.ItemDataRole.UserRole)]
        return catalog_mime(ids[0]) if ids else QMimeData()


class PaletteWidget(QWidget):
    """Catalog browser. Drag an entry onto the canvas (or onto an item to set a part)."""

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
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search)
        layout.addWidget(self.tree)
        self.search.textChanged.connect(self._filter)
        self.set_catalog(catalog)

    def set_catalog(self, catalog: Catalog) -> None:
        """Rebuild the tree from ``catalog``: one bold group per kind in ``KIND_ORDER`` (empty kinds left out).

        Keeps the current search filter.
        """
        self.tree.clear()
        self.groups: dict[str, QTreeWidgetItem] = {}
        for kind in KIND_ORDER:
            entries = catalog.of_kind(kind)
            if not entries:
                continue
            group = QTreeWidgetItem(self.tree, [f"{KIND_LABELS.get(kind, kind)}  ({len(entries)})"])
            group.setIcon(0, kind_icon(kind))
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            group.setData(0, Qt.ItemDataRole.UserRole, "")  # never read None back (PySide6 6.12 refcount bug)
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.groups[kind] = group
            for entry in entries:
                item = QTreeWidgetItem(group, [entry.name])
                item.setData(0, Qt.ItemDataRole.UserRole, entry.id)
                item.setIcon(0, kind_icon(kind))
                item.setToolTip(0, f"<b>{entry.name}</b><br>{entry.id}" + (f"<br>{entry.notes}" if entry.notes else ""))
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
            group.setExpanded(kind in ("host", "switch", "controller", "shelf", "drive"))
        self._filter(self.search.text())

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

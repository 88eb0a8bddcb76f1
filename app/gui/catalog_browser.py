"""Tools → Catalog Browser: every catalog record in a searchable table (kind, vendor, model, key figures, status,
how its numbers are sourced) with a details pane listing each number and its source. The rows come from
``models.present.catalog_browser`` (Qt-free); the catalog is in memory, so filtering never waits on the disk."""

from __future__ import annotations

from PySide6.QtCore import QSize, QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.gui.catalog_fields import field_text, kind_name, value_text
from app.gui.labels import choice_label
from app.gui.plain_text import plain_tooltip
from app.gui.screen_fit import fit_to_screen
from models.catalog import Controller
from models.present.catalog_browser import EVIDENCE_LEGEND, BrowserRow, browser_rows, evidence_table, record_details

COLUMNS = ("Kind", "Vendor", "Model", "Key figures", "Status", "Sources")
"""The table's columns."""
FIELD_ROLE = Qt.ItemDataRole.UserRole
"""The details pane's Field cells keep the record's field name under this role (the text is in words)."""
DETAIL_COLUMN_MAX = 300
"""The widest a details column other than Source grows to fit its text (px): Source keeps the room."""
COLUMN_MAX = {"Vendor": 160, "Model": 300, "Key figures": 300}
"""The widest these table columns grow (px): a long model name or figure list is elided (its tooltip has it whole)
rather than pushing Status and Sources off the dialog; the user can still widen them."""
EVIDENCE_COLUMNS = ("Protocol", "Profile", "Evidence kind", "Evidence")
"""The Performance evidence tab's columns (the same as ``storplan catalog controller --evidence``)."""
EVIDENCE_TAB = "Performance evidence"
"""The details tab listing a controller's performance evidence per protocol."""
PREFERRED_SIZE = QSize(1100, 820)
"""The dialog's size where the screen has room (1920 x 1080); smaller screens get 90% of their height
(``fit_to_screen``): 640 px at 1366 x 768."""
TABLE_SHARE = 40
"""Per cent of the dialog's split the records' table takes; the details pane below it the rest (it held a third,
the evidence table 150 px at 1366 x 768, its rows cut off)."""
EVIDENCE_SPLIT_UNIT = 100
"""The evidence tab's table and the selected row's whole evidence below it share its height 5 : 3."""
EVIDENCE_TOOLTIP_CHARS = 8_000
"""The most characters of an evidence row's tooltip: a derived profile's catalog paragraph (3,000) whole, so that no
source it cites is cut off (a tooltip of other text stops at 2,000)."""


class _Filter(QSortFilterProxyModel):
    """Keeps the rows whose :meth:`BrowserRow.matches` the search text."""

    def __init__(self, rows: list[BrowserRow], parent=None) -> None:
        super().__init__(parent)
        self._rows = rows
        self._text = ""

    def set_text(self, text: str) -> None:
        """Filter by ``text`` (every word must appear)."""
        if hasattr(self, "beginFilterChange"):  # Qt 6.9+: invalidateFilter() is deprecated
            self.beginFilterChange()
            self._text = text
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._text = text
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:  # noqa: N802 (Qt's name)
        """Qt's filter hook: the row matches the search text."""
        return self._rows[source_row].matches(self._text)


class CatalogBrowser(QDialog):
    """The browser over a catalog (the window's: bundled, the user's own and the project's records)."""

    def __init__(self, catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Catalog Browser")
        fit_to_screen(self, PREFERRED_SIZE)
        self._catalog = catalog
        self._entries = {e.id: e for e in catalog}
        self.rows = browser_rows(self._entries.values())
        self.search = QLineEdit(placeholderText="Search kind, vendor, model or figures (e.g. 'controller nvme')")
        self.search.setClearButtonEnabled(True)
        model = QStandardItemModel(len(self.rows), len(COLUMNS), self)
        model.setHorizontalHeaderLabels(COLUMNS)
        for r, row in enumerate(self.rows):
            for c, text in enumerate((kind_name(row.kind), row.vendor, row.model, row.figures, row.status,
                                      row.sources)):
                item = QStandardItem(text)
                item.setEditable(False)
                item.setData(row.id, Qt.ItemDataRole.UserRole)
                item.setToolTip(plain_tooltip(text))
                model.setItem(r, c, item)
        self.proxy = _Filter(self.rows, self)
        self.proxy.setSourceModel(model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.resizeColumnsToContents()
        for name, widest in COLUMN_MAX.items():
            column = COLUMNS.index(name)
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), widest))
        self.details = QTableWidget(0, 4)
        self.details.setHorizontalHeaderLabels(["Field", "Value", "Kind", "Source"])
        self.details.verticalHeader().hide()
        self.details.horizontalHeader().setStretchLastSection(True)
        self.details.setWordWrap(True)
        self.evidence = QTableWidget(0, len(EVIDENCE_COLUMNS))
        self.evidence.setHorizontalHeaderLabels(EVIDENCE_COLUMNS)
        self.evidence.verticalHeader().hide()
        self.evidence.setWordWrap(True)
        header = self.evidence.horizontalHeader()
        for c in range(len(EVIDENCE_COLUMNS) - 1):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(EVIDENCE_COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        header.sectionResized.connect(lambda *_: self.evidence.resizeRowsToContents())
        self.evidence.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.evidence.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.evidence.currentCellChanged.connect(lambda row, *_: self._show_evidence_detail(row))
        self.evidence_legend = QLabel(f"Profiles: {EVIDENCE_LEGEND}.")
        self.evidence_legend.setWordWrap(True)
        # the selected row's evidence whole: a derived profile's row gives its catalog paragraph here (every source)
        self.evidence_detail = QTextBrowser()
        self.evidence_detail.setOpenLinks(False)
        self.evidence_detail.setPlaceholderText("Select a row to read its evidence whole, with every source.")
        evidence_split = QSplitter(Qt.Orientation.Vertical)
        evidence_split.setChildrenCollapsible(False)
        evidence_split.addWidget(self.evidence)
        evidence_split.addWidget(self.evidence_detail)
        evidence_split.setStretchFactor(0, 5)
        evidence_split.setStretchFactor(1, 3)
        evidence_split.setSizes([5 * EVIDENCE_SPLIT_UNIT, 3 * EVIDENCE_SPLIT_UNIT])
        self.evidence_split = evidence_split
        evidence_page = self.evidence_page = QWidget()
        evidence_layout = QVBoxLayout(evidence_page)
        evidence_layout.setContentsMargins(0, 4, 0, 0)
        evidence_layout.addWidget(self.evidence_legend)
        evidence_layout.addWidget(evidence_split, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.details, "Figures and sources")
        self.tabs.addTab(evidence_page, EVIDENCE_TAB)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self.table)
        split.addWidget(self.tabs)
        # the details pane the larger share: at 1366 x 768 it had 238 px of 590 (the evidence table 150 px)
        split.setStretchFactor(0, TABLE_SHARE)
        split.setStretchFactor(1, 100 - TABLE_SHARE)
        split.setSizes([TABLE_SHARE * 10, (100 - TABLE_SHARE) * 10])
        self.split = split
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(split)
        self.search.textChanged.connect(self.proxy.set_text)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _previous: self._show(current))
        if self.proxy.rowCount():
            self.table.selectRow(0)

    def visible_ids(self) -> list[str]:
        """The ids of the rows the search leaves, in table order."""
        return [self.proxy.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(self.proxy.rowCount())]

    def select(self, record_id: str) -> None:
        """Select a record by id (clears the search when it hides it)."""
        if record_id not in self.visible_ids():
            self.search.clear()
        row = self.visible_ids().index(record_id)
        self.table.selectRow(row)

    def _show(self, index) -> None:
        """List every number of the selected record with its source."""
        record = self._entries.get(index.data(Qt.ItemDataRole.UserRole)) if index.isValid() else None
        rows = record_details(record) if record is not None else []
        self._show_evidence(record)
        self.details.setRowCount(len(rows))
        for r, (field, value, kind, source) in enumerate(rows):
            for c, text in enumerate((field_text(field), value_text(field, value, self._name_of), kind, source)):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(plain_tooltip(text))
                if c == 0:
                    item.setData(FIELD_ROLE, field)
                self.details.setItem(r, c, item)
        self.details.resizeColumnsToContents()
        for c in range(self.details.columnCount() - 1):  # a long value wraps rather than pushing Source away
            self.details.setColumnWidth(c, min(self.details.columnWidth(c), DETAIL_COLUMN_MAX))
        self.details.resizeRowsToContents()

    def _show_evidence(self, record) -> None:
        """The Performance evidence tab: a controller's profile and public evidence per protocol, each row wrapped;
        the tab is enabled for controllers only."""
        lines = evidence_table(record, self._catalog) if isinstance(record, Controller) else []
        index = self.tabs.indexOf(self.evidence_page)
        self.tabs.setTabEnabled(index, bool(lines))
        if not lines and self.tabs.currentIndex() == index:
            self.tabs.setCurrentIndex(0)
        self._evidence_lines = lines
        self.evidence.setRowCount(len(lines))
        for r, line in enumerate(lines):
            # a derived profile's catalog paragraph: a short line as the other rows', the paragraph whole in the
            # tooltip and below the table (every source it cites)
            for c, text in enumerate((line.protocol, line.profile, line.kind, line.brief)):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(plain_tooltip(line.text if c == 3 else text, EVIDENCE_TOOLTIP_CHARS))
                self.evidence.setItem(r, c, item)
        self.evidence.resizeRowsToContents()
        first = next((r for r, line in enumerate(lines) if line.brief != line.text), 0)
        if lines:  # the first row whose paragraph the table shortened (else the first row), whole below
            self.evidence.setCurrentCell(first, 0)
        self._show_evidence_detail(first if lines else -1)

    def _show_evidence_detail(self, row: int) -> None:
        """Below the evidence table, the evidence of ``row`` whole (its protocol and profile first); -1: none."""
        lines = getattr(self, "_evidence_lines", [])
        if not 0 <= row < len(lines):
            self.evidence_detail.clear()
            return
        line = lines[row]
        kinds = ", ".join(k for k in (line.profile, line.kind) if k)
        self.evidence_detail.setPlainText(f"{line.protocol} ({kinds}): {line.text}")

    def _name_of(self, text: str) -> str:
        """A catalog id in a value -> the record's model name; another word as a choice reads (``raid_dp`` ->
        "RAID DP")."""
        entry = self._entries.get(text)
        return entry.name if entry is not None else choice_label(text)

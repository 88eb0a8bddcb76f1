"""The project's own data-reduction figures: one row per workload type and per workload, each showing the
bundled P10 / P50 / P90 (``models.capacity.reduction_band.PUBLISHED``: published figures, or assumed where none
exist) until the user ticks "Own figures" and types theirs. The dialog only reads and returns rows
(``DataReductionBand``); the caller stores them as the ``data_reduction_bands`` setting (one undoable step)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.screen_fit import fit_to_screen
from models.capacity.reduction_band import PUBLISHED, WORKLOAD_TYPES, distribution_for, workload_type
from models.project.model import DataReductionBand, Workload

COLUMNS = ("Applies to", "Own figures", "P10", "P50", "P90", "Source")
PUBLISHED_TEXT = "bundled figures (hover for the source: published or assumed)"
"""The Source cell of a row that shows the published figures (its tooltip holds the source)."""


class ReductionBandsDialog(QDialog):
    """Edit the project's data-reduction bands (see module).

    Args:
        rows: the project's current rows (``Settings.data_reduction_bands``).
        workloads: the active scenario's workloads (each gets a row of its own, keyed by its id).
    """

    def __init__(self, rows: Sequence[DataReductionBand], workloads: Sequence[Workload],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Data-reduction figures")
        fit_to_screen(self, QSize(820, 420))
        own = {row.applies_to: row for row in rows}
        self.keys: list[str] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.horizontalHeader().setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        for key, label in WORKLOAD_TYPES.items():
            published = PUBLISHED[key]
            self._add_row(key, label, own.get(key), (published.p10, published.p50, published.p90), published.source)
        for w in workloads:
            dist = distribution_for(w, [r for r in rows if r.applies_to != w.id])
            self._add_row(w.id, f"Workload: {w.name} ({WORKLOAD_TYPES[workload_type(w)]})", own.get(w.id),
                          (dist.p10, dist.p50, dist.p90), dist.source)
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), self.fontMetrics().horizontalAdvance("x" * 40)))
        for column in (2, 3, 4):
            self.table.setColumnWidth(column, max(self.table.columnWidth(column),
                                                  self.fontMetrics().horizontalAdvance("00.00") + 16))
        self.message = QLabel()
        self.message.setObjectName("bandsMessage")
        self.message.setWordWrap(True)
        hint = QLabel("Each workload's own ratio stays its P50; the spread of these figures (P10 / P50 and P90 / P50) "
                      "sets its P10 and P90. Tick \"Own figures\" to replace the published ones; a workload's row "
                      "wins over its type's.")
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self._rows: list[DataReductionBand] = list(rows)

    def _add_row(self, key: str, label: str, own: DataReductionBand | None, shown: tuple[float, float, float],
                 source: str) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.keys.append(key)
        name = QTableWidgetItem(label)
        name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.table.setItem(row, 0, name)
        check = QTableWidgetItem()
        check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
        check.setCheckState(Qt.CheckState.Checked if own is not None else Qt.CheckState.Unchecked)
        self.table.setItem(row, 1, check)
        values = (own.p10, own.p50, own.p90) if own is not None else shown
        for column, value in zip((2, 3, 4), values):
            self.table.setItem(row, column, QTableWidgetItem(f"{value:.3g}"))
        cell = QTableWidgetItem(own.source if own is not None else PUBLISHED_TEXT)
        cell.setToolTip(source)
        self.table.setItem(row, 5, cell)

    def set_row(self, key: str, p10: float, p50: float, p90: float, source: str = "") -> None:
        """Tick a row's "Own figures" and type its values (what a user does; for tests and tools)."""
        row = self.keys.index(key)
        self.table.item(row, 1).setCheckState(Qt.CheckState.Checked)
        for column, value in zip((2, 3, 4), (p10, p50, p90)):
            self.table.item(row, column).setText(f"{value:g}")
        self.table.item(row, 5).setText(source)

    def read_rows(self) -> list[DataReductionBand] | str:
        """The ticked rows as records, or a one-line message naming the first row that is wrong and why."""
        out = []
        for row, key in enumerate(self.keys):
            if self.table.item(row, 1).checkState() != Qt.CheckState.Checked:
                continue
            label = self.table.item(row, 0).text()
            try:
                p10, p50, p90 = (float(self.table.item(row, c).text().replace(",", ".")) for c in (2, 3, 4))
            except ValueError:
                return f"{label}: P10, P50 and P90 must be numbers (2.5 for 2.5:1)."
            source = self.table.item(row, 5).text().strip()
            source = "" if source == PUBLISHED_TEXT else source
            try:
                out.append(DataReductionBand(applies_to=key, p10=p10, p50=p50, p90=p90, source=source))
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                return f"{label}: {where + ': ' if where else ''}{first['msg'].removeprefix('Value error, ')}."
        return out

    def accept(self) -> None:
        """Keep the rows when every ticked one is valid; otherwise say which is wrong and stay open."""
        rows = self.read_rows()
        if isinstance(rows, str):
            self.message.setText(rows)
            return
        self._rows = rows
        super().accept()

    def rows(self) -> list[DataReductionBand]:
        """The rows the user accepted (the ones given when cancelled)."""
        return list(self._rows)

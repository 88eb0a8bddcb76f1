"""Two scenarios side by side: capacity and performance figures with deltas, and both sets of latency curves
in one chart (left scenario solid, right scenario dashed, one colour per workload name)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QWidget,
)

from models.present import comparison_rows
from models.present.comparison import GROUP, SECTION
from models.units import CapacityUnit

from ._common import (
    make_latency_plot,
    stacked_result_layout,
    DROP,
    GAIN,
    StaleBanner,
    finite,
    html_escape,
    muted_color,
    series_color,
    text_color,
)

CHOOSE_MESSAGE = "Choose a second scenario to compare with"


class CompareView(QWidget):
    """Compare two evaluations (e.g. FCP vs NVMe/FC on the same A800)."""

    COLUMNS = ("", "Left", "Right", "\u0394 (right \u2212 left)")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._left = None
        self._right = None
        self._unit = CapacityUnit.TIB
        self.curve_items: dict[tuple[str, str], pg.PlotDataItem] = {}  # (side, workload name) -> curve

        self.banner = StaleBanner(self)
        self.title = QLabel()
        font = QFont(self.title.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)

        self.model = QStandardItemModel(0, len(self.COLUMNS), self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.plot, self.legend = make_latency_plot(self)
        self.plot_message = pg.TextItem("", color=muted_color(self), anchor=(0.5, 0.5))

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.plot)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([520, 680])
        self.splitter.setChildrenCollapsible(False)

        self.stack, self.message = stacked_result_layout(self, self.banner, self.title, self.splitter,
                                                         CHOOSE_MESSAGE)

    # ------------------------------------------------------------------------------------------------ public API

    @Slot(object, object, object)
    def set_evaluations(self, left, right, unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """Compare ``left`` (solid curves) with ``right`` (dashed curves), capacities in ``unit``."""
        self._left, self._right = left, right
        self._unit = CapacityUnit(unit)
        self._render()

    @Slot(object, object)
    def set_evaluation(self, evaluation, capacity_unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """Replace the left (active) scenario, keeping the scenario it is compared with."""
        self.set_evaluations(evaluation, self._right, capacity_unit)

    @Slot(object)
    def set_capacity_unit(self, capacity_unit: CapacityUnit | str) -> None:
        """Show capacities in another unit (``"TB"`` or ``"TiB"``)."""
        self._unit = CapacityUnit(capacity_unit)
        self._render()

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
        """Show or hide the "Results out of date" banner with ``message``."""
        self.banner.set_stale(stale, message)

    def row_texts(self) -> list[list[str]]:
        """The table as text, row by row (section rows have one cell)."""
        rows = []
        for row in range(self.model.rowCount()):
            cells = [self.model.item(row, c) for c in range(self.model.columnCount())]
            rows.append([c.text() for c in cells if c is not None])
        return rows

    # -------------------------------------------------------------------------------------------------- internals

    def _render(self) -> None:
        left, right = self._left, self._right
        if left is None or right is None:
            self.message.show_message(CHOOSE_MESSAGE)
            self.stack.setCurrentWidget(self.message)
            return
        self.stack.setCurrentIndex(0)
        self.title.setText(f"{html_escape(left.scenario)}  \u2014 solid     vs     "
                           f"{html_escape(right.scenario)}  \u2014 dashed")
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["", left.scenario, right.scenario, self.COLUMNS[3]])
        for row in comparison_rows((left, right), self._unit):
            if row.level == SECTION:
                self._section(row.label)
            elif row.level == GROUP:
                self._section(row.label, sub=True)
            else:
                self._row(row.label, *row.values, row.delta, row.better)
        self._draw_curves(left, right)

    def _section(self, title: str, sub: bool = False) -> None:
        item = QStandardItem(("   " if sub else "") + title)
        font = QFont(self.table.font())
        font.setBold(not sub)
        font.setItalic(sub)
        item.setFont(font)
        row = self.model.rowCount()
        self.model.appendRow([item])
        self.table.setSpan(row, 0, 1, len(self.COLUMNS))

    def _row(self, label: str, left_text: str, right_text: str, delta_text: str = "",
             better: bool | None = None) -> None:
        items = [QStandardItem("      " + label), QStandardItem(left_text), QStandardItem(right_text), QStandardItem(delta_text)]
        for item in items[1:]:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if better is not None and delta_text:
            items[3].setForeground(QColor(GAIN if better else DROP))
        self.model.appendRow(items)

    def _draw_curves(self, left, right) -> None:
        plot = self.plot
        plot.clear()
        self.legend.clear()
        self.curve_items.clear()
        sides = (("left", left.performance, Qt.PenStyle.SolidLine), ("right", right.performance, Qt.PenStyle.DashLine))
        names: list[str] = []
        for _, performance, _ in sides:
            for w in getattr(performance, "workloads", ()) if performance is not None else ():
                if w.name not in names:
                    names.append(w.name)
        if not names:
            plot.addItem(self.plot_message)
            self.plot_message.setText("No performance results to compare")
            return
        slos: set[tuple[str, float]] = set()
        max_x = max_y_slo = 0.0
        for side, performance, style in sides:
            for w in getattr(performance, "workloads", ()) if performance is not None else ():
                color = series_color(names.index(w.name))
                curve = pg.PlotDataItem([p.iops for p in w.curve], [p.latency_ms for p in w.curve],
                                        pen=pg.mkPen(color, width=2.2, style=style))
                plot.addItem(curve)
                self.curve_items[(side, w.name)] = curve
                max_x = max([max_x, w.saturation_iops if finite(w.saturation_iops) else 0.0,
                             *(p.iops for p in w.curve)])
                max_y_slo = max(max_y_slo, w.slo_ms)
                if (w.name, w.slo_ms) not in slos:
                    slos.add((w.name, w.slo_ms))
                    plot.addItem(pg.InfiniteLine(pos=w.slo_ms, angle=0,
                                                 pen=pg.mkPen(color, width=1, style=Qt.PenStyle.DotLine)))
        self.legend.setColumnCount(len(names) + 2)
        for index, name in enumerate(names):
            self.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(series_color(index), width=3)), name)
        neutral = text_color(self)
        self.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(neutral, width=2)), left.scenario)
        self.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(neutral, width=2, style=Qt.PenStyle.DashLine)),
                            right.scenario)
        latencies = [p.latency_ms for _, performance, _ in sides if performance is not None
                     for w in performance.workloads for p in w.curve]
        y_high = max(min(max(latencies, default=max_y_slo), 4 * max_y_slo), 1.5 * max_y_slo) * 1.08
        plot.setXRange(0, max_x * 1.05 or 1.0, padding=0)
        plot.setYRange(0, y_high or 1.0, padding=0)

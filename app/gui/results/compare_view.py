"""Two scenarios side by side: capacity and performance figures with deltas, and both sets of latency curves
in one chart: one colour per scenario (left solid and wide, right dashed on top, so two curves that coincide
still show both), one end marker per workload name."""

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

from app.gui.results._common import (
    DROP,
    GAIN,
    StaleBanner,
    base_color,
    html_escape,
    make_latency_plot,
    muted_color,
    stacked_result_layout,
    text_color,
)
from models.present import comparison_rows
from models.present.charts import latency_axes, slo_off_chart_text
from models.present.comparison import GROUP, SECTION
from models.units import CapacityUnit

CHOOSE_MESSAGE = "Choose a second scenario to compare with"
SCENARIO_COLORS = ("#0072B2", "#D55E00")
"""Left and right scenario's curve colour (Okabe-Ito blue and vermillion: distinct for colour-blind readers and
in grey print, where the left's solid wide line and the right's dashed narrow one tell them apart too)."""
SIDE_PENS = ((Qt.PenStyle.SolidLine, 4.0), (Qt.PenStyle.DashLine, 2.0))
"""(style, width) of the left and the right scenario's curves; the right is drawn over the left."""
WORKLOAD_SYMBOLS = ("o", "s", "t", "d", "star", "p", "h", "x")
"""The marker at the end of each workload's curve (by workload name, the same on both sides)."""


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
        self.title.setText(f"<span style='color:{SCENARIO_COLORS[0]}'>\u25a0</span> {html_escape(left.scenario)}"
                           f"  \u2014 solid     vs     <span style='color:{SCENARIO_COLORS[1]}'>\u25a0</span> "
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
        items = [QStandardItem("      " + label), QStandardItem(left_text), QStandardItem(right_text),
                 QStandardItem(delta_text)]
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
        sides = (("left", left.performance), ("right", right.performance))
        names: list[str] = []
        for _, performance in sides:
            for w in performance.workloads if performance is not None else ():
                if w.name not in names:
                    names.append(w.name)
        if not names:
            plot.addItem(self.plot_message)
            self.plot_message.setAnchor((0.5, 0.5))
            self.plot_message.setText("No performance results to compare")
            return
        neutral = text_color(self)
        muted = muted_color(self)
        slos: set[float] = set()
        shown = []
        for k, (side, performance) in enumerate(sides):
            color = QColor(SCENARIO_COLORS[k])
            style, width = SIDE_PENS[k]
            for w in performance.workloads if performance is not None else ():
                shown.append(w)
                points = [*w.curve, *w.open_curve]  # the ramp and its open-model continuation
                curve = pg.PlotDataItem([p.iops for p in points], [p.latency_ms for p in points],
                                        pen=pg.mkPen(color, width=width, style=style))
                curve.setZValue(10 + k)
                plot.addItem(curve)
                self.curve_items[(side, w.name)] = curve
                if w.curve:  # the ramp's peak, marked with the workload's symbol in the scenario's colour
                    symbol = WORKLOAD_SYMBOLS[names.index(w.name) % len(WORKLOAD_SYMBOLS)]
                    end = pg.PlotDataItem([w.curve[-1].iops], [w.curve[-1].latency_ms], pen=None, symbol=symbol,
                                          symbolSize=11 - 2 * k, symbolBrush=color,
                                          symbolPen=pg.mkPen(base_color(self), width=1))
                    end.setZValue(20 + k)
                    plot.addItem(end)
                if w.slo_ms not in slos:
                    slos.add(w.slo_ms)
                    plot.addItem(pg.InfiniteLine(pos=w.slo_ms, angle=0, label=f"SLO {w.slo_ms:g} ms",
                                                 labelOpts={"position": 0.05, "color": muted,
                                                            "anchors": [(0, 1), (0, 1)]},
                                                 pen=pg.mkPen(muted, width=1, style=Qt.PenStyle.DotLine)))
        self.legend.setColumnCount(2 + (len(names) if len(names) > 1 else 0))
        for k, scenario in enumerate((left.scenario, right.scenario)):
            style, width = SIDE_PENS[k]
            self.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(QColor(SCENARIO_COLORS[k]), width=width, style=style)),
                                scenario)
        if len(names) > 1:
            for index, name in enumerate(names):
                self.legend.addItem(pg.PlotDataItem(pen=None, symbol=WORKLOAD_SYMBOLS[index % len(WORKLOAD_SYMBOLS)],
                                                    symbolSize=10, symbolBrush=neutral), name)
        self.axes = axes = latency_axes(shown)
        plot.setXRange(0, axes.iops_high, padding=0)
        plot.setYRange(0, axes.latency_high_ms, padding=0)
        note = slo_off_chart_text(axes)
        if note:
            self.plot_message.setText(note)
            self.plot_message.setAnchor((0, 0))
            self.plot_message.setPos(0, axes.latency_high_ms)
            plot.addItem(self.plot_message, ignoreBounds=True)

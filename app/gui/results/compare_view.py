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

from models.presentation_text import latency_at_target_text, latency_axes, slo_off_chart_text
from models.units import CapacityUnit

from ._common import (
    make_latency_plot,
    stacked_result_layout,
    DROP,
    GAIN,
    NOT_AVAILABLE,
    NOT_MET,
    SATURATED,
    StaleBanner,
    finite,
    fmt_capacity,
    fmt_capacity_delta,
    fmt_iops,
    fmt_ms,
    fmt_ratio,
    html_escape,
    muted_color,
    base_color,
    text_color,
)

CHOOSE_MESSAGE = "Choose a second scenario to compare with"
SCENARIO_COLORS = ("#0072B2", "#D55E00")
"""Left and right scenario's curve colour (Okabe-Ito blue and vermillion: distinct for colour-blind readers and
in grey print, where the left's solid wide line and the right's dashed narrow one tell them apart too)."""
SIDE_PENS = ((Qt.PenStyle.SolidLine, 4.0), (Qt.PenStyle.DashLine, 2.0))
"""(style, width) of the left and the right scenario's curves; the right is drawn over the left."""
WORKLOAD_SYMBOLS = ("o", "s", "t", "d", "star", "p", "h", "x")
"""The marker at the end of each workload's curve (by workload name, the same on both sides)."""


def _pct_change(left: float | None, right: float | None) -> str:
    if not (finite(left) and finite(right)) or left == 0:
        return ""
    change = (right - left) / abs(left) * 100
    return f" ({change:+.0f}%)" if abs(change) >= 10 else f" ({change:+.1f}%)"


def _signed(text: str, value: float) -> str:
    return ("+" if value > 0 else "\u2212" if value < 0 else "") + text


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
        self._unit = CapacityUnit(capacity_unit)
        self._render()

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
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
        self._fill_capacity(left.capacity, right.capacity)
        self._fill_performance(left.performance, right.performance)
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

    def _capacity_rows(self, label: str, left, right) -> None:
        self._section(label, sub=True)
        unit = self._unit
        for name, field in (("Raw", "raw_bytes"), ("Usable", "usable_bytes"), ("Effective", "effective_bytes")):
            a = getattr(left, field, None) if left is not None else None
            b = getattr(right, field, None) if right is not None else None
            delta = ""
            better = None
            if finite(a) and finite(b):
                delta = fmt_capacity_delta(b - a, unit) + _pct_change(a, b)
                better = b > a if b != a else None
            self._row(name, fmt_capacity(a, unit) if a is not None else NOT_AVAILABLE,
                      fmt_capacity(b, unit) if b is not None else NOT_AVAILABLE, delta, better)
        a = getattr(left, "efficiency_ratio", None) if left is not None else None
        b = getattr(right, "efficiency_ratio", None) if right is not None else None
        delta = _signed(f"{abs(b - a):.2f}", b - a) if finite(a) and finite(b) and b != a else (
            "0" if finite(a) and finite(b) else "")
        self._row("Efficiency", fmt_ratio(a), fmt_ratio(b), delta,
                  (b > a) if finite(a) and finite(b) and a != b else None)

    def _fill_capacity(self, left, right) -> None:
        self._section("Capacity")
        if left is None and right is None:
            self._row("Capacity", NOT_AVAILABLE, NOT_AVAILABLE)
            return
        left_systems = {s.system_id: s for s in getattr(left, "systems", ())}
        right_systems = {s.system_id: s for s in getattr(right, "systems", ())}
        ids = list(dict.fromkeys([*left_systems, *right_systems]))
        for system_id in ids:
            a, b = left_systems.get(system_id), right_systems.get(system_id)
            label = (a or b).system_label
            self._capacity_rows(label, a, b)
        if len(ids) > 1:
            self._capacity_rows("Total", getattr(left, "total", None), getattr(right, "total", None))

    def _fill_performance(self, left, right) -> None:
        self._section("Performance")
        left_w = {w.name: w for w in getattr(left, "workloads", ())} if left is not None else {}
        right_w = {w.name: w for w in getattr(right, "workloads", ())} if right is not None else {}
        names = list(dict.fromkeys([*left_w, *right_w]))
        if not names:
            self._row("Workloads", NOT_AVAILABLE, NOT_AVAILABLE)
            return
        for name in names:
            a, b = left_w.get(name), right_w.get(name)
            self._section(name, sub=True)
            protocols = " / ".join(dict.fromkeys(w.protocol for w in (a, b) if w is not None))
            self._row("protocol", a.protocol if a else NOT_AVAILABLE,
                      b.protocol if b else NOT_AVAILABLE, "" if len(protocols.split(" / ")) == 1 else "changed")
            for label, field, none_text in (("saturation IOPS", "saturation_iops", SATURATED),
                                            ("max IOPS @ SLO", "max_iops_at_slo", NOT_MET)):
                x = getattr(a, field, None) if a else None
                y = getattr(b, field, None) if b else None
                delta = ""
                if finite(x) and finite(y):
                    delta = _signed(fmt_iops(abs(y - x)), y - x) + _pct_change(x, y) if y != x else "0"
                self._row(label, fmt_iops(x, none_text) if a else NOT_AVAILABLE,
                          fmt_iops(y, none_text) if b else NOT_AVAILABLE, delta,
                          (y > x) if finite(x) and finite(y) and x != y else None)
            x = a.latency_at_target_ms if a else None
            y = b.latency_at_target_ms if b else None
            if (a and a.target_iops is not None) or (b and b.target_iops is not None):
                delta = ""
                if finite(x) and finite(y):
                    delta = _signed(fmt_ms(abs(y - x)), y - x) if y != x else "0"
                self._row("latency @ target", latency_at_target_text(a) if a else NOT_AVAILABLE,
                          latency_at_target_text(b) if b else NOT_AVAILABLE, delta,
                          (y < x) if finite(x) and finite(y) and x != y else None)
            self._row("bottleneck", a.bottleneck if a else NOT_AVAILABLE,
                      b.bottleneck if b else NOT_AVAILABLE)

    def _draw_curves(self, left, right) -> None:
        plot = self.plot
        plot.clear()
        self.legend.clear()
        self.curve_items.clear()
        sides = (("left", left.performance), ("right", right.performance))
        names: list[str] = []
        for _, performance in sides:
            for w in getattr(performance, "workloads", ()) if performance is not None else ():
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
            for w in getattr(performance, "workloads", ()) if performance is not None else ():
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

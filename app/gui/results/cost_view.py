"""The cost and carbon panel: the running-cost inputs (editable, one undo step each), power, energy and carbon, and
a chart of cumulative cost per option over the horizon with each option's total and break-even month.

The figures are ``models.present.cost.design_tco`` of the active scenario, computed on the panel's task runner
(never on the GUI thread) whenever the project changes while the panel is shown; the newest result wins. The inputs
cost on-premises hardware only: a cloud design whose sizer may build no on-premises design shows them off, with the
reason, their values kept (:func:`running_costs_unused`)."""

from __future__ import annotations

import re

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.record_form import NumberEditor, RecordForm
from app.gui.results._common import axis_label_style, html_escape, make_plot, series_color
from app.gui.results.fitting_table import FittingTable
from app.gui.results.on_show import ComputedOnShow
from models.project import edits
from models.project.model import RunningCosts

PEN_STYLES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine, "dot": Qt.PenStyle.DotLine,
              "dashdot": Qt.PenStyle.DashDotLine}
"""``models.present.cost.series_dash``'s styles as Qt pen styles."""


MARKER_SYMBOLS = {"circle": "o", "square": "s", "triangle": "t1", "diamond": "d"}
"""``models.present.cost.series_marker``'s end marks as pyqtgraph symbols."""


def _swatch(colour: QColor, dash: str = "solid", marker: str = "") -> QIcon:
    """A short stroke of ``colour`` in the line style ``dash`` (``models.present.cost.series_dash``) ending in its
    ``marker`` (``series_marker``): the chart line an option's table row stands for."""
    pixmap = QPixmap(22, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    pen = QPen(colour, 2.5)
    pen.setStyle(PEN_STYLES[dash])
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(pen)
    painter.drawLine(1, 6, 16, 6)
    if marker:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        if marker == "circle":
            painter.drawEllipse(QPointF(17.5, 6), 3.5, 3.5)
        elif marker == "square":
            painter.drawRect(QRectF(14.5, 3, 6, 6))
        elif marker == "triangle":
            painter.drawPolygon(QPolygonF([QPointF(14, 2.5), QPointF(21, 2.5), QPointF(17.5, 9.5)]))
        else:
            painter.drawPolygon(QPolygonF([QPointF(17.5, 2), QPointF(21.5, 6), QPointF(17.5, 10), QPointF(13.5, 6)]))
    painter.end()
    return QIcon(pixmap)


ON_PREM_DEPLOYMENTS = ("on-prem", "hci")
"""The sizer's deployments whose designs are bought hardware: power, space and support cost them."""

CHART_SHARE = 0.55
"""The chart's initial share of the height beside the inputs (the table below it has the rest; at least the
chart's minimum height)."""
NOTES_LINES = 3
"""The notes under the chart and the table keep at least this many lines when the height is short (they scroll
beyond): the table's rows have the rest (stop 49: at 1366 x 768 the hybrid vSAN example's notes, seven lines,
left the table two and a half rows)."""
CLOUD_ONLY_NOTE = ("Not used: the design and the sizer's deployments are cloud only, and these inputs cost "
                   "on-premises power, space and support. Your entries are kept.")
"""The one line shown above the running-cost inputs when they cannot change a figure."""


def input_units(currency: str) -> dict[str, str]:
    """The unit shown after each running-cost input whose field name does not carry it (``*_pct_per_year`` shows
    "%/yr" by itself; PUE is a ratio): the prices in ``currency``, the currency the cost engine computes in
    (``models.costing.tco.project_currency``: the price book's, else USD)."""
    return {"electricity_price_per_kwh": f" {currency}/kWh", "grid_carbon_g_per_kwh": " g/kWh",
            "rack_unit_cost_per_month": f" {currency}"}


def running_costs_unused(project) -> bool:
    """True when ``project``'s running-cost inputs (electricity, PUE, grid carbon, rack unit, support) cannot change
    a figure: its active scenario is a cloud design (``models.costing.tco.design_deployment``: no on-premises power,
    space or hardware to cost) and its requirements' deployments let the sizer build no on-premises or HCI design
    (whose ranking on total cost reads them)."""
    from models.costing.tco import design_deployment

    return (design_deployment(project.scenario) == "cloud"
            and not set(project.requirements.deployments) & set(ON_PREM_DEPLOYMENTS))


def cost_job(_state, project, catalog=None):
    """Cost and footprint of the project's active scenario (runs on the panel's runner): the resolved design's
    ``models.present.cost.design_tco``; ``catalog``: the document's base catalog."""
    from models.design import resolve
    from models.present.cost import design_tco

    design = resolve(project, None, catalog)
    return design_tco(project, design.scenario, design.catalog)


BUDGET_WORDS = "if the hardware costs at most "
"""How the options' rows (``models.present.cost.option_rows``) begin a break-even hardware price."""


def _shown(text: str, column: int) -> str:
    """A cell of the options' table as the tab shows it, short enough that a laptop's height holds four rows (every
    option has its break-even price since review 53b): "hardware ≤ 69,124 USD" under the header "This design breaks
    even if its", which then says so, and the design's own total in short ("running costs only: 8,640 USD; no
    hardware price"); the cell's tooltip keeps the whole sentence the report and the workbook print."""
    if column == 2 and text.startswith(BUDGET_WORDS):
        return "hardware ≤ " + text[len(BUDGET_WORDS):]
    from models.present.cost import NO_BREAK_EVENS

    if column == 2 and text in NO_BREAK_EVENS:  # blank: the reason in the tooltip and the notes
        return ""
    if column == 1 and text.startswith("running costs only: "):
        money = re.sub(r" \([^()]*\)", "", text.split(";")[0])
        return f"{money}; no hardware price"
    return text


class CostView(ComputedOnShow):
    """The cost and carbon panel of a ``ProjectDocument`` (see module).

    Attributes:
        tco: the ``models.costing.Tco`` shown (None before the first result); series: the chart's
        (name, cumulative cost by month) pairs; form: the running-cost inputs' form; table: option, total,
        break-even; figures: power, energy and carbon as text; apart: why the design is neither charted nor ranked
        (``models.present.cost.design_apart``; "" when it is).
    """

    sig_tco_shown = Signal()
    """A new cost result was drawn."""

    JOB_NAME = "cost and footprint"
    _job = staticmethod(cost_job)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(document, "cost", parent)
        self.setObjectName("costView")
        self.tco = None
        self.apart = ""
        self.series: list[tuple[str, tuple[float, ...]]] = []
        self.form = RecordForm(RunningCosts, choices=lambda *_: None,
                               unit_fn=lambda: document.project.settings.capacity_unit)
        self.form.sig_field_edited.connect(self._edited)
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plot = make_plot(self)
        self.marks: list[pg.ScatterPlotItem] = []
        """The marks along the drawn cost lines (``models.present.cost.mark_months``), in the plot's view box."""
        self.plot.setLabel("bottom", "Months from the start", **axis_label_style(self))
        self._cost_title = "Cost to date"
        self.plot.setLabel("left", self._cost_title, units="USD", **axis_label_style(self))
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.plot.setMinimumHeight(175)  # its y-axis title whole ("Cost to date (kUSD)")
        self.table = FittingTable(0, 3)  # a narrow table wraps its caveats rather than cutting them
        self.table.setHorizontalHeaderLabels(["Option (chart line)", "Total over the horizon",
                                              "This design breaks even"])
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setIconSize(QSize(22, 12))  # the swatch: a stroke in its line's colour and style
        self.table.verticalHeader().hide()
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes_area = QScrollArea()
        """The notes, as tall as the room the table's rows leave them (at least :data:`NOTES_LINES`), scrolling
        beyond (:meth:`_fit_heights`)."""
        self.notes_area.setWidgetResizable(True)
        self.notes_area.setFrameShape(QFrame.Shape.NoFrame)
        self.notes_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.notes_area.setWidget(self.notes)
        inputs = QScrollArea()
        inputs.setWidgetResizable(True)
        box = QWidget()
        column = QVBoxLayout(box)
        column.addWidget(QLabel("<b>Running-cost inputs</b> (empty: the stated default)"))
        self.inputs_note = QLabel()
        """Why the inputs are off (shown only then): the design and the sizer's deployments are cloud only."""
        self.inputs_note.setWordWrap(True)
        self.inputs_note.hide()
        column.addWidget(self.inputs_note)
        column.addWidget(self.form)
        column.addWidget(self.figures)
        column.addStretch(1)
        inputs.setWidget(box)
        # the inputs in a column on the left, the chart above the table on the right at the rest of the width
        # (REVIEW43 #5: inputs, chart and table side by side left the chart ~230 px wide on a laptop); each part can
        # be resized
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.plot)
        right.addWidget(self.table)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        right.setChildrenCollapsible(False)
        self._user_split = False
        """The user dragged the chart/table handle: their sizes stay (only the notes' height is fitted)."""
        right.splitterMoved.connect(self._split_dragged)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("costSplit")
        split.addWidget(inputs)
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self.inputs, self.charts_split, self._split = inputs, right, split
        self._sized = False
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(self.notes_area)
        document.sig_project_changed.connect(self._project_changed)
        document.sig_project_replaced.connect(self._project_changed)
        self._show_inputs()

    def set_presenting(self, on: bool, _font=None) -> None:
        """Presentation mode on or off (``app.gui.presentation`` calls it once the charts' fonts have changed, and
        again once they reached every item): the running-cost inputs hide while presenting, the y-axis title is the
        short "Cost" (the table under the chart keeps its rows), and the chart's minimum height follows the title."""
        # the inputs column (a third of the width) steps aside while presenting: the chart and its table take the
        # width (REVIEW54 #19); nothing is edited in front of the room
        if self.inputs.isVisibleTo(self) == on:
            self.inputs.setVisible(not on)
        title = "Cost" if on else "Cost to date"
        if title != self._cost_title:
            self._cost_title = title
            self.plot.setLabel("left", title, units=self.tco.currency if self.tco is not None else "USD",
                               **axis_label_style(self))
        self.fit_axis_title()

    def fit_axis_title(self) -> None:
        """The chart at least as tall as its y-axis title is long, so the title is whole: a presenting font made
        "Cost to date (kUSD)" longer than the fixed 175 px and it was cut to "Cost to date (kUS" (REVIEW54 #9)."""
        axis = self.plot.getAxis("left")
        title = axis.label.boundingRect().width() if axis.labelText else 0.0
        bottom = self.plot.getAxis("bottom").height()
        wanted = max(175, int(title + bottom + 24))
        if self.plot.minimumHeight() != wanted:
            self.plot.setMinimumHeight(wanted)
            self._fit_heights()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """First show: the inputs column as wide as its fields need, the chart and the table the rest
        (:meth:`_fit_heights`); the user's dragging is kept afterwards."""
        super().showEvent(event)
        presentation = getattr(self.window(), "presentation", None)  # built while presenting: presenting too
        self.set_presenting(bool(getattr(presentation, "active", False)))
        if self._sized:
            return
        self._sized = True
        bar = self.inputs.style().pixelMetric(self.inputs.style().PixelMetric.PM_ScrollBarExtent)
        inputs = self.inputs.widget().minimumSizeHint().width() + bar + 2 * self.inputs.frameWidth() + 2
        self._split.setSizes([inputs, max(1, self._split.width() - inputs)])
        self._fit_heights()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Qt's resize (``event``: a ``QResizeEvent``), then the table and notes given the new height again."""
        super().resizeEvent(event)
        self._fit_heights()

    def _split_dragged(self, *_args) -> None:
        self._user_split = True

    def _table_height(self) -> int:
        """The table's height with every row on screen, px (its header and frame included)."""
        table = self.table
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()) if not table.isRowHidden(r))
        return table.horizontalHeader().height() + rows + 2 * table.frameWidth()

    def _fit_heights(self) -> None:
        """Share the height among the chart, the table and the notes: the table as tall as its rows when there is
        room (the chart keeps at least its minimum and at most ``CHART_SHARE`` of the height beside the inputs),
        the notes whole when there is room, else :data:`NOTES_LINES` lines that scroll. A handle the user dragged
        keeps its place."""
        layout = self.layout()
        if layout is None or self.height() <= 0:
            return
        margins = layout.contentsMargins()
        total = self.height() - margins.top() - margins.bottom() - layout.spacing()
        width = self.notes_area.width() or self.width() - margins.left() - margins.right()
        notes = self.notes.heightForWidth(max(1, width)) if self.notes.text() else 0
        floor = NOTES_LINES * self.notes.fontMetrics().lineSpacing() + 10  # and the rich text's margins
        handle = self.charts_split.handleWidth()
        table = self._table_height()
        needed = self.plot.minimumHeight() + handle + table  # the chart and every row of the table
        notes = max(min(notes, floor), min(notes, total - needed))
        self.notes_area.setFixedHeight(max(0, notes))
        if self._user_split:
            return
        height = max(1, total - notes)  # the splitter's height once the layout follows
        chart = max(self.plot.minimumHeight(), min(int(height * CHART_SHARE), height - handle - table))
        chart = min(chart, height)
        self.charts_split.setSizes([chart, max(1, height - handle - chart)])

    # --- inputs ----------------------------------------------------------------------------------------------------

    def _show_inputs(self) -> None:
        """Show the project's running-cost inputs, each with its unit (the prices in the currency the cost is
        computed in: :func:`input_units`); an empty one reads "default (<value> <unit>)" with its source as the
        tooltip."""
        from models.costing.cloud_prices import PRICE_CURRENCY
        from models.costing.inputs import RUNNING_DEFAULTS
        from models.costing.tco import project_currency

        project = self._document.project
        running = project.requirements.running_costs
        if self.form.record != running:
            self.form.set_record(running)
        cloud_only = running_costs_unused(project)
        self.form.setEnabled(not cloud_only)  # off, never cleared: the figures entered stay in the project
        self.inputs_note.setVisible(cloud_only)
        if cloud_only:
            self.inputs_note.setText(CLOUD_ONLY_NOTE)
        currency = project_currency(project)
        units = input_units(currency)
        for name, figure in RUNNING_DEFAULTS.items():
            editor = self.form.editors.get(name)
            if isinstance(editor, NumberEditor):
                if name in units:
                    editor.entry.setSuffix(units[name])
                editor.set_default(figure.value, editor.entry.format(figure.value))
                # the default with its unit whole ("default (0.13 USD/kWh)"), however narrow the column
                editor.entry.setMinimumWidth(editor.entry.size_for(editor.default_text(), floor="").width())
                tip = f"Empty: {figure.text()}"
                if name == "electricity_price_per_kwh" and currency != PRICE_CURRENCY:  # as the cost's notes say
                    tip += (f". Amounts are in the price book's currency ({currency}); the default is a "
                            f"{PRICE_CURRENCY} figure, used as {currency} without conversion")
                editor.setToolTip(tip)

    def _edited(self, field: str, value) -> None:
        """One running-cost input changed: one undo step, or the refusal shown on the field."""
        doc = self._document
        try:
            running = doc.project.requirements.running_costs.with_changes(**{field: value})
            project = edits.set_requirement(doc.project, "running_costs", running)
        except ValueError as exc:
            self.form.show_error(field, str(exc).splitlines()[-1] if str(exc) else "refused")
            return
        self.form.show_error(field, None)
        doc.push(project, f"Change {field.replace('_', ' ')}")

    # --- results ---------------------------------------------------------------------------------------------------

    def _project_changed(self) -> None:
        self._show_inputs()
        super()._project_changed()

    def _done(self, ok: bool, result) -> None:
        if not ok:
            self.notes.setText(f"<span style='color:#c0392b'>Cost not computed: {html_escape(str(result))}</span>")
            return
        self.show_tco(result)

    def show_tco(self, tco) -> None:
        """Draw ``tco`` (a ``models.costing.Tco``): figures, chart and table."""
        from models.present.cost import (
            cost_series,
            design_apart,
            design_apart_short,
            footprint_rows,
            mark_months,
            series_dash,
            series_marker,
            table_rows,
            uncharted_words,
        )

        self.tco = tco
        # a design whose hardware is not priced is neither charted nor ranked against the cloud options (the
        # report's rule, models.present.cost.design_apart): its sentence heads the notes instead
        self.apart = design_apart(tco)
        self.series = cost_series(tco)[1:] if self.apart else cost_series(tco)
        self.figures.setText("<br>".join(f"{html_escape(a)}: <b>{html_escape(b)}</b>" for a, b in footprint_rows(tco)))
        self.plot.clear()
        for item in self.marks:
            self.plot.getViewBox().removeItem(item)
        self.marks = []
        colours, dashes, marks = {}, {}, {}
        for i, (name, values) in enumerate(self.series):
            # colour and line style both: two options whose costs run alike stay two lines
            colours[name], dashes[name] = series_color(i), series_dash(i, design_first=not self.apart)
            marks[name] = series_marker(i, design_first=not self.apart)
            pen = pg.mkPen(colours[name], width=3 if i == 0 and not self.apart else 2, style=PEN_STYLES[dashes[name]])
            self.plot.plot(list(range(len(values))), list(values), pen=pen, name=name)
            months = mark_months(i, len(self.series), len(values) - 1)
            if months:  # marks of its own, staggered: lines that run alike show both kinds side by side
                item = pg.ScatterPlotItem(months, [values[m] for m in months], symbol=MARKER_SYMBOLS[marks[name]],
                                          size=8, brush=colours[name], pen=colours[name])
                self.plot.getViewBox().addItem(item)  # not a data item: the lines stay the plot's only series
                self.marks.append(item)
        self.plot.setLabel("left", self._cost_title, units=tco.currency, **axis_label_style(self))
        # a design without a price: listed first with its running costs only, not drawn (REVIEW45 #2)
        rows = table_rows(tco)  # an option not drawn is marked "(not charted)" and has no swatch
        self.table.setRowCount(len(rows))
        for r, cells in enumerate(rows):  # the table is the chart's legend: a drawn option has its line's colour
            for c, text in enumerate(cells):
                item = QTableWidgetItem(_shown(text, c))
                item.setToolTip(text)
                if c == 0 and text in colours:
                    item.setIcon(_swatch(colours[text], dashes[text], marks[text]))
                self.table.setItem(r, c, item)
        # a cloud design, or no option that carries the I/O: no break-even (the notes say why)
        self.table.setColumnHidden(2, not any(_shown(cells[2], 2) for cells in rows))
        budgets = any(cells[2].startswith(BUDGET_WORDS) for cells in rows)
        self.table.horizontalHeaderItem(2).setText("This design breaks even if its" if budgets
                                                   else "This design breaks even")
        self.table.fit_columns()
        if self.apart:  # the whole sentence on the design's row; the notes say why in short (a laptop's height)
            for c in range(self.table.columnCount()):
                item = self.table.item(0, c)
                if item is not None:
                    full = item.toolTip() + "\n" if c == 1 else ""  # the total's own statement, shortened on screen
                    item.setToolTip(full + self.apart + ".")
        uncharted = uncharted_words(tco)  # options that are no alternative: listed, not drawn (review 57)
        notes = (([tco.scope] if tco.scope else []) + ([design_apart_short(tco)] if self.apart else [])
                 + ([uncharted] if uncharted else []) + list(tco.notes))
        self.notes.setText("<br>".join(html_escape(n[0].upper() + n[1:]) for n in notes))
        self._fit_heights()  # the new rows and notes
        QTimer.singleShot(0, self, self.fit_axis_title)  # once the axis has its SI prefix ("kUSD")
        self.sig_tco_shown.emit()

    def wait(self) -> None:
        """Wait for the computation under way and draw its result (tests and scripts)."""
        self.runner.wait()

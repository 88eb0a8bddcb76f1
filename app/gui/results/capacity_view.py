"""The capacity waterfall: raw -> usable -> effective, one bar and one table row per step, each step explaining
its formula, inputs and source.

The chart runs top to bottom (a horizontal "bridge" chart) so that step names sit on the left axis at full
length, never rotated or clipped, however many steps an ONTAP or vSAN layout has.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QModelIndex, QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QColor, QCursor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app.gui.results._common import (
    DROP,
    GAIN,
    TOTAL,
    ProblemsBanner,
    StaleBanner,
    ask_export_plot,
    axis_label_style,
    base_color,
    export_plot,
    finite,
    fmt_capacity,
    fmt_capacity_delta,
    fmt_ratio,
    html_escape,
    icon,
    make_plot,
    max_text_width,
    muted_color,
    problem_messages,
    remember_splitter,
    stacked_result_layout,
    text_color,
    tint,
    verdict_html,
    verdict_label,
)
from app.gui.results.wrap_row import WrapRow
from app.gui.tasks import TaskRunner
from app.gui.whole_label import WholeLabel
from models.formatting import NOT_AVAILABLE, fmt_months
from models.present import WaterfallBar, capacity_verdicts, scenario_waterfall
from models.present.capacity_band import band_lines, break_even_line, system_band_lines
from models.present.capacity_text import exact_figures, text_in_unit
from models.present.dr_system import replica_lines, replica_sources, shown_waterfall
from models.present.formula_precision import precise_formula
from models.present.key_figures import GROWTH_NOT_MEASURED
from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS, NOT_CAPACITY_WHEN_MISSED, capacity_missed
from models.present.verdicts import partly_unmeasured_caution, with_capacity_unmeasured
from models.present.waterfall import with_effective_band
from models.project.model import capacity_partly_unmeasured, capacity_unmeasured, growth_unmeasured
from models.units import CapacityUnit, to_unit

if TYPE_CHECKING:
    from models.capacity.results import ScenarioCapacity
    from models.evaluate import Evaluation

ALL_SYSTEMS = "All systems"
DR_COPY_SUFFIX = " (DR copy, not in the totals)"
"""After the name of a system that only receives replication (``ScenarioCapacity.replica_only``) in the picker."""
EMPTY_MESSAGE = "Add a controller with shelves to see capacity"


MIN_CHART_HEIGHT = 260
"""The waterfall never gets shorter than this (px), nor than one text line per step."""
BREAK_RATIO = 2.5
"""The x axis breaks when the longest bar is more than this many times the raw capacity (snapshot savings can
make "Effective" ten times "Usable", which would flatten the raw -> usable steps into slivers)."""
BREAK_SPAN = 0.3
"""Past the break, everything up to the longest bar is drawn in this fraction of the break position."""


ALL_HOSTS_UP = "all hosts up"
"""Said beside a vSAN cluster's months until full where the project requires N+k: the figure is with every host up,
while the N+k verdict under it gives the months with k hosts down (review 57 #13: "49 months" above "full in 30
months with one host down")."""


def n_plus_capacity_check(system, checks: Sequence):
    """The project's required N+k capacity check of vSAN cluster ``system`` (a ``CapacityResult``; met or missed,
    ``models.n_plus``: one per cluster, without a subject, its text prefixed ``<cluster name>: `` when the scenario
    has several), None when ``system`` is None, no vSAN cluster or has no such check."""
    if system is None or system.family != "vSAN":
        return None
    name = system.system_label or system.system_id
    return next((c for c in checks if c.requirement == "n_plus" and not c.subject
                 and (c.text.startswith(f"{name}: ") or c.text.startswith("N+"))), None)


def _cap(value: float | None, unit: CapacityUnit | str) -> str:
    """A capacity in the chosen large unit throughout (TB or TiB, never GB/GiB beside it)."""
    return fmt_capacity(value, unit, fixed=True)


def _cap_delta(value: float | None, unit: CapacityUnit | str) -> str:
    """A signed capacity change in the chosen large unit throughout; no change reads "0 TiB" (or "0 TB"), with the
    unit as every other bar's label and Change cell has it."""
    if value == 0:
        return f"0 {CapacityUnit(unit).value}"
    return fmt_capacity_delta(value, unit, fixed=True)


def axis_break(bars: Sequence[WaterfallBar], unit: CapacityUnit | str) -> tuple[float, float, float] | None:
    """(break position, drawn span past it, longest bar) in ``unit``, or None when every bar fits to scale."""
    if not bars:
        return None
    raw = to_unit(bars[0].after, unit)
    highs = [to_unit(b.high, unit) for b in bars]
    top = max([*highs, *(to_unit(b.band[1], unit) for b in bars if b.band is not None)])
    if raw <= 0 or top <= BREAK_RATIO * raw:
        return None
    start = 1.12 * max(h for h in highs if h <= 1.5 * raw)
    return start, BREAK_SPAN * start, top


def broken_x(value: float, brk: tuple[float, float, float] | None) -> float:
    """Where ``value`` sits on a broken axis: to scale up to the break, compressed beyond it."""
    if brk is None or value <= brk[0]:
        return value
    start, span, top = brk
    return start + span * (value - start) / (top - start)


def _tick_text(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


def _break_ticks(start: float, span: float, top: float) -> list[tuple[float, str]]:
    """Round ticks up to the break, then one tick at the longest bar's end labelled with its real value."""
    raw_step = start / 5
    magnitude = 10 ** math.floor(math.log10(raw_step))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw_step)
    ticks = [(k * step, _tick_text(k * step)) for k in range(int(start * 0.92 // step) + 1)]
    return ticks + [(start + span, _tick_text(top))]


def bar_tooltip(bar: WaterfallBar, unit: CapacityUnit | str, exact: Sequence[float] = ()) -> str:
    """The rich-text explanation of one step: value, formula, inputs, source; the engine's binary figures in the
    formula, inputs and details read in ``unit`` (``models.present.capacity_text.text_in_unit``, converted from the
    ``exact`` byte counts they were rounded from where one is given), as the report prints them."""

    def in_unit(text: str) -> str:
        return text_in_unit(text, unit, exact)

    lines = [f"<b>{html_escape(bar.label)}</b>"]
    if bar.kind == "total":
        lines.append(_cap(bar.after, unit))
    else:
        lines.append(f"{_cap(bar.before, unit)} \u2192 {_cap(bar.after, unit)}"
                     f" ({_cap_delta(bar.change, unit)})")
    if bar.formula:
        formula = precise_formula(in_unit(bar.formula), unit, exact, bar.before, bar.after)  # as the report has it
        lines.append(f"<b>Formula:</b> {html_escape(formula)}")
    if bar.inputs:
        inputs = " \u00b7 ".join(f"{html_escape(k)} = {html_escape(in_unit(v))}" for k, v in bar.inputs)
        lines.append(f"<b>Inputs:</b> {inputs}")
    for detail in bar.details:
        lines.append(html_escape(in_unit(detail)))
    if bar.source:
        lines.append(f"<b>Source:</b> {html_escape(bar.source)}")
    return "<br>".join(lines)



WITH_SNAPSHOTS_CAPTION = LOGICAL_DATA_WITH_SNAPSHOTS
"""The caption over the capacity counting Snapshot and FlexClone copies (usable x ONTAP's total efficiency ratio,
logical / physical used, in brackets): logical data, not capacity, so its caption says so (the one name of
``models.present.logical_data``, the waterfall's and the workbook's too) and its value is drawn in grey, not bold,
beside the bold Effective; where the capacity requirement is missed it is not in the row at all and the waterfall's
last bar is greyed (``models.present.logical_data.capacity_missed``): "Total efficiency 123.80 TiB" was the
biggest figure on a design that was full now (GUI review r1 #5)."""

MONTHS_CAPTION_WIDTH = 230
"""Pixels of the months caption's line: a caption naming the first system to fill that is wider goes on two lines
(``Months until full:`` over the system's name), never cut (review cons57 #1: "Months until full: DR copy on
Cloud …" hid which copy filled in 18 months)."""


def with_snapshots_text(value: str, ratio: str) -> str:
    """The value of the Logical data incl. Snapshot copies figure, the total efficiency ratio (logical / physical, named
    in its tooltip) in brackets: ``392.05 TiB (6.57:1)``; no wider than before, so the row fits a laptop's dock."""
    return f"{value} ({ratio})"

VALUE_LABEL_MARGIN = 1
BAND_LABEL_GAP_PX = 8
"""Pixels between a value label inside its bar and the P10-P90 box right of it."""
BAR_TEXT = "#FFFFFF"
"""A value label inside a total's bar (``TOTAL``: 5.2:1 contrast, light or dark theme)."""
"""Pixels above and below a waterfall value label's text (a pyqtgraph TextItem's document margin, 4 by default):
with the chart's rows 4 px taller than a text line, neighbouring labels never overlap."""

class _StepsTable(QTableView):
    """The steps table, asking for no more height than its minimum: it takes the room the column has left (its
    stretch), and the column (a scroll area sizing its widget to the layout's preferred height for its width) no
    longer scrolled on a laptop for the ~7 rows a table asks for by default, which cut the step details' hint
    under it in half at 1366 x 768 (revperf57 #14)."""

    def sizeHint(self):  # noqa: N802 (Qt API)
        hint = super().sizeHint()
        hint.setHeight(self.minimumHeight())
        return hint


class _Kpi(QWidget):
    """A caption over a bold value, for the row of key figures."""

    def __init__(self, caption: str, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 12, 0)
        layout.setSpacing(0)
        layout.addStretch(1)  # caption and value at the bottom: a taller neighbour's value stays on their line
        self.caption = QLabel(caption)
        palette = self.caption.palette()
        palette.setColor(self.caption.foregroundRole(), muted_color(self))
        self.caption.setPalette(palette)
        self.value = QLabel("\u2014")
        font = QFont(self.value.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.value.setFont(font)
        layout.addWidget(self.caption)
        layout.addWidget(self.value)


class CapacityView(QWidget):
    """Raw, usable and effective capacity as a waterfall chart and a table of steps.

    Signals:
        sig_unit_changed(str): the user chose another capacity unit (``"TB"`` or ``"TiB"``) with the toggle.
            The setting belongs to the main window; the view already shows the new unit.
    """

    sig_unit_changed = Signal(str)
    """The user switched the TB/TiB toggle; the argument is ``CapacityUnit.value``."""
    sig_csv_written = Signal(str)
    """The waterfall CSV was written (its path)."""
    sig_bands_edited = Signal(object)
    """The user accepted new data-reduction figures: the list of ``DataReductionBand`` rows to store as the
    project's ``data_reduction_bands`` setting."""
    sig_csv_failed = Signal(str)
    """The waterfall CSV could not be written (the message, also shown)."""

    COLUMNS = ("Step", "Before", "After", "Change", "Source")
    COLUMN_TOOLTIPS = {
        "Step": "A step from raw to usable to effective capacity (hover or click a row for its formula and inputs)",
        "Before": "The capacity before this step, in the unit shown",
        "After": "The capacity after this step, in the unit shown (a total row: the capacity at that point)",
        "Change": "What this step takes away (\u2212) or adds (+); 0 when it changes nothing",
        "Source": "The public document the step's rule or figure comes from",
    }
    """Each column header's tooltip: what the column holds."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._evaluation: Evaluation | None = None
        self._unit = CapacityUnit.TIB
        self._bars: list[WaterfallBar] = []
        self._exact: tuple[float, ...] = ()  # the shown systems' exact byte counts (capacity_text.exact_figures)
        self._selected = -1
        self._logical_withheld = False  # the design misses its capacity: logical data incl. copies greyed

        self.banner = StaleBanner(self)

        # Header: key figures, system selector, unit toggle.
        self._kpis = {key: _Kpi(caption) for key, caption in (
            ("raw", "Raw"), ("usable", "Usable"), ("effective", "Effective"),
            ("reduction", "Data reduction"), ("with_snapshots", WITH_SNAPSHOTS_CAPTION),
            ("months", "Months until full"))}
        self._kpis["raw"].setToolTip(
            "The capacity as marketed (drives x their marketed size, or the capacity a cloud service provisions), "
            "before right-sizing, spares, RAID or vSAN protection and reserves: the waterfall's first bar.")
        self._kpis["usable"].setToolTip(
            "What is left to hold data after right-sizing, spares, RAID parity or vSAN protection copies and the "
            "file system's reserves, before data reduction: the waterfall's Usable bar.")
        self._kpis["effective"].setToolTip(
            "Usable capacity x the data-reduction ratio (compression, compaction, deduplication): the effective "
            "capacity as it is sold; Snapshot and FlexClone copies not counted.")
        muted = self._kpis["with_snapshots"].value  # logical data, not capacity: never the headline
        muted_font = QFont(muted.font())
        muted_font.setBold(False)
        muted_font.setPointSizeF(self._kpis["with_snapshots"].caption.font().pointSizeF())
        muted.setFont(muted_font)
        muted.setPalette(self._kpis["with_snapshots"].caption.palette())
        self._kpis["with_snapshots"].setToolTip(
            "Effective including Snapshot copies: usable capacity x the total efficiency ratio (in brackets), "
            "counting the logical size of every Snapshot and FlexClone copy, not capacity to sell or to fill. Not "
            "shown here where the capacity requirement is missed (the waterfall's last bar has it). "
            "The ratio is logical used / physical "
            "used, the total ratio ONTAP's 'storage aggregate show-efficiency' reports (NetApp, 'AFF8080A EX Storage "
            "Efficiency and Performance with SQL Server 2014', 2016, section 1.3).")
        self._kpis["reduction"].setToolTip(
            "Inline data reduction: logical data / physical data after inline compression, compaction and "
            "deduplication "
            "(the data-reduction ratio; Snapshot and FlexClone copies not counted).")
        self.system_combo = QComboBox()
        # a few characters wide, the names in full in its list: a design with several systems (a replication
        # destination, long names) made the header row wider than a laptop's results dock
        self.system_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.system_combo.setMinimumContentsLength(8)
        self.system_combo.setToolTip("The system whose capacity is shown (or all systems together)")
        self.system_combo.currentIndexChanged.connect(self._render)
        self.unit_buttons = QButtonGroup(self)
        unit_box = QHBoxLayout()
        unit_box.setSpacing(0)
        for index, unit in enumerate(CapacityUnit):
            button = QToolButton()
            button.setObjectName("unitToggle")
            button.setText(unit.value)
            button.setCheckable(True)
            # the checked unit in the palette's highlight colour: plain style checked states are faint in
            # some (dark) palettes
            button.setStyleSheet(
                "#unitToggle { padding: 2px 9px; border: 1px solid palette(mid); background: palette(button); }"
                " #unitToggle:checked { background: palette(highlight); color: palette(highlighted-text);"
                " border-color: palette(highlight); font-weight: bold; }")
            button.setToolTip("Decimal units (10^12 bytes)" if unit is CapacityUnit.TB else
                              "Binary units (2^40 bytes)")
            self.unit_buttons.addButton(button, index)
            unit_box.addWidget(button)
        self.unit_buttons.setExclusive(True)
        self.unit_buttons.button(list(CapacityUnit).index(self._unit)).setChecked(True)
        self.unit_buttons.idClicked.connect(self._on_unit_clicked)

        # the key figures, then the controls at the right end; on a dock too narrow for one line (two systems on
        # a 1366 x 768 screen: the selector shown, the months caption naming a system) the controls wrap onto a
        # second line instead of being pushed past the dock's edge (WrapRow)
        header = WrapRow(spacing=0)
        for kpi in self._kpis.values():
            header.addWidget(kpi)
        self.controls = QWidget()
        self.controls.setObjectName("capacityControls")
        controls = QHBoxLayout(self.controls)
        controls.setContentsMargins(8, 0, 0, 0)
        controls.addWidget(self.system_combo)
        controls.addSpacing(8)
        controls.addLayout(unit_box)
        self.export_button = QToolButton()
        self.export_button.setText("Image")
        self.export_button.setIcon(icon("mdi6.image-outline", text_color(self)))
        self.export_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)  # the row fits a laptop
        self.export_button.setToolTip("Export the capacity waterfall as a PNG image or an SVG drawing")
        self.export_button.clicked.connect(
            lambda: ask_export_plot(self, self.plot, "capacity waterfall", "capacity-waterfall.png"))
        self.export_csv_button = QToolButton()
        self.export_csv_button.setText("CSV")
        self.export_csv_button.setIcon(icon("mdi6.file-delimited-outline", text_color(self)))
        self.export_csv_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.export_csv_button.setToolTip("Export the waterfall's steps as CSV (capacities in the unit shown)")
        self.export_csv_button.clicked.connect(self._ask_export_csv)
        self.csv_runner = TaskRunner(self, "waterfall-csv")
        controls.addSpacing(8)
        controls.addWidget(self.export_button)
        controls.addWidget(self.export_csv_button)
        header.addWidget(self.controls)
        self.bands_button = QToolButton()
        self.bands_button.setText("Data reduction\u2026")
        self.bands_button.setToolTip("The data-reduction ratio's P10 / P50 / P90 per workload type or workload: the "
                                     "published figures, or the project's own")
        self.bands_button.clicked.connect(self.edit_bands)
        self.bands_source = None
        """A callable giving (the project's rows, the scenario's workloads) for the dialog; None: no button."""
        self.stated_capacity_source = None
        """A callable giving the effective capacity the requirements state (bytes, 0 or None when none): with the
        workloads of :attr:`bands_source`, whether the imported data's capacity is not measured."""

        # Chart
        self.plot = make_plot(self)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getViewBox().invertY(True)
        self.plot.showGrid(x=True, y=False, alpha=0.15)
        self.plot.getAxis("left").setStyle(tickLength=0)
        self._bar_item: pg.BarGraphItem | None = None
        self._break: tuple[float, float, float] | None = None
        self._value_labels: list[pg.TextItem] = []
        self._label_kinds: list[tuple[bool, str]] = []  # per value label: a total's (bold)?, the view's font
        self._drawn: list[pg.GraphicsObject] = []  # the chart's other items, drawn anew each time
        self.plot.scene().sigMouseMoved.connect(self._on_plot_hover)
        self.plot.getViewBox().sigResized.connect(self._fit_x_range)
        self.plot.scene().sigMouseClicked.connect(self._on_plot_clicked)

        # Table and step details
        self.model = QStandardItemModel(0, len(self.COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(self.COLUMNS))
        for column, name in enumerate(self.COLUMNS):
            self.model.horizontalHeaderItem(column).setToolTip(self.COLUMN_TOOLTIPS[name])
        self.table = _StepsTable()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        head = self.table.horizontalHeader()
        # Columns fit their contents after each fill; Source fills what is left but never squeezes the step
        # names and figures (the table scrolls instead).
        head.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        head.setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.details = QTextBrowser()
        self.details.setFrameShape(QFrame.Shape.NoFrame)
        self.details.setOpenLinks(False)
        self.details.setMaximumHeight(self.fontMetrics().height() * 6)
        # on a short dock the sentences above keep their lines: the step details and the table give way first,
        # down to two lines and to the header and a row (each scrolls)
        self.details.setMinimumHeight(self.fontMetrics().height() * 2 + 8)
        self.table.setMinimumHeight(2 * self.table.verticalHeader().defaultSectionSize() + 8)
        self.details.setPlaceholderText("Hover or click a step to see its formula, inputs and source.")

        # The verdict: does each system's data fit its usable capacity (models.present.verdicts)? Above the
        # table, so the chart keeps its full height.
        # Both never lose lines to a short dock (WholeLabel): the table and the step details give way instead.
        self.verdict_label = verdict_label("capacityVerdicts", WholeLabel)
        # The capacity band (models.present.capacity_band): effective and runway P10-P90, the break-even ratio.
        self.band_label = WholeLabel()
        self.band_label.setObjectName("capacityBand")
        self.band_label.setWordWrap(True)
        self.band_label.setVisible(False)
        self.band_label.setToolTip("The data-reduction ratio as a band: each workload's own ratio is its P50, the "
                                   "published spread of its workload type (or the project's own figures) sets "
                                   "P10 and P90; the break-even is the ratio below which the design no longer "
                                   "fits its required capacity over the horizon.")

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.verdict_label)
        band_row = QHBoxLayout()  # the band's sentences and the button that edits its figures (not in the header:
        band_row.addWidget(self.band_label, 1)  # the header's row must fit a laptop screen's results dock)
        band_row.addWidget(self.bands_button, 0, Qt.AlignmentFlag.AlignTop)
        right_layout.addLayout(band_row)
        right_layout.addWidget(self.table, 1)
        right_layout.addWidget(self.details)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.plot)
        # the column scrolls on its own when a short dock cannot hold its sentences whole: the other tabs (a
        # QTabWidget is as tall as its tallest page's minimum) keep their height, unscrolled
        self.right_scroll = QScrollArea()
        self.right_scroll.setObjectName("capacityRightScroll")
        self.right_scroll.setWidgetResizable(True)
        self.right_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.right_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.right_scroll.setWidget(right)
        self.splitter.addWidget(self.right_scroll)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([560, 440])
        self.splitter.setChildrenCollapsible(False)
        remember_splitter(self.splitter, "results/capacity_splitter")

        self.stack, self.message = stacked_result_layout(self, self.banner, header, self.splitter,
                                                         EMPTY_MESSAGE)
        self.problems_banner = ProblemsBanner(self)
        self.layout().insertWidget(1, self.problems_banner)

    # ------------------------------------------------------------------------------------------------ public API

    @property
    def capacity_unit(self) -> CapacityUnit:
        """The unit capacities are shown in."""
        return self._unit

    @property
    def bars(self) -> list[WaterfallBar]:
        """The bars (and table rows) currently shown, in order."""
        return list(self._bars)

    @Slot(object, object)
    def set_evaluation(self, evaluation: Evaluation | None,
                       capacity_unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """Show an evaluation's capacity in ``capacity_unit``; a missing capacity shows the engine's problem."""
        self._evaluation = evaluation
        self._set_unit(capacity_unit)
        capacity = evaluation.capacity if evaluation is not None else None
        self.system_combo.blockSignals(True)
        previous = self.system_combo.currentText()
        self.system_combo.clear()
        systems = capacity.systems if capacity is not None else ()
        if len(systems) > 1:
            self.system_combo.addItem(ALL_SYSTEMS)
        for system in systems:  # a replication-only destination is labelled as the DR copy it holds
            replica = capacity is not None and capacity.is_replica_only(system.system_id)
            self.system_combo.addItem(system.system_label + (DR_COPY_SUFFIX if replica else ""), system.system_id)
        index = self.system_combo.findText(previous)
        self.system_combo.setCurrentIndex(max(index, 0))
        self.system_combo.blockSignals(False)
        several = len(systems) > 1
        self.system_combo.setVisible(several)
        self._render()

    @Slot(object)
    def set_capacity_unit(self, capacity_unit: CapacityUnit | str) -> None:
        """Show capacities in another unit (no signal: this is how the main window applies its setting)."""
        self._set_unit(capacity_unit)
        self._render()

    @Slot(object)
    def set_design_errors(self, messages) -> None:
        """Show the red "the design has errors" banner for these problem messages (none: hidden)."""
        self.problems_banner.set_errors(list(messages))

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
        """Show or hide the "Results out of date" banner; the last good result stays on screen."""
        self.banner.set_stale(stale, message)

    def select_system(self, label: str) -> None:
        """Show one system (by label) or ``ALL_SYSTEMS``."""
        index = self.system_combo.findText(label)
        if index < 0:
            index = self.system_combo.findText(label + DR_COPY_SUFFIX)
        if index < 0:
            raise KeyError(label)
        self.system_combo.setCurrentIndex(index)

    def bar_tooltip(self, index: int) -> str:
        """The tooltip (and step details) of bar ``index``: its figures, formula and source; the logical data incl.
        Snapshot copies of a design that misses its capacity says first that it is not capacity."""
        tip = bar_tooltip(self._bars[index], self._unit, self._exact)
        if self.bar_greyed(index):
            tip = f"<i>{html_escape(NOT_CAPACITY_WHEN_MISSED)}.</i><br>{tip}"
        return tip

    def bar_greyed(self, index: int) -> bool:
        """True for the logical data incl. Snapshot copies bar of a design that misses its capacity requirement
        (the key figure hidden, ``models.present.logical_data.capacity_missed``): drawn and listed in grey, not
        as a bold total."""
        bar = self._bars[index] if 0 <= index < len(self._bars) else None
        return (self._logical_withheld and bar is not None and bar.kind == "total"
                and bar.label == LOGICAL_DATA_WITH_SNAPSHOTS)

    def select_step(self, index: int) -> None:
        """Select a step (bar and table row) and show its explanation below the table."""
        self.table.selectRow(index)

    # -------------------------------------------------------------------------------------------------- internals

    def _set_unit(self, capacity_unit) -> None:
        self._unit = CapacityUnit(capacity_unit)
        button = self.unit_buttons.button(list(CapacityUnit).index(self._unit))
        if not button.isChecked():
            button.setChecked(True)

    def _on_unit_clicked(self, button_id: int) -> None:
        unit = list(CapacityUnit)[button_id]
        if unit is self._unit:
            return
        self._unit = unit
        self._render()
        self.sig_unit_changed.emit(unit.value)

    def _current_capacity(self) -> ScenarioCapacity | None:
        evaluation = self._evaluation
        return evaluation.capacity if evaluation is not None else None

    def export_waterfall(self, path, scale: float = 2.0) -> None:
        """Write the capacity waterfall as a PNG, or an SVG drawing when ``path`` ends in ``.svg``."""
        export_plot(self.plot, path, "StorPlan capacity waterfall", scale)

    def export_waterfall_csv(self, path) -> bool:
        """Write the steps shown (``models.present.workbook.waterfall_rows``: the selected system, the unit shown)
        as CSV on the view's runner; :attr:`sig_csv_written` or :attr:`sig_csv_failed` tells the outcome.
        False when there is nothing to write."""
        from models.present.workbook import waterfall_rows

        if not self._bars:
            return False
        rows = waterfall_rows(self._bars, self._unit)

        def job(_state):
            from app.report.workbook import write_sheet_csv

            return write_sheet_csv(rows, path)

        self.csv_runner.submit(job, name="waterfall CSV", on_done=self._csv_done)
        return True

    def _csv_done(self, ok: bool, result) -> None:
        """Tell where the CSV went, or why it was not written."""
        if ok:
            self.sig_csv_written.emit(str(result))
        else:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, "Cannot export", str(result))
            self.sig_csv_failed.emit(str(result))

    def _ask_export_csv(self) -> None:
        """Ask where to write the waterfall CSV, then write it."""
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(self, "Export capacity waterfall", "capacity-waterfall.csv",
                                              "CSV (*.csv)")
        if path:
            self.export_waterfall_csv(path if path.lower().endswith(".csv") else path + ".csv")

    def _render(self, *_args) -> None:
        capacity = self._current_capacity()
        if capacity is None:
            messages = problem_messages(self._evaluation, "capacity") if self._evaluation is not None else []
            if self._evaluation is None or not messages:
                self.message.show_message(EMPTY_MESSAGE)
            else:
                self.message.show_message("Capacity could not be computed", messages)
            self.stack.setCurrentWidget(self.message)
            self._bars = []
            return
        systems = tuple(capacity.systems)
        self._exact = tuple(v for system in systems for v in exact_figures(system))
        if not systems:
            details = [str(p) for p in capacity.problems]
            self.message.show_message(EMPTY_MESSAGE, details)
            self.stack.setCurrentWidget(self.message)
            self._bars = []
            return
        self.stack.setCurrentIndex(0)
        selected = self.system_combo.currentText()
        band = self._evaluation.capacity_band if self._evaluation is not None else None
        system_id = None
        protection = self._evaluation.protection if self._evaluation is not None else None
        kept = None  # a DR copy's data reduction kept in transfer (models.present.dr_system)
        months_caption, months_tip = "Months until full", ""
        if len(systems) > 1 and selected in ("", ALL_SYSTEMS):
            self._bars = with_effective_band(scenario_waterfall(capacity), band)
            total = capacity.total
            efficiency = total.efficiency_ratio
            reduction = total.data_reduction_ratio
            # the first system to fill, a DR copy too (the totals leave it out): named when there are several
            runways = [(s.months_until_full, s) for s in systems if finite(s.months_until_full)]
            months_value = min(runways, key=lambda r: r[0])[0] if runways else total.months_until_full
            shown = None
            if runways:
                first = shown = min(runways, key=lambda r: r[0])[1]
                months_caption = f"Months until full: {self._system_name(capacity, first)}"
                months_tip = "The first system to fill: " + "; ".join(
                    f"{self._system_name(capacity, s)} {fmt_months(m)}" for m, s in sorted(runways, key=lambda r: r[0]))
        else:
            chosen = self.system_combo.currentData()
            system = next((s for s in systems if s.system_id == chosen),
                          next((s for s in systems if s.system_label == selected), systems[0]))
            system_id = system.system_id
            bars, kept = shown_waterfall(capacity, protection, system)  # the report shows the same bars
            if kept is not None:  # one system's figures: the reduction replication keeps, no band of its own
                self._bars = bars
                reduction = kept
            else:
                self._bars = with_effective_band(bars, band, system_id)
                reduction = system.data_reduction_ratio
            efficiency = system.efficiency_ratio
            months_value = system.months_until_full
            shown = system
        unit = self._unit
        raw, usable, effective = (self._bars[0].after, self._bar_total("Usable"), self._bar_total("Effective"))
        self._kpis["raw"].value.setText(_cap(raw, unit))
        self._kpis["usable"].value.setText(_cap(usable, unit))
        self._kpis["effective"].value.setText(_cap(effective, unit))
        self._show_band(band, system_id, capacity, kept)
        self._kpis["with_snapshots"].value.setText(with_snapshots_text(_cap(self._bars[-1].after, unit),
                                                                       fmt_ratio(efficiency)))
        self._kpis["reduction"].value.setText(fmt_ratio(reduction))
        self._kpis["reduction"].caption.setText("Data reduction (kept)" if kept is not None else "Data reduction")
        project_workloads = self.bands_source()[1] if self.bands_source is not None else []
        self._kpis["months"].value.setText(  # an import's 0%/yr is no measurement: not "no growth" (as the report)
            GROWTH_NOT_MEASURED if not finite(months_value) and growth_unmeasured(project_workloads)
            else fmt_months(months_value))
        resilience = self._evaluation.resilience if self._evaluation is not None else None
        n_plus = n_plus_capacity_check(shown, resilience.requirement_checks if resilience else ())
        if n_plus is not None:  # the figure is with every host up, never read as the N+k one (review 57 #13)
            months_caption += f" ({ALL_HOSTS_UP})"
            months_tip = (months_tip + ". " if months_tip else "") + (
                f"With every host up; {'met' if n_plus.met else 'missed'}: {n_plus.text}")
        caption = self._kpis["months"].caption
        wrapped = (caption.fontMetrics().horizontalAdvance(months_caption) > MONTHS_CAPTION_WIDTH
                   and ": " in months_caption)
        if wrapped:
            months_caption = months_caption.replace(": ", ":\n", 1)  # two lines, the system's name whole
        caption.setText(months_caption)
        tall = self._kpis["months"].sizeHint().height() if wrapped else 0
        for kpi in self._kpis.values():  # every figure as tall, so the values share one line
            kpi.setMinimumHeight(tall)
        self._kpis["months"].setToolTip(
            (months_tip + ". " if months_tip else "")
            + "At the workloads' configured growth g a year, applied as (1 + g)^(months / 12) (for example, 30% a "
            "year is 1.30x after 12 months); 'not projected' when no growth is set or the system never fills.")
        horizon = band.horizon_months if band is not None else 0.0
        resilience = self._evaluation.resilience if self._evaluation is not None else None
        workloads = self.bands_source()[1] if self.bands_source is not None else []  # the project's workloads
        found = capacity_verdicts(capacity, unit, horizon, resilience.requirement_checks if resilience else (),
                                  growth_unmeasured(workloads))
        stated = self.stated_capacity_source() if self.stated_capacity_source is not None else 0
        unmeasured = capacity_unmeasured(workloads, stated or 0)
        partly = partly_unmeasured_caution(capacity_partly_unmeasured(workloads))
        if partly is not None:  # as the report's summary: some imported workloads' capacity not measured
            found = (partly, *found)
        if unmeasured:  # as the report's summary: "capacity not measured", never 0 bytes that "fit"
            found = with_capacity_unmeasured(found)
            self._kpis["months"].value.setText(NOT_AVAILABLE)
            self._kpis["months"].setToolTip("Capacity not measured: the measured files give no capacity, so there "
                                            "is no data to fill the system; state the effective capacity needed "
                                            "(Requirements).")
        protection = self._evaluation.protection if self._evaluation is not None else None
        if protection is not None:  # a DR system's copies are judged with their relationship, as in the summary
            from models.present.verdicts import FAIL, Verdict
            from models.verdict import CAPACITY, protection_misses

            found += tuple(Verdict(FAIL, m.subject, m.text, m.area)
                           for m in protection_misses(protection, horizon, unit) if m.area == CAPACITY)
        self.verdict_label.setText(verdict_html(found))
        self.verdict_label.setVisible(bool(found))
        # logical data incl. Snapshot copies is never a headline beside a capacity the design misses
        missed = capacity_missed(found, months_value)
        # and not beside Effective when it adds nothing (no copies: the two figures are one, review 57 second pass)
        adds = self._bars[-1].after > effective * (1.0 + 1e-9)
        self._kpis["with_snapshots"].setVisible(not missed and adds)
        self._logical_withheld = missed  # and its waterfall bar greyed, not a capacity (_fill_table, _draw_chart)
        self._fill_table()
        self._draw_chart()
        if 0 <= self._selected < len(self._bars):
            self.table.selectRow(self._selected)
        else:
            self.details.clear()

    def _bar_total(self, label: str) -> float:
        return next(b.after for b in self._bars if b.kind == "total" and b.label == label)

    def _fill_table(self) -> None:
        unit = self._unit
        self.model.removeRows(0, self.model.rowCount())
        bold = QFont(self.table.font())
        bold.setBold(True)
        muted = muted_color(self)
        for index, bar in enumerate(self._bars):
            tooltip = self.bar_tooltip(index)
            greyed = self.bar_greyed(index)
            if bar.kind == "total":
                cells = [bar.label, "", _cap(bar.after, unit), "", bar.source]
            else:
                cells = [bar.label, _cap(bar.before, unit), _cap(bar.after, unit),
                         _cap_delta(bar.change, unit), bar.source]
            items = []
            for column, text in enumerate(cells):
                item = QStandardItem(text)
                item.setToolTip(tooltip)
                if column in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if greyed:  # logical data beside a missed capacity: no bold total
                    item.setForeground(muted)
                elif bar.kind == "total":
                    item.setFont(bold)
                items.append(item)
            if bar.kind in ("drop", "gain"):
                items[3].setForeground(QColor(DROP if bar.kind == "drop" else GAIN))
            self.model.appendRow(items)
        for column in range(len(self.COLUMNS) - 1):
            self.table.resizeColumnToContents(column)
        cap = self.fontMetrics().horizontalAdvance("x" * 26)  # a long step name elides (its tooltip has it all)
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), cap))

    def _draw_chart(self) -> None:
        """Draw the waterfall. The bar item and the value labels are kept from the last drawing and updated in place
        (at 1,000 nodes a result's redraw was ~10 ms, most of it in clearing the plot and adding items back); the
        few other items (bands, connectors, the axis break) are drawn anew."""
        plot = self.plot
        for old in self._drawn:
            plot.removeItem(old)
        self._drawn = []
        unit = self._unit
        bars = self._bars
        n = len(bars)
        self._break = axis_break(bars, unit)
        tx = self._tx
        colors = {"total": TOTAL, "drop": DROP, "gain": GAIN, "flat": muted_color(self).name()}
        x0 = [tx(to_unit(b.low, unit)) for b in bars]
        widths = [max(tx(to_unit(b.high, unit)) - tx(to_unit(b.low, unit)), 0.0) for b in bars]
        drawn = ["flat" if self.bar_greyed(i) else b.kind for i, b in enumerate(bars)]  # greyed: the muted colour
        brushes = [pg.mkBrush(colors[k]) for k in drawn]
        pens = [pg.mkPen(text_color(self), width=2) if i == self._selected else pg.mkPen(colors[k])
                for i, k in enumerate(drawn)]
        if self._bar_item is None:
            self._bar_item = pg.BarGraphItem(x0=x0, y=list(range(n)), height=0.62, width=widths, brushes=brushes,
                                             pens=pens)
            plot.addItem(self._bar_item)
        else:
            self._bar_item.setOpts(x0=x0, y=list(range(n)), height=0.62, width=widths, brushes=brushes, pens=pens)
        # a band of no spread (ANF: the service applies no data reduction) is no box: its outline was a line drawn
        # through the start of the Effective value ("4.00 TiB", review 57 #13); the label's tooltip says P10-P90
        self._band_items = [self._band_item(i, b) for i, b in enumerate(bars)
                            if b.band is not None and b.band[1] > b.band[0]]
        for item in self._band_items:
            self._add(item)
        # Dashed connectors from each bar's end to the next bar's start.
        xs, ys = [], []
        for i in range(n - 1):
            end = tx(to_unit(bars[i].after, unit))
            xs += [end, end]
            ys += [i + 0.31, i + 1 - 0.31]
        if xs:
            self._add(pg.PlotDataItem(xs, ys, connect="pairs",
                                      pen=pg.mkPen(muted_color(self), width=1, style=Qt.PenStyle.DashLine)))
        # Value labels at the end of each bar: the last drawing's label of a row kept where it was drawn alike (a
        # total's bold, a step's plain, in the same font of the view), its text, colour and place set anew.
        text = text_color(self)
        labels: list[pg.TextItem] = []
        kinds: list[tuple[bool, str]] = []
        font_key = self.font().key()
        for i, bar in enumerate(bars):
            label = _cap(bar.after, unit) if bar.kind == "total" else _cap_delta(bar.change, unit)
            color = text if drawn[i] == "total" else QColor(colors[drawn[i]])
            total = drawn[i] == "total"  # a greyed bar's label plain and muted
            if i < len(self._value_labels) and self._label_kinds[i] == (total, font_key):
                item = self._value_labels[i]
                item.setText(label, color)
            else:
                if i < len(self._value_labels):
                    plot.removeItem(self._value_labels[i])
                item = pg.TextItem(label, color=color, anchor=(0, 0.5))
                if total:
                    font = QFont(self.font())
                    font.setBold(True)
                    item.setFont(font)
                item.textItem.document().setDocumentMargin(VALUE_LABEL_MARGIN)  # the line and 1 px: rows apart
                plot.addItem(item)
            # at the bar's own end, over its band's box (REVIEW54 #15: past the band's whisker, FAS70's 1,784.58 TiB
            # read as about 2,900 on the axis); the band's range is in the label's and the band's tooltips
            item.setPos(tx(to_unit(bar.high, unit)), i)
            item.fill = pg.mkBrush(tint(base_color(self), 225)) if bar.band is not None else pg.mkBrush(None)
            item.setZValue(7 if bar.band is not None else 0)
            item.setToolTip(f"P10-P90: {_cap(bar.band[0], unit)} to {_cap(bar.band[1], unit)}"
                            if bar.band is not None else "")
            item.update()
            labels.append(item)
            kinds.append((total, font_key))
        for item in self._value_labels[n:]:
            plot.removeItem(item)
        self._value_labels, self._label_kinds = labels, kinds
        self._draw_break(bars)
        left = plot.getAxis("left")
        left.setTicks([[(i, b.label) for i, b in enumerate(bars)]])
        left.setWidth(max_text_width(self, (b.label for b in bars)) + 14)
        bottom = plot.getAxis("bottom")
        if self._break is None:
            bottom.setTicks(None)
            plot.setLabel("bottom", unit.value, **axis_label_style(self))
        else:
            start, span, top = self._break
            bottom.setTicks([_break_ticks(start, span, top)])
            plot.setLabel("bottom", f"{unit.value} \u2014 axis broken at \u2248{_tick_text(start)}: longer bars "
                          "not to scale", **axis_label_style(self))
        # One readable row per step: never squeeze the rows below the text height. A value label is the text line
        # plus VALUE_LABEL_MARGIN above and below; rows 4 px apart keep the labels apart and a laptop screen still
        # shows the Performance tab unscrolled.
        self.plot.setMinimumHeight(max(MIN_CHART_HEIGHT, n * (self.fontMetrics().height() + 4) + 44))
        plot.setYRange(-0.6, n - 0.4, padding=0)
        self._fit_x_range()

    def _band_item(self, row: int, bar: WaterfallBar) -> pg.GraphicsObject:
        """The P10-P90 band of a total as a shaded box across its bar with whiskers at both ends."""
        assert bar.band is not None
        low, high = (self._tx(to_unit(v, self._unit)) for v in bar.band)
        color = QColor(text_color(self))
        shade = QColor(color)
        shade.setAlpha(60)
        box = pg.BarGraphItem(x0=[low], y=[row], height=0.3, width=[max(high - low, 0.0)], brush=pg.mkBrush(shade),
                              pen=pg.mkPen(color, width=1.5))
        box.setZValue(5)
        box.setToolTip(f"P10-P90: {_cap(bar.band[0], self._unit)} to {_cap(bar.band[1], self._unit)}")
        return box

    def band_rects(self) -> list[tuple[float, float]]:
        """The (left, right) x of each band drawn on the chart, in the axis' units (for tests)."""
        out = []
        for item in getattr(self, "_band_items", []):
            left, width = item.opts["x0"][0], item.opts["width"][0]
            out.append((float(left), float(left + width)))
        return out

    def edit_bands(self) -> None:
        """Open the data-reduction figures dialog; accepted rows go out on :attr:`sig_bands_edited`."""
        from app.gui.results.reduction_bands_dialog import ReductionBandsDialog

        if self.bands_source is None:
            return
        rows, workloads = self.bands_source()
        self.bands_dialog = ReductionBandsDialog(rows, workloads, self)
        self.bands_dialog.accepted.connect(lambda: self.sig_bands_edited.emit(self.bands_dialog.rows()))
        self.bands_dialog.open()

    @staticmethod
    def _system_name(capacity: ScenarioCapacity, system) -> str:
        """A system's name in the row of key figures: a DR copy as "DR copy on <system>"."""
        name = system.system_label or system.system_id
        return f"DR copy on {name}" if capacity.is_replica_only(system.system_id) else name

    def _show_band(self, band, system_id: str | None, capacity: ScenarioCapacity | None = None,
                   kept: float | None = None) -> None:
        """The sentences under the key figures, of what the row shows: the scenario's band (effective P10-P90,
        months until full P10-P90, the break-even) under All systems; one system's band when one is selected (the
        break-even is the design's, said so); a DR copy's effective capacity at the reduction kept in transfer."""
        unit = self._unit
        system_result = capacity.system(system_id) if capacity is not None and system_id is not None else None
        if kept is not None and system_result is not None:
            sources = replica_sources(self._evaluation.protection if self._evaluation is not None else None,
                                      system_id)
            self._kpis["effective"].value.setToolTip(f"The usable capacity at the {fmt_ratio(kept)} data reduction "
                                                     "the copies keep in transfer (no P10-P90 spread of its own)")
            self._kpis["months"].value.setToolTip("")
            self.band_label.setText(" ".join(replica_lines(system_result, kept, sources, unit)))
            self.band_label.setVisible(True)
            return
        if band is None:
            self.band_label.setVisible(False)
            return
        system = band.system(system_id) if system_id is not None else None
        low = system.effective_bytes_p10 if system is not None else band.effective_bytes_p10
        high = system.effective_bytes_p90 if system is not None else band.effective_bytes_p90
        self._kpis["effective"].value.setToolTip(f"P10-P90: {_cap(low, unit)} to {_cap(high, unit)}")
        m10 = system.months_until_full_p10 if system is not None else band.months_until_full_p10
        m90 = system.months_until_full_p90 if system is not None else band.months_until_full_p90
        self._kpis["months"].value.setToolTip(f"P10-P90 of the data-reduction ratio: {fmt_months(m10)} to "
                                              f"{fmt_months(m90)}")
        if system is not None and capacity is not None and len(capacity.systems) > 1:
            whole = break_even_line(band, unit)
            lines = [*system_band_lines(system, unit), f"For the whole design: {whole[0].lower()}{whole[1:]}"]
        else:
            lines = band_lines(band, unit)
            if capacity is not None and capacity.replica_only:  # the totals leave a DR copy out: say so
                lines[0] = f"Systems serving workloads: {lines[0][0].lower()}{lines[0][1:]}"
        self.band_label.setText(" ".join(lines))
        self.band_label.setVisible(True)

    def _tx(self, value: float) -> float:
        """A value's x position on the (possibly broken) axis."""
        return broken_x(value, self._break)

    def _draw_break(self, bars: list[WaterfallBar]) -> None:
        """The axis break: a gap with two slanted strokes across every bar that passes it."""
        if self._break is None:
            return
        start, span, _top = self._break
        unit = self._unit
        rows = [i for i, b in enumerate(bars) if to_unit(b.low, unit) < start < to_unit(b.high, unit)]
        if not rows:
            return
        gap = (start + span) * 0.012
        cover = pg.BarGraphItem(x0=[start - gap / 2] * len(rows), y=rows, height=0.8, width=[gap] * len(rows),
                                brush=pg.mkBrush(base_color(self)), pen=pg.mkPen(None))
        cover.setZValue(5)
        self._add(cover)
        xs, ys = [], []
        for row in rows:
            for edge in (start - gap / 2, start + gap / 2):
                xs += [edge - gap * 0.35, edge + gap * 0.35]
                ys += [row + 0.42, row - 0.42]
        strokes = pg.PlotDataItem(xs, ys, connect="pairs", pen=pg.mkPen(text_color(self), width=1.3))
        strokes.setZValue(6)
        self._add(strokes)

    def _add(self, item: pg.GraphicsObject) -> None:
        """Add one of the chart's items that are drawn anew each time (removed at the next drawing)."""
        self.plot.addItem(item)
        self._drawn.append(item)

    def _fit_x_range(self, *_args) -> None:
        """Scale x so the longest bar leaves room on its right for its value label, at the current width."""
        if not self._bars:
            return
        unit = self._unit
        top = max((self._tx(to_unit(max(b.high, b.band[1] if b.band is not None else 0.0), unit))
                   for b in self._bars), default=1.0) or 1.0
        room_px = max_text_width(self, [f"{_cap(b.after, unit)}  " for b in self._bars]) + 8
        width_px = max(self.plot.getViewBox().width(), 200.0)
        fraction = min(room_px / width_px, 0.6)
        self.plot.setXRange(0, top / (1 - fraction), padding=0)
        self._place_band_labels()

    def _place_band_labels(self) -> None:
        """A bar with a P10-P90 box (the Effective total) gets its value inside the bar, in white, ending just left
        of the box, where the bar's room there holds it (clear of the axis break): at the bar's end it lay over the
        box (revperf57 #14); past the box's whisker it read as the value there (REVIEW54 #15). Without that room, or
        with a box of no width (no spread), it stays at the bar's end like the other totals', on a backdrop."""
        vb = self.plot.getViewBox()
        per_px = vb.viewPixelSize()[0]
        if not per_px or not math.isfinite(per_px):
            return
        unit = self._unit
        for row, (bar, item) in enumerate(zip(self._bars, self._value_labels)):
            if bar.band is None:
                continue
            start, end = self._tx(to_unit(bar.low, unit)), self._tx(to_unit(bar.high, unit))
            label_w = item.textItem.boundingRect().width() * per_px
            gap = BAND_LABEL_GAP_PX * per_px
            right = min(self._tx(to_unit(bar.band[0], unit)), end) - gap
            if self._break is not None and right - label_w < self._break[0] + gap < right + 2 * gap:
                right = self._break[0] - 2 * gap  # clear of the break's strokes
            if bar.kind == "total" and bar.band[1] > bar.band[0] and right - label_w >= start + gap:
                item.setAnchor((1, 0.5))
                item.setPos(right, row)
                item.setColor(QColor(BAR_TEXT))
                item.fill = pg.mkBrush(None)
            else:
                item.setAnchor((0, 0.5))
                item.setPos(end, row)
                item.setColor(text_color(self) if bar.kind == "total"
                              else QColor({"drop": DROP, "gain": GAIN}.get(bar.kind, muted_color(self))))
                item.fill = pg.mkBrush(tint(base_color(self), 225))
            item.update()

    def value_label_rects(self) -> list[QRectF]:
        """The scene rectangles of the bars' value labels (for layout checks: they never overlap)."""
        return [item.mapRectToScene(item.boundingRect()) for item in self._value_labels]

    def _bar_at(self, scene_pos: QPointF) -> int:
        if not self._bars or not self.plot.sceneBoundingRect().contains(scene_pos):
            return -1
        point = self.plot.getViewBox().mapSceneToView(scene_pos)
        index = round(point.y())
        if 0 <= index < len(self._bars) and abs(point.y() - index) <= 0.31:
            return index
        return -1

    def _on_plot_hover(self, scene_pos: QPointF) -> None:
        index = self._bar_at(scene_pos)
        if index < 0:
            QToolTip.hideText()
            return
        QToolTip.showText(QCursor.pos(), self.bar_tooltip(index), self.plot)

    def _on_plot_clicked(self, event) -> None:
        index = self._bar_at(event.scenePos())
        if index >= 0:
            self.select_step(index)

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = current.row()
        if not 0 <= row < len(self._bars):
            return
        changed = row != self._selected
        self._selected = row
        self.details.setHtml(self.bar_tooltip(row))
        if changed:
            self._draw_chart()

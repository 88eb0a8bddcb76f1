"""Scenario → Size from Requirements: the project's requirements (edited here, one undo step each), a price book
imported into the project (one undo step), the search (``models.sizing.size``) on the dialog's runner with
progress and cancel, the ranked candidates in a table beside a chart of every evaluated design (cost, or rack
units without a price book, or the vCPUs the ranking compares when every configuration is in the cloud, against
headroom; the Pareto front drawn larger), and a candidate applied to the project as
a new scenario, or two compared side by side (one undo step each)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.labels import field_label
from app.gui.plain_text import escape, plain_tooltip, rich
from app.gui.record_form import NumberEditor, RecordForm
from app.gui.screen_fit import fit_to_screen
from app.gui.tasks import TaskRunner
from models.costing.cloud_prices import PRICE_CURRENCY
from models.present.bom import BTU_PER_W
from models.present.headroom import effective_cell, effective_words, sizer_headroom_cell, sizer_headroom_words
from models.present.resilience import ha_state_label
from models.project import edits
from models.project.model import Requirements

COLUMNS = ("Rank", "Configuration", "Deployment", "Meets", "Cost", "Rack units", "Power (W)", "Heat (BTU/hr)",
           "Effective (TiB)", "Max IOPS @ SLO", "Bound by", "Headroom (grown)", "Why")
"""The candidates table's columns ("Cost" is empty without a price book; "Bound by": what bounds the max IOPS at
the SLO, the first workload's bottleneck)."""

BOUND_TOOLTIP = ("What bounds the max IOPS at the SLO: the part that saturates first as the load grows (the "
                 "first workload's bottleneck, in the same state as the max IOPS).")
"""The "Bound by" header's tooltip."""

SUMMARY_CHARS = 4_000
"""The most characters of the summary above the table: the counts, the ranking rule, the notes and the basis of the
figures (review 57), none cut ("rich" shortens a message to 2,000 by default)."""

BOUND_WIDTH = 280
"""Widest the "Bound by" column is set, px: "controller IOPS bound estimated from the AFF A90 HA pair's published
figure (assumed core counts)" wraps on two or three lines, never cut mid-word (review 57); the cell's tooltip has it
whole."""

EFFECTIVE_TOOLTIP = ("Effective capacity, TiB: usable x the data reduction the workloads state (the figure the "
                     "effective capacity needed is compared with); the usable capacity and the ratio beside it.")
"""The "Effective (TiB)" header's tooltip."""

HEADROOM_TOOLTIP = ("Headroom over the grown targets: how far each workload's target, grown over the horizon, is "
                    "below the IOPS that saturates the design, in percent of the target, the least over the "
                    "workloads. Where the SLO in takeover is required, the same margin in that state (takeover, "
                    "failover or controller failover) follows in brackets. The Performance tab's headroom is at "
                    "today's target.")
"""The "Headroom (grown)" header's tooltip."""


def size_job(state, project, top: int, catalog=None):
    """The search (runs on the runner), reporting progress and stopping when cancelled; ``catalog``: the
    document's base catalog (its file's pinned records), as every evaluation of it uses."""
    from models.sizing import size

    return size(project, top=top, catalog=catalog, progress=state.set_progress,
                cancelled=state.is_interruption_requested)


def size_and_relate_job(state, project, top: int, catalog=None, evaluation=None):
    """The search (:func:`size_job`), then the sentences relating its ranking to the project's active design
    (``models.present.recommendation.relation_lines``, the report's Recommendation sentences), all on the runner:
    ``evaluation``: the window's evaluation of the active scenario when it belongs to the project as it is now
    (else it is evaluated here, as the report does). Returns (result, lines, why): ``why`` says why the lines are
    missing (the design could not be evaluated), else ""."""
    result = size_job(state, project, top, catalog)
    if state.is_interruption_requested():
        return result, [], ""
    from models.design import resolve
    from models.evaluate import evaluate
    from models.present.recommendation import design_evaluation, relation_lines

    try:
        design = resolve(project, project.scenario.name, catalog)
        evaluated = evaluation if evaluation is not None else evaluate(project, design=design)
        evaluated = design_evaluation(project, evaluated, design.catalog)
        return result, relation_lines(project, design.catalog, evaluated, result), ""
    except Exception as exc:  # noqa: BLE001 (the ranking stands; the relation says why it is missing)
        return result, [], str(exc) or type(exc).__name__


def read_prices_job(_state, path: str, project, catalog=None):
    """Read and check a price book CSV against the project's catalog (over the base ``catalog``; runs on the
    runner: the disk)."""
    from models.evaluate import project_catalog
    from models.pricing import read_price_book_file

    return read_price_book_file(path, project_catalog(project, catalog), Path(path).name)


DEPLOYMENT_LABELS = {"on-prem": "On-premises arrays", "hci": "HCI (vSAN)", "cloud": "Cloud"}
"""How the deployments read in the dialog."""

DEPLOYMENT_CELL = {"on-prem": "On-premises", "hci": "HCI (vSAN)", "cloud": "Cloud"}
"""How a candidate's deployment reads in the table."""

HEADROOM_AXIS = "Headroom over the grown targets (%)"
"""The sizer chart's y-axis title."""
HEADROOM_AXIS_SHORT = "Headroom (%)"
"""Its title where the chart is shorter than the long one."""
RACK_UNITS_AXIS = "Rack units (U)"
"""The chart's x axis without a price book (on-premises arrays and HCI clusters)."""

CLOUD_COST_AXIS = f"Cost over the horizon at the providers' published prices ({PRICE_CURRENCY})"
"""The chart's x axis without a price book when every configuration is in the cloud: the ranking's cloud criterion
(``models.sizing.ranking_rule``: in the cloud the lowest total cost over the horizon at the published prices)."""


LABEL_GAP = 0.05
"""Ranked points at one x closer in headroom than this share of the chart's headroom span share one rank label
(their labels would overlap)."""


def rank_label_groups(at: dict[tuple[float, float], list[int]],
                      near: float) -> list[tuple[tuple[float, float], list[int]]]:
    """The ranks at each point (``at``) merged into one label per run of points at one x whose headroom is within
    ``near`` of the run's lowest: (where the label goes, the run's highest point; its ranks in order)."""
    runs: list[tuple[float, float, float, list[int]]] = []  # (x, lowest y, highest y, ranks)
    for (x, y), ranks in sorted(at.items()):
        if runs and runs[-1][0] == x and y - runs[-1][1] <= near:
            runs[-1] = (x, runs[-1][1], y, runs[-1][3] + ranks)
        else:
            runs.append((x, y, y, list(ranks)))
    return [((x, top), sorted(ranks)) for x, _low, top, ranks in runs]


ZERO_TEXTS = {"effective_capacity_bytes": "from the workloads", "max_rack_units": "no limit",
              "max_power_w": "no limit", "budget": "no limit"}
"""What a requirement's 0 shows in the form: the effective capacity needed is then the workloads' data sets, and a
limit of 0 is none (``models.project.model.Requirements``)."""


def chart_x_range(xs: list[float]) -> tuple[float, float] | None:
    """The range to set on an axis (x, or y likewise) when every plotted value is equal (a degenerate axis:
    pyqtgraph would read ticks such as -1e-95, or 123.2142857142857 in steps of 1e-13): one unit, or a tenth of
    the value, either side, never below 0 for a value that is not negative (0 itself: 0 to 1); None when the values
    spread (auto range) or there are none."""
    if not xs or max(xs) > min(xs):
        return None
    x = xs[0]
    pad = max(1.0, abs(x) * 0.1)
    return (max(0.0, x - pad) if x >= 0 else x - pad), x + pad


def whole_tick_step(xs: list[float], ticks: int = 6) -> int | None:
    """The spacing of an axis of whole numbers (rack units): a whole step giving at most about ``ticks`` ticks over
    the values' span and its padding (:func:`chart_x_range`), at least 1; None without values."""
    if not xs:
        return None
    span = chart_x_range(xs)
    low, high = span if span is not None else (min(xs), max(xs))
    return max(1, math.ceil((high - low) / ticks))


def record_name(catalog, record_id: str) -> str:
    """A catalog record's name (its id only when the catalog does not hold it)."""
    record = catalog.find(record_id) if catalog is not None else None
    return record.name if record is not None else record_id


PARTLY_PRICED = "partly priced"
"""The Cost cell's marker on a total over the horizon (and break-even month) that counts only the part of the
hardware the price book prices; its tooltip says what it leaves out (:func:`tco_cell`)."""


def tco_cell(cost: str, tco: float, month: int | None, unpriced: list[str], marker: str = PARTLY_PRICED
             ) -> tuple[str, str]:
    """The sizer's Cost cell ranked on total cost, and its tooltip: ``cost`` (the hardware price cell), then the
    total over the horizon and the month it breaks even with the cheapest cloud option. With ``unpriced`` (the
    names of the parts the price book does not price, of a partly priced on-site design) the total and the month
    count only the priced hardware: the total is the least it can be ("at least"), the month the earliest
    ("no earlier than"; more hardware cost evens later), marked ``marker`` (:data:`PARTLY_PRICED`, or "hardware not
    priced" when the book prices none of it), and the tooltip says, as the "Why" column and ``storplan size`` do,
    that they do not count what the price book does not price."""
    head = f"{cost}; " if cost else ""
    if not unpriced:
        text = head + f"TCO {tco:,.0f}" + (f", even with the cheapest cloud in month {month}"
                                            if month is not None else "")
        return text, text
    text = head + f"TCO at least {tco:,.0f} ({marker})" + (
        f", even with the cheapest cloud no earlier than month {month}" if month is not None else "")
    return text, (f"{text}. {marker.capitalize()}: the total over the horizon"
                  + (" and the break-even month are" if month is not None else " is")
                  + f" not counting what the price book does not price: {', '.join(unpriced)}.")


def configuration_tooltip(candidate) -> str:
    """A candidate's configuration in full, with the other drive variants of the same platform design that meet
    (their effective capacity and headroom over the grown targets), best first."""
    from app.gui.plain_text import MAX_MESSAGE_CHARS

    lines = [candidate.summary]
    if candidate.alternatives:
        lines.append("Also meets with:")
        listed = 0
        room = MAX_MESSAGE_CHARS - len(candidate.summary) - 120  # the tooltip's limit: never cut a line mid-way
        for alt in candidate.alternatives[:TOOLTIP_ALTERNATIVES]:
            words = sizer_headroom_words(alt.headroom_pct, alt.takeover_headroom_pct, alt.takeover_state)
            capacity = effective_words(alt.effective_bytes, alt.usable_bytes, lambda b: f"{b / 2**40:,.2f} TiB")
            line = f"  {alt.variant}: effective {capacity}" + (f", {words}" if words else "")
            room -= len(line) + 1
            if room < 0:
                break
            lines.append(line)
            listed += 1
        if (more := len(candidate.alternatives) - listed) > 0:
            lines.append(f"  ... and {more} more variant{'s' if more > 1 else ''} of this design")
    return "\n".join(lines)


TOOLTIP_ALTERNATIVES = 12
"""Alternatives a configuration tooltip lists (the best ones; a cloud VM can meet with dozens of disk layouts)."""


def _refusal(exc: ValueError) -> str:
    """A refused requirement's message in the user's words (a validation error's first message, without
    pydantic's "Value error, " prefix)."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = str(first.get("msg", exc)).removeprefix("Value error, ")
        return f"{where}: {message}" if where else message
    return str(exc)


def money(value: float | None, currency: str | None) -> str:
    """``127,800 USD``; "" without a price."""
    return f"{value:,.0f} {currency}" if value is not None and currency else ""


class SizerDialog(QDialog):
    """Requirements, price book, search, ranked candidates and their chart, apply or compare (see module).

    Args:
        document: the window's project document; parent: the window; compare: called with two scenario names to
        show them side by side (the window's scenario compare view), or None (no Compare button).
    """

    def __init__(self, document, parent: QWidget | None = None,
                 compare: Callable[[str, str], None] | None = None,
                 evaluation_cache: Callable[[], dict] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Size from requirements")
        fit_to_screen(self, QSize(1280, 760))
        self._document = document
        self._compare = compare
        self._evaluation_cache = evaluation_cache or dict
        self.runner = TaskRunner(self, "sizer")
        self.result = None
        self._searched: tuple = (None, None)  # (project, catalog) of the running search
        self._result_of: tuple = (None, None)  # ... and of ``result``
        self._task = None
        self.choices = self._requirement_choices()
        self.form = RecordForm(Requirements, choices=lambda *_: None,
                               unit_fn=lambda: document.project.settings.capacity_unit,
                               exclude={"running_costs"},  # edited in the results' Cost and carbon tab
                               multi={name: [(DEPLOYMENT_LABELS.get(v, v), v) for v in values]
                                      for name, values in self.choices.items()})
        for name, text in ZERO_TEXTS.items():  # a 0 that means "none" reads as what it means
            self.form.editors[name].entry.zero_text = text
        self.form.sig_field_edited.connect(self._edited)
        self._show_requirements()
        document.sig_project_changed.connect(self._show_requirements)
        document.sig_project_replaced.connect(self._show_requirements)
        self.message = QLabel("The active scenario's workloads, with their targets, SLOs and growth, are the "
                              "performance requirements. Arrays, vSAN clusters and Cloud Volumes ONTAP are searched "
                              "as the deployments allow.")
        self.message.setWordWrap(True)
        self.relation = QLabel()  # the ranking against the project's design, in the report's sentences
        self.relation.setObjectName("sizerRelation")
        self.relation.setWordWrap(True)
        self.relation.setTextFormat(Qt.TextFormat.PlainText)  # read exactly as written, never shortened
        self.relation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.relation_lines: list[str] = []
        # it scrolls when a small screen leaves it less than its lines (the ranked list keeps its rows on view)
        self.relation_scroll = QScrollArea()
        self.relation_scroll.setWidgetResizable(True)
        self.relation_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.relation_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.relation_scroll.setWidget(self.relation)
        self.relation_scroll.setVisible(False)
        self.prices_label = QLabel()
        self.prices_label.setWordWrap(True)
        self.size_button = QPushButton("Size")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.prices_button = QPushButton("Import Price Book…")
        self.apply_button = QPushButton("Apply as new scenario")
        self.apply_button.setEnabled(False)
        self.compare_button = QPushButton("Compare two")
        self.compare_button.setEnabled(False)
        self.compare_button.setVisible(compare is not None)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setVisible(False)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeaderItem(COLUMNS.index("Bound by")).setToolTip(BOUND_TOOLTIP)
        self.table.horizontalHeaderItem(COLUMNS.index("Effective (TiB)")).setToolTip(EFFECTIVE_TOOLTIP)
        self.table.horizontalHeaderItem(COLUMNS.index("Headroom (grown)")).setToolTip(HEADROOM_TOOLTIP)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setWordWrap(True)  # a configuration wraps: its drives are never elided away
        self.table.verticalHeader().hide()
        self.chart = self._make_chart()
        self.chart_note = QLabel()  # what the chart leaves out (cloud options beside on-premises ones), when it does
        self.chart_note.setWordWrap(True)
        self.chart_note.hide()
        for b in (self.size_button, self.cancel_button, self.prices_button, self.apply_button, self.compare_button):
            b.setAutoDefault(False)  # Enter in a requirement field enters the value; it never presses a button
            b.setDefault(False)
        buttons = QHBoxLayout()
        for b in (self.size_button, self.cancel_button, self.apply_button, self.compare_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        prices = QHBoxLayout()
        prices.addWidget(self.prices_button)
        prices.addWidget(self.prices_label, 1)
        # The requirements scroll on a small screen (960 x 540 at 200%); the buttons and the results stay in view,
        # below them, and the line between the two can be dragged.
        top_widget = QWidget()
        top = QHBoxLayout(top_widget)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.form, 1)
        right = QVBoxLayout()
        # the price book first: the search's long message (its ranking rule) below it pushed the button and its
        # note past the requirements' visible height at the opening size (revhelp56 #12b)
        right.addLayout(prices)
        right.addWidget(self.message)
        right.addStretch(1)
        top.addLayout(right, 1)
        self.requirements_scroll = QScrollArea()
        self.requirements_scroll.setWidgetResizable(True)
        self.requirements_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.requirements_scroll.setWidget(top_widget)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        chart_box = QWidget()
        chart_layout = QVBoxLayout(chart_box)
        chart_layout.setContentsMargins(0, 0, 0, 0)
        chart_layout.addWidget(self.chart, 1)
        chart_layout.addWidget(self.chart_note)
        split.addWidget(chart_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 500])
        results = self._results = QWidget()
        below = QVBoxLayout(results)
        below.setContentsMargins(0, 0, 0, 0)
        below.addLayout(buttons)
        below.addWidget(self.progress)
        below.addWidget(split, 1)
        below.addWidget(self.relation_scroll)  # below the list: its lines speak of "the configurations ranked above"
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.requirements_scroll)
        self.splitter.addWidget(results)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter, 1)
        need = top_widget.sizeHint().height()
        top_height = min(need, int(self.height() * 0.45))  # the results keep at least half of a small screen
        self.splitter.setSizes([top_height, max(self.height() - top_height, 1)])
        self.size_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.prices_button.clicked.connect(self._choose_prices)
        self.apply_button.clicked.connect(self.apply_selected)
        self.compare_button.clicked.connect(self.compare_selected)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self._show_prices()

    # --- chart -------------------------------------------------------------------------------------------------

    def _make_chart(self):
        """The cost (or rack units, or cloud vCPUs: :meth:`_chart_axis`) vs headroom chart with its legend in the
        title row (never over a point); pyqtgraph is imported here, when the dialog opens."""
        import pyqtgraph as pg

        from app.gui.results._common import axis_label_style, make_plot, text_color

        plot = make_plot(self)
        plot.setLabel("left", HEADROOM_AXIS, **axis_label_style(self))
        plot.getAxis("left").setToolTip(HEADROOM_AXIS)
        # a short chart (an 800 px screen): the short title, never one cut to "eadroom…" (REVIEW54 #18)
        plot.getViewBox().sigResized.connect(lambda *_: self._fit_headroom_title())
        plot.setLabel("bottom", RACK_UNITS_AXIS, **axis_label_style(self))
        plot.showGrid(x=True, y=True, alpha=0.2)
        item = plot.plotItem
        self.legend = pg.LegendItem(colCount=2, labelTextColor=text_color(self), horSpacing=14)  # fits a narrow chart
        item.layout.removeItem(item.titleLabel)
        item.titleLabel.hide()
        item.layout.addItem(self.legend, 0, 1)
        self.rank_labels: list = []
        return plot

    def _fit_headroom_title(self) -> None:
        """The y-axis title whole: :data:`HEADROOM_AXIS` where the axis is as tall as it, else
        :data:`HEADROOM_AXIS_SHORT` (the axis' tooltip has the long words)."""
        from app.gui.results._common import axis_label_style

        axis = self.chart.getAxis("left")
        long_px = self.fontMetrics().horizontalAdvance(HEADROOM_AXIS) + 8
        title = HEADROOM_AXIS if axis.height() >= long_px else HEADROOM_AXIS_SHORT
        if axis.labelText != title:
            self.chart.setLabel("left", title, **axis_label_style(self))

    def _draw_chart(self) -> None:
        """Every evaluated meeting design as a point, the Pareto front (on every ranking criterion) drawn larger, the
        ranked ones circled and numbered at their points (ranks at one point or at nearly one share one label,
        "1, 2": :func:`rank_label_groups`); the legend names the three. Clicking a ranked point selects its row.
        The x axis is :meth:`_chart_axis`'s."""
        import pyqtgraph as pg

        from app.gui.results._common import axis_label_style, muted_color, series_color

        plot = self.chart
        plot.clear()
        self.legend.clear()
        self.rank_labels = []
        self.chart_note.hide()
        plot.enableAutoRange()
        result = self.result
        if result is None or not result.evaluated:
            return
        label, x_of, note = self._chart_axis(result)
        plot.setLabel("bottom", label, **axis_label_style(self))
        if note:
            self.chart_note.setText(note)
            self.chart_note.show()
        charted = [c for c in result.evaluated if x_of(c) is not None]
        pts = [(x_of(c), c.headroom_pct or 0.0) for c in charted]
        others = pg.ScatterPlotItem([p[0] for p in pts], [p[1] for p in pts], size=7,
                                    brush=pg.mkBrush(muted_color(self)), pen=None)
        plot.addItem(others)
        self.legend.addItem(others, "Designs that meet")
        front = sorted((p for p, c in zip(pts, charted) if c.pareto))
        if front:  # taken on every ranking criterion (power, deployment, vCPUs too): points, not a line on these axes
            curve = plot.plot([p[0] for p in front], [p[1] for p in front], pen=None,
                              symbol="o", symbolSize=11, symbolBrush=series_color(0))
            self.legend.addItem(curve, "Pareto front")
        ranked = pg.ScatterPlotItem(size=16, pen=pg.mkPen(series_color(1), width=2), brush=None)
        spots = [{"pos": (x_of(c), c.headroom_pct or 0.0), "data": i}
                 for i, c in enumerate(result.candidates) if x_of(c) is not None]
        ranked.addPoints(spots)
        ranked.sigClicked.connect(lambda _item, points, _ev: points and self.table.selectRow(points[0].data()))
        plot.addItem(ranked)
        if spots:
            self.legend.addItem(ranked, "Ranked (number: rank)")
        at: dict[tuple[float, float], list[int]] = {}
        for i, c in enumerate(result.candidates):
            if x_of(c) is not None:
                at.setdefault((x_of(c), c.headroom_pct or 0.0), []).append(i + 1)
        xs = [p[0] for p in pts] + [s["pos"][0] for s in spots]
        right = max(xs, default=0.0) if (span := chart_x_range(xs)) is None else None
        ys = [p[1] for p in pts] + [s["pos"][1] for s in spots]
        near = (max(ys) - min(ys)) * LABEL_GAP if ys else 0.0
        for (x, y), ranks in rank_label_groups(at, near):  # right of its point; left of the rightmost ones, so the
            # chart's edge never cuts it
            text = pg.TextItem(", ".join(str(r) for r in ranks), color=series_color(1),
                               anchor=(1.2, 1.1) if x == right else (-0.2, 1.1))
            text.setPos(x, y)
            plot.addItem(text)
            self.rank_labels.append(text)
        if span is not None:
            plot.setXRange(*span)  # every point at one x: a range around it, not pyqtgraph's -1e-95 ticks
        if (y_span := chart_x_range(ys)) is not None:
            plot.setYRange(*y_span)  # ... and at one headroom: not ticks 1e-13 apart, "123.2142857142857"
        step = whole_tick_step(xs) if label == RACK_UNITS_AXIS else None
        if step is not None:  # rack units are whole: ticks at whole units, never "2.5" (review 57)
            plot.getAxis("bottom").setTickSpacing(step, step)
        else:
            plot.getAxis("bottom").setTickSpacing()  # another axis (cost): pyqtgraph's own ticks

    def _chart_axis(self, result) -> tuple[str, Callable, str]:
        """The chart's x axis: (its label, a candidate's x or None when it is not charted, a note on what is left
        out or ""). With a price book the cost of the designs it prices in full (one with an unpriced part has an
        incomplete cost: listed, not charted); without, rack units, the ranking's footprint criterion, when any
        configuration is on-premises or HCI (the cloud ones are then listed, not charted: they take no rack units),
        else, every one in the cloud, the vCPUs the ranking compares there."""
        if result.currency is not None:
            def priced(c) -> float | None:
                return None if c.cost is None or c.unpriced else float(c.cost)

            ranks = [i + 1 for i, c in enumerate(result.candidates) if priced(c) is None]
            others = sum(1 for c in result.evaluated if priced(c) is None)
            note = ""
            if others or ranks:
                note = (f"{others:,} design{'s' if others != 1 else ''} the price book does not price in full "
                        f"(cost incomplete): listed, not charted"
                        + (f" (rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))} in the table)."
                           if ranks else "."))
            return f"Cost ({result.currency})", priced, note
        every = (*result.evaluated, *result.candidates)
        if any(c.deployment != "cloud" for c in every):
            ranks = [i + 1 for i, c in enumerate(result.candidates) if c.deployment == "cloud"]
            note = ("Cloud options take no rack units: they are listed, not charted"
                    + (f" (rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))} in the table)."
                       if ranks else ".") if any(c.deployment == "cloud" for c in every) else "")
            return RACK_UNITS_AXIS, (lambda c: None if c.deployment == "cloud" else float(c.rack_units)), note
        def listed(c) -> float | None:  # the ranking's cloud cost: its total at the published prices
            return c.listed_cost if c.listed_cost is not None and math.isfinite(c.listed_cost) else None

        ranks = [i + 1 for i, c in enumerate(result.candidates) if listed(c) is None]
        note = (f"Rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))}: a part without a published "
                "price (cost unknown), listed, not charted." if ranks else "")
        return CLOUD_COST_AXIS, listed, note

    # --- requirements and prices ---------------------------------------------------------------------------------

    def _requirement_choices(self) -> dict[str, list[str]]:
        """The valid families, protocols and deployments of the project's catalog (empty lists when the project's
        own records do not load: the search then says why)."""
        from models.catalog import CatalogError
        from models.evaluate import project_catalog
        from models.sizing import requirement_choices

        try:
            return requirement_choices(project_catalog(self._document.project))
        except CatalogError:
            return {"families": [], "protocols": [], "deployments": []}

    def _show_requirements(self) -> None:
        """Show the project's requirements (after an edit, undo, redo or revert), and what is wrong with a value
        the project holds that the catalog does not know."""
        requirements = self._document.project.requirements
        if self.form.record != requirements:
            self.form.set_record(requirements)
        state = ha_state_label(requirements)  # what the checkbox judges, in the searched platforms' word
        label = self.form.label_for("meet_slo_in_takeover")
        if label is not None:
            label.setText(f"Meet SLO in {state or 'takeover'}:")
        checkbox = self.form.editors["meet_slo_in_takeover"]
        checkbox.setEnabled(bool(state))
        checkbox.setToolTip("" if state else "No searched deployment has an HA pair: a vSAN cluster answers with "
                                             "N plus (hosts that may fail), a managed service's HA is the provider's.")
        for name in ("families", "protocols"):
            valid = self.choices.get(name) or []
            unknown = [v for v in getattr(requirements, name) if valid and v not in valid]
            self.form.editors[name].set_problems(
                [("error", f"{', '.join(repr(v) for v in unknown)} is not in the catalog, so it matches no "
                           f"design; uncheck it")] if unknown else [])

    def _edited(self, field: str, value) -> None:
        """A requirement changed in the form: one undo step on the project, or the refusal shown on the field (the
        field shows the project's value again)."""
        doc = self._document
        try:
            project = edits.set_requirement(doc.project, field, value, self.choices)
        except ValueError as exc:
            editor = self.form.editors[field]
            if not isinstance(editor, NumberEditor):
                editor.set_value(getattr(doc.project.requirements, field))
            self.form.show_error(field, _refusal(exc))
            return
        self.form.show_error(field, None)
        doc.push(project, f"Change requirement {field_label(field).lower()}")
        self._show_requirements()

    def _show_prices(self) -> None:
        """Say which price book the project holds."""
        book = self._document.project.price_book
        tco = self._document.project.requirements.rank_on == "tco"
        from models.ranking_words import ranking_steps

        rule = ranking_steps(bool(book), "tco" if tco else "performance")
        self.prices_label.setText(f"Price book: {len(book)} prices in {book[0].currency}; candidates rank by {rule}."
                                  if book else f"No price book: candidates rank by {rule}.")

    def _choose_prices(self) -> None:
        """Ask for a CSV, then :meth:`import_prices`."""
        path, _ = QFileDialog.getOpenFileName(self, "Import price book", "", "Price book (*.csv);;All files (*)")
        if path:
            self.import_prices(path)

    def import_prices(self, path: str) -> None:
        """Read the CSV on the runner; when it is valid the project stores its rows (one undo step), else the
        message names the line and column."""
        self.prices_label.setText(f"Reading {Path(path).name}…")
        self.runner.submit(read_prices_job, path, self._document.project, self._document.base_catalog,
                           name="read price book", on_done=self._prices_read)

    def _prices_read(self, ok: bool, rows) -> None:
        """Store the price book (one undo step) or show why it was refused."""
        if not ok:
            self.prices_label.setText(f"<span style='color:#c0392b'>Price book refused: {escape(str(rows))}</span>")
            return
        doc = self._document
        doc.push(edits.set_price_book(doc.project, rows), f"Import price book ({len(rows)} prices)")
        self._show_prices()

    # --- search --------------------------------------------------------------------------------------------------

    def run(self) -> None:
        """Search on the runner with progress; the table and chart fill when it is done."""
        self.size_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.message.setText("Searching…")
        self._show_prices()
        project = self._document.project
        self._searched = (project, self._document.base_catalog)
        evaluation = (self._evaluation_cache() or {}).get(project.scenario.name)  # the window's, of this project
        self._task = self.runner.submit(size_and_relate_job, project, 10, self._document.base_catalog, evaluation,
                                        name="size", on_done=self._done,
                                        on_progress=lambda f: self.progress.setValue(int(100 * f)))

    def result_for(self, project, catalog):
        """The search's result when it was run on exactly this ``project`` and ``catalog`` (the report shows it
        instead of searching again), else None."""
        if self.result is not None and self._result_of[0] is project and self._result_of[1] is catalog:
            return self.result
        return None

    def cancel(self) -> None:
        """Stop the search; the table keeps what it showed."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._idle()
        self.message.setText("Search cancelled.")

    def _idle(self) -> None:
        """Buttons and progress back to rest."""
        self.size_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)

    def _done(self, ok: bool, outcome) -> None:
        """Fill the table with the ranked candidates (or the nearest failing ones), say how they stand against the
        project's design (:meth:`_show_relation`) and draw the chart."""
        self._task = None
        self._idle()
        if not ok:
            self.message.setText(f"<span style='color:#c0392b'>The search failed: {escape(str(outcome))}</span>")
            return
        from models.sizing import basis_note, ranking_rule, takeover_assumed, tie_words

        result, lines, why = outcome
        self.result = result
        self._show_relation(lines, why)
        self._result_of = self._searched
        rows = result.candidates or result.nearest
        need = result.needed_effective_bytes / 2**40
        needed = f"{need:,.2f} TiB effective needed" if need > 0 else "effective capacity needed unknown (none stated)"
        notes = "".join(f" Note: {n}." for n in result.notes)
        self.message.setText(rich(f"{result.considered:,} designs considered"
                             + (" (capped by max_candidates)" if result.capped else "")
                             + f"; {needed}. "
                             + (f"{len(result.candidates)} meet the requirements, best first; "
                                f"{len(result.evaluated)} evaluated in full (chart). "
                                + ranking_rule(result.currency is not None,
                                               self._result_of[0].requirements.rank_on) + "."
                                if result.candidates else
                                "None meets them: the nearest (the least short first), with what they miss."
                                if result.nearest else "None meets them, and no design was tried (see the note).")
                             + notes
                             + (f" Basis: {basis}." if (basis := basis_note(result.candidates)) else ""),
                                  limit=SUMMARY_CHARS))
        self.table.setRowCount(len(rows))
        catalog = self._catalog()
        from models.costing.inputs import running_inputs as _running

        project_of = self._result_of[0]
        horizon = (_running(project_of.requirements.running_costs, project_of.requirements.horizon_months)
                   .horizon_months if project_of is not None else 36)
        for r, c in enumerate(rows):
            cost = ("not priced" if c.unpriced and not c.cost else  # nothing of it in the book: not "0 EUR"
                    money(c.cost, result.currency) + (" + unpriced parts" if c.unpriced else ""))
            if c.listed_cost is not None:  # a cloud design ranked on its total at the published prices
                listed = ("no published price for a part" if not math.isfinite(c.listed_cost) else
                          f"{c.listed_cost:,.0f} {PRICE_CURRENCY} over {horizon} months at published prices")
                cost = f"{cost}; {listed}" if cost else listed
            even = ""
            unpriced = [record_name(catalog, u) for u in c.unpriced]
            partly = bool(c.unpriced) and c.deployment != "cloud"  # a partial (or no) hardware price in the total
            cost_tip = cost
            if c.tco is not None:  # ranked on total cost: the total over the horizon and the break-even month
                cost, cost_tip = tco_cell(cost, c.tco, c.break_even_month, unpriced if partly else [],
                                          PARTLY_PRICED if c.cost else "hardware not priced")
                project = self._result_of[0]
                if project is not None:  # the break-even in words (and, unpriced, the hardware price that evens)
                    from models.costing.inputs import running_inputs
                    from models.present.cost import candidate_break_even

                    inputs = running_inputs(project.requirements.running_costs, project.requirements.horizon_months)
                    even = candidate_break_even(c.deployment, c.tco, c.break_even_month, bool(project.price_book),
                                                unpriced, result.cheapest_cloud, inputs.horizon_months,
                                                inputs.support_pct_per_year.value,
                                                result.currency or "USD")["break_even"]
            why = "; ".join(c.reasons) or "meets every requirement"
            if project_of is not None and (assumed := takeover_assumed(c, project_of.requirements)):
                why += f" ({assumed})"  # a managed service's takeover: not modelled, said so (review 56)
            if c.basis:  # an estimate, or a pessimistic case below the target: said in the row (review 57)
                why = (c.basis if not c.reasons and "pessimistic case" in c.basis  # not "meets every requirement"
                       else f"{why}; {c.basis}")
            if c.ties:  # designs tied on every criterion are one row (models.sizing.fold_ties)
                why += f"; {tie_words(c)}"
            if c.unpriced:
                why += f" (no price for {', '.join(unpriced)})"
            if even:
                why += f"; break-even: {even}"
            cells = [str(r + 1) + (" ★" if c.pareto else ""), c.summary,
                     DEPLOYMENT_CELL.get(c.deployment, c.deployment), "yes" if c.meets else "no",
                     cost, str(c.rack_units) if c.deployment != "cloud" else "—",
                     f"{c.power_w:,.0f}" if c.power_w else "n/a",
                     f"{c.power_w * BTU_PER_W:,.0f}" if c.power_w else "n/a",
                     effective_cell(c.effective_bytes, c.usable_bytes, lambda b: f"{b / 2**40:,.2f}"),
                     f"{c.max_iops_at_slo:,.0f}" if c.max_iops_at_slo else "—",
                     c.bound if c.max_iops_at_slo and c.bound else "—",
                     sizer_headroom_cell(c.headroom_pct, c.takeover_headroom_pct, state=c.takeover_state), why]
            for k, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(text if k != 0 or not c.pareto else "on the Pareto front"))
                if k == COLUMNS.index("Cost"):
                    item.setToolTip(plain_tooltip(cost_tip))
                elif k == COLUMNS.index("Configuration"):
                    item.setToolTip(plain_tooltip(configuration_tooltip(c)))
                elif k == COLUMNS.index("Effective (TiB)"):
                    item.setToolTip(plain_tooltip("effective " + effective_words(
                        c.effective_bytes, c.usable_bytes, lambda b: f"{b / 2**40:,.2f} TiB")))
                elif k == COLUMNS.index("Max IOPS @ SLO") and c.max_iops_at_slo and c.bound:
                    item.setToolTip(plain_tooltip(f"{text} IOPS at the SLO, bound by the {c.bound}"))
                self.table.setItem(r, k, item)
        self.table.setColumnHidden(COLUMNS.index("Cost"), result.currency is None)
        self.table.resizeColumnsToContents()
        for col, widest in ((COLUMNS.index("Configuration"), 360), (COLUMNS.index("Bound by"), BOUND_WIDTH),
                            (COLUMNS.index("Why"), 320)):
            self.table.setColumnWidth(col, min(self.table.columnWidth(col), widest))  # wrapped; the tooltip has all
        self.table.resizeRowsToContents()
        self._draw_chart()

    def _show_relation(self, lines: list[str], why: str) -> None:
        """The ranking against the project's active design, in the report's Recommendation sentences
        (``models.present.recommendation.relation_lines``, told against the first ranked five as the report's
        table), or why they are missing."""
        from models.present.recommendation import RANKED_SHOWN

        self.relation_lines = list(lines)
        if lines:
            head = (f"Against this project's design (the report's Recommendation, with its first {RANKED_SHOWN} "
                    "ranked):")
            self.relation.setText(head + "\n" + "\n".join(lines))
        elif why:
            self.relation.setText(f"This project's design is not placed in the ranking: it could not be evaluated "
                                  f"({why}).")
        self.relation_scroll.setVisible(bool(lines or why))
        self._fit_relation()

    def _fit_relation(self) -> None:
        """The relation's lines as tall as their text (at 1366 x 768 every line is on view), at most a fifth of the
        dialog and at least three lines (then they scroll)."""
        need = self.relation.heightForWidth(max(self._results.width(), 200)) + 2
        three = 3 * self.relation.fontMetrics().lineSpacing() + 2
        self.relation_scroll.setMaximumHeight(min(need, max(three, self.height() // 5)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """The relation's height follows the dialog's width and height."""
        super().resizeEvent(event)
        if self.relation_scroll.isVisible():
            self._fit_relation()

    def _catalog(self):
        """The project's catalog (for record names), or None when its own records do not load."""
        from models.catalog import CatalogError
        from models.evaluate import project_catalog

        try:
            return project_catalog(self._document.project, self._document.base_catalog)
        except CatalogError:
            return None

    # --- apply and compare ---------------------------------------------------------------------------------------

    def _selected_all(self) -> list:
        """The candidates of the selected rows, in table order."""
        if self.result is None or self.table.selectionModel() is None:
            return []
        pool = self.result.candidates or self.result.nearest
        rows = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [pool[r] for r in rows if r < len(pool)]

    def _selected(self):
        """The candidate of the first selected row (None without one)."""
        chosen = self._selected_all()
        return chosen[0] if chosen else None

    def _selection_changed(self) -> None:
        """Apply needs one row, Compare two."""
        n = len(self._selected_all())
        self.apply_button.setEnabled(n == 1)
        self.compare_button.setEnabled(n == 2)

    def _add_scenarios(self, candidates, text: str) -> list[str]:
        """Add the candidates as new scenarios in one undo step (the last one active); their names."""
        doc = self._document
        project, names = doc.project, []
        for candidate in candidates:
            project, name = edits.add_scenario(project, candidate.scenario, f"Sized: {candidate.summary.split(',')[0]}")
            names.append(name)
        doc.push(project, text.format(names="', '".join(names)))
        return names

    def apply_selected(self) -> str | None:
        """Add the selected candidate to the project as a new, active scenario (one undo step); its name."""
        candidate = self._selected()
        if candidate is None:
            return None
        (name,) = self._add_scenarios([candidate], "Apply sized configuration as '{names}'")
        self.message.setText(f"Added scenario '{name}'. Undo removes it.")
        return name

    def compare_selected(self) -> tuple[str, str] | None:
        """Add the two selected candidates as scenarios (one undo step) and compare them side by side."""
        chosen = self._selected_all()
        if len(chosen) != 2 or self._compare is None:
            return None
        a, b = self._add_scenarios(chosen, "Apply sized configurations '{names}' to compare")
        self._compare(a, b)
        self.message.setText(f"Comparing '{a}' with '{b}' (the Compare tab). Undo removes both scenarios.")
        return a, b

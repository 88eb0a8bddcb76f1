"""Latency-vs-IOPS curves per workload with the SLO, the operating point, the saturation point and the max IOPS
under the SLO; utilisation per component for the selected workload; a summary row per workload, and the
verdicts of ``models.present`` under it.

One module although it is long: one widget whose chart, utilisation bars and table show the same selected
workload and share its axes' scaling (the long part is pyqtgraph layout: log axes, label fitting, export)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyqtgraph as pg
import pyqtgraph.exporters
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainterPathStroker, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.plain_text import plain_tooltip
from app.gui.results._common import (
    FAIL,
    NOT_AVAILABLE,
    NOT_MET,
    PASS,
    SATURATED,
    WARNING,
    ProblemsBanner,
    StaleBanner,
    ask_export_plot,
    base_color,
    export_plot,
    finite,
    fit_legend_columns,
    fmt_iops,
    fmt_mbps,
    fmt_ms,
    html_escape,
    icon,
    make_latency_plot,
    make_plot,
    max_text_width,
    muted_color,
    problem_messages,
    remember_splitter,
    series_color,
    stacked_result_layout,
    state_color,
    text_color,
    tint,
    verdict_html,
    verdict_label,
)
from app.gui.results.station_label import station_label
from models.formatting import fmt_latency_tails
from models.present import profile_kind_text, target_cell
from models.present.charts import (
    BAND_WORDS,
    MARGIN,
    BandOutline,
    band_legend,
    band_outline,
    latency_axes,
    slo_off_chart_text,
    target_saturates,
    target_shortfall,
)
from models.present.citations import workload_notes
from models.present.concurrency import (
    HEADROOM_BASIS,
    HEADROOM_HEADER,
    headroom_cell,
    max_iops_with_reach,
    reach_words,
)
from models.present.explain import FIGURES, explain_figure, explain_station
from models.present.iops_bound import (
    bottleneck_words,
    iops_bound_words,
    knee_words,
    slo_capped_words,
    station_words,
)
from models.present.resilience import (
    compact_runway,
    compact_states,
    requirement_short,
    runway_lines,
    runway_lines_with_dr_copies,
    state_label,
    state_saturation_words,
    state_verdict,
)
from models.present.summary import no_profile_key
from models.present.uncertainty import saturation_label
from models.present.verdicts import CAUTION, profile_kinds_legend, workload_verdict_pair
from models.units import CapacityUnit
from models.verdict import PROVIDER_HA

PROVIDER_HA_SHORT = "SLO in takeover: the provider's HA, assumed (not modelled)"
"""The Resilience line's mark of a managed service's takeover requirement (``models.verdict.PROVIDER_HA``): taken
as met, not checked (review 56), so neither a tick nor silence; the tooltip gives the sentence."""

if TYPE_CHECKING:
    from models.evaluate import Evaluation, Resilience
    from models.performance.results import CurvePoint, WorkloadPerformance


def _n_plus(text: str) -> str:
    """The "N+k" a requirement check's sentence names ("N+1" when it names none)."""
    import re

    found = re.search(r"N\+\d+", text)
    return found.group(0) if found else "N+1"


EMPTY_MESSAGE = "Add a workload assigned to a controller, cluster or VM to see performance"
CAPACITY_ONLY_MESSAGE = ("The workloads are capacity-only (the imported files carry no I/O figures): Workloads > "
                         "Apply preset gives them a load")
"""Shown instead of :data:`EMPTY_MESSAGE` when the scenario's workloads store data but none carries a load (an
RVTools or Azure Migrate import; review 55 #8: "Add a workload" beside two assigned workloads)."""


NOT_EVALUATED_MESSAGE = "No workload's performance can be evaluated; why:"
"""Shown when the enabled workloads with a load could not be evaluated (``ScenarioPerformance.unserved``: the hosts
reach none of their targets, or reach them over no common protocol), each workload's reason below it."""


def empty_message(evaluation: Evaluation) -> str:
    """What the empty Performance tab says: :data:`NOT_EVALUATED_MESSAGE` when workloads with a load could not be
    evaluated (no path from their hosts); :data:`CAPACITY_ONLY_MESSAGE` when the enabled workloads hold data (the
    capacity engine counts some) but none is predicted and no workload failed (only capacity-only workloads carry
    no performance), else :data:`EMPTY_MESSAGE`."""
    capacity, performance = evaluation.capacity, evaluation.performance
    if performance is not None and performance.unserved:
        return NOT_EVALUATED_MESSAGE
    stored = capacity is not None and capacity.total.logical_used_bytes > 0
    if stored and performance is not None and not performance.workloads and not performance.problems:
        return CAPACITY_ONLY_MESSAGE
    return EMPTY_MESSAGE
NO_TARGET = "no target"
MAX_BARS = 8
MIN_PLOT_HEIGHT = 260
"""The latency chart never gets shorter than this (px)."""
PLOT_CURVES_HEIGHT = 160
"""The latency chart's height without its legend rows: with a legend the chart is at least this plus the legend."""
SUMMARY_ROWS = 4
"""The summary table shows up to this many workload rows before it scrolls."""
SUMMARY_TEXT_MIN_LINES = 2
"""The verdict, caution and bad-day lines under the table keep at least this many lines of room; where the results
are too short for all of them they scroll inside their own area instead of squeezing the chart above (at 1366 x
768 the chart was cut to 236 of its 260 px, the IOPS axis lost)."""
SUMMARY_TEXT_HINT_LINES = 8
SUMMARY_WRAPPED_HEADERS = {"Max IOPS @ SLO": "Max IOPS\n@ SLO", "Ramp peak": "Ramp\npeak",
                           "Latency @ target": "Latency\n@ target"}
"""The summary table's headers on two lines where its columns are wider than the table on one (1366 px)."""
SUMMARY_ELIDED_COLUMNS = {"Bottleneck": 12, "Workload": 18}
"""The summary columns cut short, with "…", where the table is still too wide (names, never numbers: each cell's
tooltip names them whole), in this order, each down to about this many characters: the bottleneck first, the
workload's name keeps enough to be read (at 1366 px the MetroCluster example's "SLOB 75% SELECT …" read "SLO…" beside
the SLO column while the bottleneck kept its whole name: review 57 #8)."""
LATENCY_SHORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""The "Latency @ target" cell's text without its p95 and p99 (the mean alone), shown where the table has no room
for them (they stay in the cell's tooltip)."""
LATENCY_WHOLE_ROLE = Qt.ItemDataRole.UserRole + 2
"""The "Latency @ target" cell's whole text, its mean with the p95 and p99 (shown where the table has room)."""
"""The text lines' area asks for at most this many lines (more scroll)."""
MIN_BARS = 3
CSV_FIELDS = ("workload_id", "workload", "iops", "latency_ms", "mbps", "host_latency_ms", "population")


LEGEND_SMALLER_PT = 1.5
"""The latency chart's legend text is this many points below the window's font (not while presenting)."""
LEGEND_ROW_SPACING = -6
"""Pixels between the legend's rows: negative, since each row is as tall as its 20-pixel sample plus its label's
margins (26 px a row at 0) while the line a sample draws is 2 px."""
ONE_WORKLOAD_LEGEND_CHARS = 18
"""With one workload its curve's legend entry is cut to this many characters: its name is in full in the workload
selector just above the chart and in the table below it (34 made the legend's first column so wide that the nine
entries took five rows, half the chart at 1366x768: REVIEW45 #4)."""
MAX_IOPS_LABEL = "max IOPS @ SLO"
"""The legend's words for the max-IOPS-within-the-SLO marker (the table's column name)."""
LABEL_GAP = 2.0
"""Pixels a saturation label keeps clear of another label, a curve or a marker (two labels never touch)."""
LABEL_OVERLAP_COST = 100
"""What covering another saturation label counts for when no place is free, in covered curves or markers: a label
may cross a curve where it must, never lie over another workload's label."""
STATE_SATURATION_REACH = 50.0
"""A failure state's curve that ends at its saturation below the SLO goes on vertically to this many times the
higher of its SLO and its last latency: through the chart's top, as the main curve does (the axis never reaches
it: ``latency_axes`` tops at a little above the SLO)."""
OFF_CHART_REACH = 2.5
"""A mark the chart must show beside ``latency_axes``'s (the p99 at the operating point, a failure state's point at
the target) up to this multiple of the axis's top raises the axis to it; one above is named by an arrow at the top
edge (the knee stays readable): on the A90 the p99 line was wholly above the chart and the FAS70's drive-rebuild
point at 21.7 ms was off a 0-11.2 ms axis, with nothing saying so (revperf57 #3, #4)."""
Y_CAP_SLO_FACTOR = 5.0
"""The latency axis never reaches above this multiple of the highest SLO (or of a latency at a target, if higher):
a workload saturated by another's load ramps to 1,397 ms on a 1 ms SLO, and a 1,500 ms axis left every other curve
flat at 0 (review 57 #2); what is above is named by an arrow at the top edge."""
P99_EARLY_EXIT = 0.9
"""A p99 line leaving the chart's top at less than this share of the IOPS where its mean curve does gets an arrow
there (the mean curve leaving near saturation is the saturation line's to say): one rule for every chart (review 57
#12: the A90's p99 had an arrow, the FAS70's and the ANF's, leaving at ~36K and ~27K, had none)."""
LABEL_STEP = 3
"""Pixels between two chart labels stacked by the label pass (:meth:`PerformanceView._place_labels`)."""
BAND_LABEL = BAND_WORDS
"""The legend's words for the uncertainty band (its tooltip and the table say what P10 and P90 are)."""


def _legend_name(name: str, limit: int = 34) -> str:
    """A workload name short enough for the legend row (the full name is in the selector and the table)."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def _slo_text(workload) -> str:
    """The SLO in words for a tooltip: "1 ms SLO" or "1 ms p99 SLO" (what it bounds)."""
    return f"{workload.slo_ms:g} ms{' p99' if workload.slo_statistic == 'p99' else ''} SLO"


def latency_tails_text(workload) -> str:
    """The p95 and p99 of the I/O latency at a workload's target, as the "Latency @ target" cell adds them to the
    mean: "p95 0.26, p99 0.34" (ms, as the mean beside them; review 57 #3: the CLI and the report gave them, the
    screen never did); "" without a target or where it saturates."""
    tails = [(name, value) for name, value in (("p95", workload.latency_p95_at_target_ms),
                                               ("p99", workload.latency_p99_at_target_ms)) if finite(value)]
    if workload.target_iops is None or not finite(workload.latency_at_target_ms) or not tails:
        return ""
    return ", ".join(f"{name} {fmt_ms(value).removesuffix(' ms')}" for name, value in tails)


RATE_CAP_ROLES = frozenset({"iops_bound", "vm_disk_iops", "vm_disk_mbps", "disk_iops", "disk_mbps", "nvram_log_iops",
                            "nvram_log_mbps", "service_iops", "service_mbps", "service_ops"})
"""Station roles that are a published rate cap (``models.performance.stations``): an "up to" IOPS figure, a cloud
disk's or VM's or a managed service's published limit, modelled as a ceiling rather than a queue measured on the
system."""
SERVICE_FAILOVER_WORDS = "failover is handled inside the service (not modelled)"
"""The "Bad day" line of a workload on a managed service, which has no failure state of its own (review 57 #14: the
line was missing, as if nothing could fail)."""


def rate_cap_flat(workload) -> bool:
    """Whether a workload's bottleneck is a published rate cap (:data:`RATE_CAP_ROLES`) and its curve is flat up to
    it (the engine's ``knee_note``): the chart shows the latency flat, then vertical at the cap, a shape no queue
    measured on the system gave (review 57 #2: "2.4M IOPS at 0.15 ms on 24 SSDs")."""
    station = workload.bottleneck_station
    return (station is not None and station.ident.role in RATE_CAP_ROLES and bool(workload.knee_note)
            and finite(workload.saturation_iops) and workload.saturation_iops > 0)


def rate_cap_details(workload) -> str:
    """The rate cap's caution in whole: whose cap it is and the engine's curve-shape note, as the report's chart
    caption gives it."""
    bound = iops_bound_words(workload)
    return (f"{workload.name}: the bottleneck, {bottleneck_words(workload)}, is a published rate cap"
            + (f" ({bound})" if bound else "") + f". Curve shape: {knee_words(workload)}. The published figure "
            "gives the ceiling, not the latency near it: how the latency rises close to the cap is not modelled.")


def operating_latency(workload) -> float | None:
    """Latency at the operating point: the target's (None when it saturates), else the curve's."""
    if workload.target_iops is not None:
        return workload.latency_at_target_ms
    return workload.latency_on_curve_ms(workload.operating_iops)




class _ChartsSplitter(QSplitter):
    """The latency and utilisation charts side by side, asking for no more height than their minimum: the body's
    layout then gives the table and the text lines under them their height first and the charts the rest (a
    short results dock no longer squeezes the lines into scrolling while the charts sit above their minimum)."""

    def sizeHint(self):  # noqa: N802
        hint = super().sizeHint()
        hint.setHeight(self.minimumSizeHint().height())
        return hint


class _TextsScroll(QScrollArea):
    """The text lines under the table: asks for the height of its lines (its maximum, see
    ``PerformanceView._fit_texts_height``; a scroll area's own hint ignores word-wrapped lines), scrolls below it."""

    def sizeHint(self):  # noqa: N802
        hint = super().sizeHint()
        # never more than a few lines: the hint reaches the main window's dock layout (a narrow first layout
        # wraps the lines into dozens)
        hint.setHeight(min(self.maximumHeight(), SUMMARY_TEXT_HINT_LINES * self.fontMetrics().lineSpacing()))
        return hint

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Qt's resize (``event``), then, while the lines scroll, the area shows whole lines only: the part of a
        line that would show cut in half at the bottom (the "Bad day" line at 1366 x 768, REVIEW54 #14) is left
        blank, and the scroll bar brings the line in whole."""
        super().resizeEvent(event)  # (a scroll area's resizeEvent is its viewport's: the area's own size is read)
        self._whole_lines()

    def _whole_lines(self) -> None:
        inner = self.widget()
        line = self.fontMetrics().lineSpacing()
        height = self.height() - 2 * self.frameWidth()
        extra = 0
        if inner is not None and line > 0 and inner.heightForWidth(max(self.viewport().width(), 1)) > height:
            extra = height % line
        if self.viewportMargins().bottom() != extra:
            self.setViewportMargins(0, 0, 0, extra)


PROFILE_TOOLTIP = ("How the controller's performance profile behind this row's figures was obtained: "
                   + profile_kinds_legend() + ".")
"""The Profile column's tooltip: the kinds in the one set of words (``models.present.verdicts.PROFILE_KIND_MEANINGS``,
the catalog browser's legend, the verdicts and the report's profile row say them in)."""


def merged_verdicts(verdicts: Sequence[Any]) -> list[Any]:
    """The verdict lines with identical ones shown once: a line of the same kind and words for several subjects is
    one line naming them all ("A, B: controller failover ..."), a repeated identical line is dropped (review 57 GUI
    #10: two identical ⚠ lines pushed the Bad day and Runway lines out of view)."""
    order: list[tuple[Any, str, bool]] = []
    subjects: dict[tuple[Any, str, bool], list[str]] = {}
    first: dict[tuple[Any, str, bool], Any] = {}
    for v in verdicts:
        key = (v.kind, v.text, bool(getattr(v, "lead", False)))
        if key not in subjects:
            order.append(key)
            subjects[key] = []
            first[key] = v
        if v.subject not in subjects[key]:
            subjects[key].append(v.subject)
    out = []
    for key in order:
        names = subjects[key]
        v = first[key]
        out.append(v if len(names) == 1 else replace(v, subject=", ".join(n for n in names if n)))
    return out


class PerformanceView(QWidget):
    """The performance results of one scenario.

    Signals:
        sig_workload_selected(str): the user chose a workload (its id) in the selector.
        sig_component_activated(str): the user clicked a utilisation bar; the argument is the canvas node id of
            that station's component (never emitted for the model's own delays, which have none).
    """

    sig_workload_selected = Signal(str)
    """The user chose this workload id in the workload selector."""
    sig_component_activated = Signal(str)
    """The user clicked the utilisation bar of a station belonging to this canvas node id."""

    SUMMARY_COLUMNS = ("Workload", "Protocol", "SLO", "Saturation", "Max IOPS @ SLO", "Profile", "Ramp peak",
                       "Target", "Latency @ target", "Bottleneck", "Headroom")
    SUMMARY_TOOLTIPS = {
        "Saturation": "IOPS at which the bottleneck reaches 100% (the asymptote of the curve).",
        "Max IOPS @ SLO": "The most IOPS whose storage latency stays within the SLO. Where the workload's "
                          "outstanding I/Os end the ramp inside the SLO, the open model carries on: more "
                          "concurrent I/O gives more IOPS, up to the SLO (dash-dotted part of the curve); "
                          "where the workload's stated outstanding I/Os reach fewer, Ramp peak is what they reach "
                          "(the cell's tooltip names both).",
        "Ramp peak": "IOPS and storage latency at the end of the closed ramp, i.e. with the workload's own number "
                     "of outstanding I/Os (users): what a benchmark ramp reports as its peak.",
        "Headroom": f"{HEADROOM_HEADER}: how far today's target is below saturation, as a percentage of the target: "
                         f"{HEADROOM_BASIS} (the sizer's headroom is over the target grown over the horizon).",
        "Profile": PROFILE_TOOLTIP,
    }

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._evaluation: Evaluation | None = None
        self._workloads: tuple = ()
        self._log_x = False
        self._log_y = False
        self._curve_items: dict[str, pg.PlotDataItem] = {}
        self._open_items: dict[str, pg.PlotDataItem] = {}
        self._band_items: dict[str, tuple[pg.PlotDataItem, pg.PlotDataItem, pg.FillBetweenItem]] = {}
        self._state_items: dict[str, dict[str, pg.PlotDataItem]] = {}
        self._state_markers: dict[str, dict[str, pg.PlotDataItem]] = {}
        self._legend_states: set[str] = set()
        self._hidden_states: set[str] = set()
        """The failure states hidden by a click on their legend entry: they stay hidden when the chart is redrawn."""
        self._edge_marks: list = []
        """The chart's edge marks (arrows and labels of marks off the chart, a target beyond it) and, for the
        saturation labels to avoid, the scene rects of their labels (``_edge_rects``)."""
        self._edge_rects: list[QRectF] = []
        self._edge_labels: list[tuple[pg.TextItem, float, float, float]] = []
        """Each edge mark's label with where it wants to be: (label, view x, view y, horizontal anchor); the label
        pass (:meth:`_place_labels`) stacks it down from there clear of every other label."""
        self._legend_name_key: tuple | None = None  # what the curve's legend name was last fitted to
        self._slo_lines: dict[str, pg.InfiniteLine] = {}
        self._saturation_lines: dict[str, pg.InfiniteLine] = {}
        self._operating_items: dict[str, pg.PlotDataItem] = {}
        self._max_slo_items: dict[str, pg.PlotDataItem] = {}
        self._p99_items: dict[str, pg.PlotDataItem] = {}
        self._drawn_key: tuple | None = None
        """What decides the chart's items (see :meth:`_chart_key`): the same key again updates them in place."""
        self._util_stations: list = []
        self._util_item: pg.BarGraphItem | None = None
        self._util_labels: list[tuple[float, str]] = []
        self._util_value_items: list[pg.TextItem] = []
        self._util_limit = MAX_BARS
        self._util_elide_px = 0
        self._util_two_lines = False
        self._util_short = False
        self._cross_v = self._cross_h = self._cross_dot = pg.InfiniteLine()
        self._slo_note = pg.TextItem("", color=muted_color(self), anchor=(0, 0), fill=tint(base_color(self), 210))
        # an SLO far above the chart: an arrow up at the top edge beside its note (the report marks it alike)
        self._slo_arrow = pg.ArrowItem(angle=90, headLen=12, tailLen=10, tailWidth=2, pen=None,
                                       brush=pg.mkBrush(muted_color(self)))
        self.axes = None  # the LatencyAxes of the chart shown (models.present.charts.latency_axes)
        self.readout_point: tuple[str, object] | None = None  # (workload name, CurvePoint) under the crosshair
        self.readout_state = ""  # the failure state whose curve that point is on, in words ("" for the normal one)

        self.banner = StaleBanner(self)

        # Toolbar
        self.workload_combo = QComboBox()
        self.workload_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.workload_combo.currentIndexChanged.connect(self._on_workload_changed)
        self.log_x_check = QCheckBox("Log IOPS")
        self.log_y_check = QCheckBox("Log latency")
        self.log_x_check.setToolTip("Logarithmic IOPS axis on the latency chart: each step of the axis is ten times "
                                    "the last, so the light-load part of the curve is spread out")
        self.log_y_check.setToolTip("Logarithmic latency axis on the latency chart: each step of the axis is ten "
                                    "times the last, so a low latency and one near saturation show on one chart")
        self.log_x_check.toggled.connect(self.set_log_x)
        self.log_y_check.toggled.connect(self.set_log_y)
        self.export_png_button = QToolButton()
        self.export_png_button.setText("Image")
        self.export_png_button.setToolTip("Export the latency or the utilisation chart as a PNG image or an SVG "
                                          "drawing")
        export_menu = QMenu(self.export_png_button)
        export_menu.addAction("Latency chart…", self._ask_export_png)
        export_menu.addAction("Utilisation chart…",
                              lambda: ask_export_plot(self, self.util_plot, "utilisation chart", "utilisation.png"))
        self.export_png_button.setMenu(export_menu)
        self.export_png_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.export_csv_button = QToolButton()
        self.export_csv_button.setText("CSV")
        self.export_csv_button.setToolTip("Export the curve points as CSV")
        for button, name in ((self.export_png_button, "mdi6.image-outline"),
                             (self.export_csv_button, "mdi6.file-delimited-outline")):
            button.setIcon(icon(name, text_color(self)))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.export_png_button.clicked.connect(self._ask_export_png)
        self.export_csv_button.clicked.connect(self._ask_export_csv)
        self.readout = QLabel()
        self.readout.setMinimumWidth(max_text_width(self, ["SQL Server OLTP · 000K IOPS · 00.00 ms · 0,000 MB/s"]))
        self.readout.setTextFormat(Qt.TextFormat.RichText)
        # its width is the toolbar's room, never its text's (_show_readout fits the text to it)
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        toolbar = QHBoxLayout()
        toolbar.addWidget(QLabel("Workload"))
        toolbar.addWidget(self.workload_combo)
        toolbar.addSpacing(12)
        toolbar.addWidget(self.readout, 1)
        toolbar.addWidget(self.log_x_check)
        toolbar.addWidget(self.log_y_check)
        toolbar.addSpacing(8)
        toolbar.addWidget(self.export_png_button)
        toolbar.addWidget(self.export_csv_button)

        # Latency chart
        self.plot, self.legend = make_latency_plot(self)
        # compact on a laptop (REVIEW45 #4): the legend's text a little smaller than the window's, so its entries
        # pack into two or three rows and the curves keep most of the chart (presenting sets its own size)
        self.legend.setLabelTextSize(f"{max(self.font().pointSizeF() - LEGEND_SMALLER_PT, 7.0):.1f}pt")
        self.legend.layout.setVerticalSpacing(LEGEND_ROW_SPACING)
        # the legend (a row above the plot, never over it) takes as many columns as the width holds: no entry clipped
        self._plot_floor = MIN_PLOT_HEIGHT
        self.plot.getViewBox().sigResized.connect(lambda *_: self._fit_legend())
        # the saturation labels move to where no curve is whenever the chart's scale changes (size, range, log axes)
        self.plot.getViewBox().sigTransformChanged.connect(lambda *_: self._place_labels())
        self._mouse_proxy = pg.SignalProxy(self.plot.scene().sigMouseMoved, rateLimit=30,
                                           slot=self._on_mouse_moved)

        # Utilisation chart
        self.util_title = QLabel()
        self.util_title.setWordWrap(True)
        self.util_plot = make_plot(self)
        self.util_plot.setMouseEnabled(x=False, y=False)
        self.util_plot.hideButtons()
        self.util_plot.getViewBox().invertY(True)
        self.util_plot.getAxis("left").setStyle(tickLength=0)
        self.util_plot.getAxis("bottom").setTicks([[(v, f"{v}%") for v in (0, 25, 50, 75, 100)]])
        self.util_plot.showGrid(x=True, y=False, alpha=0.15)
        self.util_plot.scene().sigMouseClicked.connect(self._on_util_clicked)
        self.util_plot.getViewBox().sigResized.connect(self._fit_util_range)
        util_box = QWidget()
        util_layout = QVBoxLayout(util_box)
        util_layout.setContentsMargins(0, 0, 0, 0)
        util_layout.addWidget(self.util_title)
        util_layout.addWidget(self.util_plot, 1)

        # Summary table
        self.summary_model = QStandardItemModel(0, len(self.SUMMARY_COLUMNS), self)
        self.summary_model.setHorizontalHeaderLabels(list(self.SUMMARY_COLUMNS))
        for k, name in enumerate(self.SUMMARY_COLUMNS):
            if name in self.SUMMARY_TOOLTIPS:
                self.summary_model.horizontalHeaderItem(k).setToolTip(self.SUMMARY_TOOLTIPS[name])
        self.summary_table = QTableView()
        self.summary_table.setModel(self.summary_model)
        self.summary_table.clicked.connect(lambda index: self.explain_cell(index.row(), index.column()))
        self.explanation: QDialog | None = None
        self.summary_table.verticalHeader().hide()
        self.summary_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.summary_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.summary_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.summary_table.setWordWrap(False)
        self.summary_table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        head = self.summary_table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.summary_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.summary_table.installEventFilter(self)
        self.plot.installEventFilter(self)  # the mouse leaving the latency chart clears its readout
        self.summary_table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._select_row(current.row()))

        # The chart stays readable: never shorter than MIN_PLOT_HEIGHT; the summary table takes only the rows
        # it has (up to SUMMARY_ROWS, then it scrolls).
        self.plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        # the title above it may take four lines (a target beyond saturation adds a red three-line note): the box
        # of both fits the latency chart's height, so the axis's "50% 100%" is never cut off (review 57 #10)
        self.util_plot.setMinimumHeight(MIN_PLOT_HEIGHT - 60 - 4 * self.fontMetrics().lineSpacing())
        self.summary_table.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustIgnored)
        charts = _ChartsSplitter(Qt.Orientation.Horizontal)
        charts.setObjectName("performanceCharts")
        charts.addWidget(self.plot)
        charts.addWidget(util_box)
        charts.setStretchFactor(0, 3)
        charts.setStretchFactor(1, 2)
        charts.setSizes([700, 420])
        charts.setChildrenCollapsible(False)
        self.charts_splitter = charts
        remember_splitter(charts, "results/performance_charts")
        self.body = QWidget()
        body_layout = QVBoxLayout(self.body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        body_layout.setSpacing(2)
        body_layout.addWidget(charts, 1)
        body_layout.addWidget(self.summary_table)
        # The text lines under the table scroll in their own area (at most as tall as they are, at least
        # SUMMARY_TEXT_MIN_LINES): a word-wrapped label's minimum height ignores its wrapped lines, so in the body's
        # layout they took the chart's room below its minimum instead (see _fit_texts_height).
        self.summary_texts = QWidget()
        texts_layout = QVBoxLayout(self.summary_texts)
        texts_layout.setContentsMargins(0, 0, 0, 0)
        texts_layout.setSpacing(0)  # the lines' own leading parts them
        # The verdicts (models.present.verdicts): meets / misses the SLO per workload, then the cautions.
        self.verdict_label = verdict_label("performanceVerdicts")
        texts_layout.addWidget(self.verdict_label)
        self.cautions_label = verdict_label("cautionsLabel")
        texts_layout.addWidget(self.cautions_label)
        # a bottleneck that is a published rate cap: the flat-then-vertical curve said in words (rate_cap_flat)
        self.rate_cap_label = verdict_label("rateCapLabel")
        texts_layout.addWidget(self.rate_cap_label)
        # the bad day (models.present.resilience): each failure state's verdict, then the runway
        self.resilience_label = verdict_label("resilienceLabel")
        self.resilience_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                      | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.resilience_label.linkActivated.connect(lambda _href: self.show_runway())
        texts_layout.addWidget(self.resilience_label)
        texts_layout.addStretch(1)
        self.summary_scroll = _TextsScroll()
        self.summary_scroll.setObjectName("performanceSummaryScroll")
        self.summary_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.summary_scroll.setWidgetResizable(True)
        self.summary_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.summary_scroll.setWidget(self.summary_texts)
        body_layout.addWidget(self.summary_scroll)
        self.runway_dialog = None
        self._fit_summary_height()

        self.stack, self.message = stacked_result_layout(self, self.banner, toolbar, self.body,
                                                         EMPTY_MESSAGE)
        self.problems_banner = ProblemsBanner(self)
        self.layout().insertWidget(1, self.problems_banner)
        # a laptop's results dock is short: 2 px above and below instead of 6 (and 2 px between the body's parts)
        # leave the text lines under the table their last line at 1366 x 768
        margins = self.layout().contentsMargins()
        self.layout().setContentsMargins(margins.left(), 2, margins.right(), 2)

    # ------------------------------------------------------------------------------------------------ public API

    @property
    def workloads(self) -> tuple:
        """The WorkloadPerformance records shown."""
        return self._workloads

    @Slot(object, object)
    def set_evaluation(self, evaluation: Evaluation | None,
                       capacity_unit: CapacityUnit | str = CapacityUnit.TIB) -> None:
        """Show an evaluation's performance (the unit is unused here); a missing result shows the problem."""
        self.clear_readout()  # it read a point of the curves replaced
        self._evaluation = evaluation
        performance = evaluation.performance if evaluation is not None else None
        if performance is None:
            messages = problem_messages(evaluation, "performance") if evaluation is not None else []
            if messages:
                self.message.show_message("Performance could not be computed", messages)
            else:
                self.message.show_message(EMPTY_MESSAGE)
            self.stack.setCurrentWidget(self.message)
            self._workloads = ()
            return
        self._workloads = tuple(performance.workloads)
        if not self._workloads:
            details = [f"{name}: {why}" for _id, name, why in performance.unserved]
            self.message.show_message(empty_message(evaluation), details or [str(p) for p in performance.problems])
            self.stack.setCurrentWidget(self.message)
            return
        self.stack.setCurrentIndex(0)
        previous = self.workload_combo.currentData()
        self.workload_combo.blockSignals(True)
        self.workload_combo.clear()
        for index, workload in enumerate(self._workloads):
            self.workload_combo.addItem(icon("mdi6.circle", series_color(index)), workload.name,
                                        workload.workload_id)
        found = self.workload_combo.findData(previous)
        self.workload_combo.setCurrentIndex(max(found, 0))
        self.workload_combo.blockSignals(False)
        self._draw_curves()
        self._draw_utilisation()
        self._fill_summary()

    def set_presenting(self, on: bool, font: QFont | None = None) -> None:
        """Presentation mode (``app.gui.presentation``): the latency chart gets at least half the screen's height
        (the results scroll when that is more than they have) and the legend's text the presenting ``font``'s
        size; off: the normal minimum height again (the legend's size is restored by the presentation)."""
        screen = self.screen().availableGeometry().height() if self.screen() is not None else 768
        self._plot_floor = max(MIN_PLOT_HEIGHT, int(screen * 0.5)) if on else MIN_PLOT_HEIGHT
        # presenting, the latency chart takes the whole width (its legend in columns) with the utilisation below it
        splitter = self.charts_splitter
        if on and splitter.orientation() == Qt.Orientation.Horizontal:
            self._splitter_sizes = splitter.sizes()
            splitter.setOrientation(Qt.Orientation.Vertical)
        elif not on and splitter.orientation() == Qt.Orientation.Vertical:
            splitter.setOrientation(Qt.Orientation.Horizontal)
            if getattr(self, "_splitter_sizes", None):
                splitter.setSizes(self._splitter_sizes)
        if on and font is not None:
            self.legend.setLabelTextSize(f"{font.pointSizeF():.1f}pt")
        self._fit_legend()

    def _fit_legend(self) -> None:
        """The legend's columns for the plot's width, and the plot's minimum height: its floor for the curves
        plus the legend's rows above them (the legend never eats into the curves' room)."""
        self._fit_curve_legend_name()
        fit_legend_columns(self.plot, self.legend)
        legend_height = int(self.legend.boundingRect().height()) if self.legend.items else 0
        wanted = max(self._plot_floor, self._plot_floor - MIN_PLOT_HEIGHT + PLOT_CURVES_HEIGHT + legend_height)
        if self.plot.minimumHeight() != wanted:
            self.plot.setMinimumHeight(wanted)

    def _fit_curve_legend_name(self) -> None:
        """With one workload, its curve's legend entry as long as the legend allows: the whole name (or one cut at
        34 characters) where the legend then takes no more rows than with the name cut to
        ``ONE_WORKLOAD_LEGEND_CHARS`` (the laptop's cut; at 1920 x 1080 the name was cut with room to spare:
        revperf57 #14)."""
        if len(self._workloads) != 1 or not self.legend.items:
            return
        workload = self._workloads[0]
        curve = self._curve_items.get(workload.workload_id)
        label = next((label for sample, label in self.legend.items if sample.item is curve), None)
        key = (self.plot.width(), workload.name, len(self.legend.items), label.opts.get("size") if label else None)
        if label is None or key == self._legend_name_key:
            return
        self._legend_name_key = key
        names = list(dict.fromkeys((_legend_name(workload.name, ONE_WORKLOAD_LEGEND_CHARS),
                                    workload.name, _legend_name(workload.name, 34))))

        def rows(name: str) -> int:
            if label.text != name:
                label.setText(name)
            return -(-len(self.legend.items) // fit_legend_columns(self.plot, self.legend))

        fewest = rows(names[0])
        if not any(rows(name) <= fewest for name in names[1:]):
            rows(names[0])

    @Slot(object)
    def set_design_errors(self, messages) -> None:
        """Show the red "the design has errors" banner for these problem messages (none: hidden)."""
        self.problems_banner.set_errors(list(messages))

    @Slot(bool, str)
    def set_stale(self, stale: bool, message: str = "") -> None:
        """Show or hide the "Results out of date" banner; the last good result stays on screen."""
        self.banner.set_stale(stale, message)

    @Slot(bool)
    def set_log_x(self, on: bool) -> None:
        """Logarithmic IOPS axis."""
        self._log_x = bool(on)
        if self.log_x_check.isChecked() != self._log_x:
            self.log_x_check.setChecked(self._log_x)
        self._draw_curves()

    @Slot(bool)
    def set_log_y(self, on: bool) -> None:
        """Logarithmic latency axis."""
        self._log_y = bool(on)
        if self.log_y_check.isChecked() != self._log_y:
            self.log_y_check.setChecked(self._log_y)
        self._draw_curves()

    def select_workload(self, workload_id: str) -> None:
        """Show the workload with this id (curves, utilisation, selected table row); unknown ids are ignored."""
        index = self.workload_combo.findData(workload_id)
        if index < 0:
            raise KeyError(workload_id)
        self.workload_combo.setCurrentIndex(index)

    def selected_workload(self) -> WorkloadPerformance | None:
        """The ``WorkloadPerformance`` shown, or None before a result."""
        return self._workloads[self.workload_combo.currentIndex()] if self._workloads else None

    def curve_item(self, workload_id: str) -> pg.PlotDataItem:
        """The latency curve item of a workload (for tests and export)."""
        return self._curve_items[workload_id]

    def slo_line(self, workload_id: str) -> pg.InfiniteLine:
        """The SLO line of a workload's chart."""
        return self._slo_lines[workload_id]

    def saturation_line(self, workload_id: str) -> pg.InfiniteLine:
        """The saturation line of a workload's chart."""
        return self._saturation_lines[workload_id]

    def utilisation_bars(self) -> list[tuple[str, float, bool]]:
        """(station name, utilisation %, highlighted as the bottleneck) in display order (busiest first)."""
        workload = self.selected_workload()
        return [(s.name, s.utilization * 100, s.name == workload.bottleneck) for s in self._util_stations]

    def utilisation_axis_labels(self) -> list[str]:
        """The station names as the utilisation axis draws them, in display order (shortened to fit)."""
        levels = self.util_plot.getAxis("left")._tickLevels or [[]]
        return [text for _pos, text in levels[0]]

    def export_png(self, path: str | Path, scale: float = 2.0) -> None:
        """Write the latency chart as a PNG (``scale`` x its on-screen size, for slides), or as an SVG drawing
        when ``path`` ends in ``.svg`` (Qt's SVG generator paints the chart as vector paths, for documents;
        pyqtgraph's own SVG exporter cannot parse the paths Qt 6.11 writes)."""
        if str(path).lower().endswith(".svg"):
            export_plot(self.plot, path, "StorPlan latency chart")
            return
        crosshair = [item for item in (self._cross_v, self._cross_h, self._cross_dot) if item.isVisible()]
        for item in crosshair:
            item.setVisible(False)
        try:
            export_plot(self.plot, path, "StorPlan latency chart", scale)
        finally:
            for item in crosshair:
                item.setVisible(True)

    def export_utilisation(self, path: str | Path, scale: float = 2.0) -> None:
        """Write the utilisation chart (the selected workload's stations at its operating point) as a PNG, or
        an SVG drawing when ``path`` ends in ``.svg``."""
        export_plot(self.util_plot, path, "StorPlan utilisation chart", scale)

    def open_curve_item(self, workload_id: str) -> pg.PlotDataItem | None:
        """The dash-dotted open-model continuation of a workload's curve, if it has one."""
        return self._open_items.get(workload_id)

    def export_csv(self, path: str | Path) -> None:
        """Write every workload's curve points as CSV (empty cells where a value is not modelled or not finite),
        atomically (``models.atomic``; a new file's mode is ``0o666 & ~umask``). Names pass
        ``models.present.workbook.csv_text``: one a spreadsheet would read as a formula gets the ``'`` prefix.

        Raises:
            OSError: the file cannot be written (any file at ``path`` is unchanged).
        """
        from models.atomic import write_text_atomic
        from models.present.workbook import csv_text

        def number(value: float | None) -> str:
            return "" if value is None or not math.isfinite(value) else repr(float(value))

        handle = io.StringIO(newline="")
        writer = csv.writer(handle)
        writer.writerow(CSV_FIELDS)
        for workload in self._workloads:
            for point in workload.curve:
                writer.writerow([
                    csv_text(workload.workload_id), csv_text(workload.name), number(point.iops),
                    number(point.latency_ms), number(point.mbps), number(point.host_latency_ms),
                    "" if point.population is None else point.population,
                ])
        write_text_atomic(path, handle.getvalue())

    # -------------------------------------------------------------------------------------------------- internals

    def _tx(self, value: float) -> float:
        return math.log10(value) if self._log_x else value

    def _ty(self, value: float) -> float:
        return math.log10(value) if self._log_y else value

    def _chart_key(self) -> tuple:
        """Everything that decides which items the latency chart has and how they look (not where they are): axes,
        colours, the selected workload and per workload its id, name, SLO and which markers it has."""
        selected = self.selected_workload()
        return (self._log_x, self._log_y, base_color(self).name(), text_color(self).name(), muted_color(self).name(),
                selected.workload_id if selected is not None else None, len(self._workloads),
                tuple((w.workload_id, w.name, w.slo_ms, w.slo_statistic, len(self._p99_xy(w)[0]) >= 2,
                       bool(self._open_points(w)),
                       finite(w.saturation_iops) and w.saturation_iops > 0, w.max_iops_at_slo_point is not None,
                       self._operating_point(w) is not None, len(self._band_xy(w)[0]) >= 2, self.band_words(w))
                      for w in self._workloads),
                self._state_names())

    def _state_names(self) -> tuple:
        """(workload id, failure state ids) for every workload with states: which state curves are drawn."""
        resilience = self._resilience()
        if resilience is None:
            return ()
        return tuple((w.workload_id, tuple((s.state, self._state_target_point(s) is not None)
                                           for s in resilience.states.get(w.workload_id, ())))
                     for w in self._workloads)

    def _curve_points(self, workload) -> list:
        return [p for p in workload.curve if (p.iops > 0 or not self._log_x) and (p.latency_ms > 0 or not self._log_y)]

    def _resilience(self) -> Resilience | None:
        """The failure states and runway of the evaluation shown (None without them or without an evaluation)."""
        return self._evaluation.resilience if self._evaluation is not None else None

    def _open_points(self, workload: WorkloadPerformance) -> list[CurvePoint]:
        return [p for p in workload.open_curve if p.latency_ms > 0 or not self._log_y]

    @staticmethod
    def _operating_point(workload) -> tuple[float, float] | None:
        op_latency = operating_latency(workload)
        if workload.target_iops is not None and op_latency is not None and workload.operating_iops > 0:
            return (workload.operating_iops, op_latency)
        return None

    def _p99_xy(self, workload) -> tuple[list[float], list[float]]:
        """The p99 latency's (IOPS, ms) along the drawn curve and its open continuation, up to its first saturated
        point (``CurvePoint.latency_p99_ms`` None)."""
        xs, ys = [], []
        for p in (*self._curve_points(workload), *self._open_points(workload)):
            y = p.latency_p99_ms
            if y is None or (self._log_y and y <= 0):
                break
            xs.append(p.iops)
            ys.append(y)
        return xs, ys

    def p99_item(self, workload_id: str) -> pg.PlotDataItem | None:
        """The drawn p99 curve of a workload (None when it has none)."""
        return self._p99_items.get(workload_id)

    def _band_outline(self, workload) -> BandOutline:
        """The uncertainty band as drawn, by the rule the report's chart follows too
        (``models.present.charts.band_outline``: on a mean SLO it ends where its pessimistic edge meets the SLO,
        REVIEW54 #7); on a p99 SLO its upper edge is clipped at twice the highest drawn latency."""
        points = [*self._curve_points(workload), *self._open_points(workload)]
        return band_outline(workload, points, positive=self._log_y)

    def _band_xy(self, workload) -> tuple[list[float], list[float], list[float]]:
        """The uncertainty band's (IOPS, P10, P90) as drawn (:meth:`_band_outline`)."""
        outline = self._band_outline(workload)
        return list(outline.iops), list(outline.p10_ms), list(outline.p90_ms)

    def band_words(self, workload) -> str:
        """The band's legend words for one workload: "SLO P10–P90: 609K–1.60M" (the range of max IOPS
        at the SLO) where it ends at the SLO before the curve does, "uncertainty (P10–P90)" where it follows the
        curve, and
        ": none drawn: ..." where its pessimistic edge is above the SLO from the start
        (``models.present.charts.band_legend``, the report's legend's rule in the compact legend's short words)."""
        return band_legend(BAND_LABEL, workload, self._band_outline(workload), short=True)

    def _state_xy(self, state) -> tuple[list[float], list[float]]:
        """A failure state's curve as drawn: its ramp and open continuation and, where the state saturates at a
        hard bound (a takeover's HA pair IOPS bound: the curve ends at saturation well below the SLO), a vertical
        on at its saturation to far above the chart, as the main curve rises there: it ended in a short tick and
        looked as if it never reached the SLO (REVIEW54 #4)."""
        wp = state.performance
        points = [p for p in (*wp.curve, *wp.open_curve) if (p.iops > 0 or not self._log_x)
                  and (p.latency_ms > 0 or not self._log_y)]
        xs, ys = [p.iops for p in points], [p.latency_ms for p in points]
        sat = wp.saturation_iops
        if points and finite(sat) and sat > 0 and xs[-1] >= sat * 0.995:
            top = STATE_SATURATION_REACH * max(wp.slo_ms, max(ys))
            if ys[-1] < top:
                xs.append(xs[-1])
                ys.append(top)
        return xs, ys

    def _draw_states(self, plot, workload, color) -> None:
        """Each failure state's curve of a workload, dotted in the state's own colour (one colour per state, so
        takeover and drive rebuild never look alike), named in the legend (clicking a legend entry hides or
        shows it)."""
        resilience = self._resilience()
        if resilience is None:
            return
        styles = (Qt.PenStyle.DotLine, Qt.PenStyle.DashDotDotLine)
        several = len(self._workloads) > 1
        for i, state in enumerate(resilience.states.get(workload.workload_id, ())):
            xs, ys = self._state_xy(state)
            if len(xs) < 2:
                continue
            state_pen = pg.mkPen(state_color(state.state), width=1.6, style=styles[i % 2])
            item = pg.PlotDataItem(xs, ys, pen=state_pen)
            item.setZValue(8)
            item.setToolTip(plain_tooltip(self._state_tooltip(workload, state)))
            plot.addItem(item)
            item.setVisible(state.state not in self._hidden_states)
            item.visibleChanged.connect(lambda name=state.state, curve=item: self._show_state(name, curve.isVisible()))
            # one legend entry per state (REVIEW54 #13): with several workloads each state's curves share the
            # state's colour, and a second workload's curve of the same state adds no row
            if not several or state.state not in self._legend_states:
                self.legend.addItem(item, _legend_name(state_label(state)))
                self._legend_states.add(state.state)
            self._state_items.setdefault(workload.workload_id, {})[state.state] = item
            at_target = self._state_target_point(state)
            if at_target is not None:
                # the state's latency at the target, the figure the "Bad day" line gives (REVIEW54 #3): the
                # dotted line is the state's ramp, whose reading at the target may differ (see _state_tooltip)
                marker = pg.PlotDataItem([at_target[0]], [at_target[1]], pen=None, symbol="o", symbolSize=8,
                                         symbolBrush=pg.mkBrush(self.palette().base().color()),
                                         symbolPen=pg.mkPen(state_color(state.state), width=2))
                marker.setZValue(19)
                marker.setToolTip(plain_tooltip(self._state_tooltip(workload, state)))
                marker.setVisible(item.isVisible())
                plot.addItem(marker)
                self._state_markers.setdefault(workload.workload_id, {})[state.state] = marker

    def _show_state(self, state: str, shown: bool) -> None:
        """A failure state's curve was shown or hidden (its legend entry clicked): every workload's curve of that
        state and its point at the target follow, and the choice outlives a redraw (a point stayed without its
        curve and a hidden state came back with Log latency: revperf57 #7)."""
        if shown == (state not in self._hidden_states):
            return  # already so (the other curves of the state, set below, report it too)
        if shown:
            self._hidden_states.discard(state)
        else:
            self._hidden_states.add(state)
        for store in (self._state_items, self._state_markers):
            for items in store.values():
                if state in items:
                    items[state].setVisible(shown)
        self._fit_range()

    @staticmethod
    def _state_target_point(state) -> tuple[float, float] | None:
        """(target IOPS, the state's latency there) as the "Bad day" line gives it; None without a target or where
        the state saturates at the target."""
        wp = state.performance
        if wp.target_iops is None or not finite(wp.latency_at_target_ms) or wp.operating_iops <= 0:
            return None
        return (wp.target_iops, wp.latency_at_target_ms)

    def _state_tooltip(self, workload, state) -> str:
        """What a failure state's curve and its point at the target show, in words."""
        wp = state.performance
        text = f"{workload.name} in {state_label(state)}: {state.reason}."
        at = self._state_target_point(state)
        if at is not None:
            text += (f" At the target ({fmt_iops(at[0])} IOPS) the latency is {fmt_ms(at[1])} (the circle: every "
                     "workload's target load together, as the Bad day line gives it).")
            on_curve = wp.latency_on_curve_ms(at[0])
            if finite(on_curve) and abs(on_curve - at[1]) > 0.03 * at[1]:
                text += (f" The line is this workload's own ramp with the failure's extra load as a fixed "
                         f"slowdown: it reads {fmt_ms(on_curve)} there.")
        if finite(wp.saturation_iops):  # a clamp figure where the other load alone fills it: said in words
            sat = state_saturation_words(state)
            text += f" {sat[0].upper()}{sat[1:]} in this state." if sat.startswith("saturated") else \
                f" Saturation in this state: {sat}."
        return text

    def state_marker_item(self, workload_id: str, state: str) -> pg.PlotDataItem | None:
        """The drawn point of a workload's failure state at its target (None when not drawn)."""
        return self._state_markers.get(workload_id, {}).get(state)

    def state_curve_item(self, workload_id: str, state: str) -> pg.PlotDataItem | None:
        """The drawn curve of a workload in a failure state (None when not drawn)."""
        return self._state_items.get(workload_id, {}).get(state)

    def band_item(self, workload_id: str) -> pg.FillBetweenItem | None:
        """The shaded uncertainty band of a workload's curve (None when it has none)."""
        entry = self._band_items.get(workload_id)
        return entry[2] if entry else None

    def _open_tooltip(self, workload, points) -> str:
        return plain_tooltip(f"{workload.name}: open model (offered IOPS) beyond the ramp of "
                             f"{points[-1].population if points and points[-1].population else 'N'} outstanding I/Os")

    def _update_curves(self) -> None:
        """New figures on the items already drawn (same workloads, markers and look: see :meth:`_chart_key`).
        Rebuilding a 10-workload chart's ~70 pyqtgraph items takes ~150 ms; moving them a few ms."""
        for workload in self._workloads:
            wid = workload.workload_id
            points = self._curve_points(workload)
            self._curve_items[wid].setData([p.iops for p in points], [p.latency_ms for p in points])
            extension = self._open_points(workload)
            if extension:
                last = points[-1] if points else extension[0]
                open_item = self._open_items[wid]
                open_item.setData([last.iops, *(p.iops for p in extension)],
                                  [last.latency_ms, *(p.latency_ms for p in extension)])
                open_item.setToolTip(self._open_tooltip(workload, points))
            resilience = self._resilience()
            for state in (resilience.states.get(wid, ()) if resilience is not None else ()):
                item = self.state_curve_item(wid, state.state)
                if item is not None:
                    item.setData(*self._state_xy(state))
                    item.setToolTip(plain_tooltip(self._state_tooltip(workload, state)))
                marker = self.state_marker_item(wid, state.state)
                at_target = self._state_target_point(state)
                if marker is not None and at_target is not None:
                    marker.setData([at_target[0]], [at_target[1]])
                    marker.setToolTip(plain_tooltip(self._state_tooltip(workload, state)))
            p99 = self._p99_items.get(wid)
            if p99 is not None:
                p99.setData(*self._p99_xy(workload))
            band = self._band_items.get(wid)
            if band is not None:
                xs, lo, hi = self._band_xy(workload)
                band[0].setData(xs, lo)
                band[1].setData(xs, hi)
            sat = self._saturation_lines.get(wid)
            if sat is not None:
                sat.setPos(self._tx(workload.saturation_iops))
                sat.label.setFormat(saturation_label(workload))  # with its P10-P90 band (review 57)
            marker = self._max_slo_items.get(wid)
            if marker is not None:
                slo_point = workload.max_iops_at_slo_point
                marker.setData([slo_point[0]], [slo_point[1]])
                marker.setToolTip(plain_tooltip(f"{workload.name}: max {fmt_iops(workload.max_iops_at_slo)} IOPS "
                                                f"within the {_slo_text(workload)}"))
            point = self._operating_items.get(wid)
            if point is not None:
                x, y = self._operating_point(workload)
                point.setData([x], [y])
        for item in (self._cross_v, self._cross_h, self._cross_dot):
            item.setVisible(False)  # it marked a point of the old curves
        for item in (self._slo_note, self._slo_arrow):
            if item.scene() is not None:
                self.plot.removeItem(item)
        self._fit_range()

    def _draw_curves(self) -> None:
        key = self._chart_key()
        if self._workloads and key == self._drawn_key and self._curve_items:
            self._update_curves()
            return
        self._drawn_key = key if self._workloads else None
        plot = self.plot
        plot.clear()
        self.legend.clear()
        self._legend_states.clear()
        self._legend_name_key = None
        for store in (self._curve_items, self._open_items, self._band_items, self._state_items, self._state_markers,
                      self._slo_lines,
                      self._saturation_lines,
                      self._operating_items, self._max_slo_items, self._p99_items):
            store.clear()
        if not self._workloads:
            return
        plot.setLogMode(x=self._log_x, y=self._log_y)
        base = base_color(self)
        selected = self.selected_workload()
        band_words: list[str] = []
        for index, workload in enumerate(self._workloads):
            color = series_color(index)
            width = 3 if workload is selected and len(self._workloads) > 1 else 2
            points = [p for p in workload.curve if (p.iops > 0 or not self._log_x) and (p.latency_ms > 0 or
                                                                                       not self._log_y)]
            curve = pg.PlotDataItem([p.iops for p in points], [p.latency_ms for p in points],
                                    pen=pg.mkPen(color, width=width), name=workload.name)
            curve.setZValue(10 + (workload is selected))
            plot.addItem(curve)
            self.legend.addItem(curve, _legend_name(workload.name, ONE_WORKLOAD_LEGEND_CHARS
                                                    if len(self._workloads) == 1 else 34))
            self._curve_items[workload.workload_id] = curve
            extension = [p for p in workload.open_curve if p.latency_ms > 0 or not self._log_y]
            if extension:  # the open model beyond the ramp's outstanding I/Os, up towards saturation
                last = points[-1] if points else extension[0]
                open_item = pg.PlotDataItem([last.iops, *(p.iops for p in extension)],
                                            [last.latency_ms, *(p.latency_ms for p in extension)],
                                            pen=pg.mkPen(color, width=max(width - 0.5, 1.5),
                                                         style=Qt.PenStyle.DashDotLine))
                open_item.setToolTip(self._open_tooltip(workload, points))
                open_item.setZValue(9)
                plot.addItem(open_item)
                self._open_items[workload.workload_id] = open_item
            p99_x, p99_y = self._p99_xy(workload)
            if len(p99_x) >= 2:  # the 99th percentile of the I/O latency, beside the mean, in a lighter solid line
                p99_color = QColor(color)
                p99_color.setAlpha(150)
                p99 = pg.PlotDataItem(p99_x, p99_y, pen=pg.mkPen(p99_color, width=max(width - 0.5, 1.5)))
                p99.setZValue(7)
                p99.setToolTip(plain_tooltip(f"{workload.name}: 99th percentile of the I/O latency (1 I/O in 100 "
                                             "takes longer), from the response-time distribution of the path's "
                                             "queues"))
                plot.addItem(p99)
                # "p99" is each curve's lighter line: one legend row however many workloads (REVIEW54 #13: one row
                # per workload took half the chart at 1366 x 768; the tooltip names the workload)
                if not self._p99_items:
                    self.legend.addItem(p99, "p99" if len(self._workloads) == 1 else "p99 (lighter line)")
                self._p99_items[workload.workload_id] = p99
            xs, lo, hi = self._band_xy(workload)
            band_words.append(self.band_words(workload))
            if len(xs) >= 2 and any(high > low for low, high in zip(lo, hi)):
                edge = pg.mkPen(None)
                low_item, high_item = pg.PlotDataItem(xs, lo, pen=edge), pg.PlotDataItem(xs, hi, pen=edge)
                fill_color = QColor(color)
                fill_color.setAlpha(45)
                # between the edges' drawn curves, not the data items: a PlotDataItem signals new data only, not the
                # log10 mapping it gets from the plot, so a fill of the data items kept the linear values on a log
                # axis and was drawn in the wrong place or not at all (revperf57 #1); its curve signals both
                fill = pg.FillBetweenItem(low_item.curve, high_item.curve, brush=pg.mkBrush(fill_color))
                fill.setZValue(5)
                fill.setToolTip(plain_tooltip(f"{workload.name}: uncertainty band, P10 to P90 of the predicted mean "
                                              f"latency ({workload.profile or 'profile'}: "
                                              f"{workload.band_basis}); not I/O latency percentiles; "
                                              f"{self.band_words(workload)}"))
                for item in (low_item, high_item):
                    item.setVisible(False)
                    plot.addItem(item)
                plot.addItem(fill)
                self._band_items[workload.workload_id] = (low_item, high_item, fill)
            self._draw_states(plot, workload, color)
            dash = pg.mkPen(color, width=1.5, style=Qt.PenStyle.DashLine)
            label_color = QColor(color)
            slo_text = f"SLO {workload.slo_ms:g} ms" + (" p99" if workload.slo_statistic == "p99" else "")
            # workloads with the same SLO: one label on their line (two "SLO 1 ms" overlapped: REVIEW54 #13)
            shared = any(line.label.format == slo_text and abs(line.value() - self._ty(workload.slo_ms)) < 1e-9
                         for line in self._slo_lines.values())
            slo = pg.InfiniteLine(pos=self._ty(workload.slo_ms), angle=0, pen=dash, label=slo_text,
                                  # below the line: the axis ends a little above the SLO, no room above it
                                  labelOpts={"position": 0.04 + 0.14 * index, "color": label_color,
                                             "anchors": [(0, 0), (0, 0)], "fill": tint(base, 200)})
            if shared:
                slo.label.setVisible(False)
            plot.addItem(slo)
            self._slo_lines[workload.workload_id] = slo
            if finite(workload.saturation_iops) and workload.saturation_iops > 0:
                sat = pg.InfiniteLine(pos=self._tx(workload.saturation_iops), angle=90,
                                      pen=pg.mkPen(color, width=1.2, style=Qt.PenStyle.DashLine),
                                      label=saturation_label(workload),  # with its P10-P90 band (review 57)
                                      # placed where no curve is once the range is set (_place_saturation_labels)
                                      labelOpts={"position": 1.0, "color": label_color,
                                                 "anchors": [(0, 0), (0, 0)], "fill": tint(base, 200)})
                plot.addItem(sat)
                self._saturation_lines[workload.workload_id] = sat
            slo_point = workload.max_iops_at_slo_point
            if slo_point is not None:
                marker = pg.PlotDataItem([slo_point[0]], [slo_point[1]], pen=None, symbol="d",
                                         symbolSize=13, symbolBrush=color, symbolPen=pg.mkPen(base, width=1.5))
                marker.setToolTip(plain_tooltip(f"{workload.name}: max {fmt_iops(workload.max_iops_at_slo)} IOPS "
                                                f"within the {_slo_text(workload)}"))
                marker.setZValue(20)
                plot.addItem(marker)
                self._max_slo_items[workload.workload_id] = marker
            op_latency = operating_latency(workload)
            if workload.target_iops is not None and op_latency is not None and workload.operating_iops > 0:
                point = pg.PlotDataItem([workload.operating_iops], [op_latency], pen=None, symbol="o",
                                        symbolSize=12, symbolBrush=base, symbolPen=pg.mkPen(color, width=3))
                point.setZValue(21)
                plot.addItem(point)
                self._operating_items[workload.workload_id] = point
        # Legend entries for the markers, in the neutral text colour.
        neutral = text_color(self)
        self.legend.addItem(pg.PlotDataItem(pen=None, symbol="o", symbolSize=10, symbolBrush=pg.mkBrush(base),
                                            symbolPen=pg.mkPen(neutral, width=2)), "operating point")
        self.legend.addItem(pg.PlotDataItem(pen=None, symbol="d", symbolSize=11, symbolBrush=neutral),
                            MAX_IOPS_LABEL)
        if self._open_items:
            self.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(neutral, width=1.5, style=Qt.PenStyle.DashDotLine)),
                                "open model")
        if self._band_items or any(words != BAND_LABEL for words in band_words):
            # the band's own colour where one workload's band is drawn (a grey swatch beside a blue band read as
            # another item: review 57); several workloads' bands each take their curve's colour: neutral
            band_color = QColor(series_color(0) if len(self._workloads) == 1 else neutral)
            band_color.setAlpha(45 if len(self._workloads) == 1 else 60)
            # one workload: the band's range in words ("609K – 1.60M IOPS at the SLO"); several: the table says it
            words = band_words[0] if len(band_words) == 1 else BAND_LABEL
            self.legend.addItem(pg.BarGraphItem(x=[0], height=[1], width=1, brush=pg.mkBrush(band_color),
                                                pen=pg.mkPen(None)), words)
        self._fit_legend()
        # Crosshair
        pen = pg.mkPen(muted_color(self), width=1, style=Qt.PenStyle.DotLine)
        self._cross_v = pg.InfiniteLine(angle=90, pen=pen)
        self._cross_h = pg.InfiniteLine(angle=0, pen=pen)
        self._cross_dot = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=8,
                                          symbolBrush=None, symbolPen=pg.mkPen(neutral, width=1.5))
        for item in (self._cross_v, self._cross_h, self._cross_dot):
            item.setVisible(False)
            item.setZValue(30)
            plot.addItem(item, ignoreBounds=True)
        self._fit_range()

    def _place_labels(self) -> None:
        """One pass over every text on the latency chart, so that no label lies on another (review 57 #4: "p99
        0.41 ms ↑" over the far-off SLO's note, two workloads' target and saturation labels on each other): the
        far-off SLO's note stays where it is; each SLO line's label goes along its line clear of the curves
        (:meth:`_place_slo_labels`); each edge mark's label (an arrow's words
        at the top edge, a target beyond the axis at the right edge) goes where it wants to be or, if a label is
        there, stacked below it; then the saturation labels (:meth:`_place_saturation_labels`) avoid them all."""
        vb = self.plot.getViewBox()
        view = vb.sceneBoundingRect()
        if view.width() < 20 or view.height() < 20:
            return
        taken: list[QRectF] = []
        if self._slo_note.scene() is not None:
            note = self._slo_note.boundingRect()
            at = vb.mapViewToScene(self._slo_note.pos())
            taken.append(QRectF(at.x(), at.y(), note.width(), note.height()))
        self._place_slo_labels(taken)
        self._edge_rects = []
        for label, x, y, anchor_x in self._edge_labels:
            size = label.boundingRect()
            w, h = size.width(), size.height()
            at = vb.mapViewToScene(QPointF(x, y))
            left = min(max(at.x() - anchor_x * w, view.left()), view.right() - w - LABEL_STEP)
            top = min(max(at.y() - (0.0 if anchor_x == 0.0 or at.y() <= view.top() + 1 else h / 2), view.top()),
                      view.bottom() - h)
            rect = QRectF(left, top, w, h)
            while any(rect.adjusted(-1, -1, 1, 1).intersects(other) for other in taken) \
                    and rect.bottom() + h + LABEL_STEP <= view.bottom():
                below = max(other.bottom() for other in taken if rect.adjusted(-1, -1, 1, 1).intersects(other))
                rect.moveTop(below + LABEL_STEP)
            label.setAnchor((0, 0))
            label.setPos(vb.mapSceneToView(rect.topLeft()))
            taken.append(rect)
            self._edge_rects.append(rect)
        self._place_saturation_labels(taken)

    def _curve_obstacles(self) -> list:
        """The scene paths of the drawn curves (a few px wide) and the scene rects of the markers: what a label
        should not cover."""
        stroker = QPainterPathStroker()
        stroker.setWidth(4.0)
        obstacles: list = []
        for item in self.plot.listDataItems():
            if not item.isVisible():
                continue  # the band's edges (the band itself is a shaded area a label may sit on)
            if item.opts.get("pen") is not None and item.curve.isVisible():
                obstacles.append(stroker.createStroke(item.curve.sceneTransform().map(item.curve.getPath())))
            if item.opts.get("symbol") is not None and item.scatter.isVisible():
                obstacles.append(item.scatter.sceneBoundingRect())
        return obstacles

    def _place_slo_labels(self, taken: list[QRectF]) -> None:
        """Put each SLO line's label along its line, below it or above it, where it covers no curve, marker or
        label already placed (with Log latency "SLO 1 ms" lay under the curves: review 57 #4); with no free place,
        the one covering the fewest. Each place taken is added to ``taken``."""
        vb = self.plot.getViewBox()
        view = vb.sceneBoundingRect()
        curves = None
        for index, line in enumerate(self._slo_lines.values()):
            label = line.label
            if label is None or not label.isVisible() or label.scene() is None:
                continue
            if curves is None:
                curves = self._curve_obstacles()
            size = label.boundingRect()
            w, h = size.width(), size.height()
            y = vb.mapViewToScene(QPointF(0, line.value())).y()
            best = None
            for position in (0.04 + 0.14 * index, *(0.04 + 0.06 * k for k in range(15))):
                x = view.left() + position * view.width()
                for anchor in ((0.0, 0.0), (0.0, 1.0)):  # below the line, then above it
                    rect = QRectF(x, y - anchor[1] * h + (2 if anchor[1] == 0 else -2), w, h)
                    if not view.contains(rect):
                        continue
                    hits = (sum(1 for o in curves if o.intersects(rect))
                            + LABEL_OVERLAP_COST * sum(1 for o in taken if o.intersects(rect)))
                    if best is None or hits < best[0]:
                        best = (hits, position, anchor, rect)
                    if not hits:
                        break
                if best is not None and not best[0]:
                    break
            if best is None:
                line.label.updatePosition()
                taken.append(label.sceneBoundingRect())
                continue
            _hits, position, anchor, rect = best
            label.anchors = [anchor, anchor]
            label.setPosition(position)
            taken.append(rect)

    def _place_saturation_labels(self, taken: list[QRectF] | None = None) -> None:
        """Put each saturation label beside its line where it covers no curve, marker or other label (it sat at the
        bottom left of the line, over the flat part of the curves): the first free place from the top of the line
        down, right of the line (where no curve of that workload reaches) before left of it, a few pixels off the
        line before further; with no free place, the one covering the fewest items. ``taken``: the other labels'
        scene rects (:meth:`_place_labels`), never covered where a free place is found."""
        if not self._saturation_lines:
            return
        vb = self.plot.getViewBox()
        view = vb.sceneBoundingRect()
        if view.width() < 20 or view.height() < 20:
            return
        obstacles = self._curve_obstacles()
        for line in self._slo_lines.values():
            # the SLO line itself: a saturation label sat on another workload's SLO line (REVIEW54 #13)
            y = vb.mapViewToScene(QPointF(0, line.value())).y()
            obstacles.append(QRectF(view.left(), y - 2, view.width(), 4))
        # the other labels (SLO note, edge marks) and the saturation labels placed so far: never gone over
        placed: list[QRectF] = list(taken or ())
        heights = (1.0, 0.85, 0.7, 0.55, 0.4, 0.25, 0.1, 0.0)
        gaps = (3, 8, 16, 28, 44, 64)
        # the rightmost line first: its right side is the one most often free
        for sat in sorted(self._saturation_lines.values(), key=lambda line: -line.value()):
            label = sat.label
            if "\n" in label.format:  # wrapped by an earlier pass: the one line first again (a wider chart)
                label.setFormat(label.format.replace("\n(", " ("))
            x = vb.mapViewToScene(QPointF(sat.value(), 0)).x()
            best = self._saturation_place(label, x, view, obstacles, placed, heights, gaps)
            if best is not None and best[0] and " (" in label.format:
                # no free place for the one line (a 1366 px laptop: the failure states' verticals left less than the
                # label's width beside the line): the band on a second line, kept if it covers less
                one_line = label.format
                label.setFormat(one_line.replace(" (", "\n(", 1))
                wrapped = self._saturation_place(label, x, view, obstacles, placed, heights, gaps)
                if wrapped is not None and wrapped[0] < best[0]:
                    best = wrapped
                else:
                    label.setFormat(one_line)
            if best is None:
                continue
            _hits, height, right, gap, rect = best
            w = rect.width()
            anchor = (-gap / w if right else 1.0 + gap / w, 1.0 - height)
            label.anchors = [anchor, anchor]
            label.setPosition(height)
            # the place chosen, not the label's sceneBoundingRect(): a TextItem applies its anchor when next painted,
            # so that rect is still the old place, and a second workload's label was put over the first (two
            # workloads on one system: "saturation 1.51M" and "saturation 1.17M" overlapped; with equal saturations
            # the two labels lay on each other)
            placed.append(rect)

    @staticmethod
    def _saturation_place(label, x: float, view: QRectF, obstacles: list, placed: list[QRectF],
                          heights: tuple[float, ...], gaps: tuple[int, ...]):
        """The best place for a saturation label beside its line at scene x: (hits, height, right, gap, rect), the
        first free one from the top of the line down, right of the line before left, near before far; with no free
        place, the one covering the fewest items; None if the label has no size or fits nowhere in the chart."""
        size = label.sceneBoundingRect().size()
        w, h = size.width(), size.height()
        if w <= 0 or h <= 0:
            return None
        best = None
        for height in heights:
            top = view.top() + (1.0 - height) * (view.height() - h)
            for right in (True, False):
                for gap in gaps:
                    left = x + gap if right else x - gap - w
                    rect = QRectF(left, top, w, h)
                    if not view.contains(rect):
                        continue
                    room = rect.adjusted(-LABEL_GAP, -LABEL_GAP, LABEL_GAP, LABEL_GAP)
                    hits = (sum(1 for o in obstacles if o.intersects(room))
                            + LABEL_OVERLAP_COST * sum(1 for o in placed if o.intersects(room)))
                    if best is None or hits < best[0]:
                        best = (hits, height, right, gap, rect)
                    if not hits:
                        return best
        return best

    def _fit_range(self) -> None:
        """Show the SLO crossing, the knee, the ramp's peak and the operating point (``latency_axes``), not the
        open model's asymptotic tail; an SLO far above all of them is named instead of flattening the curve."""
        workloads = self._workloads
        axes = latency_axes(workloads)
        latencies = [p.latency_ms for w in workloads for p in w.curve]
        marks = self._marks_to_show()
        top = max([axes.latency_high_ms, *(y * MARGIN for _x, y, _w, _c in marks
                                           if y * MARGIN <= OFF_CHART_REACH * axes.latency_high_ms)])
        cap = self._latency_cap()
        if cap is not None and top > cap:
            top = cap
        marks += self._exits_above(top, marks)
        vb = self.plot.getViewBox()
        if self._log_x:
            low = min((p.iops for w in workloads for p in w.curve if p.iops > 0), default=1.0)
            vb.setXRange(math.log10(low), math.log10(axes.iops_high), padding=0.02)
        else:
            vb.setXRange(0, axes.iops_high, padding=0)
        if self._log_y:
            low = min((lat for lat in latencies if lat > 0), default=0.1)
            vb.setYRange(math.log10(low) - 0.1, math.log10(top), padding=0)
        else:
            vb.setYRange(0, top, padding=0)
        self.axes = axes
        self._mark_edges([m for m in marks if m[1] >= top], axes)
        note = slo_off_chart_text(axes)
        if note:
            self._slo_note.setText(note)
            x_range, y_range = vb.viewRange()
            # the arrow's tip at the top edge near the left, the note beside it
            self._slo_arrow.setPos(x_range[0] + 0.015 * (x_range[1] - x_range[0]), y_range[1])
            self._slo_note.setPos(x_range[0] + 0.03 * (x_range[1] - x_range[0]), y_range[1])
            for item in (self._slo_arrow, self._slo_note):
                if item.scene() is None:  # not yet (a state shown or hidden fits the range again)
                    self.plot.addItem(item, ignoreBounds=True)
        self._place_labels()

    def _latency_cap(self) -> float | None:
        """The highest the latency axis may reach (``Y_CAP_SLO_FACTOR`` x the highest SLO, or the highest latency at
        a target if that is higher, with the margin); None without an SLO."""
        slos = [w.slo_ms for w in self._workloads if finite(w.slo_ms) and w.slo_ms > 0]
        if not slos:
            return None
        bound = Y_CAP_SLO_FACTOR * max(slos)
        for w in self._workloads:
            at = operating_latency(w)
            if w.target_iops is not None and at is not None and finite(at):
                bound = max(bound, at)
        return bound * MARGIN

    def _exits_above(self, top: float, marks: list) -> list[tuple[float, float, str, QColor]]:
        """The marks for lines leaving the chart's top that nothing else names: a ramp peak above a capped axis
        (``_latency_cap``) and a p99 line leaving the top well before its mean curve does (``P99_EARLY_EXIT``),
        unless its point at the target is already named above the chart."""
        extra = []
        named = {(round(x), c.name()) for x, y, _w, c in marks if y > top}
        for index, w in enumerate(self._workloads):
            color = series_color(index)
            if w.curve:
                peak = max(w.curve, key=lambda p: p.latency_ms)
                if peak.latency_ms > top:
                    extra.append((peak.iops, peak.latency_ms, f"ramp peak {fmt_ms(peak.latency_ms)}", color))
            item = self._p99_items.get(w.workload_id)
            if item is None or any(c == color.name() for _x, c in named):
                continue
            xs, ys = self._p99_xy(w)
            p99_exit = next((x for x, y in zip(xs, ys) if y > top), None)
            if p99_exit is None:
                continue
            mean = [*w.curve, *w.open_curve]
            mean_exit = next((p.iops for p in mean if p.latency_ms > top), w.saturation_iops)
            if not finite(mean_exit) or p99_exit < P99_EARLY_EXIT * mean_exit:
                extra.append((p99_exit, top, "p99", color))
        return extra

    def _marks_to_show(self) -> list[tuple[float, float, str, QColor]]:
        """(IOPS, ms, words, colour) of the marks the latency axis should show beside ``latency_axes``'s: each
        workload's p99 at its operating point (where its p99 line is drawn) and each shown failure state's point at
        the target."""
        marks = []
        resilience = self._resilience()
        for index, w in enumerate(self._workloads):
            p99 = w.latency_p99_at_target_ms
            if w.workload_id in self._p99_items and self._operating_point(w) is not None and finite(p99) and p99 > 0:
                marks.append((w.operating_iops, p99, f"p99 {fmt_ms(p99)}", series_color(index)))
            for state in (resilience.states.get(w.workload_id, ()) if resilience is not None else ()):
                marker = self.state_marker_item(w.workload_id, state.state)
                at = self._state_target_point(state)
                if marker is not None and marker.isVisible() and at is not None and at[1] > 0:
                    marks.append((at[0], at[1], f"{state_label(state)} {fmt_ms(at[1])}",
                                  QColor(state_color(state.state))))
        return marks

    def _mark_edges(self, above: list[tuple[float, float, str, QColor]], axes) -> None:
        """Name what the chart cannot show at its edge: an arrow up at the top edge with the words of each mark
        above it (``_marks_to_show``), and at the right edge each target beyond the IOPS axis ("target 3.78M IOPS →
        saturated": the axis ends a little right of saturation, and a saturated target was nowhere on the chart,
        revperf57 #11)."""
        for item in self._edge_marks:
            if item.scene() is not None:
                self.plot.removeItem(item)
        self._edge_marks, self._edge_rects, self._edge_labels = [], [], []
        vb = self.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        fill = tint(base_color(self), 210)
        for x, _y, words, color in above:
            vx = self._tx(x) if x > 0 or not self._log_x else x0
            vx = min(max(vx, x0 + 0.01 * (x1 - x0)), x1 - 0.01 * (x1 - x0))
            arrow = pg.ArrowItem(angle=90, headLen=10, tailLen=8, tailWidth=2, pen=None, brush=pg.mkBrush(color))
            arrow.setPos(vx, y1)
            right = vx < (x0 + x1) / 2  # the words on the side with more room
            label = pg.TextItem(f"{words} ↑", color=color, anchor=(0, 0), fill=fill)
            self._add_edge_mark(arrow, label, vx + (1 if right else -1) * 0.012 * (x1 - x0), y1, 0.0 if right else 1.0)
        for index, w in enumerate(self._workloads):
            if not target_saturates(w) or w.target_iops <= axes.iops_high:
                continue
            label = pg.TextItem(f"target {fmt_iops(w.target_iops)} IOPS → {SATURATED}", color=series_color(index),
                                anchor=(0, 0), fill=fill)
            label.setToolTip(plain_tooltip(
                f"{w.name}: the target, {fmt_iops(w.target_iops)} IOPS, is beyond saturation "
                f"({fmt_iops(w.saturation_iops)} IOPS): the design cannot carry it, and the chart ends a little right "
                "of saturation"))
            self._add_edge_mark(None, label, x1, y0 + 0.5 * (y1 - y0), 1.0)

    def _add_edge_mark(self, arrow, label, x: float, y: float, anchor_x: float) -> None:
        """Put an edge mark on the chart (not in its range); its label goes at view (x, y), its left
        (``anchor_x`` 0) or right (1) end there, or below the labels already there (:meth:`_place_labels`)."""
        for item in (arrow, label):
            if item is not None:
                item.setZValue(25)
                self.plot.addItem(item, ignoreBounds=True)
                self._edge_marks.append(item)
        self._edge_labels.append((label, x, y, anchor_x))

    def _util_rows_that_fit(self) -> int:
        """How many utilisation rows fit the chart's height at one text line (plus a little air) each."""
        height = self.util_plot.getViewBox().height()
        if height <= 1:  # not laid out yet
            return MAX_BARS
        pitch = self.fontMetrics().height() + 6
        return max(MIN_BARS, min(MAX_BARS, int(height // pitch)))

    def _util_name_limit(self) -> int:
        """The widest a station name may be on the utilisation axis, px."""
        return max(120, int(self.util_plot.width() * 0.4))

    def _draw_utilisation(self) -> None:
        plot = self.util_plot
        plot.clear()
        self._util_value_items = []
        workload = self.selected_workload()
        if workload is None:
            return
        ranked = sorted(workload.stations, key=lambda s: s.utilization, reverse=True)
        # Pure delays (0% busy) say nothing as bars; the busiest stations (and always the bottleneck) do, as
        # many as fit one readable row each.
        limit = self._util_rows_that_fit()
        self._util_limit = limit
        busy = [s for s in ranked if s.utilization > 0.005 or s.name == workload.bottleneck]
        stations = busy[:limit]
        bottleneck = next((s for s in ranked if s.name == workload.bottleneck), None)
        if bottleneck is not None and bottleneck not in stations:
            stations = stations[:-1] + [bottleneck]
        hidden = len(ranked) - len(stations)
        self._util_stations = stations
        saturates = target_saturates(workload)
        where = ("saturation" if saturates else "target") if workload.target_iops is not None \
            else "max IOPS within SLO"
        below = min((s.utilization for s in stations), default=0.0)
        more = f" \u00b7 +{hidden} more under {max(below * 100, 1):.0f}%" if hidden and stations else ""
        # a target beyond saturation: the bars are at saturation, and the target's shortfall is said in words
        shortfall = target_shortfall(workload)
        shortfall = f"<br><span style='color:{FAIL}'>{html_escape(shortfall)}</span>" if shortfall else ""
        self.util_title.setText(f"<b>Utilisation</b> \u2014 {html_escape(workload.name)} at "
                                f"{fmt_iops(workload.operating_iops)} IOPS ({where}){more}{shortfall}")
        self.util_title.setToolTip("<br>".join(f"{html_escape(station_words(s.name, workload))}: "
                                               f"{s.utilization * 100:.1f}%" for s in ranked))
        normal = muted_color(self)
        brushes, pens = [], []
        for station in stations:
            color = QColor(WARNING) if station.name == workload.bottleneck else normal
            brushes.append(pg.mkBrush(color))
            pens.append(pg.mkPen(color))
        values = [min(max(s.utilization, 0.0), 1.0) * 100 for s in stations]
        self._util_item = pg.BarGraphItem(x0=[0] * len(stations), y=list(range(len(stations))), height=0.6,
                                          width=values, brushes=brushes, pens=pens)
        plot.addItem(self._util_item)
        plot.addItem(pg.InfiniteLine(pos=100, angle=90, pen=pg.mkPen(muted_color(self), style=Qt.PenStyle.DashLine)))
        text = text_color(self)
        bold = QFont(self.font())
        bold.setBold(True)
        for i, (station, value) in enumerate(zip(stations, values)):
            is_bottleneck = station.name == workload.bottleneck
            label = pg.TextItem(f"{station.utilization * 100:.0f}%" + ("  bottleneck" if is_bottleneck else ""),
                                color=text, anchor=(0, 0.5))
            if is_bottleneck:
                label.setFont(bold)
            label.setPos(value, i)
            plot.addItem(label)
            self._util_value_items.append(label)
        # Station names shortened to at most ~40% of the panel, their figures kept whole (the title's tooltip
        # lists them in full).
        metrics = self.fontMetrics()
        limit_px = self._util_elide_px = self._util_name_limit()
        whole = [station_words(s.name, workload) for s in stations]  # the HA pair's bound; E-Series controllers
        names = [station_label(name, metrics, limit_px) for name in whole]
        # a name still wider than its room with its figures (ANF's "… (460,000 reads or 130,000 writes)"): on two
        # lines, the figures under the words, where the rows have room for them; the axis took most of the panel
        # and the bars' own labels ("29% bottleneck") were cut at its right edge (REVIEW54 #14)
        two_lines = self._util_room_for_two_lines()
        self._util_two_lines = self._util_room_for_two_lines()
        if two_lines:
            names = [self._two_line_label(full, shown, metrics, limit_px) for full, shown in zip(whole, names)]
        axis = plot.getAxis("left")
        axis.setTicks([[(i, name) for i, name in enumerate(names)]])
        # a shortened name ends in "…": the axis's tooltip names every station whole
        axis.setToolTip("<br>".join(html_escape(name) for name in whole)
                        if any(name.replace("\n", " ") != full for name, full in zip(names, whole)) else "")
        axis.setWidth(max_text_width(self, [line for name in names for line in name.split("\n")]) + 12)
        plot.setYRange(-0.6, max(len(stations), 1) - 0.4, padding=0)
        self._util_labels = [(value, f"{s.utilization * 100:.0f}%" + ("  bottleneck" if s.name == workload.bottleneck
                                                                       else "")) for s, value in zip(stations, values)]
        self._util_short = self._util_short_labels()
        if self._util_short:  # decided on the labels' long form: the drawn labels follow
            for item in self._util_value_items:
                item.setText(item.toPlainText().split("  ")[0])
        self._fit_util_range()

    def _util_short_labels(self) -> bool:
        """Whether the bars' value labels are "38%" alone: where "38%  bottleneck" would take more than 60% of a
        narrow bar area (eight stations with long figures, CVO at 1366 px), which cut it at the chart's edge
        (REVIEW54 #14); the bar's colour and the table's Bottleneck column say which station it is."""
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        width = max(self.util_plot.getViewBox().width(), 1.0)
        return width > 1.0 and any(metrics.horizontalAdvance(text) + 10 > 0.6 * width
                                   for _value, text in self._util_labels if "  " in text)

    def _util_room_for_two_lines(self) -> bool:
        """Whether each utilisation row has room for a two-line label at the chart's height."""
        height = self.util_plot.getViewBox().height()
        rows = len(self._util_stations)
        return bool(height > 1 and rows and height / rows >= 2 * self.fontMetrics().height() + 4)

    @staticmethod
    def _two_line_label(full: str, shown: str, metrics: QFontMetrics, limit_px: int) -> str:
        """A station's axis label on two lines (its words, then its figures in parentheses) when on one line it is
        wider than ``limit_px``; as ``shown`` otherwise."""
        from app.gui.results.station_label import station_figures

        if metrics.horizontalAdvance(shown) <= limit_px:
            return shown
        split = station_figures(full)
        if split is None:
            return shown
        head, figures = split
        return f"{station_label(head, metrics, limit_px)}\n({figures})"

    def utilisation_axis_text_width(self) -> float:
        """The widest line of the utilisation axis's labels, px (for layout checks)."""
        metrics = self.fontMetrics()
        return max((metrics.horizontalAdvance(line) for name in self.utilisation_axis_labels()
                    for line in name.split("\n")), default=0)

    def utilisation_row_rects(self) -> list:
        """The scene rectangle of each utilisation row: its name on the axis, its bar and its value label, one
        text line high (for layout checks: rows never overlap)."""
        vb = self.util_plot.getViewBox()
        axis = self.util_plot.getAxis("left")
        height = self.fontMetrics().height()
        rects = []
        for i, item in enumerate(self._util_value_items):
            centre = vb.mapViewToScene(QPointF(0, i)).y()
            label = item.mapRectToScene(item.boundingRect())
            left = axis.sceneBoundingRect().left()
            rects.append(QRectF(left, centre - height / 2, label.right() - left, height))
        return rects

    def _fit_util_range(self, *_args) -> None:
        """0-100% plus room on the right for the longest value label at the current width; as many rows as
        the height holds."""
        if self._util_stations and (self._util_rows_that_fit() != self._util_limit
                                    or abs(self._util_name_limit() - self._util_elide_px) > 12
                                    or self._util_room_for_two_lines() != self._util_two_lines):
            self._draw_utilisation()
            return
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        width = max(self.util_plot.getViewBox().width(), 1.0)
        high = 112.0
        short = self._util_short_labels()
        if short != self._util_short:
            self._draw_utilisation()
            return
        for value, text in self._util_labels:
            if short:
                text = text.split("  ")[0]
            fraction = min((metrics.horizontalAdvance(text) + 10) / width, 0.7)
            high = max(high, value / (1 - fraction))
        self.util_plot.setXRange(0, high, padding=0)
        per_50 = width * 50 / high  # pixels between the 0% and 50% ticks
        ticks = (0, 100) if per_50 < 60 else (0, 50, 100) if per_50 < 120 else (0, 25, 50, 75, 100)
        self.util_plot.getAxis("bottom").setTicks([[(v, f"{v}%") for v in ticks]])

    def _fill_summary(self) -> None:
        model = self.summary_model
        model.removeRows(0, model.rowCount())
        bold = QFont(self.summary_table.font())
        bold.setBold(True)
        for index, w in enumerate(self._workloads):
            if w.target_iops is None:
                latency, headroom = NO_TARGET, NO_TARGET
            else:
                latency = fmt_ms(w.latency_at_target_ms, SATURATED)
                headroom = headroom_cell(w, SATURATED)  # "—" where the stated outstanding I/Os cannot reach it
            tails = latency_tails_text(w)
            end = w.curve[-1] if w.curve else None
            peak = f"{fmt_iops(end.iops)} @ {fmt_ms(end.latency_ms)}" if end is not None else NOT_AVAILABLE
            cells = [
                w.name, w.protocol or NOT_AVAILABLE, f"{w.slo_ms:g} ms", fmt_iops(w.saturation_iops, SATURATED),
                fmt_iops(w.max_iops_at_slo, NOT_MET) + (" (capped)" if slo_capped_words(w) else ""),
                profile_kind_text(w) or NOT_AVAILABLE, peak,
                target_cell(w, NO_TARGET), latency + (f" ({tails})" if tails else ""),
                bottleneck_words(w) or NOT_AVAILABLE, headroom,
            ]
            items = [QStandardItem(text) for text in cells]
            latency_item = items[self.SUMMARY_COLUMNS.index("Latency @ target")]
            latency_item.setData(latency, LATENCY_SHORT_ROLE)  # the one shown: _fit_summary_columns
            latency_item.setData(latency_item.text(), LATENCY_WHOLE_ROLE)
            items[0].setIcon(icon("mdi6.circle", series_color(index)))
            column = {name: k for k, name in enumerate(self.SUMMARY_COLUMNS)}
            for item in items[2:column["Bottleneck"]] + items[column["Headroom"]:]:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if w.target_met is False or w.max_iops_at_slo is None:
                for name in ("Max IOPS @ SLO", "Latency @ target", "Headroom"):
                    k = column[name]
                    if items[k].text() in (SATURATED, NOT_MET) or (name == "Latency @ target" and
                                                                   w.target_met is False):
                        items[k].setForeground(QColor(FAIL))
                        items[k].setFont(bold)
            if finite(w.headroom_pct) and w.headroom_pct < 0:
                items[column["Headroom"]].setForeground(QColor(FAIL))
            tooltip = "<br>".join(
                [f"<b>{html_escape(w.name)}</b> ({html_escape(w.protocol)}, {w.block_kib:g} KiB)",
                 f"Saturation: {fmt_iops(w.saturation_iops)} IOPS, {fmt_mbps(w.saturation_mbps)}"]
                + ([f"Bottleneck: {html_escape(bottleneck_words(w))}"] if w.bottleneck else [])
                + [html_escape(n) for n in workload_notes(w.notes)])  # cited as the report cites them
            for item in items:
                item.setToolTip(tooltip)
            reach = reach_words(w)  # the stated outstanding I/Os reach less: the Ramp peak column's figure, named
            if reach:
                items[column["Max IOPS @ SLO"]].setToolTip(
                    f"<b>Max IOPS @ SLO: {html_escape(max_iops_with_reach(w))}</b> (the open model assumes as many "
                    f"outstanding I/Os as the load needs; Ramp peak is what the stated ones reach)<br>{tooltip}")
            if tails:  # the tail latencies whole, also where the cell shows the mean alone (no room at 1366 px)
                items[column["Latency @ target"]].setToolTip(
                    f"Storage latency at the target {html_escape(fmt_iops(w.target_iops))} IOPS: "
                    + html_escape(fmt_latency_tails(w.latency_at_target_ms, w.latency_p95_at_target_ms,
                                                    w.latency_p99_at_target_ms))
                    + " (p95: 1 I/O in 20 takes longer; p99: 1 in 100)<br>" + tooltip)
            basis = w.profile_basis
            items[column["Profile"]].setToolTip(html_escape(basis.reason) if basis is not None and basis.reason
                                                else self.SUMMARY_TOOLTIPS["Profile"])
            if slo_capped_words(w):  # equal to saturation: the bound caps both (r2 #8), its figure in the tooltip
                items[column["Max IOPS @ SLO"]].setToolTip(plain_tooltip(
                    f"{fmt_iops(w.max_iops_at_slo)}, {slo_capped_words(w)} ({iops_bound_words(w)}): the latency "
                    f"stays within the SLO up to the bound, so the max IOPS at the SLO is the saturation"))
            if w.profile in ("assumed", "hardware relation only"):  # a caution (the widest band), never red
                items[column["Profile"]].setForeground(QColor(WARNING))
            model.appendRow(items)
        # short on screen (the row's Profile cell says how an unmeasured figure was obtained); whole in the tooltip
        # compact and whole in one pass (it built them in two calls, each finding every miss and caution)
        found, whole = workload_verdict_pair(self._evaluation.performance) if self._workloads else ((), ())
        # a workload's own line stays with the verdicts when it is a caution (review 57: ⚠ target not reached at
        # the stated concurrency), its whole words in the tooltip
        self.verdict_label.setToolTip(verdict_html([v for v in whole if v.kind != CAUTION or v.lead]))
        verdicts = merged_verdicts([v for v in found if v.kind != CAUTION or v.lead])
        cautions = merged_verdicts([v for v in found if v.kind == CAUTION and not v.lead])
        self.verdict_label.setText(verdict_html(verdicts))
        self.verdict_label.setVisible(bool(verdicts))
        self.cautions_label.setText(verdict_html(cautions))
        self.cautions_label.setVisible(bool(cautions))
        capped = [w for w in self._workloads if rate_cap_flat(w)]
        self.rate_cap_label.setText("<br>".join(
            f"<span style='color:{WARNING}'>⚠</span> <b>Published rate cap</b>"
            + (f" for {html_escape(w.name)}" if len(self._workloads) > 1 else "")
            + f": the curve is flat up to {fmt_iops(w.saturation_iops)} IOPS, then vertical; the latency close to "
            "the cap is not modelled, so plan below it" for w in capped))
        self.rate_cap_label.setToolTip("<br>".join(html_escape(rate_cap_details(w)) for w in capped))
        self.rate_cap_label.setVisible(bool(capped))
        resilience = self._resilience()
        if resilience is not None and self._workloads:
            # compact for a laptop screen: one line per workload and one for the runway; sentences and reasons in
            # the tooltip
            lines = []
            checks = resilience.requirement_checks
            bad_days: dict[str, list[str]] = {}  # the words, the workloads they are for (one line for identical words)
            for w in self._workloads:
                states = resilience.states.get(w.workload_id, ())
                if states:
                    bad_days.setdefault(html_escape(compact_states(states, w)), []).append(w.name)
                elif no_profile_key(w) == "service":  # never silence about the bad day (review 57 #14)
                    bad_days.setdefault(SERVICE_FAILOVER_WORDS, []).append(w.name)
            for words, names in bad_days.items():
                # "for <name>", never "(<name>)": an imported name has its own brackets (review 55 #13); the
                # workloads whose bad day reads the same share one line (review 57 GUI #10)
                who = (f" for {html_escape(', '.join(names))}" if len(self._workloads) > 1
                       and len(names) < len(self._workloads) else
                       f" for all {len(names)} workloads" if len(names) > 1 else "")
                lines.append(f"<b>Bad day</b>{who}: {words}")
            if checks:  # the project's resilience requirements, short (the sentences are in the tooltip)
                grouped: dict[str, list[bool]] = {}  # one mark per requirement, its workloads counted
                ids = {w.name: w.workload_id for w in self._workloads}
                for c in checks:  # a missed grown-target check with its figures (review 57 #12)
                    words = (PROVIDER_HA_SHORT if c.state == PROVIDER_HA else
                             html_escape(requirement_short(c, resilience.states.get(ids.get(c.subject, ""), ())))
                             if c.requirement in ("slo_in_takeover", "slo_after_site_loss") else
                             f"{_n_plus(c.text)} {'capacity' if 'fits' in c.text else 'SLO'}")
                    grouped.setdefault(words, []).append(bool(c.met))
                marks = " · ".join(
                    (f"<span style='color:{WARNING}'>⚠</span> {words}" if words == PROVIDER_HA_SHORT else
                     f"<span style='color:{PASS if all(met) else FAIL}'>{'✓' if all(met) else '✗'}</span> {words}")
                    + ("" if len(met) == 1 else f" (all {len(met)})" if all(met)
                       else f" ({met.count(False)} of {len(met)} missed)") for words, met in grouped.items())
                if lines:
                    lines[-1] += f" · <b>required</b>: {marks}"
                else:
                    lines.append(f"<b>Required</b>: {marks}")
            lines.append(f"<b>Runway</b>: {html_escape(compact_runway(resilience, self._evaluation))} "
                         "<a href='runway'>chart…</a>")
            self.resilience_label.setText("<br>".join(lines))
            details = [f"{state_verdict(s, w)}. {s.reason}." for w in self._workloads
                       for s in resilience.states.get(w.workload_id, ())] + (
                runway_lines_with_dr_copies(resilience, self._evaluation) if self._evaluation is not None
                else runway_lines(resilience))  # a DR copy's months too, as the report
            details += [f"{'Assumed' if c.state == PROVIDER_HA else 'Met' if c.met else 'Missed'}: {c.text}."
                        for c in checks]
            self.resilience_label.setToolTip("<br>".join(html_escape(d) for d in details))
            self.resilience_label.setVisible(True)
        else:
            self.resilience_label.setVisible(False)
        self._fit_summary_height()
        self._fit_texts_height()
        # the columns fit the new rows: measured on the rows filled (a header's ResizeToContents measured the rows
        # the viewport showed before they were filled: "TPC…", "2 …", "unca…" with room to spare beside the table)
        self._fit_summary_columns()

    def show_runway(self):
        """Open the runway chart of the evaluation shown (None without failure states and runway)."""
        if self._evaluation is None or self._evaluation.resilience is None:
            return None
        from app.gui.results.runway_chart import RunwayDialog

        if self.runway_dialog is not None:
            self.runway_dialog.close()
        self.runway_dialog = RunwayDialog(self._evaluation, self)
        self.runway_dialog.show()
        return self.runway_dialog

    def _fit_summary_height(self) -> None:
        """The summary table exactly as tall as its header and rows (at most SUMMARY_ROWS, then it scrolls)."""
        table = self.summary_table
        rows = min(max(self.summary_model.rowCount(), 1), SUMMARY_ROWS)
        header = table.horizontalHeader().sizeHint().height()
        # room for the sideways scroll bar only where the columns are still wider than the table
        columns = sum(table.columnWidth(k) for k in range(self.summary_model.columnCount()))
        wide = columns > table.width() - 2 * table.frameWidth()
        scroll = table.horizontalScrollBar().sizeHint().height() if wide else 0
        height = header + rows * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth() + scroll
        table.setFixedHeight(height)

    def _fit_summary_columns(self) -> None:
        """Every summary column as wide as its cells where the table has the room; where it has not (1366 px: the
        Headroom column was past the edge, the table scrolled sideways), the names (:data:`SUMMARY_ELIDED_COLUMNS`,
        the bottleneck first) are cut short with "…" down to their least characters, then the long headers go on
        two lines, and where that is not enough the "Latency @ target" cells show the mean without its p95 and p99
        (its tooltip keeps them); the numbers stay whole."""
        table, model = self.summary_table, self.summary_model
        head = table.horizontalHeader()
        room = table.width() - 2 * table.frameWidth()
        metrics = table.fontMetrics()
        latency_column = self.SUMMARY_COLUMNS.index("Latency @ target")

        def natural() -> list[int]:
            return [max(table.sizeHintForColumn(k), head.sectionSizeHint(k)) for k in range(model.columnCount())]

        def label(wrapped: bool) -> None:
            for k, name in enumerate(self.SUMMARY_COLUMNS):
                text = SUMMARY_WRAPPED_HEADERS.get(name, name) if wrapped else name
                if model.horizontalHeaderItem(k).text() != text:
                    model.horizontalHeaderItem(k).setText(text)

        def least(k: int, chars: int) -> int:
            """Column ``k``'s width showing about ``chars`` characters of its longest cell: its cells' padding and
            icon (the width its hint adds to its text) plus that many average characters."""
            longest = max((QFontMetrics(model.item(r, k).font()).horizontalAdvance(model.item(r, k).text())
                           for r in range(model.rowCount())), default=0)
            return max(table.sizeHintForColumn(k) - longest, 0) + metrics.averageCharWidth() * chars

        def fit(wrapped: bool, tails: bool) -> tuple[list[int], int]:
            for r in range(model.rowCount()):
                item = model.item(r, latency_column)
                text = item.data(LATENCY_WHOLE_ROLE if tails else LATENCY_SHORT_ROLE)
                if isinstance(text, str) and item.text() != text:
                    item.setText(text)
            label(wrapped)
            widths = natural()
            excess = sum(widths) - room
            for name, chars in SUMMARY_ELIDED_COLUMNS.items():
                if excess <= 0:
                    break
                k = self.SUMMARY_COLUMNS.index(name)
                cut = min(excess, max(0, widths[k] - max(least(k, chars), head.sectionSizeHint(k))))
                widths[k] -= cut
                excess -= cut
            return widths, excess

        # one-line headers where the names can give the room (a line of height for the text lines under the table
        # at 1366 x 768), the p95 and p99 where any headers leave the room for them
        for wrapped, tails in ((False, True), (True, True), (False, False), (True, False)):
            widths, excess = fit(wrapped, tails)
            if excess <= 0:
                break
        for k, width in enumerate(widths):
            if table.columnWidth(k) != width:
                table.setColumnWidth(k, width)
        self._fit_summary_height()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        """Qt's event filter: the summary table's columns are refitted to its new width; the mouse leaving the
        latency chart clears its readout."""
        if watched is self.summary_table and event.type() == QEvent.Type.Resize and \
                event.size().width() != event.oldSize().width():
            self._fit_summary_columns()
        elif watched is self.plot and event.type() == QEvent.Type.Leave:
            self.clear_readout()
        return super().eventFilter(watched, event)

    def _fit_texts_height(self) -> None:
        """The text lines' area at most as tall as its lines wrapped at its width and at least
        SUMMARY_TEXT_MIN_LINES lines (the rest scroll): the chart's minimum height always holds, and the lines get
        their whole height before the chart grows past its minimum (see :class:`_ChartsSplitter`)."""
        scroll = self.summary_scroll
        needed = max(self.summary_texts.layout().totalHeightForWidth(max(scroll.width(), 100)), 0)
        floor = min(needed, SUMMARY_TEXT_MIN_LINES * self.fontMetrics().lineSpacing() + 4)
        if (scroll.minimumHeight(), scroll.maximumHeight()) != (floor, needed):
            scroll.setMinimumHeight(floor)
            scroll.setMaximumHeight(needed)

    def resizeEvent(self, event) -> None:  # noqa: N802
        """Qt's resize handler: a change of width re-wraps the summary lines, so their area is refitted."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_texts_height()

    def _on_workload_changed(self, index: int) -> None:
        if not 0 <= index < len(self._workloads):
            return
        self._draw_curves()
        self._draw_utilisation()
        self.summary_table.selectRow(index)
        self.sig_workload_selected.emit(self._workloads[index].workload_id)

    def _select_row(self, row: int) -> None:
        if 0 <= row < len(self._workloads) and row != self.workload_combo.currentIndex():
            self.workload_combo.setCurrentIndex(row)

    def _hover_curves(self):
        """(workload, failure state or None, its points) of every curve the crosshair snaps to: each workload's
        closed ramp, its open-model part (a target beyond the ramp's peak lies on that part: review 57 #5) and its
        operating point, and each failure state's curve shown on the chart with its point at the target (a state
        hidden from its legend entry is left out)."""
        from models.performance.results import CurvePoint

        def at_target(wp, latency_ms: float | None) -> tuple:
            """The point the chart's circle marks at the target, as the table and the Bad day line read it."""
            if wp.target_iops is None or not finite(latency_ms) or wp.operating_iops <= 0:
                return ()
            return (CurvePoint(wp.target_iops, latency_ms, wp.target_iops * wp.block_kib * 1024 / 1e6,
                               wp.host_latency_at_target_ms),)

        resilience = self._resilience()
        for workload in self._workloads:
            yield workload, None, (*workload.curve, *workload.open_curve,
                                   *at_target(workload, operating_latency(workload)))
            for state in (resilience.states.get(workload.workload_id, ()) if resilience is not None else ()):
                item = self.state_curve_item(workload.workload_id, state.state)
                if item is not None and item.isVisible():
                    wp = state.performance
                    yield workload, state, (*wp.curve, *wp.open_curve, *at_target(wp, wp.latency_at_target_ms))

    def _on_mouse_moved(self, args) -> None:
        """Crosshair: snap to the curve point nearest the mouse (in pixels) and show its IOPS, latency, MB/s; off
        the chart it is cleared (:meth:`clear_readout`)."""
        scene_pos = args[0] if isinstance(args, (tuple, list)) else args
        vb = self.plot.getViewBox()
        if not self._workloads or not vb.sceneBoundingRect().contains(scene_pos):
            self.clear_readout()
            return
        mouse = vb.mapSceneToView(scene_pos)
        pixel = vb.viewPixelSize()
        best = None
        for workload, state, points in self._hover_curves():
            for point in points:
                if (self._log_x and point.iops <= 0) or (self._log_y and point.latency_ms <= 0):
                    continue
                dx = (self._tx(point.iops) - mouse.x()) / (pixel[0] or 1.0)
                dy = (self._ty(point.latency_ms) - mouse.y()) / (pixel[1] or 1.0)
                distance = dx * dx + dy * dy
                if best is None or distance < best[0]:
                    best = (distance, workload, state, point)
        if best is None:
            return
        _, workload, state, point = best
        self.readout_point = (workload.name, point)
        self.readout_state = state_label(state) if state is not None else ""
        x, y = self._tx(point.iops), self._ty(point.latency_ms)
        self._cross_v.setPos(x)
        self._cross_h.setPos(y)
        self._cross_dot.setData([point.iops], [point.latency_ms])
        for item in (self._cross_v, self._cross_h, self._cross_dot):
            item.setVisible(True)
        self._show_readout()

    def _show_readout(self) -> None:
        """The readout's text for :attr:`readout_point` fitted to the label's width: the figures whole, the
        workload's name cut short with "…" first, then the host latency and the MB/s left out (at 1366 px the
        text was cut off mid-figure: review 57 #6); the whole text in its tooltip."""
        if self.readout_point is None or not self._workloads:
            return
        name, point = self.readout_point
        index = next((k for k, w in enumerate(self._workloads) if w.name == name), 0)
        dot = f"<span style='color:{series_color(index).name()}'>\u25cf</span> "
        state = f" in {self.readout_state}" if self.readout_state else ""
        figures = [f"<b>{fmt_iops(point.iops)} IOPS</b>", f"<b>{fmt_ms(point.latency_ms)}</b>"]
        host = f" (host {fmt_ms(point.host_latency_ms)})" if point.host_latency_ms is not None else ""
        mbps = fmt_mbps(point.mbps)
        plain = QFontMetrics(self.readout.font())
        bold_font = QFont(self.readout.font())
        bold_font.setBold(True)
        bold = QFontMetrics(bold_font)
        room = self.readout.contentsRect().width() - 4
        sep = " \u00b7 "

        def width(label: str, host_text: str, mbps_text: str) -> int:
            return (plain.horizontalAdvance("\u25cf " + label + sep * 2 + host_text + (sep + mbps_text if mbps_text
                                                                                       else ""))
                    + bold.horizontalAdvance(f"{fmt_iops(point.iops)} IOPS{fmt_ms(point.latency_ms)}"))

        def text(label: str, host_text: str, mbps_text: str) -> str:
            return (dot + (html_escape(label) + sep if label else "") + figures[0] + sep + figures[1] + host_text
                    + (sep + mbps_text if mbps_text else ""))

        whole = name + state
        self.readout.setToolTip(plain_tooltip(f"{whole}: {fmt_iops(point.iops)} IOPS, {fmt_ms(point.latency_ms)}"
                                              f"{host}, {mbps}"))
        for host_text, mbps_text in ((host, mbps), ("", mbps), ("", "")):
            spare = room - width("", host_text, mbps_text)
            if spare >= plain.horizontalAdvance(whole):
                self.readout.setText(text(whole, host_text, mbps_text))
                return
            # the state's words whole, the workload's name cut (at least a few characters of it)
            cut = plain.elidedText(name, Qt.TextElideMode.ElideRight, spare - plain.horizontalAdvance(state))
            if len(cut) >= min(len(name), 6):
                self.readout.setText(text(cut + state, host_text, mbps_text))
                return
        self.readout.setText(text(self.readout_state, "", ""))  # the figures alone (and the state's name)

    def clear_readout(self) -> None:
        """No crosshair and an empty readout: the mouse left the chart, or a new result replaced the curves whose
        point it read (it kept "598K IOPS" after the target changed: review 57 #6)."""
        self.readout_point = None
        self.readout_state = ""
        if self.readout.text():
            self.readout.clear()
            self.readout.setToolTip("")
        for item in (self._cross_v, self._cross_h, self._cross_dot):
            item.setVisible(False)

    def view_to_scene(self, iops: float, latency_ms: float) -> QPointF:
        """The scene position of a data point (for tests and tools driving the crosshair)."""
        return self.plot.getViewBox().mapViewToScene(QPointF(self._tx(iops), self._ty(latency_ms)))

    def _on_util_clicked(self, event) -> None:
        vb = self.util_plot.getViewBox()
        if not self._util_stations or not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        index = round(vb.mapSceneToView(event.scenePos()).y())
        if 0 <= index < len(self._util_stations):
            self.explain_station(self._util_stations[index].name)
            if self._util_stations[index].component:
                self.sig_component_activated.emit(self._util_stations[index].component)

    def _explain(self, title: str, lines: list[str]) -> QDialog:
        """Show an explanation in the view's explanation window (one, reused, not modal)."""
        if self.explanation is None:
            self.explanation = QDialog(self)
            self.explanation.setObjectName("performanceExplanation")
            self.explanation.resize(620, 300)
            self.explanation_text = QTextBrowser(self.explanation)
            QVBoxLayout(self.explanation).addWidget(self.explanation_text)
        self.explanation.setWindowTitle(title)
        self.explanation_text.setPlainText("\n".join(lines))
        self.explanation.show()
        self.explanation.raise_()
        return self.explanation

    def explain_cell(self, row: int, column: int) -> QDialog | None:
        """Explain the summary figure at (row, column) when it has an explanation (``models.present.explain``)."""
        name = self.SUMMARY_COLUMNS[column] if 0 <= column < len(self.SUMMARY_COLUMNS) else ""
        if name not in FIGURES or not 0 <= row < len(self._workloads):
            return None
        wp = self._workloads[row]
        return self._explain(f"{name} — {wp.name}", explain_figure(wp, name))

    def explain_station(self, name: str) -> QDialog | None:
        """Explain a station's utilisation and residence time for the selected workload."""
        wp = self.selected_workload()
        lines = explain_station(wp, name) if wp is not None else []
        return self._explain(f"{name} — {wp.name}", lines) if lines else None

    def _ask_export_png(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, "Export latency chart", "latency.png",
                                                   "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            if chosen.startswith("SVG") and not path.lower().endswith(".svg"):
                path += ".svg"
            self.export_png(path)

    def _ask_export_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export curve points", "curves.csv", "CSV (*.csv)")
        if path:
            self.export_csv(path)

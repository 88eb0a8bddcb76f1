"""Pieces every result view shares: palette-aware colours, the stale banner, the empty/problem message, number
formatting that never shows nan or inf, and pyqtgraph plot styling that follows the system palette."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLayout, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from models.formatting import (  # noqa: F401 - the views import their formatting from here
    NOT_AVAILABLE,
    NOT_MET,
    SATURATED,
    finite,
    fmt_capacity,
    fmt_capacity_delta,
    fmt_iops,
    fmt_mbps,
    fmt_ms,
    fmt_number,
    fmt_pct,
    fmt_ratio,
)

if TYPE_CHECKING:
    from models.evaluate import Evaluation

# Series colours: a colour-blind-safe set (Okabe-Ito, slightly deepened) that stays legible on white and on a
# dark base alike. Meaning-bearing colours (drop, gain, total, warning) are chosen from the same family.
SERIES = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#8C6BB1", "#7F7F7F")
DROP = "#D55E00"
GAIN = "#009E73"
TOTAL = "#0072B2"
WARNING = "#E69F00"
FAIL = "#D0342C"
STATE_COLORS = {
    "takeover": "#B2182B",
    "path_loss": "#7B3294",
    "drive_rebuild": "#8C510A",
    "host_failure": "#E7298A",
    "cloud_failover": "#01665E",
    "switchover": "#4D4D4D",
    "site_failure": "#66A61E",
}
"""One colour per failure state (``models.present.resilience.STATE_NAMES``), each distinct from the others and
from the workload series; a state not listed takes its place in :data:`STATE_FALLBACK`."""
STATE_FALLBACK = ("#A6761D", "#1B9E77", "#666666")
PASS = "#1E9E5A"


def series_color(index: int) -> QColor:
    """The colour of the ``index``-th series (workload), cycling."""
    return QColor(SERIES[index % len(SERIES)])


def state_color(state: str) -> QColor:
    """The colour of a failure state's curve (distinct per state; unknown states cycle a fallback palette)."""
    if state in STATE_COLORS:
        return QColor(STATE_COLORS[state])
    return QColor(STATE_FALLBACK[sum(map(ord, state)) % len(STATE_FALLBACK)])


def text_color(widget: QWidget) -> QColor:
    """The palette's text colour of ``widget`` (readable in light and dark themes)."""
    return widget.palette().color(QPalette.ColorRole.Text)


def base_color(widget: QWidget) -> QColor:
    """The palette's base (background) colour of ``widget``."""
    return widget.palette().color(QPalette.ColorRole.Base)


def muted_color(widget: QWidget) -> QColor:
    """A grey between text and base, for grid lines, crosshairs and secondary text."""
    text, base = text_color(widget), base_color(widget)
    return QColor(
        (text.red() + base.red()) // 2, (text.green() + base.green()) // 2, (text.blue() + base.blue()) // 2
    )


def tint(color: str | QColor, alpha: int = 60) -> QColor:
    """A translucent version of a colour, for cell backgrounds readable in light and dark palettes."""
    result = QColor(color)
    result.setAlpha(alpha)
    return result


# ---------------------------------------------------------------------------------------------------------------
# Formatting: every number a view shows goes through models.formatting (the same words as the CLI and the
# report); None and non-finite values become words.


def html_escape(text: str) -> str:
    """Text made safe for a rich-text label or tooltip (``&``, ``<`` and ``>`` escaped)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


VERDICT_COLOURS = {"fail": FAIL, "pass": PASS, "caution": WARNING, "open": ""}
"""The colour of each verdict kind's mark (``models.present.verdicts``)."""


def verdict_html(verdicts) -> str:
    """``models.present.Verdict`` lines as rich text: a coloured mark, the subject in bold, the sentence."""
    lines = []
    for v in verdicts:
        colour = VERDICT_COLOURS.get(v.kind, "")
        mark = f"<span style='color:{colour}'>{v.mark}</span>" if colour else v.mark
        subject = f"<b>{html_escape(v.subject)}</b>: " if v.subject else ""
        lines.append(f"{mark} {subject}{html_escape(v.text)}")
    return "<br>".join(lines)


def verdict_label(object_name: str, label_class: type[QLabel] = QLabel) -> QLabel:
    """A word-wrapped rich-text label for verdict lines (hidden until there are some); ``label_class`` a QLabel
    subclass to make it of (the Capacity tab's never clips its lines: ``whole_label.WholeLabel``)."""
    label = label_class()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def problem_messages(evaluation: Evaluation, engine: str) -> list[str]:
    """The messages explaining why one engine's result is missing: its own failure first, then topology errors."""
    errors = evaluation.errors
    own = [p.message for p in errors if engine in p.message]
    return own or [p.message for p in errors]


# ---------------------------------------------------------------------------------------------------------------
# Widgets


class _Banner(QFrame):
    """A slim tinted banner over a result view: an icon and a word-wrapped line (hidden until used).

    Args: name: object name (for its style sheet); rgb: the tint, "r, g, b"; icon_name / color: its mark.
    """

    def __init__(self, name: str, rgb: str, icon_name: str, color: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self.setStyleSheet(f"#{name} {{ background: rgba({rgb}, 45); border: 1px solid rgba({rgb}, 155);"
                           " border-radius: 4px; }")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 8, 3)
        self._icon = QLabel()
        self._icon.setPixmap(icon(icon_name, color).pixmap(16, 16))
        self._label = QLabel()
        self._label.setWordWrap(True)
        layout.addWidget(self._icon)
        layout.addWidget(self._label, 1)
        self.hide()

    def text(self) -> str:
        return self._label.text()


class StaleBanner(_Banner):
    """A slim amber banner "Results out of date: <message>", shown while the view keeps its last good result."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__("staleBanner", "230, 159, 0", "mdi6.alert", WARNING, parent)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def set_stale(self, stale: bool, message: str = "") -> None:
        """Show (``stale``) or hide the banner with ``message``."""
        text = "Results out of date" + (f": {message}" if message else "")
        self._label.setText(text)
        self.setVisible(stale)


class ProblemsBanner(_Banner):
    """A slim red banner shown above results computed from a design that has errors (a shelf with more drives
    than bays, a missing link...): the figures are what the engines make of the design as drawn, which may not
    be what the user means. Its "Show problems" link emits :attr:`sig_show_problems`."""

    sig_show_problems = Signal()
    """The user clicked "Show problems"."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__("problemsBanner", "208, 52, 44", "mdi6.alert-octagon", FAIL, parent)
        self._label.setTextFormat(Qt.TextFormat.RichText)
        self._label.linkActivated.connect(lambda _link: self.sig_show_problems.emit())

    def set_errors(self, messages: Sequence[str]) -> None:
        """Show the banner for these error messages (hidden when there are none)."""
        from html import escape

        if not messages:
            self.hide()
            return
        n = len(messages)
        first = escape(messages[0])
        more = f" (and {n - 1} more)" if n > 1 else ""
        self._label.setText(
            f"<b>The design has {n} error{'s' if n != 1 else ''}</b>; these results may not mean what you "
            f"intend: {first}{more}. <a href='problems'>Show problems</a>"
        )
        self.show()


class MessagePanel(QWidget):
    """The centred message that replaces a chart when there is nothing to show, or the engine could not run."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self._title = QLabel()
        self._title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = QFont(self._title.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self._title.setFont(font)
        self._detail = QLabel()
        self._detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._detail.setWordWrap(True)
        self._detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._detail.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout.addWidget(self._title)
        layout.addWidget(self._detail)
        layout.addStretch(2)

    def show_message(self, title: str, details: Sequence[str] = ()) -> None:
        """Show ``title`` in bold with the ``details`` lines under it."""
        self._title.setText(title)
        self._detail.setText("\n".join(details))
        self._detail.setVisible(bool(details))

    def text(self) -> str:
        """The panel's text as shown (title and details), for tests and accessibility."""
        return "\n".join(t for t in (self._title.text(), self._detail.text()) if t)


LOG_TICK_FACTORS = ((1, 2, 5), (1, 1.5, 2, 3, 5, 7), (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9))
"""A log axis's labelled steps per decade, coarse to fine: the first that gives an axis three labels (the A90's
0.09-0.17 ms Log latency axis had the one label "0.1": revperf57 #14)."""


class ValueAxis(pg.AxisItem):
    """An axis whose tick labels read like the tables (``100K`` IOPS, ``0.5`` ms), linear or log.

    In log mode it labels 1-2-5 steps instead of pyqtgraph's nine minor ticks per decade, which overlap.
    """

    def __init__(self, orientation: str, kind: str = "number", **kwargs):
        super().__init__(orientation, **kwargs)
        self.kind = kind
        self.enableAutoSIPrefix(False)  # the labels format real values (0.9 ms), never "900 (x0.001)"

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802 (pyqtgraph's name)
        """On a log axis spanning few decades, minor ticks at 1, 2 and 5 per decade, finer steps on an axis short
        of a decade (``LOG_TICK_FACTORS``; pyqtgraph's hook)."""
        major = [(spacing, t) for spacing, t in stdTicks if spacing >= 1.0]
        if len(major) >= 3 or maxVal - minVal > 3:
            return major
        for factors in LOG_TICK_FACTORS:  # the first steps giving three labels: a 0.09-0.17 ms axis had one
            minor = []
            for decade in range(int(math.floor(minVal)), int(math.ceil(maxVal)) + 1):
                for factor in factors:
                    value = decade + math.log10(factor)
                    if minVal < value < maxVal:
                        minor.append(value)
            if len(minor) >= 3:
                break
        return [(None, minor)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        """Tick labels: IOPS with K / M suffixes, other values to 6 significant digits (pyqtgraph's hook)."""
        strings = []
        for value in values:
            real = 10 ** value if self.logMode else value * scale
            strings.append(self._format(real))
        return strings

    def _format(self, value: float) -> str:
        if not math.isfinite(value):
            return ""
        if self.kind == "iops":
            if value == 0:
                return "0"
            if abs(value) >= 1e6:
                return f"{value / 1e6:g}M"
            if abs(value) >= 1e3:
                return f"{value / 1e3:g}K"
            return f"{value:g}"
        return f"{value:.6g}"


def make_plot(parent: QWidget | None = None, **kwargs) -> pg.PlotWidget:
    """A PlotWidget whose background, axes and text follow the parent's palette (light or dark), without pyqtgraph's
    context menus: made with ``enableMenu=False`` (the plot item's and its view box's menus off), so the view box's
    menu is never built rather than built and dropped by a later ``setMenuEnabled(False)`` (11 of the 70 million
    instructions a plot took to make, callgrind; the first results' chart is made between the first window and the
    first results)."""
    plot = pg.PlotWidget(parent=parent, enableMenu=False, **kwargs)
    style_plot(plot, parent or plot)
    return plot


def style_plot(plot: pg.PlotWidget, palette_source: QWidget) -> None:
    """Give a plot the views' look: the widget's palette colours for background, axes and text."""
    text = text_color(palette_source)
    plot.setBackground(base_color(palette_source))
    font = QFont(palette_source.font())
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(muted_color(palette_source)))
        axis.setTextPen(pg.mkPen(text))
        axis.setStyle(tickFont=font)
        axis.label.setFont(font)


def export_plot(plot: pg.PlotWidget, path, title: str, scale: float = 2.0) -> None:
    """Write a chart as a PNG (``scale`` x its on-screen size, at least 800 px wide, for slides) or, when
    ``path`` ends in ``.svg``, as an SVG drawing: Qt's SVG generator paints the widget as vector paths, for
    documents (pyqtgraph's own SVG exporter cannot parse the paths Qt 6.11 writes). Either is drawn in memory
    and written atomically (``models.atomic``: a temporary file, fsync, rename; a new file's mode is
    ``0o666 & ~umask``), so a failed export leaves any file at ``path`` as it was.

    Raises:
        OSError: the image cannot be encoded or the file cannot be written.
    """
    from PySide6.QtCore import QBuffer, QIODevice

    from models.atomic import write_bytes_atomic

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if str(path).lower().endswith(".svg"):
        from PySide6.QtCore import QRect
        from PySide6.QtGui import QPainter
        from PySide6.QtSvg import QSvgGenerator

        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(plot.size())
        generator.setViewBox(QRect(0, 0, plot.width(), plot.height()))
        generator.setTitle(title)
        painter = QPainter(generator)
        try:
            plot.render(painter)
        finally:
            painter.end()
    else:
        import pyqtgraph.exporters  # noqa: F401  (registers pg.exporters)

        exporter = pg.exporters.ImageExporter(plot.plotItem)
        exporter.parameters()["width"] = max(int(plot.width() * scale), 800)
        if not exporter.export(toBytes=True).save(buffer, "PNG"):
            raise OSError(f"cannot encode the chart as PNG for {path}")
    buffer.close()
    write_bytes_atomic(path, bytes(buffer.data()))


def ask_export_plot(parent: QWidget, plot: pg.PlotWidget, what: str, default_name: str) -> str | None:
    """Ask where to write a chart (PNG or SVG) and write it; the path written, or None when cancelled."""
    from PySide6.QtWidgets import QFileDialog

    path, chosen = QFileDialog.getSaveFileName(parent, f"Export {what}", default_name,
                                               "PNG image (*.png);;SVG drawing (*.svg)")
    if not path:
        return None
    if chosen.startswith("SVG") and not path.lower().endswith(".svg"):
        path += ".svg"
    export_plot(plot, path, f"StorPlan {what}")
    return path


def axis_label_style(widget: QWidget) -> dict:
    """The keyword arguments of ``PlotItem.setLabel`` for an axis caption in the widget's muted colour."""
    return {"color": text_color(widget).name(), "font-size": f"{max(widget.font().pointSizeF(), 9):.0f}pt"}


def max_text_width(widget: QWidget, texts: Iterable[str]) -> int:
    """The widest of ``texts`` in the widget's font, pixels."""
    metrics = widget.fontMetrics()
    return max((metrics.horizontalAdvance(t) for t in texts), default=0)


def icon(name: str, color: str | QColor | None = None):
    """A named ``mdi6`` icon in ``color`` (else the palette's text colour), from the app's one icon source."""
    from app.gui.icons import icon as app_icon

    return app_icon(name, QColor(color).name(QColor.NameFormat.HexArgb) if color is not None else None)


def stacked_result_layout(view: QWidget, banner: QWidget, top: QLayout | QWidget, body: QWidget,
                          empty_message: str) -> tuple[QStackedWidget, MessagePanel]:
    """Lay out a result view: the stale banner, then a stack of the content (``top`` above ``body``) and a
    message panel showing ``empty_message`` until there is something to show.

    Returns (stack, message panel); the stack shows the message panel first.
    """
    content = QWidget()
    content_layout = QVBoxLayout(content)
    content_layout.setContentsMargins(0, 0, 0, 0)
    if isinstance(top, QLayout):
        content_layout.addLayout(top)
    else:
        content_layout.addWidget(top)
    content_layout.addWidget(body, 1)
    message = MessagePanel()
    message.show_message(empty_message)
    stack = QStackedWidget()
    stack.addWidget(content)
    stack.addWidget(message)
    stack.setCurrentWidget(message)
    layout = QVBoxLayout(view)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(banner)
    layout.addWidget(stack, 1)
    return stack, message


def remember_splitter(splitter, key: str) -> None:
    """Restore a splitter's sizes from the declared setting ``key`` and store them whenever the user drags it
    (the default sizes stay for a first start, or when the saved state no longer fits the splitter)."""
    from app.gui import settings

    state = settings.get(key)
    if not state.isEmpty():
        splitter.restoreState(state)
    splitter.splitterMoved.connect(lambda *_: settings.put(key, splitter.saveState()))


def make_latency_plot(view: QWidget) -> tuple[pg.PlotWidget, pg.LegendItem]:
    """A latency-vs-IOPS plot (IOPS / ms axes, light grid) whose legend sits in its own row above the chart
    (the title row), so it never hides a curve or label and still appears in exported images."""
    plot = make_plot(view, axisItems={"bottom": ValueAxis("bottom", "iops"), "left": ValueAxis("left", "ms")})
    plot.showGrid(x=True, y=True, alpha=0.15)
    plot.setLabel("bottom", "IOPS", **axis_label_style(view))
    plot.setLabel("left", "Latency (ms)", **axis_label_style(view))
    item = plot.plotItem
    legend = pg.LegendItem(colCount=3, labelTextColor=text_color(view), horSpacing=LEGEND_SPACING)
    item.layout.removeItem(item.titleLabel)
    item.titleLabel.hide()
    item.layout.addItem(legend, 0, 1)
    return plot, legend


LEGEND_SPACING = 6
"""Pixels between a legend entry's sample and its text, and between columns (14 made three columns too wide for
a laptop's chart, so its nine entries took five rows: REVIEW43 #6)."""


def fit_legend_columns(plot: pg.PlotWidget, legend: pg.LegendItem, most: int = 5) -> int:
    """Give the legend as many columns (1 to ``most``) as the plot's width holds side by side, so no entry is
    clipped at the right edge on a narrow screen (1366x768, 200%); returns the number of columns."""
    items = list(legend.items)
    if not items:
        return legend.columnCount
    spacing = legend.layout.horizontalSpacing() if legend.layout.horizontalSpacing() > 0 else 14
    widths = [sample.boundingRect().width() + label.item.boundingRect().width() + 2 * spacing
              for sample, label in items]
    room = plot.width() - plot.getAxis("left").width() - 16
    columns = 1
    for count in range(min(most, len(widths)), 1, -1):
        # the legend fills its rows left to right: column k holds items k, k + count, ...; each column is as wide
        # as its widest entry
        if sum(max(widths[k::count]) for k in range(count)) <= room:
            columns = count
            break
    if columns != legend.columnCount:
        legend.setColumnCount(columns)
    return columns

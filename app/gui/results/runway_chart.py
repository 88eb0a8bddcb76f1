"""The runway as a chart on screen: each resource's use as a share of its limit, month by month, with the 100%
line where it runs out (the same series as the report's runway chart: ``models.present.resilience.runway_series``).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from app.gui.results._common import (
    axis_label_style,
    base_color,
    export_plot,
    html_escape,
    make_plot,
    muted_color,
    series_color,
    text_color,
    tint,
)
from app.gui.screen_fit import fit_to_screen
from models.present.capacity_band import band_lines, runway_band_series
from models.present.resilience import (
    runway_beyond_note,
    runway_horizon_months,
    runway_lines_with_dr_copies,
    runway_series,
)

RUNWAY_MONTHS = 60
"""Months drawn when every event falls within five years (``models.present.resilience.runway_horizon_months``
stretches it, as the report's, to show a later one)."""
Y_CAP_PCT = 300.0
"""The y axis stops here: a line far beyond its limit says enough by crossing 100%."""


class RunwayDialog(QDialog):
    """The runway chart of one evaluation (see module); ``series`` holds what is drawn (for tests and export).

    Args:
        evaluation: an ``Evaluation`` with its ``resilience`` (and its ``capacity_band``: the capacity line's
            P10-P90 band is shaded; ``band`` holds it as (month, low %, high %)); parent: the view it belongs to.
    """

    def __init__(self, evaluation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Runway — {evaluation.scenario}")
        fit_to_screen(self, QSize(760, 480))
        resilience = evaluation.resilience
        self.months = runway_horizon_months(resilience)
        """The months drawn: five years, or to the year past the latest event (up to ten)."""
        self.series = runway_series(evaluation, resilience, None, self.months)
        self.plot = make_plot(self)
        self.plot.setLabel("bottom", "Months from now", **axis_label_style(self))
        self.plot.setLabel("left", "Use of the limit (%)", **axis_label_style(self))
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        # the text colour given before the entries are added: set after, it changed the option but not the words
        # drawn, which stayed pyqtgraph's light grey on white (revperf57 #14); a backdrop under the words where a
        # line passes behind them
        self.plot.addLegend(offset=(10, 10), labelTextColor=text_color(self),
                            brush=pg.mkBrush(tint(base_color(self), 220)))
        top = 100.0
        for i, (name, points) in enumerate(self.series):
            xs = [m for m, _ in points]
            ys = [min(v, Y_CAP_PCT) for _, v in points]
            top = max(top, max(ys, default=0.0))
            self.plot.plot(xs, ys, pen=pg.mkPen(series_color(i), width=2), name=name)
        self.band = self._draw_band(evaluation)
        top = max([top, *(min(high, Y_CAP_PCT) for _, _, high in self.band)])
        limit = pg.InfiniteLine(pos=100.0, angle=0, pen=pg.mkPen(muted_color(self), width=1.5,
                                                                 style=Qt.PenStyle.DashLine))
        self.plot.addItem(limit)
        self.plot.setXRange(0, self.months, padding=0.02)
        self.plot.setYRange(0, top * 1.05, padding=0)
        lines = [line[0].upper() + line[1:] for line in runway_lines_with_dr_copies(resilience, evaluation)]
        beyond = runway_beyond_note(resilience, self.months)
        if beyond:  # an event past ten years: said, since the chart cannot show it
            lines.append(beyond[0].upper() + beyond[1:])
        if self.band and evaluation.capacity_band is not None:
            lines += [line for line in band_lines(evaluation.capacity_band) if line.startswith("Months until full")]
        caption = QLabel("<br>".join(html_escape(line) for line in lines)
                         or "No growth is stated: the runway does not end.")
        caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.plot, 1)
        layout.addWidget(caption)

    def _draw_band(self, evaluation) -> list[tuple[float, float, float]]:
        """The capacity line's P10-P90 band (``models.present.capacity_band.runway_band_series``): shaded between
        the P90 data-reduction ratio's line and the P10 one's. Returns (month, low %, high %) as drawn."""
        band = evaluation.capacity_band if evaluation is not None else None
        if band is None:
            return []
        low, high = runway_band_series(band, self.months)
        if not low or all(abs(a[1] - b[1]) < 1e-9 for a, b in zip(low, high)):
            return []
        lower = self.plot.plot([m for m, _ in low], [min(v, Y_CAP_PCT) for _, v in low],
                               pen=pg.mkPen(series_color(0), width=1, style=Qt.PenStyle.DotLine))
        upper = self.plot.plot([m for m, _ in high], [min(v, Y_CAP_PCT) for _, v in high],
                               pen=pg.mkPen(series_color(0), width=1, style=Qt.PenStyle.DotLine),
                               name="capacity P10-P90 (data-reduction band)")
        shade = QColor(series_color(0))
        shade.setAlpha(50)
        self.plot.addItem(pg.FillBetweenItem(lower, upper, brush=pg.mkBrush(shade)))
        return [(m, a, b) for (m, a), (_, b) in zip(low, high)]

    def export(self, path) -> None:
        """Write the chart as a PNG, or an SVG drawing when ``path`` ends in ``.svg``."""
        export_plot(self.plot, path, "StorPlan runway")

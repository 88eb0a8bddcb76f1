"""Tools → Calibrate from Lab Data: a lab's measured curve (CSV: iops, latency_ms) fitted to the project's
controller through the same engine as ``storplan calibrate --csv`` (``models.calibration.fit_from_csv``), shown
with the fitted curve, its uncertainty band and the residual of every point, and saved as hardware of the user's
own. The fit and the save run on the dialog's runner, never on the GUI thread; a bad CSV is refused with the line
and column named."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.plain_text import escape, rich
from app.gui.results._common import make_plot, series_color
from app.gui.screen_fit import fit_to_screen
from app.gui.tasks import TaskRunner
from models.calibration import CalibrationError
from models.calibration.fit import check_load_spread, read_points_csv
from models.formatting import fmt_signed_pct


def fit_job(_state, path: Path, project, catalog):
    """The fit and the fitted curve (runs on the runner): (profile, record with it, workload performance)."""
    from models.calibration.fit import fit_from_csv
    from models.performance import evaluate_performance
    from models.user_catalog import with_profile

    scenario = project.scenario
    profile = fit_from_csv(path, scenario, catalog)
    workload = next(w for w in scenario.workloads if w.enabled)
    record = with_profile(catalog.get(scenario.node(workload.target).catalog_id), profile)
    wp = evaluate_performance(scenario, catalog.with_entries([record]), project.settings).for_workload(workload.id)
    return profile, record, wp


_FIELD_WORDS = {
    "cpu_read_us": ("CPU per read", "µs"),
    "cpu_write_us": ("CPU per write", "µs"),
    "fixed_latency_us": ("fixed latency", "µs"),
    "servers_per_node": ("servers per node", ""),
    "affinities_per_node": ("affinities per node", ""),
}


def _field_words(key: str) -> tuple[str, str]:
    """A profile field's name as a person reads it, and its unit ("CPU per read", "µs")."""
    if key in _FIELD_WORDS:
        return _FIELD_WORDS[key]
    for suffix, unit in (("_us", "µs"), ("_ms", "ms"), ("_mbps", "MB/s")):
        if key.endswith(suffix):
            return key.removesuffix(suffix).replace("_", " "), unit
    return key.replace("_", " "), ""


BAND_LABEL = "80% band of the fit"
"""The legend's name for the fitted curve's uncertainty band (P10 to P90 of the predicted mean latency)."""

BAND_MIN_PX = 6
"""The band's least width on screen (pixels): its outline's width, so a fit with a tiny standard error still shows
its band around the curve."""

BAND_ALPHA = 90
"""The band's opacity (0-255) over the plot's background."""


def fit_message(profile, points: list[tuple[float, float]], wp, file_name: str) -> str:
    """The result of a fit in words: what was fitted to how many points, each fitted value with its standard error,
    and how closely the curve follows the points (RMS relative residual). Names no code or module."""
    parts = [f"CPU per read {profile.cpu_read_us:.1f} µs", f"{profile.servers_per_node} servers per node",
             f"fixed latency {profile.fixed_latency_us:.1f} µs"]
    errors = []
    for key, value in profile.stderr.items():
        words, unit = _field_words(key)
        errors.append(f"{words} ±{value:.3g}{' ' + unit if unit else ''}")
    relative = [(f - y) / y for x, y in points if y and (f := wp.latency_on_curve_ms(x)) is not None]
    rms = (sum(r * r for r in relative) / len(relative)) ** 0.5 if relative else None
    text = (f"Fitted {profile.software} {profile.protocol} to {len(points)} points of {file_name}: "
            + ", ".join(parts) + ".")
    text += f" Standard errors: {', '.join(errors)}." if errors else " The fit gives no standard errors."
    if rms is not None:
        text += f" The fitted curve is within {rms:.1%} of the measured latencies (RMS)."
    return text


class CalibrationDialog(QDialog):
    """Choose a CSV, preview it, fit, look at the residuals, save (see module).

    "Save as my hardware" saves the fit as a record of the user's own under a new id and name ("AFF A50 (lab fit
    2026-11-28)"), never over the stock record, and emits :attr:`sig_saved` so the window can switch the node.
    """

    sig_saved = Signal(str, str)
    """A fit was saved: (the new record's id, the id of the node it was fitted on)."""

    def __init__(self, project, catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Calibrate from lab data")
        fit_to_screen(self, QSize(900, 620))
        self._project, self._catalog = project, catalog
        self.runner = TaskRunner(self, "calibration")
        self.points: list[tuple[float, float]] = []
        self.path: Path | None = None
        self.result = None
        self.saved_record = None
        self.band: pg.FillBetweenItem | None = None
        """The fitted curve's uncertainty band (P10 to P90), after a fit."""
        self.plot = make_plot(self)
        self.plot.setLabel("bottom", "IOPS")
        self.plot.setLabel("left", "Latency (ms)")
        self.legend = self.plot.addLegend(offset=(10, 10))
        self.message = QLabel("Choose a CSV with columns iops and latency_ms: one row per load point of the lab's "
                              "ramp, measured on the project's first workload and controller.")
        self.message.setWordWrap(True)
        self.residuals = QTableWidget(0, 4)
        self.residuals.setHorizontalHeaderLabels(["IOPS", "Measured (ms)", "Fitted (ms)", "Residual"])
        self.residuals.horizontalHeader().setStretchLastSection(True)
        self.choose = QPushButton("Choose CSV…")
        self.fit_button = QPushButton("Fit")
        self.save_button = QPushButton("Save as my hardware")
        self.fit_button.setEnabled(False)
        self.save_button.setEnabled(False)
        buttons = QHBoxLayout()
        for b in (self.choose, self.fit_button, self.save_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        layout.addWidget(self.plot, 2)
        layout.addWidget(self.residuals, 1)
        self.choose.clicked.connect(self._ask)
        self.fit_button.clicked.connect(self.fit)
        self.save_button.clicked.connect(self.save)

    def _ask(self) -> None:
        """Ask for the CSV file, then load it."""
        path, _ = QFileDialog.getOpenFileName(self, "Lab measurements", str(Path.home()), "CSV files (*.csv)")
        if path:
            self.load(Path(path))

    def load(self, path: Path) -> bool:
        """Read and preview the CSV's points; a bad file is refused with its line and column named."""
        try:
            self.points = read_points_csv(path)
            check_load_spread(self.points, path.name)  # one point, or one load: nothing a fit can use
        except (CalibrationError, OSError) as exc:
            self.points, self.path = [], None
            self.message.setText(f"<span style='color:#c0392b'>Cannot use this file: {escape(str(exc))}</span>")
            self.fit_button.setEnabled(False)
            return False
        self.path = path
        self.plot.clear()
        self.plot.plot([x for x, _ in self.points], [y for _, y in self.points], pen=None, symbol="o",
                       symbolBrush=series_color(1), name="your lab measurements")
        self.message.setText(rich(f"{len(self.points)} points from {path.name}. Fit them to "
                                  f"{self._project.scenario.name}'s controller."))
        self.fit_button.setEnabled(True)
        return True

    def fit(self) -> None:
        """Fit on the runner; the curve and residuals appear when it is done."""
        if self.path is None:
            return
        self.fit_button.setEnabled(False)
        self.message.setText("Fitting…")
        self.runner.submit(fit_job, self.path, self._project, self._catalog, name="calibration fit",
                           on_done=self._fitted)

    def _fitted(self, ok: bool, result) -> None:
        """Show the fitted curve with its band and each point's residual."""
        self.fit_button.setEnabled(True)
        if not ok:
            self.message.setText(f"<span style='color:#c0392b'>The fit failed: {escape(str(result))}</span>")
            return
        self.result = result
        profile, _record, wp = result
        points = [*wp.curve, *wp.open_curve]
        xs = [p.iops for p in points]
        self.plot.plot(xs, [p.latency_ms for p in points], pen=pg.mkPen(series_color(0), width=2), name="fitted curve")
        lo = [p.latency_band_p10_ms if p.latency_band_p10_ms is not None else p.latency_ms for p in points]
        hi = [p.latency_band_p90_ms if p.latency_band_p90_ms is not None else p.latency_ms for p in points]
        edge = pg.mkPen(None)
        low_item, high_item = pg.PlotDataItem(xs, lo, pen=edge), pg.PlotDataItem(xs, hi, pen=edge)
        band_color = QColor(series_color(0))
        band_color.setAlpha(BAND_ALPHA)
        # the outline is a wide screen-space pen: a band narrower than that (a fit with a tiny standard error)
        # still shows, as a halo of BAND_MIN_PX around the fitted curve
        outline = pg.mkPen(band_color, width=BAND_MIN_PX)
        outline.setCosmetic(True)
        outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self.band = pg.FillBetweenItem(low_item, high_item, brush=pg.mkBrush(band_color), pen=outline)
        self.band.setToolTip(f"{BAND_LABEL}: P10 to P90 of the predicted mean latency, from the standard errors "
                             f"of the fitted values (drawn at least {BAND_MIN_PX} pixels wide)")
        self.band.setZValue(-1)
        for item in (low_item, high_item):  # no pen: they draw nothing, and give the axes the band's extent
            self.plot.addItem(item)
        # its own bounds would add half the outline's width in data units (a cosmetic pen is pixels on screen)
        self.plot.addItem(self.band, ignoreBounds=True)
        sample = pg.PlotDataItem(pen=pg.mkPen(band_color, width=BAND_MIN_PX))  # the band's look, for the legend
        sample.visibleChanged.connect(lambda band=self.band, sample=sample: band.setVisible(sample.isVisible()))
        self.legend.addItem(sample, BAND_LABEL)
        self.residuals.setRowCount(len(self.points))
        for r, (x, y) in enumerate(self.points):
            fitted = wp.latency_on_curve_ms(x)
            cells = [f"{x:,.0f}", f"{y:.3f}", f"{fitted:.3f}" if fitted is not None else "beyond the curve",
                     fmt_signed_pct((fitted - y) / y * 100) if fitted is not None else "—"]
            for c, text in enumerate(cells):
                self.residuals.setItem(r, c, QTableWidgetItem(text))
        self.message.setText(fit_message(profile, self.points, wp, self.path.name if self.path else "the file"))
        self.save_button.setEnabled(True)

    def save(self) -> None:
        """Save the controller with the fitted profile to the user catalog (on the runner)."""
        if self.result is None:
            return
        from models.user_catalog import calibrated_record, save_user_record, user_file_ids

        profile = self.result[0]
        scenario = self._project.scenario
        node = scenario.node(next(w for w in scenario.workloads if w.enabled).target)
        stock = self._catalog.get(node.catalog_id)
        taken = {e.id for e in self._catalog} | user_file_ids()
        record = calibrated_record(stock, profile, date.today(), taken)
        self.saved_record = record

        def done(ok: bool, path) -> None:
            if not ok:
                self.message.setText(f"<span style='color:#c0392b'>Not saved: {escape(str(path))}</span>")
                return
            self.message.setText(rich(f"Saved to your catalog as \u201c{record.name}\u201d ({record.id}), under My "
                                      f"hardware; {stock.name} is unchanged. {node.label or node.id} now uses the "
                                      f"fit (Undo goes back to {stock.name})."))
            self.sig_saved.emit(record.id, node.id)

        self.runner.submit(lambda _state: save_user_record(record), name="save calibration", on_done=done)

"""The capacity band on screen: the waterfall's Effective bar carries its P10-P90 box and the band's sentences,
and the runway chart shades the capacity line's P10-P90 band (models.capacity.reduction_band)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from app.gui.results import CapacityView
from app.gui.results.capacity_view import broken_x
from app.gui.results.runway_chart import RunwayDialog
from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.formatting import fmt_ratio
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit, to_unit


@pytest.fixture(scope="module")
def evaluation():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    result = evaluate(project)
    return with_resilience(result, evaluate_resilience(project, result))


def test_the_waterfall_shows_the_effective_band(qtbot, evaluation):
    view = CapacityView()
    qtbot.addWidget(view)
    view.resize(1200, 500)
    view.set_evaluation(evaluation, CapacityUnit.TIB)
    band = evaluation.capacity_band
    effective = next(b for b in view.bars if b.label == "Effective")
    assert effective.band == (band.effective_bytes_p10, band.effective_bytes_p90)
    (left, right), = view.band_rects()
    # the effective capacity is over twice the raw here: the axis is broken, and the band drawn on it
    assert view._break is not None
    assert left == pytest.approx(broken_x(to_unit(band.effective_bytes_p10, CapacityUnit.TIB), view._break))
    assert right == pytest.approx(broken_x(to_unit(band.effective_bytes_p90, CapacityUnit.TIB), view._break))
    assert left < broken_x(to_unit(effective.after, CapacityUnit.TIB), view._break) < right
    text = view.band_label.text()
    assert view.band_label.isVisibleTo(view)
    assert "Effective capacity P10-P90" in text
    assert f"Break-even data-reduction ratio: {fmt_ratio(band.break_even_data_reduction_ratio)}" in text
    assert fmt_ratio(band.data_reduction_ratio_p10) in text
    assert view._kpis["months"].value.toolTip() == "P10-P90 of the data-reduction ratio: 9.2 months to 70 months"
    # no band for the other bars
    assert [b.label for b in view.bars if b.band is not None] == ["Effective"]


def test_the_runway_chart_shades_the_capacity_band(qtbot, evaluation):
    dialog = RunwayDialog(evaluation)
    qtbot.addWidget(dialog)
    band = evaluation.capacity_band
    assert dialog.band, "the band is drawn"
    share = {q: 100.0 * getattr(band, f"physical_used_bytes_{q}") / band.usable_bytes for q in ("p10", "p90")}
    month0 = dialog.band[0]
    assert month0[1] == pytest.approx(share["p90"]) and month0[2] == pytest.approx(share["p10"])
    # the P10 line (most used) reaches 100% at the P10 months until full, the P90 line at its own
    m10 = band.months_until_full_p10
    at = {m: (low, high) for m, low, high in dialog.band}
    month = int(m10)
    assert at[month][1] < 100.0 <= at[month + 1][1]
    assert all(low <= high for _, low, high in dialog.band)
    assert "Months until full P10-P90: 9.2 months to 70 months" in dialog.findChildren(QLabel)[-1].text()
    fills = [item for item in dialog.plot.getPlotItem().items if type(item).__name__ == "FillBetweenItem"]
    assert len(fills) == 1


def test_the_users_figures_go_through_the_dialog_into_the_project_and_the_band(qtbot, example_window):
    """Data reduction... on the Capacity tab: the database row ticked with 1.5 / 1.5 / 3 (no downside) becomes the
    project's setting in one undoable step, and the band follows (P10 = the workload's own ratio)."""
    from models.capacity.reduction_band import PUBLISHED

    win = example_window
    view = win.results.capacity_view
    view.edit_bands()
    dialog = view.bands_dialog
    row = dialog.keys.index("database")
    assert dialog.table.item(row, 2).text() == f"{PUBLISHED['database'].p10:.3g}"
    dialog.set_row("database", 5.0, 4.0, 6.0)
    dialog.accept()
    assert dialog.isVisible() and "P10 5 <= P50 4" in dialog.message.text()  # refused, says why, stays open
    dialog.set_row("database", 1.5, 1.5, 3.0, "PoC on the customer's data")
    dialog.accept()
    assert not dialog.isVisible()
    rows = win.document.project.settings.data_reduction_bands
    assert [(r.applies_to, r.p10, r.p50, r.p90, r.source) for r in rows] == [
        ("database", 1.5, 1.5, 3.0, "PoC on the customer's data")]
    win.worker.force_sync()
    shown = view._evaluation.capacity_band
    assert shown.data_reduction_ratio_p10 == pytest.approx(1.5 * 1.067, rel=1e-9)
    assert shown.data_reduction_ratio_p90 == pytest.approx(1.5 * 1.067 * 2.0, rel=1e-9)
    win.document.undo_stack.undo()
    assert win.document.project.settings.data_reduction_bands == []


def test_a_system_full_within_the_horizon_is_marked_missed_on_the_capacity_tab(qtbot):
    """The AFF8080 NFS example fills in 8.0 of its 36 months: the status bar says its capacity is missed, and the
    Capacity tab's line for the system said "✓ ... full in 8.0 months" beside it; now it is a miss there too."""
    from models.present.verdicts import evaluation_verdict

    project = load_any(examples_dir() / "aff8080-nfs-file-services.toml")
    result = evaluate(project)
    (miss,) = [m for m in evaluation_verdict(result, project.requirements).missed if m.area == "capacity"]
    view = CapacityView()
    qtbot.addWidget(view)
    view.set_evaluation(result, CapacityUnit.TIB)
    text = QLabel(view.verdict_label.text()).text()
    assert "✓" not in text and "✗" in text
    assert miss.text in text.replace("&#x27;", "'").replace("&#39;", "'")

"""Review 57 of the Performance and Capacity results, their table, hover readout and header texts, driven on the
bundled examples in a main window at laptop (1366 x 768) and desktop (1920 x 1080) sizes:

* #2 a bottleneck that is a published rate cap (the AFF A90's "up to" IOPS figure) draws a flat curve that turns
  vertical at the cap: a caution under the table says so, the engine's curve-shape note in its tooltip;
* #3 the p95 and p99 at the target (the CLI and the report give them) are in the "Latency @ target" cell, or in its
  tooltip where the table has no room;
* #5 the crosshair snaps to the open-model part of the curve and to the failure states' curves, naming the state;
* #6 the readout fits its width (the figures whole, the name cut first) and is cleared by a new result and when
  the mouse leaves the chart;
* #8 the Workload column keeps a readable part of the name, the Bottleneck column gives first;
* #14 a managed service's "Bad day" line says its failover is not modelled instead of nothing.
"""

from __future__ import annotations

import html

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from app.gui.results._common import fmt_iops, fmt_ms


def _performance(qtbot, sized_example, example: str, width: int = 1366, height: int = 768):
    """(window, Performance view) on a bundled example once its result and its failure states are shown."""
    win = sized_example(f"{example}.toml", width, height)
    win.results.setCurrentIndex(1)
    view = win.results.performance_view

    def ready() -> bool:
        outcome = win.worker.last_outcome
        return (view.summary_model.rowCount() >= 1 and outcome is not None
                and outcome.evaluation.resilience is not None and view._evaluation is outcome.evaluation)

    qtbot.waitUntil(ready, timeout=30_000)
    qtbot.wait(100)
    QApplication.processEvents()
    return win, view


def _cell(view, column: str, row: int = 0):
    return view.summary_model.item(row, view.SUMMARY_COLUMNS.index(column))


# ----------------------------------------------------------------------------------------------------------- #3


def test_latency_at_target_gives_the_p95_and_p99_beside_the_mean(qtbot, sized_example):
    """A800 FCP: ``storplan evaluate --json`` gives 0.138 / 0.345 / 0.504 ms at the 600K target (the p95 / p99 of
    the cache hit / miss mixture); the cell read "0.14 ms" alone."""
    _win, view = _performance(qtbot, sized_example, "a800-oracle-slob-fcp", 1920, 1080)
    w = view.workloads[0]
    assert (round(w.latency_at_target_ms, 3), round(w.latency_p95_at_target_ms, 3),
            round(w.latency_p99_at_target_ms, 3)) == (0.138, 0.345, 0.504)
    cell = _cell(view, "Latency @ target")
    assert cell.text() == "0.14 ms (p95 0.35, p99 0.50)"
    assert "0.14 ms mean; p95 0.35 ms, p99 0.50 ms" in cell.toolTip()
    # whole in its column
    table = view.summary_table
    k = view.SUMMARY_COLUMNS.index("Latency @ target")
    assert table.columnWidth(k) >= QFontMetrics(cell.font()).horizontalAdvance(cell.text())


def test_a_narrow_table_keeps_the_tails_in_the_tooltip_and_every_figure_whole(qtbot, sized_example):
    """MetroCluster at 1366: no room for the tails beside its long names, so the cell shows the mean and its tooltip
    the tails; the table still fits without scrolling sideways and its text lines (the Runway last) show whole."""
    _win, view = _performance(qtbot, sized_example, "aff-a70-metrocluster-ip-oracle-nvmetcp")
    w = view.workloads[0]
    cell = _cell(view, "Latency @ target")
    assert cell.text() == fmt_ms(w.latency_at_target_ms)
    assert (f"p95 {fmt_ms(w.latency_p95_at_target_ms)}, p99 {fmt_ms(w.latency_p99_at_target_ms)}"
            in cell.toolTip())
    table = view.summary_table
    assert table.horizontalScrollBar().maximum() == 0
    assert view.summary_scroll.verticalScrollBar().maximum() == 0


def test_no_target_and_saturated_cells_carry_no_tails(qtbot):
    from app.gui.results import PerformanceView
    from app.gui.results.samples import sample_evaluation, sample_performance, sample_workload

    view = PerformanceView()
    qtbot.addWidget(view)
    view.resize(1200, 500)
    view.show()
    saturated = sample_workload(target_iops=450_000.0, saturated_target=True, slo_met=False)
    view.set_evaluation(sample_evaluation(performance=sample_performance(saturated)), "TiB")
    assert _cell(view, "Latency @ target").text() == "saturated"


# ----------------------------------------------------------------------------------------------------------- #8


def test_the_workload_column_keeps_its_name_and_the_bottleneck_gives_first(qtbot, sized_example):
    """MetroCluster at 1366: the name read "SLO…" (71 px) beside the SLO column while the bottleneck kept its whole
    226 px; now the bottleneck is cut first and the name keeps "SLOB 75% SELECT"."""
    _win, view = _performance(qtbot, sized_example, "aff-a70-metrocluster-ip-oracle-nvmetcp")
    table = view.summary_table
    name, bottleneck = _cell(view, "Workload"), _cell(view, "Bottleneck")
    metrics = QFontMetrics(name.font())
    # what the column shows of the name: its width less the icon and margins its size hint adds to the text
    padding = table.sizeHintForColumn(0) - metrics.horizontalAdvance(name.text())
    shown = metrics.elidedText(name.text(), Qt.TextElideMode.ElideRight, table.columnWidth(0) - padding)
    assert shown.startswith("SLOB 75% SEL") and shown.endswith("…"), shown
    k = view.SUMMARY_COLUMNS.index("Bottleneck")
    assert table.columnWidth(k) < metrics.horizontalAdvance(bottleneck.text())  # it gave
    assert bottleneck.text() in bottleneck.toolTip()


# ----------------------------------------------------------------------------------------------------------- #2


def test_a_published_rate_cap_is_said_under_the_table(qtbot, sized_example):
    """AFF A90 NVMe/FC: its bottleneck is NetApp's published 2.40M IOPS per HA pair; the curve is flat (1.04x the
    light-load latency at 80% of it) then vertical. The engine's note was only in a click dialog."""
    _win, view = _performance(qtbot, sized_example, "aff-a90-oracle-nvmefc64")
    w = view.workloads[0]
    assert w.knee_note and w.saturation_iops == pytest.approx(2.4e6)
    assert w.latency_at_80pct_saturation_ms / w.light_load_latency_ms < 1.3  # flat: the engine's own test
    label = view.rate_cap_label
    assert label.isVisible()
    assert "Published rate cap" in label.text() and "flat up to 2.40M IOPS, then vertical" in label.text()
    assert "not modelled" in label.text()
    tip = html.unescape(label.toolTip())
    assert "1.04x the light-load latency" in tip and "NetApp's published 'up to' figure for the AFF A90 HA pair" in tip
    # one line at 1366 px: the verdicts, bad day and runway lines keep their room
    assert label.height() <= 2 * label.fontMetrics().lineSpacing()


def test_a_cpu_bottleneck_has_no_rate_cap_caution(qtbot, sized_example):
    _win, view = _performance(qtbot, sized_example, "a800-oracle-slob-fcp")
    assert view.workloads[0].bottleneck == "node 1 CPU"
    assert not view.rate_cap_label.isVisible()


# ----------------------------------------------------------------------------------------------------------- #14


def test_a_managed_service_says_its_failover_is_not_modelled(qtbot, sized_example):
    _win, view = _performance(qtbot, sized_example, "anf-premium-oracle-nfs")
    assert view._evaluation.resilience.states.get(view.workloads[0].workload_id, ()) == ()
    text = view.resilience_label.text()
    assert "<b>Bad day</b>: failover is handled inside the service (not modelled)" in text
    assert text.index("Bad day") < text.index("Runway")


# ------------------------------------------------------------------------------------------------------- #5, #6


def test_the_crosshair_reads_the_target_beyond_the_ramp(qtbot, sized_example):
    """vSAN ESA stretched: the 300K target lies past the ramp's 190K peak; hovering its circle read "190K IOPS"."""
    _win, view = _performance(qtbot, sized_example, "vsan8-esa-stretched-4x4-sqlserver-oltp")
    w = view.workloads[0]
    assert w.curve[-1].iops < 200e3 < w.target_iops == 300e3
    view._on_mouse_moved((view.view_to_scene(w.target_iops, w.latency_at_target_ms),))
    _name, point = view.readout_point
    assert point.iops == pytest.approx(300e3) and point.latency_ms == pytest.approx(w.latency_at_target_ms)
    assert "300K IOPS" in view.readout.text() and fmt_ms(w.latency_at_target_ms) in view.readout.text()
    # a point of the open-model part between markers
    far = next(p for p in w.open_curve if p.iops > 1.0e6)
    view._on_mouse_moved((view.view_to_scene(far.iops, far.latency_ms),))
    assert view.readout_point[1] == far and view.readout_state == ""


def test_the_crosshair_reads_a_failure_states_curve_and_names_it(qtbot, sized_example):
    """The host failure's curve turns up near its own saturation, well left of the normal one's."""
    _win, view = _performance(qtbot, sized_example, "vsan8-esa-stretched-4x4-sqlserver-oltp")
    w = view.workloads[0]
    state = next(s for s in view._evaluation.resilience.states[w.workload_id] if s.state == "host_failure")
    points = [*state.performance.curve, *state.performance.open_curve]
    steep = next(p for p in points if p.latency_ms > 1.6 * w.latency_at_target_ms)
    view._on_mouse_moved((view.view_to_scene(steep.iops, steep.latency_ms),))
    assert view.readout_point[1] == steep
    assert view.readout_state == "host failure"
    assert "in host failure" in view.readout.text() and f"{fmt_iops(steep.iops)} IOPS" in view.readout.text()
    # hidden from its legend entry, the state is no longer read
    view.state_curve_item(w.workload_id, "host_failure").setVisible(False)
    view._on_mouse_moved((view.view_to_scene(steep.iops, steep.latency_ms),))
    assert view.readout_state != "host failure"


def _readout_fits(view) -> bool:
    return view.readout.sizeHint().width() <= view.readout.width()


@pytest.mark.parametrize("example", ["a800-oracle-slob-fcp", "vsan8-esa-stretched-4x4-sqlserver-oltp"])
def test_the_readout_fits_at_1366_with_its_figures_whole(qtbot, sized_example, example):
    """At 1366 px "… 0.14 ms (host" and "190K IO" were cut off: the name gives first, the figures stay whole."""
    _win, view = _performance(qtbot, sized_example, example)
    w = view.workloads[0]
    point = w.curve[len(w.curve) // 2]
    view._on_mouse_moved((view.view_to_scene(point.iops, point.latency_ms),))
    assert view.readout_point[1] == point
    text = view.readout.text()
    assert f"{fmt_iops(point.iops)} IOPS" in text and fmt_ms(point.latency_ms) in text
    assert _readout_fits(view), (view.readout.sizeHint().width(), view.readout.width(), text)
    assert w.name in view.readout.toolTip()


def test_the_readout_is_cleared_when_the_mouse_leaves_and_by_a_new_result(qtbot, sized_example):
    win, view = _performance(qtbot, sized_example, "a800-oracle-slob-fcp")
    w = view.workloads[0]
    point = w.curve[len(w.curve) // 2]
    view._on_mouse_moved((view.view_to_scene(point.iops, point.latency_ms),))
    assert view.readout.text() and view._cross_dot.isVisible()
    QApplication.sendEvent(view.plot, QEvent(QEvent.Type.Leave))
    assert view.readout.text() == "" and view.readout_point is None and not view._cross_dot.isVisible()
    # hovered again, then the target changes: the readout read a point of the old curves
    view._on_mouse_moved((view.view_to_scene(point.iops, point.latency_ms),))
    assert "IOPS" in view.readout.text()
    panel = win.workloads
    panel.list.setCurrentRow(0)
    panel.form.editors["target_iops"].spin.setValue(2 * w.saturation_iops)
    qtbot.waitUntil(lambda: view.workloads and view.workloads[0].target_iops == pytest.approx(2 * w.saturation_iops),
                    timeout=30_000)
    assert view.readout.text() == "" and view.readout_point is None

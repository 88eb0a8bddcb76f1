"""The SLO set on the p99 through the real requirement widget: the results re-evaluate with a lower max IOPS at
the SLO, the chart draws the p99 curve beside the mean (in the legend) and the SLO line says what it bounds."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt


def test_p99_slo_through_the_widget_lowers_max_iops_and_draws_the_p99_curve(qtbot, example_window):
    win = example_window
    doc = win.document
    win.results.setCurrentIndex(1)  # the Performance tab
    before = win.worker.force_sync()
    assert before is not None and before.evaluation is not None and before.evaluation.performance is not None
    mean = before.evaluation.performance.workloads[0]
    assert mean.slo_statistic == "mean" and mean.max_iops_at_slo is not None
    view = win.results.performance_view
    qtbot.waitUntil(lambda: view.p99_item(mean.workload_id) is not None, timeout=20_000)
    x, y = view.p99_item(mean.workload_id).getData()
    drawn = [p for p in (*mean.curve, *mean.open_curve) if p.latency_p99_ms is not None]
    np.testing.assert_allclose(y, [p.latency_p99_ms for p in drawn][:len(y)])
    labels = [label.text for _, label in view.legend.items]
    assert (f"{mean.name} p99" if len(evaluation_workloads := view._workloads) > 1 else "p99") in labels, (
        labels, len(evaluation_workloads))

    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    combo = dialog.form.editors["slo_statistic"].combo
    assert combo.currentText() == "mean latency"
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # the user picks the next choice with the keyboard
    assert combo.currentText() == "99th percentile (p99)"
    assert doc.project.requirements.slo_statistic == "p99"

    def shown():
        outcome = win.worker.last_outcome
        if outcome is None or outcome.evaluation is None or outcome.evaluation.performance is None:
            return None
        workload = outcome.evaluation.performance.workloads[0]
        return workload if workload.slo_statistic == "p99" else None

    qtbot.waitUntil(lambda: shown() is not None and view.workloads and view.workloads[0].slo_statistic == "p99",
                    timeout=30_000)
    p99 = shown()
    assert p99.max_iops_at_slo is not None and p99.max_iops_at_slo < 0.95 * mean.max_iops_at_slo
    assert "p99" in view.slo_line(p99.workload_id).label.toPlainText()
    marker_x, marker_y = view._max_slo_items[p99.workload_id].getData()
    assert marker_x[0] == p99.max_iops_at_slo
    assert marker_y[0] == p99.max_iops_at_slo_point[1]
    # undo puts the mean back, and the figure with it
    doc.undo_stack.undo()
    assert doc.project.requirements.slo_statistic == "mean" and combo.currentText() == "mean latency"
    qtbot.waitUntil(lambda: view.workloads and view.workloads[0].slo_statistic == "mean", timeout=30_000)
    assert view.workloads[0].max_iops_at_slo == mean.max_iops_at_slo

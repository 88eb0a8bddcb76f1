"""The latency chart's marks stay where their figures are (revperf57): the uncertainty band's shading follows its
edges on a log latency axis; the p99 line at the operating point, a failure state's point at the target and a
target beyond saturation are on the chart or named at its edge; a failure state hidden from the legend takes its
point with it and stays hidden when the axes change; a short log latency axis has several tick labels."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

NFS = "fas70-ds460c-nlsas-nfs.toml"
A90 = "aff-a90-oracle-nvmefc64.toml"
A800 = "a800-oracle-slob-fcp.toml"


def _performance(qtbot, sized_example, example, width=1366, height=768):
    """(window, Performance view) on ``example`` at that size, the failure states drawn."""
    win = sized_example(example, width, height)
    win.results.setCurrentIndex(1)
    view = win.results.performance_view

    def ready() -> bool:
        outcome = win.worker.last_outcome
        return outcome is not None and outcome.evaluation.resilience is not None and bool(view._state_items)

    qtbot.waitUntil(ready, timeout=30_000)
    QApplication.processEvents()
    return win, view


@pytest.mark.parametrize("example", [NFS, A90])
def test_band_fill_follows_its_edges_on_a_log_latency_axis(qtbot, sized_example, example) -> None:
    win, view = _performance(qtbot, sized_example, example)
    workload = view.selected_workload()
    qtbot.mouseClick(view.log_y_check, Qt.MouseButton.LeftButton)
    assert view.log_y_check.isChecked()
    low, high, fill = view._band_items[workload.workload_id]
    xs, p10, p90 = view._band_xy(workload)
    rect = fill.boundingRect()
    # the shading spans log10 of the edges' lowest P10 to their highest P90 (an independent computation from the
    # band's figures), not the linear milliseconds
    assert rect.top() == pytest.approx(math.log10(min(p10)), abs=1e-6)
    assert rect.bottom() == pytest.approx(math.log10(max(p90)), abs=1e-6)
    assert rect.left() == pytest.approx(min(xs), rel=1e-9) and rect.right() == pytest.approx(max(xs), rel=1e-9)
    # and back on a linear axis, the milliseconds again
    qtbot.mouseClick(view.log_y_check, Qt.MouseButton.LeftButton)
    rect = view._band_items[workload.workload_id][2].boundingRect()
    assert rect.top() == pytest.approx(min(p10), rel=1e-6) and rect.bottom() == pytest.approx(max(p90), rel=1e-6)

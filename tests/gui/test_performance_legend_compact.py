"""The Performance tab on a laptop (REVIEW43 #6): the latency chart's legend took five rows of its nine entries (a
third of the chart) and the workload table under the charts showed only its header until the results were
scrolled. Now the legend packs its entries into three rows and the table's rows (saturation, max IOPS at the SLO,
headroom) are on screen without scrolling at 1350 x 728 (a 1366 x 768 laptop less its panel and frame)."""

from __future__ import annotations

from PySide6.QtCore import QPoint


def _performance_tab(qtbot, sized_example, example: str, width: int, height: int):
    """(window, Performance view) of ``example`` in a window of ``width`` x ``height`` px in its default layout."""
    win = sized_example(f"{example}.toml", width, height)
    win.results.setCurrentIndex(1)
    return win, win.results.currentWidget()


def test_a_laptop_shows_the_workload_rows_and_a_compact_legend(qtbot, sized_example):
    win, view = _performance_tab(qtbot, sized_example, "aff-a90-oracle-nvmefc64", 1350, 728)
    # eight entries since the A90 stops at its published 2.4M (no open-model continuation): still three rows
    qtbot.waitUntil(lambda: view.summary_model.rowCount() == 1 and len(view.legend.items) >= 8, timeout=5000)
    scroll = win.results_dock.widget()
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() == 0, timeout=3000)
    qtbot.wait(50)
    legend, plot = view.legend, view.plot
    rows = -(-len(legend.items) // legend.columnCount)
    assert rows <= 3, (len(legend.items), legend.columnCount)
    # the legend leaves the curves most of the chart's height
    assert legend.boundingRect().height() <= plot.height() / 3, (legend.boundingRect().height(), plot.height())
    # every legend entry is whole inside the chart's width
    for _sample, label in legend.items:
        right = label.mapRectToScene(label.boundingRect()).right()
        assert right <= plot.width(), (label.text, right, plot.width())
    # the table's row (not only its header) lies inside the results dock's visible area
    table = view.summary_table
    row_rect = table.visualRect(view.summary_model.index(0, 0))
    bottom = table.viewport().mapTo(scroll.viewport(), QPoint(0, row_rect.bottom()))
    assert row_rect.height() > 0 and 0 <= bottom.y() <= scroll.viewport().height(), (bottom, scroll.viewport())
    assert win.centralWidget().height() >= 180  # the canvas keeps its room


def test_ten_entries_take_three_short_rows_at_1366x768(qtbot, sized_example):
    """REVIEW45 #4: the MetroCluster example's ten entries (its workload, p99, four failure states, four markers)
    took five rows, 128 of the chart's 288 px, about half of it, at 1366x768: the workload's long name set the
    first column's width, so only two columns fitted. Now its entry is cut short (the full name is in the selector
    above and the table below), the text is a little smaller and the rows closer: three rows, about a quarter."""
    from app.gui.results.performance_view import ONE_WORKLOAD_LEGEND_CHARS

    _win, view = _performance_tab(qtbot, sized_example, "aff-a70-metrocluster-ip-oracle-nvmetcp", 1366, 768)
    qtbot.waitUntil(lambda: view.summary_model.rowCount() == 1 and len(view.legend.items) == 10, timeout=10_000)
    qtbot.wait(50)
    view._fit_legend()
    qtbot.wait(50)
    legend, plot = view.legend, view.plot
    names = [label.text for _sample, label in legend.items]
    assert names[0].endswith("…") and len(names[0]) == ONE_WORKLOAD_LEGEND_CHARS
    assert view.workload_combo.currentText().startswith(names[0][:-1])  # the full name just above
    rows = -(-len(legend.items) // legend.columnCount)
    assert rows <= 3, (names, legend.columnCount)
    # about a quarter of the chart (it was 0.44)
    assert legend.boundingRect().height() <= 0.3 * plot.height(), (legend.boundingRect().height(), plot.height())
    for _sample, label in legend.items:  # every entry whole inside the chart's width
        assert label.mapRectToScene(label.boundingRect()).right() <= plot.width(), label.text

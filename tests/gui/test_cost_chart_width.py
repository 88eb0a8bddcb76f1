"""The Cost and carbon tab on a laptop gives its chart a usable width (REVIEW43 #5: between the inputs and the
table the chart was ~230 px wide at 1366 x 768, its y-axis title clipped): the inputs in a column on the left, the
chart above the table at the rest of the width; the table's caveats stay whole (test_cost_table_fits.py)."""

from __future__ import annotations


def test_a_laptop_shows_a_wide_chart_above_the_table(sized_example, qtbot):

    win = sized_example("aff-a90-oracle-nvmefc64.toml", 1350, 728)
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None and view.table.rowCount() > 0, timeout=10_000)
    qtbot.wait(50)
    plot, table = view.plot, view.table
    assert plot.width() >= 0.6 * view.width(), (plot.width(), view.width())
    # the table under the chart, as wide
    assert abs(table.width() - plot.width()) <= 2
    assert table.mapTo(view, table.rect().topLeft()).y() >= plot.mapTo(view, plot.rect().bottomLeft()).y()
    assert table.viewport().height() >= table.rowHeight(0)  # at least its first row on screen
    # the inputs keep their fields' values whole: no sideways scrolling
    assert view.inputs.horizontalScrollBar().maximum() == 0
    # the y-axis title is whole along the axis
    axis = plot.getAxis("left")
    assert axis.label.boundingRect().width() <= axis.height(), (axis.label.toPlainText(), axis.height())

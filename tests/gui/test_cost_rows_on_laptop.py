"""The Cost tab's table gets the height: at 1366 x 768 the hybrid vSAN example's notes (seven lines) under the
chart and table left the table about two and a half of its twelve rows. The notes now keep three lines that scroll
when the height is short, the chart its minimum, and the table the rest; with room, every row and every note show."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def _whole_rows(table) -> int:
    """The rows wholly inside the table's viewport."""
    bottom = table.viewport().height()
    return sum(1 for r in range(table.rowCount())
               if table.rowViewportPosition(r) >= 0 and table.rowViewportPosition(r) + table.rowHeight(r) <= bottom)


def test_the_hybrid_vsan_cost_table_shows_its_rows(sized_example, qtbot):
    win = sized_example("vsan8-osa-hybrid-4host-oltp.toml", 1366, 768)
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None and view.table.rowCount() >= 10, timeout=10_000)
    QApplication.processEvents()
    table, notes, area = view.table, view.notes, view.notes_area
    line = notes.fontMetrics().lineSpacing()
    assert _whole_rows(table) >= 4, (_whole_rows(table), table.viewport().height())  # it showed 2 whole rows
    assert view.plot.height() >= view.plot.minimumHeight()
    # the notes: at least three lines on screen, the rest a scroll away (nothing lost)
    assert notes.text().count("<br>") >= 4  # five notes, seven lines at this width
    assert area.viewport().height() >= 3 * line
    assert area.verticalScrollBar().maximum() > 0 and notes.height() > area.viewport().height()
    small = area.viewport().height()
    # a wide screen: every row on screen, and the notes at least their three lines, the rest a scroll away (the
    # rows and the chart's minimum take the height first; six notes since the Cloud Volumes ONTAP licence caveat)
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: win.width() == 1920 and win.height() == 1080, timeout=3000)
    win.apply_default_layout()
    qtbot.waitUntil(lambda: _whole_rows(table) == table.rowCount(), timeout=3000)
    assert area.viewport().height() >= 3 * line
    assert area.viewport().height() >= small  # more room never shows fewer lines of the notes

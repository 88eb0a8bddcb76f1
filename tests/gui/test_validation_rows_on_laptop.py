"""The Validation tab's case table shows several rows on a 1366 x 768 laptop (fresh-eyes review: the headline's ~19
lines, each kept whole above the table, left the vSAN stretched example's table one row): the headline scrolls in
the room the table's first rows leave it, and is whole when the window is tall enough."""

from __future__ import annotations

import pytest

EXAMPLE = "vsan8-esa-stretched-4x4-sqlserver-oltp.toml"


def _validation_at(qtbot, sized_example, width: int, height: int):
    win = sized_example(EXAMPLE, width, height)
    results = win.results
    results.setCurrentIndex(next(i for i in range(results.count()) if results.tabText(i) == "Validation"))
    qtbot.waitUntil(lambda: getattr(results.validation_view, "total", 0) > 0
                    and not results.validation_view.running, timeout=120_000)
    view = results.validation_view
    qtbot.wait(200)  # the layout settles after the run's text arrives
    return win, view


def _rows_on_screen(table) -> float:
    """Rows the table's viewport shows (whole or in part), from its height and the rows' height."""
    return table.viewport().height() / table.rowHeight(0)


def test_the_case_table_shows_several_rows_at_1366x768(qtbot, sized_example):
    _win, view = _validation_at(qtbot, sized_example, 1366, 768)
    table = view.table
    assert table.model().rowCount() > 10
    assert table.isVisible() and _rows_on_screen(table) >= 4
    # the headline above it is still on screen, its first lines readable, the rest scrolling
    area, label = view.headline_area, view.error_summary
    assert area.isVisible() and area.height() >= 3 * label.fontMetrics().lineSpacing()
    assert area.geometry().bottom() < view.splitter.geometry().top()
    assert label.height() > area.viewport().height()  # it scrolls: the whole text is taller than its room
    assert area.verticalScrollBar().maximum() > 0


@pytest.mark.parametrize("size", [(1920, 1080)])
def test_the_headline_is_whole_when_there_is_room(qtbot, sized_example, size):
    _win, view = _validation_at(qtbot, sized_example, *size)
    area, label = view.headline_area, view.error_summary
    assert area.verticalScrollBar().maximum() == 0
    assert area.viewport().height() >= label.heightForWidth(label.width())
    assert _rows_on_screen(view.table) >= 4

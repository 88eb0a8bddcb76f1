"""The Cost tab's table shows its caveats whole on a laptop's screen (REVIEW43 finding 5): at 1366x768 its
columns kept their one-line widths, so "325,861 USD (cannot carry the I/O)" read "325,861 USD (cannot carry the
I/" and the break-even column was off screen. Narrower than its one-line widths, the table now shares its width
among its columns and wraps their text; each row is as tall as its wrapped text."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QStyleOptionViewItem

from models.resources import examples_dir


def _cost_view(open_window, qtbot, example: str, width: int, height: int):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / example))
    win.resize(width, height)
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None and view.table.rowCount() > 0, timeout=10_000)
    qtbot.wait(50)  # the layout settles
    return view


def _clipped(table) -> list[str]:
    """The cells cut short: a word wider than its column, a row lower than its wrapped text needs (Qt's own item
    delegate measures it at the column's width), or a cell right of the viewport."""
    out = []
    metrics = table.fontMetrics()
    for r in range(table.rowCount()):
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if table.isColumnHidden(c) or item is None or not item.text():
                continue
            icon = table.iconSize().width() + 4 if not item.icon().isNull() else 0
            widest_word = max(metrics.horizontalAdvance(word) for word in item.text().split())
            option = QStyleOptionViewItem()
            table.initViewItemOption(option)
            option.rect = QRect(0, 0, table.columnWidth(c), 10_000)
            needed = table.itemDelegate().sizeHint(option, table.indexFromItem(item)).height()
            if widest_word + icon + 8 > table.columnWidth(c) or needed > table.rowHeight(r) \
                    or table.visualItemRect(item).right() > table.viewport().width():
                out.append(item.text())
    return out


def test_the_caveats_are_whole_on_a_laptop(open_window, qtbot):
    view = _cost_view(open_window, qtbot, "aff-a90-oracle-nvmefc64.toml", 1366, 740)
    table = view.table
    texts = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert any("(cannot carry the I/O)" in t for t in texts)  # the caveat this is about
    assert table.horizontalHeader().length() <= table.viewport().width()  # no column off screen
    assert _clipped(table) == []
    # the headers break into lines rather than being cut ("otal over the horizo")
    header = table.horizontalHeader()
    for c in range(table.columnCount()):
        if not table.isColumnHidden(c):
            lines = table.horizontalHeaderItem(c).text().split("\n")
            assert max(header.fontMetrics().horizontalAdvance(line) for line in lines) <= table.columnWidth(c), lines
    assert " ".join(table.horizontalHeaderItem(1).text().split()) == "Total over the horizon"
    broken = max(len(table.horizontalHeaderItem(c).text().split("\n")) for c in range(table.columnCount())
                 if not table.isColumnHidden(c))
    assert header.height() >= broken * header.fontMetrics().height()  # a header broken into lines shows them all


def test_a_table_with_room_keeps_one_line_per_row(open_window, qtbot):
    from PySide6.QtWidgets import QTableWidgetItem

    from app.gui.results.fitting_table import FittingTable

    view = _cost_view(open_window, qtbot, "aff-a90-oracle-nvmefc64.toml", 1366, 740)
    source = view.table
    shown = [c for c in range(source.columnCount()) if not source.isColumnHidden(c)]  # as on screen
    table = FittingTable(source.rowCount(), len(shown))
    qtbot.addWidget(table)
    for r in range(source.rowCount()):
        for i, c in enumerate(shown):
            table.setItem(r, i, QTableWidgetItem(source.item(r, c).text()))
    metrics = table.fontMetrics()
    one_line = [max(metrics.horizontalAdvance(table.item(r, c).text()) for r in range(table.rowCount())) + 16
                for c in range(table.columnCount())]
    table.resize(sum(one_line) + 80, 600)
    table.show()
    table.fit_columns()
    assert _clipped(table) == []
    for c in range(table.columnCount()):  # room enough: every cell on one line
        assert table.columnWidth(c) >= one_line[c] - 16, c
    assert len({table.rowHeight(r) for r in range(table.rowCount())}) == 1  # one line each: all alike
    table.resize(400, 600)  # narrow: the text wraps and stays whole
    qtbot.waitUntil(lambda: table.horizontalHeader().length() <= table.viewport().width(), timeout=2_000)
    assert _clipped(table) == []
    assert max(table.rowHeight(r) for r in range(table.rowCount())) > 2 * metrics.height()

"""The Performance tab's summary table shows its cells whole (review of session 39: under Xvfb at 1366x768 the
vSAN 8 example's row read "TPC…", "2 …", "unca…", "235K @ 1.…", "vSAN sto…" although the table had room). Only
where the table has no room left (1030 px: its columns fill it exactly) are the names (workload, bottleneck) cut
short, never a number (REVIEW45: the Headroom column was past the edge)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics

from app.gui.results import PerformanceView
from app.gui.results.performance_view import SUMMARY_ELIDED_COLUMNS
from models.evaluate import evaluate
from models.project import load
from models.resources import examples_dir


def test_every_summary_cell_fits_its_column(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    view.resize(1030, 480)
    view.show()
    qtbot.waitExposed(view)
    view.set_evaluation(evaluate(load(examples_dir() / "vsan8-esa-6host-sqlserver-oltp.toml")), "TiB")
    table, model = view.summary_table, view.summary_model
    assert model.rowCount() == 1
    icon = table.iconSize().width()
    full = sum(table.columnWidth(k) for k in range(model.columnCount())) >= table.viewport().width()
    assert table.horizontalScrollBar().maximum() == 0  # every column on screen
    for column in range(model.columnCount()):
        if full and PerformanceView.SUMMARY_COLUMNS[column] in SUMMARY_ELIDED_COLUMNS:
            continue  # a name cut short, whole in its tooltip (test_performance_table_fits_laptop)
        item = model.item(0, column)
        font = item.font() if item.font() != table.font() else table.font()
        needed = QFontMetrics(font).horizontalAdvance(item.text()) + (icon if column == 0 else 0)
        assert table.columnWidth(column) >= needed, (item.text(), table.columnWidth(column), needed)

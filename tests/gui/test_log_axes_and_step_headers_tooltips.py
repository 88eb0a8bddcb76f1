"""The Performance tab's "Log IOPS" / "Log latency" check boxes and the capacity step table's column headers say
what they do or hold when hovered (REVIEW43 finding 14: they had no tooltip)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.gui.results import CapacityView, PerformanceView


def test_the_log_axis_check_boxes_say_which_axis_they_make_logarithmic(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    assert "Logarithmic IOPS axis" in view.log_x_check.toolTip()
    assert "Logarithmic latency axis" in view.log_y_check.toolTip()
    view.log_x_check.setChecked(True)  # what the tooltip says it does
    assert view._log_x and not view._log_y


def test_every_capacity_table_header_says_what_its_column_holds(qtbot):
    view = CapacityView()
    qtbot.addWidget(view)
    tips = {view.model.headerData(k, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole):
            view.model.headerData(k, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            for k in range(view.model.columnCount())}
    assert list(tips) == ["Step", "Before", "After", "Change", "Source"]
    assert all(tip and len(tip) > 25 for tip in tips.values()), tips
    assert "before this step" in tips["Before"] and "after this step" in tips["After"]
    assert "public document" in tips["Source"]

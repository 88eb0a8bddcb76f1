"""The Performance tab at 1366 x 768 (a presales laptop): the charts were squeezed to 236 px under a 260 px
latency plot, which cut the IOPS axis off the bottom of the chart, and the bad-day and runway lines under the table
were cut or scrolled out of the results. Now the chart keeps at least its minimum height with its axis inside the
charts area, and the text lines under the table are in their own area, whole without scrolling on a one-controller
and a cloud example (the MetroCluster example's runway line scrolls there); at 1920 x 1080 the charts keep their
larger height."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSize

from app.gui.main_window import read_project
from models.resources import examples_dir


def _performance_at(qtbot, open_window, example: str, size: QSize):
    win = open_window(read_project(examples_dir() / f"{example}.toml"))
    win.resize(size)
    qtbot.waitUntil(lambda: win.size() == size, timeout=3000)
    win.apply_default_layout()
    win.results.setCurrentIndex(1)
    view = win.results.currentWidget()
    qtbot.waitUntil(lambda: view.summary_model.rowCount() >= 1 and view.resilience_label.isVisible(), timeout=10_000)
    qtbot.wait(300)  # the dock follows its content's minimum size from the event loop
    return win, view


def _visible_bottom(widget, scroll) -> int:
    """``widget``'s bottom edge in the coordinates of the viewport of ``scroll`` (a scroll area around it)."""
    return widget.mapTo(scroll.viewport(), QPoint(0, widget.height())).y()


@pytest.mark.parametrize(("example", "whole"), [("aff-a70-ns224-oracle-nvmetcp", True),
                                               ("aff-a70-metrocluster-ip-oracle-nvmetcp", False),
                                               ("cvo-azure-e20ds-v5-ha-oltp", True)])
def test_a_laptop_shows_the_whole_chart_and_the_bad_day_lines(qtbot, open_window, example, whole):
    """``whole``: every text line on screen unscrolled; the MetroCluster example's six lines leave its last (the
    runway) to scroll inside the text area, its bad-day line still on screen."""
    win, view = _performance_at(qtbot, open_window, example, QSize(1366, 768))
    plot, charts = view.plot, view.charts_splitter
    # the plot is never below its minimum, and its charts area holds all of it (236 of 260 px before)
    assert plot.height() >= plot.minimumHeight(), (plot.height(), plot.minimumHeight())
    assert charts.height() >= plot.height(), (charts.height(), plot.height())
    # the IOPS axis (its ticks and its label's line) lies inside the plot widget, the plot inside its charts area
    axis = plot.getAxis("bottom")
    assert axis.label.isVisible() and axis.labelText == "IOPS"
    axis_bottom = axis.sceneBoundingRect().bottom()
    label_middle = axis.label.sceneBoundingRect().center().y()
    assert axis_bottom <= plot.viewport().height() and label_middle < axis_bottom, (axis_bottom, label_middle)
    assert plot.mapTo(charts, QPoint(0, plot.height())).y() <= charts.height()
    # the results dock does not scroll, and every text line under the table is whole in its own area
    scroll = win.results_dock.widget()
    assert scroll.verticalScrollBar().maximum() == 0
    texts = view.summary_scroll
    assert texts.height() >= texts.minimumHeight() >= 2 * view.fontMetrics().lineSpacing()
    if whole:
        assert texts.verticalScrollBar().maximum() == 0, (texts.height(), texts.widget().height())
        assert texts.height() >= view.summary_texts.layout().totalHeightForWidth(texts.width())
        assert 0 <= _visible_bottom(view.resilience_label, texts) <= texts.viewport().height()
    # the bad-day line (the resilience label's first) is on screen inside the text area and the results dock
    first_line = view.resilience_label.mapTo(texts.viewport(), QPoint(0, view.fontMetrics().lineSpacing())).y()
    assert 0 <= first_line <= texts.viewport().height(), (first_line, texts.viewport().height())
    assert 0 <= _visible_bottom(texts, scroll) <= scroll.viewport().height()
    assert view.resilience_label.text().startswith("<b>Bad day</b>")
    assert win.centralWidget().height() >= 180  # the canvas keeps its room


def test_a_large_screen_keeps_its_taller_chart(qtbot, open_window):
    win, view = _performance_at(qtbot, open_window, "aff-a70-ns224-oracle-nvmetcp", QSize(1920, 1080))
    assert view.plot.height() >= 360, view.plot.height()  # 386 px before and after
    assert view.summary_scroll.verticalScrollBar().maximum() == 0
    assert win.centralWidget().height() >= 380  # the canvas's share as before (398 px)

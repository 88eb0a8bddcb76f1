"""The result charts have no pyqtgraph context menus, and the view box's menu is never built for them (made and
dropped, it cost about a sixth of a plot's making between the first window and the first results)."""

from __future__ import annotations

import importlib

from app.gui.results._common import make_plot


def test_a_result_chart_builds_no_view_box_menu(qtbot, monkeypatch):
    viewbox_module = importlib.import_module("pyqtgraph.graphicsItems.ViewBox.ViewBox")
    built = []
    real = viewbox_module.ViewBoxMenu

    def counting(view):
        built.append(view)
        return real(view)

    monkeypatch.setattr(viewbox_module, "ViewBoxMenu", counting)
    plot = make_plot()
    qtbot.addWidget(plot)
    assert built == []
    assert plot.getViewBox().menu is None and not plot.getViewBox().menuEnabled()
    assert not plot.getPlotItem().menuEnabled()
    item = plot.plot([0, 1, 2], [3, 1, 2])  # still draws
    assert list(item.yData) == [3, 1, 2]

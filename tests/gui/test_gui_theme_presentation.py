"""View → Theme switches every view live (a chart's background follows); View → Presentation Mode goes full
screen with larger fonts and the editing docks hidden, and leaving restores the layout."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from app.gui import themes


@pytest.fixture
def restore_theme():
    yield
    themes.apply("system")


def test_dark_theme_repaints_the_charts(qtbot, example_window, restore_theme):
    win = example_window
    plot = win.results.capacity_view.findChildren(__import__("pyqtgraph").PlotWidget)[0]
    win.theme_actions["dark"].trigger()
    app = QApplication.instance()
    assert app.palette().color(QPalette.ColorRole.Base).lightness() < 60
    assert plot.backgroundBrush().color().lightness() < 60
    assert themes.current() == "dark"
    win.theme_actions["light"].trigger()
    assert plot.backgroundBrush().color().lightness() > 200
    with pytest.raises(ValueError, match="theme must be one of"):
        themes.apply("sepia")


def test_presentation_mode_hides_the_editing_docks_and_restores_them(qtbot, example_window):
    win = example_window
    app = QApplication.instance()
    size = app.font().pointSizeF()
    assert win.inspector_dock.isVisible() and win.workloads_dock.isVisible()
    kpi_size = win.results.capacity_view._kpis["usable"].value.font().pointSizeF()
    win.view.zoom(1.5)
    transform = win.view.transform()
    win.act_presentation.trigger()
    # the canvas cards keep their font (fixed-size cards: larger text would overlap); the canvas is fitted instead
    assert win.view.scene().font().pointSizeF() == pytest.approx(size)
    qtbot.waitUntil(lambda: win.view.transform().m11() <= 2.0 + 1e-9, timeout=3000)  # fitted: at most 2x
    assert win.presentation.active and win.isFullScreen()
    assert not win.inspector_dock.isVisible() and not win.palette_dock.isVisible()
    assert win.results_dock.isVisible() and win.view.isVisible()
    # 1.4x, and further when that is still below the presenting minimum (18 px)
    from app.gui.presentation import MIN_PRESENT_PX, text_pixels

    assert app.font().pointSizeF() >= size * 1.4 - 1e-6 and text_pixels(app.font()) >= MIN_PRESENT_PX
    kpi = win.results.capacity_view._kpis["usable"].value  # a key figure's own (bold, larger) font grows too
    assert kpi.font().pointSizeF() >= kpi_size * 1.4 - 1e-6
    win.presentation.leave()  # what Esc does
    assert not win.presentation.active and not win.act_presentation.isChecked()
    qtbot.waitUntil(lambda: win.inspector_dock.isVisible() and win.workloads_dock.isVisible(), timeout=3000)
    assert app.font().pointSizeF() == pytest.approx(size)
    assert win.view.transform().m11() == pytest.approx(transform.m11())
    assert win.results.capacity_view._kpis["usable"].value.font().pointSizeF() == pytest.approx(kpi_size)


def test_closing_in_presentation_mode_keeps_the_working_layout(qtbot, example_window):
    """Quitting while presenting saves the layout with the editing docks (and normal fonts), so the next start
    does not open with them hidden."""
    from PySide6.QtWidgets import QMainWindow

    from app.gui import settings
    from app.gui.main_window import LAYOUT_VERSION

    win = example_window
    app = QApplication.instance()
    size = app.font().pointSizeF()
    win.act_presentation.trigger()
    assert win.presentation.active and not win.inspector_dock.isVisible()
    win.close()
    assert not win.presentation.active and app.font().pointSizeF() == pytest.approx(size)
    probe = QMainWindow()  # a fresh window restoring the saved state shows the inspector dock again
    qtbot.addWidget(probe)
    for dock in (win.palette_dock, win.inspector_dock, win.workloads_dock, win.results_dock):
        clone = type(dock)(dock.windowTitle())
        clone.setObjectName(dock.objectName())
        probe.addDockWidget(win.dockWidgetArea(dock), clone)
    probe.show()
    assert probe.restoreState(settings.get("window/state"), LAYOUT_VERSION)
    inspector = probe.findChild(type(win.inspector_dock), win.inspector_dock.objectName())
    assert not inspector.isHidden()

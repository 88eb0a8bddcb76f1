"""Every dialog sized to its screen: at 1366 x 768, 1920 x 1080 and 200% scaling on 1920 x 1080 (960 x 540
logical pixels) each dialog lies inside the screen's available area, at most 90% of it, and its buttons, tables
and charts are on view inside it (the sizer's requirements scroll; its buttons and results stay visible)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QAbstractScrollArea, QDialogButtonBox, QPushButton, QWidget

import app.gui.screen_fit as screen_fit
from app.gui.screen_fit import fitted_rect

SCREENS = {"1366x768": QRect(0, 0, 1366, 768), "1920x1080": QRect(0, 0, 1920, 1080),
           "200% of 1920x1080": QRect(0, 0, 960, 540)}


@pytest.fixture(params=list(SCREENS))
def screen(request, monkeypatch):
    """The available geometry every dialog is fitted to."""
    rect = SCREENS[request.param]
    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(rect))
    return rect


def _on_view(widget: QWidget, dialog: QWidget, min_height: int = 1) -> None:
    """``widget`` is shown, has a real size, and its whole rectangle lies inside the dialog's."""
    assert widget.isVisible(), widget
    assert widget.width() >= 1 and widget.height() >= min_height, (widget, widget.size())
    top_left = widget.mapTo(dialog, QPoint(0, 0))
    assert dialog.rect().contains(QRect(top_left, widget.size())), (widget, top_left, widget.size(), dialog.size())


def _fits(dialog: QWidget, rect: QRect, qtbot) -> None:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    geometry = dialog.frameGeometry()  # the whole window, title bar included
    assert rect.contains(geometry), (geometry, rect)
    assert geometry.width() <= rect.width() * 0.9 + 1 and geometry.height() <= rect.height() * 0.9 + 1
    minimum = dialog.minimumSizeHint()
    assert minimum.width() <= dialog.width() and minimum.height() <= dialog.height(), minimum
    for button in dialog.findChildren(QPushButton):
        if button.isVisibleTo(dialog) and not _inside_scroll(button, dialog):
            _on_view(button, dialog)


def _inside_scroll(widget: QWidget, dialog: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not dialog:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def test_fitted_rect_caps_centres_and_stays_inside():
    available = QRect(0, 30, 960, 510)
    rect = fitted_rect(QSize(1280, 760), available, QPoint(900, 500))
    assert rect.size() == QSize(864, 459) and available.contains(rect)
    assert fitted_rect(QSize(400, 300), QRect(0, 0, 1920, 1080), QPoint(960, 540)) == QRect(760, 390, 400, 300)
    framed = fitted_rect(QSize(400, 300), QRect(0, 0, 1920, 1080), QPoint(960, 540), frame=QSize(8, 38))
    assert framed == QRect(756, 371, 408, 338)
    assert fitted_rect(QSize(900, 620), available, QPoint(0, 0), frame=QSize(8, 38)).topLeft() == QPoint(0, 30)


def test_sizer(qtbot, example_window, screen):
    dialog = example_window.show_sizer()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.size_button, dialog.apply_button, dialog.compare_button, dialog.chart):
        _on_view(widget, dialog)
    _on_view(dialog.table, dialog, min_height=120)  # a results table of several rows even at 960 x 540
    _on_view(dialog.requirements_scroll, dialog, min_height=120)
    assert dialog.requirements_scroll.widget().isAncestorOf(dialog.form)


def test_calibration(qtbot, example_window, screen):
    dialog = example_window.show_calibration()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.choose, dialog.fit_button, dialog.save_button, dialog.plot, dialog.residuals,
                   dialog.message):
        _on_view(widget, dialog)


def test_hardware_editor(qtbot, example_window, screen):
    dialog = example_window.show_hardware_editor()
    _fits(dialog, screen, qtbot)
    buttons = dialog.findChild(QDialogButtonBox)
    for widget in (dialog.base, dialog.tabs, buttons, dialog.form.scroll):
        _on_view(widget, dialog)
    assert dialog.form.scroll.height() >= 100  # several rows of fields; the splitter below gives it more


def test_catalog_browser(qtbot, example_window, screen):
    dialog = example_window.show_catalog_browser()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.search, dialog.table):
        _on_view(widget, dialog)


def test_guide(qtbot, example_window, screen):
    dialog = example_window.show_guide()
    _fits(dialog, screen, qtbot)
    _on_view(dialog.browser, dialog, min_height=200)


def test_runway(qtbot, screen):
    from app.gui.results.runway_chart import RunwayDialog
    from models.evaluate import evaluate, evaluate_resilience
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    evaluation = replace(evaluation, resilience=evaluate_resilience(project, evaluation))
    dialog = RunwayDialog(evaluation)
    _fits(dialog, screen, qtbot)
    _on_view(dialog.plot, dialog, min_height=200)

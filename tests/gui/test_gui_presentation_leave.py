"""Leaving Presentation Mode gives the window back as it was (revhelp56 #1 and #12a): the status bar's
requirements verdict keeps its word ("Requirements: met", not "Requirements:" with nothing after it) and no result
tab keeps the width the presenting fonts gave it (the Protection tab scrolled sideways after Esc)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from app.gui.main_window import VERDICT_STATUS_WIDTHS, verdict_status_text

EXAMPLE = "aff-a70-ns224-oracle-nvmetcp.toml"
"""The default start's example (its design meets its requirements: the verdict reads "met")."""


def _key_figures(win) -> dict[str, str]:
    return {key: label.text() for key, label in win.status_labels.items()}


def _leave_with_esc(qtbot, win) -> None:
    win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_Escape)
    if win.presentation.active:  # no active window offscreen: the Esc shortcut's own signal
        win.presentation._esc.activated.emit()
    assert not win.presentation.active


def test_the_verdict_keeps_its_word_after_presentation_mode(qtbot, sized_example):
    """The window as large as the screen (the full-screen window is then as wide as the normal one, so no resize
    refits the status bar after Esc, as on a 1366 x 768 laptop): the verdict reads "met" before F11, while
    presenting and after Esc."""
    screen = QApplication.primaryScreen().geometry()
    win = sized_example(EXAMPLE, screen.width(), screen.height())
    qtbot.waitUntil(lambda: "verdict" in win.status_labels, timeout=10_000)
    verdict = win.status_labels["verdict"]
    assert verdict.text() == "Requirements: <b>met</b>"
    before = _key_figures(win)
    win.act_presentation.trigger()  # F11
    assert win.presentation.active
    qtbot.wait(300)
    assert verdict.text() == "Requirements: <b>met</b>"
    _leave_with_esc(qtbot, win)
    qtbot.wait(500)  # the restored fonts settle on the next turns of the event loop
    assert verdict.text() == "Requirements: <b>met</b>"
    assert _key_figures(win)["verdict"] == before["verdict"]


def test_a_short_verdict_is_never_emptied():
    """At every width the status bar may give it, down to 0 px, a met verdict keeps its word."""
    font = QFont(QApplication.font())
    font.setBold(True)
    metrics = QFontMetrics(font)
    for width in VERDICT_STATUS_WIDTHS:
        assert verdict_status_text("met", metrics, width) == "met"
        assert verdict_status_text("n/a", metrics, width) == "n/a"
        assert verdict_status_text("met, capacity not measured", metrics, width).startswith("met")
    assert verdict_status_text("met, capacity not measured", metrics, 0) == "met…"
    assert verdict_status_text("missed: OLTP in takeover; DR copy capacity", metrics, 0) == "2 missed"


def test_no_result_tab_keeps_its_presenting_width(qtbot, sized_example):
    """Presenting, then the Protection tab (built while presenting), then Esc: the results are as wide as before
    (no tab behind another keeps its presenting minimum width) and the Protection tab fits its dock without a
    horizontal scroll bar."""
    win = sized_example(EXAMPLE, 1366, 768)
    results = win.results
    area = win.results_dock.widget()  # the dock's scroll area
    qtbot.wait(300)
    least_width = results.minimumSizeHint().width()
    win.act_presentation.trigger()
    qtbot.wait(300)
    results.setCurrentWidget(results.protection_tab)
    qtbot.waitUntil(lambda: results.protection_view is not None and results.protection_view.panel is not None,
                    timeout=10_000)
    _leave_with_esc(qtbot, win)
    qtbot.wait(500)
    assert results.minimumSizeHint().width() == least_width
    qtbot.waitUntil(lambda: not area.horizontalScrollBar().isVisible(), timeout=3_000)
    assert results.protection_view.width() <= area.viewport().width()

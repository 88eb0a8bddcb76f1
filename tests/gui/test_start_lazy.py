"""A start builds only the result view shown: the other tabs keep their text placeholders until first shown, then
get their real view with the last result, the design errors and the stale state."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from app.gui.results_area import PlaceholderView
from models.resources import examples_dir


def test_only_the_shown_result_view_is_built_at_start(qtbot):
    from app.gui.main_window import DEFAULT_EXAMPLE, MainWindow, read_project

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    win.worker.force_sync()
    results = win.results
    # the start path: the canvas paints, then the shown tab's view is installed
    qtbot.waitUntil(lambda: not isinstance(results.capacity_view, PlaceholderView), timeout=10_000)
    qtbot.waitUntil(lambda: results.last_good is not None, timeout=10_000)
    assert isinstance(results.performance_view, PlaceholderView)
    assert isinstance(results.validation_view, PlaceholderView)
    from models.evaluate import evaluate
    from models.formatting import fmt_iops

    wp = evaluate(read_project(examples_dir() / DEFAULT_EXAMPLE)).performance.workloads[0]
    # figures as text meanwhile: the engine's own max IOPS at the SLO
    assert f"Max IOPS @ SLO: {fmt_iops(wp.max_iops_at_slo)}" in results.performance_view.label.text()
    results.setCurrentIndex(1)
    view = results.performance_view
    assert not isinstance(view, PlaceholderView) and results.currentWidget() is view
    assert results.currentIndex() == 1
    assert [w.name for w in view.workloads] == [w.name for w in results.last_good.performance.workloads]
    # the unit toggle is connected once: one undo step per click
    stack = win.document.undo_stack
    before = stack.count()
    results.capacity_view.sig_unit_changed.emit("TB")
    assert stack.count() == before + 1
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()


def test_a_tab_shown_later_gets_the_height_its_charts_need(qtbot):
    """On a 1366 x 768 laptop the Performance tab, built when first shown, gets the height it needs: the results
    dock follows its content's minimum (the default layout, until the user resizes the dock), as far as the docks
    beside the canvas leave room (the Workloads form's own minimum height may leave a few lines to scroll)."""
    from PySide6.QtCore import QSize

    from app.gui.main_window import DEFAULT_EXAMPLE, MainWindow, read_project

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1350, 728)
    win.show()
    qtbot.waitUntil(lambda: win.size() == QSize(1350, 728), timeout=3000)
    win.apply_default_layout()
    results = win.results
    qtbot.waitUntil(lambda: not isinstance(results.capacity_view, PlaceholderView), timeout=10_000)
    scroll = win.results_dock.widget()
    before = win.results_dock.height()
    results.setCurrentIndex(1)
    qtbot.waitUntil(lambda: win.results_dock.height() > before, timeout=3000)  # it grew for the new view
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() <= 40, timeout=3000)
    assert results.performance_view.plot.isVisible() and results.performance_view.plot.height() >= 260
    assert win.centralWidget().height() >= 180  # the canvas keeps a usable height
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()


def test_the_layout_stops_following_once_the_user_drags_a_separator(qtbot):
    from PySide6.QtCore import QPoint, Qt

    from app.gui import window_layout
    from app.gui.main_window import MainWindow
    from models.project.model import Project

    win = MainWindow(Project())
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    win.apply_default_layout()
    follower = win.results.findChild(window_layout._FollowResults)
    assert follower is not None and follower._following
    # a press between the canvas and the results dock: the separator, the main window's own area
    y = (win.centralWidget().geometry().bottom() + win.results_dock.geometry().top()) // 2
    qtbot.mousePress(win, Qt.MouseButton.LeftButton, pos=QPoint(win.width() // 2, y))
    assert not follower._following
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()

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
    assert "Max IOPS @ SLO: 363K" in results.performance_view.label.text()  # figures as text meanwhile
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

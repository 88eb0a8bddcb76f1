"""A start builds only the result view shown: the other tabs keep their text placeholders until first shown, then
get their real view with the last result, the design errors and the stale state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

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
    # the chart shows once the tab's results (with their failure states, computed when the tab is first shown)
    # arrive: on a loaded machine that can take longer than the dock's growth
    qtbot.waitUntil(lambda: results.performance_view.plot.isVisible(), timeout=15_000)
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


# What the first window does not show, so never imports before its first paint: the dialogs (calibration, sizer,
# hardware editor, catalog browser), the pyqtgraph result views, the calibration and validation engines, the sizer,
# the report and its PDF / workbook libraries.
NOT_BEFORE_FIRST_PAINT = (
    "pyqtgraph", "app.gui.calibration_dialog", "app.gui.sizer_dialog", "app.gui.hardware_editor",
    "app.gui.catalog_browser", "app.gui.results", "app.gui.results.performance_view",
    "app.gui.results.capacity_view", "models.calibration", "models.validation", "models.sizing", "app.report",
    "reportlab", "openpyxl",
    # the engines and numpy: the first evaluation waits for the first paint
    "models.performance", "numpy",
    # the presentation of results (bill of materials, citations, comparison, waterfall): loaded with their views
    "models.present.bom", "models.present.citations", "models.present.comparison", "models.present.waterfall",
    # the capacity engines, the design check and the evaluation (the first run imports them after the paint), the
    # Help menu's dialogs
    "models.evaluate", "models.problems", "models.capacity.engine", "models.capacity.array",
    "models.capacity.defaults", "app.gui.help",
)

_FIRST_PAINT_PROBE = textwrap.dedent("""
    import json, sys
    from app.gui import prepare_process
    prepare_process()  # run_gui's steps before its QApplication (models preloaded, method cache, collector held)
    from PySide6.QtCore import QCoreApplication, QEvent, QObject, QStandardPaths
    from PySide6.QtWidgets import QApplication
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("StorPlan-tests")
    QCoreApplication.setApplicationName("StorPlan-tests-start-lazy")
    app = QApplication(sys.argv[:1])
    from app.gui.startup import open_main_window
    window = open_main_window(None, offer_recovery=False)

    class FirstPaint(QObject):
        modules = None
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and self.modules is None:
                self.modules = sorted(sys.modules)
            return False

    paint = FirstPaint()
    window.view.viewport().installEventFilter(paint)
    window.show()
    while paint.modules is None:
        app.processEvents()
    shown = window.document.scenario.nodes
    window.worker.shutdown()
    window.compare_worker.shutdown()
    window.document.undo_stack.setClean()
    window.close()
    print(json.dumps({"modules": paint.modules, "nodes": len(shown)}))
""")


def test_nothing_the_first_window_does_not_show_is_imported_before_its_first_paint(tmp_path):
    """A fresh process started as ``storplan`` starts (the models preloaded, then the default example's window):
    at the canvas's first paint, no dialog, pyqtgraph view, calibration, validation, sizer or report module is
    loaded (they load on first use), while the window does show the example's nodes."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STORPLAN_HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", _FIRST_PAINT_PROBE], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    loaded = set(probe["modules"])
    assert probe["nodes"] > 0  # the default example is on the canvas
    assert "app.gui.main_window" in loaded and "PySide6.QtWidgets" in loaded  # the probe saw the real start
    early = sorted(name for name in loaded if name in NOT_BEFORE_FIRST_PAINT
                   or any(name.startswith(f"{lazy}.") for lazy in NOT_BEFORE_FIRST_PAINT))
    assert early == []


def test_the_window_s_caution_colour_is_the_result_views_warning_colour():
    """The main window keeps its own copy of the amber (so it need not import pyqtgraph): the views' colour."""
    from app.gui.main_window import ASSUMED_COLOR
    from app.gui.results._common import WARNING

    assert ASSUMED_COLOR.lower() == WARNING.lower()


def test_each_dialog_still_opens_from_the_window(qtbot):
    """The dialogs load on first use: each menu command still opens its dialog on the window's project."""
    from app.gui.calibration_dialog import CalibrationDialog
    from app.gui.catalog_browser import CatalogBrowser
    from app.gui.hardware_editor import HardwareEditor
    from app.gui.main_window import DEFAULT_EXAMPLE, MainWindow, read_project
    from app.gui.sizer_dialog import SizerDialog

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    opened = [win.show_sizer(), win.show_calibration(), win.show_hardware_editor(), win.show_catalog_browser()]
    assert [type(d) for d in opened] == [SizerDialog, CalibrationDialog, HardwareEditor, CatalogBrowser]
    assert all(d.isVisible() and d.parent() is win for d in opened)
    for dialog in opened:
        dialog.close()
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()

"""The catalog and workloads panels are built when their dock is first shown, not with the window (issue 27: nothing
the first window does not show is made before it is painted): a dock tab behind the inspector gets its panel when
brought to the front, or once the first results are drawn; asking for a panel builds it."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox

from app.gui.main_window import MainWindow
from app.gui.palette import PaletteWidget
from app.gui.workloads_panel import WorkloadsPanel
from models.resources import examples_dir


def _window(qtbot, project) -> MainWindow:
    win = MainWindow(project)
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    return win


def _dispose(win: MainWindow) -> None:
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()


def test_a_dock_behind_another_tab_gets_its_panel_when_shown_or_after_the_first_results(qtbot):
    from app.gui.main_window import read_project

    project = read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")
    first = _window(qtbot, project)
    first.show()
    qtbot.waitUntil(lambda: first._workloads is not None)  # the default layout sizes its columns for both panels
    assert first._palette is not None
    _dispose(first)  # its layout is saved: the next window restores it (the workloads behind the inspector)

    win = _window(qtbot, project)
    assert win._palette is None and win._workloads is None  # nothing built with the window
    assert not isinstance(win.workloads_dock.widget(), WorkloadsPanel)
    win.show()
    QApplication.processEvents()
    assert win._layout_restored
    assert win._workloads is None  # a tab behind the inspector: not built before the first results
    # a dock shown at the start is built at once; one behind the inspector's tab (Qt places it outside the window)
    # is not
    palette_shown = win.palette_dock.isVisible() and win.palette_dock.geometry().right() >= 0
    assert (win._palette is not None) == palette_shown
    win.workloads_dock.raise_()  # the Workloads tab brought to the front
    qtbot.waitUntil(lambda: win._workloads is not None)
    assert win.workloads_dock.widget() is win._workloads and win._workloads.isVisible()
    assert win.workloads.list.count() == len(project.scenario.workloads)  # the panel lists the project
    _dispose(win)


def test_the_hidden_panels_are_built_once_the_first_results_are_drawn(qtbot):
    from app.gui.main_window import read_project

    project = read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")
    first = _window(qtbot, project)
    first.show()
    qtbot.waitUntil(lambda: first._workloads is not None)
    _dispose(first)
    win = _window(qtbot, project)
    win.show()
    QApplication.processEvents()
    assert win._workloads is None
    win._install_result_views(current_only=True)
    win.worker.force_sync()
    qtbot.waitUntil(lambda: win._workloads is not None and win._palette is not None)
    assert isinstance(win.palette_dock.widget(), PaletteWidget)
    assert isinstance(win.workloads_dock.widget(), WorkloadsPanel)
    _dispose(win)


def test_asking_for_a_panel_builds_it_in_its_dock(qtbot):
    from models.project.model import Project

    win = _window(qtbot, Project())
    assert win._palette is None
    palette = win.palette_widget
    assert isinstance(palette, PaletteWidget) and win.palette_dock.widget() is palette
    assert win.palette_widget is palette  # built once
    workloads = win.workloads
    assert isinstance(workloads, WorkloadsPanel) and win.workloads_dock.widget() is workloads
    _dispose(win)

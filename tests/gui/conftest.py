"""GUI test fixtures: offscreen Qt, QSettings in test mode, a private STORPLAN_HOME, a fresh main window."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths
from PySide6.QtWidgets import QMessageBox

from models.resources import examples_dir


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """Never touch the developer's settings or user data."""
    QStandardPaths.setTestModeEnabled(True)
    # a settings file of this test's own: test mode alone shares one file between every test run on the machine
    # (two suites at once overwrite each other's window layout)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    QCoreApplication.setOrganizationName("StorPlan-tests")
    # One settings file per test process: concurrent test runs on one machine never see each other's window state.
    QCoreApplication.setApplicationName(f"StorPlan-tests-{os.getpid()}")
    monkeypatch.setenv("STORPLAN_HOME", str(tmp_path / "home"))
    from app.gui import settings

    store = settings._store()
    store.clear()
    store.sync()
    yield
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is not None:
        # A QMimeData left on the offscreen clipboard crashes the interpreter at exit: empty it per test.
        QApplication.clipboard().clear()


def _dispose(win) -> None:
    """Stop the workers and delete the window now, not at interpreter exit."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()
    win.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def window(qtbot):
    """A main window on an empty project, shown offscreen."""
    from app.gui.main_window import MainWindow
    from models.project.model import Project

    win = MainWindow(Project())
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    win._install_result_views()
    win.worker.force_sync()
    yield win
    _dispose(win)


@pytest.fixture
def example_window(qtbot):
    """A main window on the AFF8080 example (the GUI tests' fixture; the app's default start is another example)."""
    from app.gui.main_window import MainWindow, read_project

    path = examples_dir() / "aff8080-sqlserver-tpce.toml"
    assert path.exists(), path
    win = MainWindow(read_project(path))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    win._install_result_views()
    win.worker.force_sync()
    yield win
    _dispose(win)

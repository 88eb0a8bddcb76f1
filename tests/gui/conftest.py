"""GUI test fixtures: offscreen Qt, QSettings in test mode, a private STORPLAN_HOME, a fresh main window."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings, QStandardPaths
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


def shown_window(qtbot, project):
    """A main window on ``project``, shown offscreen with its result views installed and its worker synced (the
    GUI tests' windows; :func:`_dispose` ends one)."""
    from app.gui.main_window import MainWindow

    win = MainWindow(project)
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    if qtbot is not None:  # None: a window that outlives a test (:func:`module_example_window`)
        qtbot.addWidget(win)
    win.show()
    win._install_result_views()
    win.worker.force_sync()
    return win


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
def open_window(qtbot):
    """A function project -> :func:`shown_window` on it; every window it opened is disposed after the test."""
    made = []

    def _open(project):
        made.append(shown_window(qtbot, project))
        return made[-1]

    yield _open
    for win in made:
        _dispose(win)


@pytest.fixture
def window(qtbot):
    """A main window on an empty project, shown offscreen."""
    from models.project.model import Project

    win = shown_window(qtbot, Project())
    yield win
    _dispose(win)


@pytest.fixture
def example_window(qtbot):
    """A main window on the AFF8080 example (the GUI tests' fixture; the app's default start is another example)."""
    from app.gui.main_window import read_project

    path = examples_dir() / "aff8080-sqlserver-tpce.toml"
    assert path.exists(), path
    win = shown_window(qtbot, read_project(path))
    yield win
    _dispose(win)


@pytest.fixture
def sized_example(qtbot, open_window):
    """A function (example file name, width px, height px) -> a main window on that bundled example, resized to
    exactly that size and put in its default layout (the laptop-screen tests: 1366 x 768 and alike)."""
    from PySide6.QtCore import QSize

    from app.gui.main_window import read_project

    def _open(example: str, width: int, height: int):
        win = open_window(read_project(examples_dir() / example))
        win.resize(width, height)
        qtbot.waitUntil(lambda: win.size() == QSize(width, height), timeout=3000)
        win.apply_default_layout()
        return win

    return _open


@pytest.fixture
def two_workload_chart(qtbot, sized_example):
    """A function (example file name, width px, height px) -> (main window, its Performance view): the example at
    that size with a TPC-E-like workload added, on the Performance tab once both workloads and their failure states
    are drawn."""
    from PySide6.QtWidgets import QApplication

    def _show(example: str, width: int, height: int):
        win = sized_example(example, width, height)
        win.workloads.add_from_preset("tpce-oltp")
        win.results.setCurrentIndex(1)
        view = win.results.performance_view

        def ready() -> bool:
            outcome = win.worker.last_outcome
            return (len(view.workloads) == 2 and outcome is not None and outcome.evaluation.resilience is not None
                    and len(view._state_items) == 2)

        qtbot.waitUntil(ready, timeout=30_000)
        qtbot.wait(200)
        QApplication.processEvents()
        return win, view

    return _show


@pytest.fixture(scope="module")
def module_example_window(qapp, tmp_path_factory):
    """One main window on the AFF8080 example shared by a module's tests, for tests that only open a dialog from
    it and close it again (building and disposing a window per test was most of such a module's time). Its
    settings and user data are in a folder of the module's own, as :func:`_isolated_settings` gives each test;
    a test that changes the window's project takes :func:`example_window` instead."""
    from app.gui.main_window import read_project

    home = tmp_path_factory.mktemp("module_window")
    QStandardPaths.setTestModeEnabled(True)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(home / "settings"))
    QCoreApplication.setOrganizationName("StorPlan-tests")
    QCoreApplication.setApplicationName(f"StorPlan-tests-{os.getpid()}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STORPLAN_HOME", str(home / "home"))
        from app.gui import settings

        store = settings._store()
        store.clear()
        store.sync()
        win = shown_window(None, read_project(examples_dir() / "aff8080-sqlserver-tpce.toml"))
        yield win
        _dispose(win)


@pytest.fixture
def us_locale():
    """Digit groups and the decimal point as an English-speaking user types and reads them (the C locale never
    groups): a spin box's text in the tests that read or type grouped numbers. Modules that need it for every test
    mark themselves ``pytestmark = pytest.mark.usefixtures("us_locale")``."""
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    yield
    QLocale.setDefault(before)


@pytest.fixture
def wizard_at_grouping():
    """A function (main window, files) -> its File > Import Environment wizard with ``files`` read and shown on the
    grouping page, the grouping computed (the wizard's first two pages passed as a user clicks Next)."""
    def _open(window, files):
        window.act_import_env.trigger()
        wizard = window._import_wizard
        wizard.add_files(list(files))
        assert wizard.runner.wait(30)
        wizard.next()
        wizard.next()
        assert wizard.currentPage() is wizard.grouping_page
        assert wizard.runner.wait(60)
        return wizard
    return _open

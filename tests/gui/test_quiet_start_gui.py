"""The desktop app holds the cyclic collector from its start until the first window's first results are drawn
(app.gui.release_after_first_results), then freezes what start-up made and turns it back on."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtWidgets import QMessageBox

from app import quiet_start
from models.resources import examples_dir


@pytest.fixture
def collector_restored():
    was = gc.isenabled()
    frozen = gc.get_freeze_count()
    yield
    quiet_start._held = False
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()
    gc.enable() if was else gc.disable()


def _window(qtbot):
    from app.gui.main_window import DEFAULT_EXAMPLE, MainWindow, read_project

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    return win


def _close(win) -> None:
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()


def test_the_collector_runs_again_once_the_first_results_are_shown(qtbot, collector_restored, monkeypatch):
    from app import gui

    monkeypatch.setenv(quiet_start.PLUGINS_SETTING, "__all__")
    gc.enable()
    quiet_start.hold()
    win = _window(qtbot)
    gui.release_after_first_results(win)
    win.show()
    assert not gc.isenabled()  # the window is up; its results are not in yet
    shown = []
    win.worker.sig_evaluation_finished.connect(lambda outcome: shown.append(win.results.last_good))
    win.worker.force_sync()
    qtbot.waitUntil(lambda: gc.isenabled(), timeout=10_000)
    assert shown and shown[0] is not None  # released with the first results, after the window drew them
    assert not quiet_start.holding() and gc.get_freeze_count() > 0
    _close(win)


def test_without_results_the_collector_is_released_after_the_wait(qtbot, collector_restored, monkeypatch):
    from app import gui

    monkeypatch.setenv(quiet_start.PLUGINS_SETTING, "__all__")
    monkeypatch.setattr(gui, "FIRST_RESULTS_WAIT_MS", 50)
    gc.enable()
    quiet_start.hold()
    win = _window(qtbot)
    win.worker.shutdown()  # no evaluation will come
    gui.release_after_first_results(win)
    qtbot.waitUntil(lambda: gc.isenabled(), timeout=5_000)
    assert not quiet_start.holding()
    _close(win)

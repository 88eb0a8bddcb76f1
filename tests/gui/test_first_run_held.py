"""A new window's first evaluation waits for the canvas's first paint (its thread would import the engines while
the window builds and paints, sharing the GUI's interpreter lock): a held request starts on release only, or when a
test forces it."""

from __future__ import annotations

from app.gui.project_io import DEFAULT_EXAMPLE, read_project
from app.gui.worker import EvaluationWorker
from models.resources import examples_dir


def test_a_held_request_starts_on_release_only(qtbot):
    worker = EvaluationWorker(0, mode="thread")
    project = read_project(examples_dir() / DEFAULT_EXAMPLE)
    got = []
    worker.sig_evaluation_finished.connect(got.append)
    worker.request(project, hold=True)
    assert worker.busy
    qtbot.wait(150)
    assert got == [] and worker.running_task is None
    worker.release()
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    assert got[0].error is None and got[0].evaluation.scenario == project.active_scenario
    worker.release()  # nothing held: nothing runs
    qtbot.wait(50)
    assert len(got) == 1 and not worker.busy
    worker.request(project, hold=True)
    outcome = worker.force_sync()
    assert len(got) == 2 and outcome is got[1] and outcome.error is None
    worker.shutdown()


def test_a_window_evaluates_once_painted(qtbot):
    from app.gui.main_window import MainWindow

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: None
    qtbot.addWidget(win)
    assert win.worker.busy and win.worker.running_task is None  # held until the canvas paints
    win.show()
    qtbot.waitUntil(lambda: win.worker.last_outcome is not None, timeout=10_000)
    assert win.worker.last_outcome.error is None
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()

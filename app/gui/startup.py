"""Start-up of the desktop app: the first window's project, crash recovery, and the smoke check of a build.

``storplan [PATH | EXAMPLE]`` ends here (through :func:`app.gui.run_gui`): :func:`open_main_window` opens the file
through the same code as File → Open (lock, read-only offer, pinned catalog), a bundled example as a new unsaved
project, else the default example; once the window is up, it offers to recover a crashed session's work.
:func:`schedule_smoke_check` is the self-test of a frozen build (``STORPLAN_SMOKE_QUIT_MS``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.gui import settings
from app.gui.catalog_notice import show_user_catalog_problem
from app.gui.main_window import MainWindow
from app.gui.project_io import DEFAULT_EXAMPLE, read_project
from models.project.model import Project
from models.resources import examples_dir


def initial_project(path: str | None) -> tuple[Project, Path | None]:
    """The project a new window starts on: the given file, else the default example, else an empty one."""
    if path:
        return read_project(Path(path)), Path(path)
    if settings.get("startup/open_example"):
        example = examples_dir() / DEFAULT_EXAMPLE
        if example.exists():
            try:
                return read_project(example), None
            except Exception:  # noqa: BLE001 - an example in progress must not stop the app starting
                pass
    return Project(), None


def open_main_window(path: str | Path | None = None, *, offer_recovery: bool = True,
                     example: str | Path | None = None) -> MainWindow:
    """The start-up window (``storplan [PATH]``): the file through the same open code as File → Open, a bundled
    example (``example``: opened as a new, unsaved project, so saving never overwrites the bundled file), else
    the default example; then, once the window is up, the offer to recover a crashed session's work."""
    if example:
        window = MainWindow(read_project(Path(example)), None)
    elif path:
        window = MainWindow(Project())
        window.files.open_path(Path(path), wait=True)  # before the window shows: nothing to keep responsive
    else:
        project, project_path = initial_project(None)
        window = MainWindow(project, project_path)
    if offer_recovery:
        QTimer.singleShot(0, window.files.offer_recovery)
    QTimer.singleShot(0, window, lambda: show_user_catalog_problem(window))  # started without a broken file
    return window


def schedule_smoke_check(window: MainWindow, app: QApplication, quit_ms: int,
                         calibrate_csv: str | None = None) -> None:
    """Self-test of a build: evaluate the window's project once in the worker process, print what the window
    shows and that evaluation, then quit after ``quit_ms`` milliseconds (or once the evaluation is in, if later).
    With ``calibrate_csv`` (``STORPLAN_SMOKE_CALIBRATE``), Tools -> Calibrate from Lab Data also fits that CSV to
    the window's project, and the quit waits for the fit too.

    Prints ``storplan: worker process evaluated <scenario> (pid N)`` or ``storplan: worker process failed: ...``,
    with a CSV ``storplan: calibration dialog: <the dialog's message>``, and ``storplan: window shown: <title>;
    <status>`` on stdout.
    """
    from app.gui.worker import EvaluationWorker

    probe = EvaluationWorker(0, window, mode="process")
    state = {"evaluated": False, "timed_out": False, "calibrated": calibrate_csv is None}

    def evaluated(outcome) -> None:
        from app.gui.tasks import worker_pool

        if outcome.error is None and outcome.in_process:
            print(f"storplan: worker process evaluated {outcome.evaluation.scenario} (pid {worker_pool().pid})")
        else:
            print(f"storplan: worker process failed: {outcome.error or 'ran in the GUI process'}")
        sys.stdout.flush()
        state["evaluated"] = True
        if state["timed_out"] and state["calibrated"]:
            report_and_quit()

    def calibrated(_task) -> None:
        print(f"storplan: calibration dialog: {dialog.message.text()}")
        sys.stdout.flush()
        state["calibrated"] = True
        if state["timed_out"] and state["evaluated"]:
            report_and_quit()

    def report_and_quit() -> None:
        print(f"storplan: window shown: {window.windowTitle()}; {window.statusBar().currentMessage() or 'ready'}")
        window.document.undo_stack.setClean()
        window.close()
        app.quit()

    def time_up() -> None:
        state["timed_out"] = True
        if state["evaluated"] and state["calibrated"]:
            report_and_quit()

    probe.sig_evaluation_finished.connect(evaluated)
    probe.request(window.document.project, catalog=window.document.base_catalog)
    if calibrate_csv:  # the menu's dialog, given the file instead of asking for it
        dialog = window.show_calibration()
        dialog.runner.sig_task_finished.connect(calibrated)
        if dialog.load(Path(calibrate_csv)):
            dialog.fit()
        else:
            calibrated(None)
    QTimer.singleShot(quit_ms, time_up)

"""The task runner: results and progress on the GUI thread, cancel, the warm worker process; a 1,000-node design
keeps the window responsive while it evaluates, and a newer edit supersedes the run in progress."""

from __future__ import annotations

import ast
import os
import threading
import time
from pathlib import Path

import pytest
import task_jobs
from PySide6.QtCore import QThread, QTimer
from PySide6.QtWidgets import QApplication

from app.gui.tasks import TaskRunner, worker_pool
from app.gui.worker import EvaluationWorker

GUI = Path(__file__).resolve().parents[2] / "app" / "gui"


@pytest.fixture
def runner(qtbot):
    runner = TaskRunner(name="test")
    yield runner
    runner.shutdown(wait=True)
    runner.deleteLater()


def test_thread_task_delivers_progress_and_result_on_the_gui_thread(qtbot, runner):
    gui_thread = QThread.currentThread()
    progress, done, threads = [], [], []

    def job(state, n):
        threads.append(threading.current_thread().name)
        for i in range(n):
            state.set_progress((i + 1) / n)
        return sum(range(n))

    def on_progress(fraction):
        assert QThread.currentThread() is gui_thread
        progress.append(fraction)

    with qtbot.waitSignal(runner.sig_task_finished, timeout=5_000):
        task = runner.submit(job, 10, on_done=lambda ok, result: done.append((ok, result)), on_progress=on_progress)
        assert runner.busy
    assert done == [(True, 45)]
    assert threads[0].startswith("storplan-test") and threads[0] != threading.main_thread().name
    assert progress and progress[-1] == 1.0 and progress == sorted(progress)  # coalesced, never backwards
    assert task.done and task.progress == 1.0 and not runner.busy


def test_a_failing_task_delivers_its_exception(qtbot, runner):
    done = []

    def job(state):
        raise OSError("disk full")

    runner.submit(job, on_done=lambda ok, result: done.append((ok, result)))
    assert runner.wait(5)
    assert len(done) == 1 and done[0][0] is False and str(done[0][1]) == "disk full"


def test_cancel_drops_results_and_unstarted_tasks_never_run(qtbot, runner):
    release, started, ran, done = threading.Event(), threading.Event(), [], []

    def blocking(state):
        started.set()
        release.wait(10)
        return "stale" if state.is_interruption_requested() else "fresh"

    first = runner.submit(blocking, on_done=lambda ok, result: done.append(result))
    queued = runner.submit(lambda state: ran.append("queued"), on_done=lambda ok, result: done.append("queued"))
    assert started.wait(5)
    busy = []
    runner.sig_busy_changed.connect(busy.append)
    queued.cancel()
    first.cancel()
    assert busy == [False] and not runner.busy  # cancelled work no longer counts as busy
    release.set()
    after = runner.submit(lambda state: "after", on_done=lambda ok, result: done.append(result))
    assert runner.wait(5)
    assert done == ["after"] and ran == []  # neither the stale result nor the unstarted task
    assert first.cancelled and after.done


def test_process_task_runs_in_the_worker_process_with_progress(qtbot, runner):
    progress, done = [], []
    with qtbot.waitSignal(runner.sig_task_finished, timeout=30_000):
        runner.submit(task_jobs.steps_until_cancelled, 5, 0.01, in_process=True,
                      on_progress=progress.append, on_done=lambda ok, result: done.append((ok, result)))
    assert done == [(True, "finished")]
    pid = []
    runner.submit(task_jobs.pid, in_process=True, on_done=lambda ok, result: pid.append(result))
    assert runner.wait(30)
    assert pid[0] != os.getpid() and pid[0] == worker_pool().pid
    qtbot.waitUntil(lambda: bool(progress) and progress[-1] == 1.0, timeout=5_000)


def test_cancelled_process_task_stops_and_the_next_one_is_not_blocked(qtbot, runner):
    # a cancelled run that looks at its state stops early; its result is dropped
    progress, done = [], []
    first = runner.submit(task_jobs.steps_until_cancelled, 2_000, 0.01, in_process=True,
                          on_progress=progress.append, on_done=lambda ok, result: done.append(result))
    qtbot.waitUntil(lambda: bool(progress), timeout=30_000)  # it is running in the worker process
    first.cancel()
    runner.submit(task_jobs.pid, in_process=True, on_done=lambda ok, result: done.append("next"))
    start = time.perf_counter()
    assert runner.wait(20)
    assert done == ["next"] and time.perf_counter() - start < 10  # not the 20 s the first run would take

    # a cancelled run that would go on for long (and ignores its state) gets a fresh worker process
    pool = worker_pool()
    restarts, old_pid = pool.restarts, pool.pid
    started = []
    stuck = runner.submit(task_jobs.ignore_cancel, 60, in_process=True, expected_s=60,
                          on_progress=started.append, on_done=lambda ok, result: done.append("stuck"))
    qtbot.waitUntil(lambda: bool(started), timeout=30_000)  # it is running in the worker process
    stuck.cancel()
    runner.submit(task_jobs.pid, in_process=True, on_done=lambda ok, result: done.append(result))
    start = time.perf_counter()
    assert runner.wait(30)
    assert time.perf_counter() - start < 20 and pool.restarts == restarts + 1
    assert "stuck" not in done and done[-1] != old_pid


def test_a_large_design_evaluates_in_the_worker_process_and_the_gui_keeps_ticking(qtbot):
    """1,000 nodes: the run goes to the worker process; a 5 ms timer keeps firing while it runs (an evaluation
    linear in the design's size takes a few tens of ms here, 20 workloads keep it long enough to watch), and an
    edit made meanwhile supersedes it (its result never shows)."""
    from app.gui.main_window import MainWindow

    project = task_jobs.large_project(1000, n_workloads=20)
    win = MainWindow(project)
    qtbot.addWidget(win)
    win.show()
    try:
        worker = win.worker
        assert worker.wants_process(project, ("Base",))
        win._install_result_views()
        first = worker.force_sync(60_000)
        assert first is not None and first.in_process and first.error is None, first and first.error
        qtbot.wait(100)  # let the window paint the first results
        shown = []
        worker.sig_evaluation_finished.connect(shown.append)

        ticks: list[float] = []

        def tick() -> None:  # only while a run is in progress: drawing its result is the results views' time
            task = worker.running_task
            if task is not None and not task.done:
                ticks.append(time.perf_counter())

        timer = QTimer(interval=5)
        timer.timeout.connect(tick)
        timer.start()
        shelf = next(n for n in win.document.scenario.nodes if n.kind == "shelf")
        assert win.document.set_node_field(shelf.id, "drive_count", 12) is None
        # the run starts on the worker's posted start event, ahead of the repaint the edit asked for: deliver just
        # that event (waiting with the event loop, the run could end before the repaint lets the wait look again)
        QApplication.sendPostedEvents(worker, 0)
        assert worker.running_task is not None
        stale = worker.running_task
        assert stale.in_process and not stale.done  # the project is still on its way to the worker process
        assert win.document.set_node_field(shelf.id, "drive_count", 6) is None  # the newer edit
        assert stale.cancelled
        ticks.clear()  # from here the GUI thread only waits: the edits above were this test's own work on it
        waited_from = time.perf_counter()
        with qtbot.waitSignal(worker.sig_evaluation_finished, timeout=60_000):
            pass
        waited_s = time.perf_counter() - waited_from
        timer.stop()
        assert len(shown) == 1 and shown[0].generation == worker._generation  # only the newest result
        assert shown[0].in_process and shown[0].error is None
        usable = shown[0].evaluation.capacity.total.usable_bytes
        assert usable < first.evaluation.capacity.total.usable_bytes  # it is the design with 6 drives there
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        assert len(ticks) >= 5, ticks
        # The GUI thread never waited behind the engine: a GUI blocked on the run would show one gap as long as the
        # run itself. On a 2-core machine shared with the worker process (and CI's other work) the scheduler alone
        # can pause it for a couple of hundred ms, so the bound is the larger of 150 ms and 80% of the wait (a GUI
        # blocked on the run shows a gap of nearly all of it; quiet, the longest gap is ~5 ms of a ~270 ms wait); the
        # figures themselves are bench_gui.py's (longest GUI-thread stall while the engine runs).
        bound_s = max(0.15, 0.8 * waited_s)
        assert max(gaps) < bound_s, (f"longest gap between ticks {max(gaps) * 1000:.0f} ms in a "
                                     f"{waited_s * 1000:.0f} ms run")
    finally:
        win.worker.shutdown()
        win.compare_worker.shutdown()
        win.document.undo_stack.setClean()
        win.close()
        QApplication.processEvents()


def test_small_designs_evaluate_in_a_thread(example_window):
    outcome = example_window.worker.force_sync()
    assert outcome.error is None and not outcome.in_process
    assert not example_window.worker.wants_process(example_window.document.project, ("Base",))


def test_evaluation_worker_reports_progress_per_scenario(qtbot, example_window):
    worker = EvaluationWorker(0, mode="thread")
    project = example_window.document.project
    project = project.model_copy(update={"scenarios": [project.scenario, project.scenario.model_copy(
        update={"name": "Copy"})]})
    progress = []
    worker.sig_evaluation_progress.connect(lambda generation, fraction: progress.append(fraction))
    worker.request(project, ("Base", "Copy"))
    outcome = worker.force_sync()
    QApplication.processEvents()
    assert [e.scenario for e in outcome.evaluations] == ["Base", "Copy"]
    assert progress and progress[-1] == 1.0
    worker.shutdown()


def _gui_imports(module: str) -> set[str]:
    tree = ast.parse((GUI / f"{module}.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.add(node.module or "")
            names.update(alias.name for alias in node.names if not node.module)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app.gui."):
            names.add(node.module.removeprefix("app.gui."))
    return names


FILE_MODULES = ["file_controller", "project_io", "locks", "autosave", "catalog_pinning", "report_export", "busy"]


@pytest.mark.parametrize("module", FILE_MODULES)
def test_file_modules_do_not_import_the_main_window(module):
    assert "main_window" not in _gui_imports(module)
    assert "startup" not in _gui_imports(module)


def test_the_main_window_imports_no_start_up_code():
    assert "startup" not in _gui_imports("main_window")


def test_the_worker_process_side_imports_no_qt():
    for module in ("task_process", "evaluation"):
        source = (GUI / f"{module}.py").read_text()
        assert "PySide6" not in source and "from ." not in source.replace("from .task_process import TaskState", "")


def test_evaluation_falls_back_to_a_thread_when_the_worker_process_breaks(qtbot, example_window, monkeypatch):
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from app.gui.tasks import WorkerPool

    def broken(self, task, fn, args, progress):
        future = Future()
        future.set_exception(BrokenProcessPool("the worker process died"))
        return future

    monkeypatch.setattr(WorkerPool, "submit", broken)
    worker = EvaluationWorker(0, mode="auto")
    monkeypatch.setattr(worker, "PROCESS_NODES", 0)  # send even the example to the worker process
    worker.request(example_window.document.project)
    outcome = worker.force_sync()  # the failed run's delivery starts the retry in a thread; it waits for that too
    assert outcome.error is None and not outcome.in_process and outcome.evaluation is not None
    assert worker.mode == "thread" and "worker process died" in worker.process_failure
    worker.shutdown()


def test_evaluations_of_every_example_cross_the_process_boundary_intact():
    """What the worker process sends back (frozen dataclasses, read-only dicts inside) pickles and reads back the
    same, field for field (compared by repr: some result records compare by identity)."""
    import pickle
    from multiprocessing.reduction import ForkingPickler

    from app.gui.evaluation import run_evaluation
    from app.gui.project_io import read_project
    from app.gui.task_process import register_pickle_reducers
    from models.resources import examples_dir

    register_pickle_reducers()
    examples = sorted(examples_dir().glob("*.toml"))
    assert examples
    for path in examples:
        project = read_project(path)
        assert pickle.loads(ForkingPickler.dumps(project)) == project
        outcome = run_evaluation(project, (project.active_scenario,))
        assert outcome.error is None, (path.name, outcome.error)
        back = pickle.loads(ForkingPickler.dumps(outcome))
        assert repr(back) == repr(outcome), path.name

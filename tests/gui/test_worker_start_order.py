"""The evaluation worker starts a lone edit's run ahead of the repaints the edit posted (issue 27: at 1,000 nodes
the canvas and charts repainted for ~25 ms before the worker process got the run)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QApplication

from app.gui.worker import EvaluationWorker
from models.project.model import Project


class _Recorder(QObject):
    """Notes when a posted event of ordinary priority (a repaint request stands in for it) is delivered."""

    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.User:
            self.order.append("posted before the request")
            return True
        return super().event(event)


def test_a_quiet_request_starts_before_events_posted_earlier_in_the_same_turn(qtbot):
    worker = EvaluationWorker(debounce_ms=600, mode="thread")
    order: list[str] = []
    recorder = _Recorder(order)
    worker.sig_evaluation_started.connect(lambda _g: order.append("run started"))
    QCoreApplication.postEvent(recorder, QEvent(QEvent.Type.User))  # as an edit's scene update is posted first
    worker.request(Project())
    assert order == []  # not inside request(): requests later in this turn join the run
    assert worker.busy
    QApplication.processEvents()
    assert order == ["run started", "posted before the request"]
    outcome = worker.force_sync()
    assert outcome is not None and outcome.error is None
    worker.shutdown()


def test_a_cancelled_request_does_not_start_when_its_event_arrives(qtbot):
    worker = EvaluationWorker(debounce_ms=0, mode="thread")  # every request quiet
    started: list[int] = []
    worker.sig_evaluation_started.connect(started.append)
    worker.request(Project())
    worker.cancel()
    assert not worker.busy
    QApplication.processEvents()
    assert started == []
    worker.request(Project())  # a later quiet request posts its own start
    QApplication.processEvents()
    assert len(started) == 1
    worker.force_sync()
    worker.shutdown()


def test_a_run_whose_base_the_worker_process_lacks_is_sent_again_whole(qtbot):
    """In the worker process, projects travel as what changed since the last one sent (app.gui.evaluation.
    ProjectChannel); when the worker process lacks the base (here: a message packed but never delivered, as for a
    run cancelled before it started), the run comes back stale and is sent again whole: the result is the edit's."""
    from pathlib import Path

    from models.project import edits, load
    from models.resources import examples_dir

    first = load(Path(examples_dir()) / "aff8080-sqlserver-tpce.toml")
    shelf = next(n for n in first.scenario.nodes if n.kind == "shelf")
    second = edits.replace_scenario(first, edits.set_node_fields(first.scenario, shelf.id, drive_count=20))
    worker = EvaluationWorker(debounce_ms=0, mode="process")
    started: list[int] = []
    worker.sig_evaluation_started.connect(started.append)
    try:
        worker.request(first)
        one = worker.force_sync(60_000)
        assert one is not None and one.in_process and one.error is None
        worker._channel.pack(second, None)  # the GUI's base moves on; the worker process never sees it
        worker.request(second)
        with qtbot.waitSignal(worker.sig_evaluation_finished, timeout=60_000) as blocker:
            QApplication.processEvents()
        two = blocker.args[0]
        assert two.error is None and not two.stale_base and two.in_process
        assert len(started) == 3  # the first run, the stale one and the one sent whole
        expected = two.evaluation.capacity.total.raw_bytes
        assert expected != one.evaluation.capacity.total.raw_bytes  # the edited design's capacity
    finally:
        worker.shutdown()

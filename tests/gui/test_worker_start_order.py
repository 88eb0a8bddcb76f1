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

"""Closing the window while the Validation tab's run is under way prints no traceback (REVIEW43 finding 17): the
run's progress and result signals belong to the view's object, deleted with the window; the run now ends quietly
when there is nobody left to tell."""

from __future__ import annotations

import shiboken6

from app.gui.results.validation_view import _Signals, _ValidationTask


def test_a_run_whose_view_is_gone_ends_quietly():
    signals = _Signals()
    calls = []

    def runner(progress):
        calls.append("started")
        shiboken6.delete(signals)  # the window closes mid-run
        progress(1, 29)
        calls.append("went on")  # never reached: the run stops at the first report nobody can receive
        return []

    _ValidationTask(1, runner, signals).run()  # no RuntimeError out of the worker thread's run
    assert calls == ["started"]


def test_a_failing_run_whose_view_is_gone_ends_quietly():
    signals = _Signals()

    def runner():
        shiboken6.delete(signals)
        raise ValueError("a case file is unreadable")

    _ValidationTask(1, runner, signals).run()  # the failure has nobody to go to either
    assert not shiboken6.isValid(signals)


def test_a_run_with_its_view_reports_progress_and_outcomes(qtbot):
    signals = _Signals()
    seen = []
    signals.progress.connect(lambda generation, done, total: seen.append(("progress", generation, done, total)))
    signals.finished.connect(lambda generation, outcomes: seen.append(("finished", generation, outcomes)))

    def runner(progress):
        progress(1, 2)
        progress(2, 2)
        return ["outcome"]

    _ValidationTask(7, runner, signals).run()
    assert seen == [("progress", 7, 1, 2), ("progress", 7, 2, 2), ("finished", 7, ["outcome"])]

"""The Validation tab while its run is under way: a busy bar at once, then the count of published cases run as
the runner reports it; the bar goes when the table fills. The bundled runner counts the cases as they run."""

from __future__ import annotations

import threading

from app.gui.results import ValidationView
from models.validation import CaseOutcome, Check

OUTCOMES = [
    CaseOutcome("capacity", "c1-raw", "seed 000", (Check("c1-raw", "raw_tb", 38.4, 38.4, 0.01),)),
    CaseOutcome("performance", "c2-peak", "seed 001", (Check("c2-peak", "peak_iops", 100_000, 99_000, 0.05),)),
    CaseOutcome("performance", "c3-lat", "seed 002", (Check("c3-lat", "latency_ms_at_peak", 1.29, 1.30, 0.10),)),
]


def test_busy_then_counted_then_filled(qtbot):
    step = threading.Event()
    go_on = threading.Event()

    def runner(progress):
        progress(1, 3)  # the first case ran; the rest wait until the test has looked
        step.set()
        go_on.wait(10)
        progress(3, 3)
        return OUTCOMES

    view = ValidationView(runner=runner)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.running, timeout=3000)
    assert view.progress.isVisible()
    qtbot.waitUntil(lambda: "1 of 3 cases" in view.summary.text(), timeout=5000)
    assert step.is_set() and view.progress.maximum() == 3 and view.progress.value() == 1
    assert view.model.rowCount() == 0  # still running: nothing filled yet
    with qtbot.waitSignal(view.sig_validation_finished, timeout=10_000) as finished:
        go_on.set()
    assert finished.args == [3, 3]
    assert not view.progress.isVisible() and "of 3 cases" not in view.summary.text()
    assert view.model.rowCount() == 3


def test_a_runner_without_progress_still_shows_busy(qtbot):
    release = threading.Event()

    def runner():
        release.wait(10)
        return OUTCOMES

    view = ValidationView(runner=runner)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.running, timeout=3000)
    assert view.progress.isVisible() and view.progress.maximum() == 0  # busy: no count to show
    with qtbot.waitSignal(view.sig_validation_finished, timeout=10_000):
        release.set()
    assert not view.progress.isVisible()


def test_bundled_runner_counts_every_case():
    """``validation_outcomes`` reports (done, total) rising to one count per outcome (at once when another test
    of this process already computed them)."""
    from app.report import validation_outcomes

    calls: list[tuple[int, int]] = []
    outcomes = validation_outcomes(lambda done, total: calls.append((done, total)))
    assert not isinstance(outcomes, str), outcomes
    assert calls and calls[-1] == (len(outcomes), len(outcomes))
    dones = [done for done, _ in calls]
    assert dones == sorted(dones) and len({total for _, total in calls}) == 1

"""ValidationView: the published-vs-predicted table fills from a worker thread, one row per check."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QThreadPool

from app.gui.results import ValidationView
from app.gui.results._common import FAIL, PASS, tint
from models.validation import CaseOutcome, Check

OUTCOMES = [
    CaseOutcome("capacity", "aff8080-usable", "seed 000 §1.3", (
        Check("aff8080-usable", "usable_tib", 25.47, 25.50, 0.02, interpretation="ONTAP reports TiB"),
        Check("aff8080-usable", "effective_tib", 60.0, 70.0, 0.05),
    )),
    CaseOutcome("performance", "a800-peak", "seed 001 §2", (
        Check("a800-peak", "peak_iops", 300_000, 290_000, 0.05, kind="upper_bound"),
    )),
    CaseOutcome("performance", "vsan-raid5", "seed 003", (), "no model for this case yet"),
]


def _rows(view: ValidationView) -> list[list[str]]:
    model = view.model
    return [[model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_table_fills_off_the_gui_thread(qtbot):
    threads = []

    def runner():
        threads.append(threading.current_thread())
        return OUTCOMES

    view = ValidationView(runner=runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.sig_validation_finished, timeout=10_000) as finished:
        view.refresh()
    assert finished.args == [2, 3]
    assert threads and threads[0] is not threading.main_thread()
    rows = _rows(view)
    checks = [c for o in OUTCOMES for c in o.checks]
    errored = [o for o in OUTCOMES if o.error]
    assert len(rows) == len(checks) + len(errored)
    assert rows[0] == ["aff8080-usable", "usable_tib", "25.47", "25.5", "+0.1%", "pass"]
    assert rows[1][4:] == ["+16.7%", "fail"]
    assert rows[2][2] == "\u2264 300,000" and rows[2][5] == "pass"
    assert rows[3][0] == "vsan-raid5" and rows[3][5] == "not run"
    assert view.summary.text().startswith("2 of 3 checks pass")
    assert view.model.item(0, 0).toolTip().count("ONTAP reports TiB") == 1
    assert view.model.item(0, 5).background().color() == tint(PASS, 55)
    assert view.model.item(1, 5).background().color() == tint(FAIL, 55)


def test_runner_failure_is_shown(qtbot):
    def runner():
        raise ImportError("models.validation.capacity_cases")

    view = ValidationView(runner=runner)
    qtbot.addWidget(view)
    view.refresh()
    qtbot.waitUntil(lambda: not view.running, timeout=10_000)
    assert "could not run" in view.summary.text() and "capacity_cases" in view.summary.text()


def test_showing_the_view_runs_it_once_and_stale_banner(qtbot):
    calls = []
    view = ValidationView(runner=lambda: calls.append(1) or OUTCOMES)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=10_000)
    view.hide()
    view.show()
    QThreadPool.globalInstance().waitForDone(5_000)
    qtbot.wait(20)
    assert len(calls) == 1
    view.set_stale(True, "engine failed")
    assert view.banner.isVisibleTo(view)


def test_real_validation_fills(qtbot):
    from models.validation import run_validation

    expected = run_validation()
    view = ValidationView()
    qtbot.addWidget(view)
    view.refresh()
    qtbot.waitUntil(lambda: not view.running, timeout=60_000)
    checks = sum(len(o.checks) for o in expected)
    assert view.model.rowCount() == checks + sum(1 for o in expected if o.error)
    assert view.summary.text().startswith(f"{view.passed} of {checks} checks pass")
    assert view.model.item(0, 5).data(Qt.ItemDataRole.DisplayRole) in ("pass", "fail", "not run")

"""A derived think time reads to three significant digits in the Workloads panel (REVIEW43 finding 15: the AFF A90
example's "Think time: 0.064545 ms"), as any time in milliseconds a form shows; clicked, the field shows the exact
value, so what is typed back (or left as it is) is exact; leaving it without an edit changes nothing."""

from __future__ import annotations

from models.resources import examples_dir
from models.store import load_any


def _workload_form(qtbot, open_window):
    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    (workload,) = project.scenario.workloads
    assert workload.think_time_ms == 0.064545  # the example's derived think time
    win = open_window(project)
    win.activateWindow()
    panel = win.workloads
    panel.select(workload.id)
    return win, workload, panel.form.editors["think_time_ms"].entry


def test_a_think_time_shows_three_significant_digits_and_its_exact_value_when_edited(qtbot, open_window):
    win, workload, entry = _workload_form(qtbot, open_window)
    edit = entry.lineEdit()
    assert edit.text() == "0.0645 ms"
    assert entry.model_value() == 0.064545  # the value itself is kept
    entered = []
    entry.sig_value_entered.connect(entered.append)
    entry.setFocus()
    qtbot.waitUntil(entry.hasFocus, timeout=3_000)
    assert edit.text() == "0.064545 ms"  # clicked: the exact value, to edit
    entry.clearFocus()  # left without an edit
    qtbot.waitUntil(lambda: not entry.hasFocus(), timeout=3_000)
    assert edit.text() == "0.0645 ms"
    assert entered == []  # nothing entered: the project keeps 0.064545 ms
    assert win.document.project.scenario.workloads[0].think_time_ms == 0.064545


def test_a_typed_think_time_is_taken_exactly_and_then_shown_rounded(qtbot, open_window):
    win, workload, entry = _workload_form(qtbot, open_window)
    edit = entry.lineEdit()
    entry.setFocus()
    qtbot.waitUntil(entry.hasFocus, timeout=3_000)
    edit.selectAll()
    qtbot.keyClicks(edit, "0.123456")
    entry.clearFocus()
    qtbot.waitUntil(lambda: win.document.project.scenario.workloads[0].think_time_ms == 0.123456, timeout=3_000)
    assert edit.text() == "0.123 ms"
    assert entry.model_value() == 0.123456

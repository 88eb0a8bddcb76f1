"""Scenario → Size from Requirements: a requirement edit is one undo step; the search runs on the dialog's runner
and ranks candidates that meet; applying one adds it as the active scenario (undo removes it)."""

from __future__ import annotations


def test_size_rank_and_apply_as_a_scenario(qtbot, example_window):
    win = example_window
    doc = win.document
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.form.sig_field_edited.emit("horizon_months", 24)
    assert doc.project.requirements.horizon_months == 24
    doc.undo_stack.undo()
    assert doc.project.requirements.horizon_months == 36
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert dialog.table.rowCount() >= 1 and dialog.table.item(0, 2).text() == "yes"
    scenarios_before = len(doc.project.scenarios)
    dialog.table.selectRow(0)
    name = dialog.apply_selected()
    assert name and doc.project.active_scenario == name and len(doc.project.scenarios) == scenarios_before + 1
    assert any(n.kind == "controller" for n in doc.project.scenario.nodes)
    doc.undo_stack.undo()
    assert len(doc.project.scenarios) == scenarios_before

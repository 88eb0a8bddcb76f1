"""The Cost tab of a cloud-only design: the running-cost inputs (electricity, PUE, grid carbon, rack unit,
support) cost on-premises hardware alone, so they are turned off with the reason, their values kept; they come
back when the sizer may build an on-premises design."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from models.project import edits
from models.resources import examples_dir


def _window(qtbot, example: str):
    from app.gui.main_window import MainWindow, read_project

    win = MainWindow(read_project(examples_dir() / example))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def cloud_window(qtbot):
    win = _window(qtbot, "cvo-azure-ds14-ha-oltp.toml")
    yield win
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()


def test_cloud_only_design_turns_the_on_prem_inputs_off_and_keeps_them(cloud_window, qtbot):
    win = cloud_window
    doc = win.document
    # a figure the user entered earlier stays in the project and on screen, only greyed
    running = doc.project.requirements.running_costs.with_changes(pue=1.4)
    doc.push(edits.set_requirement(doc.project, "running_costs", running), "Change pue")
    assert doc.project.requirements.deployments == ["cloud"]
    assert {n.kind for n in doc.project.scenario.nodes} <= {"cloud_vm", "managed_service"}
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None, timeout=10_000)
    assert view.tco.energy is None  # the model costs no power for this design: nothing for the inputs to move
    form = view.form
    for name in ("electricity_price_per_kwh", "pue", "grid_carbon_g_per_kwh", "rack_unit_cost_per_month",
                 "support_pct_per_year"):
        assert not form.editors[name].isEnabled(), name
    assert view.inputs_note.isVisibleTo(view)
    assert "cloud only" in view.inputs_note.text() and "kept" in view.inputs_note.text()
    assert doc.project.requirements.running_costs.pue == 1.4
    assert form.record.pue == 1.4
    # the sizer may build an on-premises array: its ranking on total cost reads them, so they are on again
    req = doc.project.requirements.model_copy(update={"deployments": ["cloud", "on-prem"]})
    doc.push(doc.project.model_copy(update={"requirements": req}), "Allow on-premises")
    qtbot.waitUntil(lambda: form.editors["pue"].isEnabled(), timeout=3000)
    assert not view.inputs_note.isVisibleTo(view)
    assert form.record.pue == 1.4
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not form.editors["pue"].isEnabled(), timeout=3000)


def test_on_prem_design_keeps_the_inputs_on(example_window, qtbot):
    """The AFF8080 example costs its power and space: the inputs stay editable, no note."""
    win = example_window
    win.results.setCurrentWidget(win.results.cost_tab)
    view = win.results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None, timeout=10_000)
    assert view.tco.energy is not None and view.tco.energy.power_w > 0
    assert view.form.editors["electricity_price_per_kwh"].isEnabled()
    assert not view.inputs_note.isVisibleTo(view)

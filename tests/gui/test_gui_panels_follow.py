"""Every panel follows the document: after New, Open, undo / redo and scenario switches the workloads panel and the
inspector show the current project, never the previous one's values."""

from __future__ import annotations

from app.gui.main_window import read_project
from models.resources import examples_dir


def _form_values(panel) -> dict:
    return {name: editor.entry.text() if hasattr(editor, "entry") else None
            for name, editor in panel.form.editors.items()}


def test_new_project_clears_the_workloads_panel(example_window):
    win = example_window
    panel = win.workloads
    assert panel.list.count() == 1 and panel.form.isVisibleTo(panel)
    assert panel.form.editors["name"].line.text() == "TPC-E-like OLTP (SQL Server)"
    win.act_new.trigger()
    assert win.document.scenario.workloads == []
    assert panel.list.count() == 0
    assert not panel.form.isVisibleTo(panel)  # no greyed-out form holding the old project's workload
    assert panel.empty_label.isVisibleTo(panel)
    assert "No workloads" in panel.empty_label.text()
    assert not panel.remove_button.isEnabled()
    # the inspector shows the new project, not the old one
    assert "Untitled" in win.inspector.header.text()


def test_undoing_an_added_workload_empties_the_form(window):
    panel = window.workloads
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    panel.preset_menu.actions()[0].trigger()
    assert panel.list.count() == 1 and panel.form.isVisibleTo(panel)
    window.document.undo_stack.undo()
    assert panel.list.count() == 0
    assert not panel.form.isVisibleTo(panel) and panel.empty_label.isVisibleTo(panel)
    window.document.undo_stack.redo()
    assert panel.list.count() == 1 and panel.form.isVisibleTo(panel)
    assert panel.form.editors["name"].line.text() == window.document.scenario.workloads[0].name


def test_open_replaces_every_panel(example_window):
    win = example_window
    win.scene.select_ids(["shelf-1"])
    assert win.inspector.form is not None and win.inspector.form.record.id == "shelf-1"
    other = read_project(examples_dir() / "cvo-azure-ds4-ha-oltp.toml")
    win.document.reset(other)
    assert [panel_row.split("  →")[0] for panel_row in
            (win.workloads.list.item(r).text() for r in range(win.workloads.list.count()))] == \
        [w.name for w in other.scenario.workloads]
    assert win.workloads.form.editors["name"].line.text() == other.scenario.workloads[0].name
    assert win.document.scenario.node("shelf-1") is None
    assert win.inspector.form is None or not hasattr(win.inspector.form.record, "drive_count")
    assert other.info.name in win.inspector.header.text()


def test_scenario_switch_refreshes_the_panels(example_window):
    win = example_window
    doc = win.document
    base_name = doc.scenario.workloads[0].name
    copy = win.duplicate_scenario()
    wid = doc.scenario.workloads[0].id
    assert doc.set_workload_field(wid, "name", "Copy workload") is None
    assert win.workloads.form.editors["name"].line.text() == "Copy workload"
    doc.switch_scenario(doc.project.scenarios[0].name)
    assert win.workloads.form.editors["name"].line.text() == base_name
    assert win.workloads.list.item(0).text().startswith(base_name)
    doc.undo_stack.undo()  # back to the copy
    assert doc.project.active_scenario == copy
    assert win.workloads.form.editors["name"].line.text() == "Copy workload"

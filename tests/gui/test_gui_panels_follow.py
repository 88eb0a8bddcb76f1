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


def _compare(win, qtbot, a, b):
    with qtbot.waitSignal(win.compare_worker.sig_evaluation_finished, timeout=10_000):
        win.compare(a, b)
    return win.compare_view


def _compare_cell(view, row_label: str, column: int) -> str:
    for row in view.row_texts():
        if row and row[0].strip() == row_label:
            return row[column].strip()
    raise AssertionError(f"no row {row_label!r} in {view.row_texts()}")


def test_new_and_open_close_the_previous_projects_comparison(example_window, qtbot):
    """The Compare tab showed the previous project's two scenarios after New and after opening an example."""
    win = example_window
    copy = win.duplicate_scenario()
    view = _compare(win, qtbot, "Base", copy)
    assert win.results.indexOf(view) >= 0
    win.act_new.trigger()
    assert win.compare_view is None
    assert "Compare" not in [win.results.tabText(i) for i in range(win.results.count())]
    win.document.reset(read_project(examples_dir() / "cvo-azure-ds4-ha-oltp.toml"))
    assert "Compare" not in [win.results.tabText(i) for i in range(win.results.count())]


def test_an_edit_recomputes_the_comparison_and_undo_restores_it(example_window, qtbot):
    win = example_window
    doc = win.document
    copy = win.duplicate_scenario()
    wid = doc.scenario.workloads[0].id
    view = _compare(win, qtbot, "Base", copy)
    assert _compare_cell(view, "target met", 2) == "Yes"
    win.results.setCurrentIndex(0)  # the user looks at the capacity meanwhile
    with qtbot.waitSignal(win.compare_worker.sig_evaluation_finished, timeout=10_000):
        assert doc.set_workload_field(wid, "target_iops", 1_000_000) is None  # in the copy, beyond saturation
    assert win.compare_view is view and _compare_cell(view, "target met", 2) == "No"
    assert win.results.currentIndex() == 0  # a recomputed comparison does not take the tab
    with qtbot.waitSignal(win.compare_worker.sig_evaluation_finished, timeout=10_000):
        doc.undo_stack.undo()
    assert _compare_cell(view, "target met", 2) == "Yes"


def test_removing_a_compared_scenario_closes_the_comparison(example_window, qtbot):
    win = example_window
    copy = win.duplicate_scenario()
    _compare(win, qtbot, "Base", copy)
    win.document.undo_stack.undo()  # the duplicate is undone: the copy is gone
    assert copy not in [s.name for s in win.document.project.scenarios]
    assert win.compare_view is None

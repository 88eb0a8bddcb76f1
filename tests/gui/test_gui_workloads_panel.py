"""The workloads panel through its real widgets: names instead of ids, the hosts picker, refused-edit messages,
and (pending a shared fix in the inspector's number editor) the form's number formatting."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.gui.document import ProjectDocument
from app.gui.main_window import read_project
from app.gui.workloads_panel import ALL_HOSTS, NO_TARGET, WorkloadsPanel
from models.resources import examples_dir


def _panel(qtbot, example: str) -> WorkloadsPanel:
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / example)))
    qtbot.addWidget(panel)
    panel.show()
    return panel


def _rows(panel: WorkloadsPanel) -> list[str]:
    return [panel.list.item(row).text() for row in range(panel.list.count())]


def _combo_texts(panel: WorkloadsPanel, field: str) -> list[str]:
    combo = panel.form.editors[field].combo
    return [combo.itemText(i) for i in range(combo.count())]


def test_workload_list_names_the_target_not_its_id(qtbot):
    panel = _panel(qtbot, "cvo-azure-ds4-ha-oltp.toml")
    assert _rows(panel) == [
        "OLTP 8K 70/30  →  Cloud Volumes ONTAP HA  ·  9,500 IOPS",
        "Streaming read 64K  →  Cloud Volumes ONTAP HA  ·  not evaluated",  # unticked, no rate (was "ramp")
        "Streaming write 64K  →  Cloud Volumes ONTAP HA  ·  not evaluated",
        "Analytics 16K 50/50  →  Cloud Volumes ONTAP HA  ·  not evaluated",
    ]
    assert "cvo" not in panel.list.item(0).toolTip()

    tpce = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    assert _rows(tpce) == ["TPC-E-like OLTP (SQL Server)  →  AFF8080A EX HA pair  ·  350,000 IOPS"]


def test_unlabelled_target_shows_its_catalog_model_and_renames_follow(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    document = panel.document
    assert document.set_node_field("aff8080", "label", "") is None
    assert _rows(panel) == ["TPC-E-like OLTP (SQL Server)  →  NetApp AFF8080A EX HA pair  ·  350,000 IOPS"]
    assert panel.form.editors["target"].combo.currentText() == "NetApp AFF8080A EX HA pair"
    assert document.set_node_field("aff8080", "label", "Prod array") is None
    assert _rows(panel) == ["TPC-E-like OLTP (SQL Server)  →  Prod array  ·  350,000 IOPS"]
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert _rows(panel)[0].startswith("TPC-E-like OLTP (SQL Server)  →  AFF8080A EX HA pair  ·")


def test_target_choices_are_names_without_ids(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    assert _combo_texts(panel, "target") == ["AFF8080A EX HA pair"]
    # two targets with the same label are told apart by their model, still without ids
    assert panel.document.drop_entry("netapp-aff-a800", 900.0, 400.0) is None
    (a800,) = [n.id for n in panel.document.scenario.nodes if n.catalog_id == "netapp-aff-a800"]
    assert panel.document.set_node_field(a800, "label", "AFF8080A EX HA pair") is None
    assert _combo_texts(panel, "target") == ["AFF8080A EX HA pair (NetApp AFF8080A EX HA pair)",
                                             "AFF8080A EX HA pair (NetApp AFF A800 HA pair)"]
    target = panel.form.editors["target"]
    target.choose(a800)
    assert panel.document.scenario.workloads[0].target == a800
    assert _rows(panel)[0] == ("TPC-E-like OLTP (SQL Server)  →  AFF8080A EX HA pair (NetApp AFF A800 HA pair)  ·  "
                               "350,000 IOPS")


def test_removed_target_shows_no_target_instead_of_its_id(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    panel.document.remove_items(["aff8080"])
    assert panel.document.scenario.workloads[0].target == "aff8080"  # kept: the problems list reports it
    assert _rows(panel) == [f"TPC-E-like OLTP (SQL Server)  →  {NO_TARGET}  ·  350,000 IOPS"]
    assert _combo_texts(panel, "target") == ["(add a controller, cluster or VM first)"]
    assert "aff8080" not in panel.form.editors["target"].combo.currentText()


def test_preset_without_any_target_shows_no_id(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    panel.document.remove_items(["aff8080"])
    workload_id = panel.add_from_preset(panel.preset_menu.actions()[0].data())
    assert workload_id is not None
    row = next(r for r in range(panel.list.count()) if panel.list.item(r).data(Qt.ItemDataRole.UserRole) == workload_id)
    assert f"→  {NO_TARGET}  ·" in panel.list.item(row).text()
    assert "unassigned" not in panel.list.item(row).text()
    assert "unassigned" not in panel.form.editors["target"].combo.currentText()


def test_hosts_are_picked_by_name_through_undoable_edits(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    document = panel.document
    assert "hosts" not in panel.form.editors  # no comma-separated id text box
    hosts = panel.hosts_editor
    assert hosts.full_text() == "8 x SQL Server 2014"
    assert [a.text() for a in hosts.menu().actions() if a.text()] == [ALL_HOSTS, "8 x SQL Server 2014"]
    assert hosts.host_actions["sql-servers"].isChecked() and not hosts.all_action.isChecked()

    hosts.all_action.trigger()
    assert document.scenario.workloads[0].hosts == []
    assert hosts.full_text() == ALL_HOSTS and hosts.all_action.isChecked()
    assert not hosts.host_actions["sql-servers"].isChecked()

    hosts.host_actions["sql-servers"].trigger()
    assert document.scenario.workloads[0].hosts == ["sql-servers"]
    assert hosts.full_text() == "8 x SQL Server 2014"

    hosts.host_actions["sql-servers"].trigger()  # unticking the last host means "all linked hosts"
    assert document.scenario.workloads[0].hosts == []
    document.undo_stack.undo()
    assert document.scenario.workloads[0].hosts == ["sql-servers"]
    assert hosts.full_text() == "8 x SQL Server 2014"

    hosts.all_action.trigger()
    hosts.all_action.trigger()  # clicking the ticked "all" again changes nothing and stays ticked
    assert document.scenario.workloads[0].hosts == []
    assert hosts.all_action.isChecked()


def test_removed_host_shows_without_its_id(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    panel.document.remove_items(["sql-servers"])
    hosts = panel.hosts_editor
    assert hosts.full_text() == "(removed host)"
    assert "sql-servers" not in hosts.toolTip()
    hosts.host_actions["sql-servers"].trigger()
    assert panel.document.scenario.workloads[0].hosts == []


def test_refused_edit_message_does_not_name_the_internal_field(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    name = panel.form.editors["name"]
    name.line.setText("")
    name.line.editingFinished.emit()
    assert panel.document.scenario.workloads[0].name == "TPC-E-like OLTP (SQL Server)"
    assert not name.error.isHidden()
    assert name.error.text() == "Cannot be empty"  # in words, not pydantic's "String should have at least 1 ..."


# --- number formatting: the form's editors are built by app/gui/inspector.py (RecordForm / NumberEditor) ----



def test_form_shows_integer_quantities_without_decimals(qtbot, us_locale):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    editors = panel.form.editors
    assert editors["target_iops"].spin.text() == "350,000 IOPS"
    assert editors["concurrency"].spin.text() == "512"
    assert panel.document.set_workload_field(panel.current_id(), "concurrency", 12_000) is None
    assert editors["concurrency"].spin.text() == "12,000"
    editors["target_iops"].spin.stepBy(1)
    assert panel.document.scenario.workloads[0].target_iops == 350_001


def test_form_shows_and_keeps_ratio_precision(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    spin = panel.form.editors["compaction_ratio"].spin
    assert spin.text() == "1.067 : 1"
    spin.stepBy(1)
    spin.stepBy(-1)
    assert panel.document.scenario.workloads[0].compaction_ratio == pytest.approx(1.067, abs=1e-9)


def test_form_keeps_a_sub_hundredth_slo(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    assert panel.document.set_workload_field(panel.current_id(), "slo_ms", 0.125) is None
    spin = panel.form.editors["slo_ms"].spin
    assert spin.text() == "0.125 ms"
    spin.stepBy(1)
    spin.stepBy(-1)
    assert panel.document.scenario.workloads[0].slo_ms == pytest.approx(0.125, abs=1e-9)


# --- the form in groups ----------------------------------------------------------------------------------------


def test_workload_form_groups_with_the_important_fields_first(qtbot):
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    form = panel.form
    assert form.group_titles() == ["Load", "Mix", "Data", "Growth", "Tiering"]
    assert not form.tabs.isTabVisible(4)  # FabricPool's shares: the example's controller has no capacity tier
    assert form.tabs.currentIndex() == 0
    top = form.layout_of("name")
    assert form.layout_of("target") is top and form.layout_of("target_iops") is not top
    load = form.layout_of("target_iops")
    assert [load.itemAt(r, load.ItemRole.FieldRole).widget() for r in range(load.rowCount())] == [
        form.editors[f] for f in ("target_iops", "target_mbps", "slo_ms", "concurrency", "think_time_ms")]
    assert form.layout_of("read_pct") is form.layout_of("block_kib")
    assert form.layout_of("dataset_bytes") is form.layout_of("compression_ratio")
    assert form.layout_of("growth_pct_per_year") is form.layout_of("snapshots")


def test_workload_form_fits_a_short_dock_without_scrolling(qtbot):
    """At a 1366x768 screen's dock height the name, target, hosts and the whole Load group show at once."""
    panel = _panel(qtbot, "aff8080-sqlserver-tpce.toml")
    panel.resize(360, 340)
    qtbot.waitUntil(lambda: panel.form.editors["think_time_ms"].visibleRegion().boundingRect().height() > 0)
    for field in ("name", "target", "target_iops", "target_mbps", "slo_ms", "concurrency", "think_time_ms"):
        editor = panel.form.editors[field]
        assert editor.visibleRegion().boundingRect().height() == editor.height(), field
    assert panel.hosts_editor.visibleRegion().boundingRect().height() == panel.hosts_editor.height()

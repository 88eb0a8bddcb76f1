"""Replication links on the canvas: drawn between two systems by dragging, a look of their own, edited in the
Inspector, every change one undo step, refused with the reason where the ends cannot replicate."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from app.gui.canvas.replication import REPLICATION_COLOR, ReplicationItem
from models.project import load
from models.resources import examples_dir


def _center(window, node_id: str) -> QPoint:
    return window.view.mapFromScene(window.scene.node_items[node_id].center())


def _drag(window, qtbot, source: str, target: str) -> None:
    item = window.scene.node_items[source]
    handle = window.view.mapFromScene(item.mapToScene(item.handle_center()))
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=handle)
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=_center(window, target))


def _array_and_cvo(window):
    doc = window.document
    assert doc.drop_entry("netapp-aff-a70", 0, 0) is None
    assert doc.drop_entry("azure-standard-ds14-v2", 500, 0) is None
    ids = [n.id for n in doc.scenario.nodes]
    window.view.resetTransform()
    window.view.fitInView(window.scene.itemsBoundingRect())
    return ids


def test_dragging_from_an_array_to_cvo_draws_a_replication_link_edited_in_the_inspector_and_undone(window, qtbot):
    a70, cvo = _array_and_cvo(window)
    window.view.link_type_chooser = lambda choices, pos: (_ for _ in ()).throw(AssertionError("no host link"))
    _drag(window, qtbot, a70, cvo)
    doc = window.document
    assert doc.scenario.links == []  # never a host link between two systems
    (rep,) = doc.scenario.replications
    assert (rep.source, rep.target, rep.kind) == (a70, cvo, "snapmirror")
    item = window.scene.link_items[rep.id]
    assert isinstance(item, ReplicationItem) and item.color.name() == REPLICATION_COLOR
    assert item.label == "SnapMirror asynchronous · hourly"
    assert "Inspector" in window.statusBar().currentMessage()
    # select it: the Inspector shows the relationship's fields; an edit is one undo step and relabels the line
    window.scene.select_ids([rep.id])
    inspector = window.inspector
    assert inspector.form is not None and "schedule_minutes" in inspector.form.editors
    assert "→" in inspector.header.text() and "SnapMirror asynchronous" in inspector.header.text()
    steps = doc.undo_stack.count()
    assert doc.set_replication_field(rep.id, "schedule_minutes", 15.0) is None
    assert doc.undo_stack.count() == steps + 1
    assert window.scene.link_items[rep.id].label == "SnapMirror asynchronous · every 15 min"
    # active sync to Cloud Volumes ONTAP is refused, naming why, and changes nothing
    error = doc.set_replication_field(rep.id, "kind", "active-sync")
    assert error is not None and "AFF and ASA" in error
    assert doc.scenario.replications[0].kind == "snapmirror"
    doc.undo_stack.undo()
    assert doc.scenario.replications[0].schedule_minutes == 60.0
    doc.undo_stack.undo()
    assert doc.scenario.replications == [] and rep.id not in window.scene.link_items
    doc.undo_stack.redo()
    assert rep.id in window.scene.link_items
    # deleting the destination takes its relationship with it, in the same undo step
    window.scene.select_ids([cvo])
    window.view.delete_selection()
    assert doc.scenario.replications == [] and rep.id not in window.scene.link_items
    doc.undo_stack.undo()
    assert [r.id for r in doc.scenario.replications] == [rep.id] and rep.id in window.scene.link_items


def test_a_system_that_cannot_replicate_is_refused_on_the_canvas_naming_why(window, qtbot):
    doc = window.document
    assert doc.drop_entry("netapp-aff-a70", 0, 0) is None
    anf = next(e.id for e in doc.catalog.of_kind("managed_service") if "Azure NetApp Files" in e.name)
    assert doc.drop_entry(anf, 500, 0) is None
    a70, service = [n.id for n in doc.scenario.nodes]
    window.view.resetTransform()
    window.view.fitInView(window.scene.itemsBoundingRect())
    _drag(window, qtbot, a70, service)
    assert doc.scenario.replications == [] and doc.scenario.links == []
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot replicate") and "migrate" in message


def test_the_bundled_example_shows_its_relationship(window):
    window.document.reset(load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"))
    item = window.scene.link_items["dr"]
    assert isinstance(item, ReplicationItem)
    assert (item.source.node_id, item.target.node_id) == ("a70", "cvo-dr")
    window.scene.select_ids(["dr"])
    assert "RPO 63 min of 90 required" in window.inspector.header.text()


def _example_with_a_second_workload(window):
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    scenario = project.scenario
    oltp = scenario.workload("oltp")
    logs = oltp.with_changes(id="logs", name="Redo logs", target_iops=2000.0, dataset_bytes=500 * 10**9)
    window.document.reset(project.with_scenario(scenario.model_copy(update={"workloads": [*scenario.workloads,
                                                                                            logs]})))
    window.scene.select_ids(["dr"])
    table = window.inspector.protected_table
    assert table is not None and not table.isHidden()
    return window.document, table


def test_protected_workloads_ticked_in_the_inspector_each_tick_one_undo_step(window, qtbot):
    doc, table = _example_with_a_second_workload(window)
    assert table._rows == ["oltp", "logs"]
    grid = table.table
    assert grid.item(0, 0).checkState() == Qt.CheckState.Checked  # named in the file
    assert grid.item(1, 0).checkState() == Qt.CheckState.Unchecked
    steps = doc.undo_stack.count()
    grid.item(1, 0).setCheckState(Qt.CheckState.Checked)
    assert doc.scenario.replications[0].workloads == ["oltp", "logs"]
    assert doc.undo_stack.count() == steps + 1
    # the header's figures follow: the logs' default change now adds to the transfers
    assert "Redo logs: change per day" in " ".join(window.inspector.problems_text())
    table = window.inspector.protected_table
    table.table.item(0, 0).setCheckState(Qt.CheckState.Unchecked)
    assert doc.scenario.replications[0].workloads == ["logs"] and doc.undo_stack.count() == steps + 2
    # the only protected workload cannot be unticked: said under the table, nothing changes
    table = window.inspector.protected_table
    table.table.item(1, 0).setCheckState(Qt.CheckState.Unchecked)
    assert doc.scenario.replications[0].workloads == ["logs"] and doc.undo_stack.count() == steps + 2
    assert "at least one workload" in table.message.text() and not table.message.isHidden()
    assert table.table.item(1, 0).checkState() == Qt.CheckState.Checked
    doc.undo_stack.undo()
    assert doc.scenario.replications[0].workloads == ["oltp", "logs"]
    doc.undo_stack.undo()
    assert doc.scenario.replications[0].workloads == ["oltp"]


def test_change_rate_typed_in_the_inspector_is_one_undo_step_and_empty_is_the_default(window, qtbot):
    doc, table = _example_with_a_second_workload(window)
    steps = doc.undo_stack.count()
    assert table.table.item(0, 1).text() == "400"  # 400 GB/day stated in the file, its profile kept below
    assert table.table.item(1, 1).text() == "" and "default" in table.table.item(1, 0).toolTip()
    table.table.item(1, 1).setText("1.5 TB")
    (rep,) = doc.scenario.replications
    logs = next(c for c in rep.change if c.workload == "logs")
    assert logs.bytes_per_day == 1_500_000_000_000 and doc.undo_stack.count() == steps + 1
    table = window.inspector.protected_table
    table.table.item(0, 1).setText("250")
    oltp = next(c for c in doc.scenario.replications[0].change if c.workload == "oltp")
    assert oltp.bytes_per_day == 250 * 10**9 and len(oltp.hourly_profile) == 24  # the profile stays
    assert doc.undo_stack.count() == steps + 2
    # the relationship's figures use it: 250 GB/day at 2:1, the worst hour 2/34 of the day at 62.5 MB/s
    assert "RPO 62 min" in window.inspector.header.text()  # 60 + 125e9 x 2/34 / 62.5e6 / 60 = 61.96 min
    table = window.inspector.protected_table
    table.table.item(1, 1).setText("")  # back to the default: the row goes (it has no profile)
    assert [c.workload for c in doc.scenario.replications[0].change] == ["oltp"]
    table = window.inspector.protected_table
    table.table.item(0, 1).setText("lots")
    assert "Change per day of" in table.message.text() and doc.undo_stack.count() == steps + 3
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario.replications[0].change[0].bytes_per_day == 400 * 10**9

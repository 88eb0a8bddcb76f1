"""Inspector, workloads panel, undo / redo, scenarios and the evaluation worker, driven through real widgets."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.gui.record_form import ComboEditor, NumberEditor
from app.gui.worker import EvaluationWorker


def _shelf_system(window):
    doc = window.document
    doc.drop_entry("netapp-aff8080a-ex", 0, 0)
    doc.drop_entry("netapp-ds2246", 300, 0)
    controller, shelf = (n.id for n in doc.scenario.nodes)
    assert doc.add_link(controller, shelf, "sas-6g") is None
    return controller, shelf


def test_inspector_spin_box_edits_project_and_steps_merge(window):
    controller, shelf = _shelf_system(window)
    window.scene.select_ids([shelf])
    editor = window.inspector.form.editors["drive_count"]
    assert isinstance(editor, NumberEditor)
    assert (editor.spin.minimum(), editor.spin.maximum()) == (0, 480)  # from ge / le
    depth = window.document.undo_stack.count()
    editor.spin.setValue(12)
    assert window.document.scenario.node(shelf).drive_count == 12
    editor.spin.stepUp()
    editor.spin.stepUp()
    assert window.document.scenario.node(shelf).drive_count == 14
    assert window.document.undo_stack.count() == depth + 1  # one undo step for the three edits
    assert "14 x" in window.scene.node_items[shelf].subtitle
    window.document.undo_stack.undo()
    assert window.document.scenario.node(shelf).drive_count == 24
    assert editor.spin.value() == 24


def test_inspector_catalog_combo_offers_compatible_records(window):
    controller, shelf = _shelf_system(window)
    window.scene.select_ids([shelf])
    combo = window.inspector.form.editors["drive"]
    assert isinstance(combo, ComboEditor)
    ids = combo.values
    assert "netapp-x447a-800gb-ssd" in ids
    assert "netapp-1500gb-nvme-ssd-a800" not in ids  # an NVMe drive does not fit a SAS shelf
    combo.choose("netapp-x439a-1600gb-ssd")
    assert window.document.scenario.node(shelf).drive == "netapp-x439a-1600gb-ssd"
    window.scene.select_ids([controller])
    raid = window.inspector.form.editors["raid_type"]
    assert isinstance(raid, ComboEditor) and raid.index_of("raid_tec") >= 0


def test_inspector_refuses_invalid_value_with_message(window):
    controller, _ = _shelf_system(window)
    window.scene.select_ids([controller])
    before = window.document.project
    label = window.inspector.form.editors["label"]
    label.line.setText("x" * 10)
    label.line.editingFinished.emit()
    assert window.document.scenario.node(controller).label == "x" * 10
    nodes = window.inspector.form.editors["nodes"]
    nodes.sig_value_edited.emit("nodes", 99)  # beyond le=24: the model refuses
    assert window.document.scenario.node(controller).nodes is None
    assert not nodes.error.isHidden() and "24" in nodes.error.text()
    assert window.document.project is not before


def test_undo_redo_whole_session(window):
    doc = window.document
    controller, shelf = _shelf_system(window)
    assert len(doc.scenario.nodes) == 2 and window.windowTitle().endswith("StorPlan")
    assert window.isWindowModified()
    while doc.undo_stack.canUndo():
        window.act_undo.trigger()
    assert doc.scenario.nodes == [] and window.scene.node_items == {}
    assert not window.isWindowModified()
    while doc.undo_stack.canRedo():
        window.act_redo.trigger()
    assert [n.id for n in doc.scenario.nodes] == [controller, shelf]
    assert set(window.scene.node_items) == {controller, shelf} and len(window.scene.link_items) == 1


def test_scenario_duplicate_switch_and_compare(window, qtbot):
    controller, shelf = _shelf_system(window)
    name = window.duplicate_scenario()
    combo = window.scenario_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["Base", name]
    assert combo.currentText() == name
    window.document.set_node_field(shelf, "drive_count", 10)
    combo.setCurrentIndex(0)
    combo.activated.emit(0)
    assert window.document.project.active_scenario == "Base"
    assert window.document.scenario.node(shelf).drive_count == 24
    assert window.scene.node_items[shelf].node.drive_count == 24
    with qtbot.waitSignal(window.compare_worker.sig_evaluation_finished, timeout=10_000) as blocker:
        window.compare("Base", name)
    assert [e.scenario for e in blocker.args[0].evaluations] == ["Base", name]
    assert window.results.currentWidget() is window.compare_view


def test_workloads_panel_preset_edit_enable(window):
    controller, _ = _shelf_system(window)
    panel = window.workloads
    actions = panel.preset_menu.actions()
    assert actions
    actions[0].trigger()
    (workload,) = window.document.scenario.workloads
    assert workload.target == controller
    iops = panel.form.editors["target_iops"]
    iops.spin.setValue(123_000)
    assert window.document.scenario.workloads[0].target_iops == 123_000
    panel.list.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert window.document.scenario.workloads[0].enabled is False
    target = panel.form.editors["target"]
    assert target.index_of(controller) >= 0


def test_results_follow_edits(window, qtbot):
    """The worker re-evaluates after each edit and the newest result reaches the results area."""
    controller, shelf = _shelf_system(window)
    window.workloads.preset_menu.actions()[0].trigger()
    first = window.worker.force_sync()
    assert first.error is None, first.error
    window.scene.select_ids([shelf])
    with qtbot.waitSignal(window.worker.sig_evaluation_finished, timeout=10_000) as blocker:
        window.inspector.form.editors["drive_count"].spin.setValue(12)
    second = blocker.args[0]
    assert second.generation > first.generation
    assert second.evaluation.capacity is not None
    assert second.evaluation.capacity.total.usable_bytes < first.evaluation.capacity.total.usable_bytes
    assert window.results.last_good is second.evaluation
    assert "Usable:" in window.status_labels["usable"].text()


def test_worker_drops_stale_results(qtbot):
    from models.project.model import Project

    worker = EvaluationWorker(debounce_ms=0)
    seen = []
    worker.sig_evaluation_finished.connect(seen.append)
    for _ in range(5):
        worker.request(Project())
    with qtbot.waitSignal(worker.sig_evaluation_finished, timeout=10_000):
        pass
    worker.force_sync()
    assert len(seen) == 1 and seen[0].generation == worker._generation
    worker.shutdown()



def test_worker_starts_a_lone_edit_at_once_and_runs_a_burst_once(qtbot):
    """An edit after a quiet spell starts its run on the next event-loop turn (not after the debounce); edits
    following each other within the debounce interval run once, with the newest project, once they pause."""
    import time

    from PySide6.QtWidgets import QApplication

    from models.project.model import Project

    worker = EvaluationWorker(debounce_ms=600, mode="thread")
    started, seen = [], []
    worker.sig_evaluation_started.connect(started.append)
    worker.sig_evaluation_finished.connect(seen.append)
    worker.request(Project())
    QApplication.processEvents()
    assert len(started) == 1  # not 600 ms later
    worker.force_sync()
    assert len(seen) == 1
    burst_start = time.perf_counter()
    for _ in range(4):
        worker.request(Project())  # within 600 ms of the last
    QApplication.processEvents()
    assert len(started) == 1 and worker.busy
    with qtbot.waitSignal(worker.sig_evaluation_finished, timeout=10_000):
        pass
    assert time.perf_counter() - burst_start >= 0.5  # a coarse timer may fire 5% early
    assert len(started) == 2 and len(seen) == 2 and seen[-1].generation == worker._generation
    worker.shutdown()

def test_undo_history_names_fields_and_items_as_the_user_does(example_window):
    """Edit > Undo reads "Undo Change drive count of DS2246 (node 1)", never field names or ids."""
    doc = example_window.document
    shelf = next(n for n in doc.scenario.nodes if n.kind == "shelf")
    controller = next(n for n in doc.scenario.nodes if n.kind == "controller")
    workload = doc.scenario.workloads[0]
    assert doc.set_node_field(shelf.id, "drive_count", 20) is None
    assert doc.undo_stack.undoText() == f"Change drive count of {shelf.label}"
    assert doc.set_node_field(controller.id, "raid_type", "raid_tec") is None
    assert doc.undo_stack.undoText() == f"Change RAID type of {controller.label}"
    assert doc.set_workload_field(workload.id, "compaction_ratio", 1.2) is None
    assert doc.undo_stack.undoText() == f"Change compaction ratio of workload '{workload.name}'"
    link = doc.scenario.links[0]
    assert doc.set_link_field(link.id, "ports", 2) is None
    assert doc.undo_stack.undoText().startswith("Change ports of link ") and link.id not in doc.undo_stack.undoText()

"""What the GUI's headlines and words say (GUI review r1 of stop 54): a controller's default name follows its
model, an example is announced by its title, the status bar's key figure names the worst workload."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

from models.resources import examples_dir

A70 = "aff-a70-ns224-oracle-nvmetcp.toml"


def _plain(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html).replace("&amp;", "&")


def _choose_model(win, name: str) -> None:
    """Pick ``name`` in the Inspector's Model combo as a user does (the combo's activated signal)."""
    combo = win.inspector.form.editors["catalog_id"].combo
    index = next(i for i in range(combo.count()) if combo.itemText(i) == name)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    QApplication.processEvents()


def _names_shown(win, node_id: str) -> tuple[str, str, str]:
    """The node's name on its canvas card, in the Inspector's title and in the document."""
    return (win.scene.node_items[node_id].full_title, _plain(win.inspector.header.text()),
            win.document.scenario.node(node_id).label)


def test_a_default_controller_name_follows_the_model_and_undo_restores_both(qtbot, open_window):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / A70))
    win.scene.select_ids(["a70"])
    card, header, label = _names_shown(win, "a70")
    assert label == card == "AFF A70 HA pair" and "AFF A70 HA pair" in header
    steps = win.document.undo_stack.count()
    _choose_model(win, "NetApp AFF A30 HA pair")
    node = win.document.scenario.node("a70")
    assert node.catalog_id == "netapp-aff-a30"
    card, header, label = _names_shown(win, "a70")
    assert label == card == "AFF A30 HA pair"  # the vendor left out, as before
    assert "AFF A30 HA pair" in header and "A70" not in header
    assert win.document.undo_stack.count() == steps + 1  # model and name in one undo step
    win.worker.force_sync()
    qtbot.waitUntil(lambda: win.last_outcome is not None
                    and win.last_outcome.evaluation.capacity.systems[0].system_label == "AFF A30 HA pair",
                    timeout=10_000)
    assert not any("A70" in label.text() for label in win.status_labels.values())
    win.document.undo_stack.undo()
    node = win.document.scenario.node("a70")
    assert (node.catalog_id, node.label) == ("netapp-aff-a70", "AFF A70 HA pair")
    assert win.scene.node_items["a70"].full_title == "AFF A70 HA pair"


def test_a_name_the_user_typed_stays_when_the_model_changes(open_window):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / A70))
    win.document.set_node_field("a70", "label", "Production array")
    win.scene.select_ids(["a70"])
    _choose_model(win, "NetApp AFF A30 HA pair")
    node = win.document.scenario.node("a70")
    assert (node.catalog_id, node.label) == ("netapp-aff-a30", "Production array")


def test_a_default_name_with_a_note_keeps_the_note(open_window):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"))
    node_id = next(n.id for n in win.document.scenario.nodes if n.kind == "controller")
    win.scene.select_ids([node_id])
    _choose_model(win, "NetApp AFF A90 HA pair")
    assert win.document.scenario.node(node_id).label == "AFF A90 HA pair (MetroCluster IP)"


def test_an_opened_example_is_announced_by_its_title_not_its_file_name(window):
    path = examples_dir() / "spinning192-sas-analytics.toml"
    assert window.open_example(path)
    message = window.statusBar().currentMessage()
    assert "spinning192" not in message and "sas-analytics" not in message
    assert "192-spindle FC array + SAS mixed analytics" in message

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


def _trigger_preset(menu, preset_name: str) -> None:
    action = next(a for a in menu.actions() if a.text() == preset_name)
    action.trigger()


def _status_text(win, key: str) -> str:
    return _plain(win.status_labels[key].text())


def _inside_bar(win, key: str) -> bool:
    """The key figure is drawn whole: its label is as wide as its text asks and ends inside the status bar."""
    label = win.status_labels[key]
    right = label.mapTo(win.statusBar(), label.rect().topRight()).x()
    return label.width() >= label.sizeHint().width() - 1 and right <= win.statusBar().width()


def test_two_workloads_at_1366_show_the_worst_figure_whole_with_the_list_in_the_tooltip(qtbot, sized_example):
    win = sized_example(A70, 1366, 768)
    _trigger_preset(win.workloads.preset_menu, "TPC-E-like OLTP (SQL Server)")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: win.last_outcome is not None and win.last_outcome.evaluation is not None
                    and len(win.last_outcome.evaluation.performance.workloads) == 2, timeout=20_000)
    QApplication.processEvents()
    workloads = win.last_outcome.evaluation.performance.workloads
    # independently: one that misses its target first, else the lowest max IOPS at the SLO
    missed = [w for w in workloads if w.target_met is False]
    worst = min(missed or workloads, key=lambda w: w.max_iops_at_slo or -1.0)
    from models.units import format_iops

    text = _status_text(win, "max_iops_at_slo")
    assert f"Max IOPS @ SLO:  {format_iops(worst.max_iops_at_slo)}" in text
    assert "worst of 2 workloads" in text
    others = [w for w in workloads if w is not worst]
    assert format_iops(others[0].max_iops_at_slo) not in text.split("worst of")[0]
    tooltip = _plain(win.status_labels["max_iops_at_slo"].toolTip())
    for w in workloads:
        assert f"{w.name}: {format_iops(w.max_iops_at_slo)}" in tooltip.replace("&amp;", "&")
    for key in ("usable", "effective", "max_iops_at_slo", "verdict"):
        assert _inside_bar(win, key), key
    # a smaller controller misses its requirements: the verdict's words and every value still fit whole
    win.document.set_node_field("ns224", "drive_count", 12)
    win.document.set_node_field("a70", "catalog_id", "netapp-aff-a30")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: "missed" in _status_text(win, "verdict"), timeout=20_000)
    QApplication.processEvents()
    text = _status_text(win, "max_iops_at_slo")
    assert re.search(r"Max IOPS @ SLO:\s+\d[\d.]*[KM]?\s*, worst of 2 workloads", text), text
    assert re.search(r"Requirements:\s+(missed: \w|\d+ missed)", _status_text(win, "verdict"))
    for key in ("usable", "effective", "max_iops_at_slo", "bottleneck", "verdict"):
        assert _inside_bar(win, key), key


def test_the_requirements_verdict_shows_its_first_miss_whole_and_how_many_more():
    from PySide6.QtGui import QFont, QFontMetrics

    from app.gui.main_window import verdict_status_text

    metrics = QFontMetrics(QFont())
    one = "missed: DR copy capacity (DR to Azure)"
    assert verdict_status_text(one, metrics, 2000) == one
    three = "missed: OLTP in takeover; AFF A70 HA pair capacity; DR copy capacity (DR to Azure)"
    assert verdict_status_text(three, metrics, 2000) == "missed: OLTP in takeover +2 more"
    short = verdict_status_text(three, metrics, metrics.horizontalAdvance("missed: OLTP in +2 more") + 4)
    assert short.endswith("\u2026 +2 more") and short.startswith("missed: OLTP")
    assert verdict_status_text(three, metrics, 0) == "3 missed"
    assert verdict_status_text("met", metrics, 300) == "met"

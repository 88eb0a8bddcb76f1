"""Names and guidance on the canvas: names (never ids) in status messages, only fitting link types offered,
warnings for unconnected hosts and switches, palette names elided in the middle, keyboard navigation."""

from __future__ import annotations

import re

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from models.problems import find_problems


def _add(window, entry_id: str, x: float, y: float) -> str:
    before = {n.id for n in window.document.scenario.nodes}
    assert window.document.drop_entry(entry_id, x, y) is None
    (new,) = [n.id for n in window.document.scenario.nodes if n.id not in before]
    return new


def _offered(window, a: str, b: str) -> list[str]:
    seen: list[str] = []

    def chooser(choices, pos):
        seen.extend(c.name for c in choices)
        return None

    window.view.link_type_chooser = chooser
    window.view.request_connection(a, b)
    return seen


def test_host_to_switch_menu_offers_only_fitting_link_types(window):
    host = _add(window, "hp-dl980-g7", 0, 0)
    fc_switch = _add(window, "brocade-6510", 320, 0)
    offered = _offered(window, host, fc_switch)
    assert offered and "4Gb FC-AL drive loop" not in offered  # a drive loop joins an array to its shelves
    assert all("Fibre Channel" in name for name in offered), offered  # an FC switch takes no 10GbE
    assert window.document.set_node_field(host, "adapter", "generic-nic-10gbe-2p") is None
    assert _offered(window, host, fc_switch) == []
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot connect HP ProLiant DL980 G7") and "Brocade 6510" in message
    ethernet = _add(window, "cisco-nexus-5596", 320, 200)
    assert _offered(window, host, ethernet) == ["100GbE (iSCSI, NFS)", "10GbE (iSCSI, NFS)", "25GbE (iSCSI, NFS)"]
    assert window.document.set_node_field(host, "adapter", "qlogic-qle2562") is None
    assert "NVMe/FC over 32Gb Fibre Channel" not in _offered(window, host, fc_switch)  # the QLE2562 speaks FCP only


def test_status_messages_name_items_and_link_types_not_ids(window):
    controller = _add(window, "netapp-aff8080a-ex", 0, 0)  # a controller that takes the DS2246 (review 56 #4)
    shelf = _add(window, "netapp-ds2246", 320, 0)
    window.view.link_type_chooser = lambda choices, pos: "sas-6g"
    window.view.request_connection(controller, shelf)
    message = window.statusBar().currentMessage()
    # "over": the link type is not read as part of the shelf's name, as "(...) (6Gb SAS (per lane))" was
    assert message == ("Connected NetApp AFF8080A EX HA pair to NetApp DS2246 (24 x 2.5-inch SAS, IOM6) over "
                       "6Gb SAS (per lane).")
    ids = {controller, shelf, "sas-6g"}
    assert not ids & set(re.findall(r"[\w-]+", message))
    assert not ids & set(re.findall(r"[\w-]+", window.document.undo_stack.undoText()))


def test_unconnected_hosts_and_switches_are_warned_about(window, qtbot):
    doc = window.document
    host = _add(window, "hp-dl980-g7", 0, 0)
    switch = _add(window, "brocade-6510", 320, 0)
    controller = _add(window, "netapp-aff8080a-ex", 640, 0)

    assert doc.set_node_field(host, "label", "SQL hosts") is None
    assert doc.set_node_field(switch, "label", "Fabric A") is None

    def warnings():
        return sorted(p.message for p in find_problems(doc.scenario, doc.catalog)
                      if p.severity == "warning" and p.node_id in (host, switch))

    assert warnings() == ["Fabric A: switch is not connected",
                          "SQL hosts: host is not connected to a switch or a storage system; its I/O has no path"]
    assert doc.add_link(host, switch, "fc-8g") is None
    assert warnings() == ["Fabric A: switch reaches no storage system (controller, HCI cluster or cloud VM)"]
    assert doc.add_link(switch, controller, "fc-8g") is None
    assert warnings() == []
    with qtbot.waitSignal(window.worker.sig_evaluation_finished, timeout=10_000):
        doc.remove_items([link.id for link in doc.scenario.links])
    qtbot.waitUntil(lambda: bool(window.scene.node_items[host].problems), timeout=5_000)
    badge = [p.message for p in window.scene.node_items[host].problems]
    assert any("host is not connected" in m for m in badge)


def test_palette_elides_names_at_their_end_with_the_full_name_as_tooltip(window):
    """(Was: in the middle; REVIEW43 #8 read "Brocade 6510 1...orts licensed)": test_palette_names_elide.py.)"""
    from app.gui.palette import fit_name

    palette = window.palette_widget
    assert palette.tree.textElideMode() == Qt.TextElideMode.ElideRight
    item = palette.entry_item("netapp-x447a-800gb-ssd")
    assert item is not None
    name = item.text(0)
    assert name in item.toolTip(0)
    assert "netapp-x447a-800gb-ssd" not in item.toolTip(0)  # the name, not the id
    palette.resize(180, 500)
    QApplication.processEvents()
    rect = palette.tree.visualItemRect(item)
    shown = fit_name(name, palette.tree.fontMetrics(), rect.width() - 28)
    assert shown.endswith("…") and name.startswith(shown[:-1])  # the model stays readable


def test_keyboard_tab_cycles_arrows_move_enter_inspects(window, qtbot):
    doc, view, scene = window.document, window.view, window.scene
    a = _add(window, "netapp-aff8080a-ex", 0, 0)
    b = _add(window, "netapp-ds2246", 320, 0)
    c = _add(window, "netapp-ds2246", 0, 200)
    scene.clearSelection()
    view.setFocus()
    assert view.reading_order() == [a, b, c]
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert scene.selected_node_ids() == [a]
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert scene.selected_node_ids() == [b]
    qtbot.keyClick(view, Qt.Key.Key_Backtab)
    assert scene.selected_node_ids() == [a]
    qtbot.keyClick(view, Qt.Key.Key_Backtab)
    assert scene.selected_node_ids() == [c]  # wraps round
    depth = doc.undo_stack.count()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    node = doc.scenario.node(c)
    assert (node.x, node.y) == (0 + scene.grid, 200 + 5 * scene.grid)
    assert doc.undo_stack.count() == depth + 2
    assert scene.node_items[c].pos() == QPointF(node.x, node.y)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert window.inspector.form is not None and window.inspector.form.record.id == c
    focused = QApplication.focusWidget()
    assert focused is not None and window.inspector.isAncestorOf(focused)


def test_a_shelf_is_offered_only_its_own_medium_and_refusals_name_link_types(window):
    controller = _add(window, "netapp-aff-a800", 0, 0)
    sas_shelf = _add(window, "netapp-ds2246", 320, 0)
    nvme_bays = _add(window, "netapp-a800-internal-nvme", 320, 200)
    fc_al_shelf = _add(window, "generic-fc-al-16", 320, 400)
    # each shelf to a controller that takes it (the A800 takes neither the DS2246 nor an FC-AL loop: review 56 #4)
    sas_controller = _add(window, "netapp-aff8080a-ex", 0, 200)
    loop_controller = _add(window, "generic-spinning-fc-array-4x16", 0, 400)
    assert _offered(window, sas_controller, sas_shelf) == ["12Gb SAS (per lane)", "6Gb SAS (per lane)"]
    assert _offered(window, controller, nvme_bays) == ["PCIe 3.0 x4 NVMe drive link"]
    assert _offered(window, loop_controller, fc_al_shelf) == ["4Gb FC-AL drive loop"]
    assert _offered(window, controller, sas_shelf) == []
    assert "NetApp AFF A800 HA pair does not take NetApp DS2246" in window.statusBar().currentMessage()
    host = _add(window, "hp-dl980-g7", -320, 0)
    assert _offered(window, host, sas_shelf) == []
    message = window.statusBar().currentMessage()
    # the reason names the kinds and the shelf's link type by name, not its id (was "(sas-6g), not 10GbE ...")
    assert message.endswith("a shelf connects to a controller or a chained shelf over its back-end link "
                            "(6Gb SAS (per lane)), not to a host"), message
    assert "sas-6g" not in message

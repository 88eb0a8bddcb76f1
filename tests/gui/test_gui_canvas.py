"""The canvas: palette drops, connecting, refusals, moves, delete, copy/paste, problems badges."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from app.gui.palette import CATALOG_MIME


def palette_mime(window, entry_id: str) -> QMimeData:
    """The QMimeData the palette itself puts on a drag of this entry."""
    item = window.palette_widget.entry_item(entry_id)
    assert item is not None, entry_id
    mime = window.palette_widget.tree.mimeData([item])
    assert mime.formats() == [CATALOG_MIME]
    assert bytes(mime.data(CATALOG_MIME)).decode() == entry_id  # only the id travels
    return mime


def drop(window, entry_id: str, scene_pos: QPointF) -> QDropEvent:
    view = window.view
    pos = view.mapFromScene(scene_pos)
    mime = palette_mime(window, entry_id)  # the event does not own it: keep it alive
    event = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    view.dropEvent(event)
    event.mime = mime
    return event


def node_center(window, node_id: str) -> QPoint:
    item = window.scene.node_items[node_id]
    return window.view.mapFromScene(item.center())


def test_drop_palette_entry_adds_node(window):
    event = drop(window, "netapp-aff8080a-ex", QPointF(0, 0))
    assert event.isAccepted()
    nodes = window.document.scenario.nodes
    assert [n.kind for n in nodes] == ["controller"]
    assert nodes[0].id in window.scene.node_items
    assert window.scene.selected_node_ids() == [nodes[0].id]


def test_drop_drive_on_shelf_sets_drive_and_on_canvas_is_refused(window):
    drop(window, "netapp-ds2246", QPointF(0, 0))
    shelf = window.document.scenario.nodes[0]
    window.view.resetTransform()
    window.view.centerOn(window.scene.node_items[shelf.id])
    drop(window, "netapp-x439a-1600gb-ssd", window.scene.node_items[shelf.id].center())
    assert window.document.scenario.node(shelf.id).drive == "netapp-x439a-1600gb-ssd"
    assert "1.6TB SSD" in window.scene.node_items[shelf.id].subtitle

    event = drop(window, "netapp-x439a-1600gb-ssd", QPointF(900, 900))
    assert not event.isAccepted()
    assert "drop it on a shelf" in window.statusBar().currentMessage()
    assert len(window.document.scenario.nodes) == 1


def _two_nodes(window, a: str, b: str):
    doc = window.document
    assert doc.drop_entry(a, 0, 0) is None
    assert doc.drop_entry(b, 400, 0) is None
    ids = [n.id for n in doc.scenario.nodes]
    window.view.resetTransform()
    window.view.fitInView(window.scene.itemsBoundingRect())
    return ids


def test_connect_by_dragging_from_handle(window, qtbot):
    controller, shelf = _two_nodes(window, "netapp-aff8080a-ex", "netapp-ds2246")
    offered = []
    window.view.link_type_chooser = lambda choices, pos: (offered.extend(c.id for c in choices), "sas-6g")[1]
    item = window.scene.node_items[controller]
    handle = window.view.mapFromScene(item.mapToScene(item.handle_center()))
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=handle)
    assert window.view.interaction is not None
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=node_center(window, shelf))
    links = window.document.scenario.links
    assert [(link.source, link.target, link.link_type) for link in links] == [(controller, shelf, "sas-6g")]
    # only back-end links of the shelf's medium join it: a DS2246 (IOM6 SAS) takes SAS, never an NVMe drive link
    assert set(offered) == {"sas-6g", "sas-12g"}
    assert links[0].id in window.scene.link_items
    assert window.view.interaction is None


def test_connect_mode_refuses_impossible_connection(window, qtbot):
    host, shelf = _two_nodes(window, "hp-dl980-g7", "netapp-ds2246")
    window.act_connect.trigger()
    window.view.link_type_chooser = lambda choices, pos: pytest_fail()
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=node_center(window, host))
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=node_center(window, shelf))
    assert window.document.scenario.links == []
    message = window.statusBar().currentMessage()
    assert "Cannot connect" in message and "a shelf connects to a controller" in message


def pytest_fail():
    raise AssertionError("no link type should be offered")


def test_drag_moves_items_in_one_undo_step(window, qtbot):
    (controller,) = [window.document.drop_entry("netapp-aff8080a-ex", 0, 0)] and [
        n.id for n in window.document.scenario.nodes]
    window.view.resetTransform()
    window.view.centerOn(0, 0)
    start = node_center(window, controller) - QPoint(40, 0)
    depth = window.document.undo_stack.count()
    qtbot.mousePress(window.view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(window.view.viewport(), start + QPoint(step * 20, step * 10))
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(100, 50))
    node = window.document.scenario.node(controller)
    assert (node.x, node.y) != (0, 0)
    assert node.x % 20 == 0 and node.y % 20 == 0  # snapped to the grid
    assert window.document.undo_stack.count() == depth + 1
    window.document.undo_stack.undo()
    assert window.scene.node_items[controller].pos() == QPointF(0, 0)


def test_delete_copy_paste(window):
    controller, shelf = _two_nodes(window, "netapp-aff8080a-ex", "netapp-ds2246")
    window.document.add_link(controller, shelf, "sas-6g")
    window.scene.select_ids([controller, shelf])
    assert window.view.copy_selection()
    new_ids = window.view.paste()
    scenario = window.document.scenario
    assert len(new_ids) == 2 and not set(new_ids) & {controller, shelf}
    assert len(scenario.links) == 2  # the link between the copies came along
    window.scene.select_ids(new_ids)
    window.view.delete_selection()
    assert [n.id for n in window.document.scenario.nodes] == [controller, shelf]
    assert len(window.document.scenario.links) == 1


def test_problems_badge_items_and_list_selects(window, qtbot):
    window.document.drop_entry("netapp-ds2246", 0, 0)
    shelf = window.document.scenario.nodes[0].id
    outcome = window.worker.force_sync()
    assert any(p.node_id == shelf for p in outcome.evaluation.problems)
    assert window.scene.node_items[shelf].problems
    problems = window.results.problems_list
    row = next(i for i in range(problems.count()) if problems.item(i).data(Qt.ItemDataRole.UserRole) == shelf)
    window.scene.clearSelection()
    problems.itemClicked.emit(problems.item(row))
    assert window.scene.selected_node_ids() == [shelf]


def test_zoom_fit_and_auto_layout(window):
    doc = window.document
    for entry in ("hp-dl980-g7", "brocade-6510", "netapp-aff8080a-ex", "netapp-ds2246"):
        doc.drop_entry(entry, 0, 0)
    window.act_layout.trigger()
    xs = [n.x for n in doc.scenario.nodes]
    assert xs == sorted(xs) and len(set(xs)) == 4  # hosts -> switches -> controllers -> shelves
    before = window.view.transform().m11()
    window.act_zoom_in.trigger()
    assert window.view.transform().m11() > before
    window.act_fit.trigger()
    rect = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert rect.contains(window.scene.itemsBoundingRect())


def test_a_link_crossing_an_item_does_not_steal_its_click(window, qtbot):
    doc = window.document
    for entry, x in (("netapp-aff8080a-ex", 0), ("netapp-ds2246", 400), ("netapp-ds2246", 800)):
        assert doc.drop_entry(entry, x, 0) is None
    controller, near, far = [n.id for n in doc.scenario.nodes]
    doc.add_link(controller, far, "sas-6g")  # runs straight through the middle shelf
    window.view.resetTransform()
    window.view.centerOn(window.scene.node_items[near])
    pos = node_center(window, near)
    link = next(i for i in window.view.items(pos) if type(i).__name__ == "LinkItem")
    assert link.zValue() < window.scene.node_items[near].zValue()  # the link passes behind it
    window.scene.clearSelection()
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert window.scene.selected_node_ids() == [near]


def test_link_labels_avoid_other_nodes_and_each_other(qtbot):
    """The 192-spindle example fans 12 links out to two columns of shelves: links pass behind the first
    column, and each label sits where it covers no other node and no other label."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui.main_window import MainWindow, read_project
    from models.resources import examples_dir

    win = MainWindow(read_project(examples_dir() / "spinning192-sas-analytics.toml"))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    scene = win.scene
    scene.place_labels()
    links = list(scene.link_items.values())
    assert len(links) == 13
    assert all(link.zValue() < item.zValue() for link in links for item in scene.node_items.values())
    for link in links:
        rect = link.label_rect()
        for item in scene.node_items.values():
            if item not in (link.source, link.target):
                assert not rect.intersects(item.sceneBoundingRect()), (link.link_id, item.node.id)
    for i, a in enumerate(links):
        for b in links[i + 1:]:
            assert not a.label_rect().intersects(b.label_rect()), (a.link_id, b.link_id)
    # some labels had to leave the middle of their link to get there
    assert any(link._label_t != 0.5 for link in links)
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()


# --- dragging a large canvas: the still links are drawn once, into the background ------------------------------


def _star(n_shelves: int):
    from models.project.model import ControllerNode, Link, Project, Scenario, ShelfNode

    nodes = [ControllerNode(id="ctrl", catalog_id="netapp-aff8080a-ex", x=0, y=0)]
    links = []
    for i in range(n_shelves):
        nodes.append(ShelfNode(id=f"s{i}", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd",
                               drive_count=24, x=300 + 240 * (i % 8), y=120 * (i // 8)))
        links.append(Link(id=f"l{i}", source="ctrl", target=f"s{i}", link_type="sas-6g"))
    return Project(scenarios=[Scenario(name="Base", nodes=nodes, links=links)])


def _difference(a, b) -> float:
    """Share of pixels that differ by more than a little (anti-aliasing) between two images of one size."""
    from PySide6.QtGui import QImage

    a, b = (a.toImage().convertToFormat(QImage.Format.Format_RGB32),
            b.toImage().convertToFormat(QImage.Format.Format_RGB32))
    assert a.size() == b.size()
    differ = total = 0
    for y in range(0, a.height(), 2):
        for x in range(0, a.width(), 2):
            p, q = a.pixelColor(x, y), b.pixelColor(x, y)
            total += 1
            differ += abs(p.red() - q.red()) + abs(p.green() - q.green()) + abs(p.blue() - q.blue()) > 90
    return differ / total


def test_drag_freezes_still_links_into_the_background_and_looks_the_same(qtbot):
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QGraphicsItem, QMessageBox

    from app.gui.main_window import MainWindow

    win = MainWindow(_star(120))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    win.worker.force_sync()
    scene, view = win.scene, win.view
    scene.select_ids(["s0", "s1"])
    view.resetTransform()
    view.centerOn(scene.node_items["s0"])
    QApplication.processEvents()
    before = view.viewport().grab()
    press_at = view.mapFromScene(scene.node_items["s0"].center() - QPointF(40, 0))
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, press_at)
    no_contents = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    still = [link for link in scene.link_items.values() if link.link_id not in ("l0", "l1")]
    assert all(link.flags() & no_contents for link in still)  # not painted one by one during the drag
    assert not scene.link_items["l0"].flags() & no_contents  # the moving links are
    frozen = view.viewport().grab()
    assert _difference(before, frozen) < 0.002  # the background pixmap shows the same links
    QTest.mouseMove(view.viewport(), press_at + QPoint(60, 40))
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       press_at + QPoint(60, 40))
    assert not any(link.flags() & no_contents for link in scene.link_items.values())
    assert scene._frozen is None
    moved = win.document.scenario.node("s0")
    assert (moved.x, moved.y) != (300, 0) and win.document.scenario.node("s5").x == 300 + 240 * 5
    # zooming while a drag is under way draws the links live again (the frozen pixmap has the old scale)
    press_at = view.mapFromScene(scene.node_items["s0"].center() - QPointF(40, 0))
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, press_at)
    assert scene._frozen is not None
    view.zoom_in()
    assert scene._frozen is None and not any(link.flags() & no_contents for link in scene.link_items.values())
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, press_at)
    win.document.undo_stack.setClean()
    win.worker.shutdown()
    win.compare_worker.shutdown()


def test_every_node_kind_has_key_figures_an_icon_and_an_inspector_context():
    # the canvas's per-kind tables follow the kind table (models.project.kinds): a new kind without them fails here
    from app.gui.canvas.items import key_figures
    from app.gui.icons import KIND_ICONS, KIND_LABELS
    from app.gui.inspector import NODE_CONTEXTS, Inspector
    from models.catalog import bundled_catalog
    from models.project.factory import new_node
    from models.project.kinds import NODE_KINDS

    catalog = bundled_catalog()
    for kind, row in NODE_KINDS.items():
        entry = catalog.of_kind(row.catalog_kind)[0]
        assert key_figures(new_node(entry, "n-1", catalog), catalog), kind
        assert KIND_ICONS[kind] == KIND_ICONS[row.catalog_kind] == row.icon
        assert row.catalog_kind in KIND_LABELS
    assert set(NODE_CONTEXTS) <= set(NODE_KINDS)
    assert all(callable(getattr(Inspector, method)) for method in NODE_CONTEXTS.values())


def test_a_managed_service_drops_from_its_palette_group_and_shows_its_limits(window):
    """Azure NetApp Files is in the palette's "Managed services" group; dropped, it is a node of its own kind whose
    canvas line gives the level, the provisioned capacity and the throughput limit (4 TiB x 64 MiB/s)."""
    group = window.palette_widget.groups["managed_service"]
    assert group.text(0).startswith("Managed services")
    event = drop(window, "azure-netapp-files-premium", QPointF(0, 0))
    assert event.isAccepted()
    (node,) = window.document.scenario.nodes
    assert node.kind == "managed_service" and node.provisioned_bytes == 4 * 2**40
    subtitle = window.scene.node_items[node.id].subtitle
    assert "Premium" in subtitle and "4.00 TiB" in subtitle and f"{4 * 64 * 2**20 / 1e6:,.0f} MB/s" in subtitle
    window.inspector.show_selection([node.id], [])
    form = window.inspector.form
    assert {"provisioned_bytes", "throughput_mbps", "iops"} <= set(form.editors)
    form.sig_field_edited.emit("provisioned_bytes", 8 * 2**40)  # the inspector's edit: one undo step
    assert window.document.scenario.node(node.id).provisioned_bytes == 8 * 2**40

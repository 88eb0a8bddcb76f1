"""Review 56 (design canvas), GUI side: impossible cabling refused at the connect request with the engine's words,
a SAS drive dropped on an NVMe shelf refused, a host cut off from its controller reads "no path" (not faster
figures), and a met verdict beside design errors never reads as a plain pass. Real widgets, driven with qtbot."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDropEvent

from app.gui.palette import CATALOG_MIME
from models.catalog import bundled_catalog

CATALOG = bundled_catalog()


def drop(window, entry_id: str, scene_pos: QPointF) -> QDropEvent:
    """A palette drag of ``entry_id`` released over ``scene_pos`` (the palette's own QMimeData)."""
    view = window.view
    item = window.palette_widget.entry_item(entry_id)
    mime = window.palette_widget.tree.mimeData([item])
    assert mime.formats() == [CATALOG_MIME]
    event = QDropEvent(QPointF(view.mapFromScene(scene_pos)), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    view.dropEvent(event)
    event.mime = mime
    return event


def place(window, *entries: str) -> list[str]:
    """Drop each entry on the canvas, 300 scene units apart; the new items' ids."""
    doc = window.document
    for k, entry in enumerate(entries):
        assert doc.drop_entry(entry, 300.0 * k, 0.0) is None
    window.view.resetTransform()
    window.view.fitInView(window.scene.itemsBoundingRect())
    return [n.id for n in doc.scenario.nodes]


def connect(window, source: str, target: str, pick: str | None = None) -> tuple[list[str], str]:
    """Ask the canvas to connect two items (as the Connect tool's release does); the link types it offered and its
    status message. ``pick``: the type chosen from the menu (None: the first offered)."""
    offered: list[str] = []

    def chooser(choices, pos):
        offered.extend(c.id for c in choices)
        return pick or (offered[0] if offered else None)

    window.view.link_type_chooser = chooser
    window.view.request_connection(source, target)
    return offered, window.statusBar().currentMessage()


def review_design(window) -> dict[str, str]:
    """The review's design: DL380 Gen11 -> Brocade G720 -> AFF A400 -> NS224, all FCP, one OLTP workload."""
    host, switch, controller, shelf = place(window, "hpe-proliant-dl380-gen11", "brocade-g720", "netapp-aff-a400",
                                            "netapp-ns224")
    doc = window.document
    assert doc.set_node_field(host, "adapter", "broadcom-lpe36002") is None
    for a, b, kind in ((host, switch, "fc-32g"), (switch, controller, "fc-32g"), (controller, shelf, "pcie-nvme")):
        assert doc.add_link(a, b, kind) is None
    from models.project.model import Workload

    assert doc.add_workload(Workload(id="wl-1", name="OLTP 8K 70/30", preset="oltp-8k-70-30", target=controller,
                                     block_kib=8, read_pct=70, random_pct=100, dataset_bytes=10**12)) is None
    return {"host": host, "switch": switch, "controller": controller, "shelf": shelf}


def test_a_controller_link_no_host_can_use_is_not_offered_and_refused(window):
    host, switch, controller = place(window, "hpe-proliant-dl380-gen11", "brocade-g720", "netapp-aff-a400")
    doc = window.document
    assert doc.set_node_field(host, "adapter", "broadcom-lpe36002") is None
    assert doc.add_link(host, switch, "fc-32g") is None
    offered, message = connect(window, switch, controller)
    assert offered and all(CATALOG.find(i).protocols == ["FCP"] for i in offered)  # NVMe/FC was offered before
    assert "Connected" in message
    link = next(k for k in doc.scenario.links if k.target == controller or k.source == controller)
    refused = doc.set_link_field(link.id, "link_type", "nvme-fc-32g")
    assert refused is not None and "FCP" in refused and "NVMe/FC" in refused
    assert doc.scenario.links[-1].link_type in offered


def test_a_shelf_the_controller_does_not_take_is_refused_with_the_engines_words(window):
    controller, shelf = place(window, "netapp-aff-a400", "netapp-ds2246")
    offered, message = connect(window, controller, shelf)
    assert offered == []  # the old canvas offered 12Gb / 6Gb SAS, then flagged the link red
    a400, ds2246 = CATALOG.find("netapp-aff-a400"), CATALOG.find("netapp-ds2246")
    assert message.startswith("Cannot connect") and f"{a400.name} does not take {ds2246.name}" in message
    assert window.document.scenario.links == []


def test_a_second_controller_and_a_mixed_chain_are_refused(window):
    first, second, nvme, sas = place(window, "netapp-aff-a700", "netapp-aff-a700", "netapp-ns224", "netapp-ds224c")
    doc = window.document
    assert doc.add_link(first, nvme, "pcie-nvme") is None
    offered, message = connect(window, second, nvme)
    assert offered == [] and "already cabled" in message
    offered, message = connect(window, nvme, sas)
    assert offered == [] and "Cannot connect" in message and "one back end" in message
    assert len(doc.scenario.links) == 1


def test_a_sas_drive_dropped_on_an_nvme_shelf_is_refused_and_says_why(window):
    (shelf,) = place(window, "netapp-ns224")
    before = window.document.scenario.node(shelf).drive
    window.view.resetTransform()
    window.view.centerOn(window.scene.node_items[shelf])
    drop(window, "netapp-x439a-1600gb-ssd", window.scene.node_items[shelf].center())
    assert window.document.scenario.node(shelf).drive == before
    message = window.statusBar().currentMessage()
    assert "cannot take SAS drive" in message and CATALOG.find("netapp-x439a-1600gb-ssd").name in message


def test_deleting_the_switch_reads_no_path_not_faster_figures(window, qtbot):
    window.resize(1920, 1080)
    ids = review_design(window)
    outcome = window.worker.force_sync()
    assert outcome.evaluation.performance.for_workload("wl-1") is not None
    window.scene.select_ids([ids["switch"]])
    window.view.delete_selection()
    assert window.document.scenario.node(ids["switch"]) is None
    outcome = window.worker.force_sync()
    qtbot.waitUntil(lambda: window.last_outcome is outcome, timeout=10_000)
    assert outcome.evaluation.performance.for_workload("wl-1") is None  # 560K IOPS on the old canvas
    verdict = window.status_labels["verdict"].text()
    assert "missed: OLTP 8K 70/30 (no path)" in verdict and "#d64545" in verdict
    window.results.setCurrentWidget(window.results.performance_view)  # a result tab draws when shown
    view = window.results.performance_view
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.message, timeout=10_000)
    text = view.message.text()
    assert "can be evaluated" in text and "OLTP 8K 70/30" in text and "no host reaches" in text
    assert "nan" not in text.lower()


def test_a_met_verdict_beside_design_errors_is_not_a_plain_met(window, qtbot):
    window.resize(1920, 1080)
    controller, shelf = place(window, "netapp-e2800", "netapp-ns224")
    doc = window.document
    from models.project import edits

    # a file drawn before the canvas refused it: E2800 cabled to an NS224 it does not take
    doc.push_scenario(edits.add_link(doc.scenario, controller, shelf, "pcie-nvme")[0], "Connect")
    from models.project.model import Workload

    assert doc.add_workload(Workload(id="wl-1", name="OLTP", preset="oltp-8k-70-30", target=controller,
                                     block_kib=8, read_pct=70, random_pct=100, dataset_bytes=10**12)) is None
    outcome = window.worker.force_sync()
    qtbot.waitUntil(lambda: window.last_outcome is outcome, timeout=10_000)
    errors = len(outcome.evaluation.errors)
    assert errors >= 1
    verdict = window.status_labels["verdict"].text()
    assert f"met, but {errors} design error" in verdict and "#d64545" not in verdict


def test_a_met_verdict_with_errors_keeps_its_count_at_the_narrowest_width(window):
    from PySide6.QtGui import QFontMetrics

    from app.gui.main_window import verdict_status_text

    metrics = QFontMetrics(window.font())
    assert verdict_status_text("met, but 2 design errors", metrics, 0) == "met, 2 errors"
    assert verdict_status_text("met, but 1 design error", metrics, 0) == "met, 1 error"
    assert verdict_status_text("met, but 2 design errors", metrics, 2000) == "met, but 2 design errors"

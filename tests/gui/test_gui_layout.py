"""First-start layout: the results get enough height for a readable latency-vs-IOPS chart."""

import pytest

from app.gui.main_window import RESULTS_HEIGHT_SHARE


@pytest.mark.parametrize("size", [(1366, 768), (1600, 1000), (1920, 1080)])
def test_first_start_gives_results_a_readable_share(example_window, qtbot, size):
    win = example_window
    win.resize(*size)  # a presales laptop, a desktop
    qtbot.waitUntil(lambda: win.height() == size[1], timeout=3000)
    win.apply_default_layout()
    qtbot.waitUntil(lambda: win.results_dock.height() >= 0.9 * RESULTS_HEIGHT_SHARE * win.height(), timeout=3000)
    win.results.setCurrentIndex(1)  # Performance
    view = win.results.performance_view
    qtbot.waitUntil(lambda: view.plot.height() >= 180, timeout=3000)
    assert win.centralWidget().height() >= 200  # the canvas stays usable too


def test_host_item_shows_its_ports(example_window):
    item = example_window.scene.node_items["sql-servers"]
    assert item.subtitle == "8 hosts · 2 x QLE2562 8Gb"  # 2 dual-port HBAs each; the tooltip names them
    assert "QLogic QLE2562" in item.toolTip()


def test_inspector_uses_the_fields_terms(example_window, qtbot):
    from PySide6.QtWidgets import QLabel

    win = example_window
    win.scene.select_ids(["aff8080"])
    qtbot.waitUntil(lambda: "raid_type" in win.inspector.form.editors, timeout=3000)
    combo = win.inspector.form.editors["raid_type"].combo
    assert [combo.itemText(i) for i in range(combo.count())][:5] == ["none", "RAID 0", "RAID 4", "RAID DP", "RAID-TEC"]
    assert combo.currentText() == "RAID DP"
    labels = {w.text() for w in win.inspector.findChildren(QLabel)}
    assert {"RAID group size:", "WAFL reserve:", "DDP preservation drives:"} <= labels or \
        {"RAID group size", "WAFL reserve", "DDP preservation drives"} <= labels
    assert win.inspector_dock.isVisible() and not win.inspector_dock.visibleRegion().isEmpty()


def _rects_disjoint(rects) -> bool:
    return all(not a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_latency_chart_stays_readable_on_a_laptop(example_window, qtbot):
    win = example_window
    win.resize(1366, 768)
    qtbot.waitUntil(lambda: win.height() == 768, timeout=3000)
    win.apply_default_layout()
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    qtbot.waitUntil(lambda: view.plot.isVisible() and view.plot.height() >= 260, timeout=3000)
    table = view.summary_table  # compact: its header and rows, no empty band under them
    assert table.height() <= table.horizontalHeader().height() + 4 * table.rowHeight(0) + 40


@pytest.mark.parametrize("height", [700, 260])
def test_utilisation_rows_never_overlap(example_window, qtbot, height):
    from app.gui.results.performance_view import MIN_BARS

    win = example_window
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    view.util_plot.setMinimumHeight(0)
    view.util_plot.setFixedHeight(height - 120)  # tall, then squeezed: fewer rows, never overlapping ones
    qtbot.waitUntil(lambda: view.util_plot.height() == height - 120, timeout=3000)
    view._fit_util_range()
    rects = view.utilisation_row_rects()
    assert len(rects) >= MIN_BARS
    if height < 300:
        assert len(rects) < 8 and "+" in view.util_title.text()  # fewer rows, the rest counted
    assert _rects_disjoint(rects)
    bars = view.utilisation_bars()
    assert bars[0][2]  # the bottleneck is shown, first and highlighted
    assert "more" in view.util_title.text() or len(bars) == len(view.selected_workload().stations)


def test_snapshot_savings_break_the_capacity_axis(example_window, qtbot):
    """240 TiB effective with Snapshot copies against 35 TiB raw: the axis breaks so raw -> usable stays
    readable."""
    win = example_window
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: bool(view.bars), timeout=3000)
    assert view._break is not None
    labels = [b.label for b in view.bars]
    widths = view._bar_item.opts["width"]
    usable, effective = (widths[labels.index("Usable")],
                         widths[labels.index("Effective incl. Snapshot copies")])
    assert usable >= 0.3 * effective  # not a sliver next to the effective bar
    assert "axis broken" in view.plot.getAxis("bottom").labelText
    assert _rects_disjoint(view.value_label_rects())
    assert view.plot.minimumHeight() >= len(view.bars) * view.fontMetrics().height()


def test_empty_canvas_says_how_to_start(window):
    assert not window.scene.node_items
    assert window.view.EMPTY_HINT == "Drag a controller from the catalog to start"
    assert window.status_labels and all("n/a" in label.text() for label in window.status_labels.values())


def test_link_and_host_labels_are_short(example_window):
    from app.gui.canvas.items import display_title
    from models.catalog import bundled_catalog
    from models.present import link_tag

    catalog = bundled_catalog()
    # the catalog record's tag, never the id taken apart: an unknown type reads as given
    assert link_tag(catalog, "nvme-fc-32g") == "NVMe/FC 32G" and link_tag(catalog, "pcie-nvme") == "NVMe"
    assert link_tag(catalog, "fc-16g") == "FC 16G" and link_tag(catalog, "iscsi-25g") == "iSCSI 25G"
    assert link_tag(catalog, "no-such-link") == "no-such-link"
    labels = {item.link.link_type: item.label for item in example_window.scene.link_items.values()}
    assert labels == {"fc-8g": "FC 8G ×32", "fc-16g": "FC 16G ×8", "sas-6g": "SAS 6G ×4"}
    item = example_window.scene.node_items["sql-servers"]
    assert item.title == display_title(item.node, "8 x SQL Server 2014") == "SQL Server 2014"
    assert "8 x SQL Server 2014" in item.toolTip()


def test_a_layout_saved_by_another_layout_version_gives_way_to_the_default(example_window, qtbot):
    """The dock layout is saved with LAYOUT_VERSION: the same version is restored, another one is ignored (the
    default layout applies) so an older build's squeezed docks never come back."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui import settings
    from app.gui.main_window import LAYOUT_VERSION, MainWindow
    from models.project.model import Project

    win = example_window
    for version, restored in ((LAYOUT_VERSION, True), (LAYOUT_VERSION - 1, False)):
        settings.put("window/state", win.saveState(version))
        other = MainWindow(Project())
        other.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
        qtbot.addWidget(other)
        applied = []
        other.apply_default_layout = lambda applied=applied: applied.append(True)
        other.show()
        qtbot.waitUntil(lambda other=other: other.isVisible(), timeout=3000)
        qtbot.wait(50)
        assert other._layout_restored is restored
        assert bool(applied) is not restored
        other.worker.shutdown()
        other.compare_worker.shutdown()
        other.close()


def test_canvas_items_name_their_model_not_their_id(example_window):
    """A labelled item's third line is its catalog model (the label says what it is for); never the id."""
    scene = example_window.scene
    catalog = example_window.document.catalog
    for node_id, item in scene.node_items.items():
        record = catalog.find(item.node.catalog_id)
        assert item.model_line != node_id
        if item.node.label and record.name != item.node.label:
            # the model's name, without a shelf's bay count in brackets (REVIEW54 #16), whole in the tooltip
            from app.gui.canvas.items import card_model_name

            assert item.model_line == (card_model_name(record.name) if item.node.kind == "shelf" else record.name)
            assert record.name in item.toolTip()
    hosts = next(i for i in scene.node_items.values() if i.node.kind == "host")
    assert hosts.model_line == catalog.find(hosts.node.catalog_id).name


def test_a_shelf_card_names_its_model_without_its_bay_count(qtbot, sized_example):
    """REVIEW54 #16: the NS224 card read "24 x 3.84TB SSD" (or "12 x ..." after an edit) above "NetApp NS224 (24 x
    NVMe)", the record's bay count: the card's third line is "NetApp NS224", the tooltip names the record whole."""
    win = sized_example("aff-a70-ns224-oracle-nvmetcp.toml", 1366, 768)
    shelf = next(i for i in win.scene.node_items.values() if i.node.kind == "shelf")
    assert win.document.catalog.find(shelf.node.catalog_id).name == "NetApp NS224 (24 x NVMe)"
    assert shelf.model_line == "NetApp NS224"
    assert "NetApp NS224 (24 x NVMe)" in shelf.toolTip()

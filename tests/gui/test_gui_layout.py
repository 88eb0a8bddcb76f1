"""First-start layout: the results get enough height for a readable latency-vs-IOPS chart."""

from app.gui.main_window import RESULTS_HEIGHT_SHARE


import pytest


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
    assert item.subtitle == "8 hosts · 4 x 8Gb FC each"


def test_inspector_uses_the_fields_terms(example_window, qtbot):
    from PySide6.QtWidgets import QLabel

    win = example_window
    win.scene.select_ids(["aff8080"])
    qtbot.waitUntil(lambda: "raid_type" in win.inspector.form.editors, timeout=3000)
    combo = win.inspector.form.editors["raid_type"].combo
    assert [combo.itemText(i) for i in range(combo.count())][:5] == ["none", "RAID 0", "RAID4", "RAID DP", "RAID-TEC"]
    assert combo.currentText() == "RAID DP"
    labels = {w.text() for w in win.inspector.findChildren(QLabel)}
    assert {"RAID group size:", "WAFL reserve:", "DDP preservation drives:"} <= labels or \
        {"RAID group size", "WAFL reserve", "DDP preservation drives"} <= labels
    assert win.inspector_dock.isVisible() and not win.inspector_dock.visibleRegion().isEmpty()

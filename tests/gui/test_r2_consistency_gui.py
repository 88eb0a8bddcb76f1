"""r2 consistency review on screen: the profile kind, the rack units' lower bound, a problem's wording (and that it
still selects its node), the replication text's station name and a max IOPS at the SLO capped by a published bound
read as the PDF, the workbook and the CLI read them (tests/test_r2_consistency.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt


def _performance_row(qtbot, win) -> dict:
    win.results.setCurrentIndex(1)
    view = win.results.currentWidget()
    qtbot.waitUntil(lambda: view.summary_model.rowCount() >= 1, timeout=10_000)
    model = view.summary_model
    return {name: model.item(0, k) for k, name in enumerate(view.SUMMARY_COLUMNS)}


def test_2_an_assumed_profile_is_called_assumed(qtbot, sized_example):
    win = sized_example("ef550-sas-analytics.toml", 1366, 768)
    row = _performance_row(qtbot, win)
    assert row["Profile"].text() == "assumed"  # the workbook's cell and the head of the report's words
    status = win.status_labels["max_iops_at_slo"].text()
    assert "(assumed)" in status and "uncalibrated default" not in status


def test_4_the_cost_tab_says_at_least_for_the_rack_units(example_window):
    results = example_window.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    from models.catalog import bundled_catalog
    from models.present.bom import footprint

    parts = footprint(example_window.document.scenario, bundled_catalog()).parts
    units = sum(p.height for p in parts if p.height is not None)  # the heights the catalog gives
    assert [p.name for p in parts if p.height is None] == ["AFF8080A EX HA pair"]
    assert f"Rack units: <b>at least {units} U</b>" in view.figures.text()


def test_5_a_problem_reads_the_label_and_still_selects_its_node(qtbot, sized_example):
    win = sized_example("a800-oracle-slob-fcp.toml", 1366, 768)
    problems = win.results.problems_list
    rows = [problems.item(i) for i in range(problems.count())]
    found = [item for item in rows if "no ADP root partition size" in item.text()]
    assert len(found) == 1
    assert found[0].text().startswith("controller 'AFF A800 HA pair': no ADP root") and "(a800)" not in found[0].text()
    assert found[0].data(Qt.ItemDataRole.UserRole) == "a800"
    win.scene.clearSelection()
    problems.itemClicked.emit(found[0])
    assert win.scene.selected_node_ids() == ["a800"]


def test_6_the_protection_tab_names_the_bound_as_the_performance_tab(qtbot, sized_example):
    win = sized_example("aff-a70-snapmirror-cvo-dr.toml", 1366, 768)
    shown = _performance_row(qtbot, win)["Bottleneck"].text()
    assert shown == "HA pair IOPS bound (node 1's share)"
    results = win.results
    results.setCurrentWidget(results.protection_tab)
    view = results.protection_view
    view.wait()
    qtbot.waitUntil(lambda: view.panel is not None, timeout=10_000)
    text = view.notes.text()
    assert f"on the source: {shown} at" in text and "node 1 IOPS bound" not in text, text


def test_8_a_capped_max_at_the_slo_says_so(qtbot, sized_example):
    win = sized_example("aff-a90-oracle-nvmefc64.toml", 1366, 768)
    row = _performance_row(qtbot, win)
    assert row["Saturation"].text() == "2.40M" and row["Max IOPS @ SLO"].text() == "2.40M (capped)"
    assert "capped by the published IOPS bound" in row["Max IOPS @ SLO"].toolTip()

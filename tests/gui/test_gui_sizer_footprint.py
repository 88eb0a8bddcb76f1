"""Scenario → Size from Requirements shows each candidate's rack units, typical watts and heat (BTU/hr), the
project's switches counted (the AFF8080 example's hosts reach the array through a 1U Brocade 6510), and says so."""

from __future__ import annotations

from models.catalog import Switch, bundled_catalog


def test_the_sizer_table_shows_rack_units_watts_and_btu_with_the_projects_switches(qtbot, example_window):
    from app.gui.sizer_dialog import COLUMNS

    win = example_window
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    rows = dialog.result.candidates or dialog.result.nearest
    assert rows and dialog.table.rowCount() == len(rows)
    ru_col, w_col, btu_col = (COLUMNS.index(c) for c in ("Rack units", "Power (W)", "Heat (BTU/hr)"))
    catalog = bundled_catalog()
    switches = [catalog.get(n.catalog_id, Switch) for n in win.document.project.scenario.nodes if n.kind == "switch"]
    assert [s.id for s in switches] == ["brocade-6510"]
    shown = 0
    for r, c in enumerate(rows):
        assert dialog.table.item(r, ru_col).text() == str(c.rack_units)
        controller = next(n for n in c.scenario.nodes if n.kind == "controller")
        assert c.rack_units >= (catalog.find(controller.catalog_id).rack_units or 0) + switches[0].rack_units
        if c.power_w:
            shown += 1
            assert dialog.table.item(r, w_col).text() == f"{c.power_w:,.0f}"
            assert dialog.table.item(r, btu_col).text() == f"{c.power_w * 3.412142:,.0f}"
    assert shown >= 1
    assert "Brocade 6510" in dialog.message.text() and "no cluster switch" in dialog.message.text()

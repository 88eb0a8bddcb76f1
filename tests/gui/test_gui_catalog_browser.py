"""Tools → Catalog Browser: every record in a table; the search keeps matching rows only; the details pane lists
each number of the selected record with its source kind and text."""

from __future__ import annotations

from app.gui.catalog_browser import FIELD_ROLE
from models.catalog import bundled_catalog
from models.present.catalog_browser import browser_rows, record_details


def test_rows_cover_the_catalog_and_details_every_source():
    catalog = bundled_catalog()
    rows = browser_rows(catalog)
    assert len(rows) == len(list(catalog))
    a70 = next(r for r in rows if r.id == "netapp-aff-a70")
    # derived: power, max_drives and the two switch-attached limits
    assert "rack_units" not in a70.figures and "4 U" in a70.figures and "derived 4" in a70.sources
    assert "216 drives switch-attached" in a70.figures
    details = {field: (kind, text) for field, _value, kind, text in record_details(catalog.find("netapp-aff-a70"))}
    assert details["typical_power_w"][0] == "derived" and "BTU/hr" in details["typical_power_w"][1]
    assert details["cores_per_node"][0] == "assumed"
    profile_fields = [f for f, *_ in record_details(catalog.find("netapp-aff-a800")) if f.startswith("performance[")]
    assert any(f.endswith("cpu_read_us") for f in profile_fields)


def test_the_status_column_says_current_installed_base_or_end_of_sale_with_its_source():
    """Every controller says where it stands, from its record's lifecycle, whose source the schema requires."""
    import pydantic
    import pytest

    from models.catalog import Controller

    catalog = bundled_catalog()
    status = {r.id: r.status for r in browser_rows(catalog) if r.kind == "controller"}
    assert status["netapp-aff-a70"] == "current" and status["netapp-fas70"] == "current"
    assert status["netapp-aff-a800"] == "installed base" and status["netapp-fas8300"] == "installed base"
    assert status["netapp-fas3140"] == "end of sale"
    for cid in status:
        if cid.startswith("netapp-"):
            record = catalog.find(cid)
            assert record.lifecycle and record.sources["lifecycle"], cid
    a70 = catalog.find("netapp-aff-a70")
    data = a70.model_dump()
    data["provenance"] = {k: v for k, v in data["provenance"].items() if k != "lifecycle"}
    with pytest.raises(pydantic.ValidationError, match="lifecycle needs a source"):
        Controller.model_validate(data)


def test_the_browser_filters_and_shows_sources(qtbot, example_window):
    win = example_window
    browser = win.show_catalog_browser()
    qtbot.addWidget(browser)
    assert browser.isVisible() and len(browser.visible_ids()) == len(browser.rows)
    browser.search.setText("controller nvme")  # NVMe/FC controllers... every word must match a row's text
    browser.search.setText("AFF A50")
    assert browser.visible_ids() == ["netapp-aff-a50"]
    browser.select("netapp-aff-a50")
    fields = [browser.details.item(r, 0).data(FIELD_ROLE) for r in range(browser.details.rowCount())]
    kinds = {browser.details.item(r, 0).data(FIELD_ROLE): browser.details.item(r, 2).text()
             for r in range(browser.details.rowCount())}
    assert "memory_gib_per_node" in fields and kinds["memory_gib_per_node"] == "sourced"
    assert kinds["typical_power_w"] == "derived"


def test_the_palette_lists_current_controllers_before_the_installed_base(qtbot, example_window):
    """What a customer buys today comes first in the palette's controller group; each record's lifecycle is in its
    tooltip."""
    from models.catalog import Controller

    win = example_window
    palette = win.palette_widget
    group = palette.groups["controller"]
    ids = [group.child(i).data(0, 0x0100) for i in range(group.childCount())]
    lifecycles = [win.document.catalog.get(i, Controller).lifecycle for i in ids]
    rank = {"current": 0, "": 1, "installed base": 2, "end of sale": 3}
    assert [rank[x] for x in lifecycles] == sorted(rank[x] for x in lifecycles)
    assert lifecycles[0] == "current" and lifecycles[-1] == "end of sale"
    assert "installed base" in group.child(ids.index("netapp-aff-a800")).toolTip(0)

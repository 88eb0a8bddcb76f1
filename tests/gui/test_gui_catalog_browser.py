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


def _nested(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth > 1:
            return True
    return False


def test_the_evidence_has_its_own_tab_in_customer_words_with_a_legend(qtbot, example_window):
    """revgui55 items 10-11: a controller's performance evidence is a titled tab with a legend of the profile kinds;
    its rows wrap with Evidence the wide column; the kind is said once per row; no formula without words, no
    bracket inside a bracket, no "band", no web address twice; the CLI prints the same table."""
    import re

    from app.gui.catalog_browser import COLUMN_MAX, EVIDENCE_TAB

    win = example_window
    browser = win.show_catalog_browser()
    qtbot.addWidget(browser)
    browser.resize(1100, 640)
    browser.select("netapp-aff-c800")
    tab = next(i for i in range(browser.tabs.count()) if browser.tabs.tabText(i) == EVIDENCE_TAB)
    assert browser.tabs.isTabEnabled(tab)
    browser.tabs.setCurrentIndex(tab)
    qtbot.wait(50)
    legend = browser.evidence_legend.text()
    for words in ("calibrated: fitted to published benchmarks", "derived: derived from a related system's",
                  "hardware relation only: estimated from its family's calibrated systems", "assumed: "):
        assert words in legend
    table = browser.evidence
    assert table.rowCount() >= 4
    widths = [table.columnWidth(c) for c in range(table.columnCount())]
    assert widths[-1] > sum(widths[:-1])  # Evidence is the wide column
    texts = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    assert any(row[1] == "derived" and row[2] == "ratio claim" for row in texts)
    for row in texts:
        text = row[3]
        assert " ".join(row).count("hardware relation only") <= 1
        assert "demand x" not in text and "demands /" not in text and not re.search(r"\bband\b", text)
        assert not _nested(text), text
        urls = re.findall(r"(?:https?://)?docs\.netapp\.com/[\w./-]+", text)
        bare = [u.removeprefix("https://") for u in urls]
        assert len(bare) == len(set(bare)), text
    assert table.rowHeight(0) > table.fontMetrics().height() * 2  # a long row wraps, not cut to one line
    # a drive: no evidence; the tab is disabled and the figures tab shows
    browser.select(next(r.id for r in browser.rows if r.kind == "drive"))
    assert not browser.tabs.isTabEnabled(tab) and browser.tabs.currentIndex() == 0
    # the top table: a long model name does not push Key figures, Status and Sources off the dialog
    header = browser.table.horizontalHeader()
    assert browser.table.columnWidth(2) <= COLUMN_MAX["Model"]
    assert header.sectionViewportPosition(5) < browser.table.viewport().width()
    browser.tabs.setCurrentIndex(0)
    browser.select("netapp-aff-c800")
    browser.tabs.setCurrentIndex(tab)
    qtbot.wait(50)
    browser.grab().save("/tmp/gfb55-cat-c800.png")


def test_the_cli_evidence_is_the_browsers_table(capsys):
    from app.cli import main
    from models.present.catalog_browser import EVIDENCE_LEGEND, evidence_table

    catalog = bundled_catalog()
    assert main(["catalog", "controller", "--evidence"]) == 0
    out = capsys.readouterr().out
    assert EVIDENCE_LEGEND in out.splitlines()[0]
    for line in evidence_table(catalog.find("netapp-aff-a70"), catalog):
        assert line.text in out
    assert "demand x cores" not in out and "(vendor upgrade path: not" not in out

"""The Protection results tab: built when first shown, each relationship's RPO achieved vs required, transfer,
bandwidth, baseline and destination, and the site-loss verdicts, recomputed off the GUI thread after an edit."""

from __future__ import annotations

from app.gui.results.protection_view import RPO_COLUMN
from models.project import load
from models.resources import examples_dir


def _protection(window, qtbot, example: str):
    window.document.reset(load(examples_dir() / example))
    results = window.results
    index = results.indexOf(results.protection_tab)
    assert index >= 0 and results.tabText(index) == "Protection"
    assert results.protection_view is None  # built when first shown
    results.setCurrentIndex(index)
    view = results.protection_view
    assert view is not None
    view.wait()
    qtbot.waitUntil(lambda: view.panel is not None, timeout=10_000)
    return view


def test_protection_tab_shows_the_worked_example_and_follows_an_edit(window, qtbot):
    """The SnapMirror example's figures (the hand calculation of tests/test_replication.py): largest transfer
    200e9 x 2/34 = 11.76 GB in 188 s = 3.1 min on 500 Mbit/s, RPO 60 + 3.14 = 63 min of 90 required, 52.3 of the
    500 Mbit/s available to replication meets it (both of the link's 50 % share), baseline 4e12 / 62.5e6 = 64,000 s
    = 17.8 h; the copies fit today and fill the DR system in month 18, within the 36-month horizon."""
    view = _protection(window, qtbot, "aff-a70-snapmirror-cvo-dr.toml")
    table = view.relationships
    header = [" ".join(table.horizontalHeaderItem(c).text().split()) for c in range(table.columnCount())]
    row = {header[c]: table.item(0, c).text() for c in range(table.columnCount())}
    assert table.rowCount() == 1
    assert row["Transfer time"] == "3.1 min" and row["RPO achieved"] == "63 min" and row["RPO required"] == "90 min"
    assert row["Bandwidth for the RPO"] == "52 Mbit/s" and row["Bandwidth available"] == "500 Mbit/s"
    assert row["Baseline"] == "17.8 h"
    assert row["Runway"] == "18 months"
    assert header[RPO_COLUMN] == "RPO achieved"
    assert "RPO met" in view.summary.text()
    assert any("the copies fit on Cloud Volumes ONTAP DR (Azure) today but fill it in 18 months at the planned "
               "growth, within the 36-month horizon" in line for line in view.panel.sentences)
    assert "No system of this design has two sites" in view.site_notes.text() and view.sites.isHidden()
    # an edit recomputes: a 61 min RPO at the 20 ms round trip cannot be met by any link
    rep = window.document.scenario.replications[0]
    assert window.document.set_replication_field(rep.id, "rpo_minutes", 61.0) is None
    view.wait()
    qtbot.waitUntil(lambda: "RPO missed" in view.summary.text(), timeout=10_000)
    assert view.relationships.item(0, header.index("Bandwidth for the RPO")).text() == "none meets it"


def test_protection_tab_shows_the_metrocluster_switchover_verdict(window, qtbot):
    view = _protection(window, qtbot, "aff-a70-metrocluster-ip-oracle-nvmetcp.toml")
    assert "No replication relationship" in view.summary.text()
    assert not view.sites.isHidden() and view.sites.rowCount() == 1
    assert view.sites.item(0, 1).text() == "MetroCluster switchover"
    normal = view.sites.item(0, 2).text()
    lost = view.sites.item(0, 3).text()
    assert normal != lost and "meets the 1 ms SLO" in view.sites.item(0, 4).text()
    notes = view.site_notes.text()
    assert "both sites' load" in notes and "serves this workload for both sites" in notes
    # the note names its workload once (it named it three times: before the reason and twice in it)
    name = window.document.scenario.workloads[0].name
    assert view.site_notes.text().count(name) == 1, view.site_notes.text()

"""The Cost tab follows the report's rule for a design whose hardware is not priced and whose power is unknown: it
is neither charted nor ranked against the cloud options, which count everything they need, and the sentence saying
why heads the notes (one design, one answer: the PDF's cost section does the same)."""

from __future__ import annotations

from models.present.cost import design_apart
from models.resources import examples_dir


def _cost_view(open_window, qtbot, example: str):
    from app.gui.main_window import read_project

    win = open_window(read_project(examples_dir() / example))
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None, timeout=10_000)
    return view


def _table_names(view) -> list[str]:
    return [view.table.item(r, 0).text() for r in range(view.table.rowCount())]


def test_an_unpriced_unpowered_design_is_neither_charted_nor_ranked(open_window, qtbot):
    view = _cost_view(open_window, qtbot, "vsan8-osa-hybrid-4host-oltp.toml")
    tco = view.tco
    # independently of the view: the example's 4 vSAN hosts have no power figure and no price book prices them
    assert tco.design.deployment == "on-prem" and not tco.energy.power_known
    assert next(line for line in tco.design.lines if line.name == "Hardware").upfront == 0
    assert view.apart == design_apart(tco) != ""
    names = _table_names(view)
    assert tco.design.name not in names and len(names) == len(tco.options)
    assert tco.design.name not in [name for name, _ in view.series]
    assert "left out of the chart and of the ranking" in view.notes.text()


def test_a_design_with_known_power_stays_in_the_chart_and_the_table(open_window, qtbot):
    view = _cost_view(open_window, qtbot, "aff-a70-snapmirror-cvo-dr.toml")
    assert view.apart == ""
    assert _table_names(view)[0] == view.tco.design.name
    assert view.series[0][0] == view.tco.design.name

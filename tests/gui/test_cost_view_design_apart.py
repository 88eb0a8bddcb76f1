"""The Cost tab follows the report's rule for a design whose hardware is not priced: it is neither charted nor ranked
against the cloud options, which count everything they need; it is listed as "no price" and the sentence saying why
heads the notes (one design, one answer: the PDF's cost section does the same)."""

from __future__ import annotations

from models.present.cost import NO_PRICE, design_apart
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
    # listed first with its reason, never ranked: its running costs only, the hardware not priced
    assert names[0] == f"{tco.design.name} (not charted)" and len(names) == len(tco.options) + 1
    # short on screen (a laptop's height), the whole statement in the row's tooltip
    assert view.table.item(0, 1).text() == f"running costs only: {tco.design.total:,.0f} USD; no hardware price"
    assert NO_PRICE in view.table.item(0, 1).toolTip()
    assert tco.design.name not in [name for name, _ in view.series]
    assert "left out of the chart and of the ranking" in view.notes.text()


def test_an_unpriced_design_with_known_power_has_no_price_either(open_window, qtbot):
    """REVIEW45 #2: the AFF A70's hardware has no price (no price book); its power is known, so its line counted
    power, space and support only, about 21K USD over 36 months, and lay along the axis beside cloud options of
    350K to 520K as if the design cost nothing. It is left out of the chart and listed as "no price"."""
    view = _cost_view(open_window, qtbot, "aff-a70-ns224-oracle-nvmetcp.toml")
    tco = view.tco
    assert tco.design.deployment == "on-prem" and tco.energy.power_known  # the example's facts
    assert next(line for line in tco.design.lines if line.name == "Hardware").upfront == 0
    assert view.apart == design_apart(tco) != "" and "power" not in view.apart.split(":")[1].split(",")[0]
    assert tco.design.name not in [name for name, _ in view.series]
    # no option is drawn: those that serve NVMe/TCP cannot carry its I/O, ANF / GCNV serve NFS / SMB only (review 57)
    assert view.series == [] and all(o.short_from_month == 1 for o in tco.options)
    assert _table_names(view)[0] == f"{tco.design.name} (not charted)"
    assert view.table.item(0, 1).text() == f"running costs only: {tco.design.total:,.0f} USD; no hardware price"
    assert NO_PRICE in view.table.item(0, 1).toolTip()


def test_a_priced_design_stays_in_the_chart_and_the_table(open_window, qtbot):
    view = _cost_view(open_window, qtbot, "aff-a70-snapmirror-cvo-dr.toml")
    priced = _with_hardware_price(view.tco)
    view.show_tco(priced)
    assert view.apart == ""
    assert _table_names(view)[0] == priced.design.name
    assert view.series[0][0] == priced.design.name


def _with_hardware_price(tco):
    """``tco`` with its design's hardware priced (as a price book would): the upfront figure set on its line."""
    import dataclasses

    lines = tuple(dataclasses.replace(line, upfront=100_000.0) if line.name == "Hardware" else line
                  for line in tco.design.lines)
    return dataclasses.replace(tco, design=dataclasses.replace(tco.design, lines=lines))


def test_the_notes_give_the_cost_models_short_reason(open_window, qtbot):
    """The short reason heading the notes comes from the cost module (models.present.cost.design_apart_short), not
    from cutting the long sentence in the view: it is the long sentence's head, ends on a full stop, and says
    nothing of what the total counts (the row's tooltip does)."""
    from models.present.cost import design_apart_short

    view = _cost_view(open_window, qtbot, "vsan8-osa-hybrid-4host-oltp.toml")
    short = design_apart_short(view.tco)
    assert short.endswith(".") and ", so its " not in short and "counts only" not in short
    assert view.apart.startswith(short.split("; its row")[0])
    from app.gui.results._common import html_escape

    assert view.notes.text().split("<br>")[0] == html_escape(short[0].upper() + short[1:])
    assert view.table.item(0, 0).toolTip() == view.apart + "."
    # the hosts' unknown power said once in the notes, by the cost model's own note (REVIEW46: the short reason said
    # it too, the notes then read it twice beside a third "power ... is not counted")
    assert "power of the 4 vSAN hosts" in view.apart
    assert view.notes.text().count("power of the 4 vSAN hosts") == 1, view.notes.text()
    assert "no figure for the power of the 4 vSAN hosts" in view.notes.text()  # was "no figure for power of"
    priced = _with_hardware_price(view.tco)
    assert design_apart_short(priced) == ""

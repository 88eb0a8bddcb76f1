"""The Cost tab's break-even column: filled for an on-premises design without a price book (the most the hardware
may cost against the option compared, "n/a (design not priced)" against the others) and hidden for a cloud design,
which has no break-even month."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.design import resolve
from models.evaluate import project_catalog, with_layouts
from models.present.cost import NO_BREAK_EVEN, design_tco
from models.project.textformat import load

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def example_window(qtbot):
    """The AFF8080 NFS example: the managed services serve its NFS and carry its I/O, so each gets a break-even
    price (the fixture's SQL Server example runs FCP: no option serves it and carries its I/O, review 57 #6)."""
    from conftest import _dispose, shown_window

    from app.gui.main_window import read_project

    win = shown_window(qtbot, read_project(EXAMPLES / "aff8080-nfs-file-services.toml"))
    yield win
    _dispose(win)


def test_break_even_column_is_filled_or_hidden(example_window):
    example_window.results.setCurrentWidget(example_window.results.cost_tab)
    view = example_window.results.cost_view
    view.wait()
    tco = view.tco
    assert tco is not None and tco.design.deployment == "on-prem" and tco.break_even_hardware is not None
    assert not view.table.isColumnHidden(2)
    # the cell short ("hardware ≤ 69,124 USD" under "This design breaks even if its"), its tooltip the sentence
    # every other output prints (the design's own row, left apart, has its own tooltip and no break-even)
    assert " ".join(view.table.horizontalHeaderItem(2).text().split()) == "This design breaks even if its"
    cells = {view.table.item(r, 0).text(): view.table.item(r, 2).toolTip() for r in range(1, view.table.rowCount())}
    cells[view.table.item(0, 0).text()] = view.table.item(0, 2).text()
    for r in range(1, view.table.rowCount()):
        item = view.table.item(r, 2)
        assert item.text() == ("" if item.toolTip() == NO_BREAK_EVEN  # blank, the reason in the tooltip
                               else item.toolTip().replace("if the hardware costs at most ", "hardware ≤ "))
    assert cells[tco.cheapest] == f"if the hardware costs at most {tco.break_even_hardware:,.0f} USD"
    # the design's own row (running costs only, not charted) has no break-even of its own; every option has its own
    # hardware price to break even (review 53b #7)
    support, horizon = tco.inputs.support_pct_per_year.value, tco.inputs.horizon_months
    for option in tco.options:
        budget = (option.total - tco.design.total) / (1 + horizon * support / 1200)
        assert cells[option.name] == (NO_BREAK_EVEN if option.short_from_month == 1 else
                                      f"if the hardware costs at most {budget:,.0f} USD" if budget > 0
                                      else "at no hardware price")
    assert cells[f"{tco.design.name} (not charted)"] == ""
    project = load(EXAMPLES / "anf-premium-oracle-nfs.toml")
    design = with_layouts(resolve(project, None, project_catalog(project)))
    view.show_tco(design_tco(project, design.scenario, design.catalog))
    assert view.table.isColumnHidden(2)
    assert view.table.item(0, 1).text() == f"{4096 * 0.000403 * 730 * 36:,.0f} USD"  # 4 TiB a month, 36 months

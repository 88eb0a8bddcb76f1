"""The Cost tab's running-cost inputs carry their units (fresh-eyes review: "Support: default (15)" had no %,
"Rack unit a month: default (30)" and "Electricity price per kWh: default (0.13)" no currency): each field shows its
unit after the number and in its default text, the prices in the currency the cost engine computes in (the price
book's, else USD), and the default text is shown whole."""

from __future__ import annotations

from PySide6.QtCore import Qt

from models.costing.cloud_prices import PRICE_CURRENCY
from models.costing.inputs import RUNNING_DEFAULTS
from models.project import edits
from models.project.model import PriceRow


def _cost_view(win):
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    return view


def _expected(currency: str) -> dict[str, str]:
    """Each input's default text, written out here from the published defaults and the unit each is in."""
    value = {name: f"{figure.value:g}" for name, figure in RUNNING_DEFAULTS.items()}
    return {"electricity_price_per_kwh": f"default ({value['electricity_price_per_kwh']} {currency}/kWh)",
            "pue": f"default ({value['pue']})",  # a ratio: no unit
            "grid_carbon_g_per_kwh": f"default ({value['grid_carbon_g_per_kwh']} g/kWh)",
            "rack_unit_cost_per_month": f"default ({value['rack_unit_cost_per_month']} {currency})",
            "support_pct_per_year": f"default ({value['support_pct_per_year']} %/yr)"}


def test_every_running_cost_input_shows_its_unit_in_the_engines_currency(example_window, qtbot):
    win = example_window
    view = _cost_view(win)
    assert not win.document.project.price_book and view.tco.currency == PRICE_CURRENCY == "USD"
    editors = view.form.editors
    assert {name: editors[name].default_text() for name in RUNNING_DEFAULTS} == _expected("USD")
    assert {name: editors[name].entry.text() for name in RUNNING_DEFAULTS} == _expected("USD")  # on screen
    assert editors["electricity_price_per_kwh"].entry.text() == "default (0.13 USD/kWh)"
    assert editors["support_pct_per_year"].entry.text() == "default (15 %/yr)"
    for name in RUNNING_DEFAULTS:  # the default text whole in its field (arrows and frame aside)
        entry = editors[name].entry
        assert entry.lineEdit().width() >= entry.fontMetrics().horizontalAdvance(entry.text()), name
    # a typed price shows with its unit and is read back without it, the model value in the book's currency
    entry = editors["rack_unit_cost_per_month"].entry
    with qtbot.waitSignal(view.sig_tco_shown, timeout=10_000):
        entry.setFocus()
        entry.lineEdit().selectAll()
        qtbot.keyClicks(entry.lineEdit(), "45 USD")
        qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)
    assert win.document.project.requirements.running_costs.rack_unit_cost_per_month == 45.0
    assert entry.text() == "45 USD"
    win.document.undo_stack.undo()
    assert entry.text() == "default (30 USD)"


def test_the_prices_follow_the_price_books_currency(example_window, qtbot):
    """A price book in EUR: the engine computes in EUR, and the price inputs say EUR (their tooltip that the default
    is a USD figure used unconverted, as the cost notes say); the non-price inputs keep their units."""
    win = example_window
    view = _cost_view(win)
    doc = win.document
    catalog_id = next(n.catalog_id for n in doc.project.scenario.nodes if getattr(n, "catalog_id", None))
    project = edits.set_price_book(doc.project, [PriceRow(catalog_id=catalog_id, unit_price=100_000.0,
                                                          currency="EUR")])
    with qtbot.waitSignal(view.sig_tco_shown, timeout=10_000):
        doc.push(project, "Import price book")
    assert view.tco.currency == "EUR"  # the engine's currency, independently of the panel
    editors = view.form.editors
    assert {name: editors[name].default_text() for name in RUNNING_DEFAULTS} == _expected("EUR")
    tip = editors["electricity_price_per_kwh"].toolTip()
    assert "EUR" in tip and "USD figure" in tip and "without conversion" in tip
    assert "EUR" not in editors["grid_carbon_g_per_kwh"].toolTip()
    assert "EUR" not in editors["rack_unit_cost_per_month"].toolTip()  # an assumption in no stated currency
    doc.undo_stack.undo()
    assert editors["electricity_price_per_kwh"].default_text() == "default (0.13 USD/kWh)"

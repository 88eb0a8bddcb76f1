"""Scenario → Size from Requirements ranked on total cost (``rank_on = "tco"``) without a price book: each
on-premises candidate's "Why" cell says it has no break-even month and the most its hardware may cost to break even
with the cheapest cloud option, that price checked by hand from the candidate's total and the option's."""

from __future__ import annotations

from models.resources import examples_dir
from models.store import load_any


def test_the_sizer_table_gives_the_break_even_hardware_price(qtbot, window):
    from app.gui.sizer_dialog import COLUMNS

    project = load_any(examples_dir() / "aff-a400-ns224-oracle-nvmefc.toml")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(
        rank_on="tco", max_candidates=40)})
    window.document.reset(project)
    dialog = window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    result = dialog.result
    rows = result.candidates or result.nearest
    assert rows and result.cheapest_cloud is not None
    name, total = result.cheapest_cloud
    why = COLUMNS.index("Why")
    checked = 0
    for r, c in enumerate(rows):
        text = dialog.table.item(r, why).text()
        if c.deployment != "on-prem" or c.tco is None:
            continue
        budget = (total - c.tco) / (1 + 36 * 15 / 1200)  # defaults: 36 months, support 15 % a year
        assert "no price book" in text and f"breaks even with {name}" in text
        assert f"at most {budget:,.0f} USD" in text
        checked += 1
    assert checked >= 1


QUOTE = (("netapp-aff-a50", 130_000), ("netapp-2u24-internal-nvme", 5_000), ("netapp-nvme-ssd-1.92tb-tlc", 1_000),
         ("netapp-aff-a70", 160_000), ("netapp-nvme-ssd-3.84tb-tlc", 1_800))
"""The AFF A50 with 24 x 1.92 TB in its chassis priced in full, and the AFF A70 with 48 x 1.92 TB (its 4U48 chassis
bays in the controller's price, review 56); the ASA A50's controller not priced (tests/test_sizer_price_rank.py's
quote)."""


def _quote_dialog(qtbot, window):
    """The sizer dialog run on the AFF A70 example ranked on total cost with :data:`QUOTE` (power 0.3 USD/kWh, PUE
    1.5, 25 USD a rack unit a month, support 10 % a year, 36 months)."""
    from models.project.model import PriceRow, RunningCosts

    book = [PriceRow(catalog_id=c, part_number=f"P-{c}", unit_price=float(v), currency="USD") for c, v in QUOTE]
    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    project = project.model_copy(update={"price_book": book, "requirements": project.requirements.with_changes(
        rank_on="tco", running_costs=RunningCosts(electricity_price_per_kwh=0.3, pue=1.5,
                                                  rack_unit_cost_per_month=25.0, support_pct_per_year=10.0))})
    window.document.reset(project)
    dialog = window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    return dialog


def test_the_sizer_ranks_a_partly_priced_design_after_the_fully_priced_on_total_cost(qtbot, window):
    """Review 56 item 1 on screen: a quote pricing the AFF A50 and the AFF A70 in full (the A70's chassis bays in
    its controller's price); the table lists the AFF A50 first, the AFF A70 second and the ASA A50 (its controller
    unpriced) third with the priced 1.92 TB drives, not the unpriced 7.6 TB ones its partial sum favoured; the
    message states the rule."""
    from app.gui.sizer_dialog import COLUMNS
    from models.sizing import ranking_rule

    dialog = _quote_dialog(qtbot, window)
    config = COLUMNS.index("Configuration")
    first, second, third = (dialog.table.item(r, config).text() for r in range(3))
    assert first.startswith("NetApp AFF A50 HA pair, 24 x NetApp 1.9TB")
    assert second.startswith("NetApp AFF A70 HA pair, 48 x NetApp 1.9TB")
    assert third.startswith("NetApp ASA A50 HA pair, 24 x NetApp 1.9TB")
    assert ranking_rule(True, "tco") in dialog.message.text()


def test_a_partly_priced_total_cost_says_so_in_the_cost_cell(qtbot, window):
    """Review 56 (model56, still open): the Cost cell of a design the book prices in part showed "TCO 53,567, even
    with the cheapest cloud in month 5", a total and a month on the partial hardware price, without saying so. It
    now reads "TCO at least ... (partly priced) ... no earlier than month N", its tooltip naming what the book does
    not price, as the "Why" column and ``storplan size`` say; a design priced in full is shown as before. The
    totals are checked by hand: hardware + 36 x (10 %/12 of it + W x 0.73 x 1.5 x 0.3 + RU x 25)."""
    from app.gui.sizer_dialog import COLUMNS

    dialog = _quote_dialog(qtbot, window)
    rows = dialog.result.candidates
    cost, why = COLUMNS.index("Cost"), COLUMNS.index("Why")

    def by_hand(c, hardware):
        return hardware + 36 * (hardware * 0.10 / 12 + c.power_w * 730 / 1000 * 1.5 * 0.3 + c.rack_units * 25.0)

    full, asa = rows[0], rows[2]
    assert not full.unpriced and not rows[1].unpriced and asa.unpriced == ("netapp-asa-a50",)
    # no cloud option both serves the example's NVMe/TCP and carries its I/O (ANF / GCNV serve NFS / SMB only,
    # review 57 #6): no break-even month is given, the total cost stands alone
    assert dialog.result.cheapest_cloud is None
    text = dialog.table.item(0, cost).text()
    assert text == f"159,000 USD; TCO {round(by_hand(full, 159_000)):,}"
    assert "partly priced" not in text and "at least" not in text
    text = dialog.table.item(2, cost).text()
    assert full.break_even_month is None and asa.break_even_month is None
    assert text.startswith(f"29,000 USD + unpriced parts; TCO at least {round(by_hand(asa, 5_000 + 24 * 1_000)):,} "
                           "(partly priced)")
    tip = dialog.table.item(2, cost).toolTip()
    assert "not counting what the price book does not price: NetApp ASA A50" in tip
    assert "netapp-asa-a50" not in tip and "netapp-asa-a50" not in dialog.table.item(2, why).text()
    assert "(not counting what the price book does not price: NetApp ASA A50" in dialog.table.item(2, why).text()
    for r, c in enumerate(rows):  # every design with an unpriced part says its total is partial
        assert ("at least" in dialog.table.item(r, cost).text()) == bool(c.unpriced)

"""Scenario → Size from Requirements ranked on total cost (``rank_on = "tco"``) without a price book: each
on-premises candidate's "Why" cell says it has no break-even month and the most its hardware may cost to break even
with the cheapest cloud option, that price checked by hand from the candidate's total and the option's."""

from __future__ import annotations

from models.resources import examples_dir
from models.store import load_any


def test_the_sizer_table_gives_the_break_even_hardware_price(qtbot, window):
    from app.gui.sizer_dialog import COLUMNS

    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
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

"""The sizer dialog's words for review 57 (rev2size57 items 2, 4, 10): on the reviewer's 350K case the first row's
Why says it meets on expected figures only and is an estimate, the basis is said once above the table, the "Bound by"
column has room for its words, the line under the price-book button names the cloud cost step of the rule, and the
rack-units chart ticks whole units."""

from __future__ import annotations

from models.resources import examples_dir


def _project_350k():
    from models.project.textformat import loads

    text = (examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").read_text(encoding="utf-8")
    return loads(text.replace("target_iops = 250_000.0", "target_iops = 350_000.0")
                 .replace("growth_pct_per_year = 30.0", "growth_pct_per_year = 0.0"))


def test_the_sizer_says_what_the_rows_rest_on(qtbot, open_window):
    from app.gui.sizer_dialog import COLUMNS
    from models.sizing import ranking_rule

    win = open_window(_project_350k())
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.prices_label.text()
    assert "in the cloud the total cost at the providers' published prices" in note  # item 4
    assert "published prices" in ranking_rule(False)  # ... as the full rule says
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    table = dialog.table
    why = table.item(0, COLUMNS.index("Why")).text()
    assert "AFF A30" in table.item(0, COLUMNS.index("Configuration")).text()
    assert why.startswith("estimate: no published measurement of this model")
    assert "meets on expected figures; the pessimistic case (P10) reaches" in why
    assert "meets every requirement" not in why  # not both
    assert table.item(0, COLUMNS.index("Max IOPS @ SLO")).text() == "800,000"
    a50 = next(r for r in range(table.rowCount()) if "AFF A50" in table.item(r, COLUMNS.index("Configuration")).text())
    assert table.item(a50, COLUMNS.index("Max IOPS @ SLO")).text() == "1,200,000"  # not 1,199,999
    assert dialog.message.text().count("Basis:") == 1
    bound = COLUMNS.index("Bound by")  # wide enough that its words wrap at spaces, none cut mid-word
    text = table.item(0, bound).text()
    widest_word = max(table.fontMetrics().horizontalAdvance(w) for w in text.split())
    assert table.columnWidth(bound) > 150 and table.columnWidth(bound) >= widest_word
    assert table.item(0, bound).toolTip()  # the whole words on hover
    axis = dialog.chart.getAxis("bottom")  # item 10: rack units are whole
    assert axis.labelText.startswith("Rack units")
    lo, hi = dialog.chart.getViewBox().viewRange()[0]
    ticks = [v for level in axis.tickValues(lo, hi, 400) for v in level[1]]
    assert ticks and all(float(v).is_integer() for v in ticks), ticks

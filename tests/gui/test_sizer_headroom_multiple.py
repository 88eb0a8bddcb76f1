"""The sizer dialog prints a headroom above 1,000% as a multiple of the target, as the PDF's Recommendation and
``storplan size`` do (REVIEW43-PDF #9: the vSAN OSA hybrid example's designs read "26,567%"): in the table's
Headroom column and in a configuration's tooltip listing its other drive variants."""

from __future__ import annotations

from app.gui.sizer_dialog import COLUMNS, TOOLTIP_ALTERNATIVES
from models.resources import examples_dir
from models.store import load_any


def test_the_sizer_table_prints_large_headroom_as_a_multiple_of_the_target(qtbot, open_window):
    win = open_window(load_any(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"))
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    candidates = dialog.result.candidates
    column = COLUMNS.index("Headroom (grown)")
    shown = [dialog.table.item(r, column).text() for r in range(dialog.table.rowCount())]
    assert len(shown) == len(candidates)
    large = [(text, c.headroom_pct) for text, c in zip(shown, candidates, strict=True) if c.headroom_pct >= 1000]
    assert large  # the example's designs have headroom above 1,000%
    for text, pct in large:
        assert text == f"{round(pct / 100):,}x the target (saturation {round(1 + pct / 100):,}x)"  # 26,567%: 266x
    tips = [dialog.table.item(r, COLUMNS.index("Configuration")).toolTip() for r in range(dialog.table.rowCount())]
    listed = [(tip, a) for tip, c in zip(tips, candidates, strict=True)
              for a in c.alternatives[:TOOLTIP_ALTERNATIVES] if a.headroom_pct is not None and a.headroom_pct >= 1000
              and f"{a.variant}: effective " in tip]  # as many as the tooltip's length holds
    assert listed  # variants of a design with headroom above 1,000% are in its tooltip
    for tip, a in listed:
        assert f"{a.variant}: effective " in tip
        multiple, saturation = round(a.headroom_pct / 100), round(1 + a.headroom_pct / 100)
        assert f"headroom {multiple:,}x the target (saturation {saturation:,}x)" in tip
        assert f"{a.headroom_pct:,.0f}%" not in tip

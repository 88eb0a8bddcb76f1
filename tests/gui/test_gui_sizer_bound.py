"""The sizer dialog's "Bound by" column names what bounds each row's max IOPS at the SLO (the hybrid example's
four vSAN ESA rows: the per-host software path limit), and the table still fits a 1366 x 768 screen."""

from __future__ import annotations

from models.resources import examples_dir


def test_the_sizer_table_names_each_rows_bound(qtbot, open_window):
    from app.gui.main_window import read_project
    from app.gui.sizer_dialog import BOUND_TOOLTIP, COLUMNS
    from models.sizing import size

    win = open_window(read_project(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"))
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    rows = dialog.result.candidates
    col, iops_col = COLUMNS.index("Bound by"), COLUMNS.index("Max IOPS @ SLO")
    assert dialog.table.horizontalHeaderItem(col).toolTip() == BOUND_TOOLTIP
    independent = size(win.document.project, top=len(rows))  # the same search run again, outside the GUI
    assert [dialog.table.item(r, col).text() for r in range(len(rows))] == [c.bound for c in independent.candidates]
    # the first two rows are vSAN ESA clusters (each tied with the same cluster of AF-8 hosts: one row naming it)
    assert [dialog.table.item(r, col).text() for r in range(2)] == ["vSAN ESA per-host software path limit"] * 2
    assert all(t.bound == "vSAN ESA per-host software path limit" for c in rows[:2] for t in c.ties)
    for r in range(2):  # every host up they all stop just below 800,000 IOPS, the four hosts' storage pools
        assert 799_000 <= float(dialog.table.item(r, iops_col).text().replace(",", "")) <= 800_000
        assert "bound by the vSAN ESA per-host software path limit" in dialog.table.item(r, iops_col).toolTip()
    from app.gui.sizer_dialog import BOUND_WIDTH

    assert dialog.table.columnWidth(col) <= BOUND_WIDTH
    assert dialog.width() <= 1366 and dialog.height() <= 768

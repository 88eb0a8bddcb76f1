"""revgui55 #14: the Cost tab's table is the chart's legend, so a row whose option the chart does not draw (the
chart draws the design and the first four options) says "(not charted)" and has no swatch; every drawn line ends
in a mark of its own (two options within 2% of each other still read as two), shown in its row's swatch; the
report's table and chart say the same."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Circle, Polygon, Rect

from models.design import resolve
from models.evaluate import project_catalog, with_layouts
from models.present.cost import NOT_CHARTED, cost_series, design_tco, mark_months, series_marker, table_rows
from models.resources import examples_dir
from models.store import load_any

DR = "aff-a70-snapmirror-cvo-dr.toml"
NFS = "aff8080-nfs-file-services.toml"  # file workloads the managed services serve: four options drawn


@pytest.fixture(scope="module")
def tco():
    project = load_any(examples_dir() / NFS)
    design = with_layouts(resolve(project, None, project_catalog(project)))
    return design_tco(project, design.scenario, design.catalog)


def test_the_rows_beyond_the_chart_say_not_charted(tco):
    rows = table_rows(tco)
    drawn = [name for name, _ in cost_series(tco)]
    assert len(rows) == 1 + len(tco.options) and len(tco.options) > 4  # this example has five options or more
    marked = [name for name, total, _ in rows[1:] if total.endswith(NOT_CHARTED)]
    assert len(marked) == len(tco.options) - 4
    for name, total, _ in rows[1:]:  # a row is charted exactly when the chart draws its option
        assert (name in drawn) != total.endswith(NOT_CHARTED)
    # the report: the same rows, and an end mark per drawn line
    from app.report.costing import cost_chart
    from app.report.fonts import register_fonts

    register_fonts()

    drawing = cost_chart(cost_series(tco), tco.currency, 480.0)
    marks = [x for x in drawing.contents if isinstance(x, (Circle, Rect, Polygon))]
    series = cost_series(tco)
    along = [mark_months(i, len(series), len(v) - 1) for i, (_, v) in enumerate(series)]
    assert len(marks) == sum(map(len, along)) + len(series)  # the marks along the lines, one in each legend swatch
    assert all(len(set(a) & set(b)) == 0 for a, b in zip(along, along[1:]))  # two lines' marks never coincide
    assert [series_marker(i) for i in range(4)] == ["circle", "square", "triangle", "diamond"]


def test_the_cost_tab_marks_rows_it_does_not_draw(sized_example, qtbot):
    win = sized_example(NFS, 1366, 768)
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None and view.table.rowCount() > 5, timeout=10_000)
    table = view.table
    names = [table.item(r, 0).text() for r in range(table.rowCount())]
    totals = [table.item(r, 1).text() for r in range(table.rowCount())]
    icons = [not table.item(r, 0).icon().isNull() for r in range(table.rowCount())]
    drawn = {name for name, _ in view.series}
    assert names[0].endswith(NOT_CHARTED) and not icons[0]  # the design without a price
    for name, total, has_icon in zip(names[1:], totals[1:], icons[1:], strict=True):
        assert has_icon == (name in drawn), name
        assert total.endswith(NOT_CHARTED) == (name not in drawn), name
    assert any(total.endswith(NOT_CHARTED) for total in totals[1:])
    # each drawn line has its marks: a symbol-only item
    import pyqtgraph as pg

    marks = [item for item in view.plot.getViewBox().addedItems if isinstance(item, pg.ScatterPlotItem)]
    assert marks == view.marks and len(marks) == len(view.series) == len(view.plot.listDataItems())
    win.grab().save("/tmp/gfb55-cost.png")


def test_options_that_are_no_alternative_are_not_drawn_and_the_notes_say_why(sized_example, qtbot):
    # the DR example's NVMe/TCP: ANF and GCNV serve NFS / SMB only, FSx and Cloud Volumes ONTAP cannot carry its
    # I/O; they were drawn as cheaper lines below the design (review 57 GUI #11)
    win = sized_example(DR, 1366, 768)
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    qtbot.waitUntil(lambda: view.tco is not None and view.table.rowCount() > 5, timeout=10_000)
    tco = view.tco
    assert all(o.short_from_month == 1 for o in tco.options)
    assert view.plot.listDataItems() == [] and view.series == []
    table = view.table
    totals = [table.item(r, 1).text() for r in range(1, table.rowCount())]
    assert all(t.endswith(NOT_CHARTED) for t in totals)
    assert sum("(NFS/SMB only: no NVMe/TCP)" in t for t in totals) == 7
    assert sum("(cannot carry the I/O)" in t for t in totals) == len(tco.options) - 7
    notes = view.notes.text()
    assert ("The 11 options that do not serve the workloads' NVMe/TCP or cannot carry the workloads' I/O from the "
            "first month are listed, not charted: they are no alternative to this design") in notes
    view.grab().save("/tmp/costproto57/cost_dr.png")

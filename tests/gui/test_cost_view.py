"""The cost and carbon panel on a real example: it draws the design's cumulative cost and the cloud services
compared first (those that carry the workloads' I/O longest, from the cheapest) month by month as
``models.present.cost`` gives them, computed off the GUI thread; an input edited in the panel is one undo step and
moves the figures."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from models.costing.inputs import HOURS_PER_YEAR


@pytest.fixture
def example_window(qtbot):
    """A main window on the AFF8080 NFS example: its file workloads are served by the managed services, so the
    chart draws four options (the fixture's SQL Server example runs FCP, which the file-only services do not serve
    and the others cannot carry: no option is drawn there, review 57 #6)."""
    from conftest import _dispose, shown_window

    from app.gui.main_window import read_project
    from models.resources import examples_dir

    win = shown_window(qtbot, read_project(examples_dir() / "aff8080-nfs-file-services.toml"))
    yield win
    _dispose(win)


def _drawn(plot) -> list[tuple[str, list[float]]]:
    """(legend name, y values) of every curve on the plot, read back from pyqtgraph."""
    return [(item.name(), list(item.yData)) for item in plot.getPlotItem().listDataItems()]


def test_cost_panel_draws_the_cumulative_costs_and_follows_an_edit(example_window, qtbot):
    win = example_window
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    assert view is not None
    view.wait()
    tco = view.tco
    assert tco is not None
    # the chart is what the model gives: the first four cloud services of the comparison (those that carry the
    # workloads' I/O longest, each group from the cheapest); the design's hardware has no price (no price book),
    # so it is not drawn as if it cost only its power and space (REVIEW45 #2): the table lists it as "no price"
    drawn = _drawn(view.plot)
    assert [name for name, _ in drawn] == [name for name, _ in view.series]
    assert tco.design.name not in [name for name, _ in drawn] and len(drawn) == 4
    cheapest = sorted(tco.options, key=lambda o: (o.shortfall != (), -(o.short_from_month or 0), o.total))[:4]
    assert cheapest[0].name == tco.cheapest
    for (name, ys), option in zip(drawn, cheapest):
        assert name == option.name and ys == pytest.approx(list(option.cumulative()))
    # the design's monthly cost, independently: power x 730 h x PUE x price + U x 30 (no price book: no hardware)
    watts = tco.energy.power_w
    monthly = watts * HOURS_PER_YEAR / 12 / 1000 * 1.58 * 0.13 + tco.energy.rack_units * 30.0
    assert tco.design.cumulative()[-1] == pytest.approx(monthly * 36)
    assert view.table.item(0, 0).text() == f"{tco.design.name} (not charted)"
    assert view.table.item(0, 1).text().startswith(f"running costs only: {tco.design.total:,.0f} USD")
    # an edit in the panel: one undo step; the figures follow on the runner
    before = tco.design.cumulative()[-1]
    editor = view.form.editors["electricity_price_per_kwh"]
    with qtbot.waitSignal(view.sig_tco_shown, timeout=10_000):
        entry = editor.entry
        entry.setFocus()
        entry.lineEdit().selectAll()
        qtbot.keyClicks(entry.lineEdit(), "0.26")
        qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)
    assert win.document.project.requirements.running_costs.electricity_price_per_kwh == 0.26
    after = view.tco.design.cumulative()[-1]
    power_share = watts * HOURS_PER_YEAR / 12 / 1000 * 1.58 * 36
    assert after - before == pytest.approx(power_share * 0.13)
    win.document.undo_stack.undo()
    assert win.document.project.requirements.running_costs.electricity_price_per_kwh is None


def test_options_that_run_alike_stay_apart_by_line_style(example_window, qtbot):
    """Azure NetApp Files and Google Cloud NetApp Volumes at their top service levels cost within a few percent of
    each other month by month, so two charted options drew one line where the table lists two: each charted series
    has its own (colour, line style) pair, the table's swatch shows the same style, and the report's chart draws
    the same styles (``models.present.cost.series_dash``)."""
    from reportlab.graphics.charts.lineplots import LinePlot

    from app.gui.results.cost_view import PEN_STYLES
    from app.report.costing import DASH_ARRAYS, cost_chart
    from app.report.fonts import register_fonts
    from models.present.cost import series_dash

    win = example_window
    results = win.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    view.wait()
    items = view.plot.getPlotItem().listDataItems()
    assert len(items) == 4 and view.apart  # four cloud options, the unpriced design apart
    styles = [item.opts["pen"].style() for item in items]
    assert styles == [PEN_STYLES[series_dash(i, design_first=False)] for i in range(4)]
    assert len(set(styles)) == 4  # four options, four styles (the colours differ too)
    assert len({(item.opts["pen"].color().name(), item.opts["pen"].style()) for item in items}) == 4
    # the report: the same series, the same styles in the same order
    register_fonts()
    drawing = cost_chart(view.series, "USD", 480.0, design_first=False)
    plot = next(shape for shape in drawing.contents if isinstance(shape, LinePlot))
    assert [plot.lines[i].strokeDashArray for i in range(4)] == [DASH_ARRAYS[series_dash(i, False)] for i in range(4)]
    assert series_dash(0) == "solid" and series_dash(1) != "solid"  # a priced design keeps the solid line

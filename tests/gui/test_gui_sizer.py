"""Scenario → Size from Requirements: a requirement edit is one undo step; the search runs on the dialog's runner
and ranks candidates that meet; applying one adds it as the active scenario (undo removes it)."""

from __future__ import annotations

import re


def test_size_rank_and_apply_as_a_scenario(qtbot, example_window):
    win = example_window
    doc = win.document
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.form.sig_field_edited.emit("horizon_months", 24)
    assert doc.project.requirements.horizon_months == 24
    doc.undo_stack.undo()
    assert doc.project.requirements.horizon_months == 36
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert dialog.table.rowCount() >= 1 and dialog.table.item(0, 3).text() == "yes"
    scenarios_before = len(doc.project.scenarios)
    dialog.table.selectRow(0)
    name = dialog.apply_selected()
    assert name and doc.project.active_scenario == name and len(doc.project.scenarios) == scenarios_before + 1
    assert any(n.kind == "controller" for n in doc.project.scenario.nodes)
    doc.undo_stack.undo()
    assert len(doc.project.scenarios) == scenarios_before


def test_a_price_book_ranks_by_cost_the_chart_marks_the_front_and_two_candidates_compare(qtbot, example_window,
                                                                                        tmp_path):
    """Import a price book through the dialog (one undo step; a bad file is refused naming the line), size with
    progress, see the costs in the table and the Pareto front on the chart, then compare two candidates."""
    import pyqtgraph as pg

    win = example_window
    doc = win.document
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    bad = tmp_path / "bad.csv"
    bad.write_text("catalog_id,unit_price\nnetapp-aff-a20,lots\n", encoding="utf-8")
    dialog.import_prices(str(bad))
    qtbot.waitUntil(lambda: "refused" in dialog.prices_label.text(), timeout=10_000)
    assert "line 2: unit_price 'lots' is not a number" in dialog.prices_label.text()
    assert doc.project.price_book == []
    # the 2U systems sold today (A20-A50) with their internal bays and 1.9 TB drives priced in full, the A70 and the
    # ASA models not (the A800 once was the design priced in full: the sizer proposes it no more; review 56: the
    # A70's 4U chassis bays are in the controller's price, so the book leaves out the A70 itself)
    good = tmp_path / "prices.csv"
    good.write_text("catalog_id,unit_price,currency\nnetapp-aff-a20,41000,EUR\nnetapp-aff-a30,62000,EUR\n"
                    "netapp-aff-a50,90000,EUR\nnetapp-aff-a800,180000,EUR\n"
                    "netapp-ns224,9000,EUR\nnetapp-2u24-internal-nvme,0,EUR\nnetapp-nvme-ssd-1.92tb-tlc,1200,EUR\n",
                    encoding="utf-8")
    dialog.import_prices(str(good))
    qtbot.waitUntil(lambda: len(doc.project.price_book) == 7, timeout=10_000)
    assert "7 prices in EUR" in dialog.prices_label.text()
    doc.undo_stack.undo()
    assert doc.project.price_book == []
    doc.undo_stack.redo()
    dialog.run()
    assert dialog.progress.isVisible() and dialog.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    result = dialog.result
    assert result.currency == "EUR" and result.candidates
    cost_col = 4
    assert not dialog.table.isColumnHidden(cost_col)
    assert dialog.table.item(0, cost_col).text().startswith(f"{result.candidates[0].cost:,.0f} EUR")
    costs = [c.cost for c in result.candidates if not c.unpriced]
    for row, c in enumerate(result.candidates):  # a design with nothing in the book reads "not priced", not "0 EUR"
        text = dialog.table.item(row, cost_col).text()
        assert text == ("not priced" if c.unpriced and not c.cost else f"{c.cost:,.0f} EUR + unpriced parts"
                        if c.unpriced else f"{c.cost:,.0f} EUR")
    assert any(c.unpriced and c.cost for c in result.candidates)  # the ASA A50: its drives priced, not itself
    assert costs == sorted(costs)
    assert dialog.chart.getPlotItem().getAxis("bottom").labelText == "Cost (EUR)"
    # only a cost the book prices in full is a point on the cost axis; an incomplete one (unpriced parts) is listed
    full = {c.cost for c in result.evaluated if not c.unpriced}
    partial = [c for c in result.evaluated if c.unpriced]
    unpriced_ranks = [i + 1 for i, c in enumerate(result.candidates) if c.unpriced]
    assert full and partial and unpriced_ranks  # this price book leaves most platforms unpriced
    assert {x for x, _ in _chart_points(dialog)} <= full
    note = dialog.chart_note.text()
    assert dialog.chart_note.isVisible() and f"{len(partial):,} designs the price book does not price in full" in note
    assert f"ranks {', '.join(map(str, unpriced_ranks))} in the table" in note
    front = [c for c in result.evaluated if c.pareto and not c.unpriced]  # the front's charted points
    curves = [i for i in dialog.chart.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    assert front and any(len(c.getData()[0]) == len(front) for c in curves)
    dialog.table.selectRow(0)
    dialog.table.selectionModel().select(dialog.table.model().index(1, 0),
                                         dialog.table.selectionModel().SelectionFlag.Select
                                         | dialog.table.selectionModel().SelectionFlag.Rows)
    assert dialog.compare_button.isEnabled() and not dialog.apply_button.isEnabled()
    before = len(doc.project.scenarios)
    names = dialog.compare_selected()
    assert names and len(doc.project.scenarios) == before + 2
    assert win._compare_pair == names
    doc.undo_stack.undo()
    assert len(doc.project.scenarios) == before


def test_the_search_can_be_cancelled(qtbot, example_window):
    dialog = example_window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    dialog.cancel()
    assert dialog.size_button.isEnabled() and not dialog.cancel_button.isEnabled()
    assert dialog.message.text() == "Search cancelled."
    qtbot.wait(200)
    assert dialog.result is None  # a cancelled search delivers nothing


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_the_dialog_relates_the_ranking_to_the_design_in_the_report_s_sentences(qtbot, sized_example, monkeypatch):
    """The CVO example (an HA Cloud Volumes ONTAP design; ANF services rank first): under the ranked list the
    dialog says what the first ranked is, that the design meets and where it would rank, and which cheaper service
    ranks after the first; these are the sentences the PDF report's Recommendation prints for the same project
    (the report rendered from the window as File > Export Report does, its text read back from the PDF), from the
    window's own evaluation of the design (the search's worker does not evaluate it again)."""
    from example_reports import page_texts
    from PySide6.QtCore import QPoint, QRect

    import app.gui.screen_fit as screen_fit
    import models.evaluate
    from app.report import render_report_bytes

    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(0, 0, 1366, 768))
    win = sized_example("cvo-azure-ds14-ha-oltp.toml", 1366, 768)
    cached = win._evaluation_cache()
    assert win.document.project.scenario.name in cached  # the window's evaluation, handed to the search's worker
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    calls = []
    real = models.evaluate.evaluate
    monkeypatch.setattr(models.evaluate, "evaluate", lambda *a, **k: calls.append(a) or real(*a, **k))
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert not calls
    lines = dialog.relation_lines
    assert dialog.relation.isVisible() and len(lines) == 2
    assert dialog.relation.text().splitlines()[1:] == lines  # shown as they are, one per line, not shortened
    scroll = dialog.relation_scroll  # at 1366 x 768 every line is on view, below the list, without scrolling
    qtbot.waitUntil(lambda: dialog.relation.height() >= dialog.relation.heightForWidth(dialog.relation.width()))
    assert scroll.isVisible() and not scroll.verticalScrollBar().isVisible()
    top = scroll.mapTo(dialog, QPoint(0, 0))
    assert dialog.rect().contains(QRect(top, scroll.size()))
    assert top.y() >= dialog.table.mapTo(dialog, QPoint(0, dialog.table.height())).y()
    first = dialog.result.candidates[0].summary
    assert lines[0].startswith(f"First ranked: {first}, ")
    assert re.match(r"This report's design \(in the cloud, [\d,]+ USD over the horizon, 32 vCPUs\) meets every "
                    "stated requirement too", lines[1])
    assert "Cost is not one of this ranking's criteria" not in " ".join(lines)  # cloud designs rank on cost

    monkeypatch.undo()
    data = render_report_bytes(win.document.project, evaluation_cache=dict(cached), sizing=win._sizing_cache(),
                               catalog=win.document.base_catalog, validation=[])
    text = _squash("\n".join(page_texts(data)))
    start = text.index(" configurations from the catalog were considered against the requirements")
    section = text[start:text.index("Assumptions and sources", start)]
    assert _squash(" ".join(lines)) in section  # the same sentences, in the same order, nothing between them
    # ... and the report searched nothing itself: it shows the dialog's ranking, the first five rows
    assert all(_squash(c.summary) in section for c in dialog.result.candidates[:5])


def _chart_points(dialog) -> list[tuple[float, float]]:
    """Every point the sizer chart plots (the designs, the Pareto front, the ranked circles)."""
    import pyqtgraph as pg

    points = []
    for item in dialog.chart.getPlotItem().items:
        if isinstance(item, pg.ScatterPlotItem):
            points += [(p.pos().x(), p.pos().y()) for p in item.points()]
        elif isinstance(item, pg.PlotDataItem):
            xs, ys = item.getData()
            points += list(zip(xs, ys))
    return points


def _x_range(qtbot, dialog) -> tuple[float, float]:
    import math

    qtbot.wait(50)  # the view box ranges itself on the next event loop turn
    lo, hi = dialog.chart.getPlotItem().getViewBox().viewRange()[0]
    assert math.isfinite(lo) and math.isfinite(hi)
    return lo, hi


def _sized(qtbot, open_window, project):
    win = open_window(project)
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    return dialog


def test_cloud_only_results_are_charted_by_the_published_cost_they_rank_on(qtbot, open_window):
    """The CVO example ranks cloud configurations only (no rack units): the chart plots them against the total over
    the horizon at the providers' published prices that the ranking compares in the cloud (review 54 item 5; the
    engine's rank order holds it: deployment, rack units, watts, published total, vCPUs), on an axis that says so,
    over a finite range holding every point; the Cost column shows the same total."""
    from app.gui.main_window import read_project
    from models.resources import examples_dir

    dialog = _sized(qtbot, open_window, read_project(examples_dir() / "cvo-azure-ds14-ha-oltp.toml"))
    result = dialog.result
    assert result.currency is None and result.candidates
    assert {c.deployment for c in (*result.evaluated, *result.candidates)} == {"cloud"}
    assert dialog.chart.getPlotItem().getAxis("bottom").labelText == (
        "Cost over the horizon at the providers' published prices (USD)")
    points = _chart_points(dialog)
    costs = {c.order[3] for c in result.evaluated}  # the ranking's own figure, not the dialog's read-back
    assert {x for x, _ in points} == costs and len(costs) > 1
    ranked = {(float(c.order[3]), c.headroom_pct or 0.0) for c in result.candidates}
    assert ranked <= set(points)
    lo, hi = _x_range(qtbot, dialog)
    assert hi > lo and all(lo <= x <= hi for x, _ in points)
    assert not dialog.chart_note.isVisible()
    first = result.candidates[0]
    # ANF Premium as the cost comparison prices it, month by month (1 TiB, then 2 TiB as the data grows)
    assert first.summary == "Azure NetApp Files, Premium service level, 2 TiB provisioned"
    header = [dialog.table.horizontalHeaderItem(i).text() for i in range(dialog.table.columnCount())]
    cell = dialog.table.item(0, next(i for i, h in enumerate(header) if h.startswith("Cost"))).text()
    assert cell == f"{first.listed_cost:,.0f} USD over 36 months at published prices" == (
        "19,883 USD over 36 months at published prices")


def test_on_premises_results_still_chart_rack_units(qtbot, example_window):
    dialog = example_window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    result = dialog.result
    assert dialog.chart.getPlotItem().getAxis("bottom").labelText == "Rack units (U)"
    points = _chart_points(dialog)
    assert {x for x, _ in points} == {float(c.rack_units) for c in result.evaluated}
    assert all(c.rack_units > 0 for c in result.evaluated)
    lo, hi = _x_range(qtbot, dialog)
    assert hi - lo >= 1 and all(lo <= x <= hi for x, _ in points)
    assert not dialog.chart_note.isVisible()


def test_a_mixed_result_charts_rack_units_and_lists_the_cloud_options(qtbot, open_window):
    """Cloud first, then on-premises arrays: FSx for ONTAP ranks first (no rack units) and arrays of one height
    follow. The chart plots the arrays by rack units only (never the service at a fake 0 U), on a range around
    their one value, and says which ranks it leaves out."""
    from app.gui.main_window import read_project
    from models.resources import examples_dir

    project = read_project(examples_dir() / "cvo-azure-ds14-ha-oltp.toml")
    req = project.requirements.model_copy(update={"deployments": ["cloud", "on-prem"],
                                                  "families": ["ONTAP", "Amazon FSx for NetApp ONTAP"]})
    dialog = _sized(qtbot, open_window, project.model_copy(update={"requirements": req}))
    result = dialog.result
    cloud_ranks = [i + 1 for i, c in enumerate(result.candidates) if c.deployment == "cloud"]
    on_prem = [c for c in result.evaluated if c.deployment != "cloud"]
    assert cloud_ranks and on_prem
    assert dialog.chart.getPlotItem().getAxis("bottom").labelText == "Rack units (U)"
    points = _chart_points(dialog)
    assert {x for x, _ in points} == {float(c.rack_units) for c in on_prem} and 0.0 not in {x for x, _ in points}
    lo, hi = _x_range(qtbot, dialog)
    assert hi - lo >= 1 and all(lo <= x <= hi for x, _ in points)
    note = dialog.chart_note.text()
    assert dialog.chart_note.isVisible() and "listed, not charted" in note
    assert f"rank{'s' if len(cloud_ranks) > 1 else ''} {', '.join(map(str, cloud_ranks))} in the table" in note


def test_a_degenerate_x_axis_gets_a_range_around_its_one_value():
    from app.gui.sizer_dialog import chart_x_range

    assert chart_x_range([]) is None and chart_x_range([2.0, 3.0]) is None
    assert chart_x_range([0.0, 0.0]) == (0.0, 1.0)
    assert chart_x_range([2.0]) == (1.0, 3.0)
    assert chart_x_range([500.0]) == (450.0, 550.0)
    assert chart_x_range([-4.0]) == (-5.0, -3.0)


def test_ranks_at_nearly_one_point_share_a_label():
    from app.gui.sizer_dialog import rank_label_groups

    at = {(16.0, 100.0): [4, 5], (16.0, 103.0): [6], (16.0, 300.0): [7], (32.0, 100.0): [9], (0.0, 50.0): [1]}
    assert rank_label_groups(at, 5.0) == [((0.0, 50.0), [1]), ((16.0, 103.0), [4, 5, 6]), ((16.0, 300.0), [7]),
                                          ((32.0, 100.0), [9])]
    assert rank_label_groups(at, 0.0) == [((0.0, 50.0), [1]), ((16.0, 100.0), [4, 5]), ((16.0, 103.0), [6]),
                                          ((16.0, 300.0), [7]), ((32.0, 100.0), [9])]

"""Scenario → Size from Requirements: a requirement edit is one undo step; the search runs on the dialog's runner
and ranks candidates that meet; applying one adds it as the active scenario (undo removes it)."""

from __future__ import annotations


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
    good = tmp_path / "prices.csv"
    good.write_text("catalog_id,unit_price,currency\nnetapp-aff-a20,41000,EUR\nnetapp-aff-a30,62000,EUR\n"
                    "netapp-aff-a50,90000,EUR\nnetapp-aff-a70,140000,EUR\nnetapp-aff-a800,180000,EUR\n"
                    "netapp-ns224,9000,EUR\nnetapp-a800-internal-nvme,0,EUR\nnetapp-1500gb-nvme-ssd-a800,1200,EUR\n",
                    encoding="utf-8")
    dialog.import_prices(str(good))
    qtbot.waitUntil(lambda: len(doc.project.price_book) == 8, timeout=10_000)
    assert "8 prices in EUR" in dialog.prices_label.text()
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
    assert costs == sorted(costs)
    assert dialog.chart.getPlotItem().getAxis("bottom").labelText == "Cost (EUR)"
    front = [c for c in result.evaluated if c.pareto]
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

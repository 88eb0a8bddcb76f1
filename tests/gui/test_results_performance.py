"""PerformanceView: curves equal the engine's points, SLO and saturation lines sit where they should, the
bottleneck is highlighted, None reads as words, exports write what is shown."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage

from app.gui.results import PerformanceView
from app.gui.results._common import WARNING, fmt_iops, fmt_ms
from app.gui.results.performance_view import EMPTY_MESSAGE
from app.gui.results.samples import sample_evaluation, sample_performance, sample_workload
from models.evaluate import Evaluation
from models.performance.results import ScenarioPerformance
from models.problems import Problem


@pytest.fixture
def view(qtbot):
    widget = PerformanceView()
    qtbot.addWidget(widget)
    widget.resize(1200, 500)
    widget.show()
    return widget


def _summary(view: PerformanceView) -> list[list[str]]:
    model = view.summary_model
    return [[model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_curves_slo_and_saturation_lines(view):
    evaluation = sample_evaluation()
    view.set_evaluation(evaluation, "TiB")
    for workload in evaluation.performance.workloads:
        x, y = view.curve_item(workload.workload_id).getData()
        np.testing.assert_array_equal(x, [p.iops for p in workload.curve])
        np.testing.assert_array_equal(y, [p.latency_ms for p in workload.curve])
        slo = view.slo_line(workload.workload_id)
        assert slo.angle == 0 and slo.value() == pytest.approx(workload.slo_ms)
        saturation = view.saturation_line(workload.workload_id)
        assert saturation.angle == 90 and saturation.value() == pytest.approx(workload.saturation_iops)
        assert "saturation" in saturation.label.toPlainText()
    legend = [label.text for _, label in view.legend.items]
    assert [w.name for w in evaluation.performance.workloads] == legend[:2]
    first = evaluation.performance.workloads[0]
    marker_x, _ = view._max_slo_items[first.workload_id].getData()
    assert marker_x[0] == pytest.approx(first.max_iops_at_slo)
    op_x, op_y = view._operating_items[first.workload_id].getData()
    assert (op_x[0], op_y[0]) == pytest.approx((first.operating_iops, first.latency_at_target_ms))



def test_new_figures_for_the_same_workloads_match_a_fresh_chart(view, qtbot):
    """A re-evaluation with the same workloads moves the chart's items (no rebuild) to exactly where a fresh
    view draws them: curves, open-model tails, saturation lines and labels, markers, axis ranges."""
    first = sample_evaluation()
    view.set_evaluation(first, "TiB")
    curve_before = view.curve_item("w1")
    second = sample_evaluation(performance=sample_performance(
        sample_workload(saturation=520_000.0, base_ms=0.2),
        sample_workload("w2", "Log writes", saturation=150_000.0, base_ms=0.4, slo_ms=2.0, target_iops=None,
                        bottleneck="NVRAM mirror")))
    view.set_evaluation(second, "TiB")
    assert view.curve_item("w1") is curve_before  # updated in place
    fresh = PerformanceView()
    qtbot.addWidget(fresh)
    fresh.resize(1200, 500)
    fresh.show()
    fresh.set_evaluation(second, "TiB")
    for workload in second.performance.workloads:
        wid = workload.workload_id
        for mine, theirs in ((view.curve_item(wid), fresh.curve_item(wid)),
                             (view.open_curve_item(wid), fresh.open_curve_item(wid)),
                             (view._max_slo_items.get(wid), fresh._max_slo_items.get(wid)),
                             (view._operating_items.get(wid), fresh._operating_items.get(wid))):
            assert (mine is None) == (theirs is None)
            if mine is not None:
                for a, b in zip(mine.getData(), theirs.getData()):
                    np.testing.assert_allclose(a, b)
        assert view.saturation_line(wid).value() == pytest.approx(workload.saturation_iops)
        assert view.saturation_line(wid).label.toPlainText() == fresh.saturation_line(wid).label.toPlainText()
    np.testing.assert_allclose(view.plot.getViewBox().viewRange(), fresh.plot.getViewBox().viewRange())
    assert [label.text for _, label in view.legend.items] == [label.text for _, label in fresh.legend.items]
    renamed = sample_evaluation(performance=sample_performance(sample_workload(name="Renamed")))
    view.set_evaluation(renamed, "TiB")  # other workloads: drawn anew
    assert [label.text for _, label in view.legend.items][0] == "Renamed" and "w2" not in view._curve_items

def test_log_axes_keep_lines_in_place(view):
    evaluation = sample_evaluation()
    view.set_evaluation(evaluation, "TiB")
    view.log_x_check.setChecked(True)
    view.log_y_check.setChecked(True)
    workload = evaluation.performance.workloads[0]
    assert view.plot.plotItem.ctrl.logXCheck.isChecked() and view.plot.plotItem.ctrl.logYCheck.isChecked()
    assert view.slo_line(workload.workload_id).value() == pytest.approx(np.log10(workload.slo_ms))
    assert view.saturation_line(workload.workload_id).value() == pytest.approx(np.log10(workload.saturation_iops))


def test_bottleneck_bar_is_highlighted_and_bars_are_sorted(view):
    view.set_evaluation(sample_evaluation(), "TiB")
    bars = view.utilisation_bars()
    values = [value for _, value, _ in bars]
    assert values == sorted(values, reverse=True) and all(0 <= v <= 100 for v in values)
    assert [name for name, _, highlighted in bars if highlighted] == ["node 1 CPU"]
    brushes = view._util_item.opts["brushes"]
    assert brushes[0].color() == QColor(WARNING)
    assert all(b.color() != QColor(WARNING) for b in brushes[1:])
    view.select_workload("w2")
    assert [name for name, _, highlighted in view.utilisation_bars() if highlighted] == ["NVRAM mirror"]


def test_summary_table_says_saturated_and_not_met(view):
    saturated = sample_workload(target_iops=450_000.0, saturated_target=True, slo_met=False)
    view.set_evaluation(sample_evaluation(performance=sample_performance(saturated)), "TiB")
    (row,) = _summary(view)
    columns = dict(zip(view.SUMMARY_COLUMNS, row))
    assert columns["Latency @ target"] == "saturated"
    assert columns["Max IOPS @ SLO"] == "not met"
    assert columns["Saturation"] == "400K" and columns["Bottleneck"] == "node 1 CPU"
    view.set_evaluation(sample_evaluation(), "TiB")
    rows = {r[0]: dict(zip(view.SUMMARY_COLUMNS, r)) for r in _summary(view)}
    assert rows["SQL Server OLTP"]["Latency @ target"] == "0.62 ms"
    assert rows["SQL Server OLTP"]["Headroom"] == "+60%"
    assert rows["Log writes"]["Latency @ target"] == "no target"
    assert not any("nan" in cell or "inf" in cell for r in _summary(view) for cell in r)


def test_ramp_peak_is_shown_beside_the_max_iops_at_the_slo(qtbot):
    """The A800 NVMe/FC example: the ramp of 450 SLOB users peaks at ~2.2M IOPS (the seed's figure), while the
    max IOPS at the SLO comes from the open model beyond the ramp; both are in the table, each explained."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    evaluation = evaluate(load(examples_dir() / "a800-oracle-slob-nvmefc.toml"))
    w = evaluation.performance.workloads[0]
    end = w.curve[-1]
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    (row,) = _summary(view)
    columns = dict(zip(view.SUMMARY_COLUMNS, row))
    assert columns["Ramp peak"] == f"{fmt_iops(end.iops)} @ {fmt_ms(end.latency_ms)}"
    assert 2.0e6 < end.iops < 2.4e6 and w.max_iops_at_slo > end.iops
    assert columns["Max IOPS @ SLO"] == fmt_iops(w.max_iops_at_slo) + " (capped)"  # = saturation: the bound (r2 #8)
    k = view.SUMMARY_COLUMNS.index("Ramp peak")
    assert "outstanding I/Os" in view.summary_model.horizontalHeaderItem(k).toolTip()


def test_crosshair_reads_the_nearest_point(view, qtbot):
    evaluation = sample_evaluation()
    view.set_evaluation(evaluation, "TiB")
    qtbot.waitExposed(view)
    point = evaluation.performance.workloads[0].curve[10]
    view._on_mouse_moved((view.view_to_scene(point.iops, point.latency_ms),))
    assert view.readout_point == ("SQL Server OLTP", point)
    assert f"{point.iops / 1e3:.0f}K IOPS" in view.readout.text()
    assert f"{point.latency_ms:.2f} ms" in view.readout.text()


def test_csv_and_png_export(view, tmp_path):
    evaluation = sample_evaluation()
    view.set_evaluation(evaluation, "TiB")
    path = tmp_path / "curves.csv"
    view.export_csv(path)
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    expected = [(w.workload_id, p) for w in evaluation.performance.workloads for p in w.curve]
    assert len(rows) == len(expected)
    for row, (workload_id, point) in zip(rows, expected):
        assert row["workload_id"] == workload_id
        assert float(row["iops"]) == point.iops and float(row["latency_ms"]) == point.latency_ms
        assert float(row["mbps"]) == point.mbps and int(row["population"]) == point.population
    png = tmp_path / "latency.png"
    view.export_png(png)
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 800


def test_empty_and_failed_states(view):
    view.set_evaluation(None, "TiB")
    assert view.stack.currentWidget() is view.message and EMPTY_MESSAGE in view.message.text()
    view.set_evaluation(Evaluation("Base", None, ScenarioPerformance(), ()), "TiB")
    assert EMPTY_MESSAGE in view.message.text()
    failed = Evaluation("Base", None, None, (Problem("error", "performance engine failed: KeyError: 'x'"),))
    view.set_evaluation(failed, "TiB")
    assert "performance engine failed" in view.message.text()
    view.set_evaluation(sample_evaluation(), "TiB")
    view.set_stale(True, "link l3 is not connected")
    assert view.banner.isVisibleTo(view) and "link l3" in view.banner.text()
    assert view.stack.currentIndex() == 0


def _example_view(qtbot, example: str, with_states: bool = False):
    """(evaluation, view, first workload) of a bundled example shown in a PerformanceView (with its failure
    states when asked, as the GUI's worker adds them)."""
    from dataclasses import replace

    from models.evaluate import evaluate, evaluate_resilience
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / example)
    evaluation = evaluate(project)
    if with_states:
        evaluation = replace(evaluation, resilience=evaluate_resilience(project, evaluation))
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    return evaluation, view, evaluation.performance.workloads[0]


def test_open_model_continuation_is_drawn_dashed(qtbot):
    from PySide6.QtCore import Qt

    evaluation, view, wp = _example_view(qtbot, "vsan-sqlserver-raid5.toml")
    item = view.open_curve_item(wp.workload_id)
    assert item is not None
    xs, ys = item.getData()
    assert list(xs[1:]) == [p.iops for p in wp.open_curve]
    assert list(ys[1:]) == [p.latency_ms for p in wp.open_curve]
    assert item.opts["pen"].style() == Qt.PenStyle.DashDotLine


def test_cautions_show_under_the_summary(qtbot):
    """The AFF8080 example meets its 350K target 4% below saturation, on an HA pair that could not fail over:
    the view says so in words, under the table."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    evaluation = evaluate(load(examples_dir() / "aff8080-sqlserver-tpce.toml"))
    cautions = evaluation.performance.workloads[0].cautions()
    assert len(cautions) == 2
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    assert not view.cautions_label.isHidden()
    text = view.cautions_label.text()
    assert all(c.split(":")[0] in text for c in cautions) and "failover" in text
    view.set_evaluation(sample_evaluation(), "TiB")
    assert view.cautions_label.isHidden() == (not any(w.cautions() for w in view.workloads))


def test_a_throughput_target_reads_in_mb_per_s_too(qtbot):
    """The EF550 example's target was entered as 2,500 MB/s of 256 KiB I/O: the table shows 9.5K IOPS and
    2,500 MB/s; an 8 KiB OLTP target stays in IOPS only."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate(load(examples_dir() / "ef550-sas-analytics.toml")), "TiB")
    (row,) = _summary(view)
    assert dict(zip(view.SUMMARY_COLUMNS, row))["Target"] == "9.5K (2,500 MB/s)"
    view.set_evaluation(evaluate(load(examples_dir() / "aff8080-sqlserver-tpce.toml")), "TiB")
    (row,) = _summary(view)
    assert dict(zip(view.SUMMARY_COLUMNS, row))["Target"] == "350K"


def test_uncertainty_band_is_shaded_between_p10_and_p90(qtbot):
    """The vSAN example's assumed profile has a wide band: the chart shades it between the engine's P10 and P90
    latencies of each curve point, the legend names it, and its tooltip says it is not an I/O percentile."""
    evaluation, view, wp = _example_view(qtbot, "vsan-sqlserver-raid1.toml")
    band = view.band_item(wp.workload_id)
    assert band is not None
    low, high, _ = view._band_items[wp.workload_id]
    xs, lo = low.getData()
    _, hi = high.getData()
    # the points' own figures up to where the band's upper edge meets the SLO (its last point, interpolated there:
    # the band reads as a band around the curve, not a block up to the chart's top, REVIEW54 #7)
    points = [*wp.curve, *wp.open_curve][:len(xs) - 1]
    assert list(xs[:-1]) == [p.iops for p in points]
    assert list(lo[:-1]) == [p.latency_band_p10_ms for p in points]
    assert all(h >= p.latency_ms for h, p in zip(hi, points)) and any(h > p.latency_ms for h, p in zip(hi, points))
    assert max(hi) <= wp.slo_ms + 1e-12
    assert any(label.text.startswith("uncertainty") for _, label in view.legend.items)
    assert "not I/O latency percentiles" in band.toolTip()


def test_failure_states_are_drawn_and_their_verdicts_said(qtbot):
    """The AFF8080 example with its failure states (as the GUI's worker adds them): each state's curve is drawn
    dotted with a legend entry, and the view says per state whether the SLO holds at the target (takeover: no)."""
    evaluation, view, wp = _example_view(qtbot, "aff8080-sqlserver-tpce.toml", with_states=True)
    takeover = evaluation.resilience.states[wp.workload_id][0]
    item = view.state_curve_item(wp.workload_id, "takeover")
    assert item is not None
    xs, _ = item.getData()
    assert list(xs)[:3] == [p.iops for p in takeover.performance.curve][:3]
    legend = [label.text for _, label in view.legend.items]
    assert "takeover" in legend  # one workload: the state alone names its curve
    text = view.resilience_label.text()
    assert "SLO missed in takeover (saturated)" in text and "Runway" in text and "full: 39 months" in text
    assert "required" in text and "✗</span> SLO in takeover" in text
    assert "Missed: TPC-E-like OLTP (SQL Server): the 1 ms SLO at 350,000 IOPS in takeover (required): missed, " \
           "saturated." in view.resilience_label.toolTip()
    assert "meets the 1 ms SLO at 350K IOPS in takeover: no, saturated" in view.resilience_label.toolTip()


def test_clicking_a_performance_figure_explains_it(qtbot):
    """Click the saturation cell: the explanation gives the formula with the bottleneck's utilisation at the
    operating point (X / U reproduces the saturation), the band and the profile; a utilisation bar explains its
    station."""
    from models.formatting import fmt_iops

    evaluation, view, wp = _example_view(qtbot, "aff8080-sqlserver-tpce.toml")
    column = PerformanceView.SUMMARY_COLUMNS.index("Saturation")
    view.summary_table.clicked.emit(view.summary_model.index(0, column))
    text = view.explanation_text.toPlainText()
    bottleneck = next(s for s in wp.stations if s.name == wp.bottleneck)
    assert view.explanation.isVisible() and "Saturation = (queues × servers) / D" in text
    assert fmt_iops(wp.operating_iops / bottleneck.utilization) == fmt_iops(wp.saturation_iops)
    assert f"= {fmt_iops(wp.saturation_iops)} IOPS" in text
    assert "Profile: calibrated" in text and "not I/O latency percentiles" in text
    view.explain_station("node 1 CPU")
    assert "utilisation U = X × D / (queues × servers)" in view.explanation_text.toPlainText()


def test_the_chart_exports_as_svg_with_its_series(qtbot, tmp_path):
    """An SVG export is well-formed XML holding the curve as a path (a vector drawing for documents)."""
    import xml.etree.ElementTree as ET

    _evaluation, view, _wp = _example_view(qtbot, "aff8080-sqlserver-tpce.toml")
    target = tmp_path / "latency.svg"
    view.export_png(target)
    root = ET.parse(target).getroot()
    assert root.tag.endswith("svg")
    assert len([e for e in root.iter() if e.tag.endswith("path")]) >= 3  # curve, band edges, lines


def test_the_utilisation_chart_exports_as_svg_with_its_station_names(qtbot, tmp_path):
    import xml.etree.ElementTree as ET

    _evaluation, view, wp = _example_view(qtbot, "aff8080-sqlserver-tpce.toml")
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    target = tmp_path / "utilisation.svg"
    view.export_utilisation(target)
    root = ET.parse(target).getroot()
    texts = " ".join((e.text or "") for e in root.iter() if e.tag.endswith("text"))
    assert wp.bottleneck in texts
    menu = view.export_png_button.menu()
    assert [a.text() for a in menu.actions()] == ["Latency chart…", "Utilisation chart…"]


def test_the_runway_link_opens_a_chart_whose_capacity_line_crosses_100_at_months_until_full(qtbot, tmp_path):
    import pyqtgraph as pg

    evaluation, view, wp = _example_view(qtbot, "aff8080-sqlserver-tpce.toml", with_states=True)
    assert "href='runway'" in view.resilience_label.text()
    view.resilience_label.linkActivated.emit("runway")
    dialog = view.runway_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.addWidget(dialog)
    full = evaluation.resilience.months_until_full
    series = dict(dialog.series)
    capacity = series["capacity used / usable"]
    total = evaluation.capacity.total
    assert capacity[0][1] == pytest.approx(100 * total.physical_used_bytes / total.usable_bytes)
    below = [m for m, v in capacity if v < 100.0]
    assert max(below) < full <= max(below) + 1  # crosses 100% in the month the capacity engine says it is full
    curves = [i for i in dialog.plot.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    # one curve per series, and the capacity band's two edges (P10 / P90 data-reduction ratio) when it has width
    assert len(curves) == len(dialog.series) + (2 if dialog.band else 0)
    target = tmp_path / "runway.svg"
    dialog.export(target)
    assert target.stat().st_size > 1000


def test_a_target_needing_more_outstanding_ios_than_stated_shows_its_caution_under_the_verdict(qtbot):
    """Review r4 item 4: the vSAN RAID1 example meets 120K IOPS at 1.04 ms, which by Little's law needs 120,000 x
    1.04e-3 = 125 outstanding I/Os; the workload states 64. The view says so under the verdict (a caution: the
    storage meets the target, the workload as stated cannot offer it)."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    evaluation = evaluate(load(examples_dir() / "vsan-sqlserver-raid1.toml"))
    wp = evaluation.performance.workloads[0]
    assert round(wp.target_iops * wp.latency_at_target_ms / 1e3) == 125 and wp.concurrency == 64
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    # review 57: the workload's own line is the caution (it read ✓ beside "⚠ needs 125 outstanding I/Os"): met when
    # offered, not reached at the stated concurrency
    text = view.verdict_label.text()
    assert "✓" not in text and "⚠" in text and "✗" not in text
    assert ("120K IOPS at 1.04 ms, within the 5.00 ms SLO when offered" in text
            and "not reached at the stated concurrency: the workload's 64 outstanding I/Os reach only 60K IOPS, the "
                "target needs 125 (120K IOPS x 1.04 ms, Little's law)" in text)
    assert "outstanding" not in view.cautions_label.text()  # said once


def test_required_takeover_at_the_grown_target_says_so(qtbot):
    """The "Bad day" line gives each state at today's target; the SLO-in-takeover requirement is judged at the
    target grown over the horizon (AFF A70 example: 549,250 IOPS, 250,000 today), so its mark says "at the grown
    target" and a "SLO met in takeover" beside "✗ SLO in takeover" cannot read as a contradiction."""
    evaluation, view, wp = _example_view(qtbot, "aff-a70-ns224-oracle-nvmetcp.toml", with_states=True)
    check = next(c for c in evaluation.resilience.requirement_checks if c.requirement == "slo_in_takeover")
    assert "549,250 IOPS, the target grown over the 36-month horizon (250,000 today)" in check.text
    text = view.resilience_label.text()
    assert "</span> SLO in takeover at the target grown over 36 months" in text  # its horizon (review 57)
    assert "SLO met in takeover (" in text  # today's target, as the line's states give it


def test_a_requirement_of_several_workloads_is_one_mark(qtbot):
    """Two workloads on the A70 example, both required to meet their SLO in takeover at the grown target: the
    "required" part of the line gives the requirement once with its count ("(all 2)"), not the same mark twice;
    the tooltip keeps one sentence per workload."""
    from dataclasses import replace

    from models.evaluate import evaluate, evaluate_resilience
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    first = project.scenario.workloads[0]
    twin = first.with_changes(id="twin", name="Second OLTP", target_iops=(first.target_iops or 0) / 5)
    project = project.with_scenario(project.scenario.with_changes(workloads=[first, twin]))
    evaluation = evaluate(project)
    evaluation = replace(evaluation, resilience=evaluate_resilience(project, evaluation))
    checks = [c for c in evaluation.resilience.requirement_checks if c.requirement == "slo_in_takeover"]
    assert len(checks) == 2 and all(c.met for c in checks)
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    text = view.resilience_label.text()
    assert text.count("SLO in takeover at the target grown over 36 months") == 1
    assert "SLO in takeover at the target grown over 36 months (all 2)" in text
    assert view.resilience_label.toolTip().count("in takeover (required): met") == 2

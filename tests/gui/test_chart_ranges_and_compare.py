"""Charts and comparison: one colour per scenario, "no target" in words, axes that show the ramp's peak, and a
saturated target's utilisation at saturation with its shortfall in words."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtGui import QColor
from test_present_charts import evaluate_example  # pytest puts tests/ on sys.path (the rootdir conftest)

from app.gui.results import CompareView, PerformanceView
from app.gui.results.compare_view import SCENARIO_COLORS
from app.gui.results.samples import sample_evaluation, sample_performance, sample_workload
from models.formatting import fmt_iops


def _rows(view) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for row in view.row_texts():
        if len(row) == 4:
            rows.setdefault(row[0].strip(), row)
    return rows


def test_compare_says_no_target_for_a_scenario_without_one(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    left = sample_evaluation("With target", performance=sample_performance(sample_workload()))
    right = sample_evaluation("Without target", performance=sample_performance(sample_workload(target_iops=None)))
    view.set_evaluations(left, right, "TiB")
    rows = _rows(view)
    assert rows["latency @ target"][1:3] == ["0.62 ms", "no target"]
    assert "saturated" not in rows["latency @ target"]


def test_compare_gives_each_scenario_its_own_colour_and_overlapping_curves_stay_visible(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    same = sample_evaluation("Base")
    view.set_evaluations(same, dataclasses.replace(same, scenario="Copy of Base"), "TiB")
    for name in ("SQL Server OLTP", "Log writes"):
        left, right = view.curve_items[("left", name)], view.curve_items[("right", name)]
        assert left.opts["pen"].color() == QColor(SCENARIO_COLORS[0])
        assert right.opts["pen"].color() == QColor(SCENARIO_COLORS[1])
        # identical curves: the right one is drawn narrower, dashed and on top, so the left shows around it
        assert (left.getData()[1] == right.getData()[1]).all()
        assert right.opts["pen"].widthF() < left.opts["pen"].widthF()
        assert right.zValue() > left.zValue()
    assert QColor(SCENARIO_COLORS[0]) != QColor(SCENARIO_COLORS[1])
    legend = [label.text for _sample, label in view.legend.items]
    assert legend[:2] == ["Base", "Copy of Base"]
    assert SCENARIO_COLORS[0] in view.title.text() and SCENARIO_COLORS[1] in view.title.text()


def test_compare_axis_shows_an_18_ms_peak_above_a_1_ms_slo(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    steep = sample_workload(base_ms=0.8, slo_ms=1.0, target_iops=None)
    peak = steep.curve[-1].latency_ms
    assert peak > 18.0  # the sample curve's ramp ends at ~18 ms
    left = sample_evaluation("A", performance=sample_performance(steep))
    right = sample_evaluation("B", performance=sample_performance(sample_workload(target_iops=None)))
    view.set_evaluations(left, right, "TiB")
    (_x0, x1), (_y0, y1) = view.plot.getViewBox().viewRange()
    assert y1 >= peak  # the old rule stopped at 4 x the 1 ms SLO
    assert x1 >= steep.saturation_iops


def test_performance_axis_shows_the_azure_peak(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    evaluation = evaluate_example("cvo-azure-ds4-ha-oltp.toml", slo_ms=1.0)
    view.set_evaluation(evaluation)
    w = evaluation.performance.workloads[0]
    peak = max(p.latency_ms for p in w.curve)
    (_x0, x1), (_y0, y1) = view.plot.getViewBox().viewRange()
    assert peak > 4.0 and y1 >= peak
    assert x1 >= w.saturation_iops


def test_performance_chart_names_an_slo_far_above_the_curve(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    evaluation = evaluate_example("ef550-sas-analytics.toml")
    view.set_evaluation(evaluation)
    (_x0, _x1), (_y0, y1) = view.plot.getViewBox().viewRange()
    assert y1 < 5.0  # the sub-millisecond curve fills the chart (not 2% of a 54 ms axis)
    assert view._slo_note.scene() is view.plot.scene()
    assert view._slo_note.textItem.toPlainText().startswith("SLO 50.0 ms: far above this chart")


def test_a_saturated_target_shows_utilisation_at_saturation_and_its_shortfall(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    view.resize(1200, 700)
    evaluation = evaluate_example("aff8080-sqlserver-tpce.toml", target_iops=700_000.0)
    view.set_evaluation(evaluation)
    w = evaluation.performance.workloads[0]
    title = view.util_title.text()
    sat = fmt_iops(w.saturation_iops)
    short = 700_000.0 - w.saturation_iops
    assert "(saturation)" in title and f"{sat} IOPS" in title
    assert (f"The target of 700K IOPS is beyond saturation at {sat} IOPS: {fmt_iops(short)} IOPS "
            f"({short / 700_000.0:.0%} of the target) short") in title
    bars = view.utilisation_bars()
    assert bars[0][1] == pytest.approx(100.0) and bars[0][2]  # the bottleneck at 100%, highlighted
    assert any(value < 50 for _name, value, _b in bars)  # the others at their share, not all at 100%
    assert w.operating_iops == pytest.approx(w.saturation_iops)


def test_a_met_target_keeps_its_title(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate_example("aff8080-sqlserver-tpce.toml"))
    assert "(target)" in view.util_title.text() and "beyond saturation" not in view.util_title.text()


def test_an_slo_far_above_the_curve_has_an_arrow_at_the_top_edge(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate_example("spinning192-sas-analytics.toml"))
    (x0, x1), (_y0, y1) = view.plot.getViewBox().viewRange()
    curve = [p.latency_ms for w in view._workloads for p in w.curve]
    assert max(curve) < y1 < 5.0  # the 1.3-1.5 ms ramp fills the chart, not 3% of a 50 ms axis
    assert view._slo_arrow.scene() is view.plot.scene()
    assert view._slo_arrow.pos().y() == y1 and x0 < view._slo_arrow.pos().x() < view._slo_note.pos().x()
    assert view._slo_note.textItem.toPlainText() == "SLO 50.0 ms: far above this chart (its highest point 1.75 ms)"
    view.set_evaluation(evaluate_example("aff8080-sqlserver-tpce.toml"))  # its SLO on the chart: no arrow
    assert view._slo_arrow.scene() is None

"""The screen's latency chart and the report's draw the same P10-P90 band (``models.present.charts.band_outline``,
REVIEW54 #7): on the A70's 1 ms mean SLO it ends at the SLO at the band's P10 max IOPS at the SLO, 609K (it ended
at the last curve point below it, 594K at 0.36 ms, a wall the eye did not read as the SLO), and on a p99 SLO the
mean's band rises through the chart's top at its P10 saturation, 611K, and ends (it covered the chart from there
to the right edge)."""

from __future__ import annotations

import pytest

from app.gui.results.performance_view import PerformanceView

A70 = "aff-a70-ns224-oracle-nvmetcp.toml"


def _view(qtbot, statistic: str = "mean"):
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / A70)
    if statistic != "mean":
        project = project.model_copy(update={"requirements": project.requirements.with_changes(
            slo_statistic=statistic)})
    evaluation = evaluate(project)
    view = PerformanceView()
    qtbot.addWidget(view)
    view.resize(1300, 700)
    view.show()
    view.set_evaluation(evaluation, "TiB")
    return view, evaluation.performance.workloads[0]


def test_the_screen_band_meets_the_slo_at_the_p10_max_iops_as_the_report_draws_it(qtbot):
    from app.report.graphics import latency_chart_band

    view, wp = _view(qtbot)
    low, high, _fill = view._band_items[wp.workload_id]
    xs, hi = (list(v) for v in high.getData())
    assert xs[-1] == pytest.approx(wp.max_iops_at_slo_band_p10, rel=1e-9) == pytest.approx(609_450, rel=0.001)
    assert hi[-1] == pytest.approx(wp.slo_ms)  # the edge reaches the SLO line where the band ends
    assert max(hi[:-1]) < 0.4  # before it, the engine's own P90s (0.36 ms at 594K)
    paper = latency_chart_band(wp)
    assert xs == pytest.approx(list(paper.iops)) and hi == pytest.approx(list(paper.p90_ms))
    assert list(low.getData()[1]) == pytest.approx(list(paper.p10_ms))


def test_on_a_p99_slo_the_screen_band_ends_at_its_p10_saturation(qtbot):
    view, wp = _view(qtbot, "p99")
    _low, high, _fill = view._band_items[wp.workload_id]
    xs, hi = (list(v) for v in high.getData())
    assert xs[-1] == pytest.approx(wp.saturation_iops_band_p10, rel=1e-9)
    assert xs[-1] < 0.5 * wp.saturation_iops  # not on to the 1.60M saturation at the chart's top
    top = view.plot.getViewBox().viewRange()[1][1]
    assert hi[-1] > top  # the wall goes through the chart's top

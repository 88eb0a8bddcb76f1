"""Review 57 (second GUI pass) on the latency chart's drawing: the y range capped where one workload's ramp peak
flattened every other curve, with an arrow for what is above; one label pass (no label on another); the band's
legend words and colour; a p99 line leaving the chart's top named by one rule."""

from __future__ import annotations

import pytest
from pyqtgraph import TextItem
from PySide6.QtGui import QColor

from app.gui.results.performance_view import PerformanceView
from models.evaluate import evaluate
from models.formatting import format_iops
from models.present.charts import MARGIN
from models.resources import examples_dir
from models.store import load_any


def _tpce_600k():
    """The AFF8080 TPC-E example with a second TPC-E-like workload and the first's target at 600K IOPS: the second
    saturates at 378 IOPS and its ramp peaks at ~1,397 ms (review 57 #2)."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    scenario = project.scenario
    first = scenario.workloads[0]
    second = first.model_copy(update={"id": first.id + "-2", "name": first.name + " (2)"})
    workloads = [first.model_copy(update={"target_iops": 600_000.0}), second]
    project = project.with_scenario(scenario.model_copy(update={"workloads": workloads}))
    return evaluate(project, project.active_scenario)


def _view(qtbot, evaluation, width=900, height=560) -> PerformanceView:
    view = PerformanceView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    view.set_evaluation(evaluation)
    qtbot.wait(100)
    view.grab()  # painted: each TextItem at its anchor
    return view


def _texts(view) -> list[TextItem]:
    """Every text shown on the latency chart: SLO and saturation line labels, the SLO note, the edge marks."""
    items = [line.label for line in (*view._slo_lines.values(), *view._saturation_lines.values())]
    items += [view._slo_note, *(i for i in view._edge_marks if isinstance(i, TextItem))]
    return [i for i in items if i.scene() is not None and i.isVisible() and i.toPlainText()]


def _apart(view) -> None:
    view.grab()
    rects = [(t.toPlainText(), t.sceneBoundingRect()) for t in _texts(view)]
    for k, (a, ra) in enumerate(rects):
        for b, rb in rects[k + 1:]:
            assert not ra.intersects(rb), (a, ra, b, rb)


def test_one_saturated_workload_does_not_flatten_the_chart(qtbot):
    evaluation = _tpce_600k()
    first, second = evaluation.performance.workloads
    peak = max(p.latency_ms for p in second.curve)
    assert second.saturation_iops < 400 and peak > 1000  # the case: 378 IOPS, ~1,397 ms
    view = _view(qtbot, evaluation)
    y1 = view.plot.getViewBox().viewRange()[1][1]
    assert y1 <= 5 * first.slo_ms * MARGIN + 1e-9  # was ~1,500 ms: every other curve flat at 0
    texts = [t.toPlainText() for t in _texts(view)]
    from models.formatting import fmt_ms
    assert f"ramp peak {fmt_ms(peak)} ↑" in texts  # what is above, named at the top edge
    # the saturation label says its unit ("saturation 378 (P10–P90 266–537)" had none)
    # (on two lines where the one line would cover a curve: the same words)
    label = view.saturation_line(second.workload_id).label.toPlainText().replace("\n", " ")
    low, high = second.saturation_iops_band_p10, second.saturation_iops_band_p90
    assert label == f"saturation {format_iops(second.saturation_iops)} IOPS (P10–P90 {format_iops(low)}–" \
                    f"{format_iops(high)})"
    _apart(view)


@pytest.mark.parametrize("log_y", [False, True])
def test_two_workloads_labels_never_overlap(qtbot, log_y):
    view = _view(qtbot, _tpce_600k())
    view.log_y_check.setChecked(log_y)
    qtbot.wait(50)
    _apart(view)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_a90s_p99_arrow_and_the_far_slo_note_are_apart(qtbot, sized_example, size):
    win = sized_example("aff-a90-oracle-nvmefc64.toml", *size)
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    qtbot.waitUntil(lambda: win.worker.last_outcome is not None
                    and win.worker.last_outcome.evaluation.resilience is not None, timeout=60_000)
    qtbot.wait(200)
    texts = [t.toPlainText() for t in _texts(view)]
    assert any(t.startswith("SLO 1.00 ms: far above") for t in texts)
    assert any(t.startswith("p99 ") and t.endswith("↑") for t in texts)
    _apart(view)


@pytest.mark.parametrize(("example", "arrow"), [("fas70-ds460c-nlsas-nfs.toml", True),
                                                ("anf-premium-oracle-nfs.toml", False)])
def test_a_p99_line_leaving_the_top_early_has_an_arrow(qtbot, example, arrow):
    """One rule (review 57 #12): a p99 line leaving the top well before its mean curve does (FAS70: ~36K of the
    mean's ~95K) gets "p99 ↑" as the A90's does; one leaving with its mean at saturation (ANF, 33K: what left the
    top at ~27K there is the band's upper edge) is the saturation line's to say."""
    evaluation = evaluate(*(lambda p: (p, p.active_scenario))(load_any(examples_dir() / example)))
    view = _view(qtbot, evaluation)
    w = view.workloads[0]
    top = view.plot.getViewBox().viewRange()[1][1]
    xs, ys = view.p99_item(w.workload_id).getData()
    leaves = next(x for x, y in zip(xs, ys) if y > top)
    mean_leaves = next((p.iops for p in (*w.curve, *w.open_curve) if p.latency_ms > top), w.saturation_iops)
    assert (leaves < 0.5 * mean_leaves) == arrow and (leaves > 0.95 * mean_leaves) != arrow
    assert ("p99 ↑" in [t.toPlainText() for t in _texts(view)]) == arrow
    _apart(view)


def test_the_band_legend_names_its_range_in_the_bands_colour(qtbot):
    evaluation = evaluate(*(lambda p: (p, p.active_scenario))(load_any(examples_dir() /
                                                                       "aff-a70-ns224-oracle-nvmetcp.toml")))
    view = _view(qtbot, evaluation)
    w = view.workloads[0]
    entry = next((sample, label) for sample, label in view.legend.items if "P10–P90" in label.text)
    assert entry[1].text == (f"SLO P10–P90: {format_iops(w.max_iops_at_slo_band_p10)}–"
                             f"{format_iops(w.max_iops_at_slo_band_p90)}")
    assert not entry[1].text.startswith("uncertainty")  # which P10–P90 it is: the saturation label has its own
    swatch = QColor(entry[0].item.opts["brush"].color())
    band = QColor(view.band_item(w.workload_id).brush().color())
    assert (swatch.red(), swatch.green(), swatch.blue(), swatch.alpha()) == \
        (band.red(), band.green(), band.blue(), band.alpha())


def test_the_utilisation_axis_is_whole_under_a_beyond_saturation_note(qtbot, two_workload_chart):
    """Review 57 #10: with the red three-line note of a target beyond saturation the utilisation chart's box was
    taller than the charts' row, so its axis ("50% 100%") was cut off at the bottom."""
    _win, view = two_workload_chart("aff8080-sqlserver-tpce.toml", 1366, 768)
    assert "beyond saturation" in view.util_title.text()
    box = view.util_plot.parentWidget()
    assert box.height() <= view.charts_splitter.height()
    axis = view.util_plot.getAxis("bottom")
    bottom = axis.mapRectToScene(axis.boundingRect()).bottom()
    assert view.util_plot.geometry().top() + bottom <= box.height() + 1

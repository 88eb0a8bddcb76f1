"""Review 57 on the Performance tab (real widgets): the verdict of a target the stated concurrency cannot offer, the
saturation line's P10-P90 band, and the MetroCluster's bad-day words (a missed grown-target requirement with its
figures; a switchover saturation that is the engine's clamp, 0.1% of a capacity, said in words)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.gui.results.performance_view import PerformanceView
from models.evaluate import evaluate, evaluate_resilience
from models.formatting import fmt_iops
from models.project import load
from models.resources import examples_dir

MCC = "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"


def _view(qtbot, example: str, target: float | None = None):
    project = load(examples_dir() / example)
    if target is not None:
        scenario = project.scenario
        project = project.with_scenario(scenario.model_copy(update={"workloads": [
            w.with_changes(target_iops=target) for w in scenario.workloads]}))
    evaluation = evaluate(project)
    evaluation = replace(evaluation, resilience=evaluate_resilience(project, evaluation))
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluation, "TiB")
    return project, evaluation, view, evaluation.performance.workloads[0]


def test_vsan_stretched_verdict_is_amber_with_little_and_the_pessimistic_band(qtbot):
    _project, _evaluation, view, wp = _view(qtbot, "vsan8-esa-stretched-4x4-sqlserver-oltp.toml")
    text = view.verdict_label.text()
    assert "✓" not in text and "⚠" in text  # it read "✓ … 300K IOPS at 1.13 ms" beside "⚠ needs 340 …"
    assert "not met – " not in text  # "uncertainty P10–P90 not met – 2.39M"
    assert (f"uncertainty P10–P90: pessimistic case misses the SLO at every load; optimistic up to "
            f"{fmt_iops(wp.max_iops_at_slo_band_p90)}") in text
    assert "256 outstanding I/Os reach only 190K IOPS, the target needs 340" in text
    assert 300_000 * wp.latency_at_target_ms / 1e3 == pytest.approx(340, abs=0.5)  # Little's law
    assert "outstanding" not in view.cautions_label.text()  # said once


def test_the_saturation_line_gives_its_band(qtbot):
    _project, _evaluation, view, wp = _view(qtbot, "fas70-ds460c-nlsas-nfs.toml")
    label = view.saturation_line(wp.workload_id).label.toPlainText()
    low, high = wp.saturation_iops_band_p10, wp.saturation_iops_band_p90
    assert low < wp.saturation_iops < high
    assert label == f"saturation {fmt_iops(wp.saturation_iops)} IOPS (P10–P90 {fmt_iops(low)}–{fmt_iops(high)})"
    assert label == "saturation 85K IOPS (P10–P90 32K–225K)"  # 98K before Flash Cache kept only what was read


def test_a_missed_grown_takeover_requirement_names_its_target_horizon_and_saturation(qtbot):
    project, evaluation, view, wp = _view(qtbot, MCC, target=480_000)
    workload = project.scenario.workloads[0]
    horizon = project.requirements.horizon_months
    grown = 480_000 * (1 + workload.iops_growth_pct_per_year / 100) ** (horizon / 12)
    takeover = next(s for s in evaluation.resilience.states[wp.workload_id] if s.state == "takeover")
    assert takeover.meets_slo and grown > takeover.performance.saturation_iops  # met today, not at the grown target
    text = view.resilience_label.text()
    assert "SLO met in takeover (" in text
    assert (f"SLO in takeover at the target grown over {horizon} months ({fmt_iops(grown)} IOPS &gt; takeover "
            f"saturation {fmt_iops(takeover.performance.saturation_iops)})") in text
    assert "(1.05M IOPS &gt; takeover saturation 800K)" in text  # 480K x 1.3^3; one node of the 1.6M pair
    assert "at the grown target" not in text


def test_a_switchover_saturated_by_the_other_sites_load_says_so_not_a_clamp_figure(qtbot):
    _project, evaluation, view, wp = _view(qtbot, MCC, target=3_200_000)
    switchover = next(s for s in evaluation.resilience.states[wp.workload_id] if s.state == "switchover")
    clamp = switchover.performance.saturation_iops
    assert clamp == pytest.approx(1.6e6 * 0.001)  # the engine's 0.999 background cap: not a capacity
    item = view.state_curve_item(wp.workload_id, "switchover")
    assert item is not None
    tip = item.toolTip()
    assert "Saturated: the surviving site's own load alone exceeds its limit in this state." in tip
    assert fmt_iops(clamp) not in tip and "Saturation in this state" not in tip

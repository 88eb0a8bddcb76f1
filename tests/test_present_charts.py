"""Words and axis ranges for what a number cannot say: no target, a target beyond saturation, an SLO far above
the curve; the latency chart's axes show the SLO crossing, the knee and the ramp's peak."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.performance.results import CurvePoint, WorkloadPerformance
from models.present.charts import (
    NO_TARGET,
    knee_point,
    latency_at_target_text,
    latency_axes,
    slo_off_chart_text,
    target_saturates,
    target_shortfall,
)
from models.resources import examples_dir
from models.store import load_any


def _workload(curve, slo_ms=1.0, saturation=20_000.0, target=None, latency_at_target=None, max_at_slo=None):
    return WorkloadPerformance(
        workload_id="w", name="OLTP", curve=tuple(CurvePoint(i, lat, i * 8192 / 1e6) for i, lat in curve),
        saturation_iops=saturation, max_iops_at_slo=max_at_slo, slo_ms=slo_ms, target_iops=target,
        latency_at_target_ms=latency_at_target, target_met=None if target is None else latency_at_target is not None,
        bottleneck="node 1 CPU", bottleneck_component="c", headroom_pct=None, stations=(), operating_iops=0.0,
        protocol="FCP", block_kib=8.0)


def evaluate_example(example: str, **workload_changes):
    """A bundled example evaluated with every workload changed by ``workload_changes`` (also used by the GUI
    chart tests)."""
    project = load_any(examples_dir() / example)
    if workload_changes:
        scenario = project.scenario
        workloads = [w.model_copy(update=workload_changes) for w in scenario.workloads]
        project = project.with_scenario(scenario.model_copy(update={"workloads": workloads}))
    return evaluate(project, project.active_scenario)


def test_the_ramp_peak_is_never_cut_off_by_a_small_slo():
    """An 18 ms ramp peak with a 1 ms SLO: the old rule (at most 4 x the SLO) drew a 4.3 ms axis."""
    w = _workload([(1_000, 0.5), (8_000, 0.8), (12_000, 1.0), (16_000, 4.0), (18_000, 18.0)], max_at_slo=12_000)
    axes = latency_axes([w])
    assert axes.latency_high_ms >= 18.0 and axes.latency_high_ms == pytest.approx(18.0 * 1.12)
    assert axes.iops_high == pytest.approx(20_000 * 1.06)  # saturation beyond the peak's IOPS
    assert axes.slo_off_chart_ms is None


def test_an_azure_design_with_a_tight_slo_shows_its_peak():
    evaluation = evaluate_example("cvo-azure-ds4-ha-oltp.toml", slo_ms=1.0)
    workloads = evaluation.performance.workloads
    peak = max(p.latency_ms for p in workloads[0].curve)
    assert peak > 4.0  # the ramp's peak is far above 4 x the SLO
    axes = latency_axes(workloads)
    assert axes.latency_high_ms >= peak
    assert axes.iops_high >= workloads[0].saturation_iops


def test_the_slo_crossing_and_the_knee_are_on_the_chart():
    evaluation = evaluate_example("vsan-sqlserver-raid1.toml")
    w = evaluation.performance.workloads[0]
    axes = latency_axes([w])
    iops, latency = w.max_iops_at_slo_point
    assert axes.iops_high >= iops and axes.latency_high_ms >= latency
    knee = knee_point(w)
    assert knee is not None and axes.iops_high >= knee[0] and axes.latency_high_ms >= knee[1]
    first = w.curve[0].latency_ms
    assert knee[1] >= 2 * first  # the knee: latency doubled from its light-load value
    assert axes.latency_high_ms >= w.slo_ms  # the SLO line (5 ms) is drawn
    # the open model's asymptotic tail (tens of ms) does not stretch the axis
    assert axes.latency_high_ms < max(p.latency_ms for p in w.open_curve)


def test_an_slo_far_above_the_curve_is_named_instead_of_flattening_it():
    """EF550 analytics: a 50 ms SLO, latencies under 1 ms: the axis shows the curve and says where the SLO is."""
    evaluation = evaluate_example("ef550-sas-analytics.toml")
    w = evaluation.performance.workloads[0]
    axes = latency_axes([w])
    highest = max(p.latency_ms for p in (*w.curve, *w.open_curve))
    assert axes.slo_off_chart_ms == 50.0
    assert axes.latency_high_ms < 5 * highest  # the curve fills the chart, not 2% of a 54 ms axis
    assert slo_off_chart_text(axes).startswith("SLO 50.0 ms: far above this chart")


def test_no_target_in_words():
    w = _workload([(1_000, 0.5), (2_000, 0.6)])
    assert latency_at_target_text(w) == NO_TARGET == "no target"
    assert target_shortfall(w) is None and not target_saturates(w)
    met = _workload([(1_000, 0.5)], target=1_500.0, latency_at_target=0.62)
    assert latency_at_target_text(met) == "0.62 ms" and target_shortfall(met) is None
    beyond = _workload([(1_000, 0.5)], target=30_000.0)
    assert latency_at_target_text(beyond) == "saturated"


def test_a_target_beyond_saturation_is_said_with_its_shortfall():
    w = _workload([(1_000, 0.5)], saturation=364_682.0, target=700_000.0)
    assert target_saturates(w)
    short = 700_000.0 - 364_682.0  # 335,318 IOPS, 47.9% of the target
    assert target_shortfall(w) == ("The target of 700K IOPS is beyond saturation at 365K IOPS: 335K IOPS "
                                   f"({short / 700_000 * 100:.0f}% of the target) short; utilisation is shown "
                                   "at saturation.")


def test_utilisation_at_a_saturated_target_is_taken_at_saturation():
    """AFF8080 at 700K IOPS (saturation 365K): the bottleneck at 100%, every other station at its utilisation at
    saturation, i.e. its utilisation at the (met) 350K target scaled by saturation / 350K (U = X x D)."""
    met = evaluate_example("aff8080-sqlserver-tpce.toml").performance.workloads[0]
    beyond = evaluate_example("aff8080-sqlserver-tpce.toml", target_iops=700_000.0).performance.workloads[0]
    assert met.target_iops == 350_000.0 and met.target_met
    assert target_saturates(beyond) and beyond.operating_iops == pytest.approx(beyond.saturation_iops)
    at_target = {s.name: s.utilization for s in met.stations}
    scale = beyond.saturation_iops / 350_000.0
    busy = [s for s in beyond.stations if s.utilization >= 0.999]
    assert {s.name for s in busy} <= {beyond.bottleneck, "node 1 CPU", "node 2 CPU"}  # the HA pair's CPUs only
    assert len(busy) < len([s for s in beyond.stations if s.utilization > 0])  # not every station at 100%
    for station in beyond.stations:
        expected = min(at_target[station.name] * scale, 1.0)
        assert station.utilization == pytest.approx(expected, rel=1e-6, abs=1e-9), station.name

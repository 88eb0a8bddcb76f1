"""The chart's latency band and the band figures beside it are one band (review 53b, item 1): the pessimistic
edge of the curve (its P90 latency) is saturated exactly from the P10 saturation on and crosses the SLO where the
P10 max IOPS at the SLO is; and the Curves sheet says "saturated" where that edge is past its saturation.

Before the fix the A70's P90 edge stayed under 0.3 ms up to about 1.5M IOPS while the band's P10 saturation was
611K, and the FAS70's was finite (2,753 ms) at 81K against a P10 saturation of 37K."""

from __future__ import annotations

import math

import pytest
from test_present_charts import evaluate_example  # pytest puts tests/ on sys.path

from models.present.workbook import curves_sheet

EXAMPLES = ["aff-a70-ns224-oracle-nvmetcp.toml", "fas70-ds460c-nlsas-nfs.toml", "ef550-sas-analytics.toml",
            "aff8080-sqlserver-tpce.toml"]


def _points(wp):
    return [*wp.curve, *wp.open_curve]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_pessimistic_edge_saturates_at_the_p10_saturation(example):
    for wp in evaluate_example(example).performance.workloads:
        p10 = wp.saturation_iops_band_p10
        assert p10 is not None and p10 < wp.saturation_iops
        points = _points(wp)
        assert any(p.iops >= p10 for p in points), "the curve reaches past the band's P10 saturation"
        for p in points:
            saturated = p.latency_band_p90_ms is None
            assert saturated == (p.iops >= p10), (example, p.iops, p10, p.latency_band_p90_ms)
            if not saturated:
                assert math.isfinite(p.latency_band_p90_ms) and p.latency_band_p90_ms >= p.latency_ms


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_pessimistic_edge_crosses_the_slo_at_the_p10_max_iops_at_slo(example):
    for wp in evaluate_example(example).performance.workloads:
        slo, p10 = wp.slo_ms, wp.max_iops_at_slo_band_p10
        within = [p.iops for p in _points(wp) if p.latency_band_p90_ms is not None and p.latency_band_p90_ms <= slo]
        past = [p.iops for p in _points(wp) if p.latency_band_p90_ms is None or p.latency_band_p90_ms > slo]
        assert p10 is not None and within and past
        # the figure lies between the curve's last point within the SLO and its first point past it
        assert max(within) <= p10 * (1 + 1e-9) and p10 <= min(past) * (1 + 1e-9), (example, max(within), p10,
                                                                                 min(past))
        assert p10 <= wp.saturation_iops_band_p10


def test_the_a70s_band_no_longer_shows_sub_millisecond_latency_past_its_p10_saturation():
    wp = evaluate_example("aff-a70-ns224-oracle-nvmetcp.toml").performance.workloads[0]
    assert wp.saturation_iops_band_p10 == pytest.approx(611_000, rel=0.01)
    finite = [p.iops for p in _points(wp) if p.latency_band_p90_ms is not None]
    assert max(finite) < 611_000  # was about 1.49M


def test_the_curves_sheet_says_saturated_where_the_pessimistic_edge_is():
    evaluation = evaluate_example("aff-a70-ns224-oracle-nvmetcp.toml")
    rows = curves_sheet(evaluation)
    head, body = rows[0], rows[1:]
    p90 = head.index("Band P90 (ms)")
    p10_sat = evaluation.performance.workloads[0].saturation_iops_band_p10
    iops = head.index("IOPS")
    assert all(cell is not None for row in body for cell in row)
    saturated = [row for row in body if row[p90] == "saturated"]
    assert saturated and all(row[iops] >= p10_sat for row in saturated)
    assert all(isinstance(row[p90], float) for row in body if row[iops] < p10_sat)

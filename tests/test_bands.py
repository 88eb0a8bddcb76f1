"""Uncertainty bands (P10-P90 of the prediction) and the curve's shape fields: hand-computed propagation of a
profile's standard errors, the band's order on every bundled example, and the JSON fields."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from test_present_charts import evaluate_example  # pytest puts tests/ on sys.path

from models.catalog import PerfProfile, bundled_catalog
from models.performance import build_path, evaluate_performance, seeds
from models.performance.bands import (
    ASSUMED_REL_SD,
    UNIDENTIFIED_REL_SD,
    Z_P90,
    band_factors,
    profile_uncertainty,
)
from models.performance.discrepancy import stored_table
from models.performance.knee import KNEE_MIN_RATIO
from models.resources import examples_dir
from models.serialize import workload_to_dict

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def _profile(**stderr):
    fitted = "fitted: test"
    return PerfProfile(software="9.0", protocol="FCP", cpu_read_us=100.0, cpu_write_us=200.0, cpu_per_kib_us=0.5,
                       servers_per_node=8, fixed_latency_us=40.0, stderr=stderr,
                       sources={"cpu_read_us": fitted, "cpu_write_us": fitted, "fixed_latency_us": fitted,
                                "cpu_per_kib_us": "assumed: held fixed in this test profile",
                                "servers_per_node": fitted,
                                **({"stderr": "test covariance"} if stderr else {})})


def test_cpu_band_is_the_delta_method_over_the_mix():
    """70% reads of 8 KiB: D = 0.7 x 100 + 0.3 x 200 = 130 us; se 5 (read) and 12 (write) independent:
    sd = sqrt((0.7 x 5)² + (0.3 x 12)²) = 5.02 us, relative 3.86%; fixed 40 +- 4 us -> 10%."""
    u = profile_uncertainty(_profile(cpu_read_us=5.0, cpu_write_us=12.0, fixed_latency_us=4.0), "calibrated", 8.0, 0.7)
    assert u.cpu_rel_sd == pytest.approx(math.hypot(0.7 * 5.0, 0.3 * 12.0) / 130.0)
    assert u.fixed_rel_sd == pytest.approx(0.1)
    assert u.profile == "calibrated"


def test_station_sd_is_the_fit_alone_and_unidentified_fields_count_a_quarter():
    """The profile kind no longer widens the stations (its error is the figure-level discrepancy,
    models.performance.discrepancy): a derived profile's CPU SD is its fitted one."""
    derived = profile_uncertainty(_profile(cpu_read_us=5.0, cpu_write_us=12.0, fixed_latency_us=4.0), "derived",
                                  8.0, 1.0)
    assert derived.cpu_rel_sd == pytest.approx(0.05)
    assumed = profile_uncertainty(_profile(), "assumed", 8.0, 1.0)
    # no standard errors at all: every fitted field is unidentified
    assert assumed.cpu_rel_sd == pytest.approx(UNIDENTIFIED_REL_SD)
    huge = profile_uncertainty(_profile(cpu_read_us=5.0, fixed_latency_us=400.0), "calibrated", 8.0, 1.0)
    assert huge.fixed_rel_sd == pytest.approx(UNIDENTIFIED_REL_SD)  # se > value: not identified
    newer = profile_uncertainty(_profile(), "hardware relation only", 8.0, 1.0)  # a kind a newer engine names
    assert newer.profile == "hardware relation only" and newer.cpu_rel_sd == pytest.approx(UNIDENTIFIED_REL_SD)


def test_band_factors_are_lognormal_p10_p90():
    lo, hi = band_factors(np.array([0.0, 0.1, 5.0]))
    assert lo[0] == hi[0] == 1.0
    assert hi[1] == pytest.approx(math.exp(Z_P90 * 0.1)) and lo[1] == pytest.approx(1 / hi[1])
    assert hi[2] == pytest.approx(math.exp(Z_P90))  # capped at sigma 1


def test_saturation_band_of_a_cpu_bound_system_follows_the_cpu_sd():
    """The AFF8080 example is CPU-bound: saturation = capacity / D_cpu, so its parameter band's edges are
    saturation x exp(-/+ z sigma_cpu) (the CPU stays the bottleneck at both edges: the ports' tolerance is
    smaller than their headroom), and the predictive band adds the calibrated CPU-bound discrepancy in quadrature:
    exp(-/+ hypot(z sigma_cpu, z sigma_d))."""
    cat = bundled_catalog()
    sc = seeds.aff8080("9.0", concurrency=64)
    path = build_path(sc, cat, sc.workloads[0])
    wp = evaluate_performance(sc, cat).workloads[0]
    assert wp.bottleneck.endswith("CPU") and wp.profile == "calibrated"
    s = path.uncertainty.cpu_rel_sd
    sd = stored_table().sigma("calibrated", "CPU")
    spread = math.hypot(Z_P90 * s, Z_P90 * sd)
    assert wp.saturation_iops_band_p10 == pytest.approx(wp.saturation_iops * math.exp(-spread), rel=1e-9)
    assert wp.saturation_iops_band_p90 == pytest.approx(wp.saturation_iops * math.exp(spread), rel=1e-9)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_has_ordered_bands_and_a_knee_or_a_note(example):
    for wp in evaluate_example(example).performance.workloads:
        assert wp.profile in ("calibrated", "derived", "assumed", "hardware relation only")
        for p in (*wp.curve, *wp.open_curve):
            assert p.latency_band_p10_ms <= p.latency_ms
            assert p.latency_band_p90_ms is None or p.latency_ms <= p.latency_band_p90_ms
        assert wp.saturation_iops_band_p10 <= wp.saturation_iops <= wp.saturation_iops_band_p90
        if wp.max_iops_at_slo is not None:
            assert wp.max_iops_at_slo_band_p10 is None or wp.max_iops_at_slo_band_p10 <= wp.max_iops_at_slo
            assert wp.max_iops_at_slo_band_p90 is None or wp.max_iops_at_slo <= wp.max_iops_at_slo_band_p90
        ratio = wp.latency_at_80pct_saturation_ms / wp.light_load_latency_ms
        assert ratio >= KNEE_MIN_RATIO or wp.knee_note, (example, ratio)
        assert wp.light_load_latency_ms <= wp.latency_at_50pct_saturation_ms <= wp.latency_at_80pct_saturation_ms


def test_evaluate_json_carries_bands_profile_and_knee_fields():
    out = subprocess.run([sys.executable, "-m", "app", "evaluate", str(examples_dir() / "aff8080-sqlserver-tpce.toml"),
                          "--json"], capture_output=True, text=True, check=True)
    w = json.loads(out.stdout)["workloads"][0]
    assert w["profile"] == "calibrated"
    for key in ("saturation_iops_band_p10", "saturation_iops_band_p90", "max_iops_at_slo_band_p10",
                "max_iops_at_slo_band_p90", "light_load_latency_ms", "latency_at_80pct_saturation_ms"):
        assert isinstance(w[key], float), key
    assert all(p["latency_band_p10_ms"] <= p["latency_ms"] for p in w["curve"])
    assert "knee_note" in w


def test_vsan_bands_are_the_assumed_width():
    wp = evaluate_example("vsan-sqlserver-raid1.toml").performance.workloads[0]
    d = workload_to_dict(wp)
    assert d["profile"] == "assumed"
    # the bottleneck (disk-group software path, kind cpu) moves by exp(+-z x 0.5), and the assumed profiles'
    # CPU-bound discrepancy comes on top in quadrature
    spread = math.hypot(Z_P90 * ASSUMED_REL_SD, Z_P90 * stored_table().sigma("assumed", "CPU"))
    assert wp.saturation_iops_band_p10 / wp.saturation_iops == pytest.approx(math.exp(-spread))
    # the upper edge stops at the vSAN network's bandwidth (a hard limit), below exp(+spread)
    assert wp.saturation_iops_band_p90 / wp.saturation_iops < math.exp(spread)
    assert "upper end held at the hard limit of vSAN network" in wp.band_basis

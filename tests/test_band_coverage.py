"""Predictive bands (issue 30, items 1 and 2): the full covariance in the delta method, the model-discrepancy
table estimated from the leave-one-out residuals, the coverage measured on those points (recomputed here by an
independent loop over the stored results), and no zero-width band on any bundled example."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pytest
from test_present_charts import evaluate_example  # pytest puts tests/ on sys.path

from models.calibration import parameter_stderr
from models.calibration.fit import parameter_correlation
from models.catalog import PerfProfile, bundled_catalog
from models.performance.bands import profile_uncertainty
from models.performance.discrepancy import (
    FILE_NAME,
    Z_P90,
    DiscrepancyTable,
    band_basis,
    parse_table,
    predictive_edges,
    stored_table,
    table_toml,
)
from models.resources import examples_dir, validation_dir
from models.validation.band_coverage import (
    CASE_BOTTLENECK,
    band_coverage,
    coverage_lines,
    estimate_table,
    loo_points,
)
from models.validation.cross_validation import fitted_cases, load_cross_validation

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def test_cpu_demand_sd_uses_the_full_covariance_of_a_correlated_two_parameter_fit():
    """A linear fit of two parameters (read and write CPU cost) whose Jacobian columns are nearly collinear: the
    estimates are strongly negatively correlated. The band's delta method on D = 0.7 r + 0.3 w must equal
    sqrt(w' Cov w) with Cov = s^2 (J'J)^-1 computed here by numpy's inverse, not the diagonal-only value."""
    jac = np.array([[1.0, 0.9], [1.0, 1.1], [0.8, 1.0], [1.2, 1.0], [1.0, 1.0]])
    residuals = np.array([0.02, -0.01, 0.015, -0.02, 0.005])
    names = ["cpu_read_us", "cpu_write_us"]
    se, _ = parameter_stderr(jac, residuals, names)
    rho = parameter_correlation(jac, names)
    cov = float(residuals @ residuals) / (5 - 2) * np.linalg.inv(jac.T @ jac)
    assert rho[("cpu_read_us", "cpu_write_us")] == pytest.approx(cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]))
    assert rho[("cpu_read_us", "cpu_write_us")] < -0.5  # the case the diagonal gets wrong
    fit = "fitted: test"
    profile = PerfProfile(software="9.0", protocol="FCP", cpu_read_us=100.0, cpu_write_us=200.0,
                          servers_per_node=8, stderr=se,
                          correlation={"cpu_read_us:cpu_write_us": rho[("cpu_read_us", "cpu_write_us")]},
                          sources={"cpu_read_us": fit, "cpu_write_us": fit, "servers_per_node": fit,
                                   "stderr": "test covariance", "correlation": "test covariance"})
    u = profile_uncertainty(profile, "calibrated", 8.0, 0.7)
    w = np.array([0.7, 0.3])
    mean = 0.7 * 100.0 + 0.3 * 200.0
    assert u.cpu_rel_sd == pytest.approx(math.sqrt(w @ cov @ w) / mean, rel=1e-9)
    diagonal = math.sqrt((0.7 * se["cpu_read_us"]) ** 2 + (0.3 * se["cpu_write_us"]) ** 2) / mean
    assert u.cpu_rel_sd < 0.9 * diagonal


def test_the_calibrated_catalog_stores_correlations_for_its_multi_parameter_fits():
    profiles = [p for rec in bundled_catalog() for p in getattr(rec, "performance", []) if p.correlation]
    assert len(profiles) >= 3
    for p in profiles:
        for key, rho in p.correlation.items():
            a, b = key.split(":")
            assert a in p.stderr and b in p.stderr and -1.0 <= rho <= 1.0
            assert p.covariance(a, b) == pytest.approx(p.stderr[a] * p.stderr[b] * rho)


def test_predictive_edges_add_the_discrepancy_in_quadrature():
    lo, hi = predictive_edges(100.0, 90.0, 120.0, 0.2)
    assert lo == pytest.approx(100.0 * math.exp(-math.hypot(math.log(100 / 90), Z_P90 * 0.2)))
    assert hi == pytest.approx(100.0 * math.exp(math.hypot(math.log(120 / 100), Z_P90 * 0.2)))
    assert predictive_edges(100.0, 100.0, 100.0, 0.1) == pytest.approx(
        (100.0 * math.exp(-Z_P90 * 0.1), 100.0 * math.exp(Z_P90 * 0.1)))
    assert predictive_edges(100.0, None, 110.0, 0.1)[0] is None  # a missing edge stays missing


def test_table_lookup_falls_back_from_cell_to_bottleneck_to_kind_to_pooled_to_widest():
    table = DiscrepancyTable({("calibrated", "CPU"): 0.3}, {"calibrated": 0.1, "assumed": 1.2}, 0.5,
                             sparse=frozenset({"derived"}), bottlenecks={"service limit": 0.15, "CPU": 0.9})
    assert table.sigma("calibrated", "CPU") == 0.3
    assert table.sigma("calibrated", "drives") == 0.1
    assert table.sigma("assumed", "service limit") == 0.15  # a catalog limit binds: its kind, whatever the profile
    assert table.sigma("assumed", "CPU") == 1.2  # the profile's own station binds: the profile kind
    assert table.sigma("derived", "CPU") == 0.5  # seen, too few points: pooled
    assert table.sigma("hardware relation only", "CPU") == 1.2  # never seen: the widest
    assert table.sigma("", "ports") == 1.2
    again = parse_table(table_toml(table))
    assert again.sigma("derived", "CPU") == 0.5 and again.cells == {("calibrated", "CPU"): 0.3}
    assert again.bottlenecks == {"service limit": 0.15, "CPU": 0.9}
    with pytest.raises(ValueError, match="band discrepancy"):
        parse_table("pooled = ")


def _independent_coverage(path) -> tuple[dict[str, list[bool]], list[float]]:
    """Coverage recomputed from the stored file with its own loops: each point's sigma from the other cases'
    points (cell of >= 8 points from >= 2 cases, else for drives / ports / service limit the bottleneck kind's of
    >= 8 points from >= 2 cases, else kind of >= 4 points, else pooled when the kind was seen, else the widest
    kind), sigma = (ceil(0.8 (n + 1))-th smallest |log ratio|) / z."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    points = []
    for case in data["case"]:
        for c in case.get("check", []):
            if not c["in_sample"] or not c["published"] > 0 or not (c["predicted"] > 0):
                continue
            note = c["note"]
            kind = ("assumed" if "uncalibrated default" in note else "derived" if "falls back to the" in note
                    else "calibrated")
            points.append((case["id"], kind, CASE_BOTTLENECK.get(case["id"], ""),
                           abs(math.log(c["predicted"] / c["published"]))))

    def q(values):
        values = sorted(values)
        return values[min(math.ceil(0.8 * (len(values) + 1)), len(values)) - 1] / Z_P90

    inside: dict[str, list[bool]] = {}
    widths = []
    for case, kind, neck, r in points:
        rest = [p for p in points if p[0] != case]
        kind_pts = [p for p in rest if p[1] == kind]
        cell = [p for p in kind_pts if p[2] == neck and neck]
        kinds = {k: q([p[3] for p in rest if p[1] == k]) for k in {p[1] for p in rest}
                 if sum(p[1] == k for p in rest) >= 4}
        neck_pts = [p for p in rest if p[2] == neck and neck in ("drives", "ports", "service limit")]
        if len(cell) >= 8 and len({p[0] for p in cell}) >= 2:
            sigma = q([p[3] for p in cell])
        elif len(neck_pts) >= 8 and len({p[0] for p in neck_pts}) >= 2:
            sigma = q([p[3] for p in neck_pts])
        elif len(kind_pts) >= 4:
            sigma = q([p[3] for p in kind_pts])
        elif kind_pts:
            sigma = q([p[3] for p in rest])
        else:
            sigma = max([*kinds.values(), q([p[3] for p in rest])])
        inside.setdefault(kind, []).append(r <= Z_P90 * sigma)
        widths.append(math.sinh(Z_P90 * sigma))
    return inside, widths


def test_band_coverage_on_the_leave_one_out_points_is_70_to_90_percent():
    path = validation_dir() / "cross_validation.toml"
    cv = load_cross_validation(path)
    assert cv is not None
    cov = band_coverage(loo_points(cv))
    inside, widths = _independent_coverage(path)
    every = [v for vs in inside.values() for v in vs]
    assert (cov.inside, cov.total) == (sum(every), len(every))
    assert cov.median_width == pytest.approx(float(np.median(widths)))
    assert 0.70 <= sum(every) / len(every) <= 0.90
    for kind, vs in inside.items():
        assert (cov.of(kind).inside, cov.of(kind).total) == (sum(vs), len(vs))
        if len(vs) >= 10:
            assert 0.70 <= sum(vs) / len(vs) <= 0.90, kind
    assert cov.median_width < 1.0  # not by widening every band to the full range
    lines = coverage_lines(cv)
    assert lines[0] == (f"band coverage: {sum(every)} of {len(every)} out-of-sample points inside P10-P90 "
                        f"({sum(every) / len(every):.0%}); median band width ±{np.median(widths):.0%} of the "
                        "prediction")
    assert any(line.startswith("band coverage (calibrated profiles): ") for line in lines[1:])


@pytest.fixture(scope="module")
def held_out_points():
    """The leave-one-platform-out points (each calibrated platform on the hardware relation from the others)."""
    from models.validation.band_coverage import holdout_points
    from models.validation.platform_holdout import platform_holdout

    return holdout_points(platform_holdout())


def test_the_platforms_left_out_enter_the_coverage_as_hardware_relation_points(held_out_points):
    """The hardware-relation kind's band is measured on the leave-one-platform-out points: each point's sigma is
    estimated without its platform's points, and it is inside when |log(predicted / published)| <= z sigma;
    coverage 70-90% for the kind (it has >= 10 points) and overall, counted here from the points."""
    cv = load_cross_validation()
    assert cv is not None
    points = [*loo_points(cv), *held_out_points]
    relation = [p for p in held_out_points if p.profile_kind == "hardware relation only"]
    assert len(relation) == len(held_out_points) >= 10 and len({p.case_id for p in relation}) >= 3
    inside = []
    for p in relation:
        sigma = estimate_table([q for q in points if q.case_id != p.case_id]).sigma(p.profile_kind, p.bottleneck_kind)
        inside.append(abs(math.log(p.predicted / p.published)) <= Z_P90 * sigma)
    assert 0.70 <= sum(inside) / len(inside) <= 0.90
    cov = band_coverage(points)
    assert (cov.of("hardware relation only").inside, cov.of("hardware relation only").total) == (sum(inside),
                                                                                                 len(inside))
    assert 0.70 <= cov.fraction <= 0.90
    lines = coverage_lines(cv, held_out_points)
    assert any(line.startswith("band coverage (hardware relation only profiles): ") for line in lines)


def test_the_stored_discrepancy_table_is_the_one_estimated_from_the_stored_residuals(held_out_points):
    cv = load_cross_validation()
    stored = parse_table((validation_dir() / FILE_NAME).read_text(encoding="utf-8"))
    fresh = estimate_table([*loo_points(cv), *held_out_points], cv.inputs_sha256)
    assert "hardware relation only" in stored.kinds  # the platforms left out set the hardware relation's band
    assert stored.inputs_sha256 == cv.inputs_sha256
    assert stored.cells == pytest.approx(fresh.cells, rel=1e-3)
    assert stored.kinds == pytest.approx(fresh.kinds, rel=1e-3)
    assert stored.pooled == pytest.approx(fresh.pooled, rel=1e-3)
    assert stored.bottlenecks == pytest.approx(fresh.bottlenecks, rel=1e-3)
    assert all(v > 0 for v in (*stored.kinds.values(), *stored.cells.values()))


def test_every_fitted_case_has_a_bottleneck_kind():
    assert set(fitted_cases()) <= set(CASE_BOTTLENECK)


@pytest.mark.parametrize("example", EXAMPLES)
def test_no_bundled_workload_has_a_zero_width_band(example):
    # The upper side may be zero-width only where a hard limit (a port, link or published cap) is the figure itself:
    # the band's upper end is held there and its basis says so.
    for wp in evaluate_example(example).performance.workloads:
        held = "upper end held at the hard limit of" in wp.band_basis
        assert wp.saturation_iops_band_p10 < wp.saturation_iops, wp.workload_id
        assert wp.saturation_iops < wp.saturation_iops_band_p90 or (
            held and wp.saturation_iops == wp.saturation_iops_band_p90), wp.workload_id
        if wp.max_iops_at_slo is not None:
            low, high = wp.max_iops_at_slo_band_p10, wp.max_iops_at_slo_band_p90
            assert (low is None or low < wp.max_iops_at_slo) and high is not None
            assert high > wp.max_iops_at_slo or (held and high == wp.max_iops_at_slo), wp.workload_id
        assert "model error measured on published results" in wp.band_basis
        assert ".toml" not in wp.band_basis and ".py" not in wp.band_basis
        assert stored_table().sigma(wp.profile, "") > 0


def test_the_band_basis_names_the_model_error_and_says_when_a_figure_is_exact():
    from models.performance import build_path, seeds

    sc = seeds.aff8080("9.0", concurrency=64)
    path = build_path(sc, bundled_catalog(), sc.workloads[0])
    cpu = next(k for k, s in enumerate(path.stations) if s.kind == "cpu")
    table = DiscrepancyTable({("calibrated", "CPU"): 0.25}, {"calibrated": 0.1}, 0.3)
    text = band_basis("fitted", "calibrated", path.stations, cpu, table)
    assert f"a factor of {math.exp(Z_P90 * 0.25):.2f} either way" in text
    assert "calibrated profiles bound by CPU" in text and "ports 5%" in text
    exact = band_basis("fitted", "calibrated", path.stations, cpu, DiscrepancyTable({}, {"calibrated": 0.0}, 0.0))
    assert "exact by definition" in exact

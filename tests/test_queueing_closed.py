"""Closed networks: laws, bounds, approximations, stability pins and input validation."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.queueing import (
    Station,
    asymptotic_bounds,
    balanced_job_bounds,
    closed_curve,
    mva_exact,
    solve_closed,
)
from models.queueing.mva_exact import exact_single


def _all_floats(res):
    vals = [res.throughput, res.response_time_s]
    if res.bottleneck is not None:  # documented: inf only when nothing can saturate
        vals.append(res.saturation_throughput)
    for s in res.stations.values():
        vals += [s.utilization, s.residence_time_s, s.queue_length]
        for c in s.per_class.values():
            vals += [c.utilization, c.residence_time_s, c.queue_length]
    for c in res.classes.values():
        vals += [c.throughput, c.response_time_s]
    return vals


def check_laws(stations, res, N, Z):
    """Little's law on the whole network and per station, utilisation law."""
    X = res.throughput
    total_q = sum(s.queue_length for s in res.stations.values())
    assert total_q + X * Z == pytest.approx(N, rel=1e-7)
    assert res.response_time_s == pytest.approx(N / X - Z, rel=1e-7, abs=1e-12)
    for st_ in stations:
        r = res.stations[st_.name]
        assert r.queue_length == pytest.approx(X * r.residence_time_s, rel=1e-9, abs=1e-15)
        if not st_.delay:
            assert r.utilization == pytest.approx(X * st_.demand_s / st_.servers, rel=1e-9, abs=1e-15)
            assert r.utilization <= 1.0 + 1e-9
            assert r.residence_time_s >= st_.demand_s * (1 - 1e-9)
    assert all(v is not None and math.isfinite(v) for v in _all_floats(res))


@st.composite
def networks(draw, max_k=6):
    k = draw(st.integers(1, max_k))
    stations = []
    for i in range(k):
        d = draw(st.one_of(st.just(0.0), st.floats(1e-6, 2.0)))
        c = draw(st.sampled_from([1, 1, 1, 2, 3, 8]))
        dl = draw(st.integers(0, 5)) == 0
        stations.append(Station(f"s{i}", d, servers=c, delay=dl))
    z = draw(st.sampled_from([0.0, 0.0, 0.1, 1.0, 10.0]))
    if z + sum(s.demand_s for s in stations) < 1e-3:
        stations[0] = Station("s0", 0.5)
    return stations, z


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(networks(), st.integers(1, 60))
def test_exact_laws_and_bounds_hold(net, N):
    stations, Z = net
    res = solve_closed(stations, N, Z)
    check_laws(stations, res, N, Z)
    eps = 1e-9
    (axl, axh), (arl, arh) = asymptotic_bounds(stations, N, Z)
    (bxl, bxh), (brl, brh) = balanced_job_bounds(stations, N, Z)
    X, R = res.throughput, res.response_time_s
    assert axl * (1 - eps) <= bxl * (1 + eps) and bxh <= axh * (1 + eps)
    assert bxl * (1 - eps) <= X <= bxh * (1 + eps)
    assert axl * (1 - eps) <= X <= axh * (1 + eps)
    assert brl * (1 - eps) - 1e-12 <= R <= brh * (1 + eps) + 1e-12
    assert arl * (1 - eps) - 1e-12 <= R <= arh * (1 + eps) + 1e-12
    assert X <= min(N / (sum(s.demand_s for s in stations) + Z), res.saturation_throughput) * (1 + 1e-9)


@settings(max_examples=30, deadline=None)
@given(networks(), st.integers(2, 40), st.sampled_from(["schweitzer", "linearizer"]))
def test_approximate_laws_hold(net, N, method):
    stations, Z = net
    res = solve_closed(stations, N, Z, method=method)
    assert res.converged
    check_laws(stations, res, N, Z)


def _moderate_networks():
    return [
        ([Station("cpu", 0.05), Station("d1", 0.08), Station("d2", 0.03)], 1.0),
        ([Station("cpu", 0.02), Station("d1", 0.02), Station("d2", 0.02), Station("d3", 0.01)], 0.0),
        ([Station("cpu", 0.1, servers=4), Station("disk", 0.04), Station("lan", 0.02, delay=True)], 2.0),
    ]


@pytest.mark.parametrize("idx", range(3))
@pytest.mark.parametrize("N", [5, 20, 80])
def test_approximations_close_to_exact(idx, N):
    stations, Z = _moderate_networks()[idx]
    exact = solve_closed(stations, N, Z)
    sch = solve_closed(stations, N, Z, method="schweitzer")
    lin = solve_closed(stations, N, Z, method="linearizer")
    assert sch.converged and lin.converged
    assert sch.throughput == pytest.approx(exact.throughput, rel=0.06)
    # Schweitzer is worst near the knee N* = (D + Z) / D_max: ~5 % in X, ~12 % in R here
    assert sch.response_time_s == pytest.approx(exact.response_time_s, rel=0.15)
    # network 2 has a 4-server station, approximated by Seidmann's decomposition in both methods
    tol = 0.05 if idx == 2 else 0.02
    assert lin.throughput == pytest.approx(exact.throughput, rel=tol)
    assert lin.response_time_s == pytest.approx(exact.response_time_s, rel=1.5 * tol)
    if idx != 2:
        assert abs(lin.throughput - exact.throughput) <= abs(sch.throughput - exact.throughput) + 1e-9


def test_schweitzer_single_class_is_exact_for_one_job():
    stations, Z = _moderate_networks()[0]
    assert solve_closed(stations, 1, Z, method="schweitzer").throughput == pytest.approx(
        solve_closed(stations, 1, Z).throughput, rel=1e-12
    )


@pytest.mark.parametrize("method", ["schweitzer", "linearizer"])
def test_large_population_converges(method):
    stations = [Station(f"s{i}", 0.001 * (1 + i % 5), servers=1 + (i % 3 == 0) * 3) for i in range(20)]
    res = solve_closed(stations, 10_000, 1.0, method=method)
    assert res.converged
    assert res.method == method + "+seidmann"
    check_laws(stations, res, 10_000, 1.0)
    assert res.throughput == pytest.approx(res.saturation_throughput, rel=1e-3)


def test_multiclass_approximate_large_population():
    stations = [Station("a", {"x": 0.01, "y": 0.02}), Station("b", {"x": 0.02, "y": 0.005}), Station("c", 0.004)]
    for method in ("schweitzer", "linearizer"):
        res = solve_closed(stations, {"x": 5000, "y": 5000}, 0.5, method=method)
        assert res.converged
        assert (sum(s.queue_length for s in res.stations.values()) + res.throughput * 0.5
                == pytest.approx(10_000, rel=1e-6))


def test_multiclass_identical_classes_equal_single_class():
    base = [Station("cpu", 0.03, servers=2), Station("disk", 0.05), Station("net", 0.01, delay=True)]
    split = [Station(s.name, {"a": s.demand_s, "b": s.demand_s}, servers=s.servers, delay=s.delay) for s in base]
    single = solve_closed(base, 9, 0.7)
    multi = solve_closed(split, {"a": 4, "b": 5}, 0.7)
    assert multi.throughput == pytest.approx(single.throughput, rel=1e-10)
    assert multi.response_time_s == pytest.approx(single.response_time_s, rel=1e-10)
    assert multi.classes["a"].throughput == pytest.approx(single.throughput * 4 / 9, rel=1e-10)
    for name in ("cpu", "disk", "net"):
        assert multi.stations[name].queue_length == pytest.approx(single.stations[name].queue_length, rel=1e-10)
        assert multi.stations[name].utilization == pytest.approx(single.stations[name].utilization, rel=1e-10)
    for method in ("schweitzer", "linearizer"):
        m = solve_closed(split, {"a": 4, "b": 5}, 0.7, method=method)
        assert m.throughput == pytest.approx(single.throughput, rel=0.03)


def test_curve_is_consistent_with_point_solutions():
    stations = [Station("cpu", 0.02, servers=4), Station("disk", 0.015), Station("lan", 0.003, delay=True)]
    curve = closed_curve(stations, 50, 0.2)
    assert len(curve) == 50 and curve[-1].population == 50
    for n in (1, 7, 50):
        point = solve_closed(stations, n, 0.2)
        assert curve[n - 1].throughput == pytest.approx(point.throughput, rel=1e-12)
        assert curve.throughput[n - 1] == pytest.approx(point.throughput, rel=1e-12)
    assert np.all(np.diff(curve.throughput) >= -1e-12)
    assert [r.population for r in curve[2:5]] == [3, 4, 5]


# --- load-dependent stability pins -------------------------------------------------------------


@pytest.mark.parametrize("c", [4, 16, 64, 256])
def test_multiserver_bottleneck_stays_physical_at_large_population(c):
    """1 - sum(p) closes the marginal probabilities catastrophically; the solver must not."""
    stations = [Station("cpu", 0.01), Station("pool", 0.01 * c, servers=c), Station("lan", 0.005)]
    N = 1000
    curve = closed_curve(stations, N, 0.0)
    X = curve.throughput
    bound = np.minimum(np.arange(1, N + 1) / (0.015 + 0.01 * c), 100.0)
    assert np.all(X <= bound * (1 + 1e-9))
    assert np.all(np.isfinite(curve.residence_time_s)) and np.all(curve.residence_time_s >= 0)
    assert np.all(curve.utilization <= 1 + 1e-9)
    # the stable subset MVA and the independent log-domain convolution agree
    D = np.array([0.01, 0.01 * c, 0.005])
    cs = np.array([1, c, 1])
    Xc, Rc, m = exact_single(D, cs, np.zeros(3, bool), 0.0, N, force_convolution=True)
    assert m == "exact-convolution"
    np.testing.assert_allclose(X, Xc, rtol=1e-9)
    np.testing.assert_allclose(curve.residence_time_s, Rc, rtol=1e-8)


def test_many_multiserver_stations_use_convolution(monkeypatch):
    stations = [Station(f"m{i}", 0.01 * (i + 2), servers=i + 2) for i in range(9)] + [Station("d", 0.02)]
    res = solve_closed(stations, 60, 0.5)
    assert res.method == "exact-convolution"
    check_laws(stations, res, 60, 0.5)
    monkeypatch.setattr(mva_exact, "MAX_SUBSET_LD", 9)
    res2 = solve_closed(stations, 60, 0.5)
    assert res2.method == "exact-mva"
    assert res2.throughput == pytest.approx(res.throughput, rel=1e-9)


def test_huge_server_count_and_population():
    stations = [Station("pool", 20.0, servers=2000), Station("disk", 0.001)]
    res = solve_closed(stations, 1000, 0.0)  # c >= N: a pure delay, exactly
    assert res.throughput == pytest.approx(1000 / 20.001 * (1 + 0), rel=1e-3)
    res = solve_closed(stations, 3000, 1.0)
    check_laws(stations, res, 3000, 1.0)
    assert res.throughput <= 100.0 * (1 + 1e-9)
    res = solve_closed(stations, 10_000, 1.0, method="schweitzer")
    assert res.converged


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "population, think, method",
    [
        (-3, 0.0, "exact"),
        (2.5, 0.0, "exact"),
        (True, 0.0, "exact"),
        (5, -1.0, "exact"),
        (5, math.nan, "exact"),
        (5, 0.0, "mva"),
        ({"a": -1}, 0.0, "exact"),
        ({}, 0.0, "exact"),
        ({"a": 2}, {"zz": 1.0}, "exact"),
    ],
)
def test_invalid_closed_inputs_raise(population, think, method):
    with pytest.raises(ValueError):
        solve_closed([Station("cpu", 0.1)], population, think, method=method)


def test_invalid_networks_raise():
    with pytest.raises(ValueError, match="at least one"):
        solve_closed([], 3)
    with pytest.raises(ValueError, match="duplicate"):
        solve_closed([Station("a", 0.1), Station("a", 0.2)], 3)
    with pytest.raises(ValueError, match="infinite"):
        solve_closed([Station("a", 0.0)], 3, 0.0)
    with pytest.raises(ValueError, match="single-class"):
        solve_closed([Station("a", {"x": 0.1})], 3)
    with pytest.raises(ValueError, match="absent"):
        solve_closed([Station("a", {"x": 0.1, "typo": 0.2})], {"x": 3})


def test_zero_demand_station_and_pure_delay_network():
    res = solve_closed([Station("a", 0.0), Station("b", 0.2)], 4, 1.0)
    assert res.stations["a"].residence_time_s == 0.0 and res.stations["a"].utilization == 0.0
    res = solve_closed([Station("lat", 0.2, delay=True)], 4, 0.3)
    assert res.throughput == pytest.approx(4 / 0.5)
    assert res.saturation_throughput == math.inf and res.bottleneck is None


def test_general_service_copies_equal_separate_stations_in_exact_mva():
    """m identical separate queues with the load spread evenly are exactly m stations of demand D / m each
    (product form, QSP ch. 8): the multiplicity shortcut must give the exact MVA of the expanded network."""
    from models.queueing import Station, closed_curve
    from models.queueing.general_service import closed_ramp

    D = np.array([0.004, 0.010, 0.002])
    m = np.array([1, 8, 3])
    X, R = closed_ramp(D, np.ones(3), m, np.ones(3), delay_s=0.001, think_s=0.02, population=40)
    expanded = [Station(f"s{k}-{j}", D[k] / m[k]) for k in range(3) for j in range(m[k])]
    expanded.append(Station("wire", 0.001, delay=True))
    ref = closed_curve(expanded, 40, 0.02)
    np.testing.assert_allclose(X, np.asarray(ref.throughput), rtol=1e-12)
    per_station = np.asarray(ref.residence_time_s)
    sums = [per_station[:, sum(m[:k]):sum(m[:k + 1])].sum(axis=1) for k in range(3)]
    np.testing.assert_allclose(R, np.stack(sums, axis=1), rtol=1e-12)


def test_general_service_open_gives_pollaczek_khinchine_and_mm1():
    """Open residence: M/M/1 R = S / (1 - U) at cs² = 1; M/D/1 (cs² = 0) R = S (1 + U / (2 (1 - U)))
    (Pollaczek-Khinchine, Kleinrock 1975 vol. 1 eq. 5.70); saturated -> inf."""
    from models.queueing.general_service import open_residence_s, variability_open

    S = np.array([0.002, 0.002])
    v = variability_open(np.ones(2), np.array([1.0, 0.0]))
    u = np.array([0.6, 0.6])
    R = open_residence_s(S, np.ones(2), np.ones(2), v, u)
    assert R[0] == pytest.approx(0.002 / 0.4)
    assert R[1] == pytest.approx(0.002 * (1 + 0.6 / (2 * 0.4)))
    assert np.isinf(open_residence_s(S, np.ones(2), np.ones(2), v, np.array([1.0, 1.2]))).all()


def test_general_service_closed_reiser_against_a_ciw_simulation():
    """Closed ramp with deterministic service (cs² = 0) against a ciw simulation of the same closed loop: one
    queue with 1 ms constant service, an exponential 4 ms think delay, 6 jobs (utilisation ~0.93). Reiser's
    residual-life correction is an approximation that over-corrects at heavy load (Bolch et al. 2006 §9.1 report
    errors of several percent): the simulated throughput lies between the exponential MVA (cs² = 1, exact for
    exponential service: checked against the same simulation with exponential service) and Reiser's value, and
    Reiser's is within 10% of it."""
    import ciw

    from models.queueing.general_service import closed_ramp, variability_closed

    def model(cs2):
        return closed_ramp(np.array([0.001]), np.ones(1), np.ones(1), variability_closed(np.array([cs2])), 0.0,
                           0.004, 6)

    def simulate(service):
        ciw.seed(7)
        net = ciw.create_network(
            arrival_distributions=[ciw.dists.Sequential([1e-9] * 6 + [1e9]), None],  # 6 jobs, then none
            service_distributions=[service, ciw.dists.Exponential(1 / 0.004)],
            routing=[[0.0, 1.0], [1.0, 0.0]],
            number_of_servers=[1, float("inf")],
        )
        sim = ciw.Simulation(net)
        sim.simulate_until_max_time(100.0)
        recs = [r for r in sim.get_all_records() if r.node == 1 and r.arrival_date > 5.0]
        return len(recs) / 95.0

    x_det, x_exp = simulate(ciw.dists.Deterministic(0.001)), simulate(ciw.dists.Exponential(1000.0))
    X_reiser, X_mva = model(0.0)[0][-1], model(1.0)[0][-1]
    assert X_mva == pytest.approx(x_exp, rel=0.02)  # the simulation reproduces exact MVA for exponential service
    assert X_mva < x_det < X_reiser
    assert X_reiser == pytest.approx(x_det, rel=0.10)


def test_batched_ramps_equal_the_single_ramp_of_each_network():
    """200 random networks (station classes with demands, servers, copies, variability; delays; think times),
    solved at once by closed_ramp_batch and one by one by closed_ramp: equal to 1e-9 relative."""
    from models.queueing.general_service import closed_ramp, closed_ramp_batch

    rng = np.random.default_rng(17)
    B, K, N = 200, 7, 64
    s = rng.uniform(1e-5, 2e-3, (B, K)) * (rng.random((B, K)) > 0.2)
    c = rng.integers(1, 9, (B, K)).astype(float)
    m = rng.integers(1, 49, (B, K)).astype(float)
    v = rng.uniform(0.5, 1.5, (B, K))
    delay = rng.uniform(0, 1e-3, B)
    think = rng.uniform(0, 5e-3, B)
    X, R = closed_ramp_batch(s, c, m, v, delay, think, N, per_station=True)
    X2, total = closed_ramp_batch(s, c, m, v, delay, think, N)
    np.testing.assert_allclose(X2, X, rtol=1e-12)
    np.testing.assert_allclose(total, R.sum(axis=2), rtol=1e-9)
    for b in range(B):
        x1, r1 = closed_ramp(s[b], c[b], m[b], v[b], delay[b], think[b], N)
        np.testing.assert_allclose(X[b], x1, rtol=1e-9)
        np.testing.assert_allclose(R[b], r1, rtol=1e-9, atol=1e-18)

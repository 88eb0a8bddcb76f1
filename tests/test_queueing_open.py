"""Open networks: closed-form M/M/1 and M/M/c, multi-class, saturation, curve, and a ciw simulation."""

import collections
import math
from fractions import Fraction

import numpy as np
import pytest

from models.queueing import Station, open_curve, solve_open


def mmc_direct(c: int, s: float, lam: float) -> float:
    """M/M/c mean response time from the textbook closed form with factorials (Jain 1991 ch. 31)."""
    a = Fraction(lam * s).limit_denominator(10**12)
    rho = a / c
    p0 = 1 / (sum(a**k / math.factorial(k) for k in range(c)) + a**c / (math.factorial(c) * (1 - rho)))
    lq = p0 * a**c * rho / (math.factorial(c) * (1 - rho) ** 2)
    return float(lq / Fraction(lam).limit_denominator(10**12)) + s


def _floats(res):
    vals = [res.throughput, res.response_time_s, res.saturation_throughput, res.arrival_rate]
    for s in res.stations.values():
        vals += [s.utilization, s.residence_time_s, s.queue_length]
        for c in s.per_class.values():
            vals += [c.utilization, c.residence_time_s, c.queue_length]
    for c in res.classes.values():
        vals += [c.throughput, c.response_time_s]
    return vals


def test_jackson_network_matches_closed_forms():
    lam = 30.0
    stations = [Station("cpu", 0.02), Station("pool", 0.1, servers=4), Station("wire", 0.005, delay=True)]
    res = solve_open(stations, lam)
    assert res.stable and res.throughput == lam and res.population is None
    assert res.stations["cpu"].residence_time_s == pytest.approx(0.02 / (1 - 0.6), rel=1e-12)
    assert res.stations["pool"].residence_time_s == pytest.approx(mmc_direct(4, 0.1, lam), rel=1e-9)
    assert res.stations["wire"].residence_time_s == 0.005
    assert res.stations["pool"].utilization == pytest.approx(30 * 0.1 / 4)
    assert res.stations["wire"].utilization == 0.0
    total = sum(s.residence_time_s for s in res.stations.values())
    assert res.response_time_s == pytest.approx(total, rel=1e-12)
    for s in res.stations.values():
        assert s.queue_length == pytest.approx(lam * s.residence_time_s)  # Little
    assert res.saturation_throughput == pytest.approx(40.0) and res.bottleneck == "pool"


def test_multiclass_open_single_server_is_exact_bcmp():
    st = [Station("disk", {"r": 0.004, "w": 0.008}), Station("cpu", {"r": 0.001, "w": 0.0005})]
    res = solve_open(st, {"r": 100.0, "w": 50.0})
    u = 100 * 0.004 + 50 * 0.008
    assert res.stations["disk"].utilization == pytest.approx(u)
    assert res.stations["disk"].per_class["w"].residence_time_s == pytest.approx(0.008 / (1 - u))
    assert res.classes["r"].response_time_s == pytest.approx(0.004 / (1 - u) + 0.001 / (1 - 0.125))
    assert res.throughput == 150.0
    # classes with equal demands behave exactly like one class with the summed rate
    same = solve_open([Station("m", {"a": 0.01, "b": 0.01}, servers=3)], {"a": 100.0, "b": 150.0})
    one = solve_open([Station("m", 0.01, servers=3)], 250.0)
    assert same.response_time_s == pytest.approx(one.response_time_s, rel=1e-12)


@pytest.mark.parametrize("lam", [40.0, 41.0, 1e6, 1e300])
def test_unstable_network_is_reported_not_raised(lam):
    stations = [Station("cpu", 0.01), Station("pool", 0.1, servers=4), Station("wire", 0.005, delay=True)]
    res = solve_open(stations, lam)
    assert res.stable is False
    assert res.bottleneck == "pool"
    assert res.response_time_s is None
    assert res.stations["pool"].utilization == 1.0
    assert res.stations["pool"].residence_time_s is None and res.stations["pool"].queue_length is None
    assert res.throughput == pytest.approx(40.0)
    for v in _floats(res):
        assert v is None or math.isfinite(v)
    assert all(0.0 <= s.utilization <= 1.0 for s in res.stations.values())


def test_zero_arrival_rate():
    res = solve_open([Station("a", 0.2, servers=2), Station("b", 0.1)], 0.0)
    assert res.stable and res.throughput == 0.0
    assert res.response_time_s == pytest.approx(0.3)
    assert res.stations["a"].utilization == 0.0


@pytest.mark.parametrize("rate", [-1.0, math.nan, math.inf, "5", {"a": -1.0}, {}])
def test_invalid_rates_raise(rate):
    with pytest.raises(ValueError):
        solve_open([Station("a", 0.1)], rate)


def test_large_server_count_open():
    res = solve_open([Station("fleet", 10.0, servers=2000)], 0.9 * 2000 / 10.0)
    assert res.stable
    assert 10.0 <= res.response_time_s < 10.01


def test_open_curve_matches_point_solutions():
    stations = [Station("cpu", 0.02), Station("pool", 0.1, servers=4), Station("big", 1.0, servers=64),
                Station("wire", 0.005, delay=True)]
    rates = np.linspace(0.0, 45.0, 31)
    curve = open_curve(stations, rates)
    assert curve.bottleneck == "pool" and curve.saturation_arrival_rate == pytest.approx(40.0)
    for i, lam in enumerate(rates):
        point = solve_open(stations, float(lam))
        assert curve.stable[i] == point.stable
        if point.stable:
            assert curve.response_time_s[i] == pytest.approx(point.response_time_s, rel=1e-12)
        else:
            assert curve.response_time_s[i] is None
    assert curve.utilization.max() == 1.0
    with pytest.raises(ValueError):
        open_curve(stations, [1.0, -2.0])


def test_open_tandem_against_ciw_simulation():
    """Discrete-event simulation (ciw) of M/M/1 -> M/M/2 -> M/M/1; mean sojourn within 6 %."""
    ciw = pytest.importorskip("ciw")
    lam, S = 4.0, [0.15, 0.35, 0.1]
    net = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(lam), None, None],
        service_distributions=[ciw.dists.Exponential(1 / s) for s in S],
        routing=[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]],
        number_of_servers=[1, 2, 1],
    )
    ciw.seed(11)
    sim = ciw.Simulation(net)
    sim.simulate_until_max_time(4200)
    total = collections.defaultdict(float)
    visits = collections.Counter()
    start = {}
    for r in sim.get_all_records():
        total[r.id_number] += r.waiting_time + r.service_time
        visits[r.id_number] += 1
        if r.node == 1:
            start[r.id_number] = r.arrival_date
    sojourn = [total[i] for i in total if visits[i] == 3 and start.get(i, 0) > 200.0]  # drop warm-up
    assert len(sojourn) > 10_000
    model = solve_open([Station("a", S[0]), Station("b", S[1], servers=2), Station("c", S[2])], lam)
    assert np.mean(sojourn) == pytest.approx(model.response_time_s, rel=0.06)


def test_unstable_multiclass_open_network():
    st = [Station("disk", {"r": 0.004, "w": 0.008}), Station("cpu", {"r": 0.001, "w": 0.0005}, servers=2)]
    res = solve_open(st, {"r": 200.0, "w": 50.0})  # disk U = 1.2
    assert not res.stable and res.bottleneck == "disk"
    assert res.classes["r"].response_time_s is None
    assert res.throughput == pytest.approx(250.0 / 1.2)
    assert sum(c.utilization for c in res.stations["disk"].per_class.values()) == pytest.approx(1.0)
    for v in _floats(res):
        assert v is None or math.isfinite(v)

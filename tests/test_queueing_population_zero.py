"""A closed network with no jobs: zero throughput, zero queue lengths, zero utilisation, no error; a class with no
jobs beside others sees the residence times the arrival theorem gives its first job."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.queueing import Station, closed_curve, solve_closed
from models.queueing.mva_exact import empty_network, exact_single

STATIONS = [
    Station("cpu", 0.010),
    Station("disks", 0.040, servers=4),
    Station("net", 0.002, delay=True),
]


def _assert_idle(res, demands: dict[str, float]):
    assert res.throughput == 0.0 and res.population == 0
    for name, st in res.stations.items():
        assert st.queue_length == 0.0 and st.utilization == 0.0
        assert st.residence_time_s == pytest.approx(demands[name])  # what the first job would see
    assert res.response_time_s == pytest.approx(sum(demands.values()))
    assert all(c.throughput == 0.0 for c in res.classes.values())
    for value in (res.throughput, res.response_time_s, *(s.residence_time_s for s in res.stations.values())):
        assert math.isfinite(value)


@pytest.mark.parametrize("method", ["exact", "schweitzer", "linearizer"])
def test_population_zero_single_class(method: str):
    res = solve_closed(STATIONS, 0, think_time_s=1.0, method=method)
    _assert_idle(res, {"cpu": 0.010, "disks": 0.040, "net": 0.002})
    # and the first job: X(1) = 1 / (Z + sum D) (MVA at n = 1, no queueing yet)
    one = solve_closed(STATIONS, 1, think_time_s=1.0, method=method)
    assert one.throughput == pytest.approx(1 / (1.0 + 0.052))
    assert res.stations["cpu"].residence_time_s == pytest.approx(one.stations["cpu"].residence_time_s)


@pytest.mark.parametrize("method", ["exact", "schweitzer", "linearizer"])
def test_population_zero_every_class(method: str):
    stations = [Station("cpu", {"oltp": 0.01, "batch": 0.03}),
                Station("disk", {"oltp": 0.02, "batch": 0.05}, servers=2)]
    res = solve_closed(stations, {"oltp": 0, "batch": 0}, {"oltp": 0.5}, method=method)
    assert res.throughput == 0.0
    for st in res.stations.values():
        assert st.queue_length == 0.0 and st.utilization == 0.0
        assert all(pc.queue_length == 0.0 and pc.utilization == 0.0 for pc in st.per_class.values())
    assert res.stations["disk"].per_class["batch"].residence_time_s == pytest.approx(0.05)


def test_no_demand_and_no_think_time_is_fine_with_no_jobs():
    res = solve_closed([Station("a", 0.0)], 0, 0.0)
    assert res.throughput == 0.0 and res.stations["a"].queue_length == 0.0
    with pytest.raises(ValueError, match="infinite"):
        solve_closed([Station("a", 0.0)], 1, 0.0)


def test_one_class_absent_beside_another():
    """Class b has no jobs: the a-class results equal a's network alone, and b's residence time at a single server
    is D_b (1 + Q(n)) -- the arrival theorem, computed here from a's own queue length."""
    stations = [Station("cpu", {"a": 0.02, "b": 0.01}), Station("think-net", {"a": 0.005, "b": 0.001}, delay=True)]
    res = solve_closed(stations, {"a": 5, "b": 0}, {"a": 0.1, "b": 0.1})
    alone = solve_closed([Station("cpu", 0.02), Station("think-net", 0.005, delay=True)], 5, 0.1)
    assert res.classes["a"].throughput == pytest.approx(alone.throughput, rel=1e-12)
    assert res.classes["b"].throughput == 0.0
    q_cpu = alone.stations["cpu"].queue_length
    assert res.stations["cpu"].queue_length == pytest.approx(q_cpu, rel=1e-12)
    cpu_b = res.stations["cpu"].per_class["b"]
    assert cpu_b.queue_length == 0.0 and cpu_b.utilization == 0.0
    assert cpu_b.residence_time_s == pytest.approx(0.01 * (1 + q_cpu), rel=1e-12)
    assert res.stations["think-net"].per_class["b"].residence_time_s == pytest.approx(0.001)


def test_absent_class_at_a_multi_server_station_matches_its_first_job():
    stations = [Station("ctrl", {"a": 0.004, "b": 0.006}, servers=3), Station("disk", {"a": 0.01, "b": 0.002})]
    res = solve_closed(stations, {"a": 6, "b": 0}, {"a": 0.05, "b": 0.05})
    first = solve_closed(stations, {"a": 6, "b": 1}, {"a": 0.05, "b": 0.05})
    for name in ("ctrl", "disk"):
        assert res.stations[name].per_class["b"].residence_time_s == pytest.approx(
            first.stations[name].per_class["b"].residence_time_s, rel=1e-12
        )
        assert res.stations[name].per_class["b"].queue_length == 0.0


def test_exact_single_kernel_and_empty_network():
    D = np.array([0.01, 0.04])
    X, R, method = exact_single(D, np.array([1, 4]), np.array([False, False]), 1.0, 0)
    assert X.shape == (0,) and R.shape == (0, 2) and method == "exact-mva"
    X0, R0 = empty_network(D)
    assert X0.tolist() == [0.0] and R0[:, 0].tolist() == D.tolist()


def test_curve_still_starts_at_one_job():
    with pytest.raises(ValueError):
        closed_curve(STATIONS, 0)

"""The engines' speed helpers give exactly what they replace (issue 27: faster, no number changed)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.queueing.arrays import sorted_unique


@pytest.mark.parametrize("seed", range(6))
def test_sorted_unique_equals_numpy_unique(seed: int) -> None:
    """Same values, same dtype and same order as ``numpy.unique`` on integer and float arrays with repeats."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(0, 40))
    ints = rng.integers(-5, 6, size=size)
    floats = np.round(rng.normal(size=(size, 2)), 1)
    for values in (ints, floats, ints.astype(float), list(ints)):
        got, want = sorted_unique(values), np.unique(values)
        assert got.dtype == want.dtype
        assert got.tolist() == want.tolist()


def test_sorted_unique_small_inputs() -> None:
    """An empty array, one value and all-equal values."""
    assert sorted_unique(np.empty(0, dtype=int)).tolist() == []
    assert sorted_unique([7.5]).tolist() == [7.5]
    assert sorted_unique([3, 3, 3]).tolist() == [3]


def test_interned_stations_are_one_object_per_value() -> None:
    """Equal station tuples built apart come back as one object (the engine's identity caches hit); a different
    tuple stays itself."""
    from models.performance.paths import StationSpec, intern_stations
    from models.performance.stations import StationId

    def build(read_s: float) -> tuple[StationSpec, ...]:
        return (StationSpec("node 1 CPU", "n1", read_s, 2e-4, 8, False, True, "cpu", 0.0, 1, 1.0, 1.0,
                            StationId("cpu", 1, None)),)

    first = intern_stations(build(1e-4))
    again = intern_stations(build(1e-4))
    assert again is first
    other = intern_stations(build(3e-4))
    assert other is not first and other[0].read_s == 3e-4


def test_station_load_equals_the_dataclass() -> None:
    """``station_load`` makes the same record as ``StationLoad(...)``: equal, same hash, same fields."""
    from models.performance.results import StationLoad, station_load
    from models.performance.stations import StationId

    ident = StationId("target_ports", None, 2)
    fast, slow = station_load("FC ports", "n1", 0.4, 0.12, ident), StationLoad("FC ports", "n1", 0.4, 0.12, ident)
    assert fast == slow and hash(fast) == hash(slow)
    assert dataclasses.asdict(fast) == dataclasses.asdict(slow)


def _plain_ramp(s: np.ndarray, c: np.ndarray, m: np.ndarray, v: np.ndarray, delay_s: float, think_s: float,
                population: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The closed ramp's recursion as a plain loop over lists (the engine's before it was unrolled), with how many
    steps took the bound and how many the never-fewer-IOPS branch."""
    a = s / c
    par = s - a
    fixed = float(delay_s) + float(think_s) + float(par.sum())
    inv_m, w, a_list = (1.0 / m).tolist(), (a * (v - 1.0) / m).tolist(), a.tolist()
    caps = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf)
    bottleneck = int(np.argmin(caps))
    x_max = float(caps[bottleneck])
    rq, x, xs, rows, over, under = [0.0] * len(a_list), 0.0, [], [], 0, 0
    for n in range(1, population + 1):
        rq = [a_list[k] * (1.0 + x * (rq[k] * inv_m[k] + w[k])) for k in range(len(a_list))]
        queued = sum(rq)
        x_new = n / (fixed + queued)
        if x_new > x_max:
            rq[bottleneck] += n / x_max - fixed - queued
            x_new, over = x_max, over + 1
        elif x_new < x:
            scale = (n / x - fixed) / queued
            rq = [r * scale for r in rq]
            x_new, under = x, under + 1
        x = x_new
        xs.append(x)
        rows.append(rq)
    return np.array(xs), np.asarray(rows, dtype=float).reshape(population, len(a_list)) + par, over, under


def test_unrolled_closed_ramp_is_bit_identical_to_the_plain_loop() -> None:
    """``closed_ramp`` (unrolled per number of classes) gives the plain loop's floats exactly, on random networks
    that reach the bound and that take the never-fewer-IOPS branch."""
    from models.queueing.general_service import closed_ramp

    rng = np.random.default_rng(27)
    over = under = 0
    for _ in range(400):
        k = int(rng.integers(1, 30))
        s = rng.uniform(1e-6, 1e-3, k) * (rng.random(k) > 0.15)
        s[0] = s[0] or 1e-4
        c, m = rng.integers(1, 40, k).astype(float), rng.integers(1, 5, k).astype(float)
        v = rng.uniform(0.0, 3.0, k)
        n = int(rng.integers(1, 300))
        delay, think = float(rng.uniform(0, 1e-3)) * (rng.random() > 0.3), float(rng.uniform(0, 1e-2)) * (
            rng.random() > 0.5)
        x_want, r_want, o, u = _plain_ramp(s, c, m, v, delay, think, n)
        x_got, r_got = closed_ramp(s, c, m, v, delay, think, n)
        assert x_got.tobytes() == x_want.tobytes() and r_got.tobytes() == r_want.tobytes()
        over, under = over + o, under + u
    # a network whose throughput would fall from one population to the next (high service variability)
    s, c = np.array([0.0, 1.8637e-05, 5.2654e-04]), np.array([28.0, 31.0, 1.0])
    m, v = np.array([2.0, 4.0, 1.0]), np.array([1.0186, 2.1144, 2.7093])
    x_want, r_want, o, u = _plain_ramp(s, c, m, v, 3.18e-4, 0.0, 140)
    x_got, r_got = closed_ramp(s, c, m, v, 3.18e-4, 0.0, 140)
    assert x_got.tobytes() == x_want.tobytes() and r_got.tobytes() == r_want.tobytes()
    over, under = over + o, under + u
    assert over > 0 and under > 0  # both branches were compared

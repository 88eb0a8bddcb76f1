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

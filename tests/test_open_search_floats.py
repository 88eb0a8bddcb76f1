"""``engine.open_iops_at_latency`` searches a network of fewer than ``SMALL_OPEN_QUEUES`` queueing stations in plain
floats by bisection (``engine._open_search_floats``): its answer must be, float for float, the vectorised grid
search's (the same search with the float path switched off), on random networks of 1 to 10 stations (queues of
1 to 8 servers, delays, host-side stations, mixed variability), light to saturated limits, and on the paths of
examples (arrays, cloud, vSAN); and the float path must actually take the small networks."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from models.design import resolve
from models.performance import engine
from models.performance.engine import (
    StationSpec,
    build_paths,
    open_iops_at_latency,
    open_storage_latency_ms,
    saturation_iops,
)
from models.resources import examples_dir
from models.store import load_any


def _networks(count: int = 150):
    rng = random.Random(20261130)
    for _ in range(count):
        stations = []
        for i in range(rng.randint(1, 10)):
            delay = rng.random() < 0.2
            stations.append(StationSpec(
                name=f"s{i}", component="c", read_s=rng.uniform(1e-6, 2e-3) * rng.choice((1, 1, 1e-3)),
                write_s=rng.uniform(1e-6, 3e-3), servers=rng.randint(1, 8), delay=delay,
                storage_side=rng.random() < 0.85 or i == 0, multiplicity=rng.randint(1, 4),
                scv_service=rng.choice((0.0, 0.5, 1.0, 2.0)), scv_arrival=rng.choice((1.0, 1.5))))
        yield tuple(stations), rng.choice((0.0, 0.3, 0.7, 1.0)), rng


def _searches():
    for specs, rf, rng in _networks():
        demands = np.array([s.demand(rf) for s in specs])
        sat, _ = saturation_iops(specs, rf)
        light = open_storage_latency_ms(specs, demands, 1.0, rf)
        if light is None:
            continue
        for limit in (light * 0.5, light * 1.0, light * 1.001, light * 3, light * 50, math.inf):
            for low in (1e-9, 0.3 * sat if math.isfinite(sat) else 1_000.0):
                yield specs, demands, limit, low, sat, rf, rng.choice((2, 4))
    for name in ("aff8080-sqlserver-tpce", "cvo-azure-ds14-ha-oltp", "vsan8-esa-6host-sqlserver-oltp",
                 "vsan8-osa-hybrid-4host-oltp"):
        design = resolve(load_any(examples_dir() / f"{name}.toml"))
        for path in build_paths(design.scenario, design.catalog, None)[0]:
            rf = path.read_fraction
            demands = np.array([s.demand(rf) for s in path.stations])
            sat, _ = saturation_iops(path.stations, rf)
            light = open_storage_latency_ms(path.stations, demands, 1.0, rf)
            for limit in (light * 1.01, light * 2, path.workload.slo_ms):
                yield path.stations, demands, limit, 1.0, sat, rf, 4


def test_the_float_search_equals_the_grid_search(monkeypatch: pytest.MonkeyPatch):
    cases = list(_searches())
    small = [len(engine._static(tuple(c[0]), float(c[5])).split(False)[0]) < engine.SMALL_OPEN_QUEUES
             for c in cases]
    taken = sum(small)
    assert taken >= 300 and len(cases) - taken >= 50  # both paths are exercised
    got = [open_iops_at_latency(*c) for c in cases]
    monkeypatch.setattr(engine, "SMALL_OPEN_QUEUES", 0)  # every search on the vectorised grid
    want = [open_iops_at_latency(*c) for c in cases]
    assert got == want
    assert sum(g is not None for g in got) >= 300


def test_the_float_search_takes_the_small_networks(monkeypatch: pytest.MonkeyPatch):
    calls = []
    original = engine._open_latency_one
    monkeypatch.setattr(engine, "_open_latency_one", lambda *a: calls.append(1) or original(*a))
    specs = (StationSpec(name="cpu", component="c", read_s=1e-4, write_s=2e-4, servers=4),
             StationSpec(name="drive", component="c", read_s=5e-4, write_s=5e-4, multiplicity=8),
             StationSpec(name="wire", component="c", read_s=2e-5, write_s=2e-5, delay=True))
    demands = np.array([s.demand(0.7) for s in specs])
    sat, _ = saturation_iops(specs, 0.7)
    x = open_iops_at_latency(specs, demands, 2.0, 1.0, sat, 0.7)
    assert x is not None and calls == []
    # the answer is where the latency reaches the limit (below it, and the next grid step past it)
    assert open_storage_latency_ms(specs, demands, x, 0.7) <= 2.0 < open_storage_latency_ms(specs, demands,
                                                                                             x * (1 + 1e-6), 0.7)


def test_the_float_latency_equals_the_arrays_point_by_point():
    compared = 0
    for specs, rf, _rng in _networks():
        st = engine._static(specs, float(rf))
        demands = np.array([s.demand(rf) for s in specs])
        floats = engine._open_latency_floats(st, demands)
        if floats is None:
            continue
        sat, _ = saturation_iops(specs, rf)
        grid = np.linspace(0.0, 1.1 * sat if math.isfinite(sat) else 1e6, 301)
        with np.errstate(divide="ignore", invalid="ignore"):
            arrays = engine._open_latency_one(st, demands)(grid)
        assert [floats(x) for x in grid.tolist()] == arrays.tolist()
        compared += 1
    assert compared >= 50

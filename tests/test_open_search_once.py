"""``engine.open_iops_at_latency`` computes what does not depend on the IOPS once per search
(``engine._open_latency_one``): its latencies and its answer must be, float for float, those of evaluating every
grid with ``engine._open_latency_many`` as the search did before, on the paths of examples of every kind (arrays,
cloud, vSAN), with and without other workloads' background, at limits below, inside and beyond their ramps."""

from __future__ import annotations

import math

import numpy as np

from models.design import resolve
from models.performance.engine import (
    OPEN_SEARCH_GRID,
    _grid,
    _open_latency_many,
    _open_latency_one,
    _static,
    build_paths,
    open_iops_at_latency,
    open_storage_latency_ms,
    saturation_iops,
)
from models.resources import examples_dir
from models.store import load_any

EXAMPLES = ("aff8080-sqlserver-tpce", "a800-oracle-slob-nvmefc", "cvo-azure-ds14-ha-oltp", "ef600-nvme-ddp-oltp-nvmefc",
            "vsan8-esa-6host-sqlserver-oltp", "vsan8-osa-hybrid-4host-oltp", "spinning192-sas-analytics")


def _reference(specs, demands, limit_ms, low_iops, saturation, read_fraction, rounds=4):
    """The search as it was written before: every latency by ``_open_latency_many``."""
    if not math.isfinite(saturation) or saturation <= low_iops:
        return None
    lat = open_storage_latency_ms(specs, demands, low_iops, read_fraction)
    if lat is None or lat > limit_ms:
        return None
    lo, hi = low_iops, saturation
    for _ in range(rounds):
        grid = _grid(np.array([lo]), np.array([hi]))[0]
        ok = _open_latency_many(specs, demands, grid, read_fraction) <= limit_ms
        j = min(int(np.nonzero(ok)[0][-1]), OPEN_SEARCH_GRID - 1)
        lo, hi = float(grid[j]), float(grid[j + 1])
        if hi - lo <= 1e-6 * hi:
            break
    return lo


def _paths():
    for name in EXAMPLES:
        design = resolve(load_any(examples_dir() / f"{name}.toml"))
        yield from build_paths(design.scenario, design.catalog, None)[0]


def test_the_open_search_equals_the_search_on_every_grid():
    searched = 0
    for path in _paths():
        rf = path.read_fraction
        base = np.array([s.demand(rf) for s in path.stations])
        for inflation in (1.0, 1.7):
            demands = base * inflation
            sat, _ = saturation_iops(path.stations, rf, [inflation] * len(base))
            light = open_storage_latency_ms(path.stations, demands, 1.0, rf)
            assert light is not None
            for limit in (light * 0.5, light * 1.01, light * 2, light * 10, path.workload.slo_ms):
                for low in (1e-9, 0.3 * sat if math.isfinite(sat) else 1_000.0):
                    got = open_iops_at_latency(path.stations, demands, limit, low, sat, rf)
                    assert got == _reference(path.stations, demands, limit, low, sat, rf)
                    searched += got is not None
            grid = np.linspace(0.0, 1.2 * sat if math.isfinite(sat) else 1e6, 97)
            with np.errstate(divide="ignore", invalid="ignore"):
                once = _open_latency_one(_static(path.stations, float(rf)), demands)(grid)
            assert np.array_equal(once, _open_latency_many(path.stations, demands, grid, rf))
    assert searched >= 40

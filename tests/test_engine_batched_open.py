"""The open-model continuations of many paths computed together equal each path's alone, float for float.

``engine._continuations`` (every job's curve continuation and probes of an evaluation in a few array operations,
rows of one width at a time) must give exactly ``engine._continuation_arrays`` of each path: the normal and failure
state paths of examples of several widths at once, a path whose ramp ends near saturation (only the probes), and one
of unbounded saturation.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from models.design import resolve
from models.evaluate import with_layouts
from models.performance import engine
from models.performance.resilience import _degraded
from models.project import load
from models.resources import examples_dir


def _paths() -> list:
    out = []
    for name in ("aff8080-nfs-file-services", "vsan8-esa-stretched-4x4-sqlserver-oltp", "cvo-azure-ds4-ha-oltp",
                 "gcnv-premium-oracle-nfs"):
        design = with_layouts(resolve(load(Path(examples_dir()) / f"{name}.toml")))
        paths, _ = engine.evaluate_paths(design.scenario, design.catalog, design.raid)
        for path in paths:
            out.append(path)
            out += [state.path for state in _degraded(design.scenario, design.catalog, path, [], {})]
    return out


def _request(path, start_share: float) -> tuple:
    rf = path.read_fraction
    demands = np.array([spec.demand(rf) for spec in path.stations])
    sat, _ = engine.saturation_iops(path.stations, rf)
    probes = np.array([0.0, 0.5 * sat, 0.8 * sat]) if math.isfinite(sat) else np.array([0.0])
    start = start_share * sat if math.isfinite(sat) else 1_000.0
    return (path.stations, demands, start, sat, 4.0 * path.workload.slo_ms, rf, probes)


def test_continuations_together_equal_each_alone() -> None:
    paths = _paths()
    widths = {len(engine._static(p.stations, p.read_fraction).split(False)[0]) for p in paths}
    assert len(widths) >= 3  # rows of several widths, computed apart
    requests = [_request(p, share) for p in paths for share in (0.2, 0.6, 0.98)]
    together = engine._continuations(requests)
    assert len(together) == len(requests)
    near = 0
    for request, got in zip(requests, together):
        specs, demands, start, sat, limit, rf, probes = request
        want = engine._continuation_arrays(specs, demands, start, sat, limit, rf, probes)
        for a, b in zip(got, want):
            assert a.shape == b.shape and np.array_equal(a, b)
        near += len(got[0]) == 0
    assert 0 < near < len(requests)  # some ramps end near saturation: their probes only
    assert any(len(got[0]) > 10 for got in together)

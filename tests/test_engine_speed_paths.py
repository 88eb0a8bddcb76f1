"""The engine's fast paths give what the plain ones give (issue 27): curves kept as columns until read, the
closed-ramp kernel without the zero residual terms, and a ramp cache keyed on everything a ramp depends on."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import numpy as np
import pytest

import models.queueing.general_service as gs
from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.performance import engine
from models.performance.paths import StationSpec
from models.performance.results import CurvePoint, WorkloadPerformance, curve_points, replace_figures
from models.project import load
from models.resources import examples_dir
from models.serialize import evaluation_to_dict


@pytest.fixture(scope="module")
def evaluated():
    """An example with a multi-point curve and its failure states, evaluated cold."""
    project = load(examples_dir() / "a800-oracle-slob-fcp.toml")
    engine._CURVE_CACHE.clear()
    evaluation = evaluate(project)
    return with_resilience(evaluation, evaluate_resilience(project, evaluation))


def _eager(wp: WorkloadPerformance) -> WorkloadPerformance:
    """``wp`` rebuilt field by field through the dataclass constructor (its curves as CurvePoint tuples)."""
    return WorkloadPerformance(**{f.name: getattr(wp, f.name) for f in dataclasses.fields(wp)})


def _records(evaluation) -> list[WorkloadPerformance]:
    states = [st.performance for results in evaluation.resilience.states.values() for st in results]
    return [*evaluation.performance.workloads, *states]


def test_curves_read_late_equal_curves_built_at_once(evaluated) -> None:
    """A curve kept as columns reads as the CurvePoint tuple the constructor would hold: same points, the same
    record (equality, hash, repr, asdict), in normal operation and in every failure state."""
    records = [copy.copy(wp) for wp in _records(evaluated)]  # copies not yet read
    assert len(records) >= 4
    for wp in records:
        assert "curve" not in wp.__dict__  # not built yet
        eager = _eager(wp)
        assert isinstance(wp.curve, tuple) and all(type(p) is CurvePoint for p in wp.curve)
        assert len(wp.curve) > 100
        assert wp == eager and hash(wp) == hash(eager) and repr(wp) == repr(eager)
        assert dataclasses.asdict(wp) == dataclasses.asdict(eager)
        first = wp.curve[0]
        assert first == CurvePoint(first.iops, first.latency_ms, first.mbps, first.host_latency_ms, first.population,
                                   first.latency_band_p10_ms, first.latency_band_p90_ms, first.latency_p95_ms,
                                   first.latency_p99_ms)
    with pytest.raises(AttributeError):
        _ = records[0].no_such_field


def test_replace_figures_keeps_the_columns_and_equals_dataclasses_replace(evaluated) -> None:
    """The failure states' clamp to normal (``resilience.at_most_normal``) changes figures of records whose curves
    nobody has read: the copy holds the same columns (no points made) and equals ``dataclasses.replace``'s."""
    wp = copy.copy(evaluated.performance.workloads[0])
    assert "curve" not in wp.__dict__
    lower = wp.max_iops_at_slo * 0.5
    kept = replace_figures(wp, max_iops_at_slo=lower, saturation_iops=wp.saturation_iops * 0.5)
    assert "curve" not in wp.__dict__ and "curve" not in kept.__dict__
    assert kept.max_iops_at_slo == lower and kept.saturation_iops == wp.saturation_iops * 0.5
    assert kept == dataclasses.replace(_eager(wp), max_iops_at_slo=lower, saturation_iops=wp.saturation_iops * 0.5)
    assert kept.curve == _eager(wp).curve and kept.open_curve == _eager(wp).open_curve
    built = copy.copy(wp)
    _ = built.curve
    assert replace_figures(built, name="x") == dataclasses.replace(built, name="x")
    with pytest.raises(ValueError):
        replace_figures(wp, curve=())


def test_curves_survive_pickle_copy_and_replace(evaluated) -> None:
    """The GUI's worker pickles results: a record whose curve was never read unpickles equal to the eager one, and
    so do copies and ``dataclasses.replace``; its pickle carries the columns, not point objects."""
    wp = copy.copy(evaluated.performance.workloads[0])
    assert "curve" not in wp.__dict__
    data = pickle.dumps(wp)
    assert b"CurvePoint" not in data
    back = pickle.loads(data)
    eager = _eager(wp)
    assert back == eager and back.curve == eager.curve and back.open_curve == eager.open_curve
    assert copy.deepcopy(wp) == eager
    assert dataclasses.replace(wp, name="renamed").curve == eager.curve
    read = copy.copy(wp)
    _ = read.curve
    assert b"CurvePoint" not in pickle.dumps(read)  # built points are rebuilt from the columns, not sent
    assert pickle.loads(pickle.dumps(read)) == eager


def test_json_writes_every_curve_point(evaluated) -> None:
    """``evaluate --json``'s dictionary holds every point of every curve, states' included."""
    data = json.loads(json.dumps(evaluation_to_dict(evaluated)))
    for workload, wp in zip(data["workloads"], evaluated.performance.workloads):
        assert [p["iops"] for p in workload["curve"]] == [p.iops for p in wp.curve]
        assert len(workload["curve"]) > 100
        states = evaluated.resilience.states[wp.workload_id]
        assert len(workload["states"]) == len(states) >= 3
        for got, st in zip(workload["states"], states):
            want = [*st.performance.curve, *st.performance.open_curve]
            assert [p["latency_band_p90_ms"] for p in got["curve"]] == [p.latency_band_p90_ms for p in want]


def test_curve_points_are_the_constructor_s() -> None:
    """``curve_points`` makes exactly what ``CurvePoint(...)`` makes."""
    cols = ([1.0, 2.0], [0.1, 0.2], [3.0, 4.0], [None, 0.3], [1, 2], [0.05, 0.1], [None, 0.3], None, None)
    assert curve_points(*cols) == (CurvePoint(1.0, 0.1, 3.0, None, 1, 0.05, None),
                                   CurvePoint(2.0, 0.2, 4.0, 0.3, 2, 0.1, 0.3))


def test_kernel_equals_the_plain_recursion() -> None:
    """The unrolled closed-ramp kernel (zero residual terms left out) gives the very floats of the plain loop, over
    random networks with exponential, deterministic and bursty classes and classes of no work."""
    rng = np.random.default_rng(27)
    for trial in range(150):
        k = int(rng.integers(1, 10))
        s = rng.uniform(1e-6, 1e-3, k)
        if trial % 5 == 0:
            s[int(rng.integers(0, k))] = 0.0
        c = rng.integers(1, 8, k).astype(float)
        m = rng.integers(1, 30, k).astype(float)
        v = np.where(rng.random(k) < 0.6, 1.0, rng.uniform(0.5, 2.0, k))
        d, z, n = float(rng.uniform(0, 1e-3)), float(rng.choice([0.0, 1e-3])), int(rng.integers(1, 400))
        x_kernel, r_kernel = gs.closed_ramp(s, c, m, v, d, z, n)
        x_plain, r_plain = gs.closed_ramp(s, c, m, v, d, z, n, unrolled=False)
        assert np.array_equal(x_kernel, x_plain) and np.array_equal(r_kernel, r_plain)


def _spec(read_s: float, write_s: float) -> StationSpec:
    return StationSpec("node 1 CPU", "c1", read_s, write_s, servers=2, kind="cpu", scv_service=1.0)


def test_ramp_cache_tells_read_write_splits_apart() -> None:
    """Two stations of one name and one demand per I/O but different read / write times have different service
    variability, so different ramps: the cache must not hand the first's to the second."""
    a, b = (_spec(1 / 4096, 3 / 4096),), (_spec(2 / 4096, 2 / 4096),)  # one demand, exactly
    rf = 0.5
    assert a[0].demand(rf) == b[0].demand(rf) and a[0].service_scv(rf) != b[0].service_scv(rf)
    demands = (a[0].demand(rf),)
    engine._CURVE_CACHE.clear()
    alone = engine._curve(b, demands, rf, 64, 0.0)
    engine._CURVE_CACHE.clear()
    engine._curve(a, demands, rf, 64, 0.0)
    after = engine._curve(b, demands, rf, 64, 0.0)
    assert not np.array_equal(alone[0], engine._curve(a, demands, rf, 64, 0.0)[0])
    assert np.array_equal(after[0], alone[0]) and np.array_equal(after[1], alone[1])
    engine._CURVE_CACHE.clear()


def test_transfer_window_reuses_the_evaluation_s_performance() -> None:
    """The SnapMirror transfer window compared against the evaluation's own performance (not solved again) gives
    the very figures of solving it there; the figures-only solve (no curve percentiles) keeps every figure."""
    from models.capacity import evaluate_capacity
    from models.design import resolve
    from models.evaluate import with_layouts
    from models.performance import evaluate_performance
    from models.replication import evaluate_protection

    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    design = with_layouts(resolve(project))
    evaluation = evaluate(project, design=design)
    assert evaluation.protection is not None and evaluation.protection.loads
    scenario, catalog = design.scenario, design.catalog
    # the capacity before the DR system's waterfall took in the copies (evaluation.capacity holds them)
    capacity = evaluate_capacity(scenario, catalog, design.raid)
    alone = evaluate_protection(scenario, catalog, capacity, design.settings, design.raid,
                                horizon_months=project.requirements.horizon_months)
    assert alone == evaluation.protection
    assert any(end.own_workloads for end in alone.loads)
    full = evaluate_performance(scenario, catalog, design.settings, design.raid)
    lean = evaluate_performance(scenario, catalog, design.settings, design.raid, curve_tails=False)
    for a, b in zip(full.workloads, lean.workloads):
        assert (a.max_iops_at_slo, a.latency_at_target_ms, a.saturation_iops, a.stations) == \
            (b.max_iops_at_slo, b.latency_at_target_ms, b.saturation_iops, b.stations)
        assert any(p.latency_p99_ms is not None for p in a.curve)
        assert all(p.latency_p99_ms is None for p in b.curve)

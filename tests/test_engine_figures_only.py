"""The engine's lighter solves give exactly the full solve's figures.

* ``figures_at_targets`` (the replication transfer window's solve: the open model alone) gives each rated
  workload's latency at its target and its stations equal, float for float, to ``evaluate_performance``'s;
* ``evaluate_performance(..., bands=False)`` (the N+k requirement's solve) gives the same figures as with bands,
  with empty curves and no bands;
* a path built inside ``shared_host_sides`` (the stored bytes summed once per system) equals one built alone;
* equal closed ramps of one solve are solved once, each with the floats it had when solved again.

Cases: the bundled SnapMirror example with its transfers added (source and destination), every example, and a
generated HA pair whose workloads include some without a target, one by MB/s and one far beyond saturation (the
branches of the open model: ``tests/data/make_states_reference.mixed``).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from models.design import resolve
from models.evaluate import evaluate, with_layouts
from models.performance import engine, evaluate_performance
from models.performance.engine import figures_at_targets, target_rate
from models.performance.paths import build_path, shared_host_sides
from models.resources import examples_dir
from models.store import load_any

DATA = Path(__file__).resolve().parent / "data"
_spec = importlib.util.spec_from_file_location("make_states_reference_figures", DATA / "make_states_reference.py")
assert _spec is not None and _spec.loader is not None
reference_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference_script)

EXAMPLES = sorted(Path(examples_dir()).glob("*.toml"))


def _design(project):
    return with_layouts(resolve(project))


def _with_transfers(project, monkeypatch):
    """The SnapMirror example's scenario with its transfers as workloads, as the transfer window solves it (caught
    on its way to :func:`figures_at_targets` during an evaluation)."""
    seen = []
    real = engine.figures_at_targets

    def catch(scenario, catalog, raid=None):
        seen.append(scenario)
        return real(scenario, catalog, raid)

    monkeypatch.setattr(engine, "figures_at_targets", catch)
    evaluation = evaluate(project)
    monkeypatch.setattr(engine, "figures_at_targets", real)
    assert evaluation.protection is not None and evaluation.protection.loads, "the example has transfer windows"
    assert len(seen) == 1
    return seen[0]


def _mixed_beyond():
    projects = dict(reference_script.projects())
    assert "mixed:10x6" in projects
    return projects["mixed:10x6"]()


def _assert_same_figures(scenario, catalog, raid) -> int:
    full = evaluate_performance(scenario, catalog, None, raid, curve_tails=False)
    light = figures_at_targets(scenario, catalog, raid)
    assert light is not None
    rated = {wp.workload_id: wp for wp in full.workloads if wp.target_iops is not None}
    assert set(light) == set(rated)
    for wid, (latency, stations) in light.items():
        wp = rated[wid]
        assert latency == wp.latency_at_target_ms or (latency is None and wp.latency_at_target_ms is None)
        assert stations == wp.stations, wid
    return len(light)


def test_transfer_window_figures_equal_the_full_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    project = load_any(Path(examples_dir()) / "aff-a70-snapmirror-cvo-dr.toml")
    design = _design(project)
    loaded = _with_transfers(project, monkeypatch)
    assert _assert_same_figures(loaded, design.catalog, design.raid) == 3  # the workload, the read, the write


def test_figures_at_targets_beyond_saturation_and_without_targets() -> None:
    project = _mixed_beyond()
    design = _design(project)
    scenario = design.scenario
    full = evaluate_performance(scenario, design.catalog, None, design.raid)
    beyond = [wp for wp in full.workloads if wp.target_iops and wp.target_iops >= wp.saturation_iops]
    assert beyond, "the case has a workload whose target is beyond its saturation"
    unrated = [w for w in scenario.workloads if w.enabled and target_rate(w) is None]
    assert unrated, "the case has workloads without a target"
    assert _assert_same_figures(scenario, design.catalog, design.raid) == len(full.workloads) - len(unrated)


@pytest.mark.parametrize("path", EXAMPLES[::3], ids=lambda p: p.stem)
def test_figures_at_targets_on_examples(path: Path) -> None:
    design = _design(load_any(path))
    _assert_same_figures(design.scenario, design.catalog, design.raid)


@pytest.mark.parametrize("path", [*EXAMPLES[1::4], None], ids=lambda p: p.stem if p else "mixed")
def test_no_bands_keeps_every_figure(path: Path | None) -> None:
    project = load_any(path) if path is not None else _mixed_beyond()
    design = _design(project)
    full = evaluate_performance(design.scenario, design.catalog, None, design.raid, curve_tails=False)
    bare = evaluate_performance(design.scenario, design.catalog, None, design.raid, curve_tails=False, bands=False)
    assert [wp.workload_id for wp in bare.workloads] == [wp.workload_id for wp in full.workloads]
    for a, b in zip(bare.workloads, full.workloads):
        for name in ("saturation_iops", "max_iops_at_slo", "latency_at_target_ms", "target_met", "stations",
                     "bottleneck", "peak_iops", "operating_iops", "headroom_pct", "host_latency_at_target_ms",
                     "read_latency_ms", "write_latency_ms", "knee_note"):
            assert getattr(a, name) == getattr(b, name), (a.workload_id, name)
        assert a.curve == () and a.open_curve == ()
        assert a.saturation_iops_band_p10 is None and a.max_iops_at_slo_band_p90 is None
        assert b.curve, "the full solve has a curve"


@pytest.mark.parametrize("name", ["spinning192-sas-analytics", "fas70-ds460c-nlsas-nfs", "aff8080-sqlserver-tpce"])
def test_paths_built_together_equal_paths_built_alone(name: str) -> None:
    """The stored bytes (HDD seek span) and the profile's kind (the bands' uncertainty), found once per build inside
    ``shared_host_sides``, give every path what it gets built alone."""
    design = _design(load_any(Path(examples_dir()) / f"{name}.toml"))
    scenario = design.scenario
    workloads = [w for w in scenario.workloads if w.enabled]
    alone = [build_path(scenario, design.catalog, w, design.raid) for w in workloads]
    with shared_host_sides():
        together = [build_path(scenario, design.catalog, w, design.raid) for w in workloads]
        again = [build_path(scenario, design.catalog, w, design.raid) for w in workloads]  # from the block's memo
    for built in (together, again):
        assert [p.stations for p in built] == [p.stations for p in alone]
        assert [p.uncertainty for p in built] == [p.uncertainty for p in alone]
        assert [p.notes for p in built] == [p.notes for p in alone]
    assert all(p.uncertainty is not None for p in alone)


def _renamed(request: tuple) -> tuple:
    """``request`` (a closed ramp, ``engine.ramp_requests``) with its stations renamed: the same network under
    another cache key, so a solve takes it as a request of its own."""
    specs, demands, rf, population, think_s = request
    return (tuple(dataclasses.replace(s, name=f"{s.name} (copy)") for s in specs), demands, rf, population, think_s)


@pytest.mark.parametrize("copies", [1, 2, 12])
def test_equal_ramps_solved_once_give_every_request_its_own_floats(copies: int) -> None:
    """Equal requests in one solve are solved once; each answer equals, float for float, that of the same network
    under another key solved beside it (the way every request was solved before), both when the requests are
    solved one by one and when together (12 copies of an 11-class network: together pays)."""
    design = _design(load_any(Path(examples_dir()) / "aff8080-nfs-file-services.toml"))
    request = engine.ramp_requests(design.scenario, design.catalog)[0]
    other = _renamed(request)
    engine._CURVE_CACHE.clear()
    got = engine._solve_batch([request] * copies + [other])
    engine._CURVE_CACHE.clear()
    separate = engine._solve_batch([other] + [_renamed(other)] * copies)
    assert len(got) == copies + 1
    for (x, r), (x_want, r_want) in zip(got, separate):
        assert np.array_equal(x, x_want) and np.array_equal(r, r_want)
    assert all(value is got[0] for value in got[:copies])  # solved once


def test_an_only_network_of_a_batch_keeps_its_batch_floats() -> None:
    """Twelve equal requests solved together: the one network is solved beside a copy of itself, because a
    network alone in the batched recursion sums its classes in another order (its floats would differ)."""
    design = _design(load_any(Path(examples_dir()) / "aff8080-nfs-file-services.toml"))
    request = engine.ramp_requests(design.scenario, design.catalog)[0]
    engine._CURVE_CACHE.clear()
    got = engine._solve_batch([request] * 12)
    engine._CURVE_CACHE.clear()
    want = engine._solve_batch([request] + [_renamed(request)] * 11)
    assert np.array_equal(got[0][0], want[0][0]) and np.array_equal(got[0][1], want[0][1])
    specs, demands, rf, population, think_s = request
    service, servers, copies, v_closed, _, is_queue = engine._queue_arrays(specs, demands, rf)
    q = np.flatnonzero(is_queue)
    merged = engine._merged_classes(service[q], servers[q], copies[q], v_closed[q])
    fixed = np.array([float(service[~is_queue].sum()) + think_s])
    alone, _ = engine._mva_batch([merged], fixed, population)
    assert len(merged[0]) >= 8  # wide enough for the order of the sum to matter
    assert not np.array_equal(alone[0], got[0][0])  # why the copy is kept


def test_transfer_window_falls_back_to_the_full_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the open model alone cannot give the window's figures (``figures_at_targets`` None), the window is
    solved in full, with the same ends as from the open model."""
    project = load_any(Path(examples_dir()) / "aff-a70-snapmirror-cvo-dr.toml")
    light = evaluate(project).protection
    monkeypatch.setattr(engine, "figures_at_targets", lambda scenario, catalog, raid=None: None)
    full = evaluate(project).protection
    assert light is not None and full is not None and len(light.loads) == 2
    assert full.loads == light.loads

"""The normal state and the failure states solved in one pass give exactly the results of solving them apart.

``models.evaluate.evaluate(..., resilience=True)`` (the CLI's ``--json``, the GUI's worker, the benchmarks) solves a
design's normal state and its failure states in one pass of the engine (``engine.solve_job_groups``); the report,
the workbook and the states reference still solve them apart (``evaluate`` then ``evaluate_resilience``). Every
figure, curve point, band, note and problem must be the same object values, compared with ``==`` (floats exactly,
not to a tolerance), on examples of every kind of failure state and on a generated design of several systems.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from models.design import resolve
from models.evaluate import evaluate, evaluate_resilience, with_layouts, with_resilience
from models.performance import engine, resilience
from models.project import load
from models.resources import examples_dir

DATA = Path(__file__).resolve().parent / "data"
_spec = importlib.util.spec_from_file_location("make_states_reference", DATA / "make_states_reference.py")
assert _spec is not None and _spec.loader is not None
reference_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference_script)

EXAMPLES = ("aff8080-nfs-file-services",  # takeover, path loss, drive rebuild
            "aff-a70-metrocluster-ip-oracle-nvmetcp",  # switchover
            "aff-a70-snapmirror-cvo-dr",  # with a replication's transfer window
            "cvo-azure-ds4-ha-oltp",  # cloud failover
            "vsan8-esa-stretched-4x4-sqlserver-oltp",  # host failure, site failure
            "vsan8-osa-hybrid-4host-oltp")  # host failure on the smaller cluster's paths


def _apart(project):
    engine._CURVE_CACHE.clear()
    design = with_layouts(resolve(project))
    evaluation = evaluate(project, design=design)
    return with_resilience(evaluation, evaluate_resilience(project, evaluation, design=design))


def _together(project):
    engine._CURVE_CACHE.clear()
    return evaluate(project, design=with_layouts(resolve(project)), resilience=True)


def _assert_same(one, other) -> None:
    assert one.performance is not None and one.resilience is not None
    assert one.performance == other.performance
    for a, b in zip(one.performance.workloads, other.performance.workloads):  # the fields equality leaves out
        assert a.curve == b.curve and a.open_curve == b.open_curve
    assert one.resilience == other.resilience
    assert one.problems == other.problems
    assert one.protection == other.protection  # (the capacity is computed alike either way: not solved twice)
    states = [st for results in one.resilience.states.values() for st in results]
    assert states, "the design has failure states"
    for a, b in zip(states, [st for results in other.resilience.states.values() for st in results]):
        assert a.performance.curve == b.performance.curve and a.performance.open_curve == b.performance.open_curve


@pytest.mark.parametrize("name", EXAMPLES)
def test_one_pass_equals_the_two_calls_on_examples(name: str) -> None:
    project = load(Path(examples_dir()) / f"{name}.toml")
    _assert_same(_together(project), _apart(project))


def test_one_pass_equals_the_two_calls_on_several_systems() -> None:
    project = dict(reference_script.projects())["mixed:10x6"]()
    together = _together(project)
    assert together.performance is not None and len(together.performance.workloads) >= 6
    _assert_same(together, _apart(project))


def _jobs(name: str) -> list:
    design = with_layouts(resolve(load(Path(examples_dir()) / f"{name}.toml")))
    return engine.performance_jobs(design.scenario, design.catalog, design.raid)[2]


def test_groups_laid_out_differently_keep_their_own_floats() -> None:
    """Two groups whose open-model rows have different widths (an ONTAP path's dozen storage-side queues, a vSAN
    path's few) are answered apart (the order of a row's sum depends on its padded width), each equal to its own
    ``solve_jobs``."""
    wide, narrow = _jobs("aff8080-nfs-file-services"), _jobs("vsan8-esa-6host-sqlserver-oltp")
    widths = {engine._row_width("slo", (path.stations, path.read_fraction)) for path, _, _ in wide + narrow}
    assert len(widths) == 2
    engine._CURVE_CACHE.clear()
    together = engine.solve_job_groups([(wide, 200, True), (narrow, 60, False)])
    engine._CURVE_CACHE.clear()
    apart = [engine.solve_jobs(wide, 200), engine.solve_jobs(narrow, 60, curve_tails=False)]
    assert together == apart
    for got, want in zip(together, apart):
        for a, b in zip(got, want):
            assert a.curve and a.curve == b.curve and a.open_curve == b.open_curve
    # each group's own curve settings: the first with its points' p99, the second of 60 points without
    assert all(p.latency_p99_ms is not None for p in together[0][0].curve)
    assert all(p.latency_p99_ms is None for p in together[1][0].curve) and len(together[1][0].curve) <= 60


def test_states_that_fail_keep_the_normal_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the failure states cannot be solved, the one pass falls back to the two calls: the normal results
    stand and the states' failure is a problem, as with ``evaluate_resilience`` alone."""
    project = load(Path(examples_dir()) / "aff8080-nfs-file-services.toml")
    plain = evaluate(project)

    def broken(*_args, **_kwargs):
        raise RuntimeError("no states today")

    monkeypatch.setattr(resilience, "_state_jobs", broken)
    got = evaluate(project, resilience=True)
    assert got.performance == plain.performance
    assert got.resilience is not None and dict(got.resilience.states) == {}
    assert got.resilience.problems == ("failure states could not be computed: RuntimeError: no states today",)
    assert any(p.message == got.resilience.problems[0] and p.severity == "error" for p in got.problems)


def test_rows_padded_within_one_sum_layout_keep_their_floats() -> None:
    """numpy sums a row of w terms padded with exact zeros to any width of the same ``engine._sum_layout`` into the
    same float (what lets ``_answer`` answer groups of such widths in one call), and not across layouts: terms of
    spread magnitudes, where the order of the additions shows."""
    rng = np.random.default_rng(27)
    for w in range(1, 40):
        terms = np.exp(rng.uniform(-30.0, 30.0, size=(50, w)))
        alone = np.add.reduce(terms, axis=-1)
        for width in range(w, 48):
            padded = np.zeros((50, width))
            padded[:, :w] = terms
            summed = np.add.reduce(padded, axis=-1)
            if engine._sum_layout(width) == engine._sum_layout(w):
                assert summed.tobytes() == alone.tobytes(), (w, width)
    terms = np.exp(rng.uniform(-30.0, 30.0, size=(50, 7)))
    padded = np.zeros((50, 8))
    padded[:, :7] = terms
    assert engine._sum_layout(7) != engine._sum_layout(8)
    assert np.add.reduce(padded, axis=-1).tobytes() != np.add.reduce(terms, axis=-1).tobytes()


def test_groups_summed_alike_are_answered_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cloud HA pair's normal rows (9 storage-side queues) and its failover's (8) are summed alike: their bands
    and searches are answered in one call each, the results those of solving each group apart."""
    calls: list[int] = []
    real = engine._with_bands_many

    def counted(items, sds=None):
        calls.append(len(items))
        return real(items, sds)

    monkeypatch.setattr(engine, "_with_bands_many", counted)
    project = load(Path(examples_dir()) / "cvo-azure-ds4-ha-oltp.toml")
    design = with_layouts(resolve(project))
    paths, _problems, jobs = engine.performance_jobs(design.scenario, design.catalog, design.raid)
    state_jobs = resilience._state_jobs(design.scenario, design.catalog, None, paths)[1]
    widths = [{engine._row_width("slo", (path.stations, path.read_fraction)) for path, _, _ in group}
              for group in (jobs, state_jobs)]
    assert widths[0] != widths[1] and len({engine._sum_layout(w) for ws in widths for w in ws}) == 1
    engine._CURVE_CACHE.clear()
    together = engine.solve_job_groups([(jobs, 200, True), (state_jobs, 200, False)])
    assert calls == [len(jobs) + len(state_jobs)]
    engine._CURVE_CACHE.clear()
    apart = [engine.solve_jobs(jobs, 200), engine.solve_jobs(state_jobs, 200, curve_tails=False)]
    assert together == apart
    for got, want in zip(together, apart):
        for a, b in zip(got, want):
            assert a.curve == b.curve and a.open_curve == b.open_curve

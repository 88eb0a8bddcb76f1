"""Workloads alike in every input share what the engine computes for them, and that changes no number.

A design's workloads that differ only in their names (and ids), or whose paths differ only in a station's name or
component (one host group or another), have the same path, ramp latencies, band rows, band searches, tail
percentiles, continuation residences and station loads: the engine finds each of them once per evaluation
(``engine.build_paths``, ``engine._ramp_latencies``, ``engine._with_bands_many``, ``tail_latency.tail_ms_many``,
``engine._station_loads_alike``, ``engine._open_waited_alike``). Here the same designs are evaluated with that
sharing switched off (each workload's own again) and every figure, curve and failure state must be equal, exactly.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import pytest

from models.design import resolve
from models.evaluate import evaluate, with_layouts
from models.performance import engine, tail_latency

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_scale import make_design  # noqa: E402

_spec = importlib.util.spec_from_file_location("make_states_reference_alike",
                                               ROOT / "tests" / "data" / "make_states_reference.py")
assert _spec is not None and _spec.loader is not None
reference_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference_script)


class _NeverFound(dict):
    """A cache that never finds anything (every ramp's latency arrays computed again)."""

    def get(self, key, default=None):
        return default


def _plain(project: object) -> dict:
    """The one-pass evaluation with failure states (as ``storplan evaluate --json``), as plain data."""
    engine._CURVE_CACHE.clear()
    evaluation = evaluate(project, design=with_layouts(resolve(project)), resilience=True)
    assert evaluation.performance is not None and evaluation.resilience is not None
    return {"performance": reference_script.to_plain(evaluation.performance.workloads),
            "states": reference_script.to_plain(evaluation.resilience.states)}


def _with_copies(project: object, every: int) -> object:
    """``project`` with a copy of every ``every``-th workload added (another id and name, every other field the
    same), so that some workloads are alike but for their names; and three copies of the first workload at other
    targets, two far beyond what its HA pair serves: the other workloads' background then saturates, and workloads
    with the same ramp (the background held at its maximum) differ in their background."""
    scenario = project.scenarios[0]  # type: ignore[attr-defined]
    work = list(scenario.workloads)
    work += [w.with_changes(id=f"{w.id}-copy", name=f"{w.name} (copy)") for w in work[::every]]
    first = work[0]
    work += [first.with_changes(id=f"{first.id}-more", name=f"{first.name} (more)",
                                target_iops=first.target_iops * 1.25),
             first.with_changes(id=f"{first.id}-heavy", name=f"{first.name} (heavy)", target_iops=5_000_000.0),
             first.with_changes(id=f"{first.id}-heavier", name=f"{first.name} (heavier)", target_iops=6_000_000.0)]
    scenario = scenario.model_copy(update={"workloads": work})
    return project.model_copy(update={"scenarios": [scenario]})  # type: ignore[attr-defined]


@pytest.mark.parametrize(("nodes", "workloads", "every"), [(10, 12, 2), (20, 10, 3)])
def test_sharing_between_alike_workloads_changes_no_number(monkeypatch: pytest.MonkeyPatch, nodes: int,
                                                           workloads: int, every: int) -> None:
    project = _with_copies(make_design(nodes, workloads), every)
    shared = _plain(project)
    # the design has workloads alike but for their names, so the sharing is used
    keys = [engine._path_key(w) for w in project.scenarios[0].workloads]  # type: ignore[attr-defined]
    assert len(set(keys)) < len(keys)

    fresh = itertools.count()
    monkeypatch.setattr(engine, "_path_key", lambda w: str(next(fresh)))
    monkeypatch.setattr(engine, "content_key", lambda arrays: next(fresh))
    monkeypatch.setattr(tail_latency, "content_key", lambda arrays: next(fresh))
    monkeypatch.setattr(engine, "_alike", lambda key, keep: None)
    monkeypatch.setattr(engine, "_LATENCIES_BY_ID", _NeverFound())
    alone = _plain(project)

    assert alone == shared

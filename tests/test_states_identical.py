"""Every failure-state figure and curve, and the normal results beside them, equal a stored reference.

The reference (``tests/data/states_reference.json.gz``) was computed by ``tests/data/make_states_reference.py``
from the engine before the failure states were vectorised; this test recomputes every case (the bundled examples
and generated multi-workload designs) with the current engine and compares every number to a relative tolerance of
1e-9, every string, flag and None exactly. Regenerate the reference (one command, in that script's docstring) only
when a change of the model itself is meant to move the figures.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import math
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
_spec = importlib.util.spec_from_file_location("make_states_reference", DATA / "make_states_reference.py")
assert _spec is not None and _spec.loader is not None
reference_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference_script)

with gzip.open(DATA / "states_reference.json.gz", "rt", encoding="utf-8") as _f:
    REFERENCE: dict = json.load(_f)

CASES = dict(reference_script.projects())

REL_TOL = 1e-9


def differences(got: object, want: object, where: str = "") -> list[str]:
    """Where ``got`` and ``want`` (plain JSON data) differ: numbers beyond :data:`REL_TOL` (relative), anything
    else not equal; at most the first 20."""
    out: list[str] = []
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            return [f"{where}: keys {sorted(set(got) ^ set(want))} differ"]
        for k in want:
            out += differences(got[k], want[k], f"{where}.{k}")
            if len(out) >= 20:
                break
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{where}: {len(got)} items, reference {len(want)}"]
        for i, (g, w) in enumerate(zip(got, want)):
            out += differences(g, w, f"{where}[{i}]")
            if len(out) >= 20:
                break
        return out
    numbers = (int, float)
    if isinstance(want, numbers) and isinstance(got, numbers) and not isinstance(want, bool) \
            and not isinstance(got, bool):
        if not math.isclose(got, want, rel_tol=REL_TOL, abs_tol=1e-300):
            return [f"{where}: {got!r}, reference {want!r}"]
        return []
    return [] if got == want else [f"{where}: {got!r}, reference {want!r}"]


def test_reference_covers_the_examples_and_several_workloads_per_system() -> None:
    """The reference holds every bundled example, and cases with many workloads on one system in every state."""
    assert set(REFERENCE) == set(CASES)
    assert sum(name.startswith("example:") for name in CASES) >= 20
    busy = REFERENCE["pods:10x12"]["states"]
    assert len(busy) == 12 and all({s["state"] for s in states} == {"takeover", "path_loss", "drive_rebuild"}
                                   for states in busy.values())


def test_differences_finds_a_moved_number() -> None:
    """The comparison itself fails on a number moved by more than the tolerance, a changed string or a None."""
    want = {"a": [1.0, {"b": "x", "c": None}]}
    assert differences({"a": [1.0 + 1e-12, {"b": "x", "c": None}]}, want) == []
    assert differences({"a": [1.0 + 1e-8, {"b": "x", "c": None}]}, want)
    assert differences({"a": [1.0, {"b": "y", "c": None}]}, want)
    assert differences({"a": [1.0, {"b": "x", "c": 0.0}]}, want)


@pytest.mark.parametrize("case", sorted(CASES))
def test_failure_states_identical(case: str) -> None:
    """Every figure of ``case`` (normal results, failure states, requirement checks) equals the reference."""
    got = json.loads(json.dumps(reference_script.figures(CASES[case]())))
    found = differences(got, REFERENCE[case], case)
    assert not found, "\n".join(found)


def test_system_loads_equal_the_sums_over_the_others() -> None:
    """Each workload's share of the others' load (the sum of all less its own) and each state's open model equal the
    sums over the other workloads that the engine made before (``_others_utilisation``, ``_open_system``)."""
    from models.design import resolve
    from models.evaluate import with_layouts
    from models.performance.engine import SystemLoads, _by_system, _open_system, _others_utilisation, target_rate
    from models.performance.resilience import _degraded

    project = reference_script.mixed(CASES["pods:10x12"](), 30_000.0)
    design = with_layouts(resolve(project))
    from models.performance.engine import evaluate_paths

    paths, _ = evaluate_paths(design.scenario, design.catalog, design.raid)
    checked = 0
    for group in _by_system(paths).values():
        rates = {p.workload.id: t for p in group if (t := target_rate(p.workload)) is not None}
        loads = SystemLoads(group, rates)
        for path in group:
            others = [(o, rates[o.workload.id]) for o in group if o is not path and o.workload.id in rates]
            for state in _degraded(design.scenario, design.catalog, path):
                degraded = state.path
                want = _others_utilisation([*others, *state.background])
                got = loads.others_utilisation(path, [s.name for s in degraded.stations])
                for name, u in _others_utilisation(state.background).items():
                    got[name] = got.get(name, 0.0) + u
                names = {s.name for s in degraded.stations}
                assert set(got) == {n for n in want if n in names}
                assert all(abs(got[n] - want[n]) <= 1e-12 * max(1.0, want[n]) for n in got)
                own = dict(rates)
                own.update({o.workload.id: r for o, r in state.background})
                full = _open_system([degraded, *(o for o, _ in others), *(o for o, _ in state.background)],
                                    own) if path.workload.id in rates else None
                mine = loads.open_for(path, degraded, state.background)
                if full is None:
                    assert mine is None
                    continue
                wid = path.workload.id
                assert mine is not None and mine.stable == full.stable
                a, b = mine.classes[wid].response_time_s, full.classes[wid].response_time_s
                assert (a is None) == (b is None) and (a is None or abs(a - b) <= 1e-12 * b)
                for s in degraded.stations:
                    assert abs(mine.stations[s.name].utilization - full.stations[s.name].utilization) <= 1e-12
                checked += 1
    assert checked >= 12

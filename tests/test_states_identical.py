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

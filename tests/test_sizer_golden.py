"""The sizer's ranked results are those recorded before its search became a stream (``tests/sizing_golden.py``):
every bundled example's search and the benchmark's scenarios give the same ranked candidates, nearest designs,
evaluated meeting designs (Pareto marks included) and totals, each figure within 1e-9 relative."""

from __future__ import annotations

import gzip
import json
import math

import pytest
from sizing_golden import GOLDEN, result_row, scenarios, search

RECORDED = json.loads(gzip.decompress(GOLDEN.read_bytes()))
PROJECTS = scenarios()


def _differences(got: object, want: object, where: str) -> list[str]:
    """Where ``got`` differs from ``want``: numbers beyond 1e-9 relative, anything else unequal."""
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            return [f"{where}: keys {sorted(set(got) ^ set(want))}"]
        return [d for k in want for d in _differences(got[k], want[k], f"{where}.{k}")]
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return [f"{where}: {len(got)} items, recorded {len(want)}"]
        return [d for i, (g, w) in enumerate(zip(got, want)) for d in _differences(g, w, f"{where}[{i}]")]
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return [] if math.isclose(got, want, rel_tol=1e-9, abs_tol=0.0) else [f"{where}: {got!r} != {want!r}"]
    return [] if got == want else [f"{where}: {got!r} != {want!r}"]


def test_every_recorded_search_is_present():
    assert set(RECORDED) == set(PROJECTS)


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_the_search_gives_the_recorded_ranked_list_and_figures(name):
    got = json.loads(json.dumps(result_row(search(PROJECTS[name]))))
    diffs = _differences(got, RECORDED[name], name)
    assert diffs == [], "\n".join(diffs[:20])

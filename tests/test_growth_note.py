"""The capacity growth note (the report's Assumptions) works its example with the project's own growth rates, never
a fixed example rate that contradicts the workloads' growth."""

from __future__ import annotations

import tomllib

import pytest

from models.capacity.efficiency import _growth_note
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


def _growth_notes(project) -> list[str]:
    capacity = evaluate(project).capacity
    return [n for s in capacity.systems for n in s.notes if n.startswith("Growth:")]


@pytest.mark.parametrize("name", ["fas70-ds460c-nlsas-nfs.toml", "vsan8-esa-stretched-4x4-sqlserver-oltp.toml",
                                  "cvo-azure-ds14-ha-oltp.toml"])
def test_growth_note_uses_the_project_growth_rate(name):
    path = examples_dir() / name
    with path.open("rb") as f:  # read the rates from the file itself, not through the model
        raw = tomllib.load(f)
    rates = {float(w.get("growth_pct_per_year", 0.0)) for w in raw.get("workload", [])}
    growing = sorted(r for r in rates if r > 0)
    assert len(growing) == 1, "these examples use one growth rate"
    g = growing[0]
    notes = _growth_notes(load_any(path))
    assert notes
    expected = f"{g:g}% a year: {(1 + g / 100):.2f}x after 12 months, {(1 + g / 100) ** 2:.2f}x after 24"
    for note in notes:
        assert expected in note
        if g != 30:
            assert "30%" not in note and "1.30x" not in note


def test_growth_note_several_rates_and_flat_workloads():
    note = _growth_note(((1e12, 10.0), (2e12, 30.0), (5e11, 0.0)))
    assert "the growing workloads grow 10% to 30% a year: 1.10x to 1.30x after 12 months" in note
    assert note.endswith("; the others do not grow).")
    one = _growth_note(((1e12, 12.5),))
    assert "the workloads grow 12.5% a year: 1.12x after 12 months, 1.27x after 24" in one  # 1.125^2 = 1.2656

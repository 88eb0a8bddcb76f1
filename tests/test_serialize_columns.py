"""``evaluate --json``'s curves written from the columns a result still holds (``models.serialize._curves``; its
points never made) are the dicts written from its points, for the normal figures and every failure state."""

from __future__ import annotations

import pytest

from models.design import resolve
from models.evaluate import evaluate, with_layouts
from models.performance.results import curve_columns
from models.resources import examples_dir
from models.serialize import _curves, _point
from models.store import load_project_file

EXAMPLES = ["aff-a70-ns224-oracle-nvmetcp", "vsan8-esa-stretched-4x4-sqlserver-oltp", "cvo-azure-ds4-ha-oltp",
            "anf-premium-oracle-nfs"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_curves_from_columns_are_the_curves_from_points(name):
    loaded = load_project_file(examples_dir() / f"{name}.toml")
    design = with_layouts(resolve(loaded.project, None, loaded.catalog))
    evaluation = evaluate(loaded.project, design=design, resilience=True)
    assert evaluation.performance is not None and evaluation.resilience is not None
    records = [*evaluation.performance.workloads,
               *(state.performance for states in evaluation.resilience.states.values() for state in states)]
    if name != "anf-premium-oracle-nfs":  # a managed service has no failure states; the others have
        assert len(records) > len(evaluation.performance.workloads)
    from_columns = 0
    for wp in records:
        held = curve_columns(wp) is not None
        written = _curves(wp)  # from the columns when held
        from_points = ([_point(p) for p in wp.curve], [_point(p) for p in wp.open_curve])  # builds the points
        assert curve_columns(wp) is None  # once the points are made, they are read
        assert written == from_points
        assert [list(d) for d in written[0] + written[1]] == [list(d) for d in from_points[0] + from_points[1]]
        assert [[type(v) for v in d.values()] for d in written[0]] == [[type(v) for v in d.values()]
                                                                      for d in from_points[0]]
        from_columns += held
    assert from_columns > 0


def test_the_json_shape_loads_no_engine():
    """``models.serialize`` reads the engines' columns only when it writes a curve (the evaluation loaded them): a
    command refusing a broken project before evaluating never imports numpy for it."""
    import subprocess
    import sys

    probe = "import sys, models.serialize; print('numpy' in sys.modules, 'models.performance' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False"]

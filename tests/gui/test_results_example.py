"""Every result view on a real evaluation of the bundled AFF8080 + SQL Server example."""

from __future__ import annotations

import numpy as np
import pytest

from app.gui.results import CapacityView, CompareView, PerformanceView, status_summary
from models.resources import examples_dir

EXAMPLE = "aff8080-sqlserver-tpce.toml"


@pytest.fixture(scope="module")
def evaluation():
    from models.evaluate import evaluate
    from models.project import load

    result = evaluate(load(examples_dir() / EXAMPLE))
    assert result.capacity is not None and result.performance is not None, [p.message for p in result.problems]
    return result


def test_real_evaluation_in_every_view(qtbot, evaluation):
    capacity_view = CapacityView()
    qtbot.addWidget(capacity_view)
    capacity_view.set_evaluation(evaluation, "TiB")
    system = evaluation.capacity.systems[0]
    rows = {capacity_view.model.item(r, 0).text(): capacity_view.model.item(r, 2).text()
            for r in range(capacity_view.model.rowCount())}
    assert rows["Usable"] == f"{system.usable_bytes / 2**40:,.2f} TiB"
    for step in system.steps[1:]:
        expected = step.bytes_after / 2**40
        if expected >= 1:
            assert rows[step.name] == f"{expected:,.2f} TiB"

    performance_view = PerformanceView()
    qtbot.addWidget(performance_view)
    performance_view.set_evaluation(evaluation, "TiB")
    for workload in evaluation.performance.workloads:
        x, _ = performance_view.curve_item(workload.workload_id).getData()
        np.testing.assert_array_equal(x, [p.iops for p in workload.curve])
        assert performance_view.slo_line(workload.workload_id).value() == pytest.approx(workload.slo_ms)
    assert any(highlighted for _, _, highlighted in performance_view.utilisation_bars())

    compare = CompareView()
    qtbot.addWidget(compare)
    compare.set_evaluations(evaluation, evaluation, "TB")
    assert compare.model.rowCount() > 5

    summary = status_summary(evaluation, "TiB")
    assert summary["usable"] == f"{evaluation.capacity.total.usable_bytes / 2**40:,.2f} TiB"
    from models.present.iops_bound import bottleneck_words

    assert summary["bottleneck"] == bottleneck_words(evaluation.performance.workloads[0])

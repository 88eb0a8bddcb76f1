"""CompareView: both scenarios' capacities and curves, side by side with deltas."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from app.gui.results import CompareView
from app.gui.results.compare_view import CHOOSE_MESSAGE
from app.gui.results.samples import (
    sample_capacity,
    sample_evaluation,
    sample_performance,
    sample_system,
    sample_workload,
)


def test_compare_shows_both_scenarios(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    view.set_evaluation(sample_evaluation(), "TiB")
    assert CHOOSE_MESSAGE in view.message.text()
    left = sample_evaluation("A800 FCP")
    right = sample_evaluation(
        "A800 NVMe/FC", capacity=sample_capacity(sample_system(raw_tib=120.0)),
        performance=sample_performance(sample_workload(saturation=520_000.0, protocol="NVMe/FC")))
    view.set_evaluations(left, right, "TiB")
    assert view.stack.currentIndex() == 0
    headers = [view.model.horizontalHeaderItem(c).text() for c in range(3)]
    assert headers[1:] == ["A800 FCP", "A800 NVMe/FC"]
    rows: dict[str, list[str]] = {}
    for row in view.row_texts():  # the first system's and the first workload's rows
        if len(row) == 4:
            rows.setdefault(row[0].strip(), row)
    usable_l, usable_r = left.capacity.total.usable_bytes, right.capacity.total.usable_bytes
    assert rows["Usable"][1:3] == [f"{usable_l / 2**40:,.2f} TiB", f"{usable_r / 2**40:,.2f} TiB"]
    assert rows["Usable"][3].startswith(f"+{(usable_r - usable_l) / 2**40:,.2f} TiB")
    assert rows["protocol"][1:] == ["FCP", "NVMe/FC", "changed"]
    assert rows["saturation IOPS"][1:3] == ["400K", "520K"]
    assert [r for r in view.row_texts() if r[0].strip() == "Log writes"], "a workload of one side only is listed"
    for side, evaluation, style in (("left", left, Qt.PenStyle.SolidLine), ("right", right, Qt.PenStyle.DashLine)):
        workload = evaluation.performance.workloads[0]
        curve = view.curve_items[(side, workload.name)]
        x, y = curve.getData()
        np.testing.assert_array_equal(x, [p.iops for p in (*workload.curve, *workload.open_curve)])
        np.testing.assert_array_equal(y, [p.latency_ms for p in (*workload.curve, *workload.open_curve)])
        assert curve.opts["pen"].style() == style
    # one colour per scenario: the same workload's two curves differ in colour (and in style and width)
    assert view.curve_items[("left", "SQL Server OLTP")].opts["pen"].color() != \
        view.curve_items[("right", "SQL Server OLTP")].opts["pen"].color()
    view.set_capacity_unit("TB")
    rows = {r[0].strip(): r for r in view.row_texts() if len(r) == 4}
    assert rows["Usable"][1] == f"{usable_l / 1e12:,.2f} TB"
    view.set_stale(True, "recomputing")
    assert view.banner.isVisibleTo(view)

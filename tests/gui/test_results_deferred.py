"""A new result is drawn in the result tab shown; a hidden tab's charts are drawn with the newest result when the
tab is shown (an edit pays for one view, not three: issue 27's edit at 1,000 nodes)."""

from __future__ import annotations

import numpy as np


def test_a_hidden_result_view_draws_the_newest_result_when_shown(example_window, qtbot):
    win = example_window
    results = win.results
    capacity, performance = results.capacity_view, results.performance_view
    results.setCurrentWidget(performance)  # drawn once (and evaluated again with the failure states it shows)
    win.worker.force_sync()
    assert performance.workloads[0] is results.last_good.performance.workloads[0]
    results.setCurrentWidget(capacity)
    drawn = []
    draw = performance.set_evaluation
    performance.set_evaluation = lambda evaluation, unit="TiB": (drawn.append(evaluation), draw(evaluation, unit))
    before = results.last_good
    shelf = next(n for n in win.document.scenario.nodes if n.kind == "shelf")
    win.document.set_node_field(shelf.id, "drive_count", shelf.drive_count - 1)
    win.worker.force_sync()
    newest = results.last_good
    assert newest is not before and newest.capacity.total.raw_bytes < before.capacity.total.raw_bytes
    assert capacity._evaluation is newest  # the tab shown: drawn at once
    assert drawn == []  # the hidden Performance tab: not yet
    assert performance.workloads[0] is not newest.performance.workloads[0]

    results.setCurrentWidget(performance)
    assert drawn == [newest]
    for workload in newest.performance.workloads:
        x, _ = performance.curve_item(workload.workload_id).getData()
        np.testing.assert_array_equal(x, [p.iops for p in workload.curve])
    results.setCurrentWidget(capacity)  # shown again, nothing new since: not drawn again
    results.setCurrentWidget(performance)
    assert drawn == [newest]

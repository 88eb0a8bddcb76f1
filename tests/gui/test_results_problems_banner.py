"""Results computed from a design with errors carry a red banner naming the error; its link opens Problems."""

from __future__ import annotations


def _shelf_id(window) -> str:
    return next(n.id for n in window.document.scenario.nodes if n.kind == "shelf")


def test_design_errors_banner_on_capacity_and_performance(example_window, qtbot):
    win = example_window
    capacity, performance = win.results.capacity_view, win.results.performance_view
    assert capacity.problems_banner.isHidden() and performance.problems_banner.isHidden()
    assert "design error" not in win.engine_label.text()

    shelf = _shelf_id(win)
    assert win.document.set_node_field(shelf, "drive_count", 30) is None
    outcome = win.worker.force_sync()
    errors = [p for p in outcome.evaluation.problems if p.severity == "error"]
    assert errors and "30 drives do not fit 24 bays" in errors[0].message
    for view in (capacity, performance):
        assert not view.problems_banner.isHidden()
        text = view.problems_banner.text()
        assert f"The design has {len(errors)} error" in text and "30 drives do not fit 24 bays" in text

    assert f"{len(errors)} design error" in win.engine_label.text()  # the status bar says it too
    win.results.setCurrentWidget(capacity)
    capacity.problems_banner._label.linkActivated.emit("problems")
    assert win.results.currentWidget() is win.results.problems_list

    win.document.undo_stack.undo()
    win.worker.force_sync()
    assert capacity.problems_banner.isHidden() and performance.problems_banner.isHidden()
    assert "design error" not in win.engine_label.text()

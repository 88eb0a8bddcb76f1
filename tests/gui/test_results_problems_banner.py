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


def test_the_capacity_engines_own_warning_is_in_the_problems_list(qtbot):
    """The A800 example: the capacity engine assumes the ADP root partition size the catalog lacks; the warning
    reaches the window's Problems list (its tab counts it), and clicking it selects the controller."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui.main_window import MainWindow, read_project
    from models.resources import examples_dir

    win = MainWindow(read_project(examples_dir() / "a800-oracle-slob-fcp.toml"))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    try:
        win._install_result_views()
        outcome = win.worker.force_sync()
        problems = win.results.problems_list
        texts = [problems.item(i).text() for i in range(problems.count())]
        root = [t for t in texts if "no ADP root partition size for NetApp AFF A800 HA pair" in t]
        assert len(root) == 1 and "55.00 GiB assumed" in root[0]
        assert win.results.tabText(3) == f"Problems ({len(outcome.evaluation.problems)})"
        item = problems.item(texts.index(root[0]))
        problems.itemClicked.emit(item)
        assert win.scene.selected_node_ids() == ["a800"]
    finally:
        win.worker.shutdown()
        win.compare_worker.shutdown()
        win.close()

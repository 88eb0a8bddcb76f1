"""The failure states are computed while the Performance tab (which shows them) is shown, or when a requirement
is checked on them; hidden and not required, they are left out until the tab is shown."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from app.gui.main_window import MainWindow, read_project
from models.resources import examples_dir


def _window(qtbot, takeover_required: bool) -> MainWindow:
    project = read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")
    requirements = project.requirements.with_changes(meet_slo_in_takeover=takeover_required, n_plus=0)
    win = MainWindow(project.model_copy(update={"requirements": requirements}))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.results.setCurrentIndex(0)  # the Capacity tab
    win.show()
    return win


def _close(win: MainWindow) -> None:
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()


def test_states_are_left_out_while_hidden_and_computed_when_the_performance_tab_is_shown(qtbot):
    win = _window(qtbot, takeover_required=False)
    win._evaluate()
    outcome = win.worker.force_sync()
    assert outcome is not None and outcome.evaluation is not None and outcome.error is None
    assert outcome.evaluation.resilience is None  # nothing shows them, nothing requires them
    workload = outcome.evaluation.performance.workloads[0].workload_id
    win.results.setCurrentIndex(1)  # the Performance tab: evaluated again, with the states
    qtbot.waitUntil(lambda: win.worker.last_outcome is not outcome and win.worker.last_outcome is not None
                    and win.worker.last_outcome.evaluation.resilience is not None, timeout=20_000)
    shown = win.worker.last_outcome.evaluation
    assert [s.state for s in shown.resilience.states[workload]] == ["takeover", "path_loss", "drive_rebuild"]
    # the figures equal those of an evaluation that always computes them (the CLI's)
    from models.evaluate import evaluate, evaluate_resilience

    direct = evaluate_resilience(win.document.project, evaluate(win.document.project))
    assert [s.performance.max_iops_at_slo for s in shown.resilience.states[workload]] == \
        [s.performance.max_iops_at_slo for s in direct.states[workload]]
    _close(win)


def test_a_requirement_on_the_states_computes_them_while_hidden(qtbot):
    win = _window(qtbot, takeover_required=True)
    win._evaluate()
    outcome = win.worker.force_sync()
    assert outcome is not None and outcome.evaluation is not None and outcome.error is None
    resilience = outcome.evaluation.resilience
    assert resilience is not None and [c.requirement for c in resilience.requirement_checks] == ["slo_in_takeover"]
    _close(win)

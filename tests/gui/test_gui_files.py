"""Files and the front door: examples, save / reopen, the no-display refusal, declared settings."""

from __future__ import annotations

import pytest

from app.gui import NO_DISPLAY, run_gui, settings
from app.gui.main_window import MainWindow, read_project
from models.resources import examples_dir

EXAMPLES = sorted(examples_dir().glob("*.toml")) if examples_dir().is_dir() else []


@pytest.mark.skipif(not EXAMPLES, reason="no examples written yet")
def test_every_example_opens(window):
    menu_titles = [a.text() for a in window.examples_menu.actions()]
    assert len(menu_titles) == len(EXAMPLES)
    for path in EXAMPLES:
        assert window.open_example(path), path
        scenario = window.document.scenario
        assert set(window.scene.node_items) == {n.id for n in scenario.nodes}, path
        assert len(window.scene.link_items) == len(scenario.links) + len(scenario.replications), path
        outcome = window.worker.force_sync()
        assert outcome is not None and outcome.evaluation is not None, path
        assert not window.isWindowModified()


def test_save_and_reopen_toml(window, tmp_path):
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    assert window.isWindowModified()
    path = tmp_path / "design.toml"
    assert window.save_to(path)
    assert not window.isWindowModified() and "design.toml" in window.windowTitle()
    assert settings.get("files/recent")[0] == str(path)
    window.document.drop_entry("netapp-ds2246", 300, 0)
    window.ask_revert = lambda: True  # Discard Changes
    window.revert()
    window.files.wait()
    assert [n.kind for n in window.document.scenario.nodes] == ["controller"]
    assert read_project(path).scenario.nodes == window.document.scenario.nodes


def test_close_with_unsaved_changes_can_cancel(window):
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    from PySide6.QtWidgets import QMessageBox

    window.ask_unsaved = lambda: QMessageBox.StandardButton.Cancel
    assert not window.close()
    window.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    assert window.close()


def test_run_gui_without_display_says_so(monkeypatch, capsys):
    monkeypatch.setattr("sys.platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert run_gui() == 2
    err = capsys.readouterr().err
    assert err.strip() == NO_DISPLAY and err.count("\n") == 1


def test_settings_are_declared_once_and_isolated():
    from PySide6.QtCore import QStandardPaths

    assert QStandardPaths.isTestModeEnabled()
    assert settings.get("canvas/snap_to_grid") is True
    settings.put("canvas/snap_to_grid", False)
    assert settings.get("canvas/snap_to_grid") is False
    with pytest.raises(KeyError):
        settings.put("no/such/key", 1)
    assert all(s.doc for s in settings.SETTINGS.values())


def test_default_example_window(example_window):
    win: MainWindow = example_window
    assert win.document.scenario.nodes
    assert "StorPlan" in win.windowTitle()


def test_problem_messages_are_escaped_in_the_status_tooltip(window):
    """A name with markup in a problem message reads as written in the rich-text tooltip, and injects nothing."""
    from PySide6.QtGui import QTextDocument

    from app.gui.worker import EvaluationOutcome
    from models.evaluate import Evaluation
    from models.problems import Problem

    messages = ["Shelf <b>A&B</b> <img src='x'>: 30 drives exceed 24", "Link <i>l1</i> & more"]
    problems = tuple(Problem("error", m, "n1") for m in messages)
    window._show_outcome(EvaluationOutcome(99, (Evaluation("Base", None, None, problems),)))
    tooltip = window.engine_label.toolTip()
    assert "<b>A&B</b>" not in tooltip and "&lt;b&gt;A&amp;B&lt;/b&gt;" in tooltip and "<img" not in tooltip
    rendered = QTextDocument()
    rendered.setHtml(tooltip)
    assert rendered.toPlainText().splitlines() == messages  # shown exactly as written, one per line
    assert "2 design errors" in window.engine_label.text()

    window._show_outcome(EvaluationOutcome(100, (), "engine failed: <script>x</script>"))
    assert "<script>" not in window.engine_label.text() and "<script>" not in window.engine_label.toolTip()
    rendered.setHtml(window.engine_label.toolTip())
    assert rendered.toPlainText() == "engine failed: <script>x</script>"


def test_problem_messages_and_labels_are_escaped_in_canvas_tooltips(example_window):
    """A node's own label and its problem messages read as written in the node's rich-text tooltip; the same
    findings again (a new evaluation) leave the tooltip as it is."""
    from PySide6.QtGui import QTextDocument

    from models.problems import Problem

    win = example_window
    node = win.document.scenario.nodes[0]
    win.document.set_node_field(node.id, "label", "Rack <b>A&B</b>")
    item = win.scene.node_items[node.id]
    message = "Shelf <img src='x'> & <i>more</i>: 30 drives exceed 24"
    win.scene.set_problems([Problem("error", message, node.id)])
    tooltip = item.toolTip()
    assert "<img" not in tooltip and "<b>A&B</b>" not in tooltip and "&lt;b&gt;A&amp;B&lt;/b&gt;" in tooltip
    rendered = QTextDocument()
    rendered.setHtml(tooltip)
    text = rendered.toPlainText()
    assert "Rack <b>A&B</b>" in text and message in text
    win.scene.set_problems([Problem("error", message, node.id)])
    assert item.toolTip() == tooltip and item.problems == [Problem("error", message, node.id)]
    win.scene.set_problems([])
    assert message not in item.toolTip() and "Rack <b>A&B</b>" in item.toolTip().replace("&lt;", "<").replace(
        "&gt;", ">").replace("&amp;", "&")

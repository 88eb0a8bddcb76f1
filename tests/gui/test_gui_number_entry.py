"""Number entry through real widgets: each typed text is taken exactly or refused visibly (message under the field,
value unchanged), in the workloads panel and the inspector alike."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QLineEdit

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from app.gui.record_form import NumberEditor
from app.gui.workloads_panel import WorkloadsPanel
from models.resources import examples_dir
from models.units import TIB

EXAMPLE = "aff8080-sqlserver-tpce.toml"


pytestmark = pytest.mark.usefixtures("us_locale")  # tests/gui/conftest.py


def _panel(qtbot) -> WorkloadsPanel:
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / EXAMPLE)))
    qtbot.addWidget(panel)
    panel.resize(420, 900)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _inspector(qtbot, node_id: str) -> Inspector:
    inspector = Inspector(ProjectDocument(read_project(examples_dir() / EXAMPLE)))
    qtbot.addWidget(inspector)
    inspector.resize(420, 900)
    inspector.show()
    qtbot.waitExposed(inspector)
    inspector.show_selection([node_id], [])
    return inspector


def _type(qtbot, editor: NumberEditor, text: str, finish: str = "enter") -> None:
    """Select the field's text, type ``text`` key by key, then press Enter (or move the focus away)."""
    entry = editor.entry
    entry.setFocus()
    entry.lineEdit().selectAll()
    qtbot.keyClicks(entry.lineEdit(), text) if text else qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Backspace)
    assert entry.lineEdit().text() == text  # every character typed is there: nothing dropped while typing
    if finish == "enter":
        qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)
    else:
        other = QLineEdit(entry.window())
        other.show()
        other.setFocus()
        entry.clearFocus()  # offscreen windows never get focus-out from setFocus alone
        entry.editingFinished.emit()


def _workload(panel: WorkloadsPanel):
    return panel.document.scenario.workloads[0]


@pytest.mark.parametrize("finish", ["enter", "focus out"])
def test_scientific_iops_is_taken_exactly(qtbot, finish):
    panel = _panel(qtbot)
    editor = panel.form.editors["target_iops"]
    _type(qtbot, editor, "1e15", finish)
    assert _workload(panel).target_iops == 1e15  # was 115 IOPS: the spin box dropped the "e"
    assert editor.messages() == []
    assert editor.entry.text() == "1,000,000,000,000,000 IOPS"


def test_long_integer_iops_is_not_clamped(qtbot):
    panel = _panel(qtbot)
    editor = panel.form.editors["target_iops"]
    _type(qtbot, editor, "1000000000000000")
    assert _workload(panel).target_iops == 1e15  # was clamped to 1e12
    assert editor.messages() == []


def test_iops_with_a_multiplier_and_the_shown_text_typed_back(qtbot):
    panel = _panel(qtbot)
    editor = panel.form.editors["target_iops"]
    _type(qtbot, editor, "350K")
    assert _workload(panel).target_iops == 350_000
    _type(qtbot, editor, "2.5M IOPS")
    assert _workload(panel).target_iops == 2_500_000
    _type(qtbot, editor, "420,000 IOPS")
    assert _workload(panel).target_iops == 420_000


def test_percentage_over_100_is_refused_not_truncated(qtbot):
    panel = _panel(qtbot)
    before = _workload(panel).read_pct
    editor = panel.form.editors["read_pct"]
    depth = panel.document.undo_stack.count()
    _type(qtbot, editor, "150")
    assert _workload(panel).read_pct == before  # was 15 %: the third digit was dropped
    assert panel.document.undo_stack.count() == depth
    assert editor.messages() == [f"150 % is out of range: allowed 0 to 100 %; the value stays {before:g} %"]
    assert not editor.error.isHidden()
    assert editor.entry.text() == "150"  # what was typed stays, to correct it
    qtbot.keyClick(editor.entry.lineEdit(), Qt.Key.Key_Escape)
    assert editor.entry.text() == f"{before:g} %" and editor.error.isHidden()


def test_negative_slo_is_refused_not_made_positive(qtbot):
    panel = _panel(qtbot)
    before = _workload(panel).slo_ms
    editor = panel.form.editors["slo_ms"]
    _type(qtbot, editor, "-3")
    assert _workload(panel).slo_ms == before  # was 3 ms: the minus sign was dropped
    assert editor.messages() == [
        f"-3 ms is out of range: allowed above 0 and at most 10,000 ms; the value stays {before:g} ms"]
    _type(qtbot, editor, "2 ms")
    assert _workload(panel).slo_ms == 2.0 and editor.messages() == []
    _type(qtbot, editor, "500 us")
    assert _workload(panel).slo_ms == 0.5


def test_capacity_with_units(qtbot):
    panel = _panel(qtbot)
    editor = panel.form.editors["dataset_bytes"]
    _type(qtbot, editor, "1.5 TiB")
    assert _workload(panel).dataset_bytes == int(1.5 * TIB)
    assert editor.entry.text() == "1.5 TiB"
    _type(qtbot, editor, "500 GB")  # decimal, said so: never mixed silently with GiB
    assert _workload(panel).dataset_bytes == 500 * 10**9
    _type(qtbot, editor, "3 parsecs")
    assert _workload(panel).dataset_bytes == 500 * 10**9
    assert editor.messages()[0].startswith("'3 parsecs': unknown unit 'parsecs' (use B, KB, MB, GB, TB")


def test_negative_drive_count_is_refused_in_the_inspector(qtbot):
    inspector = _inspector(qtbot, "shelf-1")
    editor = inspector.form.editors["drive_count"]
    _type(qtbot, editor, "-5")
    assert inspector.document.scenario.node("shelf-1").drive_count == 24  # was 5: the minus sign was dropped
    assert editor.messages() == ["-5 is out of range: allowed 0 to 480; the value stays 24 of 24 bays"]
    _type(qtbot, editor, "2.5")
    assert editor.messages() == ["2.5 is not a whole number; the value stays 24 of 24 bays"]
    _type(qtbot, editor, "12")
    assert inspector.document.scenario.node("shelf-1").drive_count == 12
    assert editor.messages() == [] and editor.entry.text() == "12 of 24 bays"


def test_optional_field_empties_to_its_default(qtbot):
    inspector = _inspector(qtbot, "aff8080")
    editor = inspector.form.editors["raid_group_size"]
    _type(qtbot, editor, "20")
    assert inspector.document.scenario.node("aff8080").raid_group_size == 20
    _type(qtbot, editor, "")
    assert inspector.document.scenario.node("aff8080").raid_group_size is None
    assert editor.entry.text() == "default (23)"
    _type(qtbot, editor, "inf")
    assert editor.messages() == ["'inf' is not a finite number; the value stays default (23)"]


def test_a_value_the_model_refuses_leaves_the_field_value_unchanged(qtbot):
    inspector = _inspector(qtbot, "aff8080")
    editor = inspector.form.editors["nodes"]
    editor.entry.allowed = editor.entry.allowed.__class__(1, None)  # as if the editor knew no upper limit
    _type(qtbot, editor, "99")
    assert inspector.document.scenario.node("aff8080").nodes is None
    assert editor.messages() == ["At most 24"]  # the model's limit, in the user's words
    assert editor.entry.model_value() is None and editor.entry.text() == "99"
    qtbot.keyClick(editor.entry.lineEdit(), Qt.Key.Key_Escape)
    assert editor.entry.text() == "default (2)"


def test_digit_groups_are_read_in_a_locale_that_does_not_write_them(qtbot):
    QLocale.setDefault(QLocale.c())
    panel = _panel(qtbot)
    editor = panel.form.editors["target_iops"]
    assert editor.entry.text() == "350000 IOPS"
    _type(qtbot, editor, "420,000")
    assert _workload(panel).target_iops == 420_000 and editor.messages() == []
    _type(qtbot, editor, "4,20")
    assert _workload(panel).target_iops == 420_000
    assert editor.messages() == ["'4,20' is not a number: digits are grouped by three; the decimal point is '.'; "
                                 "the value stays 420000 IOPS"]


def test_set_value_of_a_fraction_in_a_whole_field_is_refused(qtbot):
    inspector = _inspector(qtbot, "shelf-1")
    editor = inspector.form.editors["drive_count"]
    editor.entry.setValue(2.5)
    assert inspector.document.scenario.node("shelf-1").drive_count == 24
    assert editor.messages() == ["2.5 is not a whole number; the value stays 24 of 24 bays"]


def test_the_wheel_changes_a_field_only_once_it_has_the_focus(qtbot):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    panel = _panel(qtbot)
    entry = panel.form.editors["concurrency"].entry
    before = _workload(panel).concurrency

    def wheel():
        event = QWheelEvent(QPointF(5, 5), QPointF(entry.mapToGlobal(QPoint(5, 5))), QPoint(0, 0), QPoint(0, 120),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(entry, event)

    entry.clearFocus()
    wheel()
    assert _workload(panel).concurrency == before  # scrolling past the field changes nothing
    entry.setFocus()
    qtbot.waitUntil(entry.hasFocus, timeout=2000)
    wheel()
    assert _workload(panel).concurrency == before + 1

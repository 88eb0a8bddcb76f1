"""The daily change profile edited in the Inspector's protected-workloads table: a named shape chosen or 24 weights
typed in a small dialog, each change one undo step, bad weights refused naming the hour.

Hand calculation on the bundled SnapMirror example (OLTP 400 GB/day at 2:1 compression -> 200e9 B sent a day; an
hourly schedule; 1 Gbit/s x 50% = 62.5e6 B/s; the 20 ms round trip's window limit 2 MiB / 0.02 s = 104.9e6 B/s is
above it): the largest transfer is 200e9 x (the profile's worst hour share), its time that / 62.5e6 s, and the RPO
achieved 60 min + that time.
- business hours (the file's profile, 2x 08:00-18:00): 2/34 -> 11.765e9 B, 188.2 s, 63.14 min;
- even: 1/24 -> 8.333e9 B, 133.3 s, 62.22 min;
- overnight batch (4x 22:00-06:00): 4/48 -> 16.667e9 B, 266.7 s, 64.44 min;
- custom, all in hour 03: 1 -> 200e9 B, 3,200 s, 113.33 min: misses the 90 min required.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from app.gui.change_profile import ProfileDialog
from models.project import load
from models.replication.figures import replication_figures
from models.resources import examples_dir

SENT = 200e9
RATE = 62.5e6


def _open(window):
    window.document.reset(load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"))
    window.scene.select_ids(["dr"])
    table = window.inspector.protected_table
    assert table is not None and not table.isHidden()
    return window.document, table


def _figures(doc):
    return replication_figures(doc.scenario, doc.scenario.replications[0])


def _choose(qtbot, table, text: str) -> None:
    """Pick ``text`` in the OLTP row's profile choice with the keyboard (as a user would)."""
    (combo,) = table.profile_editors
    target = combo.findText(text, Qt.MatchFlag.MatchStartsWith)
    assert target >= 0
    key = Qt.Key.Key_Down if target > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, key)


@pytest.mark.parametrize(("shape", "worst_share"), [("Even", 1 / 24), ("Overnight", 4 / 48)])
def test_a_named_shape_chosen_sets_the_largest_transfer_and_rpo_by_hand_in_one_undo_step(window, qtbot, shape,
                                                                                       worst_share):
    doc, table = _open(window)
    before = _figures(doc)
    assert before.transfer_bytes == pytest.approx(SENT * 2 / 34, rel=1e-9)
    assert before.rpo_achieved_minutes == pytest.approx(60 + SENT * 2 / 34 / RATE / 60, rel=1e-9)  # 63.14
    assert table.profile_editors[0].currentText().startswith("Daytime")
    steps = doc.undo_stack.count()
    _choose(qtbot, table, shape)
    after = _figures(doc)
    assert doc.undo_stack.count() == steps + 1
    assert after.transfer_bytes == pytest.approx(SENT * worst_share, rel=1e-9)
    assert after.rpo_achieved_minutes == pytest.approx(60 + SENT * worst_share / RATE / 60, rel=1e-9)
    oltp = doc.scenario.replications[0].change[0]
    assert oltp.bytes_per_day == 400 * 10**9  # the change per day stays
    rpo = round(after.rpo_achieved_minutes)
    assert f"RPO {rpo} min of 90 required" in window.inspector.header.text()
    assert window.inspector.protected_table.profile_editors[0].currentText().startswith(shape)
    doc.undo_stack.undo()
    assert _figures(doc).rpo_achieved_minutes == pytest.approx(before.rpo_achieved_minutes, rel=1e-12)


def test_custom_weights_typed_in_the_dialog_are_checked_naming_the_hour_and_set_the_rpo(window, qtbot):
    doc, table = _open(window)
    steps = doc.undo_stack.count()
    seen: list[str] = []

    def type_weights(parent, name, current):
        dialog = ProfileDialog(name, current, parent)
        qtbot.addWidget(dialog)
        assert [float(t) for t in dialog.texts()] == current  # opens on the profile it has
        for hour in range(24):
            dialog.grid.item(hour, 0).setText("0")
        dialog.grid.item(7, 0).setText("-1")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        seen.append(dialog.message.text())
        dialog.grid.item(7, 0).setText("0")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        seen.append(dialog.message.text())
        dialog.grid.item(3, 0).setText("5")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        return dialog.profile()

    table.ask_profile = type_weights
    qtbot.mouseClick(table.findChild(QToolButton, "changeProfileEdit-oltp"), Qt.MouseButton.LeftButton)
    assert seen[0] == "Hour 07:00-08:00: -1 is negative (a weight is 0 or more)"
    assert seen[1].startswith("Every hour's weight is 0")
    f = _figures(doc)
    assert doc.undo_stack.count() == steps + 1
    assert doc.scenario.replications[0].change[0].hourly_profile == [5.0 if h == 3 else 0.0 for h in range(24)]
    assert f.transfer_bytes == pytest.approx(SENT, rel=1e-9)
    assert f.rpo_achieved_minutes == pytest.approx(60 + SENT / RATE / 60, rel=1e-9)  # 113.33 min
    assert f.rpo_met is False
    assert window.inspector.protected_table.profile_editors[0].currentText() == "Custom"


def test_a_cancelled_dialog_changes_nothing(window, qtbot):
    doc, _ = _open(window)
    _choose(qtbot, window.inspector.protected_table, "Overnight")  # the choice next to custom
    steps = doc.undo_stack.count()
    profile = doc.scenario.replications[0].change[0].hourly_profile
    table = window.inspector.protected_table
    asked: list[list[float]] = []
    table.ask_profile = lambda parent, name, current: asked.append(list(current))
    _choose(qtbot, table, "Custom")
    assert asked == [profile]  # the dialog opened on the profile it has
    assert doc.undo_stack.count() == steps and doc.scenario.replications[0].change[0].hourly_profile == profile
    assert window.inspector.protected_table.profile_editors[0].currentText().startswith("Overnight")


def test_the_wheel_over_an_unfocused_profile_choice_changes_nothing(window, qtbot):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    doc, table = _open(window)
    steps = doc.undo_stack.count()
    (combo,) = table.profile_editors
    window.inspector.setFocus()
    assert not combo.hasFocus()
    centre = QPointF(combo.rect().center())
    event = QWheelEvent(centre, QPointF(combo.mapToGlobal(QPoint(0, 0))) + centre, QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(combo, event)
    assert combo.currentText() == "Daytime" and doc.undo_stack.count() == steps

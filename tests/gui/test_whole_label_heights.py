"""WholeLabel remembers its height for a width: the same answer as QLabel's own, computed anew whenever anything
QLabel computes it from changes (text, format, font, margins, indent, frame, minimum width, word wrap)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFrame, QLabel

from app.gui.whole_label import HEIGHTS_KEPT, WholeLabel

WIDTHS = (40, 91, 160, 284, 479, 603, 1200)
LONG = ("Effective P10-P90: 210.4 to 398.7 TiB. Months until full P10-P90: 14 to 61 months. The design still "
        "fits its required capacity over the horizon down to a data-reduction ratio of 1.42:1.")


def _qt_heights(label: QLabel) -> list[int]:
    return [QLabel.heightForWidth(label, w) for w in WIDTHS]


def _heights(label: WholeLabel) -> list[int]:
    return [label.heightForWidth(w) for w in WIDTHS]


def test_heights_follow_every_input(qtbot):
    label = WholeLabel(LONG)
    qtbot.addWidget(label)
    label.show()
    assert _heights(label) == _qt_heights(label)
    first = _heights(label)
    assert len(set(first)) > 2  # the text wraps differently across these widths: a real check

    changes = [
        lambda: label.setText(LONG + " " + LONG),
        lambda: label.setText("<b>Capacity:</b> " + LONG),
        lambda: label.setTextFormat(Qt.TextFormat.PlainText),
        lambda: label.setFont(QFont(label.font().family(), label.font().pointSize() + 5)),
        lambda: label.setContentsMargins(7, 3, 11, 5),
        lambda: label.setMargin(6),
        lambda: label.setIndent(30),
        lambda: label.setFrameStyle(QFrame.Shape.Box | QFrame.Shadow.Plain),
        lambda: label.setLineWidth(4),
        lambda: label.setMinimumWidth(350),
        lambda: label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse),
        lambda: label.setWordWrap(False),
    ]
    before = _heights(label)
    moved = 0
    for change in changes:
        change()
        after = _heights(label)
        assert after == _qt_heights(label), change
        moved += after != before
        before = after
    assert moved >= 8  # most changes move the height at some width: the cache was not merely never hit


def test_same_width_laid_out_once(qtbot):
    label = WholeLabel(LONG)
    qtbot.addWidget(label)
    for _ in range(5):
        for w in WIDTHS:
            label.heightForWidth(w)
    assert len(label._heights) == len(WIDTHS)
    for w in range(100, 100 + 3 * HEIGHTS_KEPT):
        assert label.heightForWidth(w) == QLabel.heightForWidth(label, w)
    assert len(label._heights) == HEIGHTS_KEPT

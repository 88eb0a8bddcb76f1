"""A word-wrapped label that never gets less height than its text needs at its width.

Qt's layouts shrink a word-wrapped ``QLabel`` below its height-for-width when space is short (its minimum size
hint is a single short line), and the label then clips its text at the top and bottom: the Capacity tab's
sentences lost their first and last lines on a laptop's results dock (REVIEW43 finding 3). This label's minimum
height follows its text at its current width, so the layout takes the room from the widgets beside it (a table
that scrolls) and, when even that is not enough, the scroll area the label's column sits in scrolls.

Its height for a width is remembered for the label's present text, font and layout figures: while a result view
is laid out the layouts ask each wrapped label's height for the same few widths dozens of times, and each answer
lays the whole text out again (the Capacity tab's two labels: 79 calls at 13 widths, ~40 million instructions
between the first window and the first results drawn, ``valgrind --tool=callgrind``).

In ``app.gui``, not ``app.gui.results``: the inspector's field messages use it too (a refusal of three lines under a
field, review 56), and the result views' package is not imported before the first window is painted."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy

HEIGHTS_KEPT = 16
"""The most (width, text, ...) -> height answers a label keeps; the oldest are forgotten past it."""


class WholeLabel(QLabel):
    """A word-wrapped QLabel whose minimum height is the height its text needs at its width (hidden: none)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self._last_width = -1
        self._heights: dict[tuple[object, ...], int] = {}

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        """Qt override: QLabel's own answer, remembered by everything QLabel's computes it from (the width, text,
        text format, font, word wrap, alignment, direction, interaction flags, minimum width, margins, indent and
        frame): the same inputs give the same height, without the text laid out again."""
        margins = self.contentsMargins()
        key = (width, self.text(), self.textFormat(), self.font().key(), self.wordWrap(), self.alignment(),
               self.layoutDirection(), self.textInteractionFlags(), self.minimumWidth(), margins.left(),
               margins.top(), margins.right(), margins.bottom(), self.margin(), self.indent(), self.frameWidth())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) >= HEIGHTS_KEPT:
                del self._heights[next(iter(self._heights))]
            height = self._heights[key] = super().heightForWidth(width)
        return height

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Qt override: the height of the text wrapped at the label's width."""
        hint = super().minimumSizeHint()
        width = self.width() if self.width() > 0 else self.sizeHint().width()
        return QSize(hint.width(), max(hint.height(), self.heightForWidth(width)))

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Qt override: a new text asks the layout for its new height."""
        super().setText(text)
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """Qt override: a new width wraps the text anew, so the minimum height changes."""
        super().resizeEvent(event)
        if event.size().width() != self._last_width:
            self._last_width = event.size().width()
            self.updateGeometry()

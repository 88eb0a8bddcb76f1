"""A word-wrapped label that never gets less height than its text needs at its width.

Qt's layouts shrink a word-wrapped ``QLabel`` below its height-for-width when space is short (its minimum size
hint is a single short line), and the label then clips its text at the top and bottom: the Capacity tab's
sentences lost their first and last lines on a laptop's results dock (REVIEW43 finding 3). This label's minimum
height follows its text at its current width, so the layout takes the room from the widgets beside it (a table
that scrolls) and, when even that is not enough, the scroll area the label's column sits in scrolls."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy


class WholeLabel(QLabel):
    """A word-wrapped QLabel whose minimum height is the height its text needs at its width (hidden: none)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self._last_width = -1

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

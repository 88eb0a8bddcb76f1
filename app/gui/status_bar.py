"""The main window's status bar: a transient message that does not fit beside the key figures is shortened at a word
boundary with an ellipsis, a gap before the first figure, instead of being clipped mid-word against it (REVIEW43
#11: "Opened aff8080-nfs-f" butted against "Usable:" at 1366 x 768). The full message stays ``currentMessage()``
and is the bar's tooltip while it is shortened."""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QSizeGrip, QSizePolicy, QStatusBar, QStyle, QStyleOption, QWidget

MESSAGE_GAP = 14
"""Pixels kept free between the message's end and the first key figure (the figures' own spacing)."""
ELLIPSIS = "…"
_BREAK = re.compile(r"(?<=[\s\-_/\\.,;:])")
"""Where a message may be shortened: after a space, a hyphen, an underscore, a slash, a dot or a punctuation mark."""


def word_pieces(text: str) -> list[str]:
    """``text`` cut after each space, hyphen, underscore, slash, dot or punctuation mark (joined: ``text``)."""
    return [piece for piece in _BREAK.split(text) if piece]


def shorten_at_word(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` if it fits in ``width`` pixels at ``metrics``, else its longest start that ends at a word boundary
    (after a space, hyphen, underscore, slash, dot or punctuation mark) followed by an ellipsis and fitting; where
    not even the first word fits, Qt's end elision of the whole text (never an empty string for a non-empty text).

    Args:
        text: the message (one line).
        metrics: the font metrics it is drawn with.
        width: the room in pixels (negative counts as 0).
    """
    if metrics.horizontalAdvance(text) <= width:
        return text
    pieces = word_pieces(text)
    best = ""
    start = ""
    for piece in pieces[:-1]:
        start += piece
        candidate = start.rstrip() + ELLIPSIS
        if metrics.horizontalAdvance(candidate) > width:
            break
        best = candidate
    return best or metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(0, width))


class StatusBar(QStatusBar):
    """A QStatusBar whose transient message is shortened at a word boundary where the permanent widgets (the key
    figures) leave it too little room (see :func:`shorten_at_word`); painting as Qt's own bar otherwise."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        # as QMainWindow.statusBar() makes its own: the figures never set the window's minimum width
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.messageChanged.connect(self._message_changed)

    def _message_changed(self, message: str) -> None:
        shown = self.shown_message()
        self.setToolTip(message if message and shown != message else "")
        self.update()

    def message_rect(self) -> QRect:
        """The room for the transient message: from the left edge to ``MESSAGE_GAP`` before the first visible
        permanent widget (Qt's own bar leaves 2 px)."""
        right = self.width() - 12
        for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if child.isVisible() and not isinstance(child, QSizeGrip) and child.width() > 0:
                right = min(right, child.x() - MESSAGE_GAP)
        return QRect(6, 0, max(0, right - 6), self.height())

    def shown_message(self) -> str:
        """The transient message as drawn: whole where it fits, else shortened at a word boundary."""
        message = self.currentMessage()
        return shorten_at_word(message, self.fontMetrics(), self.message_rect().width()) if message else ""

    def paintEvent(self, event) -> None:  # noqa: N802
        """As QStatusBar::paintEvent, with the message shortened at a word boundary (its full text the tooltip)."""
        message = self.currentMessage()
        if not message:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if child.isVisible() and not isinstance(child, QSizeGrip):
                frame = QStyleOption()
                frame.rect = child.geometry().adjusted(-2, -1, 2, 1)
                frame.palette = self.palette()
                self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameStatusBarItem, frame, painter, child)
        shown = self.shown_message()
        painter.setPen(self.palette().windowText().color())
        painter.drawText(self.message_rect(), Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter
                         | Qt.TextFlag.TextSingleLine, shown)
        painter.end()

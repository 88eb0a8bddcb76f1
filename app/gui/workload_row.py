"""How a row of the workloads list elides: the workload's name gives way first, then its target; the rate stays.

A row reads "name  →  target  ·  rate". Qt's middle elision of the whole row cut the arrow and the target away and
left a stray fragment ("NFSv3 file services...ir · 200,000 IOPS": the "ir" of "pair"; REVIEW43 finding 8). The
delegate fits the row to its width part by part: the whole row where it fits, else the name elided at its end,
else the name to its first letters and the target elided too; the rate is never cut."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from app.gui.item_text import item_text_width

ARROW = "  →  "
"""Between a row's name and its target."""
DOT = "  ·  "
"""Between a row's target and its rate."""
MIN_NAME = 6
"""Characters of the name kept before the target gives way too."""


def fit_row(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` ("name  →  target  ·  rate") fitted to ``width`` px: the whole text where it fits, else the name
    elided at its end (down to about :data:`MIN_NAME` characters), then the target elided at its end; the rate
    whole. A text without the arrow and dot is elided at its end."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    if ARROW not in text or DOT not in text:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    name, rest = text.split(ARROW, 1)
    target, rate = rest.rsplit(DOT, 1)
    tail = f"{ARROW}{target}{DOT}{rate}"
    least_name = metrics.horizontalAdvance(name[:MIN_NAME] + "…")
    room = width - metrics.horizontalAdvance(tail)
    if room >= least_name:
        return metrics.elidedText(name, Qt.TextElideMode.ElideRight, room) + tail
    short_name = metrics.elidedText(name, Qt.TextElideMode.ElideRight, least_name)
    room = width - metrics.horizontalAdvance(f"{short_name}{ARROW}{DOT}{rate}")
    target = metrics.elidedText(target, Qt.TextElideMode.ElideRight, max(room, 0))
    return f"{short_name}{ARROW}{target}{DOT}{rate}"


class WorkloadRowDelegate(QStyledItemDelegate):
    """Paints a workloads-list row fitted by :func:`fit_row` to the room its text has (beside the tick box)."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        """Qt override: the row's text fitted to its text rectangle (the item keeps its whole text)."""
        super().initStyleOption(option, index)
        if option.rect.width() <= 0 or not option.text:
            return
        width = item_text_width(option)
        if width is not None:
            option.text = fit_row(option.text, option.fontMetrics, width)

"""How a row of the workloads list elides: the target's name gives way first, then the workload's; the rate stays.

A row reads "name  →  target  ·  rate". Qt's middle elision of the whole row cut the arrow and the target away and
left a stray fragment ("NFSv3 file services...ir · 200,000 IOPS": the "ir" of "pair"; REVIEW43 finding 8). Cutting
the name first made two imported workloads look alike ("cluste…  →  AFF8080A EX HA p…" twice: their names differ
only after "cluster-"; revgui55 #9), while the target is usually the same on every row. The delegate fits the row
part by part: the whole row where it fits, else the target elided at its end (down to :data:`MIN_TARGET`
characters), then the name elided at its end; the rate is never cut."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from app.gui.item_text import item_text_width

ARROW = "  →  "
"""Between a row's name and its target."""
DOT = "  ·  "
"""Between a row's target and its rate."""
MIN_TARGET = 4
"""Characters of the target kept before the workload's name gives way too."""


def fit_row(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` ("name  →  target  ·  rate") fitted to ``width`` px: the whole text where it fits, else the target
    elided at its end (down to about :data:`MIN_TARGET` characters), then the name elided at its end; the rate
    whole. A text without the arrow and dot is elided at its end."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    if ARROW not in text or DOT not in text:
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    name, rest = text.split(ARROW, 1)
    target, rate = rest.rsplit(DOT, 1)
    least_target = metrics.horizontalAdvance(target[:MIN_TARGET] + "…")
    room = width - metrics.horizontalAdvance(f"{name}{ARROW}{DOT}{rate}")
    if room >= least_target:
        return f"{name}{ARROW}{metrics.elidedText(target, Qt.TextElideMode.ElideRight, room)}{DOT}{rate}"
    short_target = metrics.elidedText(target, Qt.TextElideMode.ElideRight, least_target)
    room = width - metrics.horizontalAdvance(f"{ARROW}{short_target}{DOT}{rate}")
    name = metrics.elidedText(name, Qt.TextElideMode.ElideRight, max(room, 0))
    return f"{name}{ARROW}{short_target}{DOT}{rate}"


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

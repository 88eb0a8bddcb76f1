"""A row of widgets that wraps onto a second line when the dock is too narrow for it, its last item kept at the
right end of its line.

The Capacity tab's header (six key figures, the system selector, the TB/TiB toggle and the export buttons) was one
QHBoxLayout: its minimum width was the sum of its items', so with two systems (the selector shown, the "Months until
full" caption naming the first system to fill) it was wider than a 1366 x 768 screen's results dock, and the toggle,
the export buttons and the "Data reduction..." button were pushed past the dock's right edge (review 56, canvas
finding 9). This layout lays its items out left to right and starts a new line for an item that does not fit; its
minimum width is its widest item's, and its height for a width is that of the lines it then needs.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class WrapRow(QLayout):
    """Items left to right, wrapping onto further lines as the width requires; the last item sits at the right end
    of its line (the controls after the figures). Hidden items take no room."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    # ------------------------------------------------------------------------------------------- QLayout's API

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        """Qt override: append an item."""
        self._items.append(item)

    def count(self) -> int:
        """Qt override: the number of items."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        """Qt override: the item at ``index`` (None past the end)."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        """Qt override: remove and return the item at ``index``."""
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt's name
        """Qt override: it takes the width it is given (its last item at the right end)."""
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        """Qt override: its height depends on its width (the lines it wraps onto)."""
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        """Qt override: the height of its lines at ``width``."""
        return self._lay_out(QRect(0, 0, width, 0), apply=False)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Qt override: every item on one line."""
        shown = self._shown()
        margins = self.contentsMargins()
        width = sum(i.sizeHint().width() for i in shown) + self.spacing() * max(len(shown) - 1, 0)
        height = max((i.sizeHint().height() for i in shown), default=0)
        return QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt's name
        """Qt override: as wide as its widest item (each on a line of its own at the narrowest)."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        """Qt override: place the items in ``rect``."""
        super().setGeometry(rect)
        self._lay_out(rect, apply=True)

    # ------------------------------------------------------------------------------------------------- the lines

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def lines(self, width: int) -> list[list[QLayoutItem]]:
        """The items on each line at ``width`` (the layout's contents margins included)."""
        margins = self.contentsMargins()
        room = max(width - margins.left() - margins.right(), 1)
        out: list[list[QLayoutItem]] = []
        used = 0
        for item in self._shown():
            w = min(item.sizeHint().width(), room)
            if out and used + self.spacing() + w <= room:
                out[-1].append(item)
                used += self.spacing() + w
            else:
                out.append([item])
                used = w
        return out

    def _lay_out(self, rect: QRect, apply: bool) -> int:
        """Place the items in ``rect`` (``apply``) or only measure; returns the height the lines take."""
        margins = self.contentsMargins()
        left, right = rect.x() + margins.left(), rect.right() - margins.right()
        room = max(right - left + 1, 1)
        y = rect.y() + margins.top()
        lines = self.lines(rect.width())
        last = self._shown()[-1] if self._shown() else None
        for n, line in enumerate(lines):
            height = max(item.sizeHint().height() for item in line)
            x = left
            for item in line:
                hint = item.sizeHint()
                w = min(hint.width(), room)
                if item is last and len(self._items) > 1:
                    x = max(x, right - w + 1)  # the controls at the right end of their line
                if apply:
                    h = min(max(hint.height(), item.minimumSize().height()), height)
                    item.setGeometry(QRect(QPoint(x, y + (height - h) // 2), QSize(w, h)))
                x += w + self.spacing()
            y += height + (self.spacing() if n < len(lines) - 1 else 0)
        return y - rect.y() + margins.bottom()

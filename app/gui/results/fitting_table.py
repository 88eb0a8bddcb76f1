"""A table that fits its columns to its width: one line per row where the text fits, wrapped text otherwise.

``QHeaderView.ResizeToContents`` keeps each column as wide as its longest one-line text, so a table narrower than
that scrolls sideways and elides its cells: on a laptop the Cost tab read "325,861 USD (cannot carry the I/", its
break-even column off screen (REVIEW43 finding 5). :class:`FittingTable` gives each visible column its one-line
width where they all fit (the first column takes what is left), else a share of the width in proportion to it,
wraps the cells' text at word boundaries and makes each row as tall as its wrapped text."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHeaderView, QTableWidget

SLACK = 4
"""Pixels added to a column's one-line width (Qt's hint is exact to the pixel)."""


HEADER_MARGINS = 12
"""Pixels a header section's text leaves free (the style's margins either side)."""


class FittingTable(QTableWidget):
    """A ``QTableWidget`` whose columns share its width (see module); call :meth:`fit_columns` after a fill."""

    def __init__(self, rows: int, columns: int, parent=None) -> None:
        super().__init__(rows, columns, parent)
        self.setWordWrap(True)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._fitted_width = -1

    def fit_columns(self) -> None:
        """Share the viewport's width among the visible columns, then fit each row's height to its text."""
        columns = [c for c in range(self.columnCount()) if not self.isColumnHidden(c)]
        if not columns:
            return
        # a few pixels over Qt's hint: at exactly its hint a cell's text may wrap or elide by a pixel
        natural = {c: max(self.sizeHintForColumn(c) + SLACK, self._header_one_line(c)) for c in columns}
        least = {c: min(natural[c], self._longest_word(c)) for c in columns}
        room = self.viewport().width()
        total = sum(natural.values())
        if total <= room:
            widths = dict(natural)
            widths[columns[0]] += room - total  # the first column (the names) takes what is left
        else:  # each column its longest word, the rest of the room in proportion to what each lacks
            spare = max(0, room - sum(least.values()))
            lacking = sum(natural[c] - least[c] for c in columns) or 1
            widths = {c: least[c] + spare * (natural[c] - least[c]) // lacking for c in columns}
        for c in columns:
            self.setColumnWidth(c, widths[c])
            self._wrap_header(c, widths[c])
        self._fitted_width = room
        self.resizeRowsToContents()

    def _header_one_line(self, column: int) -> int:
        """The width of a column's header text on one line."""
        item = self.horizontalHeaderItem(column)
        text = " ".join(item.text().split()) if item is not None else ""
        return self.horizontalHeader().fontMetrics().horizontalAdvance(text) + HEADER_MARGINS if text else 0

    def _wrap_header(self, column: int, width: int) -> None:
        """Break a column's header text into lines that fit ``width`` (one line where it fits)."""
        item = self.horizontalHeaderItem(column)
        if item is None:
            return
        words = item.text().split()
        metrics = self.horizontalHeader().fontMetrics()
        room = width - HEADER_MARGINS
        lines: list[str] = []
        for word in words:
            if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= room:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        text = "\n".join(lines)
        if text != item.text():
            item.setText(text)

    def _longest_word(self, column: int) -> int:
        """The width a column needs so that none of its words is cut: its widest word, the cell's margins and
        icon (a column's text wraps only between words)."""
        metrics = self.fontMetrics()
        margins = 2 * (self.style().pixelMetric(self.style().PixelMetric.PM_FocusFrameHMargin, None, self) + 1) + 4
        widest = self.horizontalHeader().minimumSectionSize()
        for row in range(self.rowCount()):
            item = self.item(row, column)
            if item is None or not item.text():
                continue
            icon = self.iconSize().width() + 4 if not item.icon().isNull() else 0
            words = max((metrics.horizontalAdvance(word) for word in item.text().split()), default=0)
            widest = max(widest, words + icon + margins)
        header = self.horizontalHeaderItem(column)
        if header is not None and header.text():
            metrics = self.horizontalHeader().fontMetrics()
            widest = max(widest, max(metrics.horizontalAdvance(w) for w in header.text().split()) + HEADER_MARGINS)
        return widest

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Qt override: a new viewport width (the table resized, a scroll bar shown or hidden) shares the
        columns anew."""
        handled = super().viewportEvent(event)
        if event.type() == QEvent.Type.Resize and self.viewport().width() != self._fitted_width:
            self.fit_columns()
        return handled

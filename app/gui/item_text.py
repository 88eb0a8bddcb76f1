"""The width an item view gives an item's text, for delegates that shorten the text to fit it themselves (the
workloads list, the catalog palette) instead of letting Qt elide it in the middle."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle, QStyleOptionViewItem


def item_text_width(option: QStyleOptionViewItem) -> int | None:
    """The pixels the style draws an item's text in: its text rectangle less the focus frame's margin on each side
    (``QStyle.SE_ItemViewItemText``, ``PM_FocusFrameHMargin`` + 1, as Qt's own item delegate lays it out); None
    when the option has no widget or style to ask."""
    widget = option.widget
    style = widget.style() if widget is not None else None
    if style is None:
        return None
    rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
    return rect.width() - 2 * margin

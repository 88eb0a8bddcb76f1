"""Dialogs sized to the screen they open on: never larger than 90% of its available area, centred on the window
that opened them and kept inside the screen (a fixed 1280 x 760 dialog was half off-screen at 200% scaling,
where a 1920 x 1080 screen is 960 x 540 logical pixels)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QStyle, QWidget

SCREEN_FRACTION = 0.9
"""The largest share of the screen's available width and height a dialog takes."""


def fitted_rect(preferred: QSize, available: QRect, centre: QPoint | None = None,
                fraction: float = SCREEN_FRACTION, frame: QSize | None = None) -> QRect:
    """Where a dialog's window goes (its frame, title bar included): ``preferred`` (the client size) plus
    ``frame`` (the window decoration's width and height), capped at ``fraction`` of ``available`` (logical
    pixels), centred on ``centre`` (the parent window's centre; None: the screen's) and moved inside
    ``available``."""
    frame = QSize(0, 0) if frame is None else frame
    width = min(preferred.width() + frame.width(), int(available.width() * fraction))
    height = min(preferred.height() + frame.height(), int(available.height() * fraction))
    centre = available.center() if centre is None else centre
    x = min(max(centre.x() - width // 2, available.left()), available.right() + 1 - width)
    y = min(max(centre.y() - height // 2, available.top()), available.bottom() + 1 - height)
    return QRect(x, y, width, height)


def frame_extra(widget: QWidget) -> QSize:
    """The window decoration around ``widget``'s client area: measured once it has been shown, before that the
    style's title bar height and a frame of 4 px a side (an estimate; the window manager draws it)."""
    frame, client = widget.frameGeometry(), widget.geometry()
    if widget.testAttribute(Qt.WidgetAttribute.WA_WState_Created) and frame != client:
        return QSize(frame.width() - client.width(), frame.height() - client.height())
    title = widget.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight, None, widget)
    return QSize(8, title + 8)


def available_geometry(widget: QWidget) -> QRect:
    """The available area (without task bars) of the screen ``widget`` (or its parent window) is on."""
    parent = widget.parentWidget()
    screen = (parent.window().screen() if parent is not None else None) or widget.screen()
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(dialog: QWidget, preferred: QSize) -> QRect:
    """Size and place ``dialog``: its client area ``preferred`` at most, its window (frame included) within
    90% of its screen's available area, centred on its parent window.

    Returns:
        The frame geometry given to the dialog (logical pixels).
    """
    available = available_geometry(dialog)
    parent = dialog.parentWidget()
    centre = parent.window().frameGeometry().center() if parent is not None else None
    frame = frame_extra(dialog)
    rect = fitted_rect(preferred, available, centre, frame=frame)
    dialog.resize(rect.size() - frame)
    dialog.move(rect.topLeft())
    return rect

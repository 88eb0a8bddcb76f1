"""Icons: a disabled action's icon is visibly dimmer than an enabled one, whatever the palette says."""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication


def _max_alpha(qicon: QIcon, mode: QIcon.Mode) -> int:
    image = qicon.pixmap(24, 24, mode).toImage()
    return max(image.pixelColor(x, y).alpha()
               for x in range(image.width()) for y in range(image.height()))


def test_disabled_icons_are_dimmed_even_when_the_palette_does_not_say_so(qtbot):
    from app.gui import icons

    app = QApplication.instance()
    old = app.palette()
    palette = QPalette(old)
    palette.setColor(QPalette.ColorRole.Text, QColor("#e0e0e0"))  # all colour groups alike, as many dark themes
    app.setPalette(palette)
    icons.icon.cache_clear()
    try:
        for qicon in (icons.icon("mdi6.undo"), icons.icon("mdi6.undo", "#3b82c4")):
            normal, disabled = _max_alpha(qicon, QIcon.Mode.Normal), _max_alpha(qicon, QIcon.Mode.Disabled)
            assert normal == 255
            assert disabled <= round(255 * icons.DISABLED_ALPHA) + 1
    finally:
        app.setPalette(old)
        icons.icon.cache_clear()

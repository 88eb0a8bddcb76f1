"""Icons, built in one place (qtawesome's Material Design Icons font: crisp at any DPI, tinted for light and dark
palettes).

The glyphs are drawn by a small icon engine of our own from the font file qtawesome ships, the way qtawesome's
``CharIconEngine`` draws them (text at 7/8 of the icon's height, centred): importing qtawesome (and through it
qtpy, which star-imports every Qt module) and its first icon (which loads and checks a dozen fonts) cost about
0.3 s of a start. qtawesome stays the source of the font and the fallback where the font file cannot be found.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib.util import find_spec
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QIcon, QIconEngine, QPainter, QPixmap

from models.project.kinds import NODE_KINDS, kind_heading

KIND_ICONS = {
    "adapter": "mdi6.expansion-card",
    "drive": "mdi6.harddisk",
    "cloud_disk": "mdi6.cloud",
    "licence": "mdi6.key",
    "link": "mdi6.vector-line",
    **{row.catalog_kind: row.icon for row in NODE_KINDS.values()},  # catalog kinds that become nodes ("hci_node")
    **{kind: row.icon for kind, row in NODE_KINDS.items()},  # node kinds: the kind table's icons
}
"""Catalog or node kind -> its icon name; the node kinds' (and the catalog kinds they are made of) from the kind
table."""

KIND_LABELS = {
    "adapter": "Adapters (HBA / NIC)",
    "drive": "Drives",
    "hci_node": "HCI hosts",  # a catalog HCI node is one host; a cluster of them is the node kind
    "cloud_disk": "Cloud disks",
    "licence": "Licences",
    "link": "Links",
    **{kind: kind_heading(kind, plural=True) for kind, row in NODE_KINDS.items() if row.catalog_kind == kind},
}
"""Catalog kind -> the palette's group heading; the node kinds' plural names from the kind table."""

KIND_COLORS = {
    "host": "#3b82c4",
    "switch": "#7a5cc2",
    "controller": "#d9822b",
    "shelf": "#4f9d69",
    "hci_cluster": "#2a9d8f",
    "cloud_vm": "#5b8def",
    "managed_service": "#0f9bb8",
}


DISABLED_ALPHA = 0.35
"""Opacity of an icon's disabled state: derived from its own colour rather than the palette's Disabled Text,
which many dark palettes leave equal to the normal text (a disabled Undo would look enabled)."""


GLYPH_SCALE = 0.875
"""The glyph's pixel size as a share of the icon's height (qtawesome's: room for the font's bearing)."""


@lru_cache(maxsize=1)
def _mdi6_font() -> tuple[str, dict[str, str]] | None:
    """(font family, icon name -> its character's code point in hexadecimal, as the charmap file gives it) of
    qtawesome's bundled Material Design Icons 6 font, loaded into the application's font database once; None where
    the files cannot be found or loaded. (The codes are turned into characters as icons are asked for: the window
    uses a few dozen of the ~7,000, and converting them all cost ~4 ms before the first paint.)"""
    spec = find_spec("qtawesome")  # finds the package without importing it
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    fonts = Path(locations[0]) / "fonts" if locations else None
    ttf = sorted(fonts.glob("materialdesignicons6-webfont-[0-9]*.ttf")) if fonts and fonts.is_dir() else []
    charmap = sorted(fonts.glob("materialdesignicons6-webfont-charmap-*.json")) if ttf else []
    if not ttf or not charmap:
        return None
    font_id = QFontDatabase.addApplicationFont(str(ttf[-1]))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        return None
    codes = json.loads(charmap[-1].read_text(encoding="utf-8"))
    return families[0], codes


class _GlyphEngine(QIconEngine):
    """Draws one font glyph in one colour (another for the Disabled mode), centred, at any size."""

    def __init__(self, family: str, char: str, color: QColor, disabled: QColor):
        super().__init__()
        self._family, self._char, self._color, self._disabled = family, char, QColor(color), QColor(disabled)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        painter.save()
        painter.setPen(self._disabled if mode == QIcon.Mode.Disabled else self._color)
        font = QFont(self._family)
        font.setPixelSize(max(1, round(GLYPH_SCALE * rect.height())))
        painter.setFont(font)
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), self._char)
        painter.restore()

    def pixmap(self, size, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        pixmap = QPixmap(size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        return pixmap

    def clone(self) -> QIconEngine:
        return _GlyphEngine(self._family, self._char, self._color, self._disabled)


@cache
def icon(name: str, color: str | None = None) -> QIcon:
    """A named icon (``mdi6.*``), tinted ``color`` or the palette's text colour; its disabled state is the same
    colour at :data:`DISABLED_ALPHA` opacity.

    Raises:
        KeyError: ``name`` is not an ``mdi6`` icon (qtawesome raises its own error for it in the fallback).
    """
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    if color:
        base = QColor(color)
    elif QApplication.instance() is not None:
        base = QApplication.instance().palette().color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    else:
        base = QColor("#505050")
    disabled = QColor(base)
    disabled.setAlphaF(DISABLED_ALPHA)
    prefix, _, glyph = name.partition(".")
    font = _mdi6_font() if prefix == "mdi6" and QApplication.instance() is not None else None
    if font is None:
        import qtawesome as qta

        return qta.icon(name, color=base, color_disabled=disabled)
    family, codes = font
    return QIcon(_GlyphEngine(family, chr(int(codes[glyph], 16)), base, disabled))


def kind_icon(kind: str, color: str | None = None) -> QIcon:
    """The icon of a catalog or node kind."""
    return icon(KIND_ICONS.get(kind, "mdi6.cube-outline"), color)

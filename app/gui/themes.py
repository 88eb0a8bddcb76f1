"""View → Theme: System, Light or Dark, applied live to every window (charts and canvas included) and kept in the
settings (``view/theme``).

Light and Dark use Qt's Fusion style with an explicit palette, so they look the same on every platform and under
a projector; System restores the platform style's own palette (what StorPlan did before: it follows the desktop).
Every view reads its colours from the palette (``app.gui.results._common``: text, base and muted colours; the
canvas paints from it), so after the palette changes the charts are restyled and the results redrawn.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from app.gui import settings

THEMES = ("system", "light", "dark")
"""The choices, in the menu's order."""

_SYSTEM: dict[str, object] = {}


def _palette(dark: bool) -> QPalette:
    """Fusion's light palette, or a dark one (the common Fusion dark scheme: dark greys, light text, blue
    highlight), with disabled text dimmed."""
    if not dark:
        return QStyleFactory.create("Fusion").standardPalette()
    p = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e", QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.ToolTipBase: "#3a3a3a", QPalette.ColorRole.ToolTipText: "#f0f0f0",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#353535",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.BrightText: "#ff6b6b",
        QPalette.ColorRole.Link: "#6cb4ff", QPalette.ColorRole.Highlight: "#2f7bd8",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.PlaceholderText: "#8a8a8a",
        QPalette.ColorRole.Mid: "#4a4a4a", QPalette.ColorRole.Dark: "#202020", QPalette.ColorRole.Light: "#505050",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return p


def current() -> str:
    """The saved theme ("system" when none or unknown)."""
    value = settings.get("view/theme")
    return value if value in THEMES else "system"


def apply(theme: str, app: QApplication | None = None) -> None:
    """Apply ``theme`` to the application now and save it; every top-level window's charts are restyled and
    its results redrawn (``restyle``).

    Raises:
        ValueError: an unknown theme (the message lists the choices).
    """
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")
    app = app or QApplication.instance()
    if not _SYSTEM:
        _SYSTEM["style"] = app.style().name()
        _SYSTEM["palette"] = QPalette(app.palette())
    if theme == "system":
        app.setStyle(str(_SYSTEM["style"]))
        app.setPalette(_SYSTEM["palette"])
    else:
        app.setStyle("Fusion")
        app.setPalette(_palette(theme == "dark"))
    settings.put("view/theme", theme)
    app.processEvents()  # deliver the palette change to every widget before the views read their colours
    for window in app.topLevelWidgets():
        restyle(window)


def restyle(window) -> None:
    """Give every chart in ``window`` the palette's colours again, redraw its results and repaint its canvas."""
    import pyqtgraph as pg  # here, not at import: the window starts before any chart is built

    from app.gui.results._common import style_plot, text_color

    for plot in window.findChildren(pg.PlotWidget):
        source = plot.parentWidget() or plot
        style_plot(plot, source)
        for item in plot.scene().items():  # legends keep the text colour they were made with
            if isinstance(item, pg.LegendItem):
                item.setLabelTextColor(text_color(source))
    results = getattr(window, "results", None)
    if results is not None and hasattr(results, "refresh_unit"):
        unit = getattr(getattr(window, "document", None), "project", None)
        results.refresh_unit(unit.settings.capacity_unit if unit is not None else "TiB")
    canvas = getattr(window, "view", None)
    if canvas is not None and hasattr(canvas, "viewport"):
        for item in canvas.scene().items():  # cached item pixmaps are redrawn only when the item is updated
            item.update()
        canvas.scene().update()
        canvas.viewport().update()

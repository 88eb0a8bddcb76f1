"""View → Presentation Mode (F11; Esc leaves): for a projector demo the window goes full screen, the editing docks
(catalog, inspector, workloads) hide, fonts grow and the status bar's key figures (usable, effective, max IOPS at
the SLO, bottleneck) become large; the canvas and the results stay. Leaving restores the exact dock layout,
window state, fonts and the canvas's zoom. The canvas cards keep their font while presenting (a card has a fixed
size) and the canvas is fitted to its larger area instead, so they grow without their text overlapping."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid as shiboken_is_valid  # noqa: N813 - the alias says where it comes from

from app.gui.themes import restyle

FONT_SCALE = 1.4
"""How much larger the application font is in presentation mode."""

LAYOUT_VERSION = 9001
"""``saveState`` version of the layout kept while presenting (not the settings' one)."""


class Presentation:
    """Presentation mode of one main window; :attr:`active` says whether it is on."""

    def __init__(self, window) -> None:
        self._window = window
        self.active = False
        self._state = QByteArray()
        self._was_maximized = self._was_full = False
        self._font: QFont | None = None
        self._bar_font: QFont | None = None
        self._canvas: tuple | None = None  # (scene font, view transform, scroll x, scroll y) before presenting
        self._own_fonts: list[tuple[QWidget, QFont]] = []  # widgets with a font of their own, and that font
        self._esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self._esc.setEnabled(False)
        self._esc.activated.connect(self.leave)

    def toggle(self, on: bool | None = None) -> None:
        """Enter (``on`` True), leave (False) or switch (None)."""
        if on is None:
            on = not self.active
        self.enter() if on else self.leave()

    def enter(self) -> None:
        """Go full screen with larger fonts, the editing docks hidden (no-op when already on)."""
        if self.active:
            return
        w = self._window
        self._state = w.saveState(LAYOUT_VERSION)
        self._was_maximized, self._was_full = w.isMaximized(), w.isFullScreen()
        app = QApplication.instance()
        self._font = QFont(app.font())
        view = getattr(w, "view", None)
        if view is not None:  # the canvas cards keep their font (they have a fixed size) and are zoomed instead
            scene = view.scene()
            self._canvas = (QFont(scene.font()), view.transform(), view.horizontalScrollBar().value(),
                            view.verticalScrollBar().value())
            scene.setFont(QFont(self._font))
        bigger = QFont(self._font)
        bigger.setPointSizeF(self._font.pointSizeF() * FONT_SCALE)
        app.setFont(bigger)
        bar = w.statusBar()
        self._own_fonts = [(child, QFont(child.font())) for child in w.findChildren(QWidget)
                           if child.testAttribute(Qt.WidgetAttribute.WA_SetFont) and child is not bar
                           and not bar.isAncestorOf(child) and child.font().pointSizeF() > 0]
        for child, font in self._own_fonts:  # a font set on a widget (a key figure's bold value) grows alike
            grown = QFont(font)
            grown.setPointSizeF(font.pointSizeF() * FONT_SCALE)
            child.setFont(grown)
        for dock in (w.palette_dock, w.inspector_dock, w.workloads_dock):
            dock.hide()
        self._bar_font = QFont(bar.font())
        big = QFont(bigger)
        big.setPointSizeF(bigger.pointSizeF() * 1.3)
        big.setBold(True)
        bar.setFont(big)
        for child in bar.findChildren(type(bar).__mro__[1]):
            child.setFont(big)
        w.showFullScreen()
        self.active = True
        self._esc.setEnabled(True)
        restyle(w)
        QTimer.singleShot(0, lambda: restyle(w))  # again once the larger font has reached every widget (charts' ticks)
        if view is not None and hasattr(view, "fit"):
            QTimer.singleShot(0, view.fit)  # once full screen has given the canvas its new size
        self._sync_action()

    def leave(self) -> None:
        """Restore the layout, window state and fonts as they were (no-op when off)."""
        if not self.active:
            return
        w = self._window
        QApplication.instance().setFont(self._font)
        for child, font in self._own_fonts:
            if shiboken_is_valid(child):  # a view rebuilt while presenting has no font of its own to restore
                child.setFont(font)
        self._own_fonts = []
        bar = w.statusBar()
        bar.setFont(self._bar_font)
        for child in bar.findChildren(type(bar).__mro__[1]):
            child.setFont(self._bar_font)
        if self._was_full:
            w.showFullScreen()
        elif self._was_maximized:
            w.showMaximized()
        else:
            w.showNormal()
        w.restoreState(self._state, LAYOUT_VERSION)
        view = getattr(w, "view", None)
        if view is not None and self._canvas is not None:
            font, transform, x, y = self._canvas
            view.scene().setFont(font)
            view.setTransform(transform)

            def scroll_back(view=view, x=x, y=y) -> None:
                """Scroll the canvas back where it was once the restored layout has its size."""
                view.horizontalScrollBar().setValue(x)
                view.verticalScrollBar().setValue(y)

            QTimer.singleShot(0, scroll_back)
            self._canvas = None
        self.active = False
        self._esc.setEnabled(False)
        restyle(w)
        self._sync_action()

    def _sync_action(self) -> None:
        """Keep the menu's check mark in step (Esc leaves without the menu)."""
        action = getattr(self._window, "act_presentation", None)
        if action is not None and action.isChecked() != self.active:
            action.blockSignals(True)
            action.setChecked(self.active)
            action.blockSignals(False)

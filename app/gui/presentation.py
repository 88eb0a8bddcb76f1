"""View → Presentation Mode (F11; Esc leaves): for a projector demo the window goes full screen, the editing docks
(catalog, inspector, workloads) hide, fonts grow and the status bar's key figures (usable, effective, max IOPS at
the SLO, bottleneck) become large; the canvas and the results stay. Leaving restores the exact dock layout,
window state and fonts."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication

from .themes import restyle

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
        bigger = QFont(self._font)
        bigger.setPointSizeF(self._font.pointSizeF() * FONT_SCALE)
        app.setFont(bigger)
        for dock in (w.palette_dock, w.inspector_dock, w.workloads_dock):
            dock.hide()
        bar = w.statusBar()
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
        self._sync_action()

    def leave(self) -> None:
        """Restore the layout, window state and fonts as they were (no-op when off)."""
        if not self.active:
            return
        w = self._window
        QApplication.instance().setFont(self._font)
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

"""View → Presentation Mode (F11; Esc leaves): for a projector demo the window goes full screen, the editing docks
(catalog, inspector, workloads) hide, fonts grow and the status bar's key figures (usable, effective, max IOPS at
the SLO, bottleneck) become large; the canvas and the results stay. Leaving restores the exact dock layout,
window state, fonts and the canvas's zoom. The canvas cards keep their font while presenting (a card has a fixed
size) and the canvas is zoomed instead, so they grow without their text overlapping: fitted to its area, as far as
its smallest text stays :data:`MIN_FIT_PX` pixels on screen (a diagram larger than the canvas at that zoom shows its
top left and scrolls).

Every text grows to at least :data:`MIN_PRESENT_PX` pixels (readable at 1024x768 from the back of a room): the
application font, each widget's own font, the charts' axes, legends and value labels; the key figures go to two rows
so each caption keeps its value; the latency chart gets half the screen's height. Every font is recorded on entering
(:func:`font_snapshot` lists them) and put back on leaving, widgets and chart items alike."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QFont, QFontInfo, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLayout,
    QWidget,
)
from shiboken6 import isValid as shiboken_is_valid  # noqa: N813 - the alias says where it comes from

from app.gui.canvas.items import NODE_H, smallest_label_pixels
from app.gui.themes import restyle
from app.gui.window_layout import stop_following

FONT_SCALE = 1.4
"""How much larger the application font is in presentation mode."""

MIN_PRESENT_PX = 18
"""No text is smaller than this (pixels) while presenting: the application font grows by :data:`FONT_SCALE`, and
further when that is still below it."""

MIN_FIT_PX = 11
"""Presentation mode fits the whole diagram in the canvas when its smallest text (a link's label; the cards' own
lines are 1 to 2 px larger) stays at least this many pixels, the desktop's own smallest text: at the readable zoom
(:data:`MIN_PRESENT_PX`) the default example's shelf was off the right edge of a 1366 x 768 screen and of a
1920 x 1080 one (REVIEW54 #9); a diagram that does not fit even so scrolls at this zoom."""

PRESENT_MAX_ZOOM = 2.0
"""How far presentation mode zooms the canvas in when fitting it (a small diagram's cards grow up to this, or up to
the readable zoom when that is larger)."""

def canvas_readable_zoom(canvas_font: QFont) -> float:
    """The zoom at which the canvas' smallest text (a card's key figures, a link's label), drawn from
    ``canvas_font``, is :data:`MIN_PRESENT_PX` pixels on screen; presentation mode zooms the canvas at least this
    far (its cards have a fixed size, so their text grows with the zoom, never beyond the card)."""
    return MIN_PRESENT_PX / max(smallest_label_pixels(canvas_font), 1.0)


def canvas_fit_zoom(canvas_font: QFont) -> float:
    """The least zoom presentation mode fits the canvas at: its smallest text :data:`MIN_FIT_PX` pixels on
    screen."""
    return MIN_FIT_PX / max(smallest_label_pixels(canvas_font), 1.0)


def canvas_row_height(view) -> int:
    """The canvas' height (pixels) that shows one row of cards, with a little air and the horizontal scroll bar,
    at :func:`canvas_readable_zoom` of its font."""
    zoom = canvas_readable_zoom(view.scene().font())
    return int((NODE_H + 2 * 12) * zoom) + view.horizontalScrollBar().sizeHint().height() + 2 * view.frameWidth()


LAYOUT_VERSION = 9001
"""``saveState`` version of the layout kept while presenting (not the settings' one)."""


def _text_items(window) -> list:
    """Every text item of the window's charts and canvas (pyqtgraph TextItems, labels and legend entries are
    QGraphicsTextItems; tick labels are painted with the axis' tick font, recorded apart)."""
    found = []
    for view in window.findChildren(QGraphicsView):
        scene = view.scene()
        if scene is None:
            continue
        found += [item for item in scene.items() if isinstance(item, QGraphicsTextItem | QGraphicsSimpleTextItem)]
    return found


def _axes_and_legends(window) -> tuple[list, list]:
    """The pyqtgraph axes and legends of every chart in the window."""
    import pyqtgraph as pg

    axes, legends = [], []
    for plot in window.findChildren(pg.PlotWidget):
        item = plot.getPlotItem()
        axes += [item.getAxis(name) for name in ("left", "bottom", "right", "top")]
        legends += [it for it in plot.scene().items() if isinstance(it, pg.LegendItem)]
    return axes, legends


def set_legend_text_size(legend, size: str) -> None:
    """Set a pyqtgraph legend's text size (CSS, "12pt") and redraw its entries at it (pyqtgraph's own
    ``setLabelTextSize`` only applies to entries added afterwards)."""
    legend.setLabelTextSize(size)
    for _sample, label in legend.items:
        label.setText(label.text, size=size)
    legend.updateSize()


def set_axis_label_size(axis, size: str | None) -> None:
    """Set the CSS font size of an axis caption ("Latency (ms)"); None removes it (the axis font applies)."""
    if size is None:
        axis.labelStyle.pop("font-size", None)
    else:
        axis.labelStyle["font-size"] = size
    axis._updateLabel()


def _widget_key(widget: QWidget) -> str:
    """A path naming a widget by its ancestors' classes and object names (stable across enter / leave)."""
    parts = []
    while widget is not None:
        parent = widget.parentWidget()
        # its place among its parent's children of its class and name (docks move when the layout is restored)
        twins = [c for c in parent.children() if type(c) is type(widget) and c.objectName() == widget.objectName()
                 ] if parent is not None else [widget]
        index = twins.index(widget)
        parts.append(f"{type(widget).__name__}#{widget.objectName()}[{index}]")
        widget = parent
    return "/".join(reversed(parts))


def _font_text(font: QFont) -> str:
    return f"{font.family()}|{font.pointSizeF():.2f}|{font.pixelSize()}|{font.bold()}|{font.italic()}"


def font_snapshot(window) -> list[tuple[str, str]]:
    """Every font the window shows, sorted: each widget's (by its path), each chart axis' tick and label font,
    each legend's text size, and each chart or canvas text item's (by its text). Two snapshots are equal when
    every font is the same; presentation mode leaves the window with the snapshot it found."""
    entries = [(f"widget {_widget_key(w)}", _font_text(w.font())) for w in [window, *window.findChildren(QWidget)]]
    entries.append(("application", _font_text(QApplication.instance().font())))
    axes, legends = _axes_and_legends(window)
    for axis in axes:
        tick = axis.style.get("tickFont")
        entries.append((f"axis {axis.orientation} {axis.labelText}",
                        (_font_text(tick) if tick is not None else "-") + " / " + _font_text(axis.label.font())
                        + " / " + str(axis.labelStyle.get("font-size"))))
    entries += [(f"legend {i}", str(legend.opts["labelTextSize"])) for i, legend in enumerate(legends)]
    for item in _text_items(window):
        text = item.toPlainText() if isinstance(item, QGraphicsTextItem) else item.text()
        entries.append((f"text {type(item).__name__} {text}", _font_text(item.font())))
    view = getattr(window, "view", None)
    if view is not None and view.scene() is not None:
        entries.append(("canvas", _font_text(view.scene().font())))
    return sorted(entries)


def text_pixels(font: QFont) -> int:
    """The pixel height of a font as drawn (its QFontInfo), whatever unit it was set in."""
    return QFontInfo(font).pixelSize()


def _grown(font: QFont, scale: float, least_px: int) -> QFont:
    """``font`` ``scale`` times larger, and at least ``least_px`` pixels."""
    out = QFont(font)
    if font.pointSizeF() > 0:
        out.setPointSizeF(font.pointSizeF() * scale)
        px = text_pixels(out)
        if 0 < px < least_px:
            out.setPointSizeF(out.pointSizeF() * least_px / px)
    elif font.pixelSize() > 0:
        out.setPixelSize(max(round(font.pixelSize() * scale), least_px))
    return out


def refresh_geometry(window: QWidget) -> None:
    """Drop every layout's and widget's cached size of ``window``: a page behind another tab (hidden) kept the
    minimum width its presenting fonts gave it after leaving, so the results were wider than their dock and the
    Protection tab scrolled sideways (revhelp56 #12a); Qt updates a hidden widget's layout only once it is shown."""
    for layout in window.findChildren(QLayout):
        layout.invalidate()
    for widget in window.findChildren(QWidget):
        widget.updateGeometry()


class Presentation:
    """Presentation mode of one main window; :attr:`active` says whether it is on."""

    def __init__(self, window) -> None:
        self._window = window
        self.active = False
        self._state = QByteArray()
        self._was_maximized = self._was_full = False
        self._font: QFont | None = None
        # (scene font, view transform, scroll x, scroll y, minimum height) before presenting
        self._canvas: tuple | None = None
        # every font as it was before presenting: (widget, font, had a font of its own)
        self._widget_fonts: list[tuple[QWidget, QFont, bool]] = []
        self._item_fonts: list[tuple[object, QFont]] = []  # chart and canvas text items
        # (axis, tick font, caption font, caption's CSS size)
        self._axis_fonts: list[tuple[object, QFont | None, QFont, str | None]] = []
        self._legend_sizes: list[tuple[object, str]] = []
        self._esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self._esc.setEnabled(False)
        self._esc.activated.connect(self.leave)

    def toggle(self, on: bool | None = None) -> None:
        """Enter (``on`` True), leave (False) or switch (None)."""
        if on is None:
            on = not self.active
        self.enter() if on else self.leave()

    def _record(self) -> None:
        """Remember every font the window shows (see :func:`font_snapshot`)."""
        w = self._window
        self._widget_fonts = [(child, QFont(child.font()), child.testAttribute(Qt.WidgetAttribute.WA_SetFont))
                              for child in [w, *w.findChildren(QWidget)]]
        self._item_fonts = [(item, QFont(item.font())) for item in _text_items(w)]
        axes, legends = _axes_and_legends(w)
        self._axis_fonts = [(axis, QFont(axis.style["tickFont"]) if axis.style.get("tickFont") is not None else None,
                             QFont(axis.label.font()), axis.labelStyle.get("font-size")) for axis in axes]
        self._legend_sizes = [(legend, legend.opts["labelTextSize"]) for legend in legends]

    def enter(self) -> None:
        """Go full screen with larger fonts, the editing docks hidden (no-op when already on)."""
        if self.active:
            return
        w = self._window
        if hasattr(w, "build_panels"):  # every panel's fonts recorded (a dock's built on first show otherwise)
            w.build_panels()
        results = getattr(w, "results_dock", None)
        if results is not None:  # the layout saved here is the one restored on leaving: nothing re-arranges it
            stop_following(results)
        self._state = w.saveState(LAYOUT_VERSION)
        self._was_maximized, self._was_full = w.isMaximized(), w.isFullScreen()
        app = QApplication.instance()
        self._font = QFont(app.font())
        self._record()
        view = getattr(w, "view", None)
        if view is not None:  # the canvas cards keep their font (they have a fixed size) and are zoomed instead
            scene = view.scene()
            self._canvas = (QFont(scene.font()), view.transform(), view.horizontalScrollBar().value(),
                            view.verticalScrollBar().value(), view.minimumHeight())
            scene.setFont(QFont(self._font))
            # room for one row of cards at the readable zoom (the results below scroll when they need more)
            view.setMinimumHeight(max(view.minimumHeight(), canvas_row_height(view)))
        bigger = _grown(self._font, FONT_SCALE, MIN_PRESENT_PX)
        scale = bigger.pointSizeF() / self._font.pointSizeF() if self._font.pointSizeF() > 0 else FONT_SCALE
        app.setFont(bigger)
        bar = w.statusBar()
        for child, font, own in self._widget_fonts:  # a font set on a widget (a key figure's bold value) grows alike
            if own and child is not bar and not bar.isAncestorOf(child) and (font.pointSizeF() > 0
                                                                               or font.pixelSize() > 0):
                child.setFont(_grown(font, scale, MIN_PRESENT_PX))
        for dock in (w.palette_dock, w.inspector_dock, w.workloads_dock):
            dock.hide()
        big = QFont(bigger)
        big.setPointSizeF(bigger.pointSizeF() * 1.15)
        big.setBold(True)
        bar.setFont(big)
        for child in bar.findChildren(QWidget):
            child.setFont(big)
        if hasattr(w, "set_key_figure_rows"):  # two rows: every caption keeps its value on a 1024 px projector
            w.set_key_figure_rows(2)
        w.showFullScreen()
        self.active = True
        self._esc.setEnabled(True)
        self._grow_charts(bigger)
        if results is not None:  # the results (charts) get most of the height: the canvas is fitted above them
            QTimer.singleShot(0, w, lambda: w.resizeDocks([results], [int(w.height() * 0.62)], Qt.Orientation.Vertical))
        # again once the larger font has reached every widget (charts' ticks) and charts are redrawn
        QTimer.singleShot(0, w, lambda: self.active and self._grow_charts(bigger))
        if view is not None and hasattr(view, "fit_within"):
            readable = canvas_readable_zoom(view.scene().font())
            least = canvas_fit_zoom(view.scene().font())  # the whole diagram on screen, down to 11 px text
            for delay in (0, 250):  # once full screen and the docks have given the canvas its new size
                QTimer.singleShot(delay, view, lambda: self.active and view.fit_within(
                    max(PRESENT_MAX_ZOOM, readable), least))
        self._sync_action()

    def _grow_charts(self, bigger: QFont) -> None:
        """Restyle the charts for the larger font, then bring every chart text, legend and axis up to it."""
        w = self._window
        restyle(w)
        for view in w.findChildren(QWidget):
            if hasattr(view, "set_presenting"):
                view.set_presenting(True, bigger)
        axes, legends = _axes_and_legends(w)
        size = f"{bigger.pointSizeF():.1f}pt"
        for legend in legends:
            set_legend_text_size(legend, size)
        for axis in axes:
            tick = axis.style.get("tickFont")
            if tick is None or text_pixels(tick) < MIN_PRESENT_PX:
                axis.setStyle(tickFont=QFont(bigger))
            if text_pixels(axis.label.font()) < MIN_PRESENT_PX:
                axis.label.setFont(QFont(bigger))
            if axis.labelText:
                set_axis_label_size(axis, size)
        canvas = getattr(w, "view", None)
        canvas_scene = canvas.scene() if canvas is not None else None
        for item in _text_items(w):
            if item.scene() is canvas_scene:
                continue  # the canvas cards keep their font (fixed size): the canvas is zoomed instead
            font = item.font()
            if text_pixels(font) < MIN_PRESENT_PX:
                grown = QFont(bigger)
                grown.setBold(font.bold())
                item.setFont(grown)

    def leave(self) -> None:
        """Restore the layout, window state and every font as they were (no-op when off)."""
        if not self.active:
            return
        w = self._window
        QApplication.instance().setFont(self._font)
        self._restore_fonts()
        if hasattr(w, "set_key_figure_rows"):
            w.set_key_figure_rows(1)
        if self._was_full:
            w.showFullScreen()
        elif self._was_maximized:
            w.showMaximized()
        else:
            w.showNormal()
        w.restoreState(self._state, LAYOUT_VERSION)
        view = getattr(w, "view", None)
        if view is not None and self._canvas is not None:
            font, transform, x, y, least_height = self._canvas
            view.scene().setFont(font)
            view.setMinimumHeight(least_height)
            view.setTransform(transform)

            def scroll_back(view=view, x=x, y=y) -> None:
                """Scroll the canvas back where it was once the restored layout has its size."""
                view.horizontalScrollBar().setValue(x)
                view.verticalScrollBar().setValue(y)

            QTimer.singleShot(0, view, scroll_back)
            self._canvas = None
        self.active = False
        self._esc.setEnabled(False)
        for child in w.findChildren(QWidget):
            if hasattr(child, "set_presenting"):
                child.set_presenting(False)
        restyle(w)
        self._restore_items()
        QTimer.singleShot(0, w, self._settle)
        # a window manager gives the window its normal size back later (asynchronously on X11): the dock sizes
        # restored at full-screen size are restored again once it has
        state = self._state
        QTimer.singleShot(300, w, lambda: not self.active and w.restoreState(state, LAYOUT_VERSION))
        self._sync_action()

    def _settle(self) -> None:
        """Once the restored fonts have reached every widget: restyle and restore the chart items once more."""
        if self.active:
            return
        restyle(self._window)
        self._restore_items()
        refresh_geometry(self._window)
        refit = getattr(self._window, "_fit_key_figures", None)
        if refit is not None:  # the status bar's key figures refitted at the restored font (no resize may follow)
            refit()

    def _restore_fonts(self) -> None:
        """Every widget's font as recorded (a widget that had none of its own inherits again)."""
        for child, font, own in self._widget_fonts:
            if not shiboken_is_valid(child):  # a view rebuilt while presenting has nothing to restore
                continue
            if own:
                child.setFont(font)
            elif child.testAttribute(Qt.WidgetAttribute.WA_SetFont):
                child.setFont(QFont())  # no font of its own: back to inheriting the parent's
                child.setAttribute(Qt.WidgetAttribute.WA_SetFont, False)

    def _restore_items(self) -> None:
        """Every chart's axes, legends and text items as recorded (items drawn since follow the restored fonts)."""
        for axis, tick, label, css in self._axis_fonts:
            if shiboken_is_valid(axis):
                axis.setStyle(tickFont=tick)
                axis.label.setFont(label)
                if axis.labelText:
                    set_axis_label_size(axis, css)
        for legend, size in self._legend_sizes:
            if shiboken_is_valid(legend):
                set_legend_text_size(legend, size)
        for item, font in self._item_fonts:
            if shiboken_is_valid(item):
                item.setFont(font)

    def _sync_action(self) -> None:
        """Keep the menu's check mark in step (Esc leaves without the menu)."""
        action = getattr(self._window, "act_presentation", None)
        if action is not None and action.isChecked() != self.active:
            action.blockSignals(True)
            action.setChecked(self.active)
            action.blockSignals(False)

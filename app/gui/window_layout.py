"""The main window's size and dock arrangement for the screen it opens on.

A first start takes the preferred size (1500 x 920) where the screen has room, and never more than the screen's
available geometry (less the window manager's frame): on a 1366 x 768 laptop, or at 200 % scaling on a
1920 x 1080 screen (960 x 540 logical pixels), the whole window, its status bar included, is on screen. The docks
are then sized for the window: the results get the height their charts need where the screen has it, the canvas
keeps a usable share, and where the screen is too small for a dock's content that content scrolls inside its
dock instead of pushing the window off screen.

The arithmetic (:func:`initial_geometry`, :func:`dock_sizes`) takes plain rectangles and sizes so it can be
checked for any screen without one; :func:`place_window` and :func:`arrange_docks` apply it to a window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

PREFERRED_SIZE = QSize(1500, 920)
"""The window's size on a first start where the screen has room for it (logical pixels)."""
FRAME_ALLOWANCE = QSize(16, 40)
"""Room left for the window manager's frame (borders, title bar) when the window is fitted to a smaller screen
(logical pixels): ``resize`` sets the client area, the frame comes on top."""
RESULTS_HEIGHT_SHARE = 0.45
"""Share of the window height the Results dock gets on a first start at least (more where its charts need it)."""
RESULTS_ROOM_SHARE = 0.6
"""Share of the room below the menus, toolbar and above the status bar the Results dock gets on a first start where
the window is tall enough (the canvas keeping ``CANVAS_MIN_HEIGHT``): the results are what a user reads, the canvas
shows a few boxes (REVIEW43 #7: at 1920 x 1050 the canvas kept ~60% of the height with one box on it)."""
CANVAS_MIN_HEIGHT = 180
"""The canvas never gets less height than this from the default layout where the window is taller than
``CANVAS_MIN_HEIGHT`` plus the menus, toolbar and status bar (logical pixels)."""
CANVAS_MIN_WIDTH = 360
"""Likewise for the canvas's width between the catalog and the inspector."""
INSPECTOR_MIN_HEIGHT = 400
"""The inspector / workloads column needs about this height to show a workload's name, target, hosts and its Load
group, or a controller's main fields, unscrolled (logical pixels): where the column above the results would be
shorter, it runs the window's full height beside the results instead."""
CATALOG_TAB_BELOW_WIDTH = 1100
"""A window narrower than this (200 % scaling on 1920 x 1080 is 944 px) shows the catalog as a tab beside the
inspector and the workloads, at that column's width: a sixth of the width (160 px) cut every catalog name to a few
letters."""
INSPECTOR_MAX_SHARE = 0.36
"""The largest share of the window's width the inspector column takes for its fields' sake."""


def initial_geometry(available: QRect, preferred: QSize = PREFERRED_SIZE,
                     frame: QSize = FRAME_ALLOWANCE) -> QRect:
    """The window's client rectangle on a first start: ``preferred`` where it fits, else as large as the
    ``available`` geometry less the ``frame`` allowance; centred in ``available``.

    Args:
        available: the screen's available geometry (``QScreen.availableGeometry()``: the screen less panels and
            task bars), logical pixels.
        preferred: the size wanted on a large screen.
        frame: the window manager's frame around the client area (borders, title bar).

    Returns:
        A rectangle whose size never exceeds ``available``'s less ``frame``, and that (with the frame) lies
        inside ``available``.
    """
    width = max(1, min(preferred.width(), available.width() - frame.width()))
    height = max(1, min(preferred.height(), available.height() - frame.height()))
    left = available.left() + max(0, (available.width() - width) // 2)
    # the title bar sits above the client area: centre the framed window, not the client area
    top = available.top() + max(0, (available.height() - height - frame.height()) // 2) + frame.height() // 2
    top = min(top, available.top() + max(0, available.height() - height))
    return QRect(left, top, width, height)


def fits(frame_geometry: QRect, available: QRect) -> bool:
    """True when a window's frame geometry lies wholly inside the available geometry."""
    return available.contains(frame_geometry)


@dataclass(frozen=True)
class DockSizes:
    """The default dock sizes for a window of a given size (logical pixels).

    Attributes:
        catalog_width: the catalog dock on the left.
        inspector_width: the inspector / workloads column on the right.
        results_height: the results dock below the canvas.
        compact: True when the window is too small for the results' charts at full height beside a usable canvas
            (their content then scrolls inside the dock).
        results_full_width: True when the results need the width the catalog would take beside them (the catalog
            then stops above them instead of running down beside them).
        inspector_full_height: True when the inspector / workloads column runs the window's full height beside
            the results (a short window, where the column above the results would be less than
            ``INSPECTOR_MIN_HEIGHT``); the results then span the catalog and the canvas only.
    """

    catalog_width: int
    inspector_width: int
    results_height: int
    compact: bool
    results_full_width: bool = False
    inspector_full_height: bool = False
    catalog_tabbed: bool = False


def dock_sizes(window: QSize, results_min_height: int = 0, chrome_height: int = 90,
               results_min_width: int = 0, inspector_wanted_width: int = 0) -> DockSizes:
    """Dock sizes for a window of client size ``window``.

    The results get ``RESULTS_ROOM_SHARE`` of the room between the toolbar and the status bar (at least
    ``RESULTS_HEIGHT_SHARE`` of the height), or ``results_min_height`` (what their charts need unscrolled) where
    that is more, as long as the canvas keeps ``CANVAS_MIN_HEIGHT``; on a smaller window the
    canvas keeps that height (half the room where even that is too much) and the results scroll. The catalog and
    the inspector get a fifth and about a quarter of the width (at most 290 and 380 px, at least 150 and 220 px),
    the canvas keeps ``CANVAS_MIN_WIDTH``. Where the room above the results is less than ``INSPECTOR_MIN_HEIGHT``
    (a laptop, 200 % scaling), the inspector column runs the full height beside the results, so a workload's or
    an item's fields stay editable, and the results take the catalog's width (the catalog stops above them).

    Args:
        window: the window's client size.
        results_min_height: the results dock's minimum height without scrolling (its content's minimum size
            hint plus the dock's title).
        chrome_height: the menu bar, toolbar and status bar together.
        results_min_width: the results' content's minimum width: where the window less the catalog is narrower,
            the results take the whole width (``results_full_width``).
        inspector_wanted_width: the width the inspector's and the workloads' fields need unscrolled; the
            inspector column gets it where it has less (up to ``INSPECTOR_MAX_SHARE`` of the window's width: at
            200 % scaling the default quarter would cut the fields' values off).
    """
    width, height = window.width(), window.height()
    room = max(0, height - chrome_height)  # the docks' and the canvas's share of the height
    wanted = max(int(height * RESULTS_HEIGHT_SHARE), int(room * RESULTS_ROOM_SHARE), results_min_height)
    results = min(wanted, max(room - CANVAS_MIN_HEIGHT, int(room * 0.5)))
    compact = results < results_min_height
    catalog = min(290, max(150, int(width * 0.2)))
    inspector = min(380, max(220, int(width * 0.24)))
    inspector = max(inspector, min(inspector_wanted_width, int(width * INSPECTOR_MAX_SHARE)))
    spare = width - catalog - inspector - CANVAS_MIN_WIDTH
    if spare < 0:  # a narrow window: the side docks give way, in proportion, down to their floors
        total = catalog + inspector
        catalog = max(120, catalog + int(spare * catalog / total))
        inspector = max(180, inspector + int(spare * inspector / total))
    inspector_full_height = room - results < INSPECTOR_MIN_HEIGHT
    # beside a full-height inspector the results take the catalog's width too: their chart and table side by side
    full_width = inspector_full_height or width - catalog < results_min_width
    return DockSizes(catalog, inspector, results, compact, full_width, inspector_full_height,
                     width < CATALOG_TAB_BELOW_WIDTH)


def scroll_when_small(dock: QDockWidget) -> QScrollArea:
    """Put a dock's widget in a frameless scroll area: the dock can then be smaller than its content's minimum
    size (the content scrolls) instead of forcing the window beyond the screen. Where the dock is large enough
    the content fills it as before. Idempotent: a dock already scrolling keeps its scroll area."""
    current = dock.widget()
    if isinstance(current, QScrollArea) and current.objectName() == f"{dock.objectName()}Scroll":
        return current
    area = QScrollArea()
    area.setObjectName(f"{dock.objectName()}Scroll")
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    dock.setWidget(area)
    area.setWidget(current)
    return area


def _available(window: QWidget) -> QRect:
    screen = window.screen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, PREFERRED_SIZE.width(),
                                                                       PREFERRED_SIZE.height())


def place_window(window: QMainWindow, restored: bool = False) -> QRect:
    """Size and place ``window`` for its screen: a first start (``restored`` False) gets
    :func:`initial_geometry`; a geometry restored from the settings (another, larger screen perhaps) is shrunk
    and moved to fit the available geometry. Returns the window's new client geometry."""
    available = _available(window)
    if not restored:
        window.setGeometry(initial_geometry(available))
        return window.geometry()
    rect = window.geometry()
    if window.isMaximized() or window.isFullScreen() or fits(rect, available):
        return rect
    target = initial_geometry(available, rect.size())  # as large as it was, where the screen has room
    window.setGeometry(target)
    return window.geometry()


def _content(dock: QDockWidget) -> QWidget | None:
    widget = dock.widget()
    return widget.widget() if isinstance(widget, QScrollArea) else widget


def _content_min_height(dock: QDockWidget) -> int:
    """The dock's height for its content's minimum height unscrolled (content plus the dock's title)."""
    inner = _content(dock)
    if inner is None:
        return 0
    title = dock.minimumSizeHint().height() - dock.widget().minimumSizeHint().height()
    return inner.minimumSizeHint().height() + max(title, 0)


def _content_min_width(dock: QDockWidget) -> int:
    inner = _content(dock)
    return inner.minimumSizeHint().width() + 8 if inner is not None else 0


def _fields_width(inspector: QDockWidget, window: QMainWindow) -> int:
    """The width the inspector's dock and the docks tabified with it (the workloads) want for their fields, plus
    room for a vertical scroll bar."""
    docks = [inspector, *window.tabifiedDockWidgets(inspector)]
    widths = [dock.widget().sizeHint().width() for dock in docks if dock.widget() is not None]
    scroll_bar = inspector.style().pixelMetric(inspector.style().PixelMetric.PM_ScrollBarExtent)
    return max(widths, default=0) + scroll_bar + 8


def arrange_docks(window: QMainWindow, catalog: QDockWidget, inspector: QDockWidget,
                  results: QDockWidget, vertical_only: bool = False,
                  on_arranged: Callable[[], None] | None = None) -> DockSizes:
    """Size the docks of ``window`` for its current size (see :func:`dock_sizes`) and return the sizes used;
    ``vertical_only`` leaves the catalog's and the inspector's widths alone. ``on_arranged`` is called (from the
    event loop) each time the results' growing content re-arranges the docks, e.g. to fit the canvas, which
    lost height, to the whole topology again.

    The result views are installed after the window first paints (their charts' library loads late), each tab's
    when it is first shown, and need more height than the placeholders they replace: until the user drags a dock
    separator, the results' height follows their content's minimum height (see :class:`_FollowResults`).
    """
    chrome = window.height() - (window.centralWidget().height() if window.centralWidget() is not None else 0)
    chrome -= results.height() if results.isVisible() else 0
    chrome = max(60, min(chrome, 160))
    sizes = dock_sizes(window.size(), _content_min_height(results), chrome, _content_min_width(results),
                       _fields_width(inspector, window))
    window.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.BottomDockWidgetArea if sizes.results_full_width
                     else Qt.DockWidgetArea.LeftDockWidgetArea)
    window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea
                     if sizes.inspector_full_height else Qt.DockWidgetArea.BottomDockWidgetArea)
    window.resizeDocks([results], [sizes.results_height], Qt.Orientation.Vertical)
    if not vertical_only:
        if sizes.catalog_tabbed and not catalog.isFloating() and catalog not in window.tabifiedDockWidgets(inspector):
            window.tabifyDockWidget(inspector, catalog)
            inspector.raise_()
        window.resizeDocks([inspector] if sizes.catalog_tabbed else [catalog, inspector],
                           [sizes.inspector_width] if sizes.catalog_tabbed
                           else [sizes.catalog_width, sizes.inspector_width], Qt.Orientation.Horizontal)
    content = _content(results)
    if content is not None:
        follower = content.findChild(_FollowResults)
        if follower is None:
            follower = _FollowResults(window, (catalog, inspector, results), content)
        follower.on_arranged = on_arranged or follower.on_arranged
        follower.expect(sizes.results_height)
    return sizes


class _FollowResults(QObject):
    """Keeps the default arrangement in step with the results' content: when its minimum size grows (a real
    result view replacing its placeholder), the results dock gets the height (and width) it needs, within what
    the window allows. It stops for good once the user presses the mouse on the window's own area (a dock
    separator: the user arranges the docks now). Event filters on the content and the window."""

    def __init__(self, window: QMainWindow, docks: tuple[QDockWidget, QDockWidget, QDockWidget], content: QWidget):
        super().__init__(content)
        self._window, self._docks, self._content = window, docks, content
        self._min_size = (0, 0)
        self._following = True
        self.on_arranged: Callable[[], None] | None = None
        content.installEventFilter(self)
        window.installEventFilter(self)

    def expect(self, results_height: int) -> None:
        """The docks were just arranged for the content's current minimum size."""
        self._min_size = (_content_min_height(self._docks[2]), _content_min_width(self._docks[2]))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if not self._following:
            return False
        if obj is self._window and event.type() == QEvent.Type.MouseButtonPress:
            self.stop()  # a press on the main window itself: a dock separator being dragged
        elif obj is self._content and event.type() == QEvent.Type.LayoutRequest:
            QTimer.singleShot(0, self, self._check)  # not called once the window (and this) is gone
        return False

    def _check(self) -> None:
        results = self._docks[2]
        if not self._following or results.isFloating() or not results.isVisible():
            return
        if _content_min_height(results) > self._min_size[0] or _content_min_width(results) > self._min_size[1]:
            arrange_docks(self._window, *self._docks, vertical_only=True)
            if self.on_arranged is not None:
                QTimer.singleShot(0, self, self.on_arranged)

    def stop(self) -> None:
        """Follow no more (the user arranges the docks)."""
        self._following = False
        self._content.removeEventFilter(self)
        self._window.removeEventFilter(self)


def stop_following(results: QDockWidget) -> None:
    """The results' height follows their content no more (see :class:`_FollowResults`): the user has arranged the
    window or taken it over (presentation mode lays it out itself and restores the user's layout on leaving, which
    a late re-arrangement and canvas fit would undo). No-op when nothing follows."""
    content = _content(results)
    follower = content.findChild(_FollowResults) if content is not None else None
    if follower is not None:
        follower.stop()

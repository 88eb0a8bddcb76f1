"""The main window fits the screen it opens on: a 1366 x 768 laptop, 200 % scaling on 1920 x 1080 (960 x 540
logical pixels), a large desktop; the docks are arranged for that size and every panel stays usable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QScrollArea

from app.gui import window_layout
from app.gui.window_layout import (
    CANVAS_MIN_HEIGHT,
    CANVAS_MIN_WIDTH,
    FRAME_ALLOWANCE,
    INSPECTOR_MAX_SHARE,
    INSPECTOR_MIN_HEIGHT,
    PREFERRED_SIZE,
    dock_sizes,
    initial_geometry,
)

SCREENS = {
    "laptop 1366x768": QRect(0, 0, 1366, 768),
    "laptop with a 40 px panel at the top": QRect(0, 40, 1366, 728),
    "1920x1080 at 200%": QRect(0, 0, 960, 540),
    "second screen at 1920,0, 1280x720": QRect(1920, 0, 1280, 720),
}


@pytest.mark.parametrize("available", SCREENS.values(), ids=SCREENS.keys())
def test_a_first_start_never_exceeds_the_available_geometry(available):
    rect = initial_geometry(available)
    framed = rect.adjusted(-FRAME_ALLOWANCE.width() // 2, -FRAME_ALLOWANCE.height() // 2,
                           FRAME_ALLOWANCE.width() // 2, FRAME_ALLOWANCE.height() // 2)
    assert available.contains(rect), (rect, available)
    assert available.contains(framed), (framed, available)  # the window manager's frame fits too
    # as large as the screen allows: the preferred size cut to the room, not some arbitrary smaller size
    assert rect.width() == min(PREFERRED_SIZE.width(), available.width() - FRAME_ALLOWANCE.width())
    assert rect.height() == min(PREFERRED_SIZE.height(), available.height() - FRAME_ALLOWANCE.height())


def test_a_large_screen_gets_the_preferred_size_centred():
    available = QRect(0, 0, 2560, 1440)
    rect = initial_geometry(available)
    assert rect.size() == PREFERRED_SIZE
    assert abs(rect.center().x() - available.center().x()) <= 1
    assert abs(rect.center().y() - available.center().y()) <= FRAME_ALLOWANCE.height()


def test_dock_sizes_on_a_laptop_give_the_results_their_charts_height():
    sizes = dock_sizes(QSize(1350, 728), results_min_height=409, chrome_height=90, results_min_width=830)
    assert sizes.results_height == 409 and not sizes.compact
    # 728 - 90 - 409 leaves the inspector column 229 px above the results: it runs the full height beside them
    # instead, and the results take the catalog's width
    assert sizes.inspector_full_height and sizes.results_full_width
    assert 728 - 90 - sizes.results_height >= CANVAS_MIN_HEIGHT  # the canvas keeps a usable height
    assert 1350 - sizes.catalog_width - sizes.inspector_width >= CANVAS_MIN_WIDTH


def test_dock_sizes_at_200_percent_keep_the_canvas_and_scroll_the_results():
    window = initial_geometry(QRect(0, 0, 960, 540)).size()  # 944 x 500
    sizes = dock_sizes(window, results_min_height=409, chrome_height=90, results_min_width=830)
    assert sizes.compact  # the results' charts need more than the screen has: they scroll in their dock
    room = window.height() - 90
    assert room - sizes.results_height >= min(CANVAS_MIN_HEIGHT, room // 2)  # the canvas keeps half the room
    assert sizes.results_height >= 0.4 * (window.height() - 90)
    assert sizes.results_full_width  # 944 - catalog < 830: the results take the catalog's width too
    assert sizes.inspector_full_height  # the inspector column runs the full height beside them
    assert window.width() - sizes.catalog_width - sizes.inspector_width >= CANVAS_MIN_WIDTH


def test_a_tall_window_keeps_the_inspector_above_the_results():
    # 1200 px: the results' 60% of the room still leaves the inspector column its height above them (at 1000 px
    # the column runs the full height beside the results, as on a laptop: test_results_share_large_screen.py)
    sizes = dock_sizes(QSize(1900, 1200), results_min_height=409, chrome_height=90, results_min_width=830)
    assert 1200 - 90 - sizes.results_height >= INSPECTOR_MIN_HEIGHT
    assert not sizes.inspector_full_height and not sizes.results_full_width


def test_the_inspector_column_gets_the_width_its_fields_need_within_a_share():
    narrow = dock_sizes(QSize(944, 500), inspector_wanted_width=300)
    assert narrow.inspector_width == 300  # more than the default quarter (226 px), which cut the values off
    capped = dock_sizes(QSize(944, 500), inspector_wanted_width=600)
    assert capped.inspector_width == int(944 * INSPECTOR_MAX_SHARE)
    assert dock_sizes(QSize(1350, 728), inspector_wanted_width=300).inspector_width == 324  # default is enough


def test_a_narrow_window_shows_the_catalog_as_a_tab_beside_the_inspector():
    assert dock_sizes(QSize(944, 500)).catalog_tabbed
    assert not dock_sizes(QSize(1350, 728)).catalog_tabbed  # a laptop keeps the catalog's own column


def test_dock_sizes_on_a_narrow_window_shrink_the_side_docks_in_proportion():
    sizes = dock_sizes(QSize(700, 500))
    assert sizes.catalog_width >= 120 and sizes.inspector_width >= 180
    assert sizes.catalog_width < 150 and sizes.inspector_width < 220


def _available(win):
    return win.screen().availableGeometry()


def test_the_real_window_fits_the_offscreen_screen(example_window, qtbot):
    """The offscreen screen (800 x 800) is smaller than the preferred size: the window takes what there is."""
    win = example_window
    available = _available(win)
    assert available.width() < PREFERRED_SIZE.width()
    assert available.contains(win.frameGeometry()), (win.frameGeometry(), available)
    assert win.width() == min(PREFERRED_SIZE.width(), available.width() - FRAME_ALLOWANCE.width())
    # the window can be as small as a 200 % screen: nothing forces it larger
    assert win.minimumSizeHint().width() <= 944 and win.minimumSizeHint().height() <= 500


def test_at_200_percent_every_panel_is_on_screen_and_the_results_scroll(example_window, qtbot):
    win = example_window
    win.resize(944, 500)
    qtbot.waitUntil(lambda: win.size() == QSize(944, 500), timeout=3000)
    win.apply_default_layout()
    qtbot.wait(50)
    win.results.setCurrentIndex(1)  # Performance: the tallest result view
    inside = win.rect()

    def on_screen(widget):
        rect = widget.geometry() if widget.parent() is win else QRect(widget.mapTo(win, widget.rect().topLeft()),
                                                                       widget.size())
        assert inside.contains(rect), (widget.objectName(), rect, inside)

    for widget in (win.centralWidget(), win.inspector_dock, win.results_dock, win.statusBar()):
        on_screen(widget)
    # the catalog is a tab beside the inspector, as wide as that column: at a sixth of 944 px (160 px) every
    # catalog name was cut to a few letters
    assert win.palette_dock in win.tabifiedDockWidgets(win.inspector_dock)
    win.palette_dock.raise_()
    qtbot.waitUntil(lambda: win.palette_dock.isVisible() and not win.palette_dock.visibleRegion().isEmpty(),
                    timeout=3000)
    on_screen(win.palette_dock)
    assert win.palette_dock.width() >= 280
    win.inspector_dock.raise_()
    assert win.centralWidget().height() >= 150 and win.centralWidget().width() >= CANVAS_MIN_WIDTH - 20
    scroll = win.results_dock.widget()
    assert isinstance(scroll, QScrollArea) and scroll.widget() is win.results
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() > 0, timeout=3000)  # the charts scroll
    view = win.results.performance_view
    assert view.plot.height() >= 260  # at full readable height, not squashed
    # the results take the width left of the inspector column, which runs the full height beside them, wide
    # enough for the workload form's fields
    inspector = win.inspector_dock
    assert win.results_dock.geometry().left() <= 10
    assert win.results_dock.geometry().right() < inspector.geometry().left()
    assert inspector.geometry().bottom() > win.results_dock.geometry().top() + win.results_dock.height() // 2
    assert inspector.height() >= 300
    win.workloads_dock.raise_()
    form = win.workloads.findChild(QScrollArea)
    qtbot.waitUntil(lambda: form.isVisible(), timeout=3000)
    assert form.horizontalScrollBar().maximum() == 0  # the fields' values are not cut off


def test_a_laptop_window_gives_the_inspector_column_the_full_height(example_window, qtbot):
    """At 1366 x 768 the results below the canvas left the inspector and workloads ~225 px: the workload form
    showed two fields. Now the column runs the full height beside the results."""
    win = example_window
    win.resize(1350, 728)
    qtbot.waitUntil(lambda: win.size() == QSize(1350, 728), timeout=3000)
    win.apply_default_layout()
    qtbot.wait(50)
    win.workloads_dock.raise_()
    qtbot.waitUntil(lambda: win.workloads_dock.height() >= 600, timeout=3000)
    form = win.workloads.findChild(QScrollArea)
    assert form.verticalScrollBar().maximum() == 0  # name, target, hosts and the whole Load group unscrolled
    assert win.results_dock.geometry().left() <= 10  # the results span the catalog's width too


def test_a_laptop_window_shows_the_results_unscrolled(example_window, qtbot):
    win = example_window
    win.resize(1350, 728)
    qtbot.waitUntil(lambda: win.size() == QSize(1350, 728), timeout=3000)
    win.apply_default_layout()
    win.results.setCurrentIndex(1)
    scroll = win.results_dock.widget()
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() == 0, timeout=3000)
    assert scroll.horizontalScrollBar().maximum() == 0
    # the Performance view at its minimum height, not squeezed below it (it had 365 of its 444 px here, which cut
    # the chart's IOPS axis while the canvas kept 233 px): the canvas keeps what is left, about CANVAS_MIN_HEIGHT
    view = win.results.performance_view
    assert view.height() >= view.minimumSizeHint().height()
    assert view.charts_splitter.height() >= view.plot.height() >= view.plot.minimumHeight()
    assert win.centralWidget().height() >= CANVAS_MIN_HEIGHT - 10


def test_a_geometry_saved_on_a_larger_screen_is_fitted_to_this_one(example_window):
    win = example_window
    available = _available(win)
    win.setGeometry(QRect(available.left() + 300, available.top() + 200, 2000, 1300))
    window_layout.place_window(win, restored=True)
    assert available.contains(win.geometry())
    assert win.width() == available.width() - FRAME_ALLOWANCE.width()


def test_a_geometry_that_fits_is_kept(example_window):
    win = example_window
    available = _available(win)
    rect = QRect(available.left() + 20, available.top() + 30, 600, 500)
    win.setGeometry(rect)
    window_layout.place_window(win, restored=True)
    assert win.geometry() == rect


def test_a_laptop_window_shows_the_capacity_of_a_two_system_design_unscrolled(qtbot):
    """The Capacity tab of a design with a replication destination (two systems, so the system chooser shows,
    with long names) at 1350 x 728: its header row made the results dock scroll sideways by ~130 px."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui.main_window import MainWindow, read_project
    from models.resources import examples_dir

    win = MainWindow(read_project(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    win._install_result_views()
    win.worker.force_sync()
    try:
        win.resize(1350, 728)
        qtbot.waitUntil(lambda: win.size() == QSize(1350, 728), timeout=3000)
        win.apply_default_layout()
        win.results.setCurrentIndex(0)
        view = win.results.currentWidget()
        qtbot.waitUntil(lambda: view.system_combo.isVisible() and view.system_combo.count() == 3, timeout=5000)
        scroll = win.results_dock.widget()
        qtbot.wait(50)
        assert scroll.horizontalScrollBar().maximum() == 0, view.minimumSizeHint()
    finally:
        win.worker.shutdown()
        win.compare_worker.shutdown()

"""The Capacity tab's waterfall and its step details on a laptop (revperf57 #14): the Effective bar's value label lay
over its P10-P90 box, and the "Hover or click a step…" hint under the steps table was cut in half at 1366 x 768 (the
right column scrolled: its table asked for ~7 rows of room it did not need)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect
from PySide6.QtWidgets import QApplication

NFS = "fas70-ds460c-nlsas-nfs.toml"


def _capacity(qtbot, sized_example, example, width, height):
    win = sized_example(example, width, height)
    win.results.setCurrentIndex(0)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: bool(view.bars), timeout=30_000)
    qtbot.wait(100)
    QApplication.processEvents()
    return win, view


@pytest.mark.parametrize(("example", "size"), [(NFS, (1366, 768)), ("aff8080-sqlserver-tpce.toml", (1366, 768)),
                                                (NFS, (1920, 1080))])
def test_the_step_hint_reads_whole(qtbot, sized_example, example, size) -> None:
    win, view = _capacity(qtbot, sized_example, example, *size)
    scroll = view.right_scroll
    details = view.details
    assert details.toPlainText() == "" and details.placeholderText().startswith("Hover or click a step")
    top_left = details.mapTo(scroll.viewport(), QPoint(0, 0))
    shown = QRect(top_left, details.size())
    # the whole box of the hint inside the column's visible area, at least a line of text high
    assert scroll.viewport().rect().contains(shown), (shown, scroll.viewport().rect())
    assert details.viewport().height() >= details.fontMetrics().height()
    # the table keeps at least its header and two rows
    table = view.table
    assert table.height() >= table.horizontalHeader().height() + 2 * table.verticalHeader().defaultSectionSize()


@pytest.mark.parametrize(("example", "size"), [(NFS, (1366, 768)), ("aff8080-sqlserver-tpce.toml", (1366, 768)),
                                                (NFS, (1920, 1080))])
def test_the_effective_value_clears_its_band_box(qtbot, sized_example, example, size) -> None:
    """The Effective bar's value (e.g. FAS70: 1,784.58 TiB, P10-P90 1,391.97 to 2,899.95 TiB) reads inside its bar,
    left of the P10-P90 box, not over the box (nor past its whisker, where it would read as the value there)."""
    from app.gui.results.capacity_view import _cap
    from models.units import to_unit

    _win, view = _capacity(qtbot, sized_example, example, *size)
    view.grab()  # painted: each label's anchor applied
    row = next(i for i, b in enumerate(view.bars) if b.band is not None)
    bar = view.bars[row]
    label = view._value_labels[row]
    assert label.toPlainText() == _cap(bar.after, view._unit)
    text = label.mapRectToScene(label.boundingRect())
    box = view._band_items[0]
    box_rect = box.mapRectToScene(box.boundingRect())
    assert not text.intersects(box_rect), (text, box_rect)
    vb = view.plot.getViewBox()
    bar_left = vb.mapViewToScene(QPointF(0.0, row)).x()
    bar_right = vb.mapViewToScene(QPointF(view._tx(to_unit(bar.after, view._unit)), row)).x()
    assert bar_left < text.left() and text.right() < box_rect.left() <= bar_right  # inside the bar, left of the box


def test_a_band_without_spread_keeps_the_value_at_the_bar_end(qtbot, sized_example) -> None:
    """vSAN applies no data reduction: P10 = P90, the box has no width, and the value stays at the bar's end like
    the other totals' (left-anchored there, in the text colour)."""
    from models.units import to_unit

    _win, view = _capacity(qtbot, sized_example, "vsan8-osa-hybrid-4host-oltp.toml", 1366, 768)
    row = next(i for i, b in enumerate(view.bars) if b.band is not None)
    bar = view.bars[row]
    assert bar.band[0] == bar.band[1]
    label = view._value_labels[row]
    assert label.anchor.x() == 0 and label.pos().x() == pytest.approx(view._tx(to_unit(bar.high, view._unit)))

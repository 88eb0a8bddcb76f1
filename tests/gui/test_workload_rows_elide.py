"""A narrow workloads list keeps each row's target and rate and shortens its name (REVIEW43 finding 8): Qt's
middle elision of "name  →  target  ·  rate" read "NFSv3 file services...ir · 200,000 IOPS" (the arrow and the
target gone, the "ir" of "pair" left)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from app.gui.document import ProjectDocument
from app.gui.main_window import read_project
from app.gui.workload_row import fit_row
from app.gui.workloads_panel import WorkloadsPanel
from models.resources import examples_dir


def _painted(view, row: int) -> str:
    """The text Qt paints for a row: the delegate's option text, elided as the style elides it in its rectangle."""
    item = view.item(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualItemRect(item)
    view.itemDelegate().initStyleOption(option, view.indexFromItem(item))
    style = view.style()
    rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return option.fontMetrics.elidedText(option.text, option.textElideMode, rect.width() - 2 * margin)


def test_a_narrow_list_keeps_the_target_and_the_rate(qtbot):
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / "aff8080-nfs-file-services.toml")))
    qtbot.addWidget(panel)
    text = panel.list.item(0).text()
    name, tail = text.split("  →  ", 1)
    assert name == "NFSv3 file services (SPEC SFS 2008 mix)" and tail == "AFF8080A EX HA pair  ·  200,000 IOPS"
    metrics = panel.list.fontMetrics()
    panel.resize(metrics.horizontalAdvance("  →  " + tail) + 160, 500)  # room for the tail and a short name
    panel.show()
    qtbot.waitExposed(panel)
    painted = _painted(panel.list, 0)
    assert painted.endswith("  →  " + tail), painted
    shown_name = painted[: -len("  →  " + tail)]
    assert shown_name.endswith("…") and name.startswith(shown_name[:-1]) and len(shown_name) > 6, painted
    assert panel.list.item(0).text() == text  # the item keeps its whole text (and its tooltip says it all)


def test_fit_row_gives_way_name_first_then_target_never_the_rate(qtbot):
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / "aff8080-nfs-file-services.toml")))
    qtbot.addWidget(panel)
    metrics = panel.list.fontMetrics()
    text = "A long workload name for a test  →  A long storage system name  ·  12,345 IOPS"
    assert fit_row(text, metrics, metrics.horizontalAdvance(text)) == text  # room: whole
    roomy = metrics.horizontalAdvance("A long work…  →  A long storage system name  ·  12,345 IOPS")
    tight = metrics.horizontalAdvance("A long…  →  A long st…  ·  12,345 IOPS")
    for width in (roomy, (roomy + tight) // 2, tight):
        fitted = fit_row(text, metrics, width)
        assert fitted.endswith("  ·  12,345 IOPS") and metrics.horizontalAdvance(fitted) <= width, (width, fitted)
    # the name gives way first: the target whole while the name can shrink, then the target gives way too
    assert "  →  A long storage system name  ·  " in fit_row(text, metrics, roomy)
    assert fit_row(text, metrics, tight).startswith("A long…  →  A long s")
    assert "A long storage system name" not in fit_row(text, metrics, tight)
    assert fit_row("no parts here", metrics, 30) == metrics.elidedText("no parts here", Qt.TextElideMode.ElideRight, 30)

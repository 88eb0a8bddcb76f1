"""A narrow workloads list keeps each row's arrow and rate (REVIEW43 finding 8): Qt's middle elision of
"name  →  target  ·  rate" read "NFSv3 file services...ir · 200,000 IOPS" (the arrow and the target gone, the "ir" of
"pair" left). The target gives way before the workload's name (revgui55 #9: two imported workloads read
"cluste…  →  AFF8080A EX HA p…" alike, their names differing only after "cluster-")."""

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
    panel.resize(metrics.horizontalAdvance(name + "  →  AFF…  ·  200,000 IOPS") + 60, 500)  # the name, not the target
    panel.show()
    qtbot.waitExposed(panel)
    painted = _painted(panel.list, 0)
    assert painted.startswith(name + "  →  AFF") and painted.endswith("…  ·  200,000 IOPS"), painted
    assert "AFF8080A EX HA pair" not in painted
    assert panel.list.item(0).text() == text  # the item keeps its whole text (and its tooltip says it all)


def test_fit_row_gives_way_target_first_then_name_never_the_rate(qtbot):
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / "aff8080-nfs-file-services.toml")))
    qtbot.addWidget(panel)
    metrics = panel.list.fontMetrics()
    text = "A long workload name for a test  →  A long storage system name  ·  12,345 IOPS"
    assert fit_row(text, metrics, metrics.horizontalAdvance(text)) == text  # room: whole
    roomy = metrics.horizontalAdvance("A long workload name for a test  →  A long stor…  ·  12,345 IOPS")
    tight = metrics.horizontalAdvance("A long work…  →  A lo…  ·  12,345 IOPS")
    for width in (roomy, (roomy + tight) // 2, tight):
        fitted = fit_row(text, metrics, width)
        assert fitted.endswith("  ·  12,345 IOPS") and metrics.horizontalAdvance(fitted) <= width, (width, fitted)
    # the target gives way first: the name whole while the target can shrink, then the name gives way too
    assert fit_row(text, metrics, roomy).startswith("A long workload name for a test  →  A long st")
    assert "A long storage system name" not in fit_row(text, metrics, roomy)
    assert fit_row(text, metrics, tight).startswith("A long wo") and "  →  A lo…  ·  " in fit_row(
        text, metrics, tight)
    assert "A long workload name for a test" not in fit_row(text, metrics, tight)
    # two imported workloads on one target: their names stay apart where the rows are cut
    a = "cluster-1530f4c4 (2 machines, measured)  →  AFF8080A EX HA pair  ·  6,779 IOPS"
    b = "cluster-9d2e77a0 (3 machines, measured)  →  AFF8080A EX HA pair  ·  6,779 IOPS"
    narrow = metrics.horizontalAdvance("cluster-1530f4c4 (2…  →  AFF…  ·  6,779 IOPS")
    assert fit_row(a, metrics, narrow) != fit_row(b, metrics, narrow)
    assert fit_row(a, metrics, narrow).startswith("cluster-1530f4c4")
    assert fit_row("no parts here", metrics, 30) == metrics.elidedText("no parts here", Qt.TextElideMode.ElideRight, 30)


def test_imported_workloads_stay_apart_in_the_list_at_1366(sized_example, qtbot):
    """revgui55 #9: after a Live Optics import at 1366 x 768 the list was two half rows tall and both rows read
    "cluste…  →  AFF8080A EX HA p…"; now every row shows whole and the rows' painted texts differ."""
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    samples = next(p / "shared" / "samples" for p in Path(__file__).resolve().parents
                   if (p / "shared" / "samples").is_dir())
    win = sized_example("aff8080-sqlserver-tpce.toml", 1366, 768)
    win.act_import_env.trigger()
    wizard = win._import_wizard
    wizard.add_files([samples / "liveoptics" / "LiveOptics_file.xlsx"])
    assert wizard.runner.wait(30)
    wizard.next()
    wizard.next()
    assert wizard.runner.wait(30)
    wizard.next()
    wizard.finish_page.replace.setChecked(True)
    wizard.accept()
    panel = win.workloads
    win.workloads_dock.show()
    win.workloads_dock.raise_()
    qtbot.waitUntil(panel.list.isVisible, timeout=3000)
    QApplication.processEvents()
    view = panel.list
    assert view.count() >= 2
    for row in range(view.count()):  # every row wholly inside the list
        rect = view.visualItemRect(view.item(row))
        assert rect.top() >= 0 and rect.bottom() <= view.viewport().height(), (row, rect, view.viewport().height())
    painted = [_painted(view, row) for row in range(view.count())]
    assert len(set(painted)) == len(painted), painted
    win.grab().save("/tmp/gfb55-workloads.png")

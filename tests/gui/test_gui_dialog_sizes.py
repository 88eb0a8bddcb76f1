"""Every dialog sized to its screen: at 1366 x 768, 1920 x 1080 and 200% scaling on 1920 x 1080 (960 x 540
logical pixels) each dialog lies inside the screen's available area, at most 90% of it, and its buttons, tables
and charts are on view inside it (the sizer's requirements scroll; its buttons and results stay visible)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QAbstractScrollArea, QDialogButtonBox, QPushButton, QWidget

import app.gui.screen_fit as screen_fit
from app.gui.screen_fit import fitted_rect

SCREENS = {"1366x768": QRect(0, 0, 1366, 768), "1920x1080": QRect(0, 0, 1920, 1080),
           "200% of 1920x1080": QRect(0, 0, 960, 540)}


@pytest.fixture(params=list(SCREENS))
def screen(request, monkeypatch):
    """The available geometry every dialog is fitted to."""
    rect = SCREENS[request.param]
    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(rect))
    return rect


def _on_view(widget: QWidget, dialog: QWidget, min_height: int = 1) -> None:
    """``widget`` is shown, has a real size, and its whole rectangle lies inside the dialog's."""
    assert widget.isVisible(), widget
    assert widget.width() >= 1 and widget.height() >= min_height, (widget, widget.size())
    top_left = widget.mapTo(dialog, QPoint(0, 0))
    assert dialog.rect().contains(QRect(top_left, widget.size())), (widget, top_left, widget.size(), dialog.size())


def _fits(dialog: QWidget, rect: QRect, qtbot) -> None:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    geometry = dialog.frameGeometry()  # the whole window, title bar included
    assert rect.contains(geometry), (geometry, rect)
    assert geometry.width() <= rect.width() * 0.9 + 1 and geometry.height() <= rect.height() * 0.9 + 1
    minimum = dialog.minimumSizeHint()
    assert minimum.width() <= dialog.width() and minimum.height() <= dialog.height(), minimum
    for button in dialog.findChildren(QPushButton):
        if button.isVisibleTo(dialog) and not _inside_scroll(button, dialog):
            _on_view(button, dialog)


def _inside_scroll(widget: QWidget, dialog: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not dialog:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def test_fitted_rect_caps_centres_and_stays_inside():
    available = QRect(0, 30, 960, 510)
    rect = fitted_rect(QSize(1280, 760), available, QPoint(900, 500))
    assert rect.size() == QSize(864, 459) and available.contains(rect)
    assert fitted_rect(QSize(400, 300), QRect(0, 0, 1920, 1080), QPoint(960, 540)) == QRect(760, 390, 400, 300)
    framed = fitted_rect(QSize(400, 300), QRect(0, 0, 1920, 1080), QPoint(960, 540), frame=QSize(8, 38))
    assert framed == QRect(756, 371, 408, 338)
    assert fitted_rect(QSize(900, 620), available, QPoint(0, 0), frame=QSize(8, 38)).topLeft() == QPoint(0, 30)


def test_sizer(qtbot, example_window, screen):
    dialog = example_window.show_sizer()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.size_button, dialog.apply_button, dialog.compare_button, dialog.chart):
        _on_view(widget, dialog)
    _on_view(dialog.table, dialog, min_height=120)  # a results table of several rows even at 960 x 540
    _on_view(dialog.requirements_scroll, dialog, min_height=120)
    assert dialog.requirements_scroll.widget().isAncestorOf(dialog.form)


def test_calibration(qtbot, example_window, screen):
    dialog = example_window.show_calibration()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.choose, dialog.fit_button, dialog.save_button, dialog.plot, dialog.residuals,
                   dialog.message):
        _on_view(widget, dialog)


def test_import_wizard(qtbot, example_window, screen):
    wizard = example_window.show_import_wizard()
    _fits(wizard, screen, qtbot)
    page = wizard.files_page
    for widget in (page.btn_add, page.btn_folder, page.btn_remove, page.interval, page.interval_hint):
        _on_view(widget, wizard)
    _on_view(page.list, wizard, min_height=80)
    _fits_screen(_modal_shown(qtbot, page.choose_files), screen)
    _fits_screen(_modal_shown(qtbot, page.choose_folder), screen)
    samples = next(p / "shared" / "samples" for p in Path(__file__).resolve().parents
                   if (p / "shared" / "samples").is_dir())
    wizard.add_files([samples / "liveoptics" / "LiveOptics_file.xlsx",
                      *(samples / "ontap" / f"harvest-keyperf-volume-poll-{k}.json" for k in (1, 2))])
    assert wizard.runner.wait(30)
    wizard.next()
    wizard.next()
    assert wizard.runner.wait(30)
    grouping = wizard.grouping_page
    _on_view(grouping.table, wizard, min_height=60)
    for widget in (grouping.group_by, grouping.totals, grouping.btn_series,
                   wizard.button(wizard.WizardButton.NextButton)):
        _on_view(widget, wizard)
    _fits_screen(_modal_shown(qtbot, grouping.save_series), screen)  # the polls' one interval: a series to save


def test_catalog_browser(qtbot, example_window, screen):
    dialog = example_window.show_catalog_browser()
    _fits(dialog, screen, qtbot)
    for widget in (dialog.search, dialog.table):
        _on_view(widget, dialog)


def test_guide(qtbot, example_window, screen):
    dialog = example_window.show_guide()
    _fits(dialog, screen, qtbot)
    _on_view(dialog.browser, dialog, min_height=200)


def test_runway(qtbot, screen):
    from app.gui.results.runway_chart import RunwayDialog
    from models.evaluate import evaluate, evaluate_resilience
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    evaluation = replace(evaluation, resilience=evaluate_resilience(project, evaluation))
    dialog = RunwayDialog(evaluation)
    _fits(dialog, screen, qtbot)
    _on_view(dialog.plot, dialog, min_height=200)


def test_reduction_bands(qtbot, example_window, screen):
    view = example_window.results.capacity_view
    view.edit_bands()
    _fits(view.bands_dialog, screen, qtbot)
    _on_view(view.bands_dialog.table, view.bands_dialog, min_height=150)


# --- every other dialog, message box and file dialog the app shows ---------------------------------------------

LONG_PATH = "/home/presales/Customer projects/" + "very-long-folder-name-" * 8 + "/design.storplan"
"""A path with no break in 180 characters: a message naming it must still wrap inside the screen."""


def _modal_shown(qtbot, trigger) -> dict:
    """Run ``trigger`` (which opens a modal dialog and waits in its event loop), measure the dialog it opened and
    close it. Returns {"frame": frame size, "ok": content checks, "title": window title}."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog

    seen: dict = {}

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, look)
            return
        seen.update(_measure(dialog))
        if isinstance(dialog, QDialog):
            dialog.reject()
        else:
            dialog.close()

    QTimer.singleShot(0, look)
    trigger()  # a modal dialog waits in its own loop; a window-modal one (shown without waiting) is looked at next
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    return seen


def _measure(dialog: QWidget) -> dict:
    """Frame size, and whether every label, text view and button lies inside the dialog (or a scroll area)."""
    from PySide6.QtWidgets import QLabel

    outside = []
    for child in dialog.findChildren(QWidget):
        if not child.isVisibleTo(dialog) or _inside_scroll(child, dialog) or child.width() <= 1:
            continue
        if isinstance(child, QPushButton | QLabel | QAbstractScrollArea):
            top_left = child.mapTo(dialog, QPoint(0, 0))
            if not dialog.rect().contains(QRect(top_left, child.size())):
                outside.append(child)
        if isinstance(child, QLabel) and child.text() and child.wordWrap():
            if child.heightForWidth(child.width()) > child.height() + 2:  # its text is cut at the bottom
                outside.append(child)
    return {"frame": dialog.frameGeometry().size(), "outside": outside, "title": dialog.windowTitle()}


def _fits_screen(seen: dict, rect: QRect) -> None:
    frame = seen["frame"]
    assert frame.width() <= rect.width() * 0.9 + 1 and frame.height() <= rect.height() * 0.9 + 1, seen
    assert not seen["outside"], seen


def _message_box_triggers(win, tmp_path):
    """Each message box the app shows, opened through its own code path with a long text."""
    from types import SimpleNamespace

    from app.gui.hardware_editor import delete_own_record
    from app.gui.main_window import MainWindow

    files = win.files
    from models.store.recovery import RecoveryItem

    item = RecoveryItem(path=tmp_path / "copy.storplan", original_path=Path(LONG_PATH), name="AFF A70 design " * 3,
                        saved_at="2026-11-28T09:00:00", key="k")
    entry = SimpleNamespace(id="my-" + "long-record-id-" * 6, name="AFF A50 (lab fit 2026-11-28)", kind="controller")
    return {
        "unsaved changes": lambda: MainWindow.ask_unsaved(win),
        "cannot open example": lambda: win.open_example(Path(LONG_PATH)),
        "file error": lambda: files._show_error("Cannot open project", f"{LONG_PATH}: not a StorPlan project file "
                                                "(line 3, column 1: expected a [project] table)"),
        "project in use": lambda: files.ask_open_read_only(Path(LONG_PATH), f"{LONG_PATH} is open in StorPlan "
                                                           "on host presales-laptop (process 4242)."),
        "changed on disk": lambda: files.ask_changed_on_disk(Path(LONG_PATH), f"{LONG_PATH} changed on disk "
                                                             "since it was opened. Save As keeps both."),
        "recover": lambda: files.autosaver.ask_recovery([item, item, item]),
        "revert": lambda: MainWindow.ask_revert(win),
        "upgrade file format": lambda: files.ask_upgrade_format(Path(LONG_PATH), 1),
        "delete my hardware": lambda: delete_own_record(win, entry, win.document.project),
        "export failed": lambda: win.sheets._done(False, PermissionError(13, "Permission denied"),
                                                  Path(LONG_PATH).with_suffix(".xlsx")),
        "report failed": lambda: files.reports._done(False, OSError(28, "No space left on device"),
                                                     Path(LONG_PATH).with_suffix(".pdf")),
        "waterfall csv failed": lambda: win.results.capacity_view._csv_done(False, f"Cannot write {LONG_PATH}.csv"),
        "compare scenarios": lambda: (win.duplicate_scenario(), win.compare_dialog()),
    }


MESSAGE_BOXES = ["unsaved changes", "cannot open example", "file error", "project in use", "changed on disk",
                 "recover", "revert", "upgrade file format",
                 "delete my hardware", "export failed", "report failed", "waterfall csv failed",
                 "compare scenarios"]


CHANGE_THE_PROJECT = ["compare scenarios"]
"""The message boxes whose trigger changes the window's project (it adds a scenario): each on a window of its own;
the others only show a box and close it, and share one window (a window per test was most of this module's time)."""


def _message_box_fits(qtbot, win, tmp_path, screen, name) -> None:
    from PySide6.QtWidgets import QApplication

    win.results.setCurrentWidget(win.results.capacity_view)
    seen = _modal_shown(qtbot, _message_box_triggers(win, tmp_path)[name])
    _fits_screen(seen, screen)
    assert QApplication.activeModalWidget() is None


@pytest.mark.parametrize("name", [name for name in MESSAGE_BOXES if name not in CHANGE_THE_PROJECT])
def test_every_message_box_fits_and_shows_its_text(qtbot, module_example_window, tmp_path, screen, name):
    _message_box_fits(qtbot, module_example_window, tmp_path, screen, name)


@pytest.mark.parametrize("name", CHANGE_THE_PROJECT)
def test_every_message_box_that_changes_the_project_fits(qtbot, example_window, tmp_path, screen, name):
    _message_box_fits(qtbot, example_window, tmp_path, screen, name)


FILE_DIALOGS = {
    "open project": lambda win: win.open_dialog(),
    "save project as": lambda win: win.files.save_as(),
    "export report": lambda win: win.files.reports.export_report(),
    "export xlsx": lambda win: win.sheets.export_xlsx(),
    "export csv folder": lambda win: win.sheets.export_csv(),
    "waterfall csv": lambda win: win.results.capacity_view._ask_export_csv(),
    "latency png": lambda win: win.results.performance_view._ask_export_png(),
    "curves csv": lambda win: win.results.performance_view._ask_export_csv(),
    "chart png": lambda win: __import__("app.gui.results._common", fromlist=["x"]).ask_export_plot(
        win, win.results.performance_view.util_plot, "utilisation chart", "utilisation.png"),
}


@pytest.mark.parametrize("name", list(FILE_DIALOGS))
def test_every_file_dialog_fits(qtbot, module_example_window, screen, name):
    """Each file dialog, cancelled: the project stays as it is, so they share one window."""
    seen = _modal_shown(qtbot, lambda: FILE_DIALOGS[name](module_example_window))
    _fits_screen(seen, screen)


def test_file_dialogs_of_the_calibration_and_sizer_fit(qtbot, example_window, screen):
    calibration = example_window.show_calibration()
    qtbot.addWidget(calibration)
    _fits_screen(_modal_shown(qtbot, calibration._ask), screen)
    sizer = example_window.show_sizer()
    qtbot.addWidget(sizer)
    ask = next(getattr(sizer, name) for name in ("_choose_prices",)
               if hasattr(sizer, name))
    _fits_screen(_modal_shown(qtbot, ask), screen)


def test_about_box(qtbot, module_example_window, screen):
    from app.gui import help as guide_help

    box = guide_help.show_about(module_example_window)  # a new box each time: the window is only its parent
    qtbot.addWidget(box)
    qtbot.waitExposed(box)
    _fits_screen(_measure(box), screen)


def test_explanation_window(qtbot, example_window, screen):
    perf = example_window.results.performance_view
    example_window.results.setCurrentWidget(perf)
    dialogs = (perf.explain_cell(0, column) for column in range(len(perf.SUMMARY_COLUMNS)))
    dialog = next((d for d in dialogs if d is not None), None)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    _fits_screen(_measure(dialog), screen)
    _on_view(perf.explanation_text, dialog, min_height=100)


@pytest.mark.parametrize("rect", [*SCREENS.values(), QRect(0, 0, 683, 384)],
                         ids=[*SCREENS, "200% of 1366x768"])
def test_change_profile_dialog(qtbot, module_example_window, monkeypatch, rect):
    """The daily change profile's 24 hours (a replication relationship's workload) fit every screen down to 200 %
    of 1366 x 768: the hours scroll, OK and Cancel stay on view."""
    from app.gui.change_profile import ProfileDialog

    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(rect))
    dialog = ProfileDialog("OLTP", [1.0] * 24, module_example_window)  # the window is only its parent
    _fits(dialog, rect, qtbot)
    _on_view(dialog.grid, dialog, min_height=100)
    _on_view(dialog.buttons, dialog)


DIALOG_SITES = {  # file -> how many places open a dialog, message box or file dialog (each covered above)
    "autosave.py": 2, "calibration_dialog.py": 2, "catalog_browser.py": 1, "export_actions.py": 3,
    "change_profile.py": 1,
    "file_controller.py": 3, "hardware_editor.py": 3, "help.py": 2, "import_wizard.py": 3, "main_window.py": 4,
    "plain_text.py": 1,
    "report_export.py": 2,
    "results/_common.py": 1, "results/capacity_view.py": 2, "results/performance_view.py": 3,
    "results/reduction_bands_dialog.py": 1, "results/runway_chart.py": 1, "sizer_dialog.py": 2,
}


def test_every_dialog_site_is_covered():
    """The places in app/gui that open a dialog: a new one must join the tests above (and this table)."""
    import re

    import app.gui

    pattern = re.compile(r"QMessageBox\.(warning|question|information|critical)\(|QMessageBox\(|"
                         r"QFileDialog\.get\w+\(|QDialog\(self|\(QDialog\):|"
                         r"plain_text\.(show_warning|warning|question)\(")
    root = Path(app.gui.__file__).parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        count = len(pattern.findall(path.read_text(encoding="utf-8")))
        if count:
            found[path.relative_to(root).as_posix()] = count
    assert found == DIALOG_SITES


@pytest.mark.parametrize("rect", [*SCREENS.values(), QRect(0, 0, 683, 384)],
                         ids=[*SCREENS, "200% of 1366x768"])
def test_hardware_editor(qtbot, module_example_window, monkeypatch, rect):
    """The editor fits every screen, down to 200% of 1366 x 768 (683 x 384 logical pixels, less than its content
    needs): its content scrolls above Save / Close, every part of it can be scrolled into view, and on a large
    screen it all shows without scrolling."""
    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(rect))
    dialog = module_example_window.show_hardware_editor()  # a new editor each time, the project unchanged
    _fits(dialog, rect, qtbot)
    buttons = dialog.findChild(QDialogButtonBox)
    _on_view(buttons, dialog)  # Save and Close stay on view, outside the scrolling part
    body = dialog.body_scroll
    _on_view(body, dialog, min_height=120 if rect.height() < 500 else 300)
    assert body.widget().height() >= body.widget().minimumSizeHint().height()  # nothing squeezed: it scrolls
    assert (body.verticalScrollBar().maximum() > 0) == (rect.height() < 768)
    for part in (dialog.base, dialog.tabs, dialog.form.scroll, dialog.message):
        body.ensureWidgetVisible(part, 0, 0)
        qtbot.wait(10)
        top_left = part.mapTo(body.viewport(), QPoint(0, 0))
        assert body.viewport().rect().intersects(QRect(top_left, part.size())), part
    assert dialog.form.scroll.height() >= 100  # several rows of fields; the splitter below gives it more
    if rect.height() >= 768:  # and the sources table below them shows several rows too (it showed one)
        sources = dialog.form.sources
        assert sources.viewport().height() >= 3 * sources.verticalHeader().defaultSectionSize()

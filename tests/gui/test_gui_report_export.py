"""File → Export Report…: the PDF is written by the report worker, with the screen's numbers; failures are shown."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox

import app.report


def _answer_save_dialog(monkeypatch, path: Path) -> list:
    calls = []

    def fake(parent, caption, directory, filters, *args):
        calls.append((caption, directory, filters))
        return str(path), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    return calls


@pytest.fixture
def spy_report(monkeypatch):
    """Record how the worker calls app.report.write_report (the real one still runs)."""
    calls = []
    real = app.report.write_report

    def spy(project, path, **kwargs):
        calls.append({"project": project, "path": path, **kwargs, "cache": dict(kwargs["evaluation_cache"])})
        return real(project, path, **kwargs)

    monkeypatch.setattr(app.report, "write_report", spy)
    return calls


def test_export_report_writes_the_pdf_in_the_worker(qtbot, example_window, tmp_path, monkeypatch, spy_report):
    win = example_window
    assert win.act_export.isEnabled()
    target = tmp_path / "sizing.pdf"
    dialog = _answer_save_dialog(monkeypatch, target)
    shown_evaluation = win.worker.last_outcome.evaluation
    project = win.document.project
    with qtbot.waitSignal(win.files.sig_report_written, timeout=30_000) as written:
        win.act_export.trigger()
        assert win.files.busy  # the GUI thread is not waiting for the PDF writer
        assert "Writing report sizing.pdf" in win.statusBar().currentMessage()
    assert written.args == [str(target)]
    assert "PDF" in dialog[0][2] and dialog[0][1].endswith(".pdf")

    data = target.read_bytes()
    assert data.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
    assert project.info.name in text

    call = spy_report[0]
    assert call["project"] is project and call["paper"] == project.settings.paper
    assert call["cache"][project.active_scenario] is shown_evaluation  # the numbers on screen

    assert not win.files.busy
    assert str(target) in win.statusBar().currentMessage()
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toLocalFile())))
    button = win.files._open_button
    assert button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert opened == [str(target)]
    assert not win.isWindowModified() and win.document.project is project


@pytest.mark.parametrize("where", ["missing_folder", "directory"])
def test_export_to_an_unwritable_path_shows_a_message(qtbot, example_window, tmp_path, monkeypatch, where):
    win = example_window
    target = tmp_path / "no" / "such" / "report.pdf" if where == "missing_folder" else tmp_path / "taken.pdf"
    if where == "directory":
        target.mkdir()
    _answer_save_dialog(monkeypatch, target)
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text, *a: shown.append(text)))
    project = win.document.project
    with qtbot.waitSignal(win.files.sig_report_failed, timeout=30_000):
        assert win.export_report()
    assert len(shown) == 1 and str(target) in shown[0]
    assert win.document.project is project and not win.isWindowModified()
    assert not win.files.busy
    if where == "missing_folder":
        assert not (tmp_path / "no").exists()
    else:
        assert target.is_dir() and list(target.iterdir()) == []


def test_cancelled_dialog_exports_nothing(example_window, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    assert not example_window.export_report()
    assert not example_window.files.busy


def test_file_export_workbook_writes_the_xlsx_in_the_background(qtbot, example_window, tmp_path, monkeypatch):
    """File → Export Workbook: the dialog's path gets an XLSX whose usable capacity is the one on screen (the
    window's evaluation is reused), written on the exporter's own runner."""
    from openpyxl import load_workbook

    from models.units import CapacityUnit

    win = example_window
    target = tmp_path / "sizing.xlsx"
    _answer_save_dialog(monkeypatch, target)
    evaluation = win.worker.last_outcome.evaluation
    with qtbot.waitSignal(win.sheets.sig_written, timeout=30_000) as written:
        win.act_export_xlsx.trigger()
    assert written.args == [str(target)]
    rows = {r[0]: r for r in load_workbook(target)["Summary"].iter_rows(values_only=True)}
    unit = CapacityUnit(win.document.project.settings.capacity_unit)
    assert rows["Usable capacity"][1] == pytest.approx(evaluation.capacity.total.usable_bytes / unit.large_bytes,
                                                       abs=1e-4)
    assert rows["Usable capacity"][2] == unit.value
    assert "exported to" in win.statusBar().currentMessage()
    book = load_workbook(target)
    # the Validation sheet holds the Validation tab's checks, one row each, named as the report names them
    from app.report import validation_outcomes
    from models.present.case_titles import case_title

    outcomes = validation_outcomes()
    checks = [c for o in outcomes for c in o.checks]
    validation = list(book["Validation"].iter_rows(min_row=2, values_only=True))
    assert len(validation) == len(checks) > 0
    assert {r[0] for r in validation} == {case_title(o.case_id, o.seed, address=False) or o.case_id
                                          for o in outcomes if o.checks}
    bom = {r[0]: r for r in book["Bill of materials"].iter_rows(min_row=2, values_only=True)}
    assert bom["Drives"][1] == 48 and bom["Drives"][3] == "X447A"
    # the File menu's Export submenu holds the workbook
    export_menu = next(a.menu() for a in win.menuBar().actions()[0].menu().actions()
                       if a.menu() is not None and a.text().replace("&", "") == "Export")
    assert win.act_export_xlsx in export_menu.actions()


def test_the_report_reuses_the_sizers_search_of_the_project_as_it_is(qtbot, example_window, tmp_path, monkeypatch,
                                                                      spy_report):
    """After a search in the sizer dialog, File > Export Report hands that search to the report (nothing is
    searched twice); once the project changes, the search is stale and the report gets none."""
    win = example_window
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    _answer_save_dialog(monkeypatch, tmp_path / "sized.pdf")
    with qtbot.waitSignal(win.files.sig_report_written, timeout=60_000):
        win.act_export.trigger()
    assert spy_report[-1]["sizing"] is dialog.result
    win.document.set_info("name", "changed")
    _answer_save_dialog(monkeypatch, tmp_path / "changed.pdf")
    with qtbot.waitSignal(win.files.sig_report_written, timeout=60_000):
        win.act_export.trigger()
    assert spy_report[-1]["sizing"] is None

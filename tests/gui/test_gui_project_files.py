""".storplan files in the window: async save, reopen, locks and read-only, damaged files, pinned catalog, recovery.

Dialogs are answered by monkeypatching QFileDialog / QMessageBox static functions (or the controller's
``ask_recovery``); workers are awaited with qtbot.waitSignal / waitUntil, never with sleeps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from app.gui import plain_text
from app.gui.autosave import Autosaver
from app.gui.main_window import read_project
from app.gui.project_io import SAVE_FILTER_STORPLAN
from app.gui.startup import open_main_window
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import RecoveryStore, open_project, read_lock, save_project

DRIVE = "netapp-x447a-800gb-ssd"
REPO = Path(__file__).resolve().parents[2]


def _answer_save_dialog(monkeypatch, path: Path) -> list:
    calls = []

    def fake(*args, **kwargs):
        calls.append(args)
        return str(path), SAVE_FILTER_STORPLAN

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    return calls


def _record_warnings(monkeypatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(plain_text, "show_warning", lambda parent, title, text: shown.append(text))
    return shown


def _dispose(win) -> None:
    """Close a window this test made itself and delete it now (after its zero-delay timers ran)."""
    QApplication.processEvents()
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.close()
    win.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def example_project():
    return read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")


def test_save_as_storplan_then_reopen_equal(qtbot, example_window, tmp_path, monkeypatch):
    win = example_window
    win.document.drop_entry("netapp-ds2246", 900, 300)
    project = win.document.project
    path = tmp_path / "design.storplan"
    _answer_save_dialog(monkeypatch, path)
    with qtbot.waitSignal(win.files.sig_saved, timeout=10_000):
        assert win.save_as()
    assert not win.isWindowModified()
    assert "design.storplan" in win.windowTitle() and "read-only" not in win.windowTitle()
    assert open_project(path).project == project
    assert read_lock(path) is not None and read_lock(path).is_mine  # held while open

    win.new_project()
    assert read_lock(path) is None  # released with the project
    assert win.load(path, wait=True)
    assert win.document.project == project and win.document.path == path
    assert not win.isWindowModified() and win.act_save.isEnabled()


def test_save_runs_in_the_background_and_marks_clean_only_for_the_saved_snapshot(qtbot, window, tmp_path):
    win = window
    path = tmp_path / "bg.storplan"
    assert win.save_to(path)  # the blocking form: same job, waited for
    win.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    saved = win.document.project
    assert win.isWindowModified()
    with qtbot.waitSignal(win.files.sig_saved, timeout=10_000):
        assert win.save()
        assert win.files.busy  # the GUI thread returned before the file was written
        win.document.drop_entry("netapp-ds2246", 300, 0)  # an edit while the save runs
    assert not win.files.busy
    assert win.isWindowModified(), "the file holds the older snapshot: the project stays modified"
    assert open_project(path).project == saved
    with qtbot.waitSignal(win.files.sig_saved, timeout=10_000):
        win.save()
    assert not win.isWindowModified()
    assert open_project(path).project == win.document.project


def test_unsaved_close_with_save_completes_before_closing(qtbot, example_window, tmp_path, monkeypatch):
    win = example_window
    win.document.drop_entry("netapp-ds2246", 900, 300)
    project = win.document.project
    path = tmp_path / "closing.storplan"
    _answer_save_dialog(monkeypatch, path)
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Save
    assert not win.close()  # not yet: the save runs first
    assert win.isVisible()
    qtbot.waitUntil(lambda: not win.isVisible(), timeout=10_000)
    assert open_project(path).project == project
    assert read_lock(path) is None  # the closed window gave its lock up


@pytest.fixture
def locked_elsewhere(tmp_path, example_project):
    """A .storplan file whose ProjectLock is held by another live process."""
    path = tmp_path / "shared.storplan"
    save_project(example_project, path)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from models.store import ProjectLock; lock = ProjectLock(sys.argv[1]); lock.acquire(); "
         "print('locked', flush=True); sys.stdin.read(); lock.release()", str(path)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    yield path, holder
    holder.stdin.close()
    holder.wait(10)


def test_locked_project_offers_read_only(qtbot, window, tmp_path, monkeypatch, locked_elsewhere, example_project):
    path, holder = locked_elsewhere
    questions = []

    def answer(parent, title, text, *args):
        questions.append(text)
        return answer.reply

    monkeypatch.setattr(QMessageBox, "question", staticmethod(answer))
    before = window.document.project

    answer.reply = QMessageBox.StandardButton.Cancel
    assert not window.load(path, wait=True)
    assert "open in another StorPlan" in questions[-1] and "read-only" in questions[-1]
    assert window.document.project is before

    answer.reply = QMessageBox.StandardButton.Open
    assert window.load(path, wait=True)
    assert window.document.project == example_project
    assert window.files.read_only and "(read-only)" in window.windowTitle()
    assert not window.act_save.isEnabled() and window.act_save_as.isEnabled()
    assert read_lock(path).pid == holder.pid  # the other StorPlan keeps its lock

    copy = tmp_path / "copy.storplan"
    _answer_save_dialog(monkeypatch, copy)
    with qtbot.waitSignal(window.files.sig_saved, timeout=10_000):
        assert window.save_as()
    assert not window.files.read_only and window.act_save.isEnabled()
    assert window.document.path == copy and "(read-only)" not in window.windowTitle()
    assert open_project(copy).project == example_project


def test_project_chosen_read_only_cannot_be_saved_in_place(window, tmp_path, example_project):
    path = tmp_path / "ro.storplan"
    save_project(example_project, path)
    assert window.files.open_path(path, read_only=True, wait=True)
    assert "(read-only)" in window.windowTitle() and not window.act_save.isEnabled()
    assert read_lock(path) is None  # read-only opens take no lock


def _damaged(kind: str, tmp_path: Path, project) -> Path:
    path = tmp_path / f"{kind}.storplan"
    if kind == "random":
        path.write_bytes(os.urandom(3000))
    elif kind == "truncated":
        good = tmp_path / "good.storplan"
        save_project(project, good)
        path.write_bytes(good.read_bytes()[:1500])
    elif kind == "toml_text":
        path.write_text('[project]\nname = "x"\n')
    elif kind == "newer":
        save_project(project, path)
        import sqlite3

        conn = sqlite3.connect(path)
        conn.execute("PRAGMA user_version = 999")
        conn.commit()
        conn.close()
    return path


@pytest.mark.parametrize("kind", ["random", "truncated", "toml_text", "newer"])
def test_damaged_file_shows_a_message_and_changes_nothing(window, tmp_path, monkeypatch, kind, example_project):
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    before, modified, title = window.document.project, window.isWindowModified(), window.windowTitle()
    path = _damaged(kind, tmp_path, example_project)
    data = path.read_bytes()
    shown = _record_warnings(monkeypatch)
    assert not window.load(path, wait=True)
    assert len(shown) == 1 and path.name in shown[0]
    if kind == "newer":
        assert "999" in shown[0]
    assert window.document.project is before and window.isWindowModified() == modified
    assert window.windowTitle() == title
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(kind)) == [path.name]  # no lock, no temp


def test_catalog_update_bar_and_update_repins(qtbot, window, tmp_path, example_project):
    bundled = bundled_catalog()
    drive = bundled.find(DRIVE)
    old = drive.model_copy(update={"right_sized_bytes": 700_000_000_000})
    path = tmp_path / "pinned.storplan"
    save_project(example_project, path, catalog=bundled.with_entries([old]))

    assert window.load(path, wait=True)
    bar = window.files.catalog_bar
    assert bar is not None and bar.isVisible()
    assert "newer data for 1 item used here" in bar.label.text() and drive.name in bar.label.text()
    assert window.document.catalog.find(DRIVE).right_sized_bytes == 700_000_000_000
    pinned = window.worker.force_sync().evaluation
    current = evaluate(example_project)
    assert pinned.capacity.total.usable_bytes < current.capacity.total.usable_bytes  # the file's numbers, not today's

    qtbot.mouseClick(bar.update_button, Qt.MouseButton.LeftButton)
    assert not bar.isVisible()
    assert window.isWindowModified()
    assert window.document.catalog.find(DRIVE).right_sized_bytes == drive.right_sized_bytes
    updated = window.worker.force_sync().evaluation
    assert updated.capacity.total.usable_bytes == current.capacity.total.usable_bytes

    window.document.undo_stack.undo()
    assert not window.isWindowModified()
    assert window.document.catalog.find(DRIVE).right_sized_bytes == 700_000_000_000
    window.document.undo_stack.redo()
    assert window.save_to(path)
    assert window.load(path, wait=True)  # saved with the bundled data: nothing newer any more
    assert not window.files.catalog_bar.isVisible()
    assert window.document.catalog.find(DRIVE).right_sized_bytes == drive.right_sized_bytes


def test_keep_hides_the_bar_and_keeps_the_pinned_numbers(qtbot, window, tmp_path, example_project):
    bundled = bundled_catalog()
    old = bundled.find(DRIVE).model_copy(update={"right_sized_bytes": 700_000_000_000})
    path = tmp_path / "keep.storplan"
    save_project(example_project, path, catalog=bundled.with_entries([old]))
    assert window.load(path, wait=True)
    qtbot.mouseClick(window.files.catalog_bar.keep_button, Qt.MouseButton.LeftButton)
    assert not window.files.catalog_bar.isVisible() and not window.isWindowModified()
    assert window.document.catalog.find(DRIVE).right_sized_bytes == 700_000_000_000


def test_calibration_survives_open_and_save(qtbot, window, tmp_path, example_project):
    from models.store import Calibration, CalibrationPoint

    calibration = Calibration((CalibrationPoint("netapp-aff8080a-ex", "lab 1", 120_000.0, 0.8),),
                              {"netapp-aff8080a-ex": {"residual": 0.01}})
    path = tmp_path / "lab.storplan"
    save_project(example_project, path, calibration=calibration)
    assert window.load(path, wait=True)
    window.document.drop_entry("netapp-ds2246", 900, 300)
    with qtbot.waitSignal(window.files.sig_saved, timeout=10_000):
        window.save()
    assert open_project(path).calibration == calibration


def test_autosave_writes_a_recovery_copy_and_a_clean_save_clears_it(qtbot, window, tmp_path):
    window.files.autosave_delay_ms = 20
    store = RecoveryStore()
    with qtbot.waitSignal(window.files.sig_autosaved, timeout=10_000):
        window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    items = store.pending(include_live=True)
    assert len(items) == 1 and items[0].key == window.files.recovery_key
    assert store.load(items[0]).project == window.document.project
    assert store.pending() == []  # this process is alive: not offered as a crash
    assert window.save_to(tmp_path / "clean.storplan")
    window.files.io.wait()
    assert store.pending(include_live=True) == []


def _crashed_copy(project, original: Path) -> RecoveryStore:
    """A recovery copy as a StorPlan that crashed would leave it (its process id is gone)."""
    store = RecoveryStore()
    data = store.write("crashed-window", project, original_path=original)
    info_path = data.with_suffix(".json")
    info = json.loads(info_path.read_text())
    info["pid"] = 0
    info_path.write_text(json.dumps(info))
    return store


def test_start_up_offers_recovery_and_recover_restores_modified(qtbot, tmp_path, monkeypatch, example_project):
    original = tmp_path / "customer.storplan"
    save_project(example_project, original)
    recovered = example_project.with_scenario(example_project.scenario.model_copy(
        update={"nodes": example_project.scenario.nodes[:-1]}))
    store = _crashed_copy(recovered, original)
    offered = []
    monkeypatch.setattr(Autosaver, "ask_recovery", lambda self, items: offered.append(items) or "recover")

    win = open_main_window(None)
    win.show()
    qtbot.waitUntil(lambda: bool(offered), timeout=5_000)
    try:
        assert [(i.name, i.original_path) for i in offered[0]] == [(example_project.info.name, original)]
        assert win.document.project == recovered
        assert win.document.path == original
        assert win.isWindowModified() and "customer.storplan" in win.windowTitle()
        assert read_lock(original).is_mine
        win.files.io.wait()
        assert store.pending() == []  # the crashed copy is gone; this window keeps its own
        assert len(store.pending(include_live=True)) == 1
    finally:
        _dispose(win)
    assert store.pending(include_live=True) == [] and read_lock(original) is None


@pytest.mark.parametrize("answer", ["discard", "later"])
def test_recovery_discard_or_later(qtbot, tmp_path, monkeypatch, answer, example_project):
    store = _crashed_copy(example_project, tmp_path / "x.storplan")
    monkeypatch.setattr(Autosaver, "ask_recovery", lambda self, items: answer)
    win = open_main_window(None, offer_recovery=False)
    try:
        assert not win.files.offer_recovery()
        assert not win.isWindowModified()
        assert len(store.pending()) == (0 if answer == "discard" else 1)
    finally:
        _dispose(win)


def test_command_line_path_uses_the_open_code(qtbot, tmp_path, monkeypatch, example_project):
    path = tmp_path / "cli.storplan"
    save_project(example_project, path)
    win = open_main_window(str(path), offer_recovery=False)
    try:
        assert win.document.project == example_project and win.document.path == path
        assert read_lock(path).is_mine
    finally:
        _dispose(win)

    bad = tmp_path / "bad.storplan"
    bad.write_bytes(b"not a project")
    shown = _record_warnings(monkeypatch)
    win = open_main_window(str(bad), offer_recovery=False)
    try:
        assert len(shown) == 1 and "bad.storplan" in shown[0]
        assert win.document.path is None and bad.read_bytes() == b"not a project"
    finally:
        _dispose(win)


@pytest.mark.parametrize("suffix", [".storplan", ".toml"])
@pytest.mark.parametrize("answer", ["cancel", "overwrite", "save_as"])
def test_save_refuses_a_file_changed_on_disk_and_asks(qtbot, window, tmp_path, monkeypatch, example_project,
                                                      suffix, answer):
    from models.project.textformat import dump, load

    path = tmp_path / f"shared{suffix}"
    if suffix == ".storplan":
        save_project(example_project, path)
    else:
        dump(example_project, path)
    assert window.files.open_path(path, wait=True)
    # Another program writes the file meanwhile (a colleague's copy on a share: a project of another name).
    theirs = example_project.with_changes(info=example_project.info.with_changes(name="Their edit"))
    if suffix == ".storplan":
        save_project(theirs, path, respect_lock=False)
    else:
        dump(theirs, path)
    on_disk = path.read_bytes()
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    asked: list[str] = []

    def ask(p, message):
        asked.append(message)
        return answer

    monkeypatch.setattr(window.files, "ask_changed_on_disk", ask)
    copy = tmp_path / "mine.storplan"
    _answer_save_dialog(monkeypatch, copy)
    if answer == "cancel":
        with qtbot.waitSignal(window.files.sig_save_failed, timeout=10_000):
            window.files.save()
        assert path.read_bytes() == on_disk and window.isWindowModified()
    else:
        with qtbot.waitSignal(window.files.sig_saved, timeout=10_000) as saved:
            window.files.save()
        written = Path(saved.args[0])
        reread = open_project(written).project if written.suffix == ".storplan" else load(written)
        assert reread.scenario == window.document.project.scenario
        if answer == "overwrite":
            assert written == path
        else:
            assert written == copy and path.read_bytes() == on_disk  # theirs kept, ours beside it
    assert len(asked) == 1 and "changed on disk" in asked[0] and path.name in asked[0]
    # Saving again in place, after our own save, asks nothing.
    if answer == "overwrite":
        window.document.drop_entry("netapp-aff8080a-ex", 40, 0)
        with qtbot.waitSignal(window.files.sig_saved, timeout=10_000):
            window.files.save()
        assert len(asked) == 1


def test_status_bar_says_saved_only_where_a_file_holds_the_project(qtbot, example_window, tmp_path, monkeypatch):
    win = example_window
    assert win.document.path is None and win.saved_label.text() == "no file yet"  # an example opens as new
    win.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    assert win.saved_label.text() == "● unsaved"
    path = tmp_path / "kept.storplan"
    _answer_save_dialog(monkeypatch, path)
    with qtbot.waitSignal(win.files.sig_saved, timeout=10_000):
        assert win.save_as()
    assert win.saved_label.text() == "saved" and win.saved_label.toolTip() == str(path)

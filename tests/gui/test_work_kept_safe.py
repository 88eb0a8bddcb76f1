"""Work is never lost by a recovery, a Revert, a second window or a read-only folder; an older file is not
upgraded silently; file errors are words, not errno numbers or temporary file names.

Windows are real (offscreen); dialogs are answered through the app's ask_* hooks or QFileDialog /
plain_text.show_warning, as in test_gui_project_files.
"""

from __future__ import annotations

import errno
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import shown_window
from PySide6.QtWidgets import QMessageBox
from test_gui_project_files import _answer_save_dialog, _dispose, _record_warnings

from app.gui.autosave import Autosaver
from app.gui.main_window import read_project
from app.gui.startup import open_main_window
from models import atomic
from models.resources import examples_dir
from models.store import FileFingerprint, RecoveryStore, open_project, read_lock, save_project
from models.store.lock import held_in_this_process
from models.store.schema import SCHEMA_VERSION

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def example_project():
    return read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")


def _named(project, name: str):
    return project.with_changes(info=project.info.with_changes(name=name))


def _as_crashed(store: RecoveryStore, data: Path) -> None:
    info_path = data.with_suffix(".json")
    info = json.loads(info_path.read_text())
    info["pid"] = 0  # a process that is gone
    info_path.write_text(json.dumps(info))


def _crashed_copy_of_saved_file(tmp_path: Path, project) -> Path:
    """customer.storplan saved as ``project``, and a crashed window's copy of it named "crash edit" (recorded
    with the file's fingerprint, the file unchanged since); returns the file's path."""
    original = tmp_path / "customer.storplan"
    save_project(project, original)
    store = RecoveryStore()
    _as_crashed(store, store.write("crashed", _named(project, "crash edit"), original_path=original,
                                   original_fingerprint=FileFingerprint.of(original)))
    return original


# --- 1. recovery of a copy older than the saved file -----------------------------------------------------------

def test_autosave_records_the_original_file_as_the_window_knows_it(qtbot, window, tmp_path, example_project):
    path = tmp_path / "customer.storplan"
    save_project(example_project, path)
    assert window.files.open_path(path, wait=True)
    window.files.autosave_delay_ms = 20
    with qtbot.waitSignal(window.files.sig_autosaved, timeout=10_000):
        window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    [item] = RecoveryStore().pending(include_live=True)
    assert item.fingerprint_recorded and item.original_fingerprint == FileFingerprint.of(path)
    assert item.original_on_disk() == (FileFingerprint.of(path), None)  # nothing newer on disk


def test_recovering_a_copy_older_than_the_saved_file_says_so_and_save_asks(qtbot, tmp_path, monkeypatch,
                                                                           example_project):
    original = tmp_path / "customer.storplan"
    save_project(_named(example_project, "at the crash"), original)
    store = RecoveryStore()
    crash_edit = _named(example_project, "old crash edit")
    data = store.write("crashed", crash_edit, original_path=original,
                       original_fingerprint=FileFingerprint.of(original))
    _as_crashed(store, data)
    # after the crash the user answered Later, opened the file, worked and saved
    save_project(_named(example_project, "NEWER SAVED WORK"), original)
    newer = original.read_bytes()

    texts: list[str] = []

    def shown(box):  # the real recovery dialog, read and answered "Recover"
        texts.append(box.text())
        box.buttons()[0].click()  # Recover (added first)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", shown)
    win = open_main_window(None)
    try:
        win.show()
        qtbot.waitUntil(lambda: bool(texts), timeout=5_000)
        assert "after this copy" in texts[0] and "newer work" in texts[0]
        assert win.document.project.info.name == "old crash edit" and win.document.path == original
        assert "Save asks before replacing" in win.statusBar().currentMessage()
        asked: list[str] = []
        monkeypatch.setattr(win.files, "ask_changed_on_disk", lambda p, m: asked.append(m) or "cancel")
        with qtbot.waitSignal(win.files.sig_save_failed, timeout=10_000):
            win.files.save()  # Ctrl+S
        assert len(asked) == 1 and "changed on disk" in asked[0]
        assert original.read_bytes() == newer and open_project(original).project.info.name == "NEWER SAVED WORK"
        assert win.isWindowModified()
    finally:
        _dispose(win)


def test_a_copy_of_an_unchanged_file_recovers_and_saves_without_a_question(qtbot, tmp_path, monkeypatch,
                                                                           example_project):
    original = _crashed_copy_of_saved_file(tmp_path, example_project)
    offered = []
    monkeypatch.setattr(Autosaver, "ask_recovery", lambda self, items: offered.append(items) or "recover")
    win = open_main_window(None)
    try:
        win.show()
        qtbot.waitUntil(lambda: bool(offered), timeout=5_000)
        assert offered[0][0].original_on_disk()[1] is None
        monkeypatch.setattr(win.files, "ask_changed_on_disk", lambda p, m: pytest.fail(m))
        assert win.files.save_sync()
        assert open_project(original).project.info.name == "crash edit"
    finally:
        _dispose(win)


def test_recovering_the_file_the_window_was_started_with_keeps_its_lock(qtbot, tmp_path, monkeypatch,
                                                                        example_project):
    """``storplan customer.storplan`` after a crash: the window opens the file (taking its lock), then recovers the
    copy of that same file; it stays writable and the lock file stays (it was removed before)."""
    original = _crashed_copy_of_saved_file(tmp_path, example_project)
    offered = []
    monkeypatch.setattr(Autosaver, "ask_recovery", lambda self, items: offered.append(items) or "recover")
    win = open_main_window(str(original))
    try:
        win.show()
        qtbot.waitUntil(lambda: bool(offered), timeout=5_000)
        win.files.wait()
        assert win.document.project.info.name == "crash edit" and not win.files.read_only
        assert read_lock(original) is not None and read_lock(original).is_mine and held_in_this_process(original)
    finally:
        _dispose(win)
    assert read_lock(original) is None


def test_an_older_storplans_copy_is_judged_by_the_times(tmp_path, example_project):
    """A copy written before records held the fingerprint: a file modified after the copy is newer work."""
    original = tmp_path / "customer.storplan"
    save_project(example_project, original)
    store = RecoveryStore()
    data = store.write("old", example_project, original_path=original)
    info = json.loads(data.with_suffix(".json").read_text())
    del info["original_fingerprint"]
    info["pid"] = 0
    info["saved_at"] = "2001-01-01T00:00:00+00:00"
    data.with_suffix(".json").write_text(json.dumps(info))
    [item] = store.pending()
    expected, saved_after = item.original_on_disk()
    assert saved_after is not None and not expected.same_content(FileFingerprint.of(original))
    info["saved_at"] = "2999-01-01T00:00:00+00:00"
    data.with_suffix(".json").write_text(json.dumps(info))
    [item] = store.pending()
    assert item.original_on_disk() == (FileFingerprint.of(original), None)


# --- 2. Revert asks ----------------------------------------------------------------------------------------------

def test_revert_asks_before_discarding_unsaved_edits(qtbot, window, tmp_path, monkeypatch, example_project):
    path = tmp_path / "demo.storplan"
    save_project(example_project, path)
    assert window.files.open_path(path, wait=True)
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    edited = window.document.project
    asked: list[bool] = []
    monkeypatch.setattr(window, "ask_revert", lambda: asked.append(True) or False)
    assert window.act_revert.isEnabled()
    window.act_revert.trigger()
    window.files.wait()
    assert asked == [True] and window.document.project == edited and window.document.undo_stack.canUndo()
    assert window.isWindowModified()

    monkeypatch.setattr(window, "ask_revert", lambda: asked.append(True) or True)
    window.act_revert.trigger()
    window.files.wait()
    assert len(asked) == 2 and window.document.project == example_project and not window.isWindowModified()


def test_revert_dialog_defaults_to_cancel(qtbot, window, tmp_path, monkeypatch, example_project):
    path = tmp_path / "demo.storplan"
    save_project(example_project, path)
    assert window.files.open_path(path, wait=True)
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    seen = []

    def shown(box):
        seen.append((box.text(), box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)))
        return 0  # closed: nothing clicked

    monkeypatch.setattr(QMessageBox, "exec", shown)
    window.act_revert.trigger()
    window.files.wait()
    assert seen and "Discard your changes to demo" in seen[0][0] and seen[0][1]
    assert window.isWindowModified()


# --- 3. two windows of one StorPlan ----------------------------------------------------------------------------

def test_a_second_window_gets_the_in_use_choice_and_cannot_take_the_first_ones_lock(qtbot, window, tmp_path,
                                                                                    monkeypatch, example_project):
    path = tmp_path / "A.storplan"
    save_project(example_project, path)
    assert window.files.open_path(path, wait=True) and not window.files.read_only
    other = shown_window(None, example_project)  # a second window of this process (as crash recovery opens one)
    try:
        asked: list[str] = []
        monkeypatch.setattr(other.files, "ask_open_read_only", lambda p, m: asked.append(m) or True)
        assert other.files.open_path(path, wait=True)
        assert len(asked) == 1 and "another window of this StorPlan" in asked[0]
        assert other.files.read_only and not window.files.read_only

        # Save As onto the first window's file is refused, in words
        other.document.drop_entry("netapp-aff8080a-ex", 0, 0)
        before = path.read_bytes()
        shown = _record_warnings(monkeypatch)
        _answer_save_dialog(monkeypatch, path)
        with qtbot.waitSignal(other.files.sig_save_failed, timeout=10_000):
            other.files.save()
        assert path.read_bytes() == before and "another window of this StorPlan" in shown[-1]

        # the second window moves on: the first one keeps its lock
        other.new_project()
        other.files.wait()
        assert read_lock(path) is not None and read_lock(path).is_mine and held_in_this_process(path)
        assert window.files.locks.current is not None and window.files.locks.current.held
    finally:
        _dispose(other)
    assert held_in_this_process(path)
    window.new_project()  # the holder moves on: the lock goes
    assert read_lock(path) is None and not held_in_this_process(path)


# --- 4. a read-only folder at Save As ------------------------------------------------------------------------

def _read_only_folder(monkeypatch, folder: Path) -> None:
    """Creating a file in ``folder`` fails as on a read-only mount (root ignores chmod)."""
    from models.store import lock as lock_module

    def refuse(path, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    real_create_temp = atomic._create_temp

    def create_temp(path, suffix):
        if Path(path).parent == folder:
            raise OSError(errno.EROFS, "Read-only file system", str(atomic.temp_path_for(Path(path), suffix)))
        return real_create_temp(path, suffix)

    real_create_new = lock_module.create_new_file
    monkeypatch.setattr(atomic, "_create_temp", create_temp)
    monkeypatch.setattr(lock_module, "create_new_file",
                        lambda p, *a, **k: refuse(p) if Path(p).parent == folder else real_create_new(p, *a, **k))


@pytest.mark.parametrize("suffix", [".storplan", ".toml"])
def test_save_as_into_a_read_only_folder_says_choose_another_folder(qtbot, example_window, tmp_path, monkeypatch,
                                                                    suffix):
    folder = tmp_path / "ro"
    folder.mkdir()
    _read_only_folder(monkeypatch, folder)
    target = folder / f"new name{suffix}"
    _answer_save_dialog(monkeypatch, target)
    shown = _record_warnings(monkeypatch)
    with qtbot.waitSignal(example_window.files.sig_save_failed, timeout=10_000):
        assert example_window.save_as()
    [message] = shown
    assert message.startswith(f"Cannot save {target}:")
    assert f"cannot write to the folder {folder} (read-only)" in message and "Save As" in message
    assert "open it read-only" not in message and "Errno" not in message and ".tmp" not in message
    assert example_window.isWindowModified() or example_window.document.path is None
    assert list(folder.iterdir()) == []


# --- 6. an older file format is not upgraded silently ---------------------------------------------------------

def _user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("answer", ["save", "cancel"])
def test_saving_an_older_format_file_says_so_once(qtbot, window, tmp_path, monkeypatch, answer):
    path = tmp_path / "old v1.storplan"
    shutil.copy(REPO / "tests" / "data" / "project_v1.storplan", path)
    assert _user_version(path) == 1
    assert window.files.open_path(path, wait=True)
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    asked: list[tuple] = []
    monkeypatch.setattr(window.files, "ask_upgrade_format", lambda p, v: asked.append((p, v)) or answer)
    if answer == "cancel":
        with qtbot.waitSignal(window.files.sig_save_failed, timeout=10_000):
            window.files.save()
        assert asked == [(path, 1)] and _user_version(path) == 1 and window.isWindowModified()
        return
    with qtbot.waitSignal(window.files.sig_saved, timeout=10_000):
        window.files.save()
    assert asked == [(path, 1)] and _user_version(path) == SCHEMA_VERSION
    assert "current file format" in window.statusBar().currentMessage()
    assert "older StorPlan versions cannot open it" in window.statusBar().currentMessage()
    window.document.drop_entry("netapp-aff8080a-ex", 40, 0)
    with qtbot.waitSignal(window.files.sig_saved, timeout=10_000):
        window.files.save()
    assert len(asked) == 1  # once: the file is of the current format now


def test_upgrade_question_words(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "old.storplan"
    shutil.copy(REPO / "tests" / "data" / "project_v1.storplan", path)
    assert window.files.open_path(path, wait=True)
    texts = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: texts.append(box.text()) or 0)
    assert window.files.ask_upgrade_format(path, 1) == "cancel"
    assert "file format 1" in texts[0] and f"({SCHEMA_VERSION})" in texts[0]
    assert "older StorPlan versions cannot open" in texts[0] and "Save As" in texts[0]


# --- 7. a bad TOML file is named once ----------------------------------------------------------------------------

def test_a_bad_toml_file_is_named_once(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "bad.toml"
    path.write_text("= not toml\n")
    shown = _record_warnings(monkeypatch)
    assert not window.files.open_path(path, wait=True)
    [message] = shown
    assert message.count(str(path)) == 1 and "not valid TOML" in message


def test_a_toml_save_to_a_missing_folder_is_worded(qtbot, example_window, tmp_path, monkeypatch):
    target = tmp_path / "gone" / "x.toml"
    _answer_save_dialog(monkeypatch, target)
    shown = _record_warnings(monkeypatch)
    with qtbot.waitSignal(example_window.files.sig_save_failed, timeout=10_000):
        example_window.save_as()
    assert shown == [f"Cannot save {target}: the folder {target.parent} does not exist."]


# --- 8. a .storplan and its TOML form show the same layout ----------------------------------------------------

def test_a_storplan_with_stacked_nodes_and_its_toml_form_open_the_same(qtbot, window, tmp_path):
    """project_v1's active scenario has every node at (0, 0): both forms open laid out, and Save As .toml then
    reopening gives back the same positions (before, only the TOML was laid out)."""
    from models.project import edits

    path = tmp_path / "v1.storplan"
    shutil.copy(REPO / "tests" / "data" / "project_v1.storplan", path)
    assert edits.needs_layout(open_project(path, read_only_if_locked=True).project.scenario)
    assert window.files.open_path(path, wait=True)
    opened = window.document.project
    assert not edits.needs_layout(opened.scenario)
    toml = tmp_path / "v1.toml"
    assert window.save_to(toml)
    assert window.files.open_path(toml, wait=True)
    assert [(n.id, n.x, n.y) for n in window.document.project.scenario.nodes] == [
        (n.id, n.x, n.y) for n in opened.scenario.nodes]

"""Autosave copies: written atomically, found again after a crash, cleared on a clean save or close."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from models.project import HostNode, Project, Scenario
from models.store import Calibration, CalibrationPoint, RecoveryStore, save_project

ROOT = Path(__file__).resolve().parents[1]
PROJECT = Project(info={"name": "Unsaved work ✍"}, scenarios=[Scenario(name="Base", nodes=[
    HostNode(id="h1", catalog_id="server", label="typed just now")])])  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> RecoveryStore:
    return RecoveryStore(tmp_path / "recovery")


def test_default_folder_is_under_user_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("STORPLAN_HOME", str(tmp_path))
    assert RecoveryStore().directory == tmp_path / "recovery"


def test_own_autosaves_are_not_offered_as_crash_recovery(store: RecoveryStore, tmp_path: Path):
    original = tmp_path / "work.storplan"
    path = store.write("doc-1", PROJECT, original_path=original)
    assert path.exists()
    assert store.pending() == []  # this process is alive: not a crash
    [item] = store.pending(include_live=True)
    assert item.original_path == original and item.name == PROJECT.info.name and item.key == "doc-1"
    assert store.load(item).project == PROJECT
    store.write("doc-1", PROJECT.with_changes(active_scenario="Base"), original_path=original)  # overwrite
    assert len(store.pending(include_live=True)) == 1


def test_copies_of_a_crashed_process_are_pending(store: RecoveryStore, tmp_path: Path):
    original = tmp_path / "work.storplan"
    save_project(Project(), original)
    code = (
        f"import sys, os; sys.path.insert(0, {str(ROOT)!r})\n"
        "from models.project import Project\n"
        "from models.store import RecoveryStore, Calibration, CalibrationPoint\n"
        f"p = Project.model_validate_json({PROJECT.model_dump_json()!r})\n"
        f"cal = Calibration((CalibrationPoint('c1', 'lab run 1', 1000.0, 0.4),), {{'c1': {{'residual': 0.01}}}})\n"
        f"RecoveryStore({str(store.directory)!r}).write('crashed-doc', p, original_path={str(original)!r}, "
        "calibration=cal)\n"
        f"RecoveryStore({str(store.directory)!r}).write('never-saved', p)\n"
        "os._exit(9)  # no clean shutdown\n"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 9
    pending = store.pending()
    assert sorted(i.key for i in pending) == ["crashed-doc", "never-saved"]
    crashed = next(i for i in pending if i.key == "crashed-doc")
    opened = store.load(crashed)
    assert opened.project == PROJECT
    assert opened.calibration == Calibration((CalibrationPoint("c1", "lab run 1", 1000.0, 0.4),),
                                             {"c1": {"residual": 0.01}})  # fmt: skip
    assert next(i for i in pending if i.key == "never-saved").original_path is None

    store.clear_for(original)  # the user recovered and saved cleanly
    assert [i.key for i in store.pending()] == ["never-saved"]
    store.discard("never-saved")
    assert store.pending() == []
    assert list(store.directory.iterdir()) == []


def test_copy_without_its_note_is_still_offered(store: RecoveryStore):
    path = store.write("doc", PROJECT)
    path.with_suffix(".json").unlink()  # crash between the two writes
    [item] = store.pending()
    assert item.path == path and item.original_path is None
    store.discard(item)
    assert store.pending(include_live=True) == []


def test_keys_with_odd_characters(store: RecoveryStore):
    a = store.write("C:\\Users\\me\\a b.storplan", PROJECT)
    b = store.write("C:/Users/me/a b.storplan", PROJECT)
    assert a != b and a.parent == b.parent == store.directory

"""Two StorPlans (or StorPlan and another program) saving one file: the later save is refused when the file changed
on disk since it was opened or last saved, unless the user chooses to overwrite; a touch alone is no change."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_store_faults import SMALL

from models.store import (
    FileChangedOnDiskError,
    FileFingerprint,
    StoreError,
    open_project,
    save_project,
    save_project_tracked,
)

ROOT = Path(__file__).resolve().parents[1]


def named(name: str):
    return SMALL.with_changes(info={"name": name})


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_project(SMALL, tmp_path / "shared.storplan")


def test_fingerprint_is_the_content():
    from models.store.records import FileFingerprint as Record

    assert Record is FileFingerprint


def test_open_and_save_record_the_file_as_it_is(saved: Path):
    opened = open_project(saved)
    now = FileFingerprint.of(saved)
    assert opened.fingerprint == now
    assert now.size_bytes == saved.stat().st_size
    assert now.sha256 == hashlib.sha256(saved.read_bytes()).hexdigest()
    result = save_project_tracked(named("again"), saved, expected_fingerprint=opened.fingerprint)
    assert result.path == saved.resolve()
    assert result.fingerprint == FileFingerprint.of(saved)
    assert FileFingerprint.of(saved.with_name("nothing-here.storplan")) is None


def test_two_handles_saving_one_file(saved: Path):
    alice = open_project(saved)
    bob = open_project(saved)
    bob_saved = save_project_tracked(named("Bob's design"), saved, expected_fingerprint=bob.fingerprint)
    bob_bytes = saved.read_bytes()

    with pytest.raises(FileChangedOnDiskError) as info:
        save_project_tracked(named("Alice's design"), saved, expected_fingerprint=alice.fingerprint)
    error = info.value
    assert isinstance(error, StoreError) and error.reason == "changed_on_disk"
    assert str(saved.resolve()) in str(error) and "changed on disk" in str(error) and "Save As" in str(error)
    assert "UTC" in str(error)
    assert error.expected == alice.fingerprint and error.current == bob_saved.fingerprint
    assert saved.read_bytes() == bob_bytes, "Bob's work is not overwritten"
    assert [p.name for p in saved.parent.iterdir()] == [saved.name], "no temporary file left"

    # Bob keeps saving: his fingerprint follows his own saves
    bob_again = save_project_tracked(named("Bob, later"), saved, expected_fingerprint=bob_saved.fingerprint)
    # Alice chooses to overwrite
    save_project_tracked(named("Alice's design"), saved, expected_fingerprint=alice.fingerprint, force=True)
    assert open_project(saved).project.info.name == "Alice's design"
    with pytest.raises(FileChangedOnDiskError):
        save_project(named("Bob, even later"), saved, expected_fingerprint=bob_again.fingerprint)


def test_another_process_saving_meanwhile(saved: Path):
    mine = open_project(saved)
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from models.store import save_project\n"
        "from test_store_faults import SMALL\n"
        f"save_project(SMALL.with_changes(info={{'name': 'other process'}}), {str(saved)!r})\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    with pytest.raises(FileChangedOnDiskError):
        save_project(named("mine"), saved, expected_fingerprint=mine.fingerprint)
    assert open_project(saved).project.info.name == "other process"


def test_a_change_between_writing_and_renaming_is_caught(saved: Path, monkeypatch: pytest.MonkeyPatch):
    """The second check runs just before the rename: a write that lands while we write our copy is not lost."""
    from models import atomic

    mine = open_project(saved)
    real_fsync = atomic._fsync_fd

    def someone_writes_now(fd):  # our copy is on disk; the other save lands before our rename
        real_fsync(fd)
        monkeypatch.setattr(atomic, "_fsync_fd", real_fsync)
        save_project(named("sneaked in"), saved)

    monkeypatch.setattr(atomic, "_fsync_fd", someone_writes_now)
    with pytest.raises(FileChangedOnDiskError):
        save_project(named("mine"), saved, expected_fingerprint=mine.fingerprint)
    assert open_project(saved).project.info.name == "sneaked in"
    assert sorted(p.name for p in saved.parent.iterdir()) == [saved.name]


def test_touch_is_not_a_change_and_a_deleted_file_is_saved_again(saved: Path):
    opened = open_project(saved)
    os.utime(saved, ns=(1, 1))
    saved_again = save_project_tracked(named("after touch"), saved, expected_fingerprint=opened.fingerprint)
    saved.unlink()
    save_project(named("recreated"), saved, expected_fingerprint=saved_again.fingerprint)
    assert open_project(saved).project.info.name == "recreated"


def test_without_an_expected_fingerprint_the_last_writer_wins_as_before(saved: Path):
    open_project(saved)
    save_project(named("one"), saved)
    save_project(named("two"), saved)
    assert open_project(saved).project.info.name == "two"

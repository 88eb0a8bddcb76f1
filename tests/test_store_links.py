"""Lock and recovery files are created without following symlinks, a lock file that is a FIFO or a link never
blocks or misleads, and a stale lock another user left in a sticky folder is explained in words."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_store_faults import SMALL

from models.store import ProjectLock, RecoveryStore, StoreError, read_lock, save_project
from models.store.lock import lock_path_for

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX symlinks, FIFOs and sticky folders")


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_project(SMALL, tmp_path / "p.storplan")


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_text("precious")
    return path


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_lock_through_a_planted_symlink_is_not_followed(saved: Path, victim: Path):
    lock_file = lock_path_for(saved)
    lock_file.symlink_to(victim)
    os.utime(lock_file, (0, 0), follow_symlinks=False)  # an old leftover: it may be taken over
    with ProjectLock(saved) as lock:
        assert lock.held
        assert not lock_file.is_symlink()
        assert json.loads(lock_file.read_text())["pid"] == os.getpid()
    assert victim.read_text() == "precious"


def test_a_dangling_symlink_does_not_create_its_target(saved: Path, tmp_path: Path):
    target = tmp_path / "elsewhere-created"
    lock_path_for(saved).symlink_to(target)
    os.utime(lock_path_for(saved), (0, 0), follow_symlinks=False)
    with ProjectLock(saved):
        pass
    assert not target.exists()


def test_a_fifo_as_lock_file_does_not_block(saved: Path):
    os.mkfifo(lock_path_for(saved))
    info = read_lock(saved)  # would wait for a writer for ever if opened plainly
    assert info is not None and info.pid == 0


def test_temporary_save_files_are_created_without_following_links(saved: Path, monkeypatch: pytest.MonkeyPatch):
    from models.store import files

    flags = []
    real_open = os.open

    def spy(path, flag, *args, **kwargs):
        if str(path).endswith(files.TEMP_SUFFIX) and flag & os.O_CREAT:
            flags.append(flag)
        return real_open(path, flag, *args, **kwargs)

    monkeypatch.setattr(files.os, "open", spy)
    save_project(SMALL, saved)
    assert flags and all(f & os.O_EXCL and f & os.O_NOFOLLOW for f in flags)


def test_recovery_note_through_a_planted_symlink_is_not_followed(tmp_path: Path, victim: Path):
    store = RecoveryStore(tmp_path / "recovery")
    data_path = store.write("doc-1", SMALL)
    info_tmp = data_path.with_suffix(".json.tmp")
    info_tmp.symlink_to(victim)
    data_path.unlink()
    data_path.symlink_to(victim)
    store.write("doc-1", SMALL.with_changes(info={"name": "second"}))
    assert victim.read_text() == "precious"
    assert not data_path.is_symlink() and not info_tmp.exists()
    note = json.loads(data_path.with_suffix(".json").read_text())
    assert note["name"] == "second" and note["key"] == "doc-1"
    assert [item.name for item in store.pending(include_live=True)] == ["second"]
    (store.directory / "planted.storplan").symlink_to(tmp_path / "nowhere")  # dangling: not offered, no crash
    assert [item.name for item in store.pending(include_live=True)] == ["second"]


def test_unremovable_stale_lock_is_explained(saved: Path, monkeypatch: pytest.MonkeyPatch):
    lock_file = lock_path_for(saved)
    lock_file.write_text(json.dumps({"pid": _dead_pid(), "host": socket.gethostname(), "user": "olga",
                                     "acquired_at": "2026-11-20T09:00:00+00:00"}))  # fmt: skip
    real_unlink = Path.unlink

    def refuse(self, *args, **kwargs):
        if self == lock_file:
            raise PermissionError(1, "Operation not permitted", str(self))
        return real_unlink(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(StoreError) as info:
        ProjectLock(saved).acquire()
    message = str(info.value)
    assert info.value.reason == "locked"
    assert "no longer running" in message and str(lock_file) in message and "copy the project" in message
    assert "PermissionError" not in message and "Errno" not in message


@pytest.mark.skipif(sys.platform != "linux" or shutil.which("setpriv") is None, reason="needs Linux setpriv")
def test_stale_lock_of_another_user_in_a_sticky_folder(tmp_path: Path):
    """A real sticky folder: the lock file and folder belong to another user (nobody); the child runs without
    CAP_FOWNER (as an ordinary user would), so the kernel refuses to remove the stale lock."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root to give files to another user")
    shared = tmp_path / "shared"
    shared.mkdir()
    project = save_project(SMALL, shared / "p.storplan")
    lock_file = lock_path_for(project)
    lock_file.write_text(json.dumps({"pid": _dead_pid(), "host": socket.gethostname(), "user": "nobody",
                                     "acquired_at": "2026-11-20T09:00:00+00:00"}))  # fmt: skip
    os.chown(lock_file, 65534, 65534)
    os.chown(shared, 65534, 65534)
    os.chmod(shared, 0o1777)
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from models.store import ProjectLock, StoreError\n"
        "try:\n"
        f"    ProjectLock({str(project)!r}).acquire(); print('ACQUIRED')\n"
        "except StoreError as e:\n"
        "    print('REFUSED', e.reason, str(e))\n"
    )
    result = subprocess.run(["setpriv", "--inh-caps=-fowner", "--bounding-set=-fowner", sys.executable, "-c", code],
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    if "Operation not permitted" in result.stderr and "setpriv" in result.stderr:
        pytest.skip(f"cannot drop capabilities here: {result.stderr.strip()[:200]}")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.startswith("REFUSED locked "), result.stdout + result.stderr
    assert "left by nobody" in result.stdout and "shared folder" in result.stdout
    assert lock_file.exists()

"""Fault tests: a save killed half way, a full disk, damaged and foreign files, newer schemas, locks, read-only
places. In every case the previous file must stay intact and the message must name the file."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from models import atomic
from models.project import HostNode, Link, Project, Scenario, ShelfNode, Workload
from models.store import ProjectLock, StoreError, codec, files, open_project, save_project
from models.store.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def big_project(n: int = 2000, name: str = "Big") -> Project:
    nodes = [HostNode(id=f"h{i}", catalog_id="hp-dl980-g7", label=f"host {i} ✓", x=i * 1.5, y=-i)
             for i in range(n // 2)]
    nodes += [ShelfNode(id=f"s{i}", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24)
              for i in range(n - n // 2)]  # fmt: skip
    links = [Link(id=f"l{i}", source=f"h{i}", target=f"s{i}", link_type="fc-32g") for i in range(n // 2)]
    work = [Workload(id=f"w{i}", name=f"w {i}", target=f"s{i}", block_kib=8, read_pct=70, random_pct=100)
            for i in range(50)]  # fmt: skip
    return Project(info={"name": name}, scenarios=[Scenario(name="Base", nodes=nodes, links=links, workloads=work)])


SMALL = Project(info={"name": "Original — keep me"}, scenarios=[Scenario(name="Base", nodes=[
    HostNode(id="h1", catalog_id="hp-dl980-g7")])])  # fmt: skip


def digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(files.TEMP_SUFFIX))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_project(SMALL, tmp_path / "project.storplan")


def assert_intact(path: Path, before: tuple[str, int]) -> None:
    assert digest(path) == before
    assert open_project(path, read_only_if_locked=True).project == SMALL


# --- killed mid-save -------------------------------------------------------------------------------------------------



@pytest.mark.parametrize("where", ["writing rows", "before the rename"])
def test_kill_during_save_leaves_the_previous_file_intact(saved: Path, where: str):
    before = digest(saved)
    # The child saves a big project over the file and stops at a hook (a monkeypatched step that announces itself
    # and sleeps), so the SIGKILL lands inside the save every time, not by luck.
    hook = (
        "orig = codec.write_nodes\n"
        "def slow(conn, rows):\n"
        "    orig(conn, rows[: len(rows) // 2])\n"
        "    print('IN-SAVE', flush=True); time.sleep(60)\n"
        "codec.write_nodes = slow\n"
        if where == "writing rows"
        else "real = os.replace\n"
        "def slow(a, b):\n"  # the project's own rename (the lock file is replaced atomically before it)
        f"    if os.fspath(b) == {str(saved)!r}: print('IN-SAVE', flush=True); time.sleep(60)\n"
        "    real(a, b)\n"
        "files.os.replace = slow\n"
    )
    code = (
        "import os, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from models.store import codec, files, save_project\n"
        "from test_store_faults import big_project\n"
        f"{hook}"
        f"save_project(big_project(), {str(saved)!r}, app_version='child')\n"
        "print('SAVED', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline().strip()
        assert line == "IN-SAVE", child.stderr.read()
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert_intact(saved, before)
    # the half-written temporary file is left beside it and is not mistaken for the project
    stray = leftovers(saved.parent)
    assert len(stray) == 1
    # the next save works and replaces the file
    save_project(big_project(10, "after"), saved)
    assert open_project(saved).project.info.name == "after"


# --- full disk -------------------------------------------------------------------------------------------------------


def _enospc(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["rows", "fsync"])
def test_full_disk_mid_save(saved: Path, monkeypatch: pytest.MonkeyPatch, where: str):
    before = digest(saved)
    if where == "rows":
        real = codec.write_nodes

        def half_then_full(conn, rows):
            real(conn, rows[:10])
            _enospc()

        monkeypatch.setattr(codec, "write_nodes", half_then_full)
    else:
        monkeypatch.setattr(atomic, "_fsync_fd", _enospc)
    with pytest.raises(StoreError) as info:
        save_project(big_project(200), saved)
    assert info.value.reason == "disk_full"
    assert str(saved) in str(info.value) and "disk is full" in str(info.value)
    assert "unchanged" in str(info.value)
    assert_intact(saved, before)
    assert leftovers(saved.parent) == []


def test_sqlite_reports_a_full_disk(saved: Path, monkeypatch: pytest.MonkeyPatch):
    """A genuine SQLITE_FULL from SQLite itself: the temporary database may not grow beyond 16 pages."""
    before = digest(saved)
    real = files._connect_for_write

    def tiny(tmp):
        conn = real(tmp)
        conn.execute("PRAGMA max_page_count = 16")
        return conn

    monkeypatch.setattr(files, "_connect_for_write", tiny)
    with pytest.raises(StoreError) as info:
        save_project(big_project(500), saved)
    assert info.value.reason == "disk_full", str(info.value)
    assert str(saved) in str(info.value)
    assert_intact(saved, before)
    assert leftovers(saved.parent) == []


# --- files that are not (intact) StorPlan projects -------------------------------------------------------------------


def _expect(path: Path, reason: str, *words: str) -> StoreError:
    before = digest(path)
    with pytest.raises(StoreError) as info:
        open_project(path)
    message = str(info.value)
    assert info.value.reason == reason, message
    assert str(path) in message
    for word in words:
        assert word in message
    assert isinstance(info.value, ValueError)
    assert digest(path) == before, "opening must not change the file"
    return info.value


def test_random_bytes(tmp_path: Path):
    path = tmp_path / "noise.storplan"
    path.write_bytes(os.urandom(5000))
    _expect(path, "not_storplan", "not a StorPlan project", "not an SQLite database")


def test_empty_file(tmp_path: Path):
    path = tmp_path / "empty.storplan"
    path.write_bytes(b"")
    _expect(path, "not_storplan", "empty")


def test_a_toml_project_given_by_mistake(tmp_path: Path):
    from models.project import dumps

    path = tmp_path / "project.storplan"
    path.write_text(dumps(SMALL), encoding="utf-8")
    _expect(path, "not_storplan", "TOML", "Import")


def test_another_sqlite_database(tmp_path: Path):
    path = tmp_path / "other.storplan"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    _expect(path, "not_storplan", "SQLite database, but not a StorPlan project")


@pytest.mark.parametrize("keep", [0.5, 0.9, 60])
def test_truncated_files(tmp_path: Path, keep: float):
    path = save_project(big_project(400), tmp_path / "cut.storplan")
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep) if keep < 1 else int(keep)])
    _expect(path, "corrupt", "damaged")


def test_damaged_pages(tmp_path: Path):
    path = save_project(big_project(400), tmp_path / "bad.storplan")
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(3 * page, len(data) - page, 5 * page):  # scribble over several b-tree pages
        data[start : start + 64] = os.urandom(64)
    path.write_bytes(bytes(data))
    _expect(path, "corrupt", "damaged")


def test_newer_schema_is_refused_naming_both_versions(saved: Path):
    conn = sqlite3.connect(saved)
    newer = SCHEMA_VERSION + 1
    conn.execute(f"PRAGMA user_version = {newer}")
    conn.commit()
    conn.close()
    error = _expect(saved, "newer_version", f"schema version {newer}", f"reads up to {SCHEMA_VERSION}")
    assert "saved by StorPlan" in str(error)


# --- locks -----------------------------------------------------------------------------------------------------------


def test_file_held_with_a_write_transaction_by_another_connection(saved: Path):
    before = digest(saved)
    other = sqlite3.connect(saved, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE meta SET name = 'changed by someone else'")
    try:
        with pytest.raises(StoreError) as info:
            open_project(saved, busy_timeout=0.1)
        assert info.value.reason == "locked"
        assert str(saved) in str(info.value) and "busy" in str(info.value)
        with pytest.raises(StoreError) as info:
            save_project(big_project(10), saved, busy_timeout=0.1)
        assert info.value.reason == "locked" and str(saved) in str(info.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert_intact(saved, before)
    assert leftovers(saved.parent) == []


def test_reserved_write_lock_still_reads_the_committed_project(saved: Path):
    other = sqlite3.connect(saved, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE meta SET name = 'not committed'")
    try:
        assert open_project(saved, busy_timeout=0.1).project == SMALL
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.fixture
def live_stranger():
    """A live process that is not us: its pid goes in a lock file."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc.pid
    proc.kill()
    proc.wait()


def _write_lock(project: Path, pid: int, host: str | None = None) -> Path:
    lock = project.with_name(project.name + ".lock")
    lock.write_text(json.dumps({"pid": pid, "host": host or socket.gethostname(), "user": "someone",
                                "acquired_at": "2026-11-21T10:00:00+00:00"}))  # fmt: skip
    return lock


def test_project_locked_by_another_live_storplan(saved: Path, live_stranger: int):
    before = digest(saved)
    lock = _write_lock(saved, live_stranger)
    lock_text = lock.read_text()
    error = _expect(saved, "locked", "open in another StorPlan", f"process {live_stranger}", "someone@")
    assert "read-only" in str(error)
    opened = open_project(saved, read_only_if_locked=True)
    assert opened.read_only and opened.locked_by and opened.project == SMALL
    with pytest.raises(StoreError) as info:
        ProjectLock(saved).acquire()
    assert info.value.reason == "locked" and str(saved) in str(info.value)
    with pytest.raises(StoreError) as info:
        save_project(big_project(10), saved)
    assert info.value.reason == "locked"
    assert_intact(saved, before)
    assert lock.read_text() == lock_text, "the other StorPlan's lock is left alone"


def test_lock_from_another_host_counts_as_live(saved: Path):
    _write_lock(saved, 1, host="some-other-laptop")
    _expect(saved, "locked", "some-other-laptop")
    lock = ProjectLock(saved)
    lock.break_lock()  # after the user confirms
    assert lock.held and open_project(saved).project == SMALL
    lock.release()


def test_stale_lock_is_taken_over(saved: Path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock_file = _write_lock(saved, dead.pid)
    assert open_project(saved).project == SMALL
    with ProjectLock(saved) as lock:
        assert lock.held
        assert json.loads(lock_file.read_text())["pid"] == os.getpid()
        assert open_project(saved).read_only is False  # our own lock does not block us
        save_project(SMALL.with_changes(info={"name": "mine"}), saved)
    assert not lock_file.exists()


# --- read-only places ------------------------------------------------------------------------------------------------


def test_read_only_directory_non_root(saved: Path):
    """chmod 0o555: the project opens read-only and saving it says why. (Root ignores modes: see the next test.)"""
    if IS_ROOT:
        pytest.skip("running as root: chmod does not stop root; covered by the read-only mount test")
    before = digest(saved)
    os.chmod(saved, 0o444)
    os.chmod(saved.parent, 0o555)
    try:
        opened = open_project(saved)
        assert opened.read_only
        with pytest.raises(StoreError) as info:
            save_project(SMALL, saved)
        assert info.value.reason == "read_only" and str(saved) in str(info.value)
        os.chmod(saved, 0o644)
        with pytest.raises(StoreError) as info:
            save_project(SMALL, saved)
        assert info.value.reason == "read_only" and "read-only" in str(info.value)
    finally:
        os.chmod(saved.parent, 0o755)
        os.chmod(saved, 0o644)
    assert_intact(saved, before)


def test_read_only_mount(saved: Path):
    """A genuinely read-only medium, which stops root too: the test's folder bind-mounted read-only inside a private
    user + mount namespace (``unshare -rm``). The child opens the project (read_only) and tries to save it."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        pytest.skip("needs Linux unshare")
    before = digest(saved)
    folder = str(saved.parent)
    code = (
        f"import json, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from models.store import open_project, save_project, StoreError\n"
        f"opened = open_project({str(saved)!r})\n"
        "out = {'read_only': opened.read_only, 'same': opened.project.info.name}\n"
        "try:\n"
        f"    save_project(opened.project, {str(saved)!r}); out['saved'] = True\n"
        "except StoreError as e:\n"
        "    out['reason'] = e.reason; out['message'] = str(e)\n"
        "print('RESULT ' + json.dumps(out))\n"
    )
    script = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && exec \"$0\" -c \"$1\""
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script, sys.executable, code],
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        pytest.skip(f"cannot make a read-only mount here: {result.stderr.strip()[:200]}")
    out = json.loads(lines[0][len("RESULT ") :])
    assert out["read_only"] is True
    assert out["same"] == SMALL.info.name
    assert out.get("reason") == "read_only", out
    assert str(saved) in out["message"] and "read-only" in out["message"]
    assert_intact(saved, before)


@pytest.mark.skipif(sys.platform != "linux", reason="/sys is Linux")
def test_saving_where_even_root_cannot_write():
    """/sys refuses new files to everyone, root included (EACCES)."""
    target = Path("/sys/storplan-test.storplan")
    with pytest.raises(StoreError) as info:
        save_project(SMALL, target)
    assert info.value.reason in ("read_only", "not_found")
    assert str(target) in str(info.value)
    assert not target.exists()


def test_opening_changes_nothing_on_disk(saved: Path):
    folder_before = sorted(os.listdir(saved.parent))
    before = digest(saved)
    for _ in range(3):
        open_project(saved)
    assert digest(saved) == before
    assert sorted(os.listdir(saved.parent)) == folder_before


def test_random_bytes_that_start_with_a_hash_are_not_taken_for_a_text_project(tmp_path: Path):
    """Random bytes whose first byte happens to be "#" (about 1 run in 250 of the test above) were called a text
    (TOML) project; only text is."""
    path = tmp_path / "noise.storplan"
    noise = bytearray(os.urandom(5000))
    noise[0], noise[1] = ord("#"), 0xFF  # 0xFF never occurs in UTF-8
    path.write_bytes(bytes(noise))
    _expect(path, "not_storplan", "not a StorPlan project", "not an SQLite database")

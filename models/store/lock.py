"""A lock file beside an open project (``<file>.lock``) so two StorPlans do not edit the same file.

The lock file holds JSON: pid, host, user and when it was taken. A lock left by a process that is gone (same
host, pid no longer running) is stale and is taken over silently; a lock from another host cannot be checked,
so it counts as live until the user breaks it (:meth:`ProjectLock.break_lock`).
"""

from __future__ import annotations

import errno
import getpass
import json
import os
import socket
import stat
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from models.store.records import StoreError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_MAX_LOCK_BYTES = 4096

_HOLDERS: dict[str, ProjectLock] = {}
"""The :class:`ProjectLock` object of this process that holds each lock file (key: :func:`_holder_key`).

A lock file names a process, so it cannot tell two windows of one StorPlan apart: this registry does. A second
object asking for a lock another object of this process holds is refused like another StorPlan, and only the
holder's release removes the file."""
_HOLDERS_GUARD = threading.Lock()


def _holder_key(lock_path: Path) -> str:
    return os.path.normcase(os.path.join(os.path.realpath(lock_path.parent), lock_path.name))


def held_in_this_process(path: Path | str) -> bool:
    """True when a :class:`ProjectLock` object of this process holds project ``path``'s lock (another window of
    this StorPlan has it open for editing)."""
    with _HOLDERS_GUARD:
        holder = _HOLDERS.get(_holder_key(lock_path_for(path)))
    return holder is not None and holder.held


def read_small_file(path: Path, limit: int = _MAX_LOCK_BYTES) -> bytes:
    """The first ``limit`` bytes of a regular file, without following a symlink or blocking on a FIFO or device.

    Raises:
        OSError: no such file, a symlink (ELOOP), not a regular file, or unreadable.
    """
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return os.read(fd, limit)
    finally:
        os.close(fd)


def create_new_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Create ``path`` holding ``data``; fails if anything (a file, a symlink, even a dangling one) is there.

    ``O_CREAT | O_EXCL | O_NOFOLLOW``: a symlink planted at ``path`` is never followed.

    Raises:
        FileExistsError: something is at ``path``; OSError: the folder cannot be written.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _owner_name(path: Path) -> str:
    try:
        uid = os.lstat(path).st_uid
    except OSError:
        return "another user"
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"user id {uid}"


def lock_path_for(path: Path | str) -> Path:
    """The lock file of project ``path``: the same folder, the file name + ".lock" (a.storplan -> a.storplan.lock)."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def pid_alive(pid: int) -> bool:
    """True when a process with this pid runs on this machine."""
    if pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _user() -> str:
    try:
        return getpass.getuser()
    except (ImportError, KeyError, OSError):  # no user name in some containers (no pwd module, no passwd entry)
        return ""


@dataclass(frozen=True)
class LockInfo:
    """Who holds a project lock."""

    pid: int
    host: str
    user: str
    acquired_at: str

    @property
    def is_mine(self) -> bool:
        """True when this process on this host holds the lock."""
        return self.pid == os.getpid() and self.host == socket.gethostname()

    @property
    def is_stale(self) -> bool:
        """The holder was on this host and its process is gone."""
        return self.host == socket.gethostname() and not pid_alive(self.pid)

    def describe(self) -> str:
        """"user@host, process PID, since ACQUIRED_AT" (host alone when the user is unknown), for messages."""
        who = f"{self.user}@{self.host}" if self.user else self.host
        return f"{who}, process {self.pid}, since {self.acquired_at}"


def read_lock(path: Path | str) -> LockInfo | None:
    """The holder of the lock of project ``path``, or None when it is not locked.

    A lock file that cannot be parsed (a crash while it was written) counts as a stale lock of pid 0.
    """
    lock = lock_path_for(path)
    try:
        raw = read_small_file(lock)
    except FileNotFoundError:
        return None
    except OSError:
        if not os.path.lexists(lock):
            return None
        raw = b""  # a symlink, a FIFO or an unreadable file where the lock should be: not a lock StorPlan wrote
    try:
        data = json.loads(raw.decode("utf-8"))
        return LockInfo(int(data["pid"]), str(data["host"]), str(data.get("user", "")),
                        str(data.get("acquired_at", "")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return LockInfo(0, socket.gethostname(), "", "")


def held_by_other(path: Path | str) -> LockInfo | None:
    """The live lock of another process on project ``path``, or None (unlocked, stale, or ours)."""
    info = read_lock(path)
    if info is None or info.is_mine or info.is_stale:
        return None
    return info


class ProjectLock:
    """The lock a StorPlan holds on a project while it is open for editing.

    Use ``with ProjectLock(path):`` or :meth:`acquire` / :meth:`release`. Acquiring twice with one object is a
    no-op; another object of the same process (another window) is refused while this one holds the lock
    (:func:`held_in_this_process`), and only the holder's release removes the lock file. Opening a project
    (:func:`models.store.open_project`) and saving it check the lock.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.lock_path = lock_path_for(self.path)
        self._key = _holder_key(self.lock_path)
        self._held = False

    @property
    def held(self) -> bool:
        """True while this object holds the lock (between `acquire` and `release`)."""
        return self._held

    def acquire(self) -> None:
        """Take the lock (taking over a stale one).

        Raises:
            StoreError: ``reason="locked"`` when another live StorPlan holds it (the message says who and since
                when); ``reason="read_only"`` when the folder cannot be written (open the project read-only then).
        """
        if self._held:
            return
        payload = json.dumps(
            {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "user": _user(),
                "acquired_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
                "app": "StorPlan",
            }
        ).encode()
        for _attempt in range(3):
            try:
                create_new_file(self.lock_path, payload)
            except FileExistsError:
                info = read_lock(self.path)
                if info is None:
                    continue  # released meanwhile
                if info.is_mine:
                    with _HOLDERS_GUARD:
                        holder = _HOLDERS.get(self._key)
                        if holder is None or holder is self or not holder.held:
                            _HOLDERS[self._key] = self  # our own lock file, held by no object: take it
                            self._held = True
                            return
                    raise StoreError(
                        f"{self.path} is open in another window of this StorPlan. Close it there, or open this "
                        "project read-only.",
                        self.path,
                        "locked",
                    ) from None
                if info.is_stale and (info.pid != 0 or self._age() > 2.0):  # pid 0: unreadable, maybe mid-write
                    self._remove_stale(info)
                    continue
                raise StoreError(
                    f"{self.path} is open in another StorPlan ({info.describe()}). Close it there, or open this "
                    "project read-only.",
                    self.path,
                    "locked",
                ) from None
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                    raise StoreError(
                        f"{self.path}: cannot lock the project because its folder is read-only; open it read-only.",
                        self.path,
                        "read_only",
                    ) from exc
                raise StoreError(f"{self.path}: cannot create the lock file: {exc.strerror or exc}", self.path) from exc
            with _HOLDERS_GUARD:
                _HOLDERS[self._key] = self
            self._held = True
            return
        raise StoreError(f"{self.path}: could not take the project lock (it keeps changing)", self.path, "locked")

    def release(self) -> None:
        """Give the lock up (only removes the lock file if it is still ours)."""
        if not self._held:
            return
        self._held = False
        with _HOLDERS_GUARD:
            mine = _HOLDERS.get(self._key) in (self, None)
            if _HOLDERS.get(self._key) is self:
                del _HOLDERS[self._key]
        if not mine:
            return  # another object of this process holds the file now: it stays
        info = read_lock(self.path)
        if info is not None and info.is_mine:
            self._remove_quietly()

    def break_lock(self) -> None:
        """Remove someone else's lock (after the user confirmed the other StorPlan is gone), then acquire.

        Raises:
            StoreError: as :meth:`acquire`; ``reason="locked"`` when the lock file cannot be removed (it belongs
                to another user in a folder where only owners may delete files).
        """
        self._remove_stale(read_lock(self.path))
        self.acquire()

    def _remove_stale(self, info: LockInfo | None) -> None:
        """Remove a lock left behind, or say in words why it cannot be removed."""
        try:
            self._remove_quietly()
        except PermissionError as exc:
            owner = _owner_name(self.lock_path)
            who = f"process {info.pid}, which is no longer running" if info and info.pid else "a StorPlan that is gone"
            sticky = ""
            try:
                if os.stat(self.lock_path.parent).st_mode & stat.S_ISVTX:
                    sticky = " (in this shared folder only a file's owner may delete it)"
            except OSError:
                pass
            raise StoreError(
                f"{self.path} has a lock left by {owner} ({who}), and you may not remove it{sticky}. Ask {owner} "
                f"or an administrator to delete {self.lock_path}; until then, copy the project to a folder of your "
                "own to work on it.",
                self.path,
                "locked",
            ) from exc

    def _age(self) -> float:
        try:
            return time.time() - self.lock_path.lstat().st_mtime
        except OSError:
            return 0.0

    def _remove_quietly(self) -> None:
        try:
            self.lock_path.unlink()
        except FileNotFoundError:
            pass

    def __enter__(self) -> ProjectLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"ProjectLock({str(self.path)!r}, held={self._held})"

"""The window's hold on its project file's lock (``models.store.ProjectLock``): whose it is, when it changes hands.

A window holds at most one lock: the one of the ``.storplan`` file it shows (none when the file is read-only or
TOML). :class:`LockHolder` keeps it and releases the old one when another takes its place; :func:`lock_holder`
words who holds a lock when another StorPlan does.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def same_path(a: Path | None, b: Path | None) -> bool:
    """Whether two paths name the same file (symbolic links resolved, case folded where the system does)."""
    if a is None or b is None:
        return False
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def lock_holder(path: Path) -> str | None:
    """Who holds the project's lock, in words, when it is another live StorPlan or another window of this one
    (``models.store.lock.held_in_this_process``: the lock file names the process, not the window); else None."""
    from models.store import read_lock
    from models.store.lock import held_in_this_process

    info = read_lock(path)
    if info is None or info.is_stale:
        return None
    if info.is_mine:
        return "another window of this StorPlan" if held_in_this_process(path) else None
    return info.describe()


class LockHolder:
    """The lock of the file a window shows (``current``), or None."""

    def __init__(self) -> None:
        self.current: Any = None

    def lock_for(self, path: Path) -> Any:
        """The held lock when it is ``path``'s (saving or reopening the same file keeps it), else None."""
        if self.current is not None and same_path(self.current.path, path):
            return self.current
        return None

    def replace(self, lock: Any) -> None:
        """Hold ``lock`` (or none) from now on, releasing the previous one when it is another."""
        if self.current is not None and self.current is not lock:
            self.current.release()
        self.current = lock

    def release(self) -> None:
        """Release the held lock (the window closes)."""
        self.replace(None)

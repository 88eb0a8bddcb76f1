"""Two windows of one StorPlan process: the lock file names the process, so a per-process registry tells the
windows apart. A second ProjectLock object for a held project is refused (like another StorPlan), and only the
holder's release removes the lock file."""

from __future__ import annotations

import pytest
from test_store_faults import SMALL

from models.store import ProjectLock, StoreError, read_lock, save_project
from models.store.lock import held_in_this_process


def test_a_second_lock_object_in_this_process_is_refused_and_cannot_release_the_first(tmp_path):
    path = tmp_path / "A.storplan"
    save_project(SMALL, path)
    first = ProjectLock(path)
    first.acquire()
    assert held_in_this_process(path)
    second = ProjectLock(path)
    with pytest.raises(StoreError, match="another window of this StorPlan") as caught:
        second.acquire()
    assert caught.value.reason == "locked" and not second.held
    second.release()
    assert read_lock(path) is not None and read_lock(path).is_mine  # the first still holds it
    first.acquire()  # the same object again: a no-op
    first.release()
    assert read_lock(path) is None and not held_in_this_process(path)
    second.acquire()  # free now
    assert second.held
    second.release()
    assert read_lock(path) is None


def test_our_own_leftover_lock_file_is_taken(tmp_path):
    """A lock file of this pid that no object holds (left by a released-but-not-removed state) is ours to take."""
    path = tmp_path / "A.storplan"
    save_project(SMALL, path)
    first = ProjectLock(path)
    first.acquire()
    first._held = False  # as if the holder object were gone without releasing
    other = ProjectLock(path)
    other.acquire()
    assert other.held
    other.release()
    assert read_lock(path) is None

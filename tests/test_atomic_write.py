"""The one atomic file writer (models.atomic) and every writer built on it: .storplan, TOML, the user catalog,
PDF, XLSX and CSV (the GUI's PNG and SVG charts: tests/gui/test_chart_export_files.py).

For each: a new file's mode is 0o666 & ~umask (umask 022 -> 0o644, 077 -> 0o600); a replaced file keeps its
mode; a symlink planted at a temporary name is never followed; a failure mid-write leaves the old file as it
was and no temporary file behind.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from models import atomic
from models.catalog import bundled_catalog
from models.project import Project
from models.project.model import ProjectInfo


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _project(name: str) -> Project:
    return Project(info=ProjectInfo(name=name))


def _storplan(path: Path, version: int) -> None:
    from models.store import save_project

    save_project(_project(f"v{version}"), path)


def _toml(path: Path, version: int) -> None:
    from models.project.textformat import dump

    dump(_project(f"v{version}"), path)


def _user_catalog(path: Path, version: int) -> None:
    from models.user_catalog import save_user_record

    shelf = bundled_catalog().find("netapp-ds2246")
    save_user_record(shelf.model_copy(update={"id": f"my-shelf-{version}"}), path)


def _pdf(path: Path, version: int) -> None:
    from app.report import write_report

    write_report(_project(f"v{version}"), path)


def _xlsx(path: Path, version: int) -> None:
    from app.report.workbook import write_xlsx

    write_xlsx({"Summary": [["Version"], [version]]}, path)


def _csv(path: Path, version: int) -> None:
    from app.report.workbook import write_sheet_csv

    write_sheet_csv([["Version"], [version]], path)


WRITERS: dict[str, tuple[str, Callable[[Path, int], None]]] = {
    "storplan": ("project.storplan", _storplan),
    "toml": ("project.toml", _toml),
    "user catalog": ("user.toml", _user_catalog),
    "pdf": ("report.pdf", _pdf),
    "xlsx": ("sizing.xlsx", _xlsx),
    "csv": ("sheet.csv", _csv),
}


def _leftovers(folder: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


# --- the writer itself ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_file_mode_follows_the_umask(tmp_path: Path, mask: int, expected: int):
    with umask(mask):
        atomic.write_bytes_atomic(tmp_path / "f.bin", b"data")
    assert mode_of(tmp_path / "f.bin") == expected
    assert (tmp_path / "f.bin").read_bytes() == b"data"
    assert _leftovers(tmp_path, {"f.bin"}) == []


def test_replaced_file_keeps_its_mode_without_set_id_bits(tmp_path: Path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    os.chmod(target, 0o640 | stat.S_ISGID)
    with umask(0o022):
        atomic.write_text_atomic(target, "new")
    assert target.read_text() == "new" and mode_of(target) == 0o640


def test_a_planted_symlink_at_the_temporary_name_is_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    target = tmp_path / "f.txt"
    names = iter(["0" * 16, "1" * 16])
    monkeypatch.setattr(atomic.secrets, "token_hex", lambda _n: next(names))
    planted = tmp_path / f".f.txt.{'0' * 16}.tmp"
    planted.symlink_to(victim)
    atomic.write_text_atomic(target, "mine")
    assert victim.read_text() == "precious"
    assert planted.is_symlink()  # left as it was: the writer took the next random name
    assert target.read_text() == "mine" and not target.is_symlink()
    assert _leftovers(tmp_path, {"victim", "f.txt", planted.name}) == []


def test_temporary_names_are_random_and_created_exclusively(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    seen: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            seen.append((Path(path).name, flags))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", spy)
    atomic.write_bytes_atomic(tmp_path / "a", b"1")
    atomic.write_bytes_atomic(tmp_path / "a", b"2")
    assert len(seen) == 2 and seen[0][0] != seen[1][0]
    assert all(name.startswith(".a.") and name.endswith(".tmp") and len(name) == len(".a..tmp") + 16
               for name, _ in seen)
    assert all(flags & os.O_EXCL and flags & os.O_NOFOLLOW for _, flags in seen)


@pytest.mark.parametrize("where", ["writer", "fsync", "before_replace"])
def test_failure_leaves_the_old_file_and_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            where: str):
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")

    def boom(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def write(handle) -> None:
        handle.write(b"half of the new")
        if where == "writer":
            boom()

    if where == "fsync":
        monkeypatch.setattr(atomic, "_fsync_fd", boom)
    with pytest.raises(OSError, match="No space"):
        atomic.write_atomic(target, write, before_replace=boom if where == "before_replace" else None)
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path, {"f.bin"}) == []


def test_named_writer_failure_removes_its_temporary_file(tmp_path: Path):
    target = tmp_path / "db"

    def write(tmp: Path) -> None:
        tmp.write_bytes(b"partial")
        raise ValueError("cannot store this")

    with pytest.raises(ValueError):
        atomic.write_atomic_named(target, write)
    assert list(tmp_path.iterdir()) == []


def test_a_symlink_at_the_target_is_replaced_not_written_through(tmp_path: Path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    target = tmp_path / "f.txt"
    target.symlink_to(victim)
    atomic.write_text_atomic(target, "mine")
    assert victim.read_text() == "precious"
    assert not target.is_symlink() and target.read_text() == "mine"


# --- every format's writer ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600)])
def test_each_format_writes_new_files_with_the_umask_mode(tmp_path: Path, fmt: str, mask: int, expected: int):
    name, write = WRITERS[fmt]
    with umask(mask):
        write(tmp_path / name, 1)
    assert mode_of(tmp_path / name) == expected
    assert _leftovers(tmp_path, {name}) == []


@pytest.mark.parametrize("fmt", WRITERS)
def test_each_format_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path, fmt: str):
    name, write = WRITERS[fmt]
    write(tmp_path / name, 1)
    os.chmod(tmp_path / name, 0o640)
    before = (tmp_path / name).read_bytes()
    write(tmp_path / name, 2)
    assert (tmp_path / name).read_bytes() != before  # it was replaced
    assert mode_of(tmp_path / name) == 0o640


@pytest.mark.parametrize("fmt", WRITERS)
def test_each_format_never_follows_a_symlink_at_a_temporary_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 fmt: str):
    name, write = WRITERS[fmt]
    victim = tmp_path / "victim"
    victim.write_text("precious")
    names = iter(["f" * 16, "e" * 16])
    monkeypatch.setattr(atomic.secrets, "token_hex", lambda _n: next(names))
    planted = [tmp_path / f"{name}.tmp", *(tmp_path / f".{name}.{'f' * 16}{suffix}" for suffix in (".tmp", ".saving"))]
    for link in planted:
        link.symlink_to(victim)
    write(tmp_path / name, 1)
    assert victim.read_text() == "precious"
    assert all(link.is_symlink() for link in planted)
    assert (tmp_path / name).is_file() and not (tmp_path / name).is_symlink()


@pytest.mark.parametrize("fmt", WRITERS)
def test_each_format_failing_mid_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str):
    name, write = WRITERS[fmt]
    write(tmp_path / name, 1)
    before = (tmp_path / name).read_bytes()

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_fsync_fd", full)
    with pytest.raises(Exception) as info:  # each writer's own error: StoreError, ReportError, WorkbookError...
        write(tmp_path / name, 2)
    assert "space" in str(info.value) or "disk is full" in str(info.value)
    assert (tmp_path / name).read_bytes() == before
    assert _leftovers(tmp_path, {name}) == []

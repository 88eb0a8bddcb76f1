"""A CSV export is one set of files: a failure leaves the folder's previous set whole (never sheets of two designs),
and export failures are worded like the PDF report's ("the folder F does not exist"), never a raw strerror."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from app.report.workbook import WorkbookError, write_csv_folder, write_xlsx
from models import atomic

OLD = {"Summary": [["Item", "Value"], ["Design", "old"]], "Workloads": [["Name"], ["old db"]],
       "Curves": [["IOPS"], [1.0]]}
NEW = {"Summary": [["Item", "Value"], ["Design", "new"]], "Workloads": [["Name"], ["new db"]],
       "Curves": [["IOPS"], [2.0]]}


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_target_that_is_a_folder_changes_no_file(tmp_path):
    write_csv_folder(OLD, tmp_path)
    before = _contents(tmp_path)
    (tmp_path / "workloads.csv").unlink()
    (tmp_path / "workloads.csv").mkdir()  # cannot be replaced
    before.pop("workloads.csv")
    with pytest.raises(WorkbookError) as caught:
        write_csv_folder(NEW, tmp_path)
    assert _contents(tmp_path) == before  # summary.csv is still the old design
    message = str(caught.value)
    assert f"cannot write {tmp_path / 'workloads.csv'}: it is a folder" in message
    assert "No CSV file" in message and "Errno" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curves.csv", "summary.csv", "workloads.csv"]


def test_a_file_that_cannot_be_replaced_midway_leaves_the_old_set_whole(tmp_path, monkeypatch):
    """As on Windows with one file open in Excel: the second rename fails after the first succeeded."""
    write_csv_folder(OLD, tmp_path)
    before = _contents(tmp_path)
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst).name == "workloads.csv" and ".tmp" in Path(src).name:
            raise PermissionError(errno.EACCES, "Permission denied", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(WorkbookError, match="permission denied"):
        write_csv_folder(NEW, tmp_path)
    assert _contents(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before)  # no temporary file left


def test_a_whole_set_is_replaced(tmp_path):
    write_csv_folder(OLD, tmp_path)
    os.chmod(tmp_path / "summary.csv", 0o600)
    written = write_csv_folder(NEW, tmp_path)
    assert [p.name for p in written] == ["summary.csv", "workloads.csv", "curves.csv"]
    assert all("new" in t or "2" in t for t in _contents(tmp_path).values())
    assert os.stat(tmp_path / "summary.csv").st_mode & 0o777 == 0o600  # a replaced file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curves.csv", "summary.csv", "workloads.csv"]


def test_export_errors_are_worded_like_the_report(tmp_path):
    with pytest.raises(WorkbookError) as caught:
        write_xlsx({"Summary": [["a"]]}, tmp_path / "nowhere" / "w.xlsx")
    assert str(caught.value) == f"cannot write {tmp_path / 'nowhere' / 'w.xlsx'}: the folder {tmp_path / 'nowhere'} " \
                                "does not exist"
    assert atomic.write_error_words(OSError(errno.EROFS, "Read-only file system"), tmp_path / "x.csv") == \
        f"the folder {tmp_path} is read-only"
    assert atomic.write_error_words(OSError(errno.ENOSPC, "No space left on device"), tmp_path / "x") == \
        "the disk is full"


def test_a_full_disk_while_writing_names_the_target_and_changes_nothing(tmp_path, monkeypatch):
    write_csv_folder(OLD, tmp_path)
    before = _contents(tmp_path)
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        os.fsync(fd)

    monkeypatch.setattr(atomic, "_fsync_fd", fsync)
    with pytest.raises(WorkbookError) as caught:
        write_csv_folder(NEW, tmp_path)
    assert str(caught.value).startswith(f"cannot write {tmp_path / 'workloads.csv'}: the disk is full")
    assert _contents(tmp_path) == before and sorted(p.name for p in tmp_path.iterdir()) == sorted(before)

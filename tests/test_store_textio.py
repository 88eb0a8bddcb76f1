"""The TOML text form and the SQLite file: import, export, and load_any that takes either."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from models.project import ProjectFormatError, load
from models.store import StoreError, export_toml, import_toml, is_sqlite_file, load_any, open_project

DATA = Path(__file__).parent / "data"
SOURCE = DATA / "project_v1.toml"


def test_import_then_export(tmp_path: Path):
    project = import_toml(SOURCE, tmp_path / "p.storplan")
    assert project == load(SOURCE)
    assert is_sqlite_file(tmp_path / "p.storplan")
    assert open_project(tmp_path / "p.storplan").project == project
    exported = export_toml(tmp_path / "p.storplan", tmp_path / "p.toml")
    assert exported == project and load(tmp_path / "p.toml") == project
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.storplan", "p.toml"]


def test_load_any_sniffs_the_header(tmp_path: Path):
    import_toml(SOURCE, tmp_path / "renamed.toml")  # an SQLite file with a misleading name
    assert load_any(tmp_path / "renamed.toml") == load(SOURCE)
    assert load_any(SOURCE) == load(SOURCE)
    assert load_any(DATA / "project_v1.storplan") == load(SOURCE)


def test_load_any_errors_are_value_errors_naming_the_file(tmp_path: Path):
    noise = tmp_path / "noise.bin"
    noise.write_bytes(os.urandom(300))
    with pytest.raises(ValueError) as info:
        load_any(noise)
    assert isinstance(info.value, (StoreError, ProjectFormatError)) and str(noise) in str(info.value)
    bad = tmp_path / "bad.storplan"
    bad.write_bytes(b"SQLite format 3\x00" + os.urandom(50))
    with pytest.raises(StoreError, match="damaged"):
        load_any(bad)


def test_import_of_an_invalid_toml_names_the_place(tmp_path: Path):
    src = tmp_path / "bad.toml"
    src.write_text(SOURCE.read_text(encoding="utf-8").replace("drive_count = 24", "drive_count = -1"))
    with pytest.raises(ProjectFormatError, match="shelf1"):
        import_toml(src, tmp_path / "out.storplan")
    assert not (tmp_path / "out.storplan").exists()

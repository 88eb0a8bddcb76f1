"""Removing a record from the user catalog while another StorPlan saves one: the other record is kept (the removal
checks the file under the folder's lock at its rename and, when it changed, reads it again), as saving does."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import models.user_catalog as user_catalog
from models.catalog import CatalogError, bundled_catalog
from models.user_catalog import delete_user_record, save_user_record


def _shelf(record_id: str):
    return bundled_catalog().find("netapp-ds2246").model_copy(update={"id": record_id})


def _ids(path: Path) -> set[str]:
    return {r["id"] for r in tomllib.loads(path.read_text(encoding="utf-8")).get("shelf", [])}


def test_a_record_saved_during_a_removal_is_kept(tmp_path: Path, monkeypatch):
    path = tmp_path / "user.toml"
    save_user_record(_shelf("old-shelf"), path)
    save_user_record(_shelf("kept-shelf"), path)
    real_read = user_catalog._read_user_file
    reads = []

    def another_storplan_saves_after_our_read(file: Path) -> dict:
        data = real_read(file)
        reads.append(sorted(r["id"] for r in data.get("shelf", [])))
        if len(reads) == 1:  # between the removal's read and its rename
            monkeypatch.setattr(user_catalog, "_read_user_file", real_read)
            save_user_record(_shelf("theirs-shelf"), file)
            monkeypatch.setattr(user_catalog, "_read_user_file", another_storplan_saves_after_our_read)
        return data

    monkeypatch.setattr(user_catalog, "_read_user_file", another_storplan_saves_after_our_read)
    assert delete_user_record("old-shelf", "shelf", path=path) == path
    assert _ids(path) == {"kept-shelf", "theirs-shelf"}
    assert reads == [["kept-shelf", "old-shelf"], ["kept-shelf", "old-shelf", "theirs-shelf"]]  # read again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["user.toml"]


def test_a_removal_the_other_storplan_already_made_is_named(tmp_path: Path, monkeypatch):
    """The other StorPlan removed the same record meanwhile: reading again finds it gone and says so."""
    path = tmp_path / "user.toml"
    save_user_record(_shelf("old-shelf"), path)
    save_user_record(_shelf("kept-shelf"), path)
    real_read = user_catalog._read_user_file
    calls = []

    def removed_elsewhere_after_our_read(file: Path) -> dict:
        data = real_read(file)
        calls.append(1)
        if len(calls) == 1:
            monkeypatch.setattr(user_catalog, "_read_user_file", real_read)
            delete_user_record("old-shelf", "shelf", path=file)
            monkeypatch.setattr(user_catalog, "_read_user_file", removed_elsewhere_after_our_read)
        return data

    monkeypatch.setattr(user_catalog, "_read_user_file", removed_elsewhere_after_our_read)
    with pytest.raises(CatalogError, match="'old-shelf' is not one of your own shelf records"):
        delete_user_record("old-shelf", "shelf", path=path)
    assert _ids(path) == {"kept-shelf"}

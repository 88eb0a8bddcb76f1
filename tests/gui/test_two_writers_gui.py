"""The window's save when another writer's file lands *during* the save (after the first check, before the
rename): the late check refuses it, the window says so and offers Save As, the other file stays and the window
keeps the user's work (still modified, Save As writes it beside)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_gui_project_files import _answer_save_dialog, example_project  # noqa: F401 (a fixture)

from models import atomic
from models.project.textformat import dump, load
from models.store import open_project, save_project


def _read(path: Path):
    return open_project(path).project if path.suffix == ".storplan" else load(path)


@pytest.mark.parametrize("suffix", [".storplan", ".toml"])
def test_a_save_that_lands_during_ours_is_refused_and_our_work_is_kept(qtbot, window, tmp_path, monkeypatch,
                                                                       example_project, suffix):  # noqa: F811
    folder = tmp_path / "share"
    folder.mkdir()
    path = folder / f"shared{suffix}"
    if suffix == ".storplan":
        save_project(example_project, path)
    else:
        dump(example_project, path)
    assert window.files.open_path(path, wait=True)
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    ours = window.document.project
    theirs = example_project.with_changes(info=example_project.info.with_changes(name="Their edit"))
    real_fsync = atomic._fsync_fd

    def theirs_lands_now(fd: int) -> None:  # our copy is written; theirs is renamed in before ours
        real_fsync(fd)
        monkeypatch.setattr(atomic, "_fsync_fd", real_fsync)
        if suffix == ".storplan":
            save_project(theirs, path, respect_lock=False)
        else:
            dump(theirs, path)

    monkeypatch.setattr(atomic, "_fsync_fd", theirs_lands_now)
    asked: list[str] = []

    def ask(_path, message):
        asked.append(message)
        return "save_as"

    monkeypatch.setattr(window.files, "ask_changed_on_disk", ask)
    copy = folder / "mine.storplan"
    _answer_save_dialog(monkeypatch, copy)
    with qtbot.waitSignal(window.files.sig_saved, timeout=20_000) as saved:
        window.files.save()
    assert len(asked) == 1 and "changed on disk" in asked[0] and path.name in asked[0]
    assert _read(path).info.name == "Their edit"  # theirs stays, whole
    assert Path(saved.args[0]) == copy and open_project(copy).project.scenario == ours.scenario  # ours beside it
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock")) == sorted(
        [path.name, copy.name])
